"""Search over sampled worlds (PIMC with UCB1 at the root), shared by Bank and Thousand.

A search bot never sees the state: a game-specific *sampler* draws full states ("worlds") consistent with
everything the observation shows, and each iteration plays one root action in one world to the end of the
deal (or solves the world exactly when an endgame solver applies) and scores it from the bot's seat. Root
actions are chosen by UCB1 over the totals of all worlds, so the budget goes to the moves that matter.

>>> import random
>>> ucb_pick([0.0, 10.0], [1, 1], 2, 1.0, random.Random(0))  # the better mean wins once both are tried
1
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from koloda.bots.base import Bot
from koloda.errors import IllegalActionError


class SimState(Protocol):
    """What the search needs of a game state (every koloda state has it)."""

    @property
    def current_player(self) -> int | None: ...

    def legal_actions(self) -> list[int]: ...

    def apply(self, action: int) -> None: ...

    def is_over(self) -> bool: ...

    def copy(self) -> Any: ...


#: Draws a world (a state at the observed position, the bot's seat to act) or None when none was found.
Sampler = Callable[[Any, random.Random], SimState | None]
#: The value of a finished (or exactly solved) world for a seat.
Utility = Callable[[Any, int], float]
#: An exact value of a world for a seat, or None when the world is too big to solve.
Solver = Callable[[Any, int], float | None]
#: Chooses a move inside a rollout (full information: it runs only inside sampled worlds).
RolloutPolicy = Callable[[Any, random.Random], int]


def ucb_pick(totals: Sequence[float], counts: Sequence[int], n: int, c: float, rng: random.Random) -> int:
    """UCB1: an untried action first (lowest index), else the best mean plus exploration bonus."""
    for i, k in enumerate(counts):
        if k == 0:
            return i
    log_n = math.log(n)
    best, best_i = -math.inf, 0
    for i, (t, k) in enumerate(zip(totals, counts, strict=True)):
        score = t / k + c * math.sqrt(log_n / k)
        if score > best:
            best, best_i = score, i
    return best_i


def random_rollout(state: Any, rng: random.Random) -> int:
    """A uniformly random legal move."""
    legal = state.legal_actions()
    return int(legal[rng.randrange(len(legal))])


class SearchBot:
    """PIMC over sampled worlds with UCB1 at the root; see the module docstring.

    ``searchable(observation, legal)`` says whether a decision is searched; the others (and any decision
    for which the sampler finds no world) go to ``fallback``. ``scale`` is the spread of the utility, so
    the exploration constant means the same in both games. With ``margin`` > 0 the search overrules the
    fallback's move only when its best move's mean beats the fallback move's mean by ``margin`` standard
    errors of the difference: with a small budget a noisy estimate then leaves a good default alone.
    ``shortlist(observation, legal)`` orders the moves best first (a heuristic's ranking); with ``width``
    > 0 only the first ``width`` of them are searched. With ``paired`` the root actions are tried in turn
    instead of by UCB1, every action in the same world with the same playout randomness (the default
    first), so that their difference is measured without the luck of the deal.
    """

    def __init__(
        self,
        seed: int,
        *,
        sampler: Sampler,
        utility: Utility,
        fallback: Bot,
        searchable: Callable[[Any, Sequence[int]], bool],
        scale: float,
        iters: int = 100,
        ms: int | None = None,
        worlds: int = 40,
        solver: Solver | None = None,
        rollout: RolloutPolicy = random_rollout,
        margin: float = 0.0,
        paired: bool = False,
        shortlist: Callable[[Any, Sequence[int]], list[int]] | None = None,
        width: int = 0,
    ) -> None:
        self._rng = random.Random(seed)
        self._sampler = sampler
        self._utility = utility
        self._fallback = fallback
        self._searchable = searchable
        self._scale = scale
        self.iters = iters
        self.ms = ms
        self._worlds = worlds
        self._solver = solver
        self._rollout = rollout
        self._margin = margin
        self._paired = paired
        self._shortlist = shortlist
        self._width = width
        #: Iterations of the last searched decision (for the speed benchmark).
        self.last_iterations = 0

    def choose(self, observation: Any, legal_actions: Sequence[int]) -> int:
        """The action with the best mean value over the sampled worlds (the fallback's when not searched)."""
        if not legal_actions:
            raise IllegalActionError("no legal action to choose from: the game is over")
        # the fallback sees every observation, so a bot with memory keeps it up to date
        fallback_choice = self._fallback.choose(observation, legal_actions)
        self.last_iterations = 0
        if len(legal_actions) == 1 or not self._searchable(observation, legal_actions):
            return fallback_choice
        return self.search(observation, legal_actions, fallback_choice)

    def search(self, observation: Any, legal_actions: Sequence[int], default: int) -> int:
        """Run the budget; ``default`` is returned when no world consistent with the observation is found."""
        rng = self._rng
        seat: int = observation.seat
        actions = list(legal_actions)
        if self._shortlist is not None and self._width and len(actions) > self._width:
            actions = self._shortlist(observation, actions)[: self._width]
        k = len(actions)
        totals, counts, squares = [0.0] * k, [0] * k, [0.0] * k
        pool: list[Any] = []
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        exact: dict[tuple[int, int], float] = {}
        exhausted = False
        c = 0.7 * self._scale
        n = 0
        if self._paired and default in actions:
            # the default first, so that a budget smaller than the actions still measures it
            d = actions.index(default)
            actions.insert(0, actions.pop(d))
        roll_rng, round_seed = rng, 0
        while n < self.iters and (deadline is None or time.perf_counter() < deadline):
            if self._paired:
                # every action in turn in the same world with the same playout randomness: the comparison
                # between actions is then free of the luck of the deal
                i = n % k
                w = (n // k) % self._worlds
                if i == 0:
                    round_seed = rng.getrandbits(32)
                roll_rng = random.Random(round_seed)
            else:
                w = n % self._worlds
            if w == len(pool) and not exhausted:
                world = self._sampler(observation, rng)
                if world is None:
                    if not pool:
                        return default
                    exhausted = True  # consistent worlds are rare here: the ones found must do
                else:
                    pool.append(world)
            w %= len(pool)
            if not self._paired:
                i = ucb_pick(totals, counts, n + 1, c, rng)
            key = (w, i)
            value = exact.get(key)
            if value is None:
                sim = pool[w].copy()
                sim.apply(actions[i])
                value = self._solver(sim, seat) if self._solver is not None else None
                if value is not None:
                    exact[key] = value
                else:
                    while not sim.is_over():
                        sim.apply(self._rollout(sim, roll_rng))
                    value = self._utility(sim, seat)
            totals[i] += value
            squares[i] += value * value
            counts[i] += 1
            n += 1
        self.last_iterations = n
        best = max(range(k), key=lambda j: (counts[j] > 0, totals[j] / max(counts[j], 1), -j))
        if self._margin > 0 and actions[best] != default and default in actions:
            d = actions.index(default)
            if counts[d] > 1 and counts[best] > 1:
                gap = totals[best] / counts[best] - totals[d] / counts[d]
                if gap < self._margin * math.sqrt(
                    _var(totals[best], squares[best], counts[best]) / counts[best]
                    + _var(totals[d], squares[d], counts[d]) / counts[d]
                ):
                    return default
        return actions[best]


def _var(total: float, square: float, count: int) -> float:
    """The sample variance from a sum and a sum of squares."""
    return max(0.0, (square - total * total / count) / (count - 1))

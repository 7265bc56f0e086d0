"""The coach's rater for Bank (docs/analysis.md): the search bot's worlds and playouts, every move valued.

At a decision the rater draws deals consistent with the seat's observation
(:class:`koloda.bank.worlds.WorldSampler`, as the search bot does), plays every legal move in each of them
and the deal out to its end with the same playout randomness for every move (a paired comparison: the
difference between two moves is measured without the luck of the deal), and scores the end by the search
bot's utility (:func:`koloda.bots.bank.utility`: the seat's points in the deal minus the others' mean).
The playouts are the heuristic bot's moves (:class:`koloda.bots.bank.BankHeuristicBot`, from each seat's
own observation of the world) with a share ``noise`` of random moves.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.bank.observe import BankObservation, observe
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState
from koloda.bank.worlds import WorldSampler
from koloda.bots.bank import BankHeuristicBot, utility
from koloda.coach import Thresholds
from koloda.options import Options

#: Bank's marks (docs/analysis.md): a move that loses 10 points of the deal against the best is a mistake,
#: 25 points a blunder (a rich bank is 30 to 60 points).
THRESHOLDS = Thresholds(mistake=10.0, blunder=25.0)


#: Draws the sampler may give up on (each after its own attempts) before a decision is valued on the worlds
#: found so far (or not rated, with none).
_MISSES = 128


class BankRater:
    """Values every legal move of a Bank seat over sampled deals (module docstring): ``batch`` worlds at a
    time, from ``least`` up to ``most`` (and at most ``playouts`` playouts a decision), until every move's
    mark is clear: its loss against the best move at least ``sure`` standard errors (of the paired
    difference, world by world) away from both thresholds."""

    thresholds = THRESHOLDS

    def __init__(
        self,
        options: Options | None = None,
        *,
        batch: int = 64,
        least: int = 128,
        most: int = 2048,
        playouts: int = 8192,
        sure: float = 3.0,
        noise: float = 0.0,
    ) -> None:
        opts = options if isinstance(options, BankOptions) else BankOptions()
        self._sampler = WorldSampler(opts)
        self._options = opts
        self._batch = batch
        self._least = least
        self._most = most
        self._playouts = playouts
        self._sure = sure
        self._noise = noise

    def values(
        self, observation: Any, legal: Sequence[int], rng: random.Random
    ) -> Mapping[int, float] | None:
        assert isinstance(observation, BankObservation)
        seat = observation.seat
        if len(legal) < 2 or seat is None:
            return None
        k = len(legal)
        most = max(self._least, min(self._most, self._playouts // k))
        scores: list[list[float]] = []  # per world, every move's value
        misses = 0
        while len(scores) < most:
            world = self._sampler(observation, rng)
            if world is None:  # the sampler gave up on one draw: hard to sample, not impossible
                misses += 1
                if misses >= _MISSES:
                    break
                continue
            round_seed = rng.getrandbits(32)
            row = []
            for action in legal:
                sim = world.copy()
                sim.apply(action)
                row.append(self._playout(sim, seat, round_seed))
            scores.append(row)
            n = len(scores)
            if n >= self._least and n % self._batch == 0 and self._clear(scores):
                break
        if not scores:
            return None
        n = len(scores)
        return {a: sum(row[i] for row in scores) / n for i, a in enumerate(legal)}

    def _clear(self, scores: list[list[float]]) -> bool:
        """Whether every move's loss is far enough from both thresholds to keep its mark."""
        n = len(scores)
        k = len(scores[0])
        means = [sum(row[i] for row in scores) / n for i in range(k)]
        best = max(range(k), key=lambda i: means[i])
        for i in range(k):
            if i == best:
                continue
            diffs = [row[best] - row[i] for row in scores]
            loss = means[best] - means[i]
            var = sum((d - loss) ** 2 for d in diffs) / (n - 1)
            error = self._sure * math.sqrt(var / n)
            if any(abs(loss - t) < error for t in (self.thresholds.mistake, self.thresholds.blunder)):
                return False
        return True

    def _playout(self, sim: BankState, seat: int, seed: int) -> float:
        bot = BankHeuristicBot(seed, noise=self._noise, options=self._options)
        while not sim.is_over():
            legal = sim.legal_actions()
            player = sim.current_player
            assert player is not None
            sim.apply(legal[0] if len(legal) == 1 else bot.choose(observe(sim, player), legal))
        return utility(sim, seat)

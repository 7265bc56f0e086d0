"""Single-agent Gymnasium environments: the learner plays one seat, koloda bots play the others.

``gymnasium.make("koloda/Bank-v0", players=3, seat=0)`` (after ``import koloda.rl``). Observations are
the same dict as the PettingZoo environments' (``observation``, ``action_mask``); the reward of a step is
what the learner earned while the others played up to its next turn (deal points, or the match result
with ``rewards="game"``). ``opponents`` is a list of objects with ``choose(observation,
legal_actions)`` (see :mod:`koloda.bots`), one per other seat in seat order; by default
:class:`koloda.bots.RandomBot` s seeded from the reset seed.

An action the mask forbids is never replaced by another. With ``illegal="end"`` (the default, because
Gymnasium's ``check_env`` and mask-unaware learners step any action of the space) it is not played: the
episode ends (``terminated``) with reward ``illegal_reward`` and ``info["illegal"]`` saying why; with
``illegal="raise"`` it raises :class:`IllegalActionError`. Either way the game state is unchanged.
``action_space.sample()`` without a mask draws a legal action of the current position.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from koloda import registry
from koloda.bots import Bot, RandomBot
from koloda.errors import IllegalActionError, OptionsError
from koloda.rl.aec import ObsDict, observation_space
from koloda.rl.core import Adapter, as_action, new_rewards
from koloda.tensor import mask_of


class LegalDiscrete(gym.spaces.Discrete):
    """The game's ``Discrete`` action space whose ``sample()`` without a mask draws a legal action now.

    Gymnasium's checkers and quick scripts step ``action_space.sample()``; since an illegal action is
    an error here, sampling follows the current action mask. Containment is still the whole space.
    """

    def __init__(self, n: int, mask: Callable[[], npt.NDArray[np.int8] | None]) -> None:
        super().__init__(n)
        self._mask = mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None:
            mask = self._mask()
        return super().sample(mask=mask, probability=probability)


class KolodaGymEnv(gym.Env[ObsDict, np.int64]):
    """One seat of a koloda game against bots (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        adapter: Adapter,
        seat: int = 0,
        opponents: Sequence[Bot] | None = None,
        render_mode: str | None = None,
        illegal: str = "end",
        illegal_reward: float = -1.0,
    ) -> None:
        n = adapter.players
        if illegal not in ("end", "raise"):
            raise OptionsError(f"illegal must be 'end' or 'raise', not {illegal!r}")
        if isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float)):
            raise OptionsError(f"illegal_reward must be a number, not {illegal_reward!r}")
        if type(seat) is not int or not 0 <= seat < n:
            raise OptionsError(f"seat must be 0-{n - 1}, not {seat!r}")
        if opponents is not None and len(opponents) != n - 1:
            raise OptionsError(f"opponents must be {n - 1} bots (one per other seat), not {len(opponents)}")
        if opponents is not None and not all(callable(getattr(b, "choose", None)) for b in opponents):
            raise OptionsError("every opponent needs a choose(observation, legal_actions) method")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionsError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.adapter = adapter
        self.seat = seat
        self.illegal, self.illegal_reward = illegal, float(illegal_reward)
        self.render_mode = render_mode
        self._spec = registry.get(adapter.game)  # the bots see the game's own observation of their seat
        self._given = list(opponents) if opponents is not None else None
        self._bots: list[Bot] = []
        self.observation_space = observation_space(adapter)  # type: ignore[assignment]
        self.action_space = LegalDiscrete(adapter.num_actions, self._current_mask)
        self.state: Any = None
        self._deals = 0

    def _obs(self) -> ObsDict:
        state = self.state
        legal = state.legal_actions() if state.current_player == self.seat else []
        return {
            "observation": self.adapter.encode(state, self.seat),
            "action_mask": mask_of(legal, self.adapter.num_actions),
        }

    def _current_mask(self) -> npt.NDArray[np.int8] | None:
        state = self.state
        if state is None or state.is_over() or state.current_player != self.seat:
            return None  # nothing to play: sample the whole space
        return mask_of(state.legal_actions(), self.adapter.num_actions)

    def _others(self) -> float:
        """Let the bots play until the learner's turn or the end; the learner's reward meanwhile."""
        state, seat, total = self.state, self.seat, 0.0
        while not state.is_over() and state.current_player != seat:
            p = state.current_player
            bot = self._bots[p if p < seat else p - 1]
            state.apply(bot.choose(self._spec.observe(state, p), state.legal_actions()))
            earned, self._deals = new_rewards(self.adapter, state, self._deals)
            total += earned[seat]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        """A new game; with ``seed`` every shuffle and the default bots are fixed. ``options`` is unused."""
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.state = self.adapter.new_state(game_seed)
        self._deals = 0
        self._bots = self._given or [RandomBot(game_seed + 1 + k) for k in range(self.adapter.players - 1)]
        self._others()
        return self._obs(), {}

    def step(self, action: np.int64 | int) -> tuple[ObsDict, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or state.is_over():
            raise IllegalActionError("the episode is over (or not started): call reset()")
        try:
            state.apply(as_action(action, self.adapter.num_actions, self.adapter.game))
        except IllegalActionError as exc:
            if self.illegal == "raise":
                raise
            return self._obs(), self.illegal_reward, True, False, {"illegal": str(exc)}
        earned, self._deals = new_rewards(self.adapter, state, self._deals)
        reward = earned[self.seat] + self._others()
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, state.is_over(), False, {}

    def render(self) -> str | None:
        """The table as text with the learner's hand; printed in "human" mode."""
        if self.state is None:
            return None
        text = self.adapter.render(self.state, self.seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class ThousandEnv(KolodaGymEnv):
    """``koloda/Thousand-v0``: keyword arguments as :class:`koloda.rl.thousand_encoding.ThousandAdapter`,
    plus ``seat``, ``opponents``, ``render_mode``, ``illegal`` and ``illegal_reward``."""

    def __init__(
        self,
        seat: int = 0,
        opponents: Sequence[Bot] | None = None,
        render_mode: str | None = None,
        illegal: str = "end",
        illegal_reward: float = -1.0,
        **kwargs: Any,
    ) -> None:
        from koloda.rl.thousand_encoding import ThousandAdapter

        adapter = ThousandAdapter(**kwargs)
        if adapter.players == 4 and adapter.scope == "deal" and seat == 0:
            raise OptionsError(
                "seat 0 deals the only deal and sits it out with 4 players (rule G2): choose seat 1-3"
            )
        super().__init__(adapter, seat, opponents, render_mode, illegal, illegal_reward)


class BankEnv(KolodaGymEnv):
    """``koloda/Bank-v0``: keyword arguments as :class:`koloda.rl.bank_encoding.BankAdapter`, plus
    ``seat``, ``opponents``, ``render_mode``, ``illegal`` and ``illegal_reward``."""

    def __init__(
        self,
        seat: int = 0,
        opponents: Sequence[Bot] | None = None,
        render_mode: str | None = None,
        illegal: str = "end",
        illegal_reward: float = -1.0,
        **kwargs: Any,
    ) -> None:
        from koloda.rl.bank_encoding import BankAdapter

        super().__init__(BankAdapter(**kwargs), seat, opponents, render_mode, illegal, illegal_reward)

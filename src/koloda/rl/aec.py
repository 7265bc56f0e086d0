"""The PettingZoo AEC environment of a koloda game (written once; :mod:`koloda.rl.bank_v0` and
:mod:`koloda.rl.thousand_v0` give it a game).

Agents are ``player_0`` ... ``player_{n-1}`` (seat numbers). Each observation is
``{"observation": float32 vector, "action_mask": int8 vector}``; the action space is the game's fixed
``Discrete`` space of action ids. A masked-out action raises :class:`IllegalActionError` and changes
nothing: it is never replaced by another action.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from koloda.errors import IllegalActionError, OptionsError
from koloda.rl.core import Adapter, as_action, new_rewards
from koloda.tensor import mask_of

ObsDict = dict[str, npt.NDArray[Any]]


def observation_space(adapter: Adapter) -> spaces.Dict:
    """The observation space shared by the PettingZoo and Gymnasium environments."""
    return spaces.Dict(
        {
            "observation": spaces.Box(adapter.obs_low, adapter.obs_high, (adapter.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (adapter.num_actions,), np.int8),
        }
    )


class KolodaAEC(AECEnv):  # type: ignore[misc]
    """A koloda game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "koloda",
        "is_parallelizable": False,
    }

    def __init__(self, adapter: Adapter, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionsError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.adapter = adapter
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(adapter.players)]
        self._index = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._obs_space = observation_space(adapter)
        self._act_space = spaces.Discrete(adapter.num_actions)
        self._match = adapter.scope == "match"
        self._seeds = random.Random()
        self._stream_seed: int | None = None
        self.state: Any = None
        self._deals = 0
        self._paid = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._act_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes every shuffle. (``options`` is accepted for the PettingZoo API and
        unused: the game's options are fixed when the environment is made.)"""
        if seed is not None:
            # the stream for later seedless resets starts from this seed; seeding costs as much as a
            # few game steps, so it is done when a seedless reset first needs it
            self._stream_seed = seed
            game_seed = seed
        else:
            if self._stream_seed is not None:
                self._seeds.seed(self._stream_seed)
                self._stream_seed = None
            game_seed = self._seeds.randrange(2**31)
        self.state = self.adapter.new_state(game_seed)
        self._deals = 0
        self._paid = False  # whether the last step paid any reward (then this one must clear it)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> ObsDict:
        seat = self._index[agent]
        state = self.state
        adapter = self.adapter
        legal = state.legal_actions() if state.current_player == seat else ()
        mask = mask_of(legal, adapter.num_actions)
        return {"observation": adapter.encode(state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to act; a finished agent must pass ``None``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act (got None); legal: {self.state.legal_actions()}")
        state = self.state
        state.apply(
            action if type(action) is int else as_action(action, self.adapter.num_actions, self.adapter.game)
        )
        self._cumulative_rewards[agent] = 0.0
        over = state.is_over()
        if over or self._paid or (self._match and self.adapter.deals_done(state) != self._deals):
            # rewards only change at the end of a deal (in a one-deal episode, at the end): the common
            # step skips the bookkeeping
            earned, self._deals = new_rewards(self.adapter, state, self._deals)
            for p, name in enumerate(self.possible_agents):
                self.rewards[name] = earned[p]
            self._paid = any(earned)
            self._accumulate_rewards()
        if over:
            for name in self.agents:
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text, with the hand of the agent to act; printed in "human" mode."""
        if self.state is None:
            return None
        seat = None if self.state.is_over() else self._index[self.agent_selection]
        text = self.adapter.render(self.state, seat)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks with the hot calls (``last``, ``step``, the agent iterator) forwarded
    directly: the base class reads half a dozen attributes through ``__getattr__`` on every step, which
    cost more than the game's own step (docs/performance.md, "RL interfaces")."""

    def last(self, observe: bool = True) -> tuple[Any, ...]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        env = self.env  # AECEnv.last, inlined: one call less on every step
        agent = env.agent_selection
        return (
            env.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        self._has_updated = True
        if not self.env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)


class _AgentIterable:
    """PettingZoo's order-enforcing agent iterator, reading the environment without the wrapper's lookups."""

    def __init__(self, wrapper: OrderEnforcing, max_iter: int) -> None:
        self.wrapper, self.max_iter = wrapper, max_iter

    def __iter__(self) -> Iterator[str]:
        wrapper, env = self.wrapper, self.wrapper.env
        for _ in range(self.max_iter):
            if not env.agents:
                return
            if not wrapper._has_updated:
                raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
            wrapper._has_updated = False
            yield env.agent_selection

"""What every research interface needs from a game: the :class:`Adapter` of one game, set up with its options.

An adapter builds states from a seed, encodes one seat's view as a fixed-length float vector (the
observation tensor of docs/rl.md), reports the end of each deal, and renders the table as text. The
PettingZoo, Gymnasium and OpenSpiel front ends (:mod:`koloda.rl.aec`, :mod:`koloda.rl.gym_env`,
:mod:`koloda.rl.openspiel`) are written once against this protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np

from koloda import registry
from koloda.errors import IllegalActionError, OptionsError
from koloda.game import GameState
from koloda.tensor import FloatArray

Rewards = Literal["deal", "game"]


class Adapter(Protocol):
    """One game with its options fixed, as the research interfaces see it."""

    game: str
    players: int
    num_actions: int
    obs_size: int
    obs_low: FloatArray
    obs_high: FloatArray
    scope: Literal["deal", "match"]
    rewards: Rewards

    def new_state(self, seed: int) -> GameState:
        """A new game (a deal or a match, as ``scope`` says) shuffled from ``seed``."""
        ...

    def encode(self, state: Any, seat: int) -> FloatArray:
        """The observation tensor of ``seat``: a new float32 array of ``obs_size`` (docs/rl.md)."""
        ...

    def deals_done(self, state: Any) -> int:
        """How many deals have ended so far."""
        ...

    def deal_scores(self, state: Any, index: int) -> Sequence[int]:
        """The points per seat of deal ``index`` (0-based)."""
        ...

    def winner(self, state: Any) -> int | None:
        """The winner of a finished match."""
        ...

    def render(self, state: Any, seat: int | None) -> str:
        """The table as text; only ``seat``'s hand is shown (none when ``seat`` is None)."""
        ...


class GameAdapter:
    """A registered game (:mod:`koloda.registry`) with its options fixed, as the research interfaces see it.

    Everything comes from the game's spec: its options and presets, new games, the observation tensor
    (``GameSpec.encoder()``: a game without one has no research interface), the action space, the deals
    ended and their points, the winner. The per-game adapters only set the defaults and the text view.
    """

    default_preset = "default"

    def __init__(
        self,
        game: str,
        players: int,
        preset: str | None = None,
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        spec = registry.get(game)
        self.spec, self.game = spec, spec.name
        counts = spec.player_counts
        self.players = check_players(players, min(counts), max(counts), spec.titles["en"])
        self.rewards = check_rewards(rewards, scope)
        self.scope = scope
        self.options = spec.options(preset or self.default_preset).replace(**options)
        self.encoder = spec.encoder()
        self.num_actions = spec.num_actions
        self.obs_size, self.obs_low, self.obs_high = self.encoder.size, self.encoder.low, self.encoder.high
        # bound once: these run at every step of a learner's loop
        self.encode = self.encoder.encode
        self.deals_done = spec.deals_played
        self.deal_scores = spec.deal_scores
        self.winner = spec.winner

    def new_state(self, seed: int) -> GameState:
        return self.spec.new_game(self.options, players=self.players, seed=seed, scope=self.scope)

    def render(self, state: GameState, seat: int | None) -> str:
        """The seat's observation (a spectator's when ``seat`` is None) as text."""
        view = self.spec.observe(state, seat).to_json()
        return "\n".join(f"{key}: {value}" for key, value in view.items())


def check_rewards(rewards: object, scope: object) -> Rewards:
    """Validate the ``rewards`` argument against the scope."""
    if rewards not in ("deal", "game"):
        raise OptionsError(f"rewards must be 'deal' or 'game', not {rewards!r}")
    if scope not in ("deal", "match"):
        raise OptionsError(f"scope must be 'deal' or 'match', not {scope!r}")
    if rewards == "game" and scope != "match":
        raise OptionsError("rewards 'game' (won or lost at the end of the match) needs scope 'match'")
    return rewards


def check_players(players: object, low: int, high: int, game: str) -> int:
    if type(players) is not int or not low <= players <= high:
        raise OptionsError(f"{game} is for {low}-{high} players, not {players!r}")
    return players


def as_action(action: object, num_actions: int, game: str) -> int:
    """A Python int from whatever integer type a learner passes (NumPy ints included), or a clear error."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise IllegalActionError(f"bad {game} action {action!r}: expected an integer id 0-{num_actions - 1}")
    return int(action)


def game_rewards(adapter: Adapter, state: Any) -> list[float]:
    """Rewards ``game``: 1 to the match winner, -1/(n-1) to each other seat (zero-sum)."""
    n = adapter.players
    win = adapter.winner(state)
    return [1.0 if p == win else -1.0 / (n - 1) for p in range(n)]


def new_rewards(adapter: Adapter, state: Any, seen_deals: int) -> tuple[list[float], int]:
    """The rewards earned since ``seen_deals`` deals had ended, and the new count of ended deals."""
    done = adapter.deals_done(state)
    out = [0.0] * adapter.players
    if adapter.rewards == "deal":
        for index in range(seen_deals, done):
            for p, points in enumerate(adapter.deal_scores(state, index)):
                out[p] += float(points)
    elif state.is_over():
        out = game_rewards(adapter, state)
    return out, done

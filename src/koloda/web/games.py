"""The games the web app serves, each behind the protocol of docs/api.md, and the JSON views it sends.

Every view that leaves the server is built here from ``observe(state, seat)`` (a seat) or from a
public view (a spectator), never from the state itself:

>>> game = GAMES["bank"]
>>> state = game.new_game(game.options_class(), players=2, seed=1)
>>> view = seat_view(game, state, 0)
>>> len(view["hand"]), view["seat"]
(4, 0)
>>> public_view(game, state)["hand"]
[]
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from koloda.cards import Card, Suit
from koloda.errors import KolodaError
from koloda.game import GameRecord, GameState
from koloda.options import Options


@dataclass(frozen=True)
class WebGame:
    """One game as the server drives it: construction, replay, the seat's and the public view."""

    name: str
    title_ru: str
    title_en: str
    min_players: int
    max_players: int
    options_class: type[Options]
    new_game: Callable[..., GameState]
    replay: Callable[[GameRecord], GameState]
    observe: Callable[[GameState, int], Any]
    public: Callable[[GameState], dict[str, Any]]
    hand_field: str


def jsonable(value: Any) -> Any:
    """Observation dataclasses to JSON values: cards as canonical text, suits as letters."""
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {field.name: jsonable(getattr(value, field.name)) for field in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    return value


def seat_view(game: WebGame, state: GameState, seat: int) -> dict[str, Any]:
    """What ``seat`` may see, as JSON: ``observe(state, seat)`` and the text of its own legal actions."""
    view: dict[str, Any] = jsonable(game.observe(state, seat))
    view["actions"] = [[action, state.action_text(action)] for action in view.get("legal_actions", [])]
    return view


def public_view(game: WebGame, state: GameState) -> dict[str, Any]:
    """What a spectator may see: the game's public view, with no hand and no legal actions."""
    view = game.public(state)
    view["seat"] = None
    view[game.hand_field] = []
    view["legal_actions"] = []
    view["actions"] = []
    return view


# -- Bank ---------------------------------------------------------------------------------------------


def _bank_public(state: GameState) -> dict[str, Any]:
    from koloda.bank import observe

    # Seat 0's observation minus its hand: every other field of a Bank observation is public.
    view: dict[str, Any] = jsonable(observe(state, 0))  # type: ignore[arg-type]
    return view


def _bank() -> WebGame:
    bank = importlib.import_module("koloda.bank")
    return WebGame(
        name="bank",
        title_ru="Банк",
        title_en="Bank",
        min_players=2,
        max_players=4,
        options_class=bank.BankOptions,
        new_game=bank.new_game,
        replay=bank.replay,
        observe=bank.observe,
        public=_bank_public,
        hand_field="hand",
    )


# -- Thousand -----------------------------------------------------------------------------------------


def _thousand_public(state: GameState) -> dict[str, Any]:
    from koloda.thousand.game import observe

    # A defender's view (the talon as the defenders see it), without the gifts he gave or got (rule G7).
    declarer = getattr(state, "declarer", None)
    players = int(getattr(state, "players", 3))
    seat = next(s for s in range(players) if s != declarer)
    view: dict[str, Any] = jsonable(observe(state, seat))  # type: ignore[arg-type]
    view["gifts"] = []
    return view


def _thousand() -> WebGame:
    thousand = importlib.import_module("koloda.thousand.game")
    return WebGame(
        name="thousand",
        title_ru="Тысяча",
        title_en="Thousand",
        min_players=3,
        max_players=4,
        options_class=thousand.ThousandOptions,
        new_game=thousand.new_game,
        replay=thousand.replay,
        observe=thousand.observe,
        public=_thousand_public,
        hand_field="hand",
    )


GAMES: dict[str, WebGame] = {game.name: game for game in (_bank(), _thousand())}


def get_game(name: object) -> WebGame:
    """The web game called ``name``; a clear error for anything else."""
    if not isinstance(name, str) or name not in GAMES:
        raise KolodaError(f"unknown game {name!r}; games: {', '.join(GAMES)}")
    return GAMES[name]

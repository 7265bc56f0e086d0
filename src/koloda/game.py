"""The game protocol every koloda card game follows, and the game record that replays a game.

See ``docs/api.md`` for the prose version. A game is a package (``koloda.bank``, ``koloda.thousand``)
exposing:

* an options class (:class:`koloda.options.Options`) with presets;
* ``new_game(options, *, players, seed, scope)`` and ``from_deal(deal, options, *, scope)`` returning a
  state that follows :class:`GameState`;
* ``observe(state, seat)``: everything that seat may see, and nothing else;
* ``replay(record)``: rebuild a state from a :class:`GameRecord`.

Actions are ints in a fixed, documented action space of the game (fast to generate and compare, and the
same ids the research interfaces use); ``state.action_text(a)`` and ``state.parse_action(text)`` give the
canonical text notation, which parses back to the same action.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, Self

from koloda.errors import KolodaError, RecordError

Scope = Literal["deal", "match"]
RECORD_VERSION = 1


class GameState(Protocol):
    """What every game state offers. States are mutable for speed; :meth:`copy` is cheap."""

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, in ascending id order (empty when over)."""
        ...

    def apply(self, action: int) -> None:
        """Play an action; an illegal one raises IllegalActionError saying why and changes nothing."""
        ...

    def is_over(self) -> bool: ...

    def returns(self) -> list[int]:
        """Points per seat so far: this deal's for scope "deal", the match totals for scope "match"."""
        ...

    def action_text(self, action: int) -> str: ...

    def parse_action(self, text: str) -> int:
        """Canonical text (or a friendly alias) to an action id; NotationError when malformed."""
        ...

    def copy(self) -> Self: ...

    def record(self) -> GameRecord: ...


@dataclass(frozen=True)
class GameRecord:
    """Options, the deal's origin (a seed or an explicit deal) and the actions: enough to replay.

    The JSON form is ``{"game", "version", "players", "scope", "options", "seed" | "deal", "actions"}``
    with actions in canonical text notation; ``meta`` is free-form (names, dates) and never affects play.
    """

    game: str
    players: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    seed: int | None = None
    deal: dict[str, Any] | None = None
    scope: Scope = "match"
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "version": RECORD_VERSION,
            "players": self.players,
            "scope": self.scope,
            "options": self.options,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.deal is not None:
            data["deal"] = self.deal
        data["actions"] = list(self.actions)
        if self.meta:
            data["meta"] = self.meta
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any, *, game: str | None = None) -> GameRecord:
        """Validate the shape of a record (not its moves: replaying does that)."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        known = {"game", "version", "players", "scope", "options", "seed", "deal", "actions", "meta"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RecordError(
                f"unknown key {unknown[0]!r} in game record; known keys: {', '.join(sorted(known))}"
            )
        name = _get(data, "game", str)
        if game is not None and name != game:
            raise RecordError(f"this is a record of {name!r}, not of {game!r}")
        version = data.get("version", RECORD_VERSION)
        if version != RECORD_VERSION:
            raise RecordError(f"unsupported record version {version!r} (this koloda reads {RECORD_VERSION})")
        players = _get(data, "players", int)
        scope = data.get("scope", "match")
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be a JSON object")
        actions = _get(data, "actions", list)
        bad = [a for a in actions if not isinstance(a, str)]
        if bad:
            raise RecordError(f"every action must be a string of notation, not {bad[0]!r}")
        seed, deal = data.get("seed"), data.get("deal")
        if (seed is None) == (deal is None):
            raise RecordError("a game record needs exactly one of 'seed' and 'deal'")
        if seed is not None and (type(seed) is not int or seed < 0):
            raise RecordError(f"'seed' must be a non-negative integer, not {seed!r}")
        if deal is not None and not isinstance(deal, dict):
            raise RecordError("'deal' must be a JSON object")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a JSON object")
        return cls(name, players, options, tuple(actions), seed, deal, scope, meta)

    @classmethod
    def loads(cls, text: str, *, game: str | None = None) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        return cls.from_json(data, game=game)

    @classmethod
    def load(cls, path: str | Path, *, game: str | None = None) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
        try:
            return cls.loads(text, game=game)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None


def _get(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise RecordError(f"game record has no {key!r}")
    value = data[key]
    wrong = type(value) is not int if kind is int else not isinstance(value, kind)  # bool is not an int here
    if wrong:
        raise RecordError(f"{key!r} must be {kind.__name__}, not {value!r}")
    return value


def replay_actions(state: GameState, actions: Sequence[str]) -> None:
    """Apply recorded actions in order; a bad one raises RecordError naming its number and text."""
    for number, text in enumerate(actions, start=1):
        try:
            state.apply(state.parse_action(text))
        except KolodaError as exc:
            raise RecordError(f"action {number} {text!r} does not replay: {exc}") from None

"""A pytest plugin that records every case the project's tests put to the Thousand scorer and the banki
referee, for the browser's copy of those rules (``koloda/web/static/rules-*.js``) to be tested on them.

``rules_cases.collect`` runs the scoring, score-sheet and referee tests with ``-p rules_recorder`` and
reads what this writes to ``$KOLODA_RULES_CASES``: only the inputs, never an answer (the answers are asked
of the Python engines again when the cases are compared, so nothing recorded can drift from them).

- ``books``: one per :class:`ScoreBook` a test used: its options, players, the totals it started from and
  the deals it held when first used, then every ``apply`` (the deal) and ``undo`` in order.
- ``lines``: every deal line read for a sheet (``deal_from_json``): the players with their genders, the
  book it was read against, the JSON value.
- ``games``: one per banki game a test used: its whole position when first used, then every event in
  order: ``parse`` (text a test had read) or ``apply`` (the canonical text of the event applied); where a
  test changed the position by hand in between (a rank set up for a scenario), the step carries the
  position it was applied to.

Calls the engines make themselves (a replay, an undo rebuilding a game, the trial copies that list the legal
events) are not cases: only what a test asked.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from koloda.banki import saved as banki_saved
from koloda.banki import state as banki_state
from koloda.thousand import scoring
from koloda.thousand.sheet import scorefile

BOOKS: list[dict[str, Any]] = []
LINES: list[dict[str, Any]] = []
GAMES: list[dict[str, Any]] = []
SKIPPED: dict[str, int] = {}
_DEPTH = [0]


def _inside(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` with its own calls of the recorded methods not recorded (they are the engine's)."""

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        _DEPTH[0] += 1
        try:
            return function(*args, **kwargs)
        finally:
            _DEPTH[0] -= 1

    return wrapper


def _json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def _skip(what: str) -> None:
    SKIPPED[what] = SKIPPED.get(what, 0) + 1


# -- Thousand -------------------------------------------------------------------------------------------


def _value(value: Any) -> Any:
    """A DealInput field as JSON. The scorer's messages show a tuple and a list differently, and an int
    and an integral float: the rarer of each is marked (``$list``, ``$float``)."""
    if isinstance(value, tuple):
        return [_value(item) for item in value]
    if isinstance(value, list):
        return {"$list": [_value(item) for item in value]}
    if isinstance(value, float) and value.is_integer():
        return {"$float": repr(value)}
    return value


def _deal(deal: Any) -> Any:
    if not isinstance(deal, scoring.DealInput):
        return {"$type": type(deal).__name__}
    fields = ("declarer", "bid", "bomb", "points", "marriages", "sitting")
    return {name: _value(getattr(deal, name)) for name in fields}


def _book(book: scoring.ScoreBook) -> dict[str, Any]:
    return {
        "options": book.options.to_dict(),
        "players": book.players,
        "start": [seat.total for seat in book._states[0]],
        "deals": [_deal(score.deal) for score in book.deals],
    }


def _book_steps(book: scoring.ScoreBook) -> list[dict[str, Any]]:
    """The recorded session of ``book`` (a new one the first time a test uses it)."""
    session = book.__dict__.get("_recorded")
    if session is None:
        session = {**_book(book), "steps": []}
        BOOKS.append(session)
        book.__dict__["_recorded"] = session
    steps: list[dict[str, Any]] = session["steps"]
    return steps


_apply = scoring.ScoreBook.apply
_undo = scoring.ScoreBook.undo
_from_json = scorefile.deal_from_json


def _book_apply(self: scoring.ScoreBook, deal: scoring.DealInput) -> scoring.DealScore:
    if not _DEPTH[0]:
        recorded = _deal(deal)
        if _json(recorded):
            _book_steps(self).append({"op": "apply", "deal": recorded})
        else:
            _skip("a deal no JSON can carry")
    return _inside(_apply)(self, deal)


def _book_undo(self: scoring.ScoreBook) -> scoring.DealScore:
    if not _DEPTH[0]:
        _book_steps(self).append({"op": "undo"})
    return _inside(_undo)(self)


def _deal_from_json(data: Any, players: Any, book: scoring.ScoreBook) -> scoring.DealInput:
    if not _DEPTH[0]:
        case = {
            "players": [{"name": p.name, "gender": p.gender} for p in players],
            "book": _book(book),
            "line": data,
        }
        if _json(case):
            LINES.append(case)
        else:
            _skip("a deal line no JSON can carry")
    return _inside(_from_json)(data, players, book)  # type: ignore[no-any-return]


# -- banki ------------------------------------------------------------------------------------------------

_FIELDS = (
    "names", "phase", "rank", "driver", "order", "kicks", "stick", "turn", "steps", "hit_waiting", "can_up",
    "tagged", "just_threw", "round", "winners", "present", "fresh", "starters", "orders", "history",
)  # fmt: skip


def snapshot(state: banki_state.BankiState) -> dict[str, Any]:
    """A referee's whole position as JSON (``rules_cases.banki_state`` builds it again)."""
    out: dict[str, Any] = {"options": state.options.to_dict(), "seed": state.seed}
    for name in _FIELDS:
        value = getattr(state, name)
        if name == "phase":
            value = value.value
        elif name == "stick":
            value = [stick.value for stick in value]
        elif name == "history":
            value = [str(event) for event in value]
        elif name in ("names", "kicks"):
            value = [list(item) if isinstance(item, tuple) else item for item in value]
        elif name == "orders":
            value = [[seat, text] for seat, text in value]
        out[name] = value
    return out


_parse = banki_state.BankiState.parse_event
_banki_apply = banki_state.BankiState.apply
_banki_undo = banki_state.BankiState.undo
_copy = banki_state.BankiState.copy


def _game_step(state: banki_state.BankiState, step: dict[str, Any]) -> None:
    """Record a step of ``state``'s session; the position goes with it where a test changed it by hand."""
    now = snapshot(state)
    session = state.__dict__.get("_recorded")
    if session is None:
        session = {"state": now, "steps": []}
        GAMES.append(session)
        state.__dict__["_recorded"] = session
    elif session.get("last") != now:
        step["state"] = now
    session["steps"].append(step)


def _after(state: banki_state.BankiState, session: Any) -> None:
    """After a recorded call: the session goes on from here (the state's fields were replaced by a copy's)."""
    state.__dict__.pop("_trial", None)
    if session is not None:
        state.__dict__["_recorded"] = session
        session["last"] = snapshot(state)


def _recorded(state: banki_state.BankiState) -> bool:
    return not _DEPTH[0] and not state.__dict__.get("_trial", False)


def _parse_event(self: banki_state.BankiState, text: str) -> Any:
    if _recorded(self):
        _game_step(self, {"op": "parse", "text": text})
    return _inside(_parse)(self, text)


def _apply_event(self: banki_state.BankiState, event: Any) -> None:
    record = _recorded(self)
    if record:
        _game_step(self, {"op": "apply", "text": str(event)})
    try:
        _inside(_banki_apply)(self, event)
    finally:
        if record:
            _after(self, self.__dict__.get("_recorded"))


def _undo_event(self: banki_state.BankiState) -> Any:
    record = _recorded(self)
    session = self.__dict__.get("_recorded")
    if record:
        _game_step(self, {"op": "undo"})
        session = self.__dict__.get("_recorded")
    try:
        return _inside(_banki_undo)(self)
    finally:
        if record:
            _after(self, session)


def _copy_marked(self: banki_state.BankiState) -> banki_state.BankiState:
    """A copy, marked: the trials of ``legal_events`` and the tests' own copies are not cases."""
    other = _copy(self)
    other.__dict__["_trial"] = True
    return other


# -- installing and writing -----------------------------------------------------------------------------

_PATCHES: list[tuple[Any, str, Any]] = [
    (scoring.ScoreBook, "apply", _book_apply),
    (scoring.ScoreBook, "undo", _book_undo),
    (banki_state.BankiState, "parse_event", _parse_event),
    (banki_state.BankiState, "apply", _apply_event),
    (banki_state.BankiState, "undo", _undo_event),
    (banki_state.BankiState, "copy", _copy_marked),
]
_FUNCTIONS = {
    "deal_from_json": (_from_json, _deal_from_json),
    "replay": (banki_state.replay, _inside(banki_state.replay)),
    "load": (banki_saved.load, _inside(banki_saved.load)),
}


def _sweep() -> None:
    """Every module that imported one of the recorded functions by name gets the recording one."""
    for module in list(sys.modules.values()):
        for name, (original, replacement) in _FUNCTIONS.items():
            if getattr(module, name, None) is original:
                setattr(module, name, replacement)


for _owner, _name, _function in _PATCHES:
    setattr(_owner, _name, _function)
_sweep()


def pytest_collection_finish(session: Any) -> None:
    _sweep()  # the test modules imported since


def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
    path = os.environ.get("KOLODA_RULES_CASES")
    if path:
        for game in GAMES:
            game.pop("last", None)
        data = {"books": BOOKS, "lines": LINES, "games": GAMES, "skipped": SKIPPED, "status": int(exitstatus)}
        with open(path, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)


def pytest_collection_modifyitems(session: Any, config: Any, items: list[Any]) -> None:
    """Tests that drive a server in another process record nothing here: they are left out."""
    kept = [item for item in items if not {"server", "browser"} & set(getattr(item, "fixturenames", ()))]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept

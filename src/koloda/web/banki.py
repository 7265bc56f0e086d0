"""The banki referee page's logic: koloda.banki's referee over the one store.

A game is stored as its names, options, seed and the events entered, one row each (stored before the
answer); it is rebuilt by replaying them on every request (:mod:`koloda.banki.saved`), and ``koloda
banki resume`` goes on with the same games.

>>> from koloda.store.sql import SqlStore
>>> store = SqlStore("sqlite://")
>>> game_id = create(store, {"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 1})
>>> state = add_event(store, game_id, "kick Аня 7")
>>> state.history[-1].player
'Аня'
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from koloda.banki import BankiOptions, BankiState, RefereeError, legal_events, new_game, observe, saved
from koloda.errors import KolodaError, NotFoundError
from koloda.store import Store
from koloda.web.hub import WebError

MAX_SUGGESTIONS = 40


def create(store: Store, request: Any) -> int:
    """A new game from ``{"names": [...], "preset": "moscow", "options": {...}, "seed"?}``."""
    known = {"names", "preset", "options", "seed"}
    if not isinstance(request, Mapping) or set(request) - known:
        raise WebError(
            "bad_request", 'a new banki game is {"names": [...], "preset": name, "options": {...}}'
        )
    names = request.get("names")
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise WebError("bad_request", f"names must be a list of names, not {names!r}")
    seed = request.get("seed", secrets.randbits(31))
    try:
        options = BankiOptions.preset(request.get("preset", "moscow")).replace(**request.get("options", {}))
        state = new_game([name.strip() for name in names], options, seed=seed)
    except KolodaError as exc:
        raise WebError("bad_options", str(exc)) from None
    return store.create_banki(list(state.names), options.to_dict(), seed)


def load(store: Store, game_id: int) -> BankiState:
    """A stored game, its events replayed."""
    try:
        return saved.load(store, game_id)
    except NotFoundError:
        raise WebError("unknown_game", f"no banki game {game_id}", 404) from None


def add_event(store: Store, game_id: int, text: object) -> BankiState:
    """Referee one event line; a refused one names the reason (in both languages) and is not stored."""
    state = load(store, game_id)
    if not isinstance(text, str) or not text.strip():
        raise WebError("bad_event", f"an event is a line of text like 'hit Аня', not {text!r}")
    try:
        event = state.parse_event(text)
        state.apply(event)
    except RefereeError as exc:
        raise WebError("bad_event", exc.text("en"), ru=exc.text("ru")) from None
    except KolodaError as exc:
        raise WebError("bad_event", str(exc)) from None
    saved.record_event(store, game_id, state)
    return state


def undo(store: Store, game_id: int) -> BankiState:
    """Take back the last event."""
    state = load(store, game_id)
    if not state.history:
        raise WebError("nothing_to_undo", "no event to take back", ru="нечего отменять")
    store.remove_banki_event(game_id, len(state.history))
    state.undo()
    return state


def suggestions(state: BankiState) -> list[str]:
    """Events the referee would accept now (a sample: kicks with example distances), for tapping."""
    found = []
    for event in legal_events(state):
        trial = state.copy()
        try:
            trial.apply(event)
        except KolodaError:
            continue
        found.append(str(event))
        if len(found) >= MAX_SUGGESTIONS:
            break
    return found


def to_json(game_id: int, state: BankiState) -> dict[str, Any]:
    """What the page shows: the situation and what comes next in both languages, the events so far."""
    return {
        "id": game_id,
        "names": list(state.names),
        "view": observe(state),
        "over": state.is_over(),
        "suggestions": suggestions(state),
        **{
            lang: {
                "describe": state.describe(lang),
                "next": state.what_next(lang),
                "news": state.news_text(lang),
            }
            for lang in ("ru", "en")
        },
    }

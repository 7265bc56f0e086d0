"""The banki referee page's logic: koloda.banki's referee over the one store.

A game is stored as its names, options, seed and the events entered, one row each (stored before the
answer); it is rebuilt by replaying them on every request (:mod:`koloda.banki.saved`), and ``koloda
banki resume`` goes on with the same games.

>>> from koloda.store.sql import SqlStore
>>> store = SqlStore("sqlite://")
>>> game_id = create(store, NewBanki(names=["Аня", "Боря", "Вера", "Гена"], seed=1))
>>> state = add_event(store, game_id, "kick Аня 7")
>>> state.history[-1].player
'Аня'
"""

from __future__ import annotations

import secrets
from typing import Any

from koloda.banki import BankiOptions, BankiState, legal_events, new_game, observe, saved
from koloda.banki.events import in_words
from koloda.banki.view import describe, news_text, templates, what_next
from koloda.errors import KolodaError, NotationError, NotFoundError
from koloda.store import Store
from koloda.web.refusals import refuse, wrap
from koloda.web.schemas import NewBanki, game_options


def create(store: Store, request: NewBanki) -> int:
    """A new game from ``{"names": [...], "preset": "moscow", "options": {...}, "seed"?}``."""
    options = game_options(BankiOptions, request.preset, request.options)
    seed = secrets.randbits(31) if request.seed is None else request.seed
    try:
        state = new_game(request.names, options, seed=seed)
    except NotationError as exc:  # a name the event notation cannot use
        raise wrap("bad_names", exc, field="names") from None
    except KolodaError as exc:  # how many players this variant takes, two of one name
        raise wrap("bad_options", exc, field="names") from None
    return store.create_banki(list(state.names), options.to_dict(), seed)


def load(store: Store, game_id: int) -> BankiState:
    """A stored game, its events replayed."""
    try:
        return saved.load(store, game_id)
    except NotFoundError:
        raise refuse("unknown_game", id=game_id) from None


def add_event(store: Store, game_id: int, text: str) -> BankiState:
    """Referee one event line; a refused one names the reason (in both languages) and is not stored."""
    state = load(store, game_id)
    try:
        event = state.parse_event(text)
        state.apply(event)
    except KolodaError as exc:
        raise wrap("bad_event", exc, field="event") from None
    saved.record_event(store, game_id, state)
    return state


def undo(store: Store, game_id: int) -> BankiState:
    """Take back the last event."""
    state = load(store, game_id)
    if not state.history:
        raise refuse("no_event_to_undo")
    store.remove_banki_event(game_id, len(state.history))
    state.undo()
    return state


def suggestions(state: BankiState) -> list[str]:
    """Every event the referee would accept now that can be listed in full (all of them, however many
    players: the page offers each by taps, word by word); kicks, newcomers and orders are templates."""
    return [str(event) for event in legal_events(state) if event.kind != "kick" and event.kind != "order"]


def options_json() -> dict[str, Any]:
    """``GET /api/banki/options``: what the new-game form offers: every option, each preset's values."""
    return {
        "presets": [name for name in BankiOptions.preset_names() if name != "default"],  # moscow
        "preset_values": BankiOptions.preset_values(),
        "schema": BankiOptions.schema(),
    }


def to_json(game_id: int, state: BankiState) -> dict[str, Any]:
    """What the page shows: the situation and what comes next in both languages, the events so far; and
    in each language the events so far, the events it may take now and the templates, their keywords in
    that language (``banki.events.in_words``: what the page shows and sends, and the referee reads)."""
    listed = suggestions(state)
    started = templates(state)
    return {
        "id": game_id,
        "names": list(state.names),
        "view": observe(state),
        "over": state.is_over(),
        "suggestions": listed,
        "templates": started,
        **{
            lang: {
                "describe": describe(state, lang),
                "next": what_next(state, lang),
                "news": news_text(state, lang),
                "history": [in_words(str(line), lang) for line in observe(state)["history"]],
                "suggestions": [in_words(text, lang) for text in listed],
                "templates": [in_words(text, lang) for text in started],
            }
            for lang in ("ru", "en")
        },
    }

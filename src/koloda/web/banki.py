"""The banki referee page's logic: koloda.banki's referee over the one store.

A game is stored as its names, options, seed and the events entered, one row each (stored before the
answer); it is rebuilt by replaying them on every request (:mod:`koloda.banki.saved`), and ``koloda
banki resume`` goes on with the same games.

>>> from koloda.store.sql import SqlStore
>>> store = SqlStore("sqlite://")
>>> game_id, key = create(store, NewBanki(names=["Аня", "Боря", "Вера", "Гена"], seed=1))
>>> state, seq, again = add_event(store, game_id, "kick Аня 7", key)
>>> state.history[-1].player
'Аня'
"""

from __future__ import annotations

from typing import Any

from koloda.banki import BankiOptions, BankiState, legal_events, new_game, observe, saved
from koloda.banki.events import in_words
from koloda.banki.view import describe, news_text, templates, what_next
from koloda.errors import ConflictError, KolodaError, NotationError, NotFoundError
from koloda.seeds import Seed, commitment, new_secret
from koloda.store import Store, new_key
from koloda.web import editkeys, entries
from koloda.web.refusals import refuse, wrap
from koloda.web.schemas import NewBanki, game_options, options_offer


def create(store: Store, request: NewBanki) -> tuple[int, str]:
    """A new game from ``{"names": [...], "preset": "moscow", "options": {...}, "seed"?}``: its id and edit
    key."""
    options = game_options(BankiOptions, request.preset, request.options)
    seed: Seed = new_secret() if request.seed is None else request.seed  # a number is the creator's
    try:
        state = new_game(request.names, options, seed=seed)
    except NotationError as exc:  # a name the event notation cannot use
        raise wrap("bad_names", exc, field="names") from None
    except KolodaError as exc:  # how many players this variant takes, two of one name
        raise wrap("bad_options", exc, field="names") from None
    key = new_key()
    return store.create_banki(list(state.names), options.to_dict(), seed, key), key


def check_key(store: Store, game_id: int, given: str | None) -> None:
    """Refuse a change of the game without its edit key (koloda.web.editkeys); no such game: 404."""
    editkeys.require("banki", game_id, given, store.banki_key, "unknown_game")


def page(store: Store, before: int | None, limit: int) -> list[dict[str, Any]]:
    """``GET /api/banki``: ``limit`` games, newest first, below the id ``before`` (one query: no game is
    replayed to list it)."""
    return [
        {"id": row.id, "names": row.names, "created": row.created} for row in store.banki_page(before, limit)
    ]


def load(store: Store, game_id: int) -> BankiState:
    """A stored game, its events replayed."""
    try:
        return saved.load(store, game_id)
    except NotFoundError:
        raise refuse("unknown_game", id=game_id) from None


def add_event(
    store: Store, game_id: int, text: str, edit_key: str | None, key: str | None = None
) -> tuple[BankiState, int, bool]:
    """Referee one event line; a refused one names the reason (in both languages) and is not stored, nor
    is one without the game's ``edit_key``. With ``key`` (the entry's idempotency key, docs/web.md,
    "Offline") an entry already stored under it is not stored again. The game, the event's number, and
    whether it was stored before."""
    check_key(store, game_id, edit_key)
    if key is not None and (seq := entries.stored(store, "banki-event", game_id, key)) is not None:
        return load(store, game_id), seq, True
    state = load(store, game_id)
    try:
        event = state.parse_event(text)
        state.apply(event)
    except KolodaError as exc:
        raise wrap("bad_event", exc, field="event") from None
    try:
        saved.record_event(store, game_id, state, key)
    except ConflictError:  # that number or that key stored first (another page, another node, a resend)
        if key is None or (first := entries.stored(store, "banki-event", game_id, key)) is None:
            raise refuse("changed") from None
        return load(store, game_id), first, True  # the same entry stored in the meantime
    return state, len(state.history), False


def undo(store: Store, game_id: int, edit_key: str | None) -> BankiState:
    """Take back the last event (with the game's edit key)."""
    check_key(store, game_id, edit_key)
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
    return options_offer(BankiOptions)


def source(state: BankiState) -> dict[str, Any]:
    """What the page replays the game from when it referees offline (docs/web.md, "Offline"): the players
    who began it, the options, the events, and where the counting-out landed once it is made (the seed,
    which would tell it in advance, never leaves the server)."""
    counted = any(event.kind == "count" for event in state.history)
    return {
        "names": list(state.names[: state.starters]),
        "options": state.options.to_dict(),
        "events": [str(event) for event in state.history],
        "drawn": state.counting_out() if counted else None,
    }


def to_json(game_id: int, state: BankiState) -> dict[str, Any]:
    """What the page shows: the situation and what comes next in both languages, the events so far; and
    in each language the events so far, the events it may take now and the templates, their keywords in
    that language (``banki.events.in_words``: what the page shows and sends, and the referee reads); and
    the game's source, for the page to referee offline."""
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
        "source": source(state),
    }


def answer(game_id: int, state: BankiState) -> dict[str, Any]:
    """The answer of every request about a game: :func:`to_json` (what the page can also compute offline)
    and the fairness of its counting-out (which only the server can say)."""
    return to_json(game_id, state) | {"fair": fairness(state)}


def fairness(state: BankiState) -> dict[str, Any]:
    """What the game says of its counting-out (C1; docs/web.md, "Fair shuffles"): a secret's commitment
    from the start and the secret once the count is made (it draws nothing else); a number (the
    creator's, or a game kept before secrets) once the count is made."""
    counted = any(event.kind == "count" for event in state.history)
    shown = state.seed if counted else None
    if isinstance(state.seed, str):
        return {"kind": "secret", "commitment": commitment(state.seed), "secret": shown}
    return {"kind": "number", "seed": shown}

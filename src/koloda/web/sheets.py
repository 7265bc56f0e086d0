"""The Thousand score sheet of the web app: koloda.thousand's scoring over the one store.

A sheet is stored as its players, options and deal lines (the score file's JSON objects); it is scored
again from them on every load by the same function as ``koloda thousand sheet``'s, and the two share
the store: a sheet kept in the terminal goes on here and the other way round.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from koloda.errors import ConflictError, KolodaError, NotFoundError, StoreError
from koloda.i18n import Lang
from koloda.store import Store, new_key
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet.scorefile import (
    Player,
    ScoredGame,
    check_players,
    deal_from_json,
    deal_to_json,
    dump_score_file,
    stored_summary,
)
from koloda.thousand.sheet.table import csv_table, markdown_table, page_table, winner_line
from koloda.thousand.sheet.terminal import load_game
from koloda.web import editkeys, entries
from koloda.web.refusals import refuse, wrap
from koloda.web.schemas import NewSheet, game_options, options_offer

LOG = logging.getLogger("koloda.web")
FORMATS = {"md": "text/markdown", "csv": "text/csv", "jsonl": "application/jsonl"}


def options_json() -> dict[str, Any]:
    """``GET /api/sheets/options``: what the new-sheet form offers: the options the scoring reads (the S
    rules, and G10's ace marriage, which lets a deal hold a marriage of 200; the others change only the
    play, and a sheet still takes them), each preset's values."""
    texts = ThousandOptions.TEXTS
    return options_offer(
        ThousandOptions,
        (name for name, text in texts.items() if text.rule.startswith("S") or name == "ace_marriage"),
    )


def create_sheet(store: Store, request: NewSheet) -> tuple[int, str]:
    """A new sheet from ``{"players": [...], "preset": "home", "options": {...}}``: its id and edit key."""
    try:
        players = check_players([Player.named(name) for name in request.players])
    except KolodaError as exc:
        raise wrap("bad_players", exc, field="players") from None
    options = game_options(ThousandOptions, request.preset, request.options)
    key = new_key()
    return store.create_sheet([player.to_json() for player in players], options.to_dict(), key), key


def check_key(store: Store, sheet_id: int, given: str | None) -> None:
    """Refuse a change of the sheet without its edit key (koloda.web.editkeys); no such sheet: 404."""
    editkeys.require("sheet", sheet_id, given, store.sheet_key, "unknown_sheet")


def page(store: Store, before: int | None, limit: int) -> list[dict[str, Any]]:
    """``GET /api/sheets``: ``limit`` sheets, newest first, below the id ``before``, each as its stored
    summary says (a sheet whose summary is not known is scored once and its summary kept)."""
    out = []
    for row in store.sheet_page(before, limit):
        summary = row.summary
        if summary is None:
            players, options, deals = store.load_sheet(row.id)
            summary = stored_summary(players, options, deals)
            with contextlib.suppress(StoreError):  # not kept now (a full disk): scored again next time
                store.set_sheet_summary(row.id, summary, len(deals))
        names = [item if isinstance(item, str) else item["name"] for item in row.players]
        out.append({"id": row.id, "players": names, "created": row.created, **summary})
    return out


def load_sheet(store: Store, sheet_id: int) -> ScoredGame:
    """A stored sheet, every deal scored again."""
    try:
        return load_game(store, sheet_id)
    except NotFoundError:
        raise refuse("unknown_sheet", id=sheet_id) from None


def add_deal(
    store: Store, sheet_id: int, deal: Any, edit_key: str | None, key: str | None = None
) -> tuple[ScoredGame, int, bool]:
    """Score a deal line (any JSON value: the score file's reader checks it) and store it, with the sheet's
    new summary; a bad deal, or a request without the sheet's ``edit_key``, is refused and nothing is
    stored. With ``key`` (the entry's idempotency key, docs/web.md, "Offline") an entry already stored
    under it is not stored again. The sheet, the deal's number, and whether it was stored before."""
    check_key(store, sheet_id, edit_key)
    if key is not None and (seq := entries.stored(store, "sheet-deal", sheet_id, key)) is not None:
        return load_sheet(store, sheet_id), seq, True
    game = load_sheet(store, sheet_id)
    try:
        game.book.apply(deal_from_json(deal, game.players, game.book))
    except KolodaError as exc:
        raise wrap("bad_deal", exc) from None
    except (TypeError, KeyError, ValueError) as exc:  # the reader missed a wrong type: still the line's fault
        LOG.warning("the score file's reader let through a bad deal line %r: %r", deal, exc)
        raise refuse("unreadable_deal", detail=f"{type(exc).__name__}: {exc}") from None
    seq = len(game.book.deals)
    line = deal_to_json(game.book.deals[-1].deal, game.names)
    try:
        store.add_sheet_deal(sheet_id, seq, line, key, summary=game.summary())
    except ConflictError:  # that number or that key stored first (another page, another node, a resend)
        if key is None or (first := entries.stored(store, "sheet-deal", sheet_id, key)) is None:
            raise refuse("changed") from None
        return load_sheet(store, sheet_id), first, True  # the same entry stored in the meantime
    return game, seq, False


def undo_deal(store: Store, sheet_id: int, edit_key: str | None) -> ScoredGame:
    """Take back the last deal (with the sheet's edit key)."""
    check_key(store, sheet_id, edit_key)
    game = load_sheet(store, sheet_id)
    if not game.book.deals:
        raise refuse("no_deal_to_undo")
    seq = len(game.book.deals)
    game.book.undo()
    store.remove_sheet_deal(sheet_id, seq, summary=game.summary())
    return game


def sheet_json(sheet_id: int, game: ScoredGame) -> dict[str, Any]:
    """What the sheet page shows: players, options, the table in both languages, the chart, and the
    sheet's source for the page to keep score offline (docs/web.md, "Offline")."""
    return {
        "id": sheet_id,
        "players": list(game.names),
        "options": game.book.options.to_dict(),
        "deals": len(game.book.deals),
        "bomb_allowed": [game.book.bomb_allowed(seat) for seat in range(game.book.players)],
        "over": game.book.winner is not None,
        **page_table(game),
        "source": {
            "players": [player.to_json() for player in game.players],
            "options": game.book.options.to_dict(),
            "lines": [deal_to_json(score.deal, game.names) for score in game.book.deals],
        },
    }


def export(game: ScoredGame, fmt: str, lang: Lang) -> str:
    """The sheet as Markdown (the seed's table with the winner), CSV, or the JSON Lines score file."""
    if fmt == "md":
        line = winner_line(game, lang)
        return markdown_table(game, lang, marks=True) + ("\n\n" + line if line else "") + "\n"
    if fmt == "csv":
        return csv_table(game, lang)
    if fmt == "jsonl":
        return dump_score_file(game.players, game.book.options, (score.deal for score in game.book.deals))
    raise refuse("bad_format", field="format", format=repr(fmt), formats=", ".join(FORMATS))

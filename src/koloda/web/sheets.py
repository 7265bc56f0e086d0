"""The Thousand score sheet of the web app: koloda.thousand's scoring over the one store.

A sheet is stored as its players, options and deal lines (the score file's JSON objects); it is scored
again from them on every load by the same function as ``koloda thousand sheet``'s, and the two share
the store: a sheet kept in the terminal goes on here and the other way round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from koloda.errors import KolodaError, NotFoundError
from koloda.i18n import Lang
from koloda.store import Store
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scorefile import (
    Player,
    ScoredGame,
    check_players,
    deal_from_json,
    deal_to_json,
    dump_score_file,
)
from koloda.thousand.scoring import ScoringError
from koloda.thousand.sheet import load_game
from koloda.thousand.table import csv_table, markdown_table, page_table, winner_line
from koloda.web.hub import WebError

FORMATS = {"md": "text/markdown", "csv": "text/csv", "jsonl": "application/jsonl"}


def _refused(exc: KolodaError) -> WebError:
    return WebError("bad_deal", str(exc), ru=exc.text("ru") if isinstance(exc, ScoringError) else None)


def create_sheet(store: Store, request: Any) -> int:
    """A new sheet from ``{"players": [...], "preset": "home", "options": {...}}``."""
    if not isinstance(request, Mapping) or set(request) - {"players", "preset", "options"}:
        raise WebError("bad_request", 'a new sheet is {"players": [names], "preset": name, "options": {...}}')
    names = request.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise WebError("bad_request", f"players must be a list of names, not {names!r}")
    try:
        players = check_players([Player.named(name.strip()) for name in names])
        options = ThousandOptions.preset(request.get("preset", "home")).replace(**request.get("options", {}))
    except KolodaError as exc:
        raise WebError("bad_options", str(exc)) from None
    return store.create_sheet([player.to_json() for player in players], options.to_dict())


def load_sheet(store: Store, sheet_id: int) -> ScoredGame:
    """A stored sheet, every deal scored again."""
    try:
        return load_game(store, sheet_id)
    except NotFoundError:
        raise WebError("unknown_sheet", f"no score sheet {sheet_id}", 404) from None


def add_deal(store: Store, sheet_id: int, deal: Any) -> ScoredGame:
    """Score a deal line and store it; a bad deal is refused and nothing is stored."""
    game = load_sheet(store, sheet_id)
    try:
        game.book.apply(deal_from_json(deal, game.players, game.book))
    except KolodaError as exc:
        raise _refused(exc) from None
    store.add_sheet_deal(sheet_id, len(game.book.deals), deal_to_json(game.book.deals[-1].deal, game.names))
    return game


def undo_deal(store: Store, sheet_id: int) -> ScoredGame:
    """Take back the last deal."""
    game = load_sheet(store, sheet_id)
    if not game.book.deals:
        raise WebError("nothing_to_undo", "the sheet has no deal to take back")
    store.remove_sheet_deal(sheet_id, len(game.book.deals))
    game.book.undo()
    return game


def sheet_json(sheet_id: int, game: ScoredGame) -> dict[str, Any]:
    """What the sheet page shows: players, options, the table in both languages, the chart."""
    return {
        "id": sheet_id,
        "players": list(game.names),
        "options": game.book.options.to_dict(),
        "deals": len(game.book.deals),
        "bomb_allowed": [game.book.bomb_allowed(seat) for seat in range(game.book.players)],
        "over": game.book.winner is not None,
        **page_table(game),
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
    raise WebError("bad_format", f"unknown export format {fmt!r}; formats: {', '.join(FORMATS)}")

"""What the web app decides about a table beyond its game: its public facts and how its seats are shown,
what it says of its shuffles and the record it gives once over, and how a table of bots alone ends.

A table where every seat is a bot has nobody to stop it: a game that never reaches its target (Thousand
between weak bots can go on for hundreds of deals) would keep a worker busy for ever. So such a table is
created with the game's deal limit when the request leaves it open: Bank's ``max_deals`` (rule 8.3, 50 by
default) already ends every match; Thousand's ``max_deals`` (rule G16) is off by default and is set to
:data:`ALL_BOTS_DEALS` for a table of bots (docs/web.md, "Tables of bots").

>>> from koloda.registry import get
>>> thousand = get("thousand")
>>> all_bots_end(thousand, thousand.options_class(), True).max_deals
100
>>> all_bots_end(thousand, thousand.options_class(), False).max_deals is None
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from koloda import seeds
from koloda.game import GameRecord, GameSpec
from koloda.options import Options
from koloda.store import SeatRecord, TableRecord

#: The deals a table of bots alone plays at most, where its game has a deal limit that is off.
ALL_BOTS_DEALS = 100


def all_bots_end(game: GameSpec, options: Options, all_bots: bool) -> Options:
    """The options of a new table: with a deal limit when every seat is a bot and the limit is off."""
    names = {field.name for field in dataclasses.fields(options)}
    if not all_bots or "max_deals" not in names or options.to_dict().get("max_deals") is not None:
        return options
    return options.with_assignments([f"max_deals={ALL_BOTS_DEALS}"])


def seats_json(seats: Sequence[SeatRecord]) -> list[dict[str, Any]]:
    """The public facts of the seats (never their tokens)."""
    return [{"name": seat.name, "bot": seat.bot, "taken": seat.taken, "open": seat.open} for seat in seats]


def info(record: TableRecord, over: bool | None, version: int) -> dict[str, Any]:
    """The public facts of a table: game, players, options, who sits where, whether it is over (None: not
    known, the table not loaded), its shuffles."""
    return {
        "id": record.id,
        "game": record.game,
        "players": record.players,
        "options": record.options,
        "seats": seats_json(record.seats),
        "over": over,
        "closed": record.closed,
        "fair": fairness(record, bool(over)),
        "version": version,
        "created": record.created,
    }


def fairness(record: TableRecord, over: bool) -> dict[str, Any]:
    """What a table says of its shuffles (docs/web.md, "Fair shuffles"): a secret's commitment from the
    start and the secret once the table is over; a number the host chose, from the start (whoever knows it
    knows every hand, so every seat is shown it); a number of a table kept before secrets (issue 28), only
    once it is over."""
    seed = record.seed
    if isinstance(seed, str):
        return {"kind": "secret", "commitment": seeds.commitment(seed), "secret": seed if over else None}
    shown = record.host_seed or over
    return {"kind": "host" if record.host_seed else "number", "seed": seed if shown else None}


def game_record(record: TableRecord, actions: Sequence[str]) -> GameRecord:
    """A table's game record (its seed is the secret: give it only once the table is over), with the
    names and the commitment in its ``meta``."""
    meta: dict[str, Any] = {"table": record.id, "names": [seat.name for seat in record.seats]}
    meta["created"] = record.created
    if isinstance(record.seed, str):
        meta["commitment"] = seeds.commitment(record.seed)
    return GameRecord(
        game=record.game,
        players=record.players,
        options=record.options,
        actions=tuple(actions),
        seed=record.seed,
        scope="match",
        meta=meta,
    )

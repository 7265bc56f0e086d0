"""What the web app decides about a table beyond its game: how its seats are shown, and how a table of
bots alone ends.

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

from koloda.game import GameSpec
from koloda.options import Options
from koloda.store import SeatRecord

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

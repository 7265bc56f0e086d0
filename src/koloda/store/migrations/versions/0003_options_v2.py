"""Bank tables and banki games kept before record version 2 keep their meaning: options in its terms.

A table stores its options whole (``tables.options``, JSON). Version 2 of the game record (issue 16,
``koloda.records``) changed two of Bank's defaults (the move added after an 8; a trump king going out
alone onto an empty bank), one reading under ``eight_then=cover-beneath``, and the names of rule 7.6's
penalties. A table kept before has no key for the new options, so without this revision it would be read
with the new defaults and replay differently; here each Bank table gets the keys that say what it was
played by (``koloda.records.bank_options_v2``, which never changes once released). A banki game likewise
gets ``never_drive_ranks: []`` (version 2 refuses every path by which a marshal would drive, rule M18;
``koloda.records.banki_options_v2``). No column changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

from koloda.records import bank_options_v2, banki_options_v2

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

_tables = sa.table(
    "tables",
    sa.column("id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("options", sa.Text),
)
_banki = sa.table("banki_games", sa.column("id", sa.Integer), sa.column("options", sa.Text))

Change = Callable[[dict[str, Any]], dict[str, Any]]


def _rewrite(table: sa.TableClause, change: Change, game: str | None = None) -> None:
    """Rewrite by ``change`` the options of every row of ``table`` (of ``game`` only, when given)."""
    db = op.get_bind()
    columns = {column["name"] for column in sa.inspect(db).get_columns(table.name)}
    if not {"id", "options"} <= columns or (game is not None and "game" not in columns):
        return  # not koloda's table: the check after the upgrade refuses the database, naming what is wrong
    query = sa.select(table.c.id, table.c.options)
    if game is not None:
        query = query.where(table.c.game == game)
    for row in db.execute(query).all():
        options = json.loads(row.options)
        new = change(options)
        if new != options:
            db.execute(table.update().where(table.c.id == row.id).values(options=json.dumps(new)))


def upgrade() -> None:
    _rewrite(_tables, bank_options_v2, "bank")
    _rewrite(_banki, banki_options_v2)


#: The options version 2 added, with the value that plays as version 1 did.
_V1_PLAY = {
    "eight_follow": "any",
    "trump_king_alone": "taken",
    "run_extra": "optional",
    "seven_captured": "void",
    "four_kings_capture": "at-once",
    "loser": "last-holder",
    "stuck_loser": "most-points",
    "tie_dealer": "agreed",
}


def _back(options: dict[str, Any]) -> dict[str, Any]:
    """Version 1's names again; each new option is dropped where it plays as version 1 did (a table played
    under another reading cannot be said in version 1's terms and keeps its key)."""
    out = dict(options)
    penalty = {"hand-points": "variant1", "hand-points-and-fine": "variant2"}
    if out.get("penalty") in penalty:
        out["penalty"] = penalty[str(out["penalty"])]
    if "fine" in out:
        out["variant2"] = out.pop("fine")
    for key, was in _V1_PLAY.items():
        if out.get(key) == was:
            del out[key]
    beneath_open = out.get("eight_then") == "cover-beneath" and out.get("opening", "free") == "free"
    if out.get("eight_opening") == "strict" or (not beneath_open and "eight_opening" in out):
        del out["eight_opening"]
    return out


def _banki_back(options: dict[str, Any]) -> dict[str, Any]:
    """Version 1's options again: the new option dropped where it plays as version 1 did."""
    return {k: v for k, v in options.items() if not (k == "never_drive_ranks" and v == [])}


def downgrade() -> None:
    _rewrite(_tables, _back, "bank")
    _rewrite(_banki, _banki_back)

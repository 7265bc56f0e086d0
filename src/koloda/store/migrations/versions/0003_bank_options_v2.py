"""Bank tables kept before record version 2 keep their meaning: their options are rewritten in its terms.

A table stores its options whole (``tables.options``, JSON). Version 2 of the game record (issue 16,
``koloda.records``) changed two of Bank's defaults (the move added after an 8; a trump king going out
alone onto an empty bank), one reading under ``eight_then=cover-beneath``, and the names of rule 7.6's
penalties. A table kept before has no key for the new options, so without this revision it would be read
with the new defaults and replay differently; here each Bank table gets the keys that say what it was
played by (``koloda.records.bank_options_v2``, which never changes once released). No column changes.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from koloda.records import bank_options_v2

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


def _rewrite(change: object) -> None:
    db = op.get_bind()
    columns = {column["name"] for column in sa.inspect(db).get_columns("tables")}
    if not {"id", "game", "options"} <= columns:
        return  # not koloda's table: the check after the upgrade refuses the database, naming what is wrong
    rows = db.execute(sa.select(_tables.c.id, _tables.c.options).where(_tables.c.game == "bank")).all()
    for row in rows:
        options = json.loads(row.options)
        new = change(options)  # type: ignore[operator]
        if new != options:
            db.execute(_tables.update().where(_tables.c.id == row.id).values(options=json.dumps(new)))


def upgrade() -> None:
    _rewrite(bank_options_v2)


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


def _back(options: dict[str, object]) -> dict[str, object]:
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


def downgrade() -> None:
    _rewrite(_back)

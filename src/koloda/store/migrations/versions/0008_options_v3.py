"""Bank tables kept before record version 3 keep their meaning: ``stuck_payer`` where they had it.

Version 3 of the game record (issue 28, ``koloda.records``) split Bank's ``stuck_loser`` in two: who pays
after a stuck end (``stuck_payer``, rule 7.8) and who lost it and deals next (``stuck_loser``, rule 2.2).
A table stores its options whole, so one kept with ``stuck_loser=nobody`` under ``penalty_who=loser`` has
no ``stuck_payer`` and would be read as ``most-points`` (a fine the game never charged); here it gets
``stuck_payer=nobody`` (``koloda.records.bank_options_v3``, which never changes once released). No column
changes.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from koloda.records import bank_options_v3

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_tables = sa.table(
    "tables", sa.column("id", sa.Integer), sa.column("game", sa.String), sa.column("options", sa.Text)
)


def upgrade() -> None:
    db = op.get_bind()
    rows = db.execute(sa.select(_tables.c.id, _tables.c.options).where(_tables.c.game == "bank")).all()
    for row in rows:
        options = json.loads(row.options)
        new = bank_options_v3(options)
        if new != options:
            db.execute(_tables.update().where(_tables.c.id == row.id).values(options=json.dumps(new)))


def downgrade() -> None:
    db = op.get_bind()
    rows = db.execute(sa.select(_tables.c.id, _tables.c.options).where(_tables.c.game == "bank")).all()
    for row in rows:
        options = json.loads(row.options)
        if options.get("stuck_payer") == "nobody" and options.get("stuck_loser") == "nobody":
            del options["stuck_payer"]  # version 2's stuck_loser=nobody said both
            db.execute(_tables.update().where(_tables.c.id == row.id).values(options=json.dumps(options)))

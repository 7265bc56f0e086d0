"""The baseline: the schema of koloda 0.1.0, the web app's six tables, before there were migrations.

koloda 0.1.0 made these tables with ``create_all``, which skips a table that is there; this revision does
the same, so that a database of 0.1.0 (all six) and one of the release before the banki referee (the first
four) both reach the baseline with their rows untouched, and a new database gets all six.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from koloda.errors import RecordError

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> list[tuple[str, list[sa.schema.SchemaItem]]]:
    return [
        (
            "tables",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("game", sa.String(20), nullable=False),
                sa.Column("players", sa.Integer, nullable=False),
                sa.Column("options", sa.Text, nullable=False),
                sa.Column("seed", sa.BigInteger, nullable=False),
                sa.Column("seats", sa.Text, nullable=False),
                sa.Column("created", sa.String(40), nullable=False),
            ],
        ),
        (
            "actions",
            [
                sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
                sa.Column("seq", sa.Integer, primary_key=True),
                sa.Column("action", sa.String(80), nullable=False),
            ],
        ),
        (
            "sheets",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("players", sa.Text, nullable=False),
                sa.Column("options", sa.Text, nullable=False),
                sa.Column("created", sa.String(40), nullable=False),
            ],
        ),
        (
            "sheet_deals",
            [
                sa.Column("sheet_id", sa.Integer, sa.ForeignKey("sheets.id"), primary_key=True),
                sa.Column("seq", sa.Integer, primary_key=True),
                sa.Column("deal", sa.Text, nullable=False),
            ],
        ),
        (
            "banki_games",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("names", sa.Text, nullable=False),
                sa.Column("options", sa.Text, nullable=False),
                sa.Column("seed", sa.BigInteger, nullable=False),
                sa.Column("created", sa.String(40), nullable=False),
            ],
        ),
        (
            "banki_events",
            [
                sa.Column("game_id", sa.Integer, sa.ForeignKey("banki_games.id"), primary_key=True),
                sa.Column("seq", sa.Integer, primary_key=True),
                sa.Column("event", sa.Text, nullable=False),
            ],
        ),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    for name, items in _tables():
        if name not in present:
            op.create_table(name, *items)
            continue
        # A table of that name that is not 0.1.0's: refused before a later revision tries to change it.
        columns = {column["name"] for column in inspector.get_columns(name)}
        missing = [item.name for item in items if isinstance(item, sa.Column) and item.name not in columns]
        if missing:
            names = ", ".join(map(repr, missing))
            raise RecordError(f"the database is not koloda's: its table {name!r} has no column {names}")


def downgrade() -> None:
    for name, _ in reversed(_tables()):
        op.drop_table(name)

"""Revision 0005, the coach's analyses (issue 17, docs/analysis.md): one row a table, seat and seed.

The web app computes a seat's analysis of a finished table once, in a worker process, and keeps it here;
asked again, it reads it back. ``result`` is the JSON of ``koloda <game> analyse --json``.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, primary_key=True),
        sa.Column("result", sa.Text, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analyses")

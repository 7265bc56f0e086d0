"""Revision 0009, the hints a seat was shown (issue 31, docs/learn.md): one row a table, seat and version.

A person at an unrated table may ask the coach for the move it rates best; the table's record notes it
(``meta.hints`` of ``GET /api/tables/ID/record``). A new table only: older databases reach it empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hints",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("version", sa.Integer, primary_key=True),
        sa.Column("action", sa.String(80), nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("hints")

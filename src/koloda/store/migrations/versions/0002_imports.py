"""The one store: a table of the files of older koloda imported into it, so that none is imported twice.

Score sheets kept in the terminal and banki games kept in a JSON file now live in the same tables as the
web app's (``sheets``, ``banki_games``): their rows needed no new column. What is new is the record of
what was imported from the old files (docs/architecture.md, "Legacy imports").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "imports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("source", sa.Text, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("ids", sa.Text, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
        sa.UniqueConstraint("kind", "digest", name="uq_imports_kind_digest"),
    )


def downgrade() -> None:
    op.drop_table("imports")

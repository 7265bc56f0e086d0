"""Revision 0007, fair shuffles (issue 28, docs/web.md "Fair shuffles"): a table's or a banki game's secret.

New tables and banki games deal from a secret of 256 bits (``secret``, 64 hex digits, koloda.seeds) instead
of a number, so ``seed`` may now be empty (exactly one of the two is set). ``host_seed`` says that the number
was chosen by the host of a private table (public, shown to every seat); tables kept before this revision
dealt from a random number and keep it, not shown. ``closed``: when the table was closed before its end
(its secret is then revealed). The data of older databases is untouched: every table replays as before.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=True)
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))
        batch.add_column(sa.Column("host_seed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("closed", sa.String(40), nullable=True))
    with op.batch_alter_table("banki_games") as batch:
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=True)
        batch.add_column(sa.Column("secret", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("banki_games") as batch:
        batch.drop_column("secret")
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=False)
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("closed")
        batch.drop_column("host_seed")
        batch.drop_column("secret")
        batch.alter_column("seed", existing_type=sa.BigInteger, nullable=False)

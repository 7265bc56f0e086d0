"""The idempotency keys of entries made offline: a phone that syncs an entry twice stores it once.

The score sheet and the banki referee keep what is entered on a phone while it is offline and send it when
the network is back (docs/web.md, "Offline"), each entry with a key the phone made for it. A key is stored
with the line it became, in the same transaction; an entry whose key is already here is not stored again
(a phone that lost the answer to its request sends it again). No other table changes.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "entry_keys",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("target_id", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("entry_keys")

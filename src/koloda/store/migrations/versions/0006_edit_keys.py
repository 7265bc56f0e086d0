"""Revision 0006 (issue 28): an edit key for every score sheet and banki game, the summary of every sheet,
and the health probe's row.

A sheet or a banki game is changed on the web only by a request that carries its edit key, a secret made
when it is created (docs/web.md, "Edit keys"); the sheets and games kept before get one each here, made the
same way (192 random bits). A sheet's summary (its deals, totals and whether it is over, as JSON) is what
the list of sheets shows, kept at every write so that listing scores nothing; the sheets kept before are
scored here once, by the score sheet's own function (``koloda.thousand.sheet.scorefile.stored_summary``, as
revision 0003 uses koloda.records). ``health`` is the one row ``GET /healthz`` writes to learn that the
database takes a write.
"""

from __future__ import annotations

import json
import secrets

import sqlalchemy as sa
from alembic import op

from koloda.thousand.sheet.scorefile import stored_summary

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

KEY_BYTES = 24  # as koloda.store.new_key

# The tables as this revision reads and writes them.
sheets = sa.table(
    "sheets",
    sa.column("id", sa.Integer),
    sa.column("players", sa.Text),
    sa.column("options", sa.Text),
    sa.column("edit_key", sa.String),
    sa.column("summary", sa.Text),
)
sheet_deals = sa.table(
    "sheet_deals", sa.column("sheet_id", sa.Integer), sa.column("seq", sa.Integer), sa.column("deal", sa.Text)
)
banki_games = sa.table("banki_games", sa.column("id", sa.Integer), sa.column("edit_key", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("sheets") as batch:
        batch.add_column(sa.Column("edit_key", sa.String(64), nullable=True))
        batch.add_column(sa.Column("summary", sa.Text, nullable=True))
    with op.batch_alter_table("banki_games") as batch:
        batch.add_column(sa.Column("edit_key", sa.String(64), nullable=True))
    db = op.get_bind()
    for row in db.execute(sa.select(sheets.c.id, sheets.c.players, sheets.c.options)).all():
        query = (
            sa.select(sheet_deals.c.deal).where(sheet_deals.c.sheet_id == row.id).order_by(sheet_deals.c.seq)
        )
        deals = [json.loads(text) for text in db.execute(query).scalars()]
        summary = stored_summary(json.loads(row.players), json.loads(row.options), deals)
        db.execute(
            sheets.update()
            .where(sheets.c.id == row.id)
            .values(edit_key=secrets.token_urlsafe(KEY_BYTES), summary=json.dumps(summary))
        )
    for game_id in db.execute(sa.select(banki_games.c.id)).scalars().all():
        key = secrets.token_urlsafe(KEY_BYTES)
        db.execute(banki_games.update().where(banki_games.c.id == game_id).values(edit_key=key))
    with op.batch_alter_table("sheets") as batch:
        batch.alter_column("edit_key", existing_type=sa.String(64), nullable=False)
    with op.batch_alter_table("banki_games") as batch:
        batch.alter_column("edit_key", existing_type=sa.String(64), nullable=False)
    op.create_table(
        "health",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("checked", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("health")
    with op.batch_alter_table("banki_games") as batch:
        batch.drop_column("edit_key")
    with op.batch_alter_table("sheets") as batch:
        batch.drop_column("summary")
        batch.drop_column("edit_key")

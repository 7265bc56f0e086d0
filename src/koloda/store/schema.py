"""The store's tables as they are at the newest migration (``migrations/versions``), for its queries.

The migrations do not import this module: each revision states its own tables, as they were then, so
that a later change here does not rewrite history. ``tests/store`` checks that a database upgraded to
head has exactly these tables and columns.
"""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(20), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),  # a number seed (koloda.seeds); else ``secret``
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    # Revision 0007 (fair shuffles): the secret dealt from, whether the number was the host's, when closed.
    sa.Column("secret", sa.String(64), nullable=True),
    sa.Column("host_seed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("closed", sa.String(40), nullable=True),
)
actions = sa.Table(
    "actions",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("action", sa.String(80), nullable=False),
)
sheets = sa.Table(
    "sheets",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
    # Revision 0006: the secret that every change of the sheet on the web must carry (issue 28), and what
    # the list of sheets shows of it (JSON: deals, totals, over; NULL: not known, scored when listed).
    sa.Column("edit_key", sa.String(64), nullable=False),
    sa.Column("summary", sa.Text, nullable=True),
)
sheet_deals = sa.Table(
    "sheet_deals",
    metadata,
    sa.Column("sheet_id", sa.Integer, sa.ForeignKey("sheets.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("deal", sa.Text, nullable=False),
)
banki_games = sa.Table(
    "banki_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("names", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=True),  # a number seed; else ``secret`` (revision 0007)
    sa.Column("created", sa.String(40), nullable=False),
    sa.Column("edit_key", sa.String(64), nullable=False),  # revision 0006, as the sheets'
    sa.Column("secret", sa.String(64), nullable=True),
)
banki_events = sa.Table(
    "banki_events",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("banki_games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("event", sa.Text, nullable=False),
)
# Revision 0002: the files of older koloda imported into the store, so that none is imported twice.
imports = sa.Table(
    "imports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(20), nullable=False),  # "thousand-sheet" or "banki-file"
    sa.Column("source", sa.Text, nullable=False),  # the file (or the tables) it came from, for people
    sa.Column("digest", sa.String(64), nullable=False),  # sha256 of what was imported
    sa.Column("ids", sa.Text, nullable=False),  # JSON: the ids it became in the store
    sa.Column("created", sa.String(40), nullable=False),
    sa.UniqueConstraint("kind", "digest", name="uq_imports_kind_digest"),
)
# Revision 0004: the idempotency key of every entry a page sent with one (docs/web.md, "Offline").
entry_keys = sa.Table(
    "entry_keys",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),  # made by the phone; unique across all kinds
    sa.Column("kind", sa.String(20), nullable=False),  # "sheet-deal" or "banki-event"
    sa.Column("target_id", sa.Integer, nullable=False),  # the sheet or the banki game
    sa.Column("seq", sa.Integer, nullable=False),  # the line it became
    sa.Column("created", sa.String(40), nullable=False),
)
# Revision 0005: the coach's analyses of a finished table's seat (issue 17), computed once.
analyses = sa.Table(
    "analyses",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("seed", sa.BigInteger, primary_key=True),
    sa.Column("result", sa.Text, nullable=False),  # JSON: koloda.coach.Analysis.to_json()
    sa.Column("created", sa.String(40), nullable=False),
)
# Revision 0006: one row, written by every health probe (GET /healthz): the database takes a write.
health = sa.Table(
    "health",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("checked", sa.String(40), nullable=False),
)
# Revision 0009 (issue 31): the hints a seat was shown at an unrated table, one row each.
hints = sa.Table(
    "hints",
    metadata,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True),  # the table's version the hint was asked at
    sa.Column("action", sa.String(80), nullable=False),  # the move suggested, in notation
    sa.Column("created", sa.String(40), nullable=False),
)

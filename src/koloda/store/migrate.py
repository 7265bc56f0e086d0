"""Bring a database to the newest schema with Alembic, inside the transaction that opens the store.

A new database gets every revision; a database of koloda 0.1.0 (its tables, no ``alembic_version``) gets
them too, and the baseline revision skips the tables it already has (``versions/0001_baseline.py``); a
database at an older revision gets the ones it lacks. Then every table and column the store uses must be
there. A database made by a newer koloda (a revision this one does not know) is refused. The caller's
transaction holds the whole upgrade, so a refusal or a failure leaves the database as it was.
"""

from __future__ import annotations

import functools
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from koloda.errors import RecordError
from koloda.store import schema

MIGRATIONS = Path(__file__).parent / "migrations"


def _config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    # Alembic reads the option through configparser, which takes "%" for interpolation: the package in a
    # directory with one in its name (a user "100%") must be written with "%%"
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


@functools.cache
def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision this koloda knows."""
    revision = _script().get_current_head()
    assert revision is not None
    return revision


def revisions() -> list[str]:
    """Every revision, oldest first."""
    return [script.revision for script in reversed(list(_script().walk_revisions()))]


def current(connection: sa.Connection) -> str | None:
    """The database's revision (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: sa.Connection, location: str) -> None:
    """Upgrade to head in the connection's open transaction; RecordError if the database is not koloda's
    or is newer than this koloda. The caller commits (or rolls back on an exception)."""
    revision = current(connection)
    if revision is not None and revision not in revisions():
        raise RecordError(
            f"the database {location} was made by a newer koloda (schema revision {revision!r}; "
            f"this one knows up to {head()!r}): upgrade koloda"
        )
    if revision != head():
        command.upgrade(_config(connection), "head")
    check(connection, location)


def check(connection: sa.Connection, location: str) -> None:
    """Every table of the store is there with every column it uses; RecordError names the first gap."""
    inspector = sa.inspect(connection)
    present = set(inspector.get_table_names())
    for table in schema.metadata.sorted_tables:
        if table.name not in present:
            raise RecordError(f"the database {location} has no table {table.name!r}")
        columns = {column["name"] for column in inspector.get_columns(table.name)}
        missing = [column.name for column in table.columns if column.name not in columns]
        if missing:
            raise RecordError(
                f"the database {location} is not koloda's: its table {table.name!r} has no column "
                f"{', '.join(map(repr, missing))}"
            )

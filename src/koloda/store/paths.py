"""Where koloda keeps what it saves: one data directory, one database in it, and what ``--db`` means.

The data directory is ``$KOLODA_DATA_DIR`` when it is set, else the user data directory of the platform
(platformdirs: ``~/.local/share/koloda`` on Linux, ``~/Library/Application Support/koloda`` on macOS,
``%LOCALAPPDATA%\\koloda\\koloda`` on Windows). The database is :data:`DB_NAME` in it. ``--db`` names
another one: a file path (``games.db``) or a SQLAlchemy URL (``sqlite:///games.db``,
``postgresql+psycopg://user@host/koloda``).

>>> data_dir({"KOLODA_DATA_DIR": "/srv/koloda"}).as_posix()
'/srv/koloda'
>>> database_url("sqlite:///games.db")
'sqlite:///games.db'
>>> database_url("postgresql://koloda@db.example/koloda")
'postgresql+psycopg://koloda@db.example/koloda'
>>> database_url("/tmp/koloda games.db")
'sqlite:////tmp/koloda games.db'
>>> database_url("mysql+nodriver://")
Traceback (most recent call last):
koloda.errors.RequestError: --db 'mysql+nodriver://': SQLAlchemy knows no database 'mysql+nodriver'
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping
from pathlib import Path

import platformdirs

from koloda.errors import RequestError

#: The database file in the data directory. The web app's name from before the one store, kept so that
#: the database it made opens where it is.
DB_NAME = "koloda-web.sqlite3"
ENV_VAR = "KOLODA_DATA_DIR"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """koloda's data directory: ``$KOLODA_DATA_DIR`` if set, else the platform's user data directory."""
    environ = os.environ if environ is None else environ
    override = environ.get(ENV_VAR)
    return Path(override) if override else Path(platformdirs.user_data_dir("koloda"))


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """The database file of the data directory."""
    return data_dir(environ) / DB_NAME


def add_db_argument(parser: argparse.ArgumentParser) -> None:
    """``--db``, for every command that stores."""
    parser.add_argument(
        "--db",
        metavar="PATH|URL",
        help=f"the database: a file (games.db) or a SQLAlchemy URL (default: {DB_NAME} in the data"
        f" directory, ${ENV_VAR} or the user's)",
    )


def sqlite_url(path: Path) -> str:
    """The SQLAlchemy URL of a SQLite file (absolute, so that it does not depend on the working directory)."""
    import sqlalchemy as sa  # here: the command line imports this module, and needs no database to start

    return sa.URL.create("sqlite", database=str(path.expanduser().absolute())).render_as_string()


def database_url(db: str | Path) -> str:
    """What ``--db`` names, as a SQLAlchemy URL: a URL as it is (checked), anything else a file path."""
    if isinstance(db, Path):
        return sqlite_url(db)
    if not db.strip():
        raise RequestError("--db needs a file path or a database URL, not an empty string", field="db")
    if "://" not in db:
        return sqlite_url(Path(db))
    import sqlalchemy as sa

    if db.startswith(("postgresql://", "postgres://")):  # the driver koloda installs: psycopg (3)
        db = "postgresql+psycopg://" + db.split("://", 1)[1]
    try:
        sa.make_url(db).get_dialect()
    except sa.exc.NoSuchModuleError:
        kind = db.split("://", 1)[0]
        raise RequestError(f"--db {db!r}: SQLAlchemy knows no database {kind!r}", field="db") from None
    except (sa.exc.ArgumentError, ValueError) as exc:
        raise RequestError(
            f"--db {db!r} is neither a file path nor a database URL: {exc}", field="db"
        ) from None
    return db

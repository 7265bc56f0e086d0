"""How a command opens the store: ``--db`` or the data directory's database, upgraded, old files imported.

>>> store = open_store("sqlite://")
>>> sheet_id = store.create_sheet(["Аня", "Боря"], {})
>>> store.add_sheet_deal(sheet_id, 1, {"declarer": "Аня", "bid": 100, "bomb": True})
>>> store.load_sheet(sheet_id)
(['Аня', 'Боря'], {}, [{'declarer': 'Аня', 'bid': 100, 'bomb': True}])
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from koloda.errors import RecordError
from koloda.store import legacy
from koloda.store.paths import DB_NAME, data_dir, database_url, sqlite_url
from koloda.store.sql import SqlStore


def _to_stderr(note: str) -> None:
    print(f"koloda: {note}", file=sys.stderr)


def open_store(
    db: str | Path | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    say: Callable[[str], None] = _to_stderr,
) -> SqlStore:
    """The store a command uses: ``db`` (``--db``: a file path or a URL), else the data directory's.

    Opening the data directory's store imports the score sheets and the banki game that older koloda
    kept there in files; any store holding the old score sheet's tables has them imported. ``say`` gets a
    line for each import. RecordError if the database cannot be opened or upgraded (then it is unchanged),
    RequestError if ``db`` names nothing that could be a database.
    """
    directory = data_dir(os.environ if environ is None else environ) if db is None else None
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordError(f"cannot make the data directory {directory}: {exc.strerror}") from None
    store = SqlStore(sqlite_url(directory / DB_NAME) if directory is not None else database_url(db or ""))
    try:
        notes = legacy.import_data_dir(store, directory) if directory is not None else []
        notes += legacy.import_old_sheet_tables(store)
    except BaseException:
        store.close()
        raise
    for note in notes:
        say(note)
    return store

"""The files of older koloda, imported into the store once, so that no saved game disappears.

Before the one store, ``koloda thousand sheet`` kept its score sheets in ``thousand-sheet.sqlite3``
(tables ``games`` and ``deals``) and ``koloda banki`` its game in ``banki/game.json``, both in the data
directory. When the data directory's store is opened, each of these files is imported (sheets and their
deal lines as they were written; the banki game replayed and kept as its events), then renamed to
``NAME.imported`` (``NAME.imported-2``... if that is taken), and the import is recorded in the table
``imports`` with the sha256 of the file, in the transaction that writes the rows: a file whose digest is
recorded is never imported again (if the rename failed, it is only renamed). A file that cannot be read
or does not replay is left where it is, with a note saying why.

A database that itself holds the old sheet tables (``--db`` naming a file that ``koloda thousand sheet
--db`` wrote) has them imported into ``sheets`` the same way, and the old tables renamed to
``thousand_sheet_games_imported`` and ``thousand_sheet_deals_imported``.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from koloda.banki import replay
from koloda.errors import KolodaError, RecordError
from koloda.game import GameRecord
from koloda.seeds import Seed
from koloda.store import new_key
from koloda.store.schema import banki_events, banki_games, imports, sheet_deals, sheets
from koloda.store.sql import SqlStore, banki_row, insert, now

SHEET_FILE = "thousand-sheet.sqlite3"
BANKI_FILE = Path("banki") / "game.json"
SHEETS = "thousand-sheet"
BANKI = "banki-file"
_OLD_TABLES = {"games": {"id", "created", "players", "options"}, "deals": {"game", "seq", "deal"}}


@dataclass(frozen=True)
class OldSheet:
    """A score sheet of the old terminal store, its JSON texts as they were written."""

    created: str
    players: str
    options: str
    deals: tuple[str, ...]


@dataclass(frozen=True)
class OldBanki:
    """A banki game of the old JSON file, replayed: what the store keeps of it."""

    names: list[str]
    options: dict[str, Any]
    seed: Seed
    events: list[str]


def import_data_dir(store: SqlStore, directory: Path) -> list[str]:
    """Import the old score sheets and banki game of ``directory`` into its store; notes for people."""
    notes = []
    if (directory / SHEET_FILE).is_file():
        notes.append(_import_file(store, directory / SHEET_FILE, SHEETS, _read_sheet_file, rename=True)[1])
    if (directory / BANKI_FILE).is_file():
        notes.append(_import_file(store, directory / BANKI_FILE, BANKI, _read_banki_file, rename=True)[1])
    return notes


def import_banki_file(store: SqlStore, path: Path) -> int:
    """The store's game for a banki record file: imported on first use (the file stays as it is), the same
    game after that. RecordError if the file cannot be read or does not replay."""
    ids, _ = _import_file(store, path, BANKI, _read_banki_file, rename=False)
    return ids[0]


def import_old_sheet_tables(store: SqlStore) -> list[str]:
    """Import the old terminal sheet's tables if the store's database has them; notes for people."""
    with store.reading() as db:
        if not _has_old_tables(db):
            return []
    with store.transaction() as db:
        if not _has_old_tables(db):  # another koloda imported them a moment ago
            return []
        present = set(sa.inspect(db).get_table_names())
        old = _old_sheets(db)
        digest = _digest(json.dumps([sheet.__dict__ for sheet in old], ensure_ascii=False).encode())
        ids = _recorded(db, SHEETS, digest)
        if ids is None:
            ids = _write_sheets(db, old)
            _record(db, SHEETS, f"{store.location} (tables games, deals)", digest, ids)
        renamed = []
        for name in _OLD_TABLES:
            new = _free(f"thousand_sheet_{name}_imported", lambda candidate: candidate in present)
            db.exec_driver_sql(f'ALTER TABLE "{name}" RENAME TO "{new}"')
            renamed.append(new)
    return [
        f"imported {len(ids)} score sheet(s) from the old tables games and deals of {store.location} "
        f"(now {' and '.join(renamed)})"
    ]


def _has_old_tables(db: sa.Connection) -> bool:
    inspector = sa.inspect(db)
    present = set(inspector.get_table_names())
    return all(
        name in present and columns <= {column["name"] for column in inspector.get_columns(name)}
        for name, columns in _OLD_TABLES.items()
    )


# -- one file ------------------------------------------------------------------------------------------


def _import_file(
    store: SqlStore,
    path: Path,
    kind: str,
    read: Callable[[Path], Sequence[OldSheet] | OldBanki],
    *,
    rename: bool,
) -> tuple[list[int], str]:
    """Import ``path`` unless its digest is recorded; (the store's ids, a note). Renamed if ``rename``."""
    try:
        digest = _digest(path.read_bytes())
        old = read(path)
    except (OSError, KolodaError, sqlite3.Error, sa.exc.SQLAlchemyError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc).splitlines()[0]
        if not rename:
            raise RecordError(f"cannot import {path}: {reason}") from None
        return [], f"cannot import {path}: {reason}; it is left where it is"
    with store.transaction() as db:
        ids = _recorded(db, kind, digest)
        fresh = ids is None
        if ids is None:
            ids = _write_banki(db, old) if isinstance(old, OldBanki) else _write_sheets(db, old)
            _record(db, kind, str(path.absolute()), digest, ids)
    what = f"banki game {ids[0]}" if kind == BANKI else f"{len(ids)} score sheet(s)"
    note = f"imported {what} from {path}" if fresh else f"{path} was imported before ({what})"
    if rename:
        target = path.with_name(_free(path.name + ".imported", lambda name: (path.parent / name).exists()))
        try:
            path.rename(target)
            note += f"; the file is now {target}"
        except FileNotFoundError:  # another koloda renamed it a moment ago
            pass
        except OSError as exc:
            note += f"; it could not be renamed ({exc.strerror}), and will not be imported again"
    return ids, note


def _free(name: str, taken: Callable[[str], bool]) -> str:
    """``name``, or ``name-2``, ``name-3``... the first that is not taken."""
    candidate, number = name, 1
    while taken(candidate):
        number += 1
        candidate = f"{name}-{number}"
    return candidate


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recorded(db: sa.Connection, kind: str, digest: str) -> list[int] | None:
    ids = db.execute(
        sa.select(imports.c.ids).where(imports.c.kind == kind, imports.c.digest == digest)
    ).scalar()
    return None if ids is None else [int(key) for key in json.loads(ids)]


def _record(db: sa.Connection, kind: str, source: str, digest: str, ids: list[int]) -> None:
    db.execute(
        imports.insert().values(kind=kind, source=source, digest=digest, ids=json.dumps(ids), created=now())
    )


# -- score sheets --------------------------------------------------------------------------------------


def _read_sheet_file(path: Path) -> list[OldSheet]:
    """The sheets of an old terminal sheet file, read without writing to it."""
    engine = sa.create_engine(
        "sqlite://", creator=lambda: sqlite3.connect(path.absolute().as_uri() + "?mode=ro", uri=True)
    )
    try:
        with engine.connect() as db:
            return _old_sheets(db)
    finally:
        engine.dispose()


def _old_sheets(db: sa.Connection) -> list[OldSheet]:
    old = []
    games = db.execute(sa.text("SELECT id, created, players, options FROM games ORDER BY id")).all()
    for game_id, created, players, options in games:
        deals = db.execute(
            sa.text("SELECT deal FROM deals WHERE game = :game ORDER BY seq"), {"game": game_id}
        )
        sheet = OldSheet(str(created), str(players), str(options), tuple(str(deal) for (deal,) in deals))
        for text in (sheet.players, sheet.options, *sheet.deals):
            try:
                json.loads(text)
            except json.JSONDecodeError:
                raise RecordError(f"game {game_id} holds {text[:40]!r}, which is not JSON") from None
        old.append(sheet)
    return old


def _write_sheets(db: sa.Connection, old: Sequence[OldSheet]) -> list[int]:
    ids = []
    for sheet in old:
        row = {
            "players": sheet.players,
            "options": sheet.options,
            "created": sheet.created,
            "edit_key": new_key(),
        }
        ids.append(insert(db, sheets, **row))  # its summary unknown: the list of sheets scores it once
        for seq, deal in enumerate(sheet.deals, start=1):
            db.execute(sheet_deals.insert().values(sheet_id=ids[-1], seq=seq, deal=deal))
    return ids


# -- banki ---------------------------------------------------------------------------------------------


def _read_banki_file(path: Path) -> OldBanki:
    state = replay(GameRecord.load(path, game="banki"))
    return OldBanki(list(state.names), state.options.to_dict(), state.seed, [str(e) for e in state.history])


def _write_banki(db: sa.Connection, old: OldBanki) -> list[int]:
    game_id = insert(db, banki_games, **banki_row(old.names, old.options, old.seed))
    for seq, event in enumerate(old.events, start=1):
        db.execute(banki_events.insert().values(game_id=game_id, seq=seq, event=event))
    return [game_id]

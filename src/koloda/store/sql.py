"""The store over SQLAlchemy Core: SQLite by default, any database SQLAlchemy reaches (PostgreSQL alike).

Opening it runs the migrations (:mod:`koloda.store.migrate`) in one transaction. On SQLite every
transaction is a real one, DDL included (the driver's own transaction handling is turned off and koloda
says ``BEGIN``), and a write takes the lock at once (``BEGIN IMMEDIATE``) so that two programs on one
file, say ``koloda serve`` and ``koloda thousand sheet``, wait for each other rather than fail. A file
is kept in write-ahead-log mode with ``synchronous=FULL``: a commit is on disk when it returns, and
readers never wait for the writer. PostgreSQL is reached through psycopg (``postgresql://`` URLs mean
``postgresql+psycopg://``, :func:`koloda.store.paths.database_url`).

A line (a table's action, a sheet's deal, a banki event) is numbered; writing a number the store already
holds raises :class:`~koloda.errors.ConflictError` and writes nothing, so two writers of one table (two
nodes of the web app) never both get their action in. :meth:`SqlStore.append_actions` writes the actions
of many tables in one transaction (the web app's group commit).

>>> store = SqlStore("sqlite://")
>>> seats = [SeatRecord("Аня", "t" * 22, None, False), SeatRecord("Bot", "u" * 22, "easy", True)]
>>> table_id = store.create_table("bank", 2, {}, 7, seats)
>>> store.append_action(table_id, 1, "7H")
>>> store.load_table(table_id).actions
('7H',)
>>> store.load_sheet(5)
Traceback (most recent call last):
koloda.errors.NotFoundError: no score sheet 5 in an in-memory database
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any

import sqlalchemy as sa
from alembic.util import CommandError

from koloda.errors import ConflictError, NotFoundError, RecordError, StoreError
from koloda.seeds import Seed, check
from koloda.store import BankiRow, SeatRecord, SheetRow, TableRecord, migrate, new_key
from koloda.store.schema import (
    actions,
    analyses,
    banki_events,
    banki_games,
    entry_keys,
    health,
    hints,
    sheet_deals,
    sheets,
    tables,
)

_MEMORY = ("sqlite://", "sqlite:///:memory:")
#: A database file whose disk has less than this free is not healthy (GET /healthz fails): SQLite needs room
#: for its write-ahead log and for the pages a commit adds, and a full disk refuses every write.
FREE_BYTES = 16 * 2**20
_BEGIN = "koloda_sqlite_begin"  # an execution option: how the next transaction begins on SQLite


def make_engine(url: str) -> sa.Engine:
    """An engine for ``url``; on SQLite, with transactions that hold DDL too and writes that lock first."""
    if url in _MEMORY:  # one shared connection, or every connection is a new empty database
        engine = sa.create_engine(
            url, poolclass=sa.pool.StaticPool, connect_args={"check_same_thread": False}
        )
    elif url.startswith("sqlite"):
        engine = sa.create_engine(url)
    else:  # a server: a connection it dropped (a restart) is replaced before use, not failed on
        engine = sa.create_engine(url, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        on_file = url not in _MEMORY

        @sa.event.listens_for(engine, "connect")
        def no_driver_transactions(dbapi_connection: Any, record: Any) -> None:
            dbapi_connection.isolation_level = None
            if on_file:  # a commit is on disk when it returns (also in write-ahead-log mode)
                dbapi_connection.execute("PRAGMA synchronous=FULL")

        @sa.event.listens_for(engine, "begin")
        def begin(connection: sa.Connection) -> None:
            connection.exec_driver_sql(f"BEGIN {connection.get_execution_options().get(_BEGIN, '')}".strip())

    return engine


def now() -> str:
    """The time of a new row, as the store writes it (UTC, to the second)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def insert(db: sa.Connection, table: sa.Table, **values: Any) -> int:
    """Insert one row; its new id."""
    key = db.execute(table.insert().values(**values)).inserted_primary_key
    assert key is not None
    return int(key[0])


def seed_columns(seed: Seed) -> dict[str, Any]:
    """Where a seed is kept (revision 0007): a secret in ``secret``, a number in ``seed``."""
    return {"seed": None, "secret": seed} if isinstance(seed, str) else {"seed": seed, "secret": None}


def seed_of(row: sa.Row[Any]) -> Seed:
    return check(row.secret if row.secret is not None else row.seed, "the stored seed")


def banki_row(
    names: list[str], options: dict[str, Any], seed: Seed, edit_key: str | None = None
) -> dict[str, Any]:
    """A new row of ``banki_games`` (its edit key a new one unless given)."""
    return {
        "names": json.dumps(names, ensure_ascii=False),
        "options": json.dumps(options),
        **seed_columns(seed),
        "created": now(),
        "edit_key": new_key() if edit_key is None else edit_key,
    }


def _seats_json(seats: Sequence[SeatRecord]) -> str:
    return json.dumps([seat.to_json() for seat in seats], ensure_ascii=False)


def _reason(exc: BaseException) -> str:
    """The driver's one-line reason, without SQLAlchemy's statement and links."""
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class SqlStore:
    """The store in any database SQLAlchemy reaches; opening it upgrades the schema (RecordError if it
    cannot be opened or upgraded: then nothing in it has changed)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._engine: sa.Engine | None = None
        self.path: Path | None = None  # the SQLite file, if the database is one
        self.location = url  # the database, for messages: a file path, or the URL without its password
        try:
            parsed = sa.make_url(url)
            if parsed.get_backend_name() != "sqlite":
                self.location = parsed.render_as_string(hide_password=True)
            elif parsed.database in (None, "", ":memory:"):
                self.location = "an in-memory database"
            else:
                self.path = Path(str(parsed.database))
                self.location = str(self.path)
            self._engine = make_engine(url)
            if self.path is not None and self.path.exists():
                self._check_pages()
            with self._engine.connect() as connection:  # a read first: most of the time that is all
                current = migrate.current(connection)
            with self._transaction(begin="IMMEDIATE" if current != migrate.head() else "") as connection:
                migrate.upgrade(connection, self.location)
            if self.path is not None:  # readers never wait for the writer (kept in the file once set)
                raw = self._engine.raw_connection()  # outside any transaction, as SQLite asks
                try:
                    raw.cursor().execute("PRAGMA journal_mode=WAL")
                finally:
                    raw.close()
        except RecordError:
            self.close()
            raise
        except (sa.exc.SQLAlchemyError, CommandError, ImportError, OSError, ValueError) as exc:
            self.close()
            raise RecordError(f"cannot open the database {self.location}: {_reason(exc)}") from None

    def _check_pages(self) -> None:
        """Refuse a damaged file before anything is written to it: SQLite's ``quick_check`` reads every
        page (its b-trees, not the indexes' contents) and says ``ok`` or what is wrong."""
        assert self._engine is not None
        with self._engine.connect() as connection:
            found = [str(line) for line in connection.exec_driver_sql("PRAGMA quick_check").scalars()]
        if found != ["ok"]:
            more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
            raise RecordError(
                f"the database {self.location} is damaged: SQLite's quick_check says {found[0]!r}{more}; it"
                " was left as it is: restore it from a copy, or recover it with sqlite3's .recover"
            )

    @property
    def in_memory(self) -> bool:
        """The database lives in this process (no other can open it)."""
        return self.url in _MEMORY

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def __enter__(self) -> SqlStore:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    @contextmanager
    def _transaction(self, begin: str = "IMMEDIATE") -> Iterator[sa.Connection]:
        """A transaction; on SQLite ``BEGIN IMMEDIATE`` (the write lock at once) unless ``begin`` is ""."""
        if self._engine is None:
            raise StoreError(f"the database {self.location} is closed")
        with self._engine.connect() as connection:
            connection.execution_options(**{_BEGIN: begin})
            with connection.begin():
                yield connection

    @contextmanager
    def transaction(self) -> Iterator[sa.Connection]:
        """A connection in a write transaction, committed at the end (rolled back on an exception);
        RecordError if the database cannot be written."""
        try:
            with self._transaction() as connection:
                yield connection
        except sa.exc.IntegrityError as exc:  # a line's number taken: another writer was first
            raise ConflictError(
                f"the database {self.location} already holds that line: {_reason(exc)}"
            ) from None
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot write to the database {self.location}: {_reason(exc)}") from None

    @contextmanager
    def reading(self) -> Iterator[sa.Connection]:
        """A connection to read with (RecordError if the database cannot be read)."""
        if self._engine is None:
            raise StoreError(f"the database {self.location} is closed")
        try:
            with self._engine.connect() as connection:
                yield connection
        except sa.exc.SQLAlchemyError as exc:
            raise StoreError(f"cannot read the database {self.location}: {_reason(exc)}") from None

    def _insert(self, table: sa.Table, **values: Any) -> int:
        with self.transaction() as db:
            return insert(db, table, **values)

    def _ids(self, table: sa.Table) -> list[int]:
        with self.reading() as db:
            return list(db.execute(sa.select(table.c.id).order_by(table.c.id)).scalars())

    # A table's actions, a sheet's deals and a banki game's events are lines: (parent id, seq, text).

    @staticmethod
    def _lines(db: sa.Connection, lines: sa.Table, key: int) -> list[str]:
        parent, seq, text = lines.columns
        return list(db.execute(sa.select(text).where(parent == key).order_by(seq)).scalars())

    def _add_line(
        self,
        lines: sa.Table,
        key: int,
        number: int,
        line: str,
        entry: tuple[str, str] | None = None,
        also: Callable[[sa.Connection], object] | None = None,
    ) -> None:
        """Line ``number`` of ``key``; ``entry`` (kind, idempotency key): the key with it, at once; ``also``
        writes more in the same transaction (a sheet's summary)."""
        parent, seq, text = lines.columns
        with self.transaction() as db:
            db.execute(lines.insert().values({parent: key, seq: number, text: line}))
            if entry is not None:
                kind, name = entry
                values = {"key": name, "kind": kind, "target_id": key, "seq": number, "created": now()}
                db.execute(entry_keys.insert().values(values))
            if also is not None:
                also(db)

    def _remove_line(
        self, lines: sa.Table, key: int, number: int, also: Callable[[sa.Connection], object] | None = None
    ) -> None:
        parent, seq, _ = lines.columns
        with self.transaction() as db:
            db.execute(lines.delete().where(parent == key, seq == number))
            if also is not None:
                also(db)

    @staticmethod
    def _summary(sheet_id: int, summary: dict[str, Any] | None) -> Callable[[sa.Connection], object]:
        """The write of a sheet's summary (None: not known)."""
        text = None if summary is None else json.dumps(summary, ensure_ascii=False)
        return lambda db: db.execute(sheets.update().where(sheets.c.id == sheet_id).values(summary=text))

    def _key(self, table: sa.Table, key: int, what: str) -> str:
        with self.reading() as db:
            found = db.execute(sa.select(table.c.edit_key).where(table.c.id == key)).scalar()
        if found is None:
            raise NotFoundError(f"no {what} {key} in {self.location}")
        return str(found)

    def _page(
        self, table: sa.Table, columns: Sequence[sa.ColumnElement[Any]], before: int | None, limit: int
    ) -> list[sa.Row[Any]]:
        query = sa.select(table.c.id, *columns).order_by(table.c.id.desc()).limit(limit)
        if before is not None:
            query = query.where(table.c.id < before)
        with self.reading() as db:
            return list(db.execute(query).all())

    def _row(self, db: sa.Connection, table: sa.Table, key: int, what: str) -> sa.Row[Any]:
        row = db.execute(table.select().where(table.c.id == key)).first()
        if row is None:
            raise NotFoundError(f"no {what} {key} in {self.location}")
        return row

    # -- card tables -------------------------------------------------------------------------------

    def create_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: Seed,
        seats: list[SeatRecord],
        *,
        host_seed: bool = False,
    ) -> int:
        return self._insert(
            tables,
            game=game,
            players=players,
            options=json.dumps(options),
            **seed_columns(seed),
            host_seed=host_seed,
            seats=_seats_json(seats),
            created=now(),
        )

    def load_table(self, table_id: int) -> TableRecord:
        with self.reading() as db:
            row = self._row(db, tables, table_id, "table")
            return TableRecord(
                id=row.id,
                game=row.game,
                players=row.players,
                options=json.loads(row.options),
                seed=seed_of(row),
                seats=tuple(SeatRecord(**seat) for seat in json.loads(row.seats)),
                actions=tuple(self._lines(db, actions, table_id)),
                created=row.created,
                host_seed=bool(row.host_seed),
                closed=row.closed,
            )

    def close_table(self, table_id: int) -> str:
        """Mark a table closed before its end (its secret is then revealed); returns when. A table closed
        already keeps its first time."""
        with self.transaction() as db:
            row = self._row(db, tables, table_id, "table")
            if row.closed is not None:
                return str(row.closed)
            when = now()
            db.execute(tables.update().where(tables.c.id == table_id).values(closed=when))
            return when

    def table_ids(self) -> list[int]:
        return self._ids(tables)

    def append_action(self, table_id: int, seq: int, action: str) -> None:
        """Store action number ``seq`` (from 1); a second writer of the same number gets ConflictError."""
        self._add_line(actions, table_id, seq, action)

    def append_actions(self, lines: Sequence[tuple[int, int, str]]) -> None:
        """Store many tables' actions, each ``(table id, seq, action)``, in one transaction: all or none
        (ConflictError if any number is taken)."""
        if not lines:
            return
        with self.transaction() as db:
            db.execute(
                actions.insert(),
                [{"table_id": table, "seq": seq, "action": text} for table, seq, text in lines],
            )

    def actions_since(self, table_id: int, seq: int) -> list[str]:
        """The actions of a table after number ``seq``, in order (what another writer added)."""
        with self.reading() as db:
            query = sa.select(actions.c.action).where(actions.c.table_id == table_id, actions.c.seq > seq)
            return list(db.execute(query.order_by(actions.c.seq)).scalars())

    def set_seats(
        self, table_id: int, seats: list[SeatRecord], expected: Sequence[SeatRecord] | None = None
    ) -> None:
        """Replace a table's seats; with ``expected``, only if they are still those (ConflictError if
        another writer changed them first: two people taking seats of one table on two nodes)."""
        update = tables.update().where(tables.c.id == table_id)
        if expected is not None:
            update = update.where(tables.c.seats == _seats_json(expected))
        with self.transaction() as db:
            if db.execute(update.values(seats=_seats_json(seats))).rowcount != 1:
                raise ConflictError(f"the seats of table {table_id} changed meanwhile in {self.location}")

    def load_analysis(self, table_id: int, seat: int, seed: int) -> dict[str, Any] | None:
        """The coach's analysis of a table's seat with this seed, if it was computed (else None)."""
        with self.reading() as db:
            row = db.execute(
                sa.select(analyses.c.result).where(
                    analyses.c.table_id == table_id, analyses.c.seat == seat, analyses.c.seed == seed
                )
            ).first()
        if row is None:
            return None
        result: dict[str, Any] = json.loads(row.result)
        return result

    def save_analysis(self, table_id: int, seat: int, seed: int, result: dict[str, Any]) -> None:
        """Keep the coach's analysis of a table's seat; a second save of the same one changes nothing."""
        with self.transaction() as db:
            key = (analyses.c.table_id == table_id, analyses.c.seat == seat, analyses.c.seed == seed)
            if db.execute(sa.select(analyses.c.seat).where(*key)).first() is None:
                db.execute(
                    analyses.insert().values(
                        table_id=table_id,
                        seat=seat,
                        seed=seed,
                        result=json.dumps(result, ensure_ascii=False),
                        created=now(),
                    )
                )

    def add_hint(self, table_id: int, seat: int, version: int, action: str) -> None:
        """Note a hint shown to a seat of a table (issue 31); noted again, it changes nothing."""
        with self.transaction() as db:
            key = (hints.c.table_id == table_id, hints.c.seat == seat, hints.c.version == version)
            if db.execute(sa.select(hints.c.seat).where(*key)).first() is None:
                db.execute(
                    hints.insert().values(
                        table_id=table_id, seat=seat, version=version, action=action, created=now()
                    )
                )

    def hints(self, table_id: int) -> list[dict[str, Any]]:
        """The hints shown at a table, by version then seat."""
        with self.reading() as db:
            rows = db.execute(
                sa.select(hints.c.seat, hints.c.version, hints.c.action, hints.c.created)
                .where(hints.c.table_id == table_id)
                .order_by(hints.c.version, hints.c.seat)
            ).all()
        return [
            {"seat": row.seat, "version": row.version, "action": row.action, "created": row.created}
            for row in rows
        ]

    # -- Thousand score sheets ---------------------------------------------------------------------

    def create_sheet(self, players: list[Any], options: dict[str, Any], edit_key: str | None = None) -> int:
        return self._insert(
            sheets,
            players=json.dumps(players, ensure_ascii=False),
            options=json.dumps(options),
            created=now(),
            edit_key=new_key() if edit_key is None else edit_key,
        )

    def load_sheet(self, sheet_id: int) -> tuple[list[Any], dict[str, Any], list[Any]]:
        """(players, options, deals) of a stored score sheet, as JSON values."""
        with self.reading() as db:
            row = self._row(db, sheets, sheet_id, "score sheet")
            deals = self._lines(db, sheet_deals, sheet_id)
            return json.loads(row.players), json.loads(row.options), [json.loads(deal) for deal in deals]

    def sheet_ids(self) -> list[int]:
        return self._ids(sheets)

    def sheet_key(self, sheet_id: int) -> str:
        return self._key(sheets, sheet_id, "score sheet")

    def sheet_page(self, before: int | None, limit: int) -> list[SheetRow]:
        rows = self._page(sheets, (sheets.c.players, sheets.c.created, sheets.c.summary), before, limit)
        return [
            SheetRow(
                row.id,
                json.loads(row.players),
                row.created,
                None if row.summary is None else json.loads(row.summary),
            )
            for row in rows
        ]

    def set_sheet_summary(self, sheet_id: int, summary: dict[str, Any], deals: int) -> None:
        """Keep ``summary`` (scored from ``deals`` deal lines) unless the sheet has one by now or another
        number of lines: a writer in the meantime wrote its own, or left it unknown for the next list."""
        lines = sa.select(sa.func.count()).where(sheet_deals.c.sheet_id == sheet_id).scalar_subquery()
        update = sheets.update().where(sheets.c.id == sheet_id, sheets.c.summary.is_(None), lines == deals)
        with self.transaction() as db:
            db.execute(update.values(summary=json.dumps(summary, ensure_ascii=False)))

    def add_sheet_deal(
        self,
        sheet_id: int,
        seq: int,
        deal: dict[str, Any],
        key: str | None = None,
        *,
        summary: dict[str, Any] | None = None,
    ) -> None:
        entry = None if key is None else ("sheet-deal", key)
        line = json.dumps(deal, ensure_ascii=False)
        self._add_line(sheet_deals, sheet_id, seq, line, entry, self._summary(sheet_id, summary))

    def remove_sheet_deal(self, sheet_id: int, seq: int, *, summary: dict[str, Any] | None = None) -> None:
        self._remove_line(sheet_deals, sheet_id, seq, self._summary(sheet_id, summary))

    # -- banki games -------------------------------------------------------------------------------

    def create_banki(
        self, names: list[str], options: dict[str, Any], seed: Seed, edit_key: str | None = None
    ) -> int:
        return self._insert(banki_games, **banki_row(names, options, seed, edit_key))

    def load_banki(self, game_id: int) -> tuple[list[str], dict[str, Any], Seed, list[str]]:
        """(names, options, seed, events) of a stored banki game."""
        with self.reading() as db:
            row = self._row(db, banki_games, game_id, "banki game")
            events = self._lines(db, banki_events, game_id)
            return json.loads(row.names), json.loads(row.options), seed_of(row), events

    def banki_ids(self) -> list[int]:
        return self._ids(banki_games)

    def banki_key(self, game_id: int) -> str:
        return self._key(banki_games, game_id, "banki game")

    def banki_page(self, before: int | None, limit: int) -> list[BankiRow]:
        rows = self._page(banki_games, (banki_games.c.names, banki_games.c.created), before, limit)
        return [BankiRow(row.id, json.loads(row.names), row.created) for row in rows]

    def add_banki_event(self, game_id: int, seq: int, event: str, key: str | None = None) -> None:
        self._add_line(banki_events, game_id, seq, event, None if key is None else ("banki-event", key))

    # -- idempotency keys ----------------------------------------------------------------------------

    def entry(self, key: str) -> tuple[str, int, int] | None:
        columns = entry_keys.c.kind, entry_keys.c.target_id, entry_keys.c.seq
        with self.reading() as db:
            row = db.execute(sa.select(*columns).where(entry_keys.c.key == key)).first()
        return None if row is None else (row.kind, row.target_id, row.seq)

    def remove_banki_event(self, game_id: int, seq: int) -> None:
        self._remove_line(banki_events, game_id, seq)

    # -- health ------------------------------------------------------------------------------------

    def probe(self) -> None:
        """Write the health row (RecordError if the database cannot take it), and for a file, check that
        its disk has :data:`FREE_BYTES` free."""
        with self.transaction() as db:
            if db.execute(health.update().where(health.c.id == 1).values(checked=now())).rowcount != 1:
                db.execute(health.insert().values(id=1, checked=now()))
        if self.path is not None:
            try:
                free = shutil.disk_usage(self.path.resolve().parent).free
            except OSError as exc:
                raise StoreError(
                    f"cannot see the disk of the database {self.location}: {exc.strerror}"
                ) from None
            if free < FREE_BYTES:
                raise StoreError(f"the disk of the database {self.location} is full: {free} bytes free")

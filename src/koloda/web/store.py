"""Where the web app keeps its tables and score sheets: one interface, SQLite by default (SQLAlchemy).

A table is stored as what replays it: the game, options, seed, seats (names, secret tokens, bot
levels) and the accepted actions in order, so the state is rebuilt by replay on load. Every accepted
action is written (and committed) before anyone hears of it.

>>> store = SqlStore("sqlite://")
>>> seats = [SeatRecord("Аня", "t" * 22, None, False), SeatRecord("Bot", "u" * 22, "easy", True)]
>>> table_id = store.create_table("bank", 2, {}, 7, seats)
>>> store.append_action(table_id, 1, "7H")
>>> store.load_table(table_id).actions
('7H',)
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa

from koloda.errors import KolodaError

DB_NAME = "koloda-web.sqlite3"

_meta = sa.MetaData()
_tables = sa.Table(
    "tables",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game", sa.String(20), nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)
_actions = sa.Table(
    "actions",
    _meta,
    sa.Column("table_id", sa.Integer, sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("action", sa.String(80), nullable=False),
)
_sheets = sa.Table(
    "sheets",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("players", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)
_sheet_deals = sa.Table(
    "sheet_deals",
    _meta,
    sa.Column("sheet_id", sa.Integer, sa.ForeignKey("sheets.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("deal", sa.Text, nullable=False),
)
_banki = sa.Table(
    "banki_games",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("names", sa.Text, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("created", sa.String(40), nullable=False),
)
_banki_events = sa.Table(
    "banki_events",
    _meta,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("banki_games.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("event", sa.Text, nullable=False),
)


@dataclass(frozen=True)
class SeatRecord:
    """One seat: the player's name, the secret token of its link, its bot level (None: a human), and
    whether someone has taken it (a bot seat always is)."""

    name: str
    token: str
    bot: str | None
    taken: bool

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "token": self.token, "bot": self.bot, "taken": self.taken}


@dataclass(frozen=True)
class TableRecord:
    """A stored table: enough to rebuild its game by replay."""

    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    actions: tuple[str, ...]
    created: str


class Store(Protocol):
    """The storage interface of the web app; :class:`SqlStore` is the SQLAlchemy implementation."""

    def create_table(
        self, game: str, players: int, options: dict[str, Any], seed: int, seats: list[SeatRecord]
    ) -> int: ...

    def load_table(self, table_id: int) -> TableRecord: ...

    def table_ids(self) -> list[int]: ...

    def append_action(self, table_id: int, seq: int, action: str) -> None: ...

    def set_seats(self, table_id: int, seats: list[SeatRecord]) -> None: ...

    def create_sheet(self, players: list[Any], options: dict[str, Any]) -> int: ...

    def load_sheet(self, sheet_id: int) -> tuple[list[Any], dict[str, Any], list[Any]]: ...

    def sheet_ids(self) -> list[int]: ...

    def add_sheet_deal(self, sheet_id: int, seq: int, deal: dict[str, Any]) -> None: ...

    def remove_sheet_deal(self, sheet_id: int, seq: int) -> None: ...

    def create_banki(self, names: list[str], options: dict[str, Any], seed: int) -> int: ...

    def load_banki(self, game_id: int) -> tuple[list[str], dict[str, Any], int, list[str]]: ...

    def banki_ids(self) -> list[int]: ...

    def add_banki_event(self, game_id: int, seq: int, event: str) -> None: ...

    def remove_banki_event(self, game_id: int, seq: int) -> None: ...


def default_url(environ: Mapping[str, str] | None = None) -> str:
    """The default database: a SQLite file in KOLODA_DATA_DIR, else the user's data directory."""
    environ = os.environ if environ is None else environ
    directory = environ.get("KOLODA_DATA_DIR")
    if not directory:
        import platformdirs

        directory = platformdirs.user_data_dir("koloda")
    path = Path(directory)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / DB_NAME}"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class SqlStore:
    """The store in any database SQLAlchemy reaches (SQLite by default; a PostgreSQL URL works alike)."""

    def __init__(self, url: str) -> None:
        try:
            if url in ("sqlite://", "sqlite:///:memory:"):  # one shared connection, or every one is empty
                self._engine = sa.create_engine(
                    url, poolclass=sa.pool.StaticPool, connect_args={"check_same_thread": False}
                )
            else:
                self._engine = sa.create_engine(url)
            _meta.create_all(self._engine)
        except (sa.exc.SQLAlchemyError, ValueError) as exc:
            raise KolodaError(f"cannot open the database {url!r}: {exc}") from None

    def close(self) -> None:
        self._engine.dispose()

    def create_table(
        self, game: str, players: int, options: dict[str, Any], seed: int, seats: list[SeatRecord]
    ) -> int:
        with self._engine.begin() as db:
            result = db.execute(
                _tables.insert().values(
                    game=game,
                    players=players,
                    options=json.dumps(options),
                    seed=seed,
                    seats=json.dumps([seat.to_json() for seat in seats], ensure_ascii=False),
                    created=_now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def load_table(self, table_id: int) -> TableRecord:
        with self._engine.connect() as db:
            row = db.execute(_tables.select().where(_tables.c.id == table_id)).first()
            if row is None:
                raise KolodaError(f"no table {table_id}")
            actions = db.execute(
                sa.select(_actions.c.action).where(_actions.c.table_id == table_id).order_by(_actions.c.seq)
            ).scalars()
            return TableRecord(
                id=row.id,
                game=row.game,
                players=row.players,
                options=json.loads(row.options),
                seed=row.seed,
                seats=tuple(SeatRecord(**seat) for seat in json.loads(row.seats)),
                actions=tuple(actions),
                created=row.created,
            )

    def table_ids(self) -> list[int]:
        with self._engine.connect() as db:
            return list(db.execute(sa.select(_tables.c.id).order_by(_tables.c.id)).scalars())

    def append_action(self, table_id: int, seq: int, action: str) -> None:
        """Store action number ``seq`` (from 1); a second writer of the same number fails."""
        with self._engine.begin() as db:
            db.execute(_actions.insert().values(table_id=table_id, seq=seq, action=action))

    def set_seats(self, table_id: int, seats: list[SeatRecord]) -> None:
        with self._engine.begin() as db:
            db.execute(
                _tables.update()
                .where(_tables.c.id == table_id)
                .values(seats=json.dumps([seat.to_json() for seat in seats], ensure_ascii=False))
            )

    def create_sheet(self, players: list[Any], options: dict[str, Any]) -> int:
        with self._engine.begin() as db:
            result = db.execute(
                _sheets.insert().values(
                    players=json.dumps(players, ensure_ascii=False),
                    options=json.dumps(options),
                    created=_now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def load_sheet(self, sheet_id: int) -> tuple[list[Any], dict[str, Any], list[Any]]:
        """(players, options, deals) of a stored score sheet, as JSON values."""
        with self._engine.connect() as db:
            row = db.execute(_sheets.select().where(_sheets.c.id == sheet_id)).first()
            if row is None:
                raise KolodaError(f"no score sheet {sheet_id}")
            deals = db.execute(
                sa.select(_sheet_deals.c.deal)
                .where(_sheet_deals.c.sheet_id == sheet_id)
                .order_by(_sheet_deals.c.seq)
            ).scalars()
            return json.loads(row.players), json.loads(row.options), [json.loads(deal) for deal in deals]

    def sheet_ids(self) -> list[int]:
        with self._engine.connect() as db:
            return list(db.execute(sa.select(_sheets.c.id).order_by(_sheets.c.id)).scalars())

    def add_sheet_deal(self, sheet_id: int, seq: int, deal: dict[str, Any]) -> None:
        with self._engine.begin() as db:
            db.execute(
                _sheet_deals.insert().values(
                    sheet_id=sheet_id, seq=seq, deal=json.dumps(deal, ensure_ascii=False)
                )
            )

    def remove_sheet_deal(self, sheet_id: int, seq: int) -> None:
        with self._engine.begin() as db:
            db.execute(
                _sheet_deals.delete().where(_sheet_deals.c.sheet_id == sheet_id, _sheet_deals.c.seq == seq)
            )

    def create_banki(self, names: list[str], options: dict[str, Any], seed: int) -> int:
        with self._engine.begin() as db:
            result = db.execute(
                _banki.insert().values(
                    names=json.dumps(names, ensure_ascii=False),
                    options=json.dumps(options),
                    seed=seed,
                    created=_now(),
                )
            )
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def load_banki(self, game_id: int) -> tuple[list[str], dict[str, Any], int, list[str]]:
        """(names, options, seed, events) of a stored banki game."""
        with self._engine.connect() as db:
            row = db.execute(_banki.select().where(_banki.c.id == game_id)).first()
            if row is None:
                raise KolodaError(f"no banki game {game_id}")
            events = db.execute(
                sa.select(_banki_events.c.event)
                .where(_banki_events.c.game_id == game_id)
                .order_by(_banki_events.c.seq)
            ).scalars()
            return json.loads(row.names), json.loads(row.options), row.seed, list(events)

    def banki_ids(self) -> list[int]:
        with self._engine.connect() as db:
            return list(db.execute(sa.select(_banki.c.id).order_by(_banki.c.id)).scalars())

    def add_banki_event(self, game_id: int, seq: int, event: str) -> None:
        with self._engine.begin() as db:
            db.execute(_banki_events.insert().values(game_id=game_id, seq=seq, event=event))

    def remove_banki_event(self, game_id: int, seq: int) -> None:
        with self._engine.begin() as db:
            db.execute(
                _banki_events.delete().where(_banki_events.c.game_id == game_id, _banki_events.c.seq == seq)
            )

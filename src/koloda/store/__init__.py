"""The one store: everything koloda saves (card tables, score sheets, banki games), in one database.

This module is the interface: :class:`Store` and the values it keeps. :class:`koloda.store.sql.SqlStore`
implements it over SQLAlchemy; :func:`koloda.store.open.open_store` is how a command opens it: the
database of ``--db`` (a file path or a SQLAlchemy URL) or the data directory's
(:mod:`koloda.store.paths`), its schema upgraded by the Alembic migrations in ``migrations/``
(:mod:`koloda.store.migrate`), and the files of older koloda imported once (:mod:`koloda.store.legacy`).
docs/architecture.md, "Storage" tells the whole story.

A card table is kept as what replays it (:class:`TableRecord`); a Thousand score sheet as its players,
options and deal lines; a banki game as its names, options, seed and event lines. The values are JSON
(the score file's objects, options as ``to_dict()``), so that the store knows no game's rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from koloda.seeds import Seed


@dataclass(frozen=True)
class SeatRecord:
    """One seat: the player's name, the secret token of its link, its bot level (None: a human), whether
    someone has taken it (a bot seat always is), and whether the host opened it to anyone in the lobby
    (else it is taken only with its link; a seat stored before there was a choice is not open)."""

    name: str
    token: str
    bot: str | None
    taken: bool
    open: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "token": self.token,
            "bot": self.bot,
            "taken": self.taken,
            "open": self.open,
        }


@dataclass(frozen=True)
class TableRecord:
    """A stored table: enough to rebuild its game by replay."""

    id: int
    game: str
    players: int
    options: dict[str, Any]
    seed: Seed  # a secret (new tables) or a number (koloda.seeds)
    seats: tuple[SeatRecord, ...]
    actions: tuple[str, ...]
    created: str
    host_seed: bool = False  # the number was chosen by the host: public (docs/web.md, "Fair shuffles")
    closed: str | None = None  # when the table was closed before its end, if it was


class Store(Protocol):
    """Where koloda keeps everything it saves; :class:`koloda.store.SqlStore` is the implementation.

    Every write is committed before the method returns. An id that names nothing raises
    :class:`~koloda.errors.NotFoundError`; a database that cannot be read or written raises
    :class:`~koloda.errors.RecordError`; a numbered line (an action, a deal, an event) or seats that
    another writer wrote first raise :class:`~koloda.errors.ConflictError` (a RecordError).
    """

    @property
    def location(self) -> str:
        """The database, for messages: a file path, or a URL without its password."""
        ...

    def close(self) -> None: ...

    # -- card tables (the web app) -----------------------------------------------------------------

    def create_table(
        self,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: Seed,
        seats: list[SeatRecord],
        *,
        host_seed: bool = False,
    ) -> int: ...

    def load_table(self, table_id: int) -> TableRecord: ...

    def close_table(self, table_id: int) -> str:
        """Mark a table closed before its end; returns when (a table closed already: its first time)."""
        ...

    def table_ids(self) -> list[int]: ...

    def append_action(self, table_id: int, seq: int, action: str) -> None: ...

    def append_actions(self, lines: Sequence[tuple[int, int, str]]) -> None: ...

    def actions_since(self, table_id: int, seq: int) -> list[str]: ...

    def set_seats(
        self, table_id: int, seats: list[SeatRecord], expected: Sequence[SeatRecord] | None = None
    ) -> None: ...

    def load_analysis(self, table_id: int, seat: int, seed: int) -> dict[str, Any] | None: ...

    def save_analysis(self, table_id: int, seat: int, seed: int, result: dict[str, Any]) -> None: ...

    def add_hint(self, table_id: int, seat: int, version: int, action: str) -> None:
        """Note that ``seat`` was shown a hint (``action``, in notation) at the table's ``version`` (issue
        31); the same hint noted again changes nothing."""

    def hints(self, table_id: int) -> list[dict[str, Any]]:
        """The hints shown at a table, in order: ``{"seat", "version", "action", "created"}``."""
        ...

    # -- Thousand score sheets (the terminal and the web app) -------------------------------------

    def create_sheet(self, players: list[Any], options: dict[str, Any]) -> int: ...

    def load_sheet(self, sheet_id: int) -> tuple[list[Any], dict[str, Any], list[Any]]: ...

    def sheet_ids(self) -> list[int]: ...

    def add_sheet_deal(self, sheet_id: int, seq: int, deal: dict[str, Any], key: str | None = None) -> None:
        """Store deal ``seq`` of a sheet; with ``key`` (an entry's idempotency key) the key too, in the same
        transaction (a key already stored: RecordError, and nothing is stored)."""

    def remove_sheet_deal(self, sheet_id: int, seq: int) -> None: ...

    # -- banki games (the terminal and the web app) ------------------------------------------------

    def create_banki(self, names: list[str], options: dict[str, Any], seed: Seed) -> int: ...

    def load_banki(self, game_id: int) -> tuple[list[str], dict[str, Any], Seed, list[str]]: ...

    def banki_ids(self) -> list[int]: ...

    def add_banki_event(self, game_id: int, seq: int, event: str, key: str | None = None) -> None:
        """Store event ``seq`` of a banki game; ``key`` as for :meth:`add_sheet_deal`."""

    def entry(self, key: str) -> tuple[str, int, int] | None:
        """What the entry with idempotency key ``key`` became: (kind: ``sheet-deal`` or ``banki-event``, the
        sheet's or game's id, the line's ``seq``), or None if no entry has that key."""

    def remove_banki_event(self, game_id: int, seq: int) -> None: ...

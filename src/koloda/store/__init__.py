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

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from koloda.seeds import Seed

#: The random bytes of an edit key (192 bits, as a seat's link).
KEY_BYTES = 24


#: Where ``koloda serve`` answers unless told otherwise (its --host and --port defaults).
WEB_ADDRESS = "http://127.0.0.1:8000"


def new_key() -> str:
    """A new edit key: the secret every change of a score sheet or a banki game on the web must carry."""
    return secrets.token_urlsafe(KEY_BYTES)


def edit_link(kind: str, target_id: int, key: str, base: str = WEB_ADDRESS) -> str:
    """The edit link of a sheet (``kind`` "sheet") or banki game ("banki"): its page with the key after
    ``#``, which a browser never sends to the server (koloda.web.editkeys).

    >>> edit_link("sheet", 5, "abc")
    'http://127.0.0.1:8000/sheet/5#key=abc'
    """
    return f"{base}/{kind}/{target_id}#key={key}"


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


@dataclass(frozen=True)
class SheetRow:
    """A score sheet as a list shows it: its players (JSON, as stored), when it was made, and its summary
    (``koloda.thousand.sheet.scorefile.ScoredGame.summary``, kept at every write; None: not known)."""

    id: int
    players: list[Any]
    created: str
    summary: dict[str, Any] | None


@dataclass(frozen=True)
class BankiRow:
    """A banki game as a list shows it."""

    id: int
    names: list[str]
    created: str


class Store(Protocol):
    """Where koloda keeps everything it saves; :class:`koloda.store.SqlStore` is the implementation.

    Every write is committed before the method returns. An id that names nothing raises
    :class:`~koloda.errors.NotFoundError`; a database that cannot be read or written now raises
    :class:`~koloda.errors.StoreError` (a RecordError); a numbered line (an action, a deal, an event) or
    seats that another writer wrote first raise :class:`~koloda.errors.ConflictError` (a RecordError).
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

    def create_sheet(self, players: list[Any], options: dict[str, Any], edit_key: str | None = None) -> int:
        """A new sheet; ``edit_key`` is its edit key (None: a new one, :func:`new_key`)."""

    def load_sheet(self, sheet_id: int) -> tuple[list[Any], dict[str, Any], list[Any]]: ...

    def sheet_ids(self) -> list[int]: ...

    def sheet_key(self, sheet_id: int) -> str:
        """The sheet's edit key (NotFoundError: no such sheet)."""

    def sheet_page(self, before: int | None, limit: int) -> list[SheetRow]:
        """At most ``limit`` sheets, newest first, of the ids below ``before`` (None: from the newest)."""

    def set_sheet_summary(self, sheet_id: int, summary: dict[str, Any], deals: int) -> None:
        """Keep the summary of a sheet whose summary was not known, scored from its ``deals`` lines (unless
        another writer changed the sheet in the meantime)."""

    def add_sheet_deal(
        self,
        sheet_id: int,
        seq: int,
        deal: dict[str, Any],
        key: str | None = None,
        *,
        summary: dict[str, Any] | None = None,
    ) -> None:
        """Store deal ``seq`` of a sheet; with ``key`` (an entry's idempotency key) the key too, in the same
        transaction (a key already stored: RecordError, and nothing is stored); the sheet's ``summary``
        after the deal with it (None: not known, the list scores it once)."""

    def remove_sheet_deal(self, sheet_id: int, seq: int, *, summary: dict[str, Any] | None = None) -> None:
        """Forget deal ``seq``; the sheet's ``summary`` after it with it (as :meth:`add_sheet_deal`)."""

    # -- banki games (the terminal and the web app) ------------------------------------------------

    def create_banki(
        self, names: list[str], options: dict[str, Any], seed: Seed, edit_key: str | None = None
    ) -> int:
        """A new banki game; ``edit_key`` as for :meth:`create_sheet`."""

    def load_banki(self, game_id: int) -> tuple[list[str], dict[str, Any], Seed, list[str]]: ...

    def banki_ids(self) -> list[int]: ...

    def banki_key(self, game_id: int) -> str:
        """The game's edit key (NotFoundError: no such game)."""

    def banki_page(self, before: int | None, limit: int) -> list[BankiRow]:
        """At most ``limit`` games, newest first, of the ids below ``before`` (None: from the newest)."""

    def add_banki_event(self, game_id: int, seq: int, event: str, key: str | None = None) -> None:
        """Store event ``seq`` of a banki game; ``key`` as for :meth:`add_sheet_deal`."""

    def entry(self, key: str) -> tuple[str, int, int] | None:
        """What the entry with idempotency key ``key`` became: (kind: ``sheet-deal`` or ``banki-event``, the
        sheet's or game's id, the line's ``seq``), or None if no entry has that key."""

    def remove_banki_event(self, game_id: int, seq: int) -> None: ...

    # -- health ------------------------------------------------------------------------------------

    def probe(self) -> None:
        """Write to the database (RecordError if it cannot take a write now: gone, read-only, its disk
        full or nearly)."""

"""Group commit: the actions of every table are written off the event loop, many in one transaction.

A writer process opens the database and writes. It takes every group of actions waiting when it is free
and commits them together (one transaction, one fsync on SQLite's write-ahead log, one round trip to
PostgreSQL), so that while one group is on its way to the disk the next one gathers: the more tables
play, the bigger the groups, and no table's commit waits for another table's lock. The event loop hands
over the actions of one turn of the loop in one write (a person's at once, with those gathered before it)
and settles them in the callback that reads their outcomes (:mod:`koloda.web.workers`); an action is
announced after its outcome says it is stored. An in-memory
database, which another process cannot open, is written by a thread of this process the same way.

An action whose number the store already holds (another node wrote first) fails alone with
:class:`~koloda.errors.ConflictError`: a group that meets one is written again in halves, down to the
actions that conflict. A database that cannot be written fails every action of the group with its
:class:`~koloda.errors.RecordError`, and the next group tries again (no restart needed). A writer that
dies fails the actions it held with RecordError (whether they were stored is not known: a table that
was, is brought up to the database at its next action, by the conflict) and the next group starts
another.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess

from koloda.errors import ConflictError, KolodaError, RecordError
from koloda.store import Store
from koloda.store.sql import SqlStore
from koloda.web import workers

Line = tuple[int, int, str]  # table id, action number (from 1), canonical text
Outcome = tuple[str, str] | None  # None: stored; else ("conflict" or "record", the message)


@dataclass
class _Writer:
    frames: workers.Frames
    process: BaseProcess | None  # None: a thread of this process
    ended: asyncio.Future[None]  # set once its socket is closed and its process has ended


class Committer:
    """Writes actions in groups in a writer process; :meth:`append` awaits one action's commit."""

    def __init__(self, store: Store, *, max_group: int = 1000, process: bool = True) -> None:
        """``process=False``: a thread writes even a database another process could open (a test that
        changes the store in this process)."""
        self.store = store
        self.max_group = max_group
        # a database another process can open is written by one (a thread would fight the loop)
        self._url = store.url if process and isinstance(store, SqlStore) and not store.in_memory else None
        self._gathering: list[tuple[Line, asyncio.Future[None]]] = []  # this turn of the loop's actions
        self._people = 0  # how many of them people wait for (they come first)
        self._sent: collections.deque[list[asyncio.Future[None]]] = collections.deque()  # in the writer
        self._writer: _Writer | None = None
        self._starting: asyncio.Task[_Writer] | None = None
        self._closed = False

    async def append(self, table_id: int, seq: int, text: str, *, person: bool = False) -> None:
        """Store action ``seq`` of a table; returns once it is committed. ConflictError if another writer
        has that number, RecordError if the database cannot be written: then nothing was stored.
        ``person``: a person waits for this action (a bot does not): it goes to the writer at once, with
        the actions gathered before it (and first among them, so that its table is announced first), rather
        than at the end of this turn of the loop."""
        if self._closed:
            raise RecordError(f"the database {self.store.location} is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        if person:  # first in its group: its table is announced first when the group is stored
            self._gathering.insert(self._people, ((table_id, seq, text), future))
            self._people += 1
        else:
            self._gathering.append(((table_id, seq, text), future))
        if person and self._writer is not None:
            self._hand_over()
        elif len(self._gathering) == 1:  # one write to the writer a turn of the loop, not one an action
            loop.call_soon(self._hand_over)
        await future

    def _hand_over(self) -> None:
        if not self._gathering:  # a person's action took them already
            return
        if self._writer is None:  # the first group, or the writer died: start one, then send
            if self._starting is None:
                self._starting = asyncio.get_running_loop().create_task(self._start())
                self._starting.add_done_callback(self._started)
            return
        group, self._gathering, self._people = self._gathering, [], 0
        self._sent.append([future for _line, future in group])
        self._writer.frames.write(workers.frame([line for line, _future in group]))

    async def _start(self) -> _Writer:
        if self._url is not None:
            process, sock = await asyncio.to_thread(
                workers.spawn, _serve, self._url, self.max_group, name="koloda-commit"
            )
        else:
            connection, sock = workers.pair()
            serving = (connection, self.store, self.max_group)
            threading.Thread(target=_serve, args=serving, name="koloda-commit", daemon=True).start()
            process = None
        loop = asyncio.get_running_loop()
        ended: asyncio.Future[None] = loop.create_future()
        holder: list[_Writer] = []  # the writer, for its own ``lost``
        frames = await workers.connect(sock, self._outcomes, lambda: self._lost(holder[0]))
        holder.append(_Writer(frames, process, ended))
        return holder[0]

    def _started(self, task: asyncio.Task[_Writer]) -> None:
        self._starting = None
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:  # no process could be started: this turn's actions fail, the next tries again
            group, self._gathering, self._people = self._gathering, [], 0
            failure = RecordError(f"cannot start the database writer for {self.store.location}: {error}")
            _settle([future for _line, future in group], [("record", str(failure))] * len(group))
            return
        self._writer = task.result()
        self._hand_over()

    def _outcomes(self, answers: list[list[Outcome]]) -> None:
        """Settle each group as its outcomes come, in the order the groups were sent."""
        for outcomes in answers:
            if self._sent:
                _settle(self._sent.popleft(), outcomes)

    def _lost(self, writer: _Writer) -> None:
        """The writer's socket ended: what it held fails (it may or may not be stored), its process is
        ended, and the actions gathered meanwhile go to a new writer."""
        if self._writer is writer:
            self._writer = None
        pid = "" if writer.process is None else f" (pid {writer.process.pid})"
        failure = ("record", f"the database writer{pid} stopped: the action may not be stored")
        while self._sent:
            group = self._sent.popleft()
            _settle(group, [failure] * len(group))
        asyncio.get_running_loop().create_task(self._bury(writer))
        if not self._closed:
            self._hand_over()

    @staticmethod
    async def _bury(writer: _Writer) -> None:
        try:
            if writer.process is not None:
                await asyncio.to_thread(workers.end, writer.process)
        finally:
            if not writer.ended.done():
                writer.ended.set_result(None)

    async def close(self) -> None:
        """Finish the groups sent, then stop the writer."""
        self._closed = True
        if self._starting is not None:
            with contextlib.suppress(BaseException):
                await self._starting
        writer = self._writer
        if writer is not None:
            writer.frames.write(workers.frame(None))  # the writer answers what it holds, then ends
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(writer.ended), timeout=30)


def _serve(connection: Connection, store: Store | str, max_group: int) -> None:
    """The writer's life: groups in, committed together, their outcomes out in one write, until ``None``
    or the socket's end. ``store``: the store itself (a thread) or its URL (a process opens it)."""
    try:
        opened: Store | None = SqlStore(store) if isinstance(store, str) else store
        failure = None
    except RecordError as exc:  # the groups sent fail with this; the next group starts another writer
        opened, failure = None, str(exc)
    stopping = False
    try:
        while True:
            try:
                groups: list[list[Line]] = []  # every group waiting, up to max_group actions
                more = True
                while more and not stopping:
                    group = connection.recv()
                    if group is None:
                        stopping = True
                        break
                    groups.append(group)
                    more = connection.poll(0) and sum(map(len, groups)) < max_group
            except (EOFError, OSError):
                return
            lines = [line for group in groups for line in group]
            outcomes = write(opened, lines) if opened is not None else [("record", str(failure))] * len(lines)
            answers, start = [], 0
            for group in groups:
                answers.append(outcomes[start : start + len(group)])
                start += len(group)
            try:
                connection.send(answers)
            except OSError:
                return
            if stopping or opened is None:
                return
    finally:
        connection.close()
        if opened is not None and opened is not store:
            opened.close()


def write(store: Store, lines: list[Line]) -> list[Outcome]:
    """Write the lines in one transaction; when one of them lost a race, write each half again (a few
    conflicts in a big group cost a few more transactions, not one per line)."""
    try:
        store.append_actions(lines)
    except ConflictError as exc:
        if len(lines) == 1:
            return [("conflict", str(exc))]
        half = len(lines) // 2
        return write(store, lines[:half]) + write(store, lines[half:])
    except RecordError as exc:
        return [("record", str(exc))] * len(lines)
    except Exception as exc:  # a bug or a driver's surprise: said as the store's failure
        return [("record", f"cannot write to the database {store.location}: {exc!r}")] * len(lines)
    return [None] * len(lines)


def _settle(futures: list[asyncio.Future[None]], outcomes: list[Outcome]) -> None:
    for future, outcome in zip(futures, outcomes, strict=True):
        if future.done():  # its awaiter was cancelled (the server is stopping)
            continue
        if outcome is None:
            future.set_result(None)
        else:
            kind, message = outcome
            error: KolodaError = ConflictError(message) if kind == "conflict" else RecordError(message)
            future.set_exception(error)

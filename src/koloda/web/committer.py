"""Group commit: the actions of every table are written off the event loop, many in one transaction.

One thread writes. It takes every action waiting when it is free and commits them together (one
transaction, one fsync on SQLite's write-ahead log, one round trip to PostgreSQL), so that while one
group is on its way to the disk the next one gathers: the more tables play, the bigger the groups, and
no table's commit waits for another table's lock. The event loop only hands an action over and awaits
its future; the action is announced after its future says it is stored.

An action whose number the store already holds (another node wrote first) fails alone with
:class:`~koloda.errors.ConflictError`: a group that meets one is written again in halves, down to the
actions that conflict. A
database that cannot be written fails every action of the group with its
:class:`~koloda.errors.RecordError`, and the next group tries again (no restart needed).
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from dataclasses import dataclass

from koloda.errors import ConflictError, KolodaError, RecordError
from koloda.store import Store

Line = tuple[int, int, str]  # table id, action number (from 1), canonical text


@dataclass
class _Pending:
    line: Line
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]


class Committer:
    """Writes actions in groups on its own thread; :meth:`append` awaits one action's commit."""

    def __init__(self, store: Store, *, max_group: int = 1000) -> None:
        self.store = store
        self.max_group = max_group
        self.groups = 0  # transactions committed (for /metrics and the benchmark)
        self.committed = 0  # actions committed
        self.seconds = 0.0  # time spent committing
        self._queue: queue.SimpleQueue[list[_Pending] | None] = queue.SimpleQueue()
        self._gathering: list[_Pending] = []  # the actions of this turn of the loop, handed over together
        self._people = 0  # how many of them people wait for (they come first)
        self._thread = threading.Thread(target=self._run, name="koloda-commit", daemon=True)
        self._thread.start()

    async def append(self, table_id: int, seq: int, text: str, *, person: bool = False) -> None:
        """Store action ``seq`` of a table; returns once it is committed. ConflictError if another writer
        has that number, RecordError if the database cannot be written: then nothing was stored.
        ``person``: a person waits for this action (a bot does not): it goes first in its group, so its
        table is announced first when the group is stored."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        pending = _Pending((table_id, seq, text), loop, future)
        if person:
            self._gathering.insert(self._people, pending)
            self._people += 1
        else:
            self._gathering.append(pending)
        if len(self._gathering) == 1:  # one wake-up of the writer a turn of the loop, not one an action
            loop.call_soon(self._hand_over)
        await future

    def _hand_over(self) -> None:
        group, self._gathering, self._people = self._gathering, [], 0
        self._queue.put(group)

    def close(self) -> None:
        """Finish the waiting groups, then stop the thread."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            group = first
            while len(group) < self.max_group:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._commit(group)
                    return
                group.extend(more)
            self._commit(group)

    def _commit(self, group: list[_Pending]) -> None:
        start = time.perf_counter()
        outcomes = self._write([pending.line for pending in group])
        self.seconds += time.perf_counter() - start
        self.groups += 1
        self.committed += sum(outcome is None for outcome in outcomes)
        settled: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[None], KolodaError | None]]] = {}
        for pending, outcome in zip(group, outcomes, strict=True):
            settled.setdefault(pending.loop, []).append((pending.future, outcome))
        for loop, outcomes_of_loop in settled.items():  # one wake-up of each loop a group, not one an action
            loop.call_soon_threadsafe(_settle, outcomes_of_loop)

    def _write(self, lines: list[Line]) -> list[KolodaError | None]:
        """Write the lines in one transaction; when one of them lost a race, write each half again (a few
        conflicts in a big group cost a few more transactions, not one per line)."""
        try:
            self.store.append_actions(lines)
        except ConflictError as exc:
            if len(lines) == 1:
                return [exc]
            half = len(lines) // 2
            return self._write(lines[:half]) + self._write(lines[half:])
        except RecordError as exc:
            return [exc] * len(lines)
        except Exception as exc:  # a bug or a driver's surprise: said as the store's failure
            return [RecordError(f"cannot write to the database {self.store.location}: {exc!r}")] * len(lines)
        return [None] * len(lines)


def _settle(outcomes: list[tuple[asyncio.Future[None], KolodaError | None]]) -> None:
    for future, outcome in outcomes:
        if future.done():  # its awaiter was cancelled (the server is stopping)
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)

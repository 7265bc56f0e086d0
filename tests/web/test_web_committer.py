"""The group committer (koloda.web.committer): many tables' actions in one transaction, a line another
writer stored first refused alone, the others of its group stored."""

from __future__ import annotations

import asyncio
import os
import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from web_helpers import alive

from koloda.errors import ConflictError, RecordError
from koloda.store import SeatRecord
from koloda.store.sql import SqlStore
from koloda.web.committer import Committer


def test_a_conflict_in_a_group_fails_that_action_alone(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    seats = [SeatRecord("A", "a" * 8, None, False), SeatRecord("B", "b" * 8, None, False)]
    ids = [store.create_table("bank", 2, {}, seed, seats) for seed in range(12)]
    store.append_action(ids[5], 1, "another node's")  # table 5's first action is taken

    async def appends() -> list[BaseException | None]:
        committer = Committer(store)
        try:
            return await asyncio.gather(
                *(committer.append(table_id, 1, f"mine {table_id}") for table_id in ids),
                return_exceptions=True,
            )
        finally:
            await committer.close()

    with ThreadPoolExecutor(1) as thread:  # a loop of its own (a session fixture may run one here)
        outcomes = thread.submit(asyncio.run, appends()).result(timeout=60)
    assert [type(outcome) for outcome in outcomes] == [type(None)] * 5 + [ConflictError] + [type(None)] * 6
    for table_id in ids:
        expected = "another node's" if table_id == ids[5] else f"mine {table_id}"
        assert store.load_table(table_id).actions == (expected,)  # each line once, the first writer's
    with pytest.raises(ConflictError):
        store.append_actions([(ids[0], 1, "again")])
    store.close()


def test_a_persons_action_is_settled_first_in_its_group(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'p.sqlite3'}")
    seats = [SeatRecord("A", "a" * 8, None, False), SeatRecord("B", "b" * 8, "easy", True)]
    ids = [store.create_table("bank", 2, {}, seed, seats) for seed in range(6)]

    async def appends() -> list[int]:
        committer = Committer(store)
        done: list[int] = []

        async def one(table_id: int, person: bool) -> None:
            await committer.append(table_id, 1, f"move {table_id}", person=person)
            done.append(table_id)

        try:  # five bots' moves and one person's, asked in one turn of the loop, the person's fourth
            await asyncio.gather(*(one(table_id, table_id == ids[3]) for table_id in ids))
        finally:
            await committer.close()
        return done

    with ThreadPoolExecutor(1) as thread:
        done = thread.submit(asyncio.run, appends()).result(timeout=60)
    assert done[0] == ids[3] and sorted(done) == ids
    assert all(store.load_table(table_id).actions == (f"move {table_id}",) for table_id in ids)
    store.close()


def test_the_writer_is_a_process_that_is_replaced_when_it_dies_and_ends_on_close(tmp_path: Path) -> None:
    store = SqlStore(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    seats = [SeatRecord("A", "a" * 8, None, False), SeatRecord("B", "b" * 8, None, False)]
    table = store.create_table("bank", 2, {}, 1, seats)

    async def main() -> tuple[int, int, bool]:
        committer = Committer(store)
        await committer.append(table, 1, "first")
        writer = committer._writer
        assert writer is not None and writer.process is not None  # a database on disk: a process
        first = writer.process.pid
        assert first is not None and first != os.getpid()
        os.kill(first, signal.SIGKILL)  # dies: the next action starts another writer
        for _ in range(3000):  # until the pool has heard its writer died (a bound only)
            if committer._writer is None:
                break
            await asyncio.sleep(0.02)
        await committer.append(table, 2, "second")
        assert committer._writer is not None and committer._writer.process is not None
        second = committer._writer.process.pid
        assert second is not None
        await committer.close()
        with pytest.raises(RecordError):  # closed: refused, nothing stored
            await committer.append(table, 3, "third")
        return first, second, alive(second)

    with ThreadPoolExecutor(1) as thread:
        first, second, running = thread.submit(asyncio.run, main()).result(timeout=60)
    assert first != second and not running
    assert store.load_table(table).actions == ("first", "second")
    store.close()


def test_an_in_memory_database_is_written_by_a_thread_the_same_way() -> None:
    store = SqlStore("sqlite://")
    seats = [SeatRecord("A", "a" * 8, None, False), SeatRecord("B", "b" * 8, None, False)]
    ids = [store.create_table("bank", 2, {}, seed, seats) for seed in range(3)]

    async def main() -> None:
        committer = Committer(store)
        await asyncio.gather(*(committer.append(table_id, 1, f"m{table_id}") for table_id in ids))
        assert committer._writer is not None and committer._writer.process is None
        await committer.close()

    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, main()).result(timeout=60)
    assert [store.load_table(table_id).actions for table_id in ids] == [(f"m{t}",) for t in ids]
    store.close()

"""The web app's bot workers (koloda.web.botpool): moves answered in worker processes, a worker that dies
or is stuck replaced without losing the moves behind it, and no process left when the pool closes
(issue 15, point 1)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from web_helpers import alive, run

from koloda import registry
from koloda.bank.options import BankOptions
from koloda.web.botpool import BotPool, Table, WorkerError

BANK = registry.get("bank")


class _Behaviour:
    """A bot whose move depends on its level: ``die`` ends its process, ``hang`` never returns."""

    def __init__(self, level: str) -> None:
        self.level = level

    def choose(self, observation: object, legal: Sequence[int]) -> int:
        if self.level == "die":
            os._exit(3)
        if self.level == "hang":
            time.sleep(3600)
        return legal[-1]


class Misbehaving(type(BANK)):  # type: ignore[misc]
    """Bank with bots that misbehave, importable by the worker processes (this module is on their path)."""

    def guarded_bot(self, level: str, seed: int, options: object, **_: Any) -> _Behaviour:
        return _Behaviour(level)


def _table(game: Any = BANK, table_id: int = 1) -> Table:
    return Table(table_id, game, 3, {}, 11)


#: Bank's first legal actions at the table of :func:`_table` (a move of a fresh table).
FIRST = BANK.new_game(BankOptions(), players=3, seed=11).legal_actions()


def _bank_moves(count: int) -> list[tuple[list[str], int, list[int]]]:
    """The actions before each of ``count`` moves of one Bank game, the seat to move and its legal actions."""
    state = BANK.new_game(BankOptions(), players=3, seed=11)
    texts: list[str] = []
    moves = []
    for _ in range(count):
        seat = state.current_player
        assert seat is not None
        legal = list(state.legal_actions())
        moves.append((list(texts), seat, legal))
        texts.append(state.action_text(legal[0]))
        state.apply(legal[0])
    return moves


def test_many_moves_at_once_are_each_answered_by_the_real_bots() -> None:
    async def main() -> list[tuple[int, list[int]]]:
        pool = BotPool(2)
        try:
            jobs = _bank_moves(40)
            table = _table()
            asked = [pool.move(table, done, seat, "easy", n, 10.0) for n, (done, seat, _) in enumerate(jobs)]
            answers = await asyncio.gather(*asked)
            return [(action, legal) for (action, faults), (*_, legal) in zip(answers, jobs, strict=True)]
        finally:
            await pool.close()

    for action, legal in run(main()):
        assert action in legal


def test_a_worker_that_dies_fails_its_move_and_is_replaced() -> None:
    async def main() -> tuple[BaseException | None, int, int]:
        pool = BotPool(1)
        try:
            failed: BaseException | None = None
            try:
                await pool.move(_table(Misbehaving()), [], 0, "die", 1, 10.0)
            except WorkerError as exc:
                failed = exc
            action, _ = await pool.move(_table(Misbehaving()), [], 0, "fine", 1, 10.0)
            return failed, action, pool.replaced
        finally:
            await pool.close()

    failed, action, replaced = run(main())
    assert isinstance(failed, WorkerError) and "died" in str(failed)
    assert action == FIRST[-1] and replaced == 1


def test_a_stuck_bot_times_out_and_its_worker_is_replaced_without_losing_the_moves_behind_it() -> None:
    """On the pool's clock (the test's: no time passes but what it says), a move past twice its time limit
    fails with TimeoutError (the hub then plays a random move), its worker, past the limit and a second, is
    replaced, and the moves behind it are answered by the new worker within their own time."""

    async def main() -> tuple[list[object], int, list[int], int]:
        now = [0.0]
        pool = BotPool(1, clock=lambda: now[0])
        try:
            table = _table(Misbehaving())
            await pool.move(table, [], 0, "fine", 1, 10.0)  # the worker is up
            stuck = asyncio.ensure_future(pool.move(table, [], 0, "hang", 1, 0.2))
            while not (pool._pool and pool._pool[0].held):  # the stuck move is in its worker
                await asyncio.sleep(0)
            behind = [asyncio.ensure_future(pool.move(table, [], 0, "fine", 1, 2.0)) for _ in range(3)]
            while len(pool._pool[0].held) < 4:  # the three behind it wait in the same worker
                await asyncio.sleep(0)
            first_pids = [w.process.pid for w in pool._pool]
            now[0] = 0.5  # the stuck move's time (0.4 s) is over; its worker is not past 1.4 s yet
            pool.check()
            replaced_then = pool.replaced
            now[0] = 1.5  # its worker is stuck: replaced, the moves behind it go to the new one
            pool.check()
            outcomes = await asyncio.gather(stuck, *behind, return_exceptions=True)
            return (
                list(outcomes),
                pool.replaced,
                [pid for pid in first_pids if pid is not None],
                replaced_then,
            )
        finally:
            await pool.close()

    outcomes, replaced, pids, replaced_then = run(main())
    assert isinstance(outcomes[0], TimeoutError)  # the hub plays a random move for it
    assert outcomes[1:] == [(FIRST[-1], [])] * 3  # answered by the new worker, within their time (4 s)
    assert replaced_then == 0 and replaced == 1
    assert pids and not any(alive(pid) for pid in pids)  # the stuck worker was killed


def test_closing_the_pool_ends_every_worker() -> None:
    async def main() -> list[int]:
        pool = BotPool(2)
        await asyncio.gather(*(pool.move(_table(table_id=i), [], 0, "easy", i, 10.0) for i in range(4)))
        pids = [w.process.pid for w in pool._pool if w.process.pid is not None]
        await pool.close()
        with pytest.raises(WorkerError):
            await pool.move(_table(), [], 0, "easy", 1, 10.0)
        return pids

    pids = run(main())
    assert len(pids) == 2 and not any(alive(pid) for pid in pids)


def test_bots_pause_until_the_next_beat() -> None:
    from koloda.web.hub import BOT_BEAT, _beat_after

    for now in (0.0, 12.3456, 1000.019, 77.02):
        for delay in (0.6, 0.013, 1.0, 0.02):
            pause = _beat_after(now, delay) * BOT_BEAT - now
            assert delay - 1e-9 <= pause < delay + BOT_BEAT  # at most one beat longer


def test_a_bots_pause_is_a_place_on_a_beat_and_its_move_a_task_only_after_it(tmp_path: Path) -> None:
    """During a bot's pause no task waits and no timer of its own runs (a task asleep, or a timer, at
    each of 1,000 tables outlived the garbage collector's young generations): the room waits in its
    beat's list; the move is made when its beat comes, not before (here the beat is called by the test:
    the pause is an hour)."""
    from web_helpers import app_client, create, hub

    from koloda.web.hub import Hub, Room

    for client in app_client(tmp_path, bot_delay=3600, bot_workers=0):
        made = create(client, game="bank", players=2, seed=4, seats=[{"kind": "bot"}, {"kind": "bot"}])
        the_hub = hub(client)
        room = client.portal.call(the_hub.room, made["id"])  # type: ignore[union-attr]

        def pause(room: Room = room, the_hub: Hub = the_hub) -> tuple[int | None, bool, bool]:
            """Read on the loop's thread, in one step."""
            due = room.bot_due
            task = room.bot_task is not None and not room.bot_task.done()
            return due, task, due is not None and room in the_hub._beats.get(due, [])

        due, task, listed = client.portal.call(pause)  # type: ignore[union-attr]
        assert due is not None and not task and listed and room.version == 0
        client.portal.call(the_hub._beat, due)  # type: ignore[union-attr]  # its beat comes
        while room.version == 0:  # the move, in a task now, then through the hub as a person's
            client.portal.call(asyncio.sleep, 0.01)  # type: ignore[union-attr]
        due_next, _, listed_next = client.portal.call(pause)  # type: ignore[union-attr]
        assert room.version == 1 and due_next is not None and due_next != due and listed_next

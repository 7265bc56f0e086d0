"""Where the web app's bots think: worker processes, never the event loop's.

A worker follows the tables it thinks for: the first move of a table brings the start of its game record
and its actions, each later move the actions that came after the last one (a few words, where an
observation and its pickling cost the event loop a fifth of its time at 1,000 tables). The worker brings
its copy of the table up to date, builds the guarded bot (the level, the levels below it, then a random
move), gives it ``observe(state, seat)`` and nothing else, and returns its move with the faults it met,
which the hub records and logs. ``workers=0`` thinks on threads
of the server's own process instead (for a test that patches a bot in this process).

Each worker is a process at the other end of a socket pair: the event loop writes moves to it (several in
one write when many are due) and settles its answers in the callback that reads them, with no thread or
task of its own in between.
The pool it replaces, ``concurrent.futures.ProcessPoolExecutor``, hands every move to a manager thread
that fights the event loop for the interpreter's lock: at 1,000 tables of bots a move waited 0.75 s
there (docs/performance.md, "The web app under load"). A worker keeps up to :data:`WINDOW` moves in hand,
so one slow bot delays at most that many others; the others go to the worker with the fewest.

A bot that takes more than twice the time limit (measured on the pool's clock, which tests replace) is
not waited for: the hub plays a random legal move instead, in a worker process as on a thread. Its
worker is stopped and replaced (its other moves go to the next worker), so a bot that never returns
costs neither a worker nor the moves behind it. A worker that dies fails the move it was on and
is replaced in the same way. A worker ends when its socket closes: when the pool closes or the server
dies, whatever kills it.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import os
import pickle
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from koloda.bots.base import Fault
from koloda.game import GameRecord, GameSpec, GameState, replay_actions
from koloda.options import Options
from koloda.seeds import Seed
from koloda.web.workers import Frames, connect, end, frame, spawn

#: Moves a worker holds at once (sent, not yet answered).
WINDOW = 32
#: Tables a worker follows at most (_Follower).
FOLLOWED = 4096
#: How often the pool looks for moves past their time and stuck workers (seconds).
WATCH = 0.25


class WorkerError(RuntimeError):
    """The worker thinking a move died or was stopped before it answered."""


class OutOfStep(WorkerError):
    """The worker does not hold a table as the pool thought (it is sent the table whole again)."""


@dataclass(frozen=True)
class Table:
    """What a worker needs to follow a table: the start of its game record (the actions come after)."""

    id: int
    game: GameSpec
    players: int
    options: dict[str, Any]
    seed: Seed


#: A move as the worker gets it: the table's id; its start (sent when the worker does not follow the
#: table yet: then the actions are all of them); the number of actions the worker holds of it; the
#: actions after those; the seat to move, the level, the bot's seed and the time limit.
Job = tuple[int, Table | None, int, list[str], int, str, int, float]


def think(
    game: GameSpec,
    level: str,
    seed: int,
    options: Options,
    observation: object,
    legal: Sequence[int],
    seconds: float,
) -> tuple[int, list[Fault]]:
    """One move of a guarded bot of ``level`` (in a worker): the action and the faults it met."""
    faults: list[Fault] = []
    bot = game.guarded_bot(level, seed, options, seconds=seconds, on_fault=faults.append)
    return bot.choose(observation, legal), faults


_Followed = tuple[Table, Options, GameState]


class _Follower:
    """A worker's copies of the tables it thinks for, each brought up to date by the actions that came
    after the last move it thought there; the bot is given ``observe(state, seat)`` and nothing else. At
    most :data:`FOLLOWED` tables, the least recently moved forgotten first (the pool keeps the same list,
    so it knows which tables to send whole)."""

    def __init__(self) -> None:
        self.tables: collections.OrderedDict[int, _Followed] = collections.OrderedDict()

    def held(self, table_id: int) -> int | None:
        """How many of a table's actions this follower holds (None: it does not follow the table)."""
        followed = self.tables.get(table_id)
        return None if followed is None else followed[2].version

    def move(self, job: Job) -> tuple[int, list[Fault]]:
        table_id, start, held, actions, seat, level, seed, seconds = job
        followed = self.tables.pop(table_id, None)  # put back only if all goes well (the pool does the same)
        if start is not None:
            record = GameRecord(
                game=start.game.name,
                players=start.players,
                options=start.options,
                actions=tuple(actions),
                seed=start.seed,
                scope="match",
            )
            parsed = start.game.options_class.from_mapping(start.options)
            followed = (start, parsed, start.game.replay(record))
        elif followed is None or followed[2].version != held:
            raise OutOfStep(f"the worker does not hold table {table_id} at action {held}")
        else:
            replay_actions(followed[2], actions)
        table, parsed, state = followed
        observation = table.game.observe(state, seat)
        answer = think(table.game, level, seed, parsed, observation, state.legal_actions(), seconds)
        self.tables[table_id] = followed
        if len(self.tables) > FOLLOWED:
            self.tables.popitem(last=False)
        return answer


def _serve(connection: Connection) -> None:
    """A worker's life: moves in, their answers (or the exceptions they raised) out, until the socket
    closes. The moves already waiting are thought together and answered in one write."""
    follower = _Follower()
    while True:
        try:
            jobs: list[Job] = [connection.recv()]
            while connection.poll(0) and len(jobs) < WINDOW:
                jobs.append(connection.recv())
        except (EOFError, OSError):
            return
        answers: list[object] = []
        for job in jobs:
            try:
                answers.append(follower.move(job))
            except Exception as exc:
                answers.append(_picklable(exc))
        try:
            connection.send(answers)
        except OSError:
            return


def _picklable(exc: Exception) -> Exception:
    """The exception itself if it can cross to the server, else a WorkerError that says it."""
    try:
        pickle.dumps(exc)
    except Exception:
        return WorkerError(f"{type(exc).__name__}: {exc}")
    return exc


def _settle(move: _Move, done: asyncio.Future[tuple[int, list[Fault]]]) -> None:
    """A move thought on a thread came back: its answer, unless its time ran out first."""
    if move.future.done():
        return
    if done.cancelled():
        move.future.cancel()
    elif (error := done.exception()) is not None:
        move.future.set_exception(error)
    else:
        move.future.set_result(done.result())


def default_workers() -> int:
    """One worker per core but the event loop's, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(eq=False)  # in a set by identity (BotPool._threaded)
class _Move:
    table: Table
    actions: list[str]  # the table's actions (the room's own list: those up to ``version`` are used)
    version: int
    seat: int
    level: str
    seed: int
    seconds: float
    future: asyncio.Future[tuple[int, list[Fault]]]
    deadline: float  # the pool's clock: past it the move fails with TimeoutError
    sent: float = 0.0  # the pool's clock too

    def job(self, held: int | None) -> Job:
        """The move for a worker that holds ``held`` of the table's actions (None: not the table)."""
        if held is None or held > self.version:
            return (self.table.id, self.table, 0, self.actions[: self.version], *self._rest())
        return (self.table.id, None, held, self.actions[held : self.version], *self._rest())

    def _rest(self) -> tuple[int, str, int, float]:
        return self.seat, self.level, self.seed, self.seconds


@dataclass
class _Worker:
    process: BaseProcess
    frames: Frames | None = None
    held: collections.deque[_Move] = field(default_factory=collections.deque)
    # the tables the worker follows and how many of their actions it holds, in the worker's order
    known: collections.OrderedDict[int, int] = field(default_factory=collections.OrderedDict)

    def job(self, move: _Move) -> Job:
        """The move as this worker is sent it; the worker then follows the table up to the move."""
        job = move.job(self.known.pop(move.table.id, None))
        self.known[move.table.id] = move.version
        if len(self.known) > FOLLOWED:
            self.known.popitem(last=False)
        return job


class BotPool:
    """Runs :func:`think` in ``workers`` processes (0: threads of this process); every time limit is
    measured on ``clock``."""

    def __init__(self, workers: int, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.workers = workers
        self._clock = clock
        self.replaced = 0  # workers stopped or dead and started again (tests, the log)
        self._threads = (
            ThreadPoolExecutor(max_workers=2, thread_name_prefix="koloda-bot") if not workers else None
        )
        self._follower = _Follower()  # the threads' (a worker process has its own)
        self._lock = threading.Lock()
        self._pool: list[_Worker] = []
        self._waiting: collections.deque[_Move] = collections.deque()
        self._threaded: set[_Move] = set()  # moves thought on a thread, watched for their time
        self._starting: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._closed = False
        self._pumping = False

    async def move(
        self,
        table: Table,
        actions: list[str],
        seat: int,
        level: str,
        seed: int,
        seconds: float,
    ) -> tuple[int, list[Fault]]:
        """The move of the bot of ``level`` at ``seat`` after ``actions`` (a room's own list, which must
        not change while the move is asked) and its faults; TimeoutError after ``2 * seconds``."""
        loop = asyncio.get_running_loop()
        deadline = self._clock() + 2 * seconds
        move = _Move(table, actions, len(actions), seat, level, seed, seconds, loop.create_future(), deadline)
        if self._watch is None and not self._closed:  # one timer for every move's time limit, not one a move
            self._watch = loop.create_task(self._watchdog())
        if self._threads is not None:
            follower = self._follower

            def thinking() -> tuple[int, list[Fault]]:
                with self._lock:  # one follower for the threads
                    return follower.move(move.job(follower.held(table.id)))

            # A thread cannot be stopped: past its time the move is answered without it (check).
            self._threaded.add(move)
            loop.run_in_executor(self._threads, thinking).add_done_callback(functools.partial(_settle, move))
            try:
                return await move.future
            finally:
                self._threaded.discard(move)
        if self._closed:
            raise WorkerError("the bot pool is closed")
        self._waiting.append(move)
        if len(self._pool) < self.workers:
            if self._starting is None or self._starting.done():
                self._starting = loop.create_task(self._start())
        elif not self._pumping:  # the moves asked in this turn of the loop go in one write
            self._pumping = True
            loop.call_soon(self._pump)
        return await move.future

    async def close(self) -> None:
        """Stop every worker (each ends when its socket closes; one that does not is killed)."""
        self._closed = True
        for task in (self._starting, self._watch):
            if task is not None:
                task.cancel()
        workers, self._pool = self._pool, []
        for worker in workers:
            self._drop(worker, WorkerError("the bot pool is closed"))
        await asyncio.gather(*(asyncio.to_thread(end, worker.process) for worker in workers))
        for move in self._waiting:
            if not move.future.done():
                move.future.set_exception(WorkerError("the bot pool is closed"))
        self._waiting.clear()
        if self._threads is not None:
            self._threads.shutdown(wait=False, cancel_futures=True)

    # -- the workers ---------------------------------------------------------------------------------

    async def _start(self) -> None:
        """Start workers up to ``workers`` (a process start blocks: it runs on a thread), then send."""
        while len(self._pool) < self.workers and not self._closed:
            process, sock = await asyncio.to_thread(spawn, _serve, name="koloda-bot")
            worker = _Worker(process)
            worker.frames = await connect(
                sock, functools.partial(self._answers, worker), functools.partial(self._lost, worker)
            )
            self._pool.append(worker)
        self._pump()

    def _pump(self) -> None:
        """Send the waiting moves to the workers with room, the least busy first (one write each)."""
        self._pumping = False
        now = self._clock()
        frames: dict[int, list[bytes]] = {}
        while self._waiting and self._pool:
            worker = min(self._pool, key=lambda w: len(w.held))
            if len(worker.held) >= WINDOW:
                break
            move = self._waiting.popleft()
            if move.future.done():  # timed out or cancelled while waiting: not worth thinking about
                continue
            frames.setdefault(id(worker), []).append(frame(worker.job(move)))
            move.sent = now
            worker.held.append(move)
        for worker in self._pool:
            if id(worker) in frames and worker.frames is not None:
                worker.frames.write(b"".join(frames[id(worker)]))

    def _answers(self, worker: _Worker, answers: list[object]) -> None:
        """Settle the worker's moves in the order it answers them."""
        if worker not in self._pool:  # replaced meanwhile: its moves went to another worker
            return
        for answer in answers:
            if not worker.held:
                break
            move = worker.held.popleft()
            if isinstance(answer, BaseException):  # the worker forgot the table: so does the pool
                worker.known.pop(move.table.id, None)
            if isinstance(answer, OutOfStep) and not move.future.done():
                self._waiting.appendleft(move)  # sent whole next time
                continue
            if move.future.done():
                continue
            if isinstance(answer, BaseException):
                move.future.set_exception(answer)
            else:
                move.future.set_result(answer)  # type: ignore[arg-type]
        if self._waiting:
            self._pump()

    def _lost(self, worker: _Worker) -> None:
        """The worker's socket ended: unless the pool dropped it, it died; replace it."""
        if not self._closed and worker in self._pool:
            self._replace(worker, WorkerError(f"the bot worker (pid {worker.process.pid}) died"))

    async def _watchdog(self) -> None:
        """Every :data:`WATCH` seconds, :meth:`check`."""
        while not self._closed:
            await asyncio.sleep(WATCH)
            self.check()

    def check(self) -> None:
        """The moves past their time (by the pool's clock) fail with TimeoutError (the hub plays a random
        move; one not yet sent is not sent), and a worker whose oldest move is past twice the time limit
        and a second is stuck: it is replaced."""
        now = self._clock()
        for move in [*self._waiting, *(m for w in self._pool for m in w.held), *self._threaded]:
            if now > move.deadline and not move.future.done():
                move.future.set_exception(TimeoutError(f"no move after {move.seconds * 2:g} s"))
        for worker in list(self._pool):
            if worker.held and now - worker.held[0].sent > 2 * worker.held[0].seconds + 1:
                self._replace(worker, WorkerError(f"the bot worker (pid {worker.process.pid}) was stuck"))

    def _replace(self, worker: _Worker, error: WorkerError) -> None:
        """Stop a worker; its first move fails with ``error``, the moves behind it wait for another."""
        self._pool.remove(worker)
        self.replaced += 1
        self._drop(worker, error)
        asyncio.get_running_loop().run_in_executor(None, end, worker.process)
        self._pump()
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self._start())

    def _drop(self, worker: _Worker, error: WorkerError) -> None:
        if worker.frames is not None:
            worker.frames.close()
        if worker.held:
            first = worker.held.popleft()
            if not first.future.done():
                first.future.set_exception(error)
        self._waiting.extendleft(reversed(worker.held))
        worker.held.clear()

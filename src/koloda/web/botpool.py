"""Where the web app's bots think: worker processes, never the event loop's.

A move is asked of a worker with what a bot may know and nothing more: the game's spec, the level, the
seed, the table's options, the seat's observation (``observe(state, seat)``, made by the hub) and the
legal actions. The worker builds the guarded bot (the level, the levels below it, then a random move) and
returns its move with the faults it met, which the hub records and logs. ``workers=0`` thinks on threads
of the server's own process instead (for a test that patches a bot in this process).

Each worker is a process at the other end of a socket pair: the event loop writes moves to it (several in
one write when many are due) and reads its answers as they come, with no thread of its own in between.
The pool it replaces, ``concurrent.futures.ProcessPoolExecutor``, hands every move to a manager thread
that fights the event loop for the interpreter's lock: at 1,000 tables of bots a move waited 0.75 s
there (docs/performance.md, "The web app under load"). A worker keeps up to :data:`WINDOW` moves in hand,
so one slow bot delays at most that many others; the others go to the worker with the fewest.

A bot that takes more than twice the time limit is not waited for: the hub plays a random legal move
instead. Its worker is stopped and replaced (its other moves go to the next worker), so a bot that never
returns costs neither a worker nor the moves behind it. A worker that dies fails the move it was on and
is replaced in the same way. A worker ends when its socket closes: when the pool closes or the server
dies, whatever kills it.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import pickle
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from koloda.bots.base import Fault
from koloda.game import GameSpec
from koloda.options import Options
from koloda.web.workers import end, frame, read_frame, spawn

#: Moves a worker holds at once (sent, not yet answered).
WINDOW = 32
#: How often the pool looks for moves past their time and stuck workers (seconds).
WATCH = 0.25


class WorkerError(RuntimeError):
    """The worker thinking a move died or was stopped before it answered."""


Job = tuple[GameSpec, str, int, dict[str, Any], object, list[int], float]


def think(
    game: GameSpec,
    level: str,
    seed: int,
    options: dict[str, Any],
    observation: object,
    legal: Sequence[int],
    seconds: float,
    parsed: Options | None = None,
) -> tuple[int, list[Fault]]:
    """One move of a guarded bot of ``level`` (in a worker): the action and the faults it met."""
    faults: list[Fault] = []
    if parsed is None:
        parsed = game.options_class.from_mapping(options)
    bot = game.guarded_bot(level, seed, parsed, seconds=seconds, on_fault=faults.append)
    return bot.choose(observation, legal), faults


def _serve(connection: Connection) -> None:
    """A worker's life: moves in, their answers (or the exceptions they raised) out, until the socket
    closes. The moves already waiting are thought together and answered in one write."""
    parsed: dict[tuple[str, str], Options] = {}  # a table's options are read once, not at every move
    while True:
        try:
            jobs: list[Job] = [connection.recv()]
            while connection.poll(0) and len(jobs) < WINDOW:
                jobs.append(connection.recv())
        except (EOFError, OSError):
            return
        answers: list[object] = []
        for job in jobs:
            game, _level, _seed, options, *_ = job
            try:
                key = (game.name, json.dumps(options, sort_keys=True))
                if key not in parsed:
                    parsed[key] = game.options_class.from_mapping(options)
                answers.append(think(*job, parsed=parsed[key]))
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


def default_workers() -> int:
    """One worker per core but the event loop's, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass
class _Move:
    job: Job
    future: asyncio.Future[tuple[int, list[Fault]]]
    deadline: float  # the loop's clock: past it the move fails with TimeoutError
    sent: float = 0.0  # the loop's clock too


@dataclass
class _Worker:
    process: BaseProcess
    writer: asyncio.StreamWriter
    held: collections.deque[_Move] = field(default_factory=collections.deque)
    reader: asyncio.Task[None] | None = None


class BotPool:
    """Runs :func:`think` in ``workers`` processes (0: threads of this process)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.replaced = 0  # workers stopped or dead and started again (tests, the log)
        self._threads = (
            ThreadPoolExecutor(max_workers=2, thread_name_prefix="koloda-bot") if not workers else None
        )
        self._pool: list[_Worker] = []
        self._waiting: collections.deque[_Move] = collections.deque()
        self._starting: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self._closed = False
        self._pumping = False

    async def move(
        self,
        game: GameSpec,
        level: str,
        seed: int,
        options: dict[str, Any],
        observation: object,
        legal: Sequence[int],
        seconds: float,
    ) -> tuple[int, list[Fault]]:
        """The bot's move and its faults; TimeoutError after ``2 * seconds``."""
        loop = asyncio.get_running_loop()
        job: Job = (game, level, seed, options, observation, list(legal), seconds)
        if self._threads is not None:
            return await asyncio.wait_for(
                loop.run_in_executor(self._threads, think, *job), timeout=2 * seconds
            )
        if self._closed:
            raise WorkerError("the bot pool is closed")
        move = _Move(job, loop.create_future(), loop.time() + 2 * seconds)
        self._waiting.append(move)
        if self._watch is None:  # one timer for every move's time limit, not one a move
            self._watch = loop.create_task(self._watchdog())
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
            _reader, writer = await asyncio.open_unix_connection(sock=sock)
            worker = _Worker(process, writer)
            worker.reader = asyncio.get_running_loop().create_task(self._read(worker, _reader))
            self._pool.append(worker)
        self._pump()

    def _pump(self) -> None:
        """Send the waiting moves to the workers with room, the least busy first (one write each)."""
        self._pumping = False
        now = asyncio.get_running_loop().time()
        frames: dict[int, list[bytes]] = {}
        while self._waiting and self._pool:
            worker = min(self._pool, key=lambda w: len(w.held))
            if len(worker.held) >= WINDOW:
                break
            move = self._waiting.popleft()
            if move.future.done():  # timed out or cancelled while waiting: not worth thinking about
                continue
            frames.setdefault(id(worker), []).append(frame(move.job))
            move.sent = now
            worker.held.append(move)
        for worker in self._pool:
            if id(worker) in frames:
                worker.writer.write(b"".join(frames[id(worker)]))

    async def _read(self, worker: _Worker, reader: asyncio.StreamReader) -> None:
        """Settle the worker's moves in the order it answers them; on its end, replace it."""
        try:
            while True:
                for answer in await read_frame(reader):
                    move = worker.held.popleft()
                    if move.future.done():
                        continue
                    if isinstance(answer, BaseException):
                        move.future.set_exception(answer)
                    else:
                        move.future.set_result(answer)
                if self._waiting:
                    self._pump()
        except (asyncio.IncompleteReadError, ConnectionError, IndexError):
            if not self._closed and worker in self._pool:
                self._replace(worker, WorkerError(f"the bot worker (pid {worker.process.pid}) died"))

    async def _watchdog(self) -> None:
        """Every :data:`WATCH` seconds: the moves past their time fail with TimeoutError (the hub plays a
        random move; one not yet sent is not sent), and a worker whose oldest move is past twice the time
        limit is stuck: it is replaced."""
        loop = asyncio.get_running_loop()
        while not self._closed:
            await asyncio.sleep(WATCH)
            now = loop.time()
            for move in [*self._waiting, *(m for w in self._pool for m in w.held)]:
                if now > move.deadline and not move.future.done():
                    move.future.set_exception(TimeoutError(f"no move after {move.job[-1] * 2:g} s"))
            for worker in list(self._pool):
                if worker.held and now - worker.held[0].sent > 2 * worker.held[0].job[-1] + 1:
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
        if worker.reader is not None and worker.reader is not asyncio.current_task():
            worker.reader.cancel()
        worker.writer.close()
        if worker.held:
            first = worker.held.popleft()
            if not first.future.done():
                first.future.set_exception(error)
        self._waiting.extendleft(reversed(worker.held))
        worker.held.clear()

"""The coach in the web app (issue 17, docs/analysis.md, "In the web app"): a seat's analysis of a
finished table, computed once in a worker process and kept in the store.

One worker process (a one-worker :class:`~concurrent.futures.ProcessPoolExecutor`, started by ``spawn``,
at a lower priority: ``nice`` 10) runs the analyses one after another, so that the event loop, and the
bots' threads of the other tables, never wait for one. The worker says how far it got through a shared
counter (the number of the record's actions replayed so far), which the app reads when a client polls.

Who may ask (checked by the app's ``/api/tables/ID/analysis``; :func:`public`): the player of the seat,
by its token (the seat's link); anyone, with no token, when the table is *public*: every human seat of it
was opened to the lobby (an all-bot table is public). A table with a seat taken only by its secret link is
private: its analyses are its players'.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from koloda import registry
from koloda.coach import Step, analyse, record_steps
from koloda.errors import RequestError
from koloda.game import GameRecord
from koloda.store import Store, TableRecord
from koloda.web.refusals import refuse
from koloda.web.storecalls import off_loop, unavailable

LOG = logging.getLogger("koloda.web")
NICE = 10  # the worker's lower priority
SEED = 0  # the web app's analyses use the command's default seed: the same record gives the same marks

_done: Any = None  # in the worker: the shared counter of actions replayed


def _start(done: Any) -> None:
    global _done
    _done = done
    with contextlib.suppress(OSError):  # the worker yields the cores to the tables' loop and bots
        os.nice(NICE)


def compute(record: dict[str, Any], seat: int, seed: int, settings: dict[str, Any]) -> dict[str, Any]:
    """In the worker: the analysis of ``seat`` in the table's ``record`` (``GameRecord`` fields) as JSON."""
    game = GameRecord(**record)
    spec = registry.get(game.game)
    rater = spec.rater(spec.options_class.from_mapping(game.options), **settings)
    if rater is None:
        raise RequestError(f"{spec.name} has no coach")

    def steps() -> Iterator[Step]:
        for number, step in enumerate(record_steps(spec, game)):
            if _done is not None:
                _done.value = number
            yield step

    result = analyse(spec, steps(), seat, rater, seed=seed, total=len(game.actions)).to_json()
    if _done is not None:
        _done.value = len(game.actions)
    return result


def public(record: TableRecord) -> bool:
    """Whether anyone may see a finished table's analyses: every human seat was open to the lobby."""
    return all(seat.bot is not None or seat.open for seat in record.seats)


@dataclass(eq=False)
class Job:
    key: tuple[int, int, int]  # table, seat, seed
    total: int
    task: asyncio.Task[None] | None = None
    error: str | None = None


class Coach:
    """The analyses being computed, one worker process for all of them; finished ones go to the store."""

    def __init__(self, store: Store, *, settings: dict[str, Any] | None = None) -> None:
        self.store = store
        self.settings = dict(settings or {})
        context = multiprocessing.get_context("spawn")
        self._done = context.Value("i", 0)
        self._executor = ProcessPoolExecutor(
            max_workers=1, mp_context=context, initializer=_start, initargs=(self._done,)
        )
        self.jobs: dict[tuple[int, int, int], Job] = {}
        self._order: list[Job] = []  # submitted, in the order the worker takes them
        self.computed = 0  # analyses computed (not read from the store): the tests count them

    def close(self) -> None:
        """Stop the worker, an analysis in its middle too (it is asked again after a restart)."""
        for process in list((self._executor._processes or {}).values()):
            process.terminate()
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def ask(self, record: TableRecord, seat: int) -> dict[str, Any]:
        """The analysis of ``seat`` at a finished table: from the store (read off the loop), or its
        progress (started now if it is not running). ``status`` is ``done``, ``waiting`` (behind another)
        or ``running``."""
        key = (record.id, seat, SEED)
        stored = await off_loop(unavailable, self.store.load_analysis, *key)
        if stored is not None:
            return {"status": "done", "done": len(record.actions), "total": len(record.actions)} | {
                "analysis": stored
            }
        job = self.jobs.get(key)
        if job is not None and job.error is not None:
            del self.jobs[key]
            raise refuse("analysis_failed", id=record.id, reason=job.error)
        if job is None:
            job = Job(key, len(record.actions))
            self.jobs[key] = job
            self._order.append(job)
            job.task = asyncio.get_running_loop().create_task(self._run(job, record))
        if self._order and self._order[0] is job:
            return {"status": "running", "done": min(self._done.value, job.total), "total": job.total}
        return {"status": "waiting", "done": 0, "total": job.total}

    async def _run(self, job: Job, record: TableRecord) -> None:
        game = {
            "game": record.game,
            "players": record.players,
            "options": record.options,
            "actions": record.actions,
            "seed": record.seed,
            "scope": "match",
        }
        table, seat, seed = job.key
        try:
            future = self._executor.submit(compute, game, seat, seed, self.settings)
            result = await asyncio.wrap_future(future)
            await off_loop(self.store.save_analysis, table, seat, seed, result)
            self.computed += 1
            del self.jobs[job.key]
        except Exception as exc:  # a broken worker, an unreadable record, a game with no coach
            LOG.warning("the analysis of table %s seat %s failed: %s", table, seat, exc)
            job.error = str(exc) or type(exc).__name__
        finally:
            self._order.remove(job)
            self._done.value = 0  # the next job's worker counts from 0 again

"""Where the web app's bots think: worker processes, never the event loop's.

A move is asked of a worker with what a bot may know and nothing more: the game's spec, the level, the
seed, the table's options, the seat's observation (``observe(state, seat)``, made by the hub) and the
legal actions. The worker builds the guarded bot (the level, the levels below it, then a random move) and
returns its move with the faults it met, which the hub records and logs. ``workers=0`` thinks on threads
of the server's own process instead (for a test that patches a bot in this process).

A bot that takes more than twice the time limit is not waited for: the hub plays a random legal move
instead; its worker stays busy until the bot returns (a process cannot be interrupted in the middle of a
move without losing the pool), so a bot that never returns costs a worker for good.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from koloda.bots.base import Fault
from koloda.game import GameSpec


def think(
    game: GameSpec,
    level: str,
    seed: int,
    options: dict[str, Any],
    observation: object,
    legal: Sequence[int],
    seconds: float,
) -> tuple[int, list[Fault]]:
    """One move of a guarded bot of ``level`` (in a worker): the action and the faults it met."""
    faults: list[Fault] = []
    bot = game.guarded_bot(
        level, seed, game.options_class.from_mapping(options), seconds=seconds, on_fault=faults.append
    )
    return bot.choose(observation, legal), faults


def default_workers() -> int:
    """One worker per core but the event loop's, at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


class BotPool:
    """Runs :func:`think` in ``workers`` processes (0: threads of this process)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._executor: Executor
        if workers > 0:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            self._executor = ProcessPoolExecutor(max_workers=workers, mp_context=context)
        else:
            self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="koloda-bot")

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
        job = loop.run_in_executor(
            self._executor, think, game, level, seed, options, observation, list(legal), seconds
        )
        return await asyncio.wait_for(job, timeout=2 * seconds)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

"""A hint when you are stuck (issue 31, docs/learn.md): ``POST /api/tables/ID/hint {"token", "v"?}``.

The person at a seat to move, with the seat's link, asks; the server takes the seat's observation (and
nothing else: ``observe(state, seat)``) and the table's options to one worker process of its own, where
the coach rates the legal moves on a small budget (koloda.coach.hint), and answers the move it rates
best with one line of why, in both languages. The worker is a one-worker process pool started by
``spawn`` at a lower priority, like the coach's (koloda.web.coach), so the event loop never computes a
hint; it starts with the first hint asked. A hint asked again at the same version is the one already
computed (one per table, seat and version), and the store notes each hint shown (table ``hints``), which
the table's record says (``meta.hints``).

Refused: a link that is not a seat's (``bad_token``), a table that is over (``game_over``), a seat not to
move (``not_your_turn``), a version the table has moved past (``stale``), and a rated table
(``hints_rated``: :func:`hints_allowed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from koloda import registry
from koloda.coach.hint import suggest
from koloda.game import Observation
from koloda.store import Store
from koloda.web import refusals, schemas
from koloda.web.hub import Hub, Room
from koloda.web.pages import read_body
from koloda.web.refusals import path_id

LOG = logging.getLogger("koloda.web")
NICE = 10  # the worker's lower priority, as the coach's


def hints_allowed(room: Room) -> bool:
    """Whether a table's seats may ask for a hint: every table today. A rated table (issue 30, which
    adds them) will answer False here, and its hints be refused ``hints_rated``."""
    del room  # every table is unrated until issue 30 says which are not
    return True


def _lower_priority() -> None:
    with contextlib.suppress(OSError):  # the worker yields the cores to the tables' loop and bots
        os.nice(NICE)


def compute(
    game: str, options: dict[str, Any], observation: Observation, legal: list[int], seed: int
) -> dict[str, Any]:
    """In the worker: the hint for the seat of ``observation``, as JSON."""
    spec = registry.get(game)
    hint = suggest(spec, observation, legal, spec.options_class.from_mapping(options), seed=seed)
    return hint.to_json(spec)


class Hints:
    """The hints asked of one server: one worker process for all of them, started with the first."""

    def __init__(self, store: Store, *, workers: Callable[[], ProcessPoolExecutor] | None = None) -> None:
        self.store = store
        self._make = workers or _pool
        self._executor: ProcessPoolExecutor | None = None
        self._found: dict[tuple[int, int, int], asyncio.Future[dict[str, Any]]] = {}
        self.computed = 0  # hints computed, not answered again (the tests count them)

    def close(self) -> None:
        if self._executor is not None:
            for process in list((self._executor._processes or {}).values()):
                process.terminate()
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def ask(self, room: Room, seat: int, version: int | None) -> dict[str, Any]:
        """The hint for ``seat`` at ``room`` now (checked under the room's lock; computed in the worker)."""
        async with room.lock:
            if not hints_allowed(room):
                raise refusals.refuse("hints_rated", id=room.record.id)
            if room.over:
                raise refusals.refuse("game_over")
            if version is not None and version != room.version:
                raise refusals.refuse("stale", field="v", current=room.version, yours=version)
            state = room.state
            if state.current_player != seat:
                who = state.current_player
                raise refusals.refuse("not_your_turn", seat=None if who is None else who + 1)
            key = (room.record.id, seat, room.version)
            found = self._found.get(key)
            if found is None:
                observation = room.game.observe(state, seat)
                legal = state.legal_actions()
                seed = room.record.id * 1_000_003 + room.version * 7 + seat  # not the table's secret
                found = asyncio.get_running_loop().create_future()
                self._found[key] = found
                asyncio.get_running_loop().create_task(
                    self._compute(found, key, room.record.game, room.record.options, observation, legal, seed)
                )
        hint = await asyncio.shield(found)
        return {**hint, "seat": seat, "v": key[2]}

    async def _compute(
        self,
        found: asyncio.Future[dict[str, Any]],
        key: tuple[int, int, int],
        game: str,
        options: Mapping[str, Any],
        observation: Observation,
        legal: list[int],
        seed: int,
    ) -> None:
        try:
            if self._executor is None:
                self._executor = self._make()
            future = self._executor.submit(compute, game, dict(options), observation, legal, seed)
            hint = await asyncio.wrap_future(future)
            await asyncio.to_thread(self.store.add_hint, key[0], key[1], key[2], hint["text"])
            self.computed += 1
            found.set_result(hint)
        except Exception as exc:  # a broken worker, a store that failed: said, and asked again it retries
            LOG.warning("the hint for table %s seat %s failed: %s", key[0], key[1], exc)
            del self._found[key]
            found.set_exception(
                refusals.refuse("hint_failed", id=key[0], reason=str(exc) or type(exc).__name__)
            )
        if len(self._found) > 4096:  # forget the oldest hints (a table's next version asks anew anyway)
            for old in list(self._found)[:1024]:
                if self._found[old].done():
                    del self._found[old]


def _pool() -> ProcessPoolExecutor:
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_lower_priority)


def routes(the_hub: Callable[[], Hub], hints: Callable[[], Hints]) -> list[Route]:
    """``POST /api/tables/ID/hint``."""

    async def hint(request: Request) -> Response:
        schemas.query(request.query_params.multi_items(), schemas.NoQuery)
        table_id = path_id(request.path_params["id"], "unknown_table")
        body = schemas.body(await read_body(request), schemas.AskHint, request.app.state.limits)
        room = await the_hub().room(table_id)
        seat = room.seat_of(body.token)
        return JSONResponse(await hints().ask(room, seat, body.v))

    return [Route("/api/tables/{id}/hint", hint, methods=["POST"])]

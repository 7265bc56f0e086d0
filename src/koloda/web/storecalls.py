"""The store as the web app calls it: off the event loop, and a database that cannot be used now refused as
``unavailable`` (503, nothing changed: the client tries again), on every path.

The store raises :class:`koloda.errors.StoreError` when its database cannot be read or written now (gone,
locked, a full disk). The hub's tables (:meth:`koloda.web.hub.Hub._store`) and the coach wrap it here;
the score sheets and banki games (:mod:`koloda.web.sheets`, :mod:`koloda.web.banki`), which run on a
worker thread, let it reach the app's handler of refusals, which wraps it the same way
(:func:`koloda.web.app._refused`). So a full disk is 503 ``unavailable`` everywhere, never the 400 of a bad
request, and a phone keeps an entry it could not send and sends it again (docs/web.md, "Offline"). An
id that names nothing and a line another writer stored first are not this module's.

>>> from koloda.errors import StoreError
>>> def gone() -> None:
...     raise StoreError("cannot write to the database x.sqlite3: database or disk is full")
>>> try:
...     unavailable(gone)
... except RecordError as exc:
...     print(exc.status, exc.code)
503 unavailable
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from koloda.errors import RecordError, StoreError
from koloda.store import Store
from koloda.web.refusals import Refusal, wrap

T = TypeVar("T")
LOG = logging.getLogger("koloda.web")


def unavailable(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args)``, the store's StoreError refused as ``store_unavailable`` (:func:`refused`)."""
    try:
        return call(*args, **kwargs)
    except StoreError as exc:
        raise refused(exc) from None


def refused(exc: StoreError) -> Refusal:
    """A StoreError as the web's refusal: 503 ``unavailable``, nothing changed, try again."""
    return wrap("store_unavailable", exc)


async def off_loop(call: Callable[..., T], *args: Any) -> T:
    """``call(*args)`` on a worker thread: the event loop goes on serving every table meanwhile."""
    return await asyncio.to_thread(call, *args)


class Probe:
    """Whether the store takes a write now (:meth:`koloda.store.Store.probe`, off the loop), asked at most
    once every ``seconds`` of ``clock`` however often ``GET /healthz`` asks (a write is an fsync); the
    reason of a failure is logged when it begins, and the recovery when it ends."""

    def __init__(
        self, store: Store, *, seconds: float = 1.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.store = store
        self.seconds = seconds
        self._clock = clock
        self._at: float | None = None
        self.problem: str | None = None

    async def healthy(self) -> bool:
        now = self._clock()
        if self._at is None or now - self._at >= self.seconds:
            self._at = now
            try:
                await off_loop(self.store.probe)
                problem = None
            except RecordError as exc:
                problem = str(exc)
            if problem != self.problem:
                if problem is None:
                    LOG.warning("the database takes writes again")
                else:
                    LOG.warning("unhealthy: %s", problem)
            self.problem = problem
        return self.problem is None

"""How the nodes of one koloda tell each other what happened: nothing for one node, Redis for many.

Several ``koloda serve`` processes may share one database (docs/deploy.md). Each node keeps the tables
its clients use in memory; so that a seat on one node sees an action taken on another, every node
publishes each action it commits (and each change of seats) on one Redis channel, and every node applies
what it hears to the tables it holds, or reads them again from the database when it missed something.

A table's bots are driven by one node at a time: the node that holds the table's **lease**, a Redis key
with a time to live that its holder renews every second. The tables that have bots to drive are kept in a
Redis set; every node looks at it every second, and a table whose lease has run out (its node died) is
loaded and driven by the first node that sees it.

When Redis cannot be reached, the node is not :attr:`Bus.healthy`: the hub refuses actions (the other
nodes would not hear of them) and its bots wait; when Redis is back, the node reads every table it holds
again from the database (what it missed) and goes on, with no restart.

:class:`Bus` is the one-node bus: nothing to tell, every lease its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Protocol

LOG = logging.getLogger("koloda.web")
CHANNEL = "koloda:events"
LEASES = "koloda:lease:"  # then a table's id: the node that drives its bots
BOTS = "koloda:bots"  # the tables whose bots some node must drive
LEASE_MS = 10_000  # a lease outlives its holder by at most this (long enough for a node slowed by load)
TICK = 1.0  # seconds between renewals of the leases and looks for tables nobody drives
POOL = 32  # connections to Redis a node opens at most (a command waits for a free one)

# Every lease this node holds renewed, and the tables that nobody drives found, in one command each a
# second (a command a table was as many Redis commands a second as the tables' actions).
_RENEW_ALL = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then out[i] = redis.call('pexpire', key, ARGV[2]) else out[i] = 0 end
end
return out
"""
# (It reads lease keys it is not given: fine on one Redis server, not on a Redis Cluster.)
_ORPHANS = """
local out = {}
for _, table_id in ipairs(redis.call('smembers', KEYS[1])) do
  if redis.call('exists', ARGV[1] .. table_id) == 0 then out[#out + 1] = table_id end
end
return out
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class Listener(Protocol):
    """What the bus tells the hub."""

    node: str

    def follows(self, table_id: int) -> bool:
        """Whether this node has the table in memory (an event of another table changes nothing here)."""

    async def on_event(self, event: dict[str, Any]) -> None:
        """Another node committed an action or changed seats (of a table it follows)."""

    async def on_resync(self) -> None:
        """The bus came back after missing messages: read every table held again."""

    async def on_orphans(self, tables: list[int]) -> None:
        """These tables have bots to drive and no node holds their lease."""


class Bus:
    """One node alone: nothing to publish, every lease held, always healthy."""

    healthy = True

    async def start(self, listener: Listener) -> None:
        return None

    async def close(self) -> None:
        return None

    async def publish(self, event: dict[str, Any]) -> None:
        return None

    async def hold(self, table_id: int) -> bool:
        """Whether this node may drive the table's bots (takes the lease if it is free)."""
        return True

    async def release(self, table_id: int) -> None:
        """The table has no bots to drive any more (it is over)."""
        return None


class RedisBus(Bus):
    """Many nodes over one Redis server (``redis://host:port/db``)."""

    def __init__(self, url: str) -> None:
        import redis.asyncio as redis  # the extra koloda[cluster]: only many nodes need it

        self.url = url
        pool = redis.BlockingConnectionPool.from_url(
            url, max_connections=POOL, timeout=5, socket_timeout=2, socket_connect_timeout=2
        )
        self._redis = redis.Redis(connection_pool=pool)
        self._outbox: list[str] = []  # events committed here, not yet published (sent in order)
        self._wake = asyncio.Event()
        self._handling: set[asyncio.Task[None]] = set()  # events being applied to their rooms
        self._held: set[int] = set()  # the leases this node holds
        self._listener: Listener | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = False
        self._failed = False  # a command failed since the last good look
        self.node = ""

    @property
    def healthy(self) -> bool:  # type: ignore[override]
        return self._subscribed and not self._failed

    async def start(self, listener: Listener) -> None:
        self._listener = listener
        self.node = listener.node
        self._tasks = [asyncio.create_task(task) for task in (self._listen(), self._keep(), self._send())]
        for _ in range(50):  # up to 5 s for the first subscription, so the node starts healthy
            if self._subscribed:
                break
            await asyncio.sleep(0.1)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            for table_id in list(self._held):
                await self._redis.eval(_RELEASE, 1, _lease(table_id), self.node)
        with contextlib.suppress(Exception):
            await self._redis.aclose()

    async def publish(self, event: dict[str, Any]) -> None:
        """Queue an event: a committed action is told to the other nodes even if Redis is away now (it is
        sent when Redis answers again; meanwhile this node refuses actions)."""
        self._outbox.append(json.dumps({"node": self.node, **event}))
        self._wake.set()

    async def _send(self) -> None:
        """Publish the queued events in order, many in one round trip; keep them while Redis is away."""
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._outbox:
                batch = self._outbox[:500]
                try:
                    async with self._redis.pipeline(transaction=False) as pipe:
                        for text in batch:
                            pipe.publish(CHANNEL, text)
                        await pipe.execute()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._fail("publish", exc)
                    await asyncio.sleep(0.5)
                    continue
                del self._outbox[: len(batch)]

    async def hold(self, table_id: int) -> bool:
        if not self.healthy:
            return False
        if table_id in self._held:
            return True
        try:
            taken = await self._redis.set(_lease(table_id), self.node, nx=True, px=LEASE_MS)
            owner = None if taken else await self._redis.get(_lease(table_id))
            await self._redis.sadd(BOTS, str(table_id))  # after the lease: never listed without one
        except Exception as exc:
            self._fail("lease", exc)
            return False
        if taken or owner == self.node.encode():
            self._held.add(table_id)
            return True
        return False

    async def release(self, table_id: int) -> None:
        self._held.discard(table_id)
        try:
            await self._redis.srem(BOTS, str(table_id))
            await self._redis.eval(_RELEASE, 1, _lease(table_id), self.node)
        except Exception as exc:
            self._fail("release", exc)

    def _fail(self, what: str, exc: Exception) -> None:
        if not self._failed:
            LOG.warning("redis %s failed: %s; actions are refused until it answers", what, exc)
        self._failed = True

    async def _listen(self) -> None:
        """Subscribe, hand every message to the hub; after a break, subscribe again and resync."""
        missed = False
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self._subscribed = True
                if missed:
                    assert self._listener is not None
                    await self._ping()
                    await self._listener.on_resync()
                    LOG.warning("redis answers again: every table held was read again")
                    missed = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    event = json.loads(message["data"])
                    listener = self._listener
                    if (
                        event.get("node") != self.node
                        and listener is not None
                        and listener.follows(int(event.get("table", -1)))
                    ):
                        # Not awaited here: a room busy with a commit must not hold every other room's
                        # events (its lock is first come, first served, so one room's keep their order).
                        # Only for the tables this node has: every node hears every other's actions,
                        # and a task for each cost a node a third more of the loop at two nodes.
                        task = asyncio.create_task(listener.on_event(event))
                        self._handling.add(task)
                        task.add_done_callback(self._handling.discard)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if self._subscribed or not missed:
                    LOG.warning("redis subscription lost: %s; retrying", exc)
                self._subscribed = False
                missed = True
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _ping(self) -> None:
        await self._redis.ping()
        self._failed = False

    async def _keep(self) -> None:
        """Every second: renew this node's leases, and hand the hub the tables nobody drives."""
        while True:
            await asyncio.sleep(TICK)
            try:
                await self._ping()
                held = sorted(self._held)
                if held:
                    keys = [_lease(table_id) for table_id in held]
                    renewed = await self._redis.eval(_RENEW_ALL, len(keys), *keys, self.node, LEASE_MS)
                    self._held -= {t for t, ok in zip(held, renewed, strict=True) if not ok}
                orphans = sorted(int(t) for t in await self._redis.eval(_ORPHANS, 1, BOTS, LEASES))
                if orphans and self.healthy and self._listener is not None:
                    await self._listener.on_orphans(orphans)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._fail("lease renewal", exc)


def _lease(table_id: int) -> str:
    return f"{LEASES}{table_id}"

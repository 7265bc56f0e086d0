"""One open connection: its seat, what it has been sent, and a bounded queue of frames to send.

Nothing waits for a client's socket but that client's own sending: the hub puts each frame in the
client's queue and goes on, and a task sends the queue's frames and ends when it is empty. A send
completes at once unless the socket is backed up, so that task lives for one turn of the loop: a task
per client waiting on a queue for its next frame (with a timer for each send) kept some ten objects a
client alive between frames, and at 1,000 tables the garbage collector's young generations stopped the
loop 15 ms twice a second to traverse them (docs/performance.md). A client that does not read (a stopped
script, a phone gone off the network) fills its queue, or has one send outstanding for more than
:data:`SEND_SECONDS` (:meth:`Client.stalled`, checked by the hub every second); it is then dropped
(closed with code :data:`TOO_SLOW`, the browser reconnects and resyncs) and never holds a table.

The frames of a client that asked for patches (``hello`` with ``"patch": true``) are the full message
the first time and after every ``sync``, and patches against what it holds otherwise
(:mod:`koloda.web.frames`).

Refusals never fill the queue (issue 28): a refused message is answered with its error frame and the
table as it is (a ``sync``), but a burst of refusals must not drop a client that reads. So at most
:data:`REFUSALS` error frames wait at once (a burst's further ones are left out: the client has as many
to read), and the table is not queued again while a ``sync`` waits in the queue (that one, and the frames
queued after it, bring the client to the table as it is: every change of a table is queued to each of
its clients). A client dropped is closed with its code in a real close frame before its connection ends
(:meth:`Client.stop` waits for the close).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from koloda.web.frames import diff

SEND_QUEUE = 64  # frames waiting for one client at most
SEND_SECONDS = 10.0  # one frame's send may take this long
TOO_SLOW = 4008  # the close code of a client dropped for not reading
REVOKED = 4401  # the close code of a client whose link no longer holds its seat (another link took it)
REFUSALS = 8  # error frames waiting for one client at most (a burst's others are left out)
CLOSE_SECONDS = 10.0  # how long a close frame may wait for a socket that takes nothing now (a slow reader)

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]


class Client:
    """One connection of a table: a seat (None: a spectator) and its queue of frames."""

    def __init__(
        self,
        seat: int | None,
        send_text: SendText,
        close: Close,
        *,
        patch: bool = False,
        token: str | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.seat = seat
        self.token = token  # the seat's link it came with (None: a spectator), checked under the room's lock
        self.patch = patch
        self.dropped = False
        self._send_text = send_text
        self._close = close
        self._clock = clock  # None: the loop's (what the hub's stalled check compares with)
        # the frames to send, each with its kind (a sync, an error, else None) to count those waiting
        self._queue: collections.deque[tuple[str, str | None]] = collections.deque()
        self._waiting = {"sync": 0, "error": 0}
        self._held: dict[str, Any] | None = None  # the full message the client holds (patch clients)
        self._sending: asyncio.Task[None] | None = None  # the task sending the queue, while it has frames
        self._since = 0.0  # the loop's clock when the frame being sent was handed to the socket
        self._closing_task: asyncio.Task[None] | None = None
        self._code = TOO_SLOW

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame as it is (a refusal, a pong, an uptodate); an error frame only if fewer than
        :data:`REFUSALS` wait."""
        kind = "error" if frame.get("type") == "error" else None
        if kind == "error" and self._waiting["error"] >= REFUSALS:
            return
        self._put(json.dumps(frame, ensure_ascii=False), kind)

    def resync(self, table: Callable[[], dict[str, Any]]) -> None:
        """Queue the table as it is (``sync``: a refused client's, or one that asked), unless a sync waits
        already: that one and what follows it show the table as it is. ``table`` builds the message."""
        if self._waiting["sync"] == 0:
            self.message("sync", table())

    def message(self, kind: str, message: dict[str, Any], cache: dict[Any, str] | None = None) -> None:
        """Queue a table's message (``sync``: whole; ``event``: a patch to a patch client that holds one).
        ``cache`` shares the encoded frame between clients that hold the same message."""
        held = self._held
        if self.patch and kind == "event" and held is not None and held.get("seat") == message.get("seat"):
            key: Any = ("patch", id(held), id(message))  # the same two messages: the same patch
            text = cache.get(key) if cache is not None else None
            if text is None:
                frame = {"type": "event", "v": message["v"], "base": held["v"], "patch": diff(held, message)}
                text = json.dumps(frame, ensure_ascii=False)
        else:
            key = (kind, id(message))
            text = cache.get(key) if cache is not None else None
            if text is None:
                text = json.dumps({"type": kind, **message}, ensure_ascii=False)
        if cache is not None:
            cache[key] = text
        if self.patch:
            self._held = message
        self._put(text, "sync" if kind == "sync" else None)

    def _put(self, text: str, kind: str | None = None) -> None:
        if self.dropped:
            return
        if len(self._queue) >= SEND_QUEUE:
            self.drop()
            return
        self._queue.append((text, kind))
        if kind is not None:
            self._waiting[kind] += 1
        if self._sending is None:
            loop = asyncio.get_running_loop()
            self._since = self._now(loop)  # counted from now: the task has not run yet
            self._sending = loop.create_task(self._send())

    def _clear(self) -> None:
        self._queue.clear()
        self._waiting = {"sync": 0, "error": 0}

    def _now(self, loop: asyncio.AbstractEventLoop) -> float:
        return loop.time() if self._clock is None else self._clock()

    def stalled(self, now: float) -> bool:
        """Whether a frame has been on its way for more than :data:`SEND_SECONDS` at ``now`` (the client's
        clock: the loop's unless it was given one)."""
        return self._sending is not None and now - self._since > SEND_SECONDS

    def drop(self, code: int = TOO_SLOW) -> None:
        """Stop sending; the socket is closed with ``code`` (:data:`TOO_SLOW`, :data:`REVOKED`)."""
        if self.dropped:
            return
        self.dropped = True
        self._code = code
        self._clear()
        if self._sending is not None:  # backed up: stop waiting for it
            self._sending.cancel()
        self._closing_task = asyncio.get_running_loop().create_task(self._closing())

    async def stop(self) -> None:
        """The connection ended: stop sending; a client dropped gets its close frame first (the
        connection is closed when its handler returns, and a close not yet sent would never be)."""
        self.dropped = True
        self._clear()
        task = self._sending
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        if self._closing_task is not None:
            with contextlib.suppress(BaseException):
                await self._closing_task

    async def _send(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._queue and not self.dropped:
                self._since = self._now(loop)
                text, kind = self._queue.popleft()
                if kind is not None:
                    self._waiting[kind] -= 1
                await self._send_text(text)
        except Exception:  # a broken socket: the client resyncs when it comes back
            self._sending = None
            self.drop()
        finally:
            self._sending = None

    async def _closing(self) -> None:
        with contextlib.suppress(Exception):  # a socket that takes nothing takes no close frame either
            await asyncio.wait_for(self._close(self._code), timeout=CLOSE_SECONDS)

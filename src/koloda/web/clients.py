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
    ) -> None:
        self.seat = seat
        self.token = token  # the seat's link it came with (None: a spectator), checked under the room's lock
        self.patch = patch
        self.dropped = False
        self._send_text = send_text
        self._close = close
        self._queue: collections.deque[str] = collections.deque()
        self._held: dict[str, Any] | None = None  # the full message the client holds (patch clients)
        self._sending: asyncio.Task[None] | None = None  # the task sending the queue, while it has frames
        self._since = 0.0  # the loop's clock when the frame being sent was handed to the socket
        self._closing_task: asyncio.Task[None] | None = None
        self._code = TOO_SLOW

    def send(self, frame: dict[str, Any]) -> None:
        """Queue a frame as it is (a refusal, a pong, an uptodate)."""
        self._put(json.dumps(frame, ensure_ascii=False))

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
        self._put(text)

    def _put(self, text: str) -> None:
        if self.dropped:
            return
        if len(self._queue) >= SEND_QUEUE:
            self.drop()
            return
        self._queue.append(text)
        if self._sending is None:
            loop = asyncio.get_running_loop()
            self._since = loop.time()  # counted from now: the task has not run yet
            self._sending = loop.create_task(self._send())

    def stalled(self, now: float) -> bool:
        """Whether a frame has been on its way for more than :data:`SEND_SECONDS` at ``now`` (the loop's
        clock)."""
        return self._sending is not None and now - self._since > SEND_SECONDS

    def drop(self, code: int = TOO_SLOW) -> None:
        """Stop sending; the socket is closed with ``code`` (:data:`TOO_SLOW`, :data:`REVOKED`)."""
        if self.dropped:
            return
        self.dropped = True
        self._code = code
        self._queue.clear()
        if self._sending is not None:  # backed up: stop waiting for it
            self._sending.cancel()
        self._closing_task = asyncio.get_running_loop().create_task(self._closing())

    async def stop(self) -> None:
        """The connection ended: stop sending."""
        self.dropped = True
        self._queue.clear()
        task = self._sending
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    async def _send(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._queue and not self.dropped:
                self._since = loop.time()
                await self._send_text(self._queue.popleft())
        except Exception:  # a broken socket: the client resyncs when it comes back
            self._sending = None
            self.drop()
        finally:
            self._sending = None

    async def _closing(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(self._code), timeout=1.0)

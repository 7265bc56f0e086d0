"""One open connection: its seat, what it has been sent, and a bounded queue of frames to send.

Nothing waits for a client's socket but that client's own sender task: the hub puts each frame in the
client's queue and goes on. A client that does not read (a stopped script, a phone gone off the network)
fills its queue or stalls one send past :data:`SEND_SECONDS`; it is then dropped (closed with code
:data:`TOO_SLOW`, the browser reconnects and resyncs) and never holds a table.

The frames of a client that asked for patches (``hello`` with ``"patch": true``) are the full message
the first time and after every ``sync``, and patches against what it holds otherwise
(:mod:`koloda.web.frames`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from koloda.web.frames import diff

SEND_QUEUE = 64  # frames waiting for one client at most
SEND_SECONDS = 10.0  # one frame's send may take this long
TOO_SLOW = 4008  # the close code of a client dropped for not reading

SendText = Callable[[str], Awaitable[None]]
Close = Callable[[int], Awaitable[None]]


class Client:
    """One connection of a table: a seat (None: a spectator) and its queue of frames."""

    def __init__(self, seat: int | None, send_text: SendText, close: Close, *, patch: bool = False) -> None:
        self.seat = seat
        self.patch = patch
        self.dropped = False
        self._send_text = send_text
        self._close = close
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=SEND_QUEUE)
        self._held: dict[str, Any] | None = None  # the full message the client holds (patch clients)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sending (on the server's loop)."""
        self._task = asyncio.get_running_loop().create_task(self._run())

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
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop()

    def drop(self) -> None:
        """Stop sending; the socket is closed with :data:`TOO_SLOW`."""
        if self.dropped:
            return
        self.dropped = True
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._queue.full():  # the sender is stuck: cancel it, then close
            if self._task is not None:
                self._task.cancel()
            asyncio.get_running_loop().create_task(self._closing())

    async def stop(self) -> None:
        """The connection ended: stop the sender."""
        self.dropped = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                await self._closing()
                return
            try:
                async with asyncio.timeout(SEND_SECONDS):  # not wait_for: no task a frame
                    await self._send_text(text)
            except Exception:  # a broken or stalled socket: the client resyncs when it comes back
                self.dropped = True
                await self._closing()
                return

    async def _closing(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._close(TOO_SLOW), timeout=1.0)

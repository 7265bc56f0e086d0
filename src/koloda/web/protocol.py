"""The HTTP protocol of ``koloda serve``: uvicorn's h11 protocol with time limits for slow clients.

uvicorn limits how long a connection may stay idle between two requests (``timeout_keep_alive``, 5 s) but
not how long a client may take to send one: a connection that sends part of its headers, or a byte of its
body now and then, was held open for ever (issue 28: 350 of 350 such connections still open after 12 s),
and enough of them take every connection the server can hold. :func:`timed` gives uvicorn a subclass of
its h11 protocol (``uvicorn.protocols.http.h11_impl.H11Protocol``, which reads each request through
``data_received`` and keeps the request's state in h11's ``conn.their_state``) that closes a connection

- whose request's headers have not all arrived ``Limits.header_seconds`` after the connection opened, or
  after the first byte of a request that follows another on the same connection;
- whose body has not all arrived ``Limits.body_seconds`` after its headers (the app reading it then sees
  the client gone: one line in the log, koloda.web.app).

A request whose headers and body have arrived has no limit of its own (the answer is the app's), and a
websocket, once upgraded, is another protocol's (its messages have their own limits, koloda.web.guard).
The timers are the event loop's (``call_later``), so a test gives the protocol a loop of its own.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from koloda.web.limits import Limits

LOG = logging.getLogger("koloda.web.guard")


class TimedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, a slow request's connection closed (see the module)."""

    header_seconds: float = float(Limits().header_seconds)
    body_seconds: float = float(Limits().body_seconds)

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._timer: asyncio.TimerHandle | None = None
        self._waiting: str | None = None  # "headers" or "body" while a timer runs

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm("headers")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._waiting is None and self.conn.their_state is h11.IDLE:
            self._arm("headers")  # the first bytes of another request on this connection
        super().data_received(data)
        self._follow()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # may read a request sent behind the last one (pipelining)
        self._follow()

    def _follow(self) -> None:
        """Move the timer along with the request: from its headers to its body, off once it is whole."""
        if self.transport.get_protocol() is not self:  # upgraded: a websocket now
            self._disarm()
            return
        state = self.conn.their_state
        if state is h11.SEND_BODY:
            if self._waiting != "body":
                self._arm("body")
        elif state is not h11.IDLE:  # the request is whole (or the connection is done with)
            self._disarm()

    def _arm(self, waiting: str) -> None:
        self._disarm()
        self._waiting = waiting
        seconds = self.header_seconds if waiting == "headers" else self.body_seconds
        self._timer = self.loop.call_later(seconds, self._expired)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self._waiting = None

    def _expired(self) -> None:
        what, self._timer, self._waiting = self._waiting, None, None
        if self.transport.is_closing():
            return
        seconds = self.header_seconds if what == "headers" else self.body_seconds
        address = self.client[0] if self.client else "-"
        LOG.warning("closed a slow connection of %s: its request's %s took over %g s", address, what, seconds)
        self.transport.close()


def timed(limits: Limits) -> type[TimedH11Protocol]:
    """The protocol class for uvicorn's ``http`` setting, with ``limits``' time limits."""
    return type(
        "TimedH11Protocol",
        (TimedH11Protocol,),
        {"header_seconds": float(limits.header_seconds), "body_seconds": float(limits.body_seconds)},
    )

"""The web app's helper processes: a process at the other end of a socket pair, read by the event loop.

The bots' workers (:mod:`koloda.web.botpool`) and the database writer (:mod:`koloda.web.committer`) are
such processes. The event loop writes them frames and reads their answers with asyncio streams, with no
thread of its own in between: a thread fights the loop for the interpreter's lock (at 1,000 tables of
bots that cost a move 0.75 s in a process pool's manager thread; docs/performance.md, "The web app under
load"). A frame is what :class:`multiprocessing.connection.Connection` sends, so the process's end uses
``send`` and ``recv``. The loop's end is a protocol (:class:`Frames`) that hands each frame on in the
callback that received it: a reading task would take one more turn of the loop to wake, and at 1,000
tables a turn of the loop is what a person waits for.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import socket
import struct
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, cast

_HEADER = struct.Struct("!i")  # multiprocessing.connection's frame: a signed 32-bit length, then pickle


def frame(value: object) -> bytes:
    """``value`` as one frame for the process end's ``Connection.recv``."""
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


class Frames(asyncio.Protocol):
    """The loop's end of a helper process's socket: ``received`` is called with each frame the process
    sends as soon as it has come whole, and ``lost`` once, when the socket ends (the process died or
    closed it, or :meth:`close`). Neither may raise: the transport would be closed."""

    def __init__(self, received: Callable[[Any], None], lost: Callable[[], None]) -> None:
        self._received = received
        self._lost = lost
        self._buffer = bytearray()
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        buffer = self._buffer
        buffer += data
        while len(buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(buffer)
            end = _HEADER.size + size
            if len(buffer) < end:
                return
            value = pickle.loads(buffer[_HEADER.size : end])
            del buffer[:end]
            self._received(value)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        self._lost()

    def write(self, data: bytes) -> None:
        """Send ``data`` (frames made by :func:`frame`); nothing once the socket has ended."""
        if self._transport is not None:
            self._transport.write(data)

    def close(self) -> None:
        """End the socket (``lost`` follows, on a later turn of the loop)."""
        if self._transport is not None:
            self._transport.close()


async def connect(sock: socket.socket, received: Callable[[Any], None], lost: Callable[[], None]) -> Frames:
    """The loop's :class:`Frames` over ``sock`` (the end :func:`spawn` or :func:`pair` returned)."""
    _transport, frames = await asyncio.get_running_loop().create_unix_connection(
        lambda: Frames(received, lost), sock=sock
    )
    return frames


def spawn(target: Callable[..., None], *args: object, name: str) -> tuple[BaseProcess, socket.socket]:
    """A process running ``target(connection, *args)`` and this end of its socket (forkserver: a clean
    process, not a copy of the server's; spawn where there is none). It blocks: call it on a thread."""
    forkserver = "forkserver" in multiprocessing.get_all_start_methods()
    context = (  # two calls: each literal has its own context type
        multiprocessing.get_context("forkserver") if forkserver else multiprocessing.get_context("spawn")
    )
    ours, theirs = context.Pipe(duplex=True)  # a socket pair
    process = context.Process(target=target, args=(theirs, *args), name=name, daemon=True)
    process.start()
    theirs.close()
    sock = socket.socket(fileno=os.dup(ours.fileno()))
    ours.close()
    return process, sock


def end(process: BaseProcess) -> None:
    """Wait a moment for a process whose socket is closed to end, then kill it."""
    process.join(timeout=2)
    if process.is_alive():
        process.kill()
        process.join(timeout=2)
    with contextlib.suppress(ValueError):
        process.close()


def pair() -> tuple[Connection, socket.socket]:
    """A connection for a thread of this process to serve as a process would, and the loop's end."""
    ours, theirs = socket.socketpair()
    return Connection(theirs.detach()), ours

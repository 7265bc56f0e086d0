"""The web app's helper processes: a process at the other end of a socket pair, read by the event loop.

The bots' workers (:mod:`koloda.web.botpool`) and the database writer (:mod:`koloda.web.committer`) are
such processes. The event loop writes them frames and reads their answers with asyncio streams, with no
thread of its own in between: a thread fights the loop for the interpreter's lock (at 1,000 tables of
bots that cost a move 0.75 s in a process pool's manager thread; docs/performance.md, "The web app under
load"). A frame is what :class:`multiprocessing.connection.Connection` sends, so the process's end uses
``send`` and ``recv``.
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
from typing import Any

_HEADER = struct.Struct("!i")  # multiprocessing.connection's frame: a signed 32-bit length, then pickle


def frame(value: object) -> bytes:
    """``value`` as one frame for the process end's ``Connection.recv``."""
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    return _HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> Any:
    """The next frame the process sent (``IncompleteReadError`` when it is gone)."""
    (size,) = _HEADER.unpack(await reader.readexactly(_HEADER.size))
    return pickle.loads(await reader.readexactly(size))


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

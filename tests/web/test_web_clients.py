"""A connection's sending (koloda.web.clients): frames go out in order with no task left waiting, and a
client that does not read is dropped with close code 4008, by a full queue or by a send outstanding too
long, without holding its table (issue 15, point 6)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from web_helpers import app_client, create, hub, run

from koloda.web import clients
from koloda.web.clients import SEND_QUEUE, SEND_SECONDS, TOO_SLOW, Client
from koloda.web.hub import Room


class Socket:
    """A websocket's sending end: it takes frames at once, or never (``stuck``)."""

    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.sent: list[str] = []
        self.closed: list[int] = []

    async def send_text(self, text: str) -> None:
        if self.stuck:
            await asyncio.Event().wait()
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed.append(code)


def test_frames_go_out_in_order_and_no_task_stays_between_them() -> None:
    async def main() -> tuple[list[str], bool, bool]:
        socket = Socket()
        client = Client(None, socket.send_text, socket.close)
        for n in range(5):
            client.send({"n": n})
        await asyncio.sleep(0)  # one turn: the sending task sends all five and ends
        await asyncio.sleep(0)
        return socket.sent, client._sending is None, client.dropped

    sent, idle, dropped = run(main())
    assert sent == [f'{{"n": {n}}}' for n in range(5)] and idle and not dropped


def test_a_frame_queued_long_after_the_last_one_is_not_taken_for_a_stalled_send() -> None:
    async def main() -> bool:
        socket = Socket()
        client = Client(None, socket.send_text, socket.close)
        client.send({"n": 1})
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        client._since = loop.time() - 2 * SEND_SECONDS  # as if that frame went long ago
        client.send({"n": 2})  # its task has not run yet when the hub looks
        return client.stalled(loop.time())

    assert run(main()) is False


def test_a_client_that_does_not_read_is_dropped_when_its_queue_is_full() -> None:
    async def main() -> tuple[bool, list[int], int]:
        socket = Socket(stuck=True)
        client = Client(None, socket.send_text, socket.close)
        for n in range(SEND_QUEUE + 2):  # the first is on its way and never arrives
            client.send({"n": n})
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        return client.dropped, socket.closed, len(socket.sent)

    dropped, closed, sent = run(main())
    assert dropped and closed == [TOO_SLOW] and sent == 0


def test_a_send_outstanding_too_long_is_stalled_and_the_hub_drops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def stalled() -> tuple[bool, bool]:
        socket = Socket(stuck=True)
        client = Client(None, socket.send_text, socket.close)
        client.send({"n": 1})
        await asyncio.sleep(0)
        now = asyncio.get_running_loop().time()
        return client.stalled(now + 1), client.stalled(now + SEND_SECONDS + 1)

    assert run(stalled()) == (False, True)

    # The hub looks once a second: a spectator stuck for longer than the limit (here 0.2 s) is dropped
    # and closed, and the table's bots go on.
    monkeypatch.setattr(clients, "SEND_SECONDS", 0.2)
    for client in app_client(tmp_path, bot_delay=0.05, bot_workers=0):
        made = create(client, game="bank", players=2, seed=4, seats=[{"kind": "bot"}, {"kind": "bot"}])
        the_hub = hub(client)
        room = client.portal.call(the_hub.room, made["id"])  # type: ignore[union-attr]
        socket = Socket(stuck=True)
        stuck = Client(None, socket.send_text, socket.close)

        def watch(room: Room = room, stuck: Client = stuck) -> None:  # on the loop's thread
            room.clients.add(stuck)
            stuck.send({"hello": 1})

        client.portal.call(watch)  # type: ignore[union-attr]
        started = time.monotonic()
        while not socket.closed and time.monotonic() - started < 5:
            time.sleep(0.05)
        version = room.version
        time.sleep(0.5)
        assert socket.closed == [TOO_SLOW] and stuck.dropped and socket.sent == []
        assert room.version > version or room.state.is_over()  # the table did not wait for it

"""A connection's sending (koloda.web.clients): frames go out in order with no task left waiting, and a
client that does not read is dropped with close code 4008, by a full queue or by a send outstanding too
long, without holding its table (issue 15, point 6)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from web_helpers import app_client, create, hub, run

from koloda.web.clients import SEND_QUEUE, SEND_SECONDS, TOO_SLOW, Client
from koloda.web.hub import Room


class Socket:
    """A websocket's sending end: it takes frames at once, or never (``stuck``)."""

    def __init__(self, stuck: bool = False) -> None:
        self.stuck = stuck
        self.sent: list[str] = []
        self.closed: list[int] = []
        self.taken = 0  # frames the socket was handed (a stuck one holds the first for ever)

    async def send_text(self, text: str) -> None:
        self.taken += 1
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


def test_a_send_outstanding_too_long_is_stalled_and_the_hub_drops_it(tmp_path: Path) -> None:
    """On the hub's clock (the test's own: nothing here waits for a timer), a client whose frame has been on
    its way longer than SEND_SECONDS is stalled, and the hub's look (every second in a server) drops and
    closes it; the table's bots go on."""
    now = [1000.0]
    for client in app_client(tmp_path, bot_delay=0, bot_workers=0, clock=lambda: now[0]):
        made = create(client, game="bank", players=2, seed=4, seats=[{"kind": "bot"}, {"kind": "bot"}])
        the_hub = hub(client)
        room = client.portal.call(the_hub.room, made["id"])  # type: ignore[union-attr]
        socket = Socket(stuck=True)
        stuck = Client(None, socket.send_text, socket.close, clock=the_hub.clock)

        def watch(room: Room = room, stuck: Client = stuck) -> None:  # on the loop's thread
            room.clients.add(stuck)
            stuck.send({"hello": 1})

        client.portal.call(watch)  # type: ignore[union-attr]
        while not socket.taken:  # the sending task hands the frame to the socket on a later turn
            client.portal.call(asyncio.sleep, 0)  # type: ignore[union-attr]
        assert not stuck.stalled(now[0] + SEND_SECONDS - 1) and stuck.stalled(now[0] + SEND_SECONDS + 1)
        now[0] += SEND_SECONDS - 1
        client.portal.call(the_hub.drop_stalled)  # type: ignore[union-attr]
        assert not stuck.dropped  # not yet
        version = room.version
        now[0] += 2
        client.portal.call(the_hub.drop_stalled)  # type: ignore[union-attr]
        assert stuck.dropped and socket.sent == []
        for _ in range(1000):  # the close is a task on the loop: a few turns of it
            if socket.closed:
                break
            client.portal.call(asyncio.sleep, 0)  # type: ignore[union-attr]
        assert socket.closed == [TOO_SLOW]
        while room.version == version and not room.state.is_over():  # the table did not wait for it
            client.portal.call(asyncio.sleep, 0.01)  # type: ignore[union-attr]


def test_a_dropped_client_is_closed_with_its_code_before_its_connection_ends() -> None:
    """A client dropped for a full queue gets the close frame 4008 before :meth:`Client.stop` returns: the
    connection ends when its handler returns, and a close not yet sent then was never sent (1006)."""

    async def main() -> list[int]:
        socket = Socket()
        client = Client(None, socket.send_text, socket.close)
        for n in range(SEND_QUEUE + 1):  # no turn of the loop in between: the queue overflows
            client.send({"n": n})
        assert client.dropped
        await client.stop()  # what the handler does when its client is dropped
        return socket.closed

    assert run(main()) == [TOO_SLOW]


def test_a_burst_of_refusals_never_fills_the_queue_of_a_client() -> None:
    """Each refusal is an error frame and the table as it is; a burst of them, queued with no turn of the
    loop in between (the socket not taking a frame meanwhile), leaves at most REFUSALS error frames and
    one sync waiting, and the client is not dropped; once the socket takes frames again it gets them."""
    from koloda.web.clients import REFUSALS

    async def main() -> tuple[bool, list[str], int]:
        socket = Socket(stuck=True)
        client = Client(0, socket.send_text, socket.close)
        tables = 0

        def table() -> dict[str, object]:
            nonlocal tables
            tables += 1
            return {"v": 3, "view": {}}

        for n in range(10 * SEND_QUEUE):
            client.send({"type": "error", "code": "stale", "n": n})
            client.resync(table)
        dropped = client.dropped
        waiting = [text for text, _ in client._queue]
        return dropped, waiting, tables

    dropped, waiting, tables = run(main())
    assert not dropped and tables == 1  # the table built once: the sync waiting stands for every other
    assert len(waiting) == REFUSALS + 1 <= SEND_QUEUE
    assert sum('"type": "sync"' in text for text in waiting) == 1

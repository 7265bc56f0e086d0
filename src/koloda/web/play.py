"""The websocket of play (``/ws/ID``, docs/web.md "The protocol of play"): one connection's hello, then its
actions and resync requests, each message through the connection's gate (its rates) and its schema; every
frame to the client through its bounded queue (koloda.web.clients), built from the seat's observation.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from koloda.errors import KolodaError
from koloda.web import guard, refusals, schemas
from koloda.web.clients import Client
from koloda.web.guard import Gate, Verdict
from koloda.web.hub import Hub, Room
from koloda.web.limits import Limits
from koloda.web.schemas import Act, Hello, Ping, Sync
from koloda.web.telemetry import Telemetry


async def _receive(websocket: WebSocket, gate: Gate, limits: Limits) -> Hello | Act | Sync | Ping | None:
    """The next message, checked (a refusal names what is wrong with it); text or binary frames. None: a
    message over the rate, dropped unread (the gate refused the first of them with a frame)."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    verdict = gate.admit()
    if verdict is Verdict.CLOSE:
        raise _Closing(gate.refusal())
    if verdict is Verdict.REFUSE:
        raise _Throttled(gate.refusal())
    if verdict is Verdict.DROP:
        return None
    raw = frame.get("text")
    return schemas.message(raw if raw is not None else frame.get("bytes") or b"", limits)


class _Throttled(Exception):
    """The first message over a rate: refused with a frame, and no resync (that is what a flood costs)."""

    def __init__(self, refusal: KolodaError) -> None:
        super().__init__(str(refusal))
        self.refusal = refusal


class _Closing(_Throttled):
    """Still sending over the rate after Limits.excess refusals: the socket is closed (4429)."""


async def play_socket(hub: Hub, websocket: WebSocket, gate: Gate, limits: Limits) -> None:
    """One connection: a hello (token or none, last version seen), then actions and resync requests.
    Every frame to the client goes through its bounded queue (koloda.web.clients)."""
    telemetry: Telemetry = websocket.app.state.telemetry

    async def send(message: dict[str, Any]) -> None:
        await websocket.send_json(message)

    async def close(code: int) -> None:
        await websocket.close(code=code)

    async def refused(exc: KolodaError) -> None:  # before the client's queue exists
        telemetry.refused("ws", exc.code)
        await send(refusals.frame(exc))

    try:
        room = await hub.room(refusals.path_id(websocket.path_params["id"], "unknown_table"))
        hello = await _receive(websocket, gate, limits)
        if not isinstance(hello, Hello):
            raise refusals.refuse("first_hello")
        client = Client(
            None, websocket.send_text, close, patch=hello.patch, token=hello.token, clock=hub.clock
        )
        await hub.attach(room, client)  # the link's seat, under the room's lock
    except (KolodaError, _Throttled) as exc:
        refusal = exc.refusal if isinstance(exc, _Throttled) else exc
        await refused(refusal)
        await websocket.close(code=guard.close_code(refusal))
        return
    seat = client.seat
    try:
        _resync(room, client, hello.v)
        while not client.dropped:
            await asyncio.sleep(0)  # the frames queued for the last message go out before the next one
            try:
                message = await _receive(websocket, gate, limits)
                if message is None:
                    telemetry.refused("ws", "rate_limited")
                    continue
                await _handle(hub, room, client, message)
            except _Closing as exc:
                telemetry.refused("ws", exc.refusal.code)
                guard.LOG.warning("closed a websocket of %s: %s", gate.quota.key, exc.refusal)
                await websocket.close(code=guard.close_code(exc.refusal))
                return
            except _Throttled as exc:
                telemetry.refused("ws", exc.refusal.code)
                client.send(refusals.frame(exc.refusal))
            except KolodaError as exc:
                telemetry.refused("ws", exc.code)
                client.send(refusals.frame(exc))
                room.revoke_stale()  # a link another one replaced (on another node, say) sees no more
                if not client.dropped:
                    client.resync(lambda: room.message(seat))  # the refused client sees the table as it is
    finally:
        room.clients.discard(client)
        await client.stop()


def _resync(room: Room, client: Client, version: int | None) -> None:
    if version == room.version:
        client.send({"type": "uptodate", "v": room.version})
    else:
        client.resync(lambda: room.message(client.seat))


async def _handle(hub: Hub, room: Room, client: Client, message: Hello | Act | Sync | Ping) -> None:
    if isinstance(message, Act):
        await hub.act(room, client.seat, message.v, message.action, token=client.token)
    elif isinstance(message, Sync):
        _resync(room, client, message.v)
    elif isinstance(message, Ping):
        client.send({"type": "pong", "v": room.version})
    else:
        raise refusals.refuse("hello_again")

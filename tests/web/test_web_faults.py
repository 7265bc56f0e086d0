"""Faults (issue 15, point 5), each bounded in time: a node killed mid-game (its tables' bots are taken
over by the other node, nothing acknowledged is lost, every game finishes), Redis or PostgreSQL gone for a
few seconds (actions refused with a clear error on an open socket, no crash, play goes on when they are
back, with no restart), and a full disk (actions refused, nothing stored half, the file intact).
``bench/faults.py`` measures the same at a larger scale."""

from __future__ import annotations

import contextlib
import functools
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import services
import sqlalchemy as sa
from node_helpers import hello, new_table, open_ws, recv, token_of
from starlette.testclient import TestClient
from web_helpers import Server, create
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from koloda.store.sql import SqlStore
from koloda.web.app import create_app
from koloda.web.committer import Committer
from koloda.web.limits import Limits

BOTS_ONLY = {
    "game": "bank",
    "players": 3,
    "seats": [{"kind": "bot", "level": "easy"}] * 3,
    "options": {"max_deals": 1},  # one deal: a game of about 40 actions
}
TWO_HUMANS = {"game": "bank", "players": 2, "seed": 5, "seats": [{"name": "Аня"}, {"name": "Боря"}]}


def drain(ws: ClientConnection, seen: int) -> int:
    """Read the frames waiting on a spectator's socket; the highest version announced."""
    try:
        while True:
            frame = json.loads(ws.recv(timeout=0.01))
            seen = max(seen, int(frame.get("v") or 0))
    except (TimeoutError, ConnectionClosed):
        return seen


def wait(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {seconds:g} s: {what}")


def test_a_node_killed_mid_game_its_bots_are_taken_over_and_nothing_acknowledged_is_lost(
    nodes: list[Server],
) -> None:
    a, b = nodes
    ids = [new_table(a, **(BOTS_ONLY | {"seed": seed}))["id"] for seed in range(6)]
    stack = contextlib.ExitStack()
    sockets = [stack.enter_context(open_ws(a, table_id)) for table_id in ids]
    seen = [hello(ws)["v"] for ws in sockets]

    def moved() -> bool:
        seen[:] = [drain(ws, v) for ws, v in zip(sockets, seen, strict=True)]
        return min(seen) >= 3

    wait(moved, 60, "three moves at every table")
    a.kill()  # SIGKILL, mid-game: its leases run out, node b drives the bots on
    acknowledged = [drain(ws, v) for ws, v in zip(sockets, seen, strict=True)]
    stack.close()
    assert b.process is not None

    def over() -> bool:
        return all(httpx.get(f"{b.url}/api/tables/{t}", timeout=20).json()["over"] for t in ids)

    wait(over, 180, "every game over on the surviving node")
    store = SqlStore(str(b.db))
    try:
        for table_id, count in zip(ids, acknowledged, strict=True):
            record = store.load_table(table_id)
            assert len(record.actions) >= count >= 3  # every action a client saw announced is stored
    finally:
        store.close()


def act_as_mover(ws: ClientConnection, frame: dict[str, Any]) -> list[dict[str, Any]]:
    """Send the first legal action with the frame's version, then a ping; the frames up to the pong (the
    socket answered: it is open)."""
    ws.send(json.dumps({"type": "act", "v": frame["v"], "action": frame["view"]["actions"][0][0]}))
    ws.send(json.dumps({"type": "ping"}))
    frames = [recv(ws)]
    while frames[-1]["type"] != "pong":
        frames.append(recv(ws))
    return frames


def refused_until_back(
    server: Server, table_id: int, token: str, word: str, gone: Callable[[], None], back: Callable[[], None]
) -> None:
    """With the service gone, the mover's actions are refused (``unavailable``, the message naming the
    service: ``word``) on an open socket and the server lives; once the service is back, the next action
    is applied, with no restart."""
    with open_ws(server, table_id) as ws:
        frame = hello(ws, token)
        gone()
        try:
            refused: list[dict[str, Any]] = []
            deadline = time.monotonic() + 20
            while not refused and time.monotonic() < deadline:
                frames = act_as_mover(ws, frame)
                refused = [f for f in frames if f["type"] == "error"]
                frame = next(f for f in reversed(frames) if "view" in f) if not refused else frame
                time.sleep(0.3)
            assert refused and refused[0]["code"] == "unavailable" and word in refused[0]["message"], refused
            assert refused[0]["message_ru"]
            assert server.process is not None and server.process.poll() is None  # no crash
            stored = frame["v"]
        finally:
            back()
        deadline = time.monotonic() + 60
        while frame["v"] == stored and time.monotonic() < deadline:
            frames = act_as_mover(ws, frame)
            frame = next(f for f in reversed(frames) if "view" in f)  # applied, or the table as stored
            time.sleep(0.5)
        assert frame["v"] == stored + 1, frames  # play went on: one more action stored and announced


def test_redis_gone_actions_are_refused_then_play_goes_on_without_a_restart(
    nodes: list[Server], redis_server: services.Redis
) -> None:
    a, b = nodes
    made = new_table(a, **TWO_HUMANS)
    tokens = [token_of(link) for link in made["links"]]
    with open_ws(b, made["id"]) as spectator:
        mover = hello(spectator)["view"]["current_player"]
        refused_until_back(
            a, made["id"], tokens[mover], "Redis", redis_server.pause, lambda: redis_server.start()
        )
        seen = 0
        while seen < 1:  # the other node heard of the action taken once Redis was back
            seen = max(seen, recv(spectator).get("v") or 0)


def test_postgres_gone_actions_are_refused_then_play_goes_on_without_a_restart(
    nodes: list[Server], postgres: services.Postgres
) -> None:
    a, _ = nodes
    made = new_table(a, **TWO_HUMANS)
    tokens = [token_of(link) for link in made["links"]]
    with open_ws(a, made["id"]) as spectator:
        mover = hello(spectator)["view"]["current_player"]
    refused_until_back(a, made["id"], tokens[mover], "database", postgres.pause, postgres.resume)
    assert httpx.get(f"{a.url}/api/tables/{made['id']}", timeout=20).json()["version"] == 1


def test_a_full_disk_refuses_actions_and_corrupts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's ``max_page_count`` stands for a full disk: a write that needs one more page fails as
    SQLITE_FULL does when the disk is full. It is set on this process's connections, so the commits are
    written by a thread here (``koloda serve`` writes them in a process; bench/faults.py fills a real
    disk under it)."""
    monkeypatch.setattr("koloda.web.hub.Committer", functools.partial(Committer, process=False))
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    store = SqlStore(url)
    limit = {"pages": 1_000_000}
    engine = store._engine
    assert engine is not None

    @sa.event.listens_for(engine, "connect")
    def small_disk(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

    engine.dispose()
    unlimited = Limits(requests=0, creations=0, messages=0, address_messages=0, connections=0, excess=0)
    app = create_app(store, bot_delay=60, bot_workers=0, limits=unlimited)  # hundreds of actions at once
    with TestClient(app, headers={"content-type": "application/json"}) as client:
        made = create(client, game="thousand", players=3, seed=2, seats=[{}, {}, {}])  # a long game
        tokens = [token_of(link) for link in made["links"]]
        with contextlib.closing(sqlite3.connect(tmp_path / "web.sqlite3", isolation_level=None)) as db:
            db.execute("VACUUM")  # no free page left in the file
            limit["pages"] = int(db.execute("PRAGMA page_count").fetchone()[0])
        engine.dispose()  # from now on the file cannot grow
        acknowledged = 0
        error: dict[str, Any] | None = None
        sockets = [client.websocket_connect(f"/ws/{made['id']}") for _ in tokens]
        for ws, token in zip(sockets, tokens, strict=True):
            ws.__enter__()
            ws.send_json({"type": "hello", "token": token})
        frames = [ws.receive_json() for ws in sockets]
        try:
            for _ in range(2000):
                mover = frames[0]["view"]["current_player"]
                if mover is None:
                    break
                ws = sockets[mover]
                action = frames[mover]["view"]["actions"][0][0]
                ws.send_json({"type": "act", "v": acknowledged, "action": action})
                answer = ws.receive_json()
                if answer["type"] == "error":
                    error = answer
                    assert ws.receive_json()["v"] == acknowledged  # the resync: the table as stored
                    break
                acknowledged = answer["v"]
                frames = [
                    answer if seat == mover else other.receive_json() for seat, other in enumerate(sockets)
                ]
            assert error is not None and error["code"] == "unavailable", error
            assert "full" in error["message"], error
            assert client.get(f"/api/tables/{made['id']}").json()["version"] == acknowledged
            limit["pages"] = 1_000_000  # room again: play goes on, with no restart
            engine.dispose()
            ws.send_json({"type": "act", "v": acknowledged, "action": action})
            assert ws.receive_json()["v"] == acknowledged + 1
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
    with sa.create_engine(url).connect() as db:
        assert db.exec_driver_sql("PRAGMA integrity_check").scalar_one() == "ok"
    reopened = SqlStore(url)
    assert len(reopened.load_table(made["id"]).actions) == acknowledged + 1  # each acknowledged one, once
    reopened.close()

"""The server killed mid-game and started again on the same database: every game resumes at its last
stored action, and play carries on (a real ``koloda serve`` in a subprocess on a loopback port)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from web_helpers import Server
from websockets.sync.client import connect

from koloda.game import GameRecord
from koloda.registry import get
from koloda.store.sql import SqlStore
from koloda.web.views import seat_view


def ws_url(server: Server, table_id: int) -> str:
    return f"ws://127.0.0.1:{server.port}/ws/{table_id}"


def play_moves(
    server: Server, table_id: int, token: str, moves: int, seen: int | None = None
) -> dict[str, Any]:
    """Connect as a seat, play the first legal action ``moves`` times; returns the last frame."""
    with connect(ws_url(server, table_id)) as ws:
        ws.send(json.dumps({"type": "hello", "token": token, "v": seen}))
        frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
        assert frame["type"] == "sync", frame
        played = 0
        while played < moves:
            if frame["type"] in ("sync", "event") and frame["view"]["actions"]:
                ws.send(
                    json.dumps({"type": "act", "v": frame["v"], "action": frame["view"]["actions"][0][0]})
                )
                played += 1
            frame = json.loads(ws.recv(timeout=10))
            assert frame["type"] != "error", frame
        return frame


def test_every_game_resumes_at_its_last_stored_action_after_a_kill(server: Server) -> None:
    tables = {}
    for game, players in (("bank", 3), ("thousand", 3)):
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
        made = httpx.post(
            server.url + "/api/tables", json={"game": game, "players": players, "seats": seats, "seed": 8}
        )
        assert made.status_code == 201
        table_id = made.json()["id"]
        tables[game] = (table_id, made.json()["links"][0].split("token=")[1])
        play_moves(server, table_id, tables[game][1], 4)
    server.kill()  # SIGKILL: no chance to save anything more

    store = SqlStore(f"sqlite:///{server.db}")
    stored = {game: store.load_table(table_id) for game, (table_id, _) in tables.items()}
    store.close()
    server.start()
    for game, (table_id, token) in tables.items():
        record = stored[game]
        assert len(record.actions) >= 4
        with connect(ws_url(server, table_id)) as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            frame = json.loads(ws.recv(timeout=10))
        # The bots may have moved on since the restart; the stored prefix is the same game.
        assert frame["v"] >= len(record.actions)
        web_game = get(game)
        store = SqlStore(f"sqlite:///{server.db}")
        now = store.load_table(table_id)
        store.close()
        assert now.actions[: len(record.actions)] == record.actions
        replayed = web_game.replay(GameRecord(game, 3, now.options, now.actions[: frame["v"]], seed=now.seed))
        assert frame["view"] == seat_view(web_game, replayed, 0)
        last = play_moves(server, table_id, token, 2)  # and the game carries on
        assert last["v"] >= frame["v"] + 2

"""Golden games played through the server: each record in tests/web/golden/ is sent action by action over
the websocket by the seats themselves, and the server must store exactly that record and reach the stored
totals; every seat's last frame is its view of the replayed record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import create, hub, tokens

from koloda.game import GameRecord
from koloda.registry import get
from koloda.web.views import seat_view

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_a_golden_game_played_through_the_websocket_replays_exactly(client: TestClient, path: Path) -> None:
    golden = json.loads(path.read_text(encoding="utf-8"))
    record = GameRecord.from_json(golden["record"])
    seats = [{"kind": "human"}] * record.players
    made = create(client, game=record.game, players=record.players, seed=record.seed, seats=seats)
    secret = tokens(client, made["id"])
    sockets = [client.websocket_connect(f"/ws/{made['id']}") for _ in range(record.players)]
    opened = [ws.__enter__() for ws in sockets]
    try:
        last: list[dict[str, Any]] = []
        for seat, ws in enumerate(opened):
            ws.send_json({"type": "hello", "token": secret[seat]})
            last.append(ws.receive_json())
        for text in record.actions:
            mover = last[0]["view"]["current_player"]
            opened[mover].send_json({"type": "act", "v": last[0]["v"], "action": text})
            last = [ws.receive_json() for ws in opened]
            assert all(frame["type"] == "event" for frame in last), last
        assert last[0]["v"] == golden["version"] == len(record.actions)
        assert last[0]["view"]["totals"] == golden["totals"]
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert hub(client).store.load_table(made["id"]).actions == record.actions
    replayed = get(record.game).replay(record)
    for seat, frame in enumerate(last):
        assert frame["view"] == seat_view(get(record.game), replayed, seat)

"""Fair and safe tables (issue 28; docs/web.md "Fair shuffles"): deals from a secret nobody can guess,
its commitment from the start and the secret at the end, a host's number only where it is his to give, and
a seat's old link closed when a join gives the seat a new one."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import create, hub, run, tokens

from koloda import seeds, verify
from koloda.errors import KolodaError
from koloda.game import GameRecord
from koloda.store.sql import SqlStore
from koloda.web.clients import Client
from koloda.web.hub import Hub
from koloda.web.schemas import NewTable, SeatRequest

BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}]


def frames_to_the_end(client: TestClient, table_id: int, token: str | None) -> list[dict[str, Any]]:
    frames = []
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.send_json({"type": "hello"} if token is None else {"type": "hello", "token": token})
        for _ in range(5000):
            frame = ws.receive_json()
            frames.append(frame)
            if frame.get("table", {}).get("over"):
                break
    return frames


def test_a_table_deals_from_a_secret_no_frame_shows_before_the_end(client: TestClient) -> None:
    made = create(client, game="bank", players=2, options={"max_deals": 2}, seats=BOTS)
    secret = hub(client).store.load_table(made["id"]).seed
    assert seeds.is_secret(secret)
    assert client.get(f"/api/tables/{made['id']}").json()["fair"] == {
        "kind": "secret",
        "commitment": seeds.commitment(str(secret)),
        "secret": None,
    }
    frames = frames_to_the_end(client, made["id"], tokens(client, made["id"])[0])
    *during, last = frames
    assert last["table"]["over"] and last["table"]["fair"]["secret"] == secret
    assert during and all(str(secret) not in json.dumps(frame) for frame in during)
    assert all(frame["table"]["fair"]["commitment"] == seeds.commitment(str(secret)) for frame in frames)


def test_the_fairness_answer_holds_the_record_and_every_deal_once_the_table_is_over(
    client: TestClient,
) -> None:
    made = create(client, game="thousand", players=3, options={"max_deals": 2}, seats=BOTS + BOTS[:1])
    before = client.get(f"/api/tables/{made['id']}/fairness").json()
    assert before["revealed"] is False and before["secret"] is None and before["record"] is None
    seen = [frame for frame in frames_to_the_end(client, made["id"], tokens(client, made["id"])[1])]
    after = client.get(f"/api/tables/{made['id']}/fairness").json()
    assert after["revealed"] and after["ok"] and after["commitment"] == before["commitment"]
    record = GameRecord.from_json(after["record"])
    assert verify.check(record, before["commitment"]).ok
    # seat 1's hand at the start of each deal, as its frames showed it, is the recomputed one
    by_version = {frame["v"]: frame["view"]["hand"] for frame in seen if "view" in frame}
    compared = [d for d in after["deals"] if d["version"] in by_version]
    assert compared and all(by_version[d["version"]] == d["hands"][1] for d in compared)


def test_a_host_s_number_is_for_private_tables_and_shown_to_every_seat(client: TestClient) -> None:
    refused = client.post(
        "/api/tables",
        json={"game": "bank", "players": 2, "seed": 7, "seats": [{"kind": "human", "open": True}, BOTS[0]]},
    )
    assert refused.status_code == 400 and refused.json()["error"] == "seed_not_private"
    assert refused.json()["field"] == "seed" and "private" in refused.json()["message"]
    made = create(client, game="bank", players=2, seed=7, seats=[{"kind": "human"}, BOTS[0]])
    assert client.get(f"/api/tables/{made['id']}").json()["fair"] == {"kind": "host", "seed": 7}
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": tokens(client, made["id"])[0]})
        assert ws.receive_json()["table"]["fair"] == {"kind": "host", "seed": 7}


def test_a_link_opened_while_a_join_replaces_it_is_refused_and_never_sees_the_seat(tmp_path: Path) -> None:
    # The race of issue 28: the host opens his old link of a seat that a lobby join is taking; the join
    # holds the room's lock and gives the seat a new link; the old link must then be refused.
    async def scenario() -> tuple[str, bool, bool]:
        hub = Hub(SqlStore(f"sqlite:///{tmp_path / 'race.sqlite3'}"), bot_delay=0, bot_workers=0)
        await hub.start()
        try:
            request = NewTable(
                game="bank", players=2, seats=[SeatRequest(kind="human", open=True), SeatRequest()]
            )
            room, links = await hub.create_table(request)
            sent: list[str] = []

            async def send(text: str) -> None:
                sent.append(text)

            async def close(code: int) -> None:
                pass

            old = Client(None, send, close, token=links[0])
            join = asyncio.create_task(hub.join(room.record.id, 0, "Вера"))
            for _ in range(1000):
                if room.lock.locked():
                    break
                await asyncio.sleep(0)
            attach = asyncio.create_task(hub.attach(room, old))
            new = await join
            try:
                await attach
                code = "attached"
            except KolodaError as exc:
                code = exc.code
            return code, old in room.clients, new != links[0]
        finally:
            await hub.close()

    assert run(scenario()) == ("bad_token", False, True)


def test_a_move_of_a_link_replaced_while_it_waited_for_the_table_is_refused(tmp_path: Path) -> None:
    # The race of issue 28: the old link's move waits for the room's lock that the join holds; the join
    # gives the seat a new link; the move must then be refused, whatever it was checked against before.
    async def scenario() -> tuple[str, int]:
        hub = Hub(SqlStore(f"sqlite:///{tmp_path / 'race.sqlite3'}"), bot_delay=0, bot_workers=0)
        await hub.start()
        try:
            request = NewTable(
                game="bank",
                players=2,
                seats=[SeatRequest(kind="human", open=True), SeatRequest(kind="human")],
            )
            room, links = await hub.create_table(request)
            seat = room.state.current_player
            assert seat is not None
            if seat != 0:  # let seat 1 move first, so that the old link of seat 0 is to move
                await hub.act(room, seat, room.version, room.state.legal_actions()[0], token=links[seat])
            join = asyncio.create_task(hub.join(room.record.id, 0))
            for _ in range(1000):
                if room.lock.locked():
                    break
                await asyncio.sleep(0)
            move = asyncio.create_task(
                hub.act(room, 0, room.version, room.state.legal_actions()[0], token=links[0])
            )
            await join
            try:
                await move
            except KolodaError as exc:
                return exc.code, room.version
            return "accepted", room.version
        finally:
            await hub.close()

    code, version = run(scenario())
    assert code == "bad_token"
    assert version <= 1  # nothing of the old link's was stored


def test_a_person_closes_his_own_game_and_its_secret_is_revealed(client: TestClient) -> None:
    made = create(client, game="thousand", players=3, seats=[{"kind": "human"}, *BOTS])
    links = tokens(client, made["id"])
    secret = hub(client).store.load_table(made["id"]).seed
    closed = client.post(f"/api/tables/{made['id']}/close", json={"token": links[0]})
    assert closed.status_code == 200 and closed.json()["over"] and closed.json()["closed"]
    assert closed.json()["fair"]["secret"] == secret
    assert client.get(f"/api/tables/{made['id']}/fairness").json()["ok"] is True
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": links[0]})
        frame = ws.receive_json()
        ws.send_json({"type": "act", "v": frame["v"], "action": 0})
        assert ws.receive_json()["code"] == "game_over"
    wrong = client.post(f"/api/tables/{made['id']}/close", json={"token": "x" * 32})
    assert wrong.status_code == 403


def test_a_table_with_another_person_at_it_is_not_closed_by_one_of_them(client: TestClient) -> None:
    made = create(client, game="bank", players=2, seats=[{"kind": "human"}, {"kind": "human"}])
    links = tokens(client, made["id"])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:  # the second person sits
        ws.send_json({"type": "hello", "token": links[1]})
        ws.receive_json()
        refused = client.post(f"/api/tables/{made['id']}/close", json={"token": links[0]})
    assert refused.status_code == 409 and refused.json()["error"] == "close_refused"
    assert client.get(f"/api/tables/{made['id']}").json()["fair"]["secret"] is None


def test_the_terminal_deals_from_a_secret_unless_asked_for_a_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from koloda.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n" * 4))
    path = tmp_path / "match.json"
    assert main(["bank", "play", "--players", "2", "--save", str(path)]) == 0
    assert seeds.is_secret(GameRecord.load(path).seed)
    assert main(["bank", "play", "--players", "2", "--seed", "12", "--save", str(path)]) == 0
    assert GameRecord.load(path).seed == 12


def test_a_banki_game_s_counting_out_comes_from_a_secret_shown_once_the_count_is_made(
    client: TestClient,
) -> None:
    made = client.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "preset": "chelyabinsk"})
    assert made.status_code == 201
    fair = made.json()["fair"]
    assert fair["kind"] == "secret" and fair["secret"] is None
    game = made.json()["id"]
    secret = hub(client).store.load_banki(game)[2]
    assert fair["commitment"] == seeds.commitment(str(secret))
    counted = client.post(
        f"/api/banki/{game}/events", json={"event": "count"}, headers={"Koloda-Edit-Key": made.json()["key"]}
    )
    assert counted.status_code == 200, counted.text
    assert counted.json()["fair"] == {"kind": "secret", "commitment": fair["commitment"], "secret": secret}

"""Many nodes on one database: two ``koloda serve`` processes on a real PostgreSQL, their events fanned out
through a real Redis (docs/deploy.md); and two apps on one SQLite file without Redis, where the store
alone judges between them."""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
from pathlib import Path

import httpx
from node_helpers import hello, new_table, open_ws, recv, table, token_of, until
from starlette.testclient import TestClient
from web_helpers import Server, create, editing

from koloda.store.sql import SqlStore
from koloda.web.app import create_app

TWO_HUMANS = {"game": "bank", "players": 2, "seed": 11, "seats": [{"name": "Аня"}, {"name": "Боря"}]}


def test_a_seat_on_one_node_sees_an_action_taken_on_the_other(nodes: list[Server]) -> None:
    a, b = nodes
    made = new_table(a, **TWO_HUMANS)
    tokens = [token_of(link) for link in made["links"]]
    with open_ws(a, made["id"]) as wa, open_ws(b, made["id"]) as wb:
        first = hello(wa, tokens[0])
        mover = first["view"]["current_player"]
        other = hello(wb, tokens[1 - mover])
        assert other["v"] == 0
        ws_mover = wa if mover == 0 else wb
        if mover != 0:  # the mover's socket is b: say hello there as the mover instead
            ws_mover = open_ws(b, made["id"])
            hello(ws_mover, tokens[mover])
        action = (first if mover == 0 else other)["view"]["actions"]
        ws_mover.send(json.dumps({"type": "act", "v": 0, "action": action[0][0] if action else "draw"}))
        seen = until(wb if mover == 0 else wa, lambda f: f["type"] == "event" and f["v"] == 1)
        assert seen["view"]["current_player"] is not None
    assert table(a, made["id"])["version"] == table(b, made["id"])["version"] == 1  # neither is stale


def test_two_racing_actions_on_two_nodes_exactly_one_is_applied_the_other_refused_with_a_resync(
    nodes: list[Server],
) -> None:
    a, b = nodes
    for seed in range(4):
        made = new_table(a, **(TWO_HUMANS | {"seed": seed}))
        tokens = [token_of(link) for link in made["links"]]
        with open_ws(a, made["id"]) as spectator:
            mover = hello(spectator)["view"]["current_player"]
        with open_ws(a, made["id"]) as wa, open_ws(b, made["id"]) as wb:
            legal = [action for action, _ in hello(wa, tokens[mover])["view"]["actions"]]
            hello(wb, tokens[mover])  # the same seat on both nodes: two tabs, two phones
            wa.send(json.dumps({"type": "act", "v": 0, "action": legal[0]}))
            wb.send(json.dumps({"type": "act", "v": 0, "action": legal[-1]}))
            outcomes = []
            for ws in (wa, wb):
                ws.send(json.dumps({"type": "ping"}))  # answered after the act: the socket is open
                frames = []
                while not frames or frames[-1]["type"] != "pong":
                    frames.append(recv(ws))
                errors = [frame for frame in frames if frame["type"] == "error"]
                assert all(error["code"] == "stale" and error["message_ru"] for error in errors), errors
                assert frames[-1]["v"] == 1 and any(f.get("v") == 1 and "view" in f for f in frames)
                outcomes.append("refused" if errors else "applied")
            assert sorted(outcomes) == ["applied", "refused"]
        assert table(a, made["id"])["version"] == table(b, made["id"])["version"] == 1  # one stored


def test_two_simultaneous_joins_on_two_nodes_are_both_handled(nodes: list[Server]) -> None:
    a, b = nodes
    three = {"game": "thousand", "players": 3, "seats": [{"open": True}] * 3}  # open to the lobby
    made = new_table(a, **three)
    table(b, made["id"])  # loaded on both nodes

    def join(server: Server, seat: int) -> httpx.Response:
        return httpx.post(f"{server.url}/api/tables/{made['id']}/join", json={"seat": seat}, timeout=20)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(join, (a, b), (1, 2)))  # two different seats: both taken
    assert [answer.status_code for answer in answers] == [200, 200]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(join, (a, b), (0, 0)))  # the same seat: one gets it
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    for server in (a, b):
        assert [seat["taken"] for seat in table(server, made["id"])["seats"]] == [True, True, True]


def test_racing_sheet_deals_on_two_nodes_never_answer_500(nodes: list[Server]) -> None:
    a, b = nodes
    made = httpx.post(a.url + "/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}, timeout=20).json()
    deal = {"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}}  # −100 each time

    def add(server: Server) -> int:
        url = f"{server.url}/api/sheets/{made['id']}/deals"
        return httpx.post(url, json=deal, headers=editing(made), timeout=20).status_code

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(add, [a, b] * 10))
    assert set(codes) <= {200, 409} and 200 in codes
    stored = httpx.get(f"{a.url}/api/sheets/{made['id']}", timeout=20).json()
    assert stored["deals"] == codes.count(200)  # each 200 stored once, each 409 not at all


def test_a_stale_node_takes_what_the_store_holds_and_refuses_with_a_resync(tmp_path: Path) -> None:
    """Two apps on one SQLite file and no Redis: the second node's room does not hear of the first one's
    action; its client's action with the old version loses in the store and gets ``stale`` and the
    table as stored, and the room is no longer stale."""
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with contextlib.ExitStack() as stack:
        one = stack.enter_context(TestClient(create_app(SqlStore(url), bot_delay=60)))
        two = stack.enter_context(TestClient(create_app(SqlStore(url), bot_delay=60)))
        made = create(one, **TWO_HUMANS)
        tokens = [token_of(link) for link in made["links"]]
        with two.websocket_connect(f"/ws/{made['id']}") as w2:  # the second node loads the table at v=0
            w2.send_json({"type": "hello"})
            frame = w2.receive_json()
            mover = frame["view"]["current_player"]
        with one.websocket_connect(f"/ws/{made['id']}") as w1:
            w1.send_json({"type": "hello", "token": tokens[mover]})
            legal = [action for action, _ in w1.receive_json()["view"]["actions"]]
            w1.send_json({"type": "act", "v": 0, "action": legal[0]})
            assert w1.receive_json()["v"] == 1  # stored on the first node
        with two.websocket_connect(f"/ws/{made['id']}") as w2:
            w2.send_json({"type": "hello", "token": tokens[mover], "v": 0})
            assert w2.receive_json() == {"type": "uptodate", "v": 0}  # the second node's room is stale here
            w2.send_json({"type": "act", "v": 0, "action": legal[-1]})
            w2.send_json({"type": "ping"})  # answered after the act: the socket stayed open
            frames = [w2.receive_json()]
            while frames[-1]["type"] != "pong":
                frames.append(w2.receive_json())
        errors = [frame for frame in frames if frame["type"] == "error"]
        assert [error["code"] for error in errors] == ["stale"], frames
        assert frames[-1]["v"] == 1 and frames[-2]["type"] == "sync" and frames[-2]["v"] == 1  # the resync
        assert two.get(f"/api/tables/{made['id']}").json()["version"] == 1
        assert len(SqlStore(url).load_table(made["id"]).actions) == 1  # the loser's action was not stored

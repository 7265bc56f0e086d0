"""The JSON API and the websocket of play: every message kind, and every kind of bad input refused with
its reason, a resync for the client, and nothing changed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import app_client, create, hub, tokens, until

from koloda.bank import new_game, observe
from koloda.registry import get
from koloda.web.views import seat_view

TWO_HUMANS = {"game": "bank", "players": 2, "seed": 11, "seats": [{"name": "Аня"}, {"name": "Боря"}]}


def stored_actions(client: TestClient, table_id: int) -> tuple[str, ...]:
    return hub(client).store.load_table(table_id).actions


def hello(ws: Any, token: str | None = None, v: int | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "hello"}
    if token is not None:
        message["token"] = token
    if v is not None:
        message["v"] = v
    ws.send_json(message)
    frame: dict[str, Any] = ws.receive_json()
    return frame


def test_games_lists_both_games_presets_options_and_levels(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert games["levels"] == ["easy", "medium", "hard"]
    assert "no-trumps" in games["bank"]["presets"] and "tournament" in games["thousand"]["presets"]
    assert games["bank"]["players"] == [2, 4] and games["thousand"]["players"] == [3, 4]
    assert games["thousand"]["defaults"]["target"] == 1000


def test_the_lobby_form_gets_every_option_with_its_choices_and_each_presets_values(
    client: TestClient,
) -> None:
    from koloda.bank import BankOptions

    bank = client.get("/api/games").json()["bank"]
    schema = {row["name"]: row for row in bank["schema"]}
    assert list(schema) == [field for field, _, _ in BankOptions.describe()]  # every option, the new ones too
    assert schema["eight_follow"] == {"name": "eight_follow", "kind": "choice", "choices": ["card", "any"],
                                      "default": "card", "rule": "4.5", "label": "option.bank.eight_follow",
                                      "help": "option.bank.eight_follow.help"}  # fmt: skip
    assert schema["first_dealer"]["nullable"] and schema["trump_suits"]["item"] == {"kind": "text"}
    assert bank["preset_values"]["literal"]["runs"] == "any-suits"
    assert set(bank["preset_values"]) == set(bank["presets"])


def test_create_table_gives_each_human_seat_a_secret_link(client: TestClient) -> None:
    made = create(
        client,
        game="bank",
        players=3,
        seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}],
    )
    links = made["links"]
    assert links[2] is None  # a bot's seat has no link to give away
    secrets = [link.split("token=")[1] for link in links[:2]]
    assert len(set(secrets)) == 2 and all(len(s) >= 22 for s in secrets)  # >= 128 random bits each
    assert secrets == tokens(client, made["id"])[:2]
    listed = client.get("/api/tables").json()
    assert [table["id"] for table in listed] == [made["id"]]
    assert "token" not in str(listed) and secrets[0] not in str(listed)
    info = client.get(f"/api/tables/{made['id']}").json()
    assert [seat["bot"] for seat in info["seats"]] == [None, None, "easy"] and secrets[0] not in str(info)


@pytest.mark.parametrize(
    ("request_body", "code", "words"),
    [
        ({"game": "poker", "players": 3}, "bad_request", "unknown game 'poker'"),
        ({"game": "bank", "players": 5}, "bad_request", "players must be 2-4"),
        ({"game": "thousand", "players": 2}, "bad_request", "players must be 3-4"),
        ({"game": "bank", "players": "3"}, "bad_request", "not '3'"),
        ({"game": "bank", "players": 2, "options": {"targt": 300}}, "bad_options", "did you mean 'target'"),
        ({"game": "bank", "players": 2, "options": {"target": "many"}}, "bad_options", "target"),
        ({"game": "bank", "players": 2, "options": [1]}, "bad_options", "options must be a JSON object"),
        ({"game": "bank", "players": 2, "preset": "chess"}, "bad_options", "unknown preset 'chess'"),
        ({"game": "bank", "players": 2, "seats": [{"kind": "robot"}, {}]}, "bad_request", "kind must be"),
        (
            {"game": "bank", "players": 2, "seats": [{"kind": "bot", "level": "god"}, {}]},
            "bad_request",
            "'god'",
        ),
        ({"game": "bank", "players": 2, "seats": [{}]}, "bad_request", "list of 2 seats"),
        ({"game": "bank", "players": 2, "seats": [{"name": ""}, {}]}, "bad_request", "a name must be"),
        ({"game": "bank", "players": 2, "seed": -1}, "bad_request", "seed"),
        ({"game": "bank", "players": 2, "colour": "red"}, "bad_request", "unknown key 'colour'"),
    ],
)
def test_bad_new_tables_are_refused_with_the_reason_and_nothing_stored(
    client: TestClient, request_body: dict[str, Any], code: str, words: str
) -> None:
    response = client.post("/api/tables", json=request_body)
    assert response.status_code == 400
    assert response.json()["error"] == code and words in response.json()["message"]
    assert client.get("/api/tables").json() == []


def test_malformed_json_body_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables", content=b"{game: bank")
    assert response.status_code == 400 and response.json()["error"] == "bad_json"


def test_unknown_table_is_404(client: TestClient) -> None:
    for path in ("/api/tables/99", "/api/tables/abc"):
        response = client.get(path)
        assert response.status_code == 404 and response.json()["error"] == "unknown_table"


def test_join_takes_a_free_seat_once(client: TestClient) -> None:
    seats = [{"kind": "human", "open": True}, {"kind": "bot", "level": "easy"}]
    made = create(client, game="bank", players=2, seats=seats)
    table_id = made["id"]
    link = tokens(client, table_id)[0]
    joined = client.post(f"/api/tables/{table_id}/join", json={"seat": 0, "name": "Вера"})
    assert joined.status_code == 200 and joined.json()["token"] == tokens(client, table_id)[0] != link
    again = client.post(f"/api/tables/{table_id}/join", json={"seat": 0})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    bot = client.post(f"/api/tables/{table_id}/join", json={"seat": 1})
    assert bot.status_code == 409
    bad = client.post(f"/api/tables/{table_id}/join", json={"seat": 7})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_seat"
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["seats"][0] == {"name": "Вера", "bot": None, "taken": True, "open": True}


def test_hello_sends_the_seat_its_own_view_and_a_spectator_no_hand(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    secret = tokens(client, made["id"])
    expected = new_game(players=2, seed=11)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        frame = hello(ws, secret[1])
        assert frame["type"] == "sync" and frame["v"] == 0 and frame["seat"] == 1
        assert frame["view"] == seat_view(get("bank"), expected, 1)
        assert frame["view"]["hand"] == list(observe(expected, 1).hand)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        frame = hello(ws)
        assert frame["seat"] is None and frame["view"]["hand"] == [] and frame["view"]["actions"] == []
        for card in observe(expected, 0).hand + observe(expected, 1).hand:
            assert f'"{card}"' not in str(frame).replace("'", '"')


def test_unknown_table_wrong_token_and_no_hello_close_the_socket(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    for path, first, code in [
        ("/ws/99", {"type": "hello"}, "unknown_table"),
        ("/ws/zz", {"type": "hello"}, "unknown_table"),
        (f"/ws/{made['id']}", {"type": "hello", "token": "x" * 32}, "bad_token"),
        (f"/ws/{made['id']}", {"type": "hello", "token": 5}, "bad_token"),
        (f"/ws/{made['id']}", {"type": "act", "v": 0, "action": "draw"}, "bad_message"),
    ]:
        with client.websocket_connect(path) as ws:
            ws.send_json(first)
            frame = ws.receive_json()
            assert frame["type"] == "error" and frame["code"] == code, (path, frame)
            with pytest.raises(WebSocketDisconnect):
                ws.receive_json()
    assert stored_actions(client, made["id"]) == ()


def refused(ws: Any, message: Any, code: str) -> dict[str, Any]:
    """Send a bad message: an error with ``code``, then a resync; returns the resync."""
    if isinstance(message, str):
        ws.send_text(message)
    else:
        ws.send_json(message)
    error = ws.receive_json()
    assert error["type"] == "error" and error["code"] == code, error
    sync: dict[str, Any] = ws.receive_json()
    assert sync["type"] == "sync"
    return sync


def test_every_bad_message_is_refused_with_a_resync_and_changes_nothing(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    secret = tokens(client, made["id"])
    state = new_game(players=2, seed=11)
    mover = state.current_player
    assert mover is not None
    other = 1 - mover
    illegal = next(a for a in range(36) if a not in state.legal_actions())
    with (
        client.websocket_connect(f"/ws/{made['id']}") as mine,
        client.websocket_connect(f"/ws/{made['id']}") as theirs,
        client.websocket_connect(f"/ws/{made['id']}") as watcher,
    ):
        first = hello(mine, secret[mover])
        hello(theirs, secret[other])
        hello(watcher)
        refused(mine, "{not json", "bad_json")
        refused(mine, "[1, 2]", "bad_message")
        refused(mine, {"type": "dance"}, "bad_message")
        refused(mine, {"type": "act", "v": 0, "action": "ZZ"}, "bad_action")
        refused(mine, {"type": "act", "v": 0, "action": [1]}, "bad_message")
        refused(mine, {"type": "act", "v": 0, "action": illegal}, "illegal")
        refused(mine, {"type": "act", "v": 0, "action": state.action_text(illegal)}, "illegal")
        refused(mine, {"type": "act", "action": state.legal_actions()[0]}, "bad_message")
        refused(mine, {"type": "act", "v": 3, "action": state.legal_actions()[0]}, "stale")
        refused(mine, "x" * 5000, "bad_message")
        refused(theirs, {"type": "act", "v": 0, "action": state.legal_actions()[0]}, "not_your_turn")
        last = refused(watcher, {"type": "act", "v": 0, "action": state.legal_actions()[0]}, "spectator")
        assert last["v"] == 0 and stored_actions(client, made["id"]) == ()
        resync = refused(mine, "{}", "bad_message")
        assert resync["view"] == first["view"]  # nothing changed


def test_an_accepted_action_is_stored_then_sent_to_everyone_with_the_next_version(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    secret = tokens(client, made["id"])
    state = new_game(players=2, seed=11)
    mover = state.current_player
    assert mover is not None
    action = state.legal_actions()[0]
    with (
        client.websocket_connect(f"/ws/{made['id']}") as mine,
        client.websocket_connect(f"/ws/{made['id']}") as theirs,
        client.websocket_connect(f"/ws/{made['id']}") as watcher,
    ):
        hello(mine, secret[mover])
        hello(theirs, secret[1 - mover])
        hello(watcher)
        mine.send_json({"type": "act", "v": 0, "action": state.action_text(action)})
        state.apply(action)
        for ws, seat in ((mine, mover), (theirs, 1 - mover), (watcher, None)):
            event = ws.receive_json()
            assert event["type"] == "event" and event["v"] == 1 and event["seat"] == seat
            if seat is not None:
                assert event["view"] == seat_view(get("bank"), state, seat)
        assert stored_actions(client, made["id"]) == (state.action_text(action),)
        refused(mine, {"type": "act", "v": 0, "action": 0}, "stale")  # the old version is stale now


def test_sync_and_ping(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        assert hello(ws, v=0) == {"type": "uptodate", "v": 0}  # a reconnect that missed nothing
        ws.send_json({"type": "sync", "v": 0})
        assert ws.receive_json() == {"type": "uptodate", "v": 0}
        ws.send_json({"type": "sync", "v": -4})
        assert ws.receive_json()["type"] == "sync"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong", "v": 0}


def test_bots_play_a_match_to_its_end_then_actions_are_refused(client: TestClient) -> None:
    bots = [{"kind": "bot", "level": "easy"}] * 2
    made = create(client, game="bank", players=2, seed=3, options={"target": 20}, seats=bots)
    secret = tokens(client, made["id"])
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        over = until(ws, lambda f: f["table"]["over"], first=hello(ws, secret[0]))
        assert over["returns"] is not None and over["view"]["winner"] is not None
        versions = over["v"]
        refused(ws, {"type": "act", "v": versions, "action": "draw"}, "game_over")
    assert len(stored_actions(client, made["id"])) == versions


def test_events_have_no_version_holes(client: TestClient) -> None:
    made = create(client, game="thousand", players=3, seed=2, seats=[{"kind": "bot", "level": "easy"}] * 3)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        first = hello(ws)
        seen = [first["v"]]
        while seen[-1] < 40:
            seen.append(ws.receive_json()["v"])
        assert seen == list(range(seen[0], seen[0] + len(seen)))


class BrokenBot:
    def choose(self, observation: object, legal: object) -> int:
        raise RuntimeError("this bot is broken")


def test_a_broken_bot_does_not_stall_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("koloda.game.GameSpec.bot", lambda *args, **kwargs: BrokenBot())
    # bots on threads of this process, where the patch holds (a worker process has the real bots)
    for client in app_client(tmp_path, bot_delay=0, bot_workers=0):
        made = create(client, game="bank", players=2, seed=5, seats=[{"kind": "bot", "level": "easy"}] * 2)
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            frame = until(ws, lambda f: f["v"] >= 3, first=hello(ws))
        assert frame["v"] >= 3 and len(stored_actions(client, made["id"])) >= 3
    assert "table 1, seat 1: bot easy raised: RuntimeError: this bot is broken" in caplog.text  # said


def test_bots_think_in_worker_processes_and_their_faults_are_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # a time limit no bot keeps: every move of the worker's bot is an overrun, recorded and logged here
    for client in app_client(tmp_path, bot_delay=0, bot_seconds=1e-9, bot_workers=1):
        made = create(client, game="bank", players=2, seed=5, seats=[{"kind": "bot", "level": "easy"}] * 2)
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            until(ws, lambda f: f["v"] >= 3, first=hello(ws))
        room = hub(client).rooms[made["id"]]
        assert hub(client).bots.workers == 1 and room.faults
        assert all(fault.kind in ("overran", "raised") for fault in room.faults)
    assert f"table {made['id']}, seat " in caplog.text and "overran" in caplog.text


def test_a_thousand_match_ends_with_its_winner_and_score_table(client: TestClient) -> None:
    bots = [{"kind": "bot", "level": "easy"}] * 3
    options = {"target": 200, "defender_cap": 190, "threshold_800": 150}
    made = create(client, game="thousand", players=3, seed=4, options=options, seats=bots)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        over = until(ws, lambda f: f["table"]["over"], limit=5000, first=hello(ws))
    scores = over["scores"]
    assert scores["winner"] is not None and max(over["returns"]) >= 200
    assert scores["winner"] == over["returns"].index(max(over["returns"]))
    assert len(scores["ru"]["rows"]) == len(scores["chart"]["series"][0]) - 1 >= 1
    assert scores["ru"]["winner"] and scores["en"]["winner"].startswith("Winner: Bot")


def test_a_stored_table_that_does_not_replay_is_reported_not_served(client: TestClient) -> None:
    made = create(client, **TWO_HUMANS)
    store = hub(client).store
    store.append_action(made["id"], 1, "AS+AS")  # a corrupt row, as if written by something else
    hub(client).rooms.clear()  # as after a restart
    answer = client.get(f"/api/tables/{made['id']}")
    assert answer.status_code == 500 and answer.json()["error"] == "bad_record"
    assert "does not replay" in answer.json()["message"]
    assert stored_actions(client, made["id"]) == ("AS+AS",)  # nothing deleted

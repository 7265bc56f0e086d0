"""The defects an outside test found in the web app (issue 28): a HEAD request that created a table, a client
that left in mid-body logged as a crash, origins compared without their scheme, answers with a secret that
a cache could keep, duplicate JSON keys of which the last one won, names with characters that do not show,
and incomplete requests held open for ever."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import app_client, create, hub, run, tokens

from koloda.store.sql import SqlStore
from koloda.web.app import create_app

TABLE = {"game": "bank", "players": 2, "seed": 11, "seats": [{"name": "Аня", "open": True}, {"name": "Боря"}]}


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[TestClient]:
    """The app with a client that sends no header of its own (as curl would)."""
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=3600)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    yield from app_client(tmp_path, bot_delay=3600)


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert data["error"] == code and data["message"] and data["message_ru"], data
    return data


# -- (6) every method routed explicitly -------------------------------------------------------------------


def test_a_head_request_with_a_body_creates_nothing(bare: TestClient) -> None:
    """HEAD is a GET without the body of the answer: it lists, and never creates, whatever it carries (the
    guard lets it through as a safe method, without the origin and content-type checks)."""
    body = json.dumps(TABLE).encode()
    evil = {"origin": "http://evil.example", "content-type": "text/plain"}
    for path, made in (
        ("/api/tables", body),
        ("/api/sheets", b'{"players": ["A", "B"]}'),
        ("/api/banki", b'{"names": ["Ann", "Bob", "Cat", "Dan"]}'),
    ):
        answer = bare.request("HEAD", path, content=made, headers=evil)
        assert answer.status_code == 200 and answer.content == b"", (path, answer.status_code)
    store = hub(bare).store
    assert store.table_ids() == [] and store.sheet_ids() == [] and store.banki_ids() == []


def test_every_route_answers_only_its_own_methods(bare: TestClient) -> None:
    json_header = {"content-type": "application/json"}
    for method, path in (
        ("PUT", "/api/tables"),
        ("DELETE", "/api/sheets"),
        ("PATCH", "/api/banki"),
        ("OPTIONS", "/api/tables"),
        ("POST", "/api/games"),
        ("POST", "/api/tables/1"),
        ("GET", "/api/tables/1/join"),
        ("POST", "/healthz"),
        ("POST", "/"),
    ):
        answer = bare.request(method, path, content=b"{}", headers=json_header)
        refusal(answer, 405, "method_not_allowed")
        assert answer.headers["allow"], (method, path)
    assert hub(bare).store.table_ids() == []


# -- (7) a client that leaves in mid-body -----------------------------------------------------------------


def test_a_client_that_leaves_in_mid_body_is_one_log_line_and_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The ASGI server says the client is gone (``http.disconnect``) while the app reads the body: the app
    ends the request quietly, with one line in the log, not an exception (uvicorn logs one escaping the app
    as "Exception in ASGI application" with its traceback)."""
    store = SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    the_app = create_app(store, bot_delay=3600)
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/sheets",
        "raw_path": b"/api/sheets",
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"testserver"),
            (b"content-type", b"application/json"),
            (b"content-length", b"64"),
        ],
        "client": ("127.0.0.1", 5000),
        "server": ("127.0.0.1", 8000),
    }
    parts = [
        {"type": "http.request", "body": b'{"players": ["A', "more_body": True},
        {"type": "http.disconnect"},
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return parts.pop(0) if parts else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    caplog.set_level(logging.INFO)
    run(the_app(scope, receive, send))  # raised ClientDisconnect before
    lines = [record for record in caplog.records if "left" in record.getMessage()]
    assert len(lines) == 1 and "/api/sheets" in lines[0].getMessage(), caplog.text
    assert not any(record.exc_info for record in caplog.records)
    assert store.sheet_ids() == []


# -- (10) origins, caches, duplicate keys -----------------------------------------------------------------


def test_an_origin_of_another_scheme_is_another_site(bare: TestClient) -> None:
    """The test client's server is http://testserver: https://testserver is another origin (a page served
    over TLS elsewhere); http://testserver is this one."""
    json_header = {"content-type": "application/json"}
    for origin in ("https://testserver", "https://testserver:80", "ws://testserver"):
        answer = bare.post("/api/tables", json=TABLE, headers={**json_header, "origin": origin})
        refusal(answer, 403, "cross_origin")
    assert hub(bare).store.table_ids() == []
    assert bare.post(
        "/api/tables", json=TABLE, headers={**json_header, "origin": "http://testserver"}
    ).is_success
    create(bare, **TABLE)
    with bare.websocket_connect("/ws/1", headers={"origin": "https://testserver"}) as ws:
        assert ws.receive_json()["code"] == "cross_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with bare.websocket_connect("/ws/1", headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "sync"


def test_an_answer_that_carries_a_token_is_never_kept_by_a_cache(app: TestClient) -> None:
    made = app.post("/api/tables", json=TABLE)
    assert made.status_code == 201 and made.headers["cache-control"] == "no-store"
    joined = app.post(f"/api/tables/{made.json()['id']}/join", json={"seat": 0})
    assert joined.status_code == 200 and joined.headers["cache-control"] == "no-store"
    assert app.get("/healthz").headers["cache-control"] == "no-store"


def test_a_body_with_a_key_given_twice_is_refused_naming_it(app: TestClient) -> None:
    raw = b'{"game": "bank", "players": 2, "players": 4}'
    data = refusal(app.post("/api/tables", content=raw), 400, "duplicate_key")
    assert "'players'" in data["message"] and "'players'" in data["message_ru"]
    nested = b'{"game": "bank", "players": 2, "seats": [{"name": "A", "name": "B"}, {}]}'
    assert "'name'" in refusal(app.post("/api/tables", content=nested), 400, "duplicate_key")["message"]
    assert hub(app).store.table_ids() == []
    sheet = app.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()
    line = b'{"declarer": "\xd0\x90\xd0\xbd\xd1\x8f", "bid": 100, "bomb": true, "bid": 300}'
    headers = {"koloda-edit-key": sheet.get("key", "")}
    refusal(app.post(f"/api/sheets/{sheet['id']}/deals", content=line, headers=headers), 400, "duplicate_key")
    assert app.get(f"/api/sheets/{sheet['id']}").json()["deals"] == 0


def test_a_websocket_message_with_a_key_given_twice_is_refused_and_nothing_played(app: TestClient) -> None:
    create(app, **TABLE)
    secret = tokens(app, 1)
    with app.websocket_connect("/ws/1") as ws:
        ws.send_json({"type": "hello"})
        mover = ws.receive_json()["view"]["current_player"]
    with app.websocket_connect("/ws/1") as ws:
        ws.send_json({"type": "hello", "token": secret[mover]})
        frame = ws.receive_json()
        legal = frame["view"]["actions"]
        ws.send_text(f'{{"type": "act", "v": 0, "action": "nonsense", "action": {legal[0][0]}}}')
        error = ws.receive_json()
        assert (
            error["type"] == "error" and error["code"] == "duplicate_key" and "'action'" in error["message"]
        )
        assert ws.receive_json()["type"] == "sync"  # the table as it is
    assert hub(app).store.load_table(1).actions == ()


# -- (10) names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "char"), [("A\u200bnn", "U+200B"), ("\u202eevil", "U+202E"), ("Bo\tb", "U+0009")]
)
def test_a_name_with_a_character_that_does_not_show_is_refused_everywhere(
    app: TestClient, name: str, char: str
) -> None:
    table = {**TABLE, "seats": [{"name": name}, {"name": "Боря"}]}
    made = refusal(app.post("/api/tables", json=table), 400, "bad_request")
    assert made["field"] == "seats.0.name" and char in made["message"] and char in made["message_ru"]
    open_table = create(app, **TABLE)
    joined = refusal(
        app.post(f"/api/tables/{open_table['id']}/join", json={"seat": 0, "name": name}), 400, "bad_request"
    )
    assert joined["field"] == "name" and char in joined["message"]
    sheet = refusal(app.post("/api/sheets", json={"players": ["Аня", name]}), 400, "bad_request")
    assert sheet["field"] == "players.1" and char in sheet["message"]
    banki = refusal(app.post("/api/banki", json={"names": ["Ann", "Bob", "Cat", name]}), 400, "bad_request")
    assert banki["field"] == "names.3" and char in banki["message"]
    assert hub(app).store.sheet_ids() == [] and hub(app).store.banki_ids() == []


def test_a_name_typed_two_ways_is_one_name(app: TestClient) -> None:
    composed, decomposed = "Jos\u00e9", "Jose\u0301"
    refusal(app.post("/api/sheets", json={"players": [composed, decomposed]}), 400, "bad_request")
    made = refusal(
        app.post("/api/banki", json={"names": [composed, decomposed, "Ann", "Bob"]}), 400, "bad_options"
    )
    assert "José" in made["message"]
    table = create(app, **{**TABLE, "seats": [{"name": decomposed}, {"name": "Боря"}]})
    assert app.get(f"/api/tables/{table['id']}").json()["seats"][0]["name"] == composed
    sheet = app.post("/api/sheets", json={"players": [decomposed, "Ann", "Bob"]}).json()
    assert sheet["players"][0] == composed

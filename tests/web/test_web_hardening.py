"""The defects an outside test found in the web app (issue 28): a HEAD request that created a table, a client
that left in mid-body logged as a crash, origins compared without their scheme, answers with a secret that
a cache could keep, duplicate JSON keys of which the last one won, names with characters that do not show,
and incomplete requests held open for ever."""

from __future__ import annotations

import asyncio
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

TABLE = {"game": "bank", "players": 2, "seats": [{"name": "Аня", "open": True}, {"name": "Боря"}]}


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


# -- (10) slow clients: the request's time limits -----------------------------------------------------------


class FakeTransport(asyncio.Transport):
    """The transport of one connection, in memory: what the protocol wrote, whether it closed it."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False
        self.protocol: Any = None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("10.0.0.9", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def write(self, data: Any) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_protocol(self) -> Any:
        return self.protocol

    def set_protocol(self, protocol: Any) -> None:
        self.protocol = protocol


class Timers:
    """The loop's timers, held for the test to fire: no time passes but the test's."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.pending: list[tuple[float, Any, asyncio.TimerHandle]] = []

    def call_later(self, delay: float, callback: Any, *args: Any) -> asyncio.TimerHandle:
        handle = asyncio.TimerHandle(0.0, callback, args, self.loop)
        self.pending.append((delay, callback, handle))
        return handle

    def create_task(self, coro: Any) -> asyncio.Task[Any]:
        return self.loop.create_task(coro)

    def ours(self) -> list[tuple[float, Any]]:
        """The protocol's own timers not cancelled (uvicorn's keep-alive timer aside)."""
        return [
            (d, c)
            for d, c, h in self.pending
            if not h.cancelled() and getattr(c, "__name__", "") == "_expired"
        ]


def test_a_request_that_comes_too_slowly_has_its_connection_closed() -> None:
    """On the protocol's loop (here timers the test fires itself): a connection that sends nothing, or part
    of its headers, is closed header_seconds after it opened; a body that stops coming, body_seconds after
    its headers; a whole request has no limit of its own (the keep-alive one is uvicorn's)."""
    import uvicorn
    from uvicorn.server import ServerState

    from koloda.web.limits import Limits
    from koloda.web.protocol import TimedH11Protocol, timed

    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    async def main() -> list[Any]:
        config = uvicorn.Config(app, log_config=None, lifespan="off")
        config.load()
        protocol_class = timed(Limits(header_seconds=7, body_seconds=20))
        assert issubclass(protocol_class, TimedH11Protocol)
        out = []
        for sent in (
            b"",
            b"GET / HTTP/1.1\r\nHost: x\r\n",
            b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\nabc",
        ):
            timers = Timers(asyncio.get_running_loop())
            protocol = protocol_class(config, ServerState(), {}, _loop=timers)  # type: ignore[arg-type]
            transport = FakeTransport()
            transport.protocol = protocol
            protocol.connection_made(transport)
            if sent:
                protocol.data_received(sent)
            armed = timers.ours()
            assert len(armed) == 1 and not transport.closed
            armed[0][1]()  # the time passes
            out.append((armed[0][0], transport.closed))
        timers = Timers(asyncio.get_running_loop())
        protocol = protocol_class(config, ServerState(), {}, _loop=timers)  # type: ignore[arg-type]
        transport = FakeTransport()
        transport.protocol = protocol
        protocol.connection_made(transport)
        protocol.data_received(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        for _ in range(20):
            await asyncio.sleep(0)
        out.append((timers.ours(), b"200 OK" in transport.written, transport.closed))
        return out

    nothing, headers, body, whole = run(main())
    assert nothing == (7.0, True) and headers == (7.0, True) and body == (20.0, True)
    assert whole == ([], True, False)  # answered; the connection kept alive


def test_serve_runs_uvicorn_with_the_timed_protocol(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from koloda.cli import main
    from koloda.web.protocol import TimedH11Protocol

    seen: list[uvicorn.Config] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: seen.append(self.config))
    db = str(tmp_path / "web.sqlite3")
    assert (
        main(["serve", "--port", "0", "--db", db, "--limit", "header_seconds=3", "--limit", "body_seconds=4"])
        == 0
    )
    (config,) = seen
    assert isinstance(config.http, type) and issubclass(config.http, TimedH11Protocol)
    assert (config.http.header_seconds, config.http.body_seconds) == (3.0, 4.0)


# -- (8) refusals and floods on a websocket ---------------------------------------------------------------


def test_a_flood_under_the_rate_of_excess_messages_a_token_is_closed() -> None:
    """100 messages in 20 s refill a token every 0.2 s: a flood of 200 a second got one message through
    every 40, fewer than ``excess`` (50) refusals in a row each time, and was never closed. The run of
    refusals now ends only when a message is let through with a token to spare."""
    from koloda.web.guard import Gate, Verdict
    from koloda.web.limits import Limits

    for rate in (200, 60, 240):
        now = [0.0]
        gate = Gate({}, Limits(), clock=lambda now=now: now[0])
        verdicts = []
        for _ in range(20 * rate):  # 20 s of it
            now[0] += 1 / rate
            verdicts.append(gate.admit())
            if verdicts[-1] is Verdict.CLOSE:
                break
        assert verdicts[-1] is Verdict.CLOSE, rate
        assert verdicts.count(Verdict.REFUSE) == 1  # told once, then dropped unread, then closed
    calm = [0.0]
    gate = Gate({}, Limits(), clock=lambda: calm[0])
    for _ in range(101):  # one over the burst, refused
        gate.admit()
    calm[0] += 1.0  # then back within the rate: five tokens, one taken
    assert gate.admit() is Verdict.HANDLE and gate.refused == 0


def test_a_websocket_flooding_under_250_a_second_is_closed_with_4429(tmp_path: Path) -> None:
    """The same through the app, on a clock that moves 2.5 ms each time it is read (so about 200 messages a
    second, whatever the machine's speed): the flood is told once, then closed with 4429 in a real close
    frame."""
    import itertools

    ticks = itertools.count()
    for client in app_client(tmp_path, bot_delay=3600, clock=lambda: next(ticks) * 0.0025):
        create(client, **TABLE)
        with client.websocket_connect("/ws/1") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "sync"
            for _ in range(400):
                ws.send_json({"type": "ping"})
            codes = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    frame = ws.receive_json()
                    codes.append(frame.get("code") or frame["type"])
            assert closed.value.code == 4429 and codes.count("rate_limited") == 1 and "pong" in codes


def test_a_burst_of_refused_messages_leaves_the_socket_open_on_a_real_server(tmp_path: Path) -> None:
    """uvicorn hands a burst of messages over with no turn of the loop between them: 60 refused ones (each an
    error frame and a sync) filled the client's queue of 64, and the socket was dropped with no close frame
    (1006). Each refusal's frames now go out before the next message is read; the socket stays open. And a
    client that leaves in mid-body is one line in the log, no traceback."""
    import socket
    import time

    import httpx
    from web_helpers import Server
    from websockets.sync.client import connect

    server = Server(tmp_path / "web.sqlite3", bot_delay=3600)
    server.start()
    try:
        made = httpx.post(server.url + "/api/tables", json=TABLE, timeout=10).json()
        with connect(f"{server.ws}/ws/{made['id']}", max_size=2**24) as ws:
            ws.send(json.dumps({"type": "hello"}))
            json.loads(ws.recv(timeout=30))
            for _ in range(60):
                ws.send(json.dumps({"type": "act", "v": 99, "action": 0}))
            frames = [json.loads(ws.recv(timeout=30)) for _ in range(120)]
            assert [frame["type"] for frame in frames] == ["error", "sync"] * 60
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(timeout=30))["type"] == "pong"
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            head = "POST /api/sheets HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            raw.sendall((head + "Content-Length: 500\r\n\r\n").encode() + b'{"players": ["A')
        deadline = time.monotonic() + 60
        while not any("left in mid-body" in line.get("message", "") for line in server.lines()):
            assert time.monotonic() < deadline, server.lines()[-5:]
            time.sleep(0.1)
        lines = server.lines()
        assert sum("left in mid-body" in line.get("message", "") for line in lines) == 1
        assert not [line for line in lines if "Exception in ASGI" in line.get("message", "")]
    finally:
        server.kill()


# -- (9) health ----------------------------------------------------------------------------------------------


def test_healthz_fails_while_the_database_cannot_take_a_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/healthz`` writes the health row (at most once a second of the app's clock) and, for a file,
    looks at the space left on its disk: a disk that is full or nearly, or a database another program
    holds locked, is 503 until it takes writes again."""
    import shutil
    import sqlite3

    now = [0.0]
    for client in app_client(tmp_path, bot_delay=3600, clock=lambda: now[0]):
        ok = client.get("/healthz")
        assert ok.status_code == 200 and ok.json()["status"] == "ok" and ok.json()["store"] == "ok"
        full = shutil._ntuple_diskusage(10**10, 10**10 - 4096, 4096)  # type: ignore[attr-defined]
        monkeypatch.setattr("koloda.store.sql.shutil.disk_usage", lambda path, full=full: full)
        assert client.get("/healthz").status_code == 200  # within the same second: the last answer
        now[0] += 1
        sick = client.get("/healthz")
        assert sick.status_code == 503 and sick.json()["status"] == "unavailable", sick.text
        assert sick.json()["store"] == "cannot write" and sick.headers["cache-control"] == "no-store"
        assert "full" not in sick.text  # the reason is the log's, not the public's
        monkeypatch.undo()
        now[0] += 1
        assert client.get("/healthz").status_code == 200
        with sqlite3.connect(tmp_path / "web.sqlite3", timeout=0, isolation_level=None) as other:
            other.execute("BEGIN IMMEDIATE")  # another program writes and does not let go
            now[0] += 1
            assert client.get("/healthz").status_code == 503
            other.execute("ROLLBACK")
        now[0] += 1
        assert client.get("/healthz").status_code == 200

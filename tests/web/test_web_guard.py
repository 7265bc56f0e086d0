"""The guard (koloda.web.guard, koloda.web.limits): rates per connection and per address, connections
and creations per address, sizes, the same-origin and JSON content-type checks, the security headers, and
the seats a host opens to the lobby. Each limit is set low here so that a few requests reach it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import app_client, create, editing, hub, tokens

from koloda.cli import main
from koloda.errors import OptionsError
from koloda.store.sql import SqlStore
from koloda.web.app import create_app
from koloda.web.guard import CSP
from koloda.web.limits import Bucket, Limits, Quotas

TABLE = {"game": "bank", "players": 2, "seed": 11, "seats": [{"name": "Аня"}, {"name": "Боря"}]}


@pytest.fixture
def limited(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    """The app under the limits a test names with ``@pytest.mark.limits(key=value, ...)``."""
    marker = request.node.get_closest_marker("limits")
    limits = Limits(**(marker.kwargs if marker else {}))
    yield from app_client(tmp_path, bot_delay=3600, limits=limits)


def refusal(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert data["error"] == code and data["message"] and data["message_ru"], data
    return data


def closed_with(ws: Any) -> int:
    """Read until the server closes the socket; the close code."""
    try:
        while True:
            ws.receive_json()
    except WebSocketDisconnect as closed:
        return closed.code


# -- HTTP requests per address -------------------------------------------------------------------------


@pytest.mark.limits(requests=5, requests_window=60, excess=2)
def test_requests_over_the_rate_are_refused_with_retry_after_then_the_connection_closed(
    limited: TestClient,
) -> None:
    for _ in range(5):
        assert limited.get("/api/games").status_code == 200
    first = limited.get("/api/tables")
    data = refusal(first, 429, "rate_limited")
    assert "at most 5 in 60 s" in data["message"] and "не больше 5 за 60 с" in data["message_ru"]
    assert first.headers["retry-after"] == "12"  # a request comes back every 60 / 5 s
    assert "connection" not in first.headers
    refusal(limited.post("/api/tables", json=TABLE), 429, "rate_limited")
    third = limited.get("/")
    refusal(third, 429, "rate_limited")
    assert third.headers["connection"] == "close"  # still at it after `excess` refusals
    assert hub(limited).store.table_ids() == []


def test_the_addresses_are_counted_apart_and_ipv6_by_its_prefix() -> None:
    clock = [0.0]
    quotas = Quotas(Limits(requests=1, requests_window=10), lambda: clock[0])
    assert quotas.of("10.0.0.1").requests.take() and not quotas.of("10.0.0.1").requests.take()
    assert quotas.of("10.0.0.2").requests.take()
    assert quotas.of("2001:db8::1").requests.take()
    assert not quotas.of("2001:db8::ffff:2").requests.take()  # the same /64
    assert quotas.of("2001:db8:0:1::1").requests.take()
    clock[0] = 10.0
    assert quotas.of("10.0.0.1").requests.take()  # refilled


def test_idle_addresses_are_forgotten_and_their_number_is_bounded() -> None:
    clock = [0.0]
    quotas = Quotas(Limits(requests=2, addresses=100), lambda: clock[0])
    busy = quotas.of("10.0.0.1")
    busy.open = 1  # a websocket is open: never forgotten
    for n in range(500):
        quotas.of(f"10.1.{n // 256}.{n % 256}").requests.take()
    assert len(quotas) <= 100 and quotas.of("10.0.0.1") is busy
    clock[0] = 1000.0
    quotas.of("10.2.0.1")
    assert len(quotas) == 2  # the swept idle ones are gone; the busy one stays


# -- websocket messages --------------------------------------------------------------------------------


@pytest.mark.limits(messages=3, messages_window=60, excess=2)
def test_messages_over_the_rate_are_refused_once_then_dropped_then_the_socket_closed(
    limited: TestClient,
) -> None:
    create(limited, **TABLE)
    before = hub(limited).store.load_table(1)
    with limited.websocket_connect("/ws/1") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "sync"
        ws.send_json({"type": "ping"})
        ws.send_json({"type": "ping"})
        assert [ws.receive_json()["type"] for _ in range(2)] == ["pong", "pong"]
        ws.send_json({"type": "sync", "v": 0})  # the 4th: refused, no resync
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "rate_limited", frame
        assert "at most 3 in 60 s" in frame["message"]
        ws.send_json({"type": "sync", "v": 0})  # dropped unread
        ws.send_json({"type": "sync", "v": 0})  # the 3rd in a row over `excess` 2: closed
        assert closed_with(ws) == 4429
    assert hub(limited).store.load_table(1) == before
    metrics = limited.get("/metrics").text
    assert 'koloda_refusals_total{channel="ws",code="rate_limited"} 3' in metrics


def test_a_throttled_connection_is_heard_again_once_the_rate_allows(tmp_path: Path) -> None:
    """On the app's clock (the test's: nothing waits for a real second), a connection over its rate is
    refused, then heard again once the rate allows: 2 messages a second, one every 0.5 s."""
    now = [0.0]
    limits = Limits(messages=2, messages_window=1, excess=0)

    def read_until(client: TestClient, count: int) -> None:
        """Until the server has read ``count`` messages over the rate (its refusals counter says so)."""
        key = 'koloda_refusals_total{channel="ws",code="rate_limited"}'
        for _ in range(500):  # a few polls: the server reads them in microseconds
            found = [line for line in client.get("/metrics").text.splitlines() if line.startswith(key)]
            if found and int(float(found[0].split()[-1])) >= count:
                return
            time.sleep(0.01)
        raise AssertionError(f"the server did not read {count} messages")

    for client in app_client(tmp_path, bot_delay=3600, limits=limits, clock=lambda: now[0]):
        create(client, **TABLE)
        with client.websocket_connect("/ws/1") as ws:
            ws.send_json({"type": "hello"})
            ws.receive_json()
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
            for _ in range(20):  # excess 0: never closed, only refused
                ws.send_json({"type": "ping"})
            assert ws.receive_json()["code"] == "rate_limited"
            read_until(client, 20)
            now[0] += 0.4  # not a whole token yet: dropped
            ws.send_json({"type": "ping"})
            read_until(client, 21)
            now[0] += 0.2  # 0.6 s: one
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"


@pytest.mark.limits(messages=100, address_messages=4, messages_window=60)
def test_the_messages_of_one_address_are_counted_together(limited: TestClient) -> None:
    create(limited, **TABLE)
    with limited.websocket_connect("/ws/1") as one, limited.websocket_connect("/ws/1") as two:
        for ws in (one, two):
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "sync"
            ws.send_json({"type": "ping"})
            assert ws.receive_json()["type"] == "pong"
        two.send_json({"type": "ping"})
        frame = two.receive_json()
        assert frame["code"] == "rate_limited" and "from your address" in frame["message"], frame


@pytest.mark.limits(connections=2)
def test_connections_per_address_are_bounded(limited: TestClient) -> None:
    create(limited, **TABLE)
    with limited.websocket_connect("/ws/1") as one:
        with limited.websocket_connect("/ws/1"), limited.websocket_connect("/ws/1") as third:
            frame = third.receive_json()
            assert frame["code"] == "too_many_connections" and "at most 2" in frame["message"]
            assert closed_with(third) == 4429
        with limited.websocket_connect("/ws/1") as again:  # one closed: room for another
            again.send_json({"type": "hello"})
            assert again.receive_json()["type"] == "sync"
        one.send_json({"type": "hello"})
        assert one.receive_json()["type"] == "sync"
    assert "koloda_connections 0" in limited.get("/metrics").text


@pytest.mark.limits(message=64)
def test_a_message_over_the_size_is_refused_and_the_socket_stays(limited: TestClient) -> None:
    create(limited, **TABLE)
    with limited.websocket_connect("/ws/1") as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()
        ws.send_text(json.dumps({"type": "sync", "v": 0, "x": "y" * 64}))
        frame = ws.receive_json()
        assert frame["code"] == "bad_message" and "at most 64 bytes" in frame["message"]
        assert ws.receive_json()["type"] == "sync"


# -- creations, sizes, names ---------------------------------------------------------------------------


@pytest.mark.limits(creations=2, creations_window=3600)
def test_creations_per_address_are_bounded_and_a_refused_one_is_not_counted(limited: TestClient) -> None:
    refusal(limited.post("/api/tables", json={**TABLE, "players": 7}), 400, "bad_request")
    assert limited.post("/api/tables", json=TABLE).status_code == 201
    assert limited.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).status_code == 201
    data = refusal(limited.post("/api/banki", json={"names": ["Аня", "Боря"]}), 429, "rate_limited")
    assert "at most 2 in 3600 s" in data["message"]
    assert limited.get("/api/banki").json() == []


@pytest.mark.limits(body=100, depth=3, name=5)
def test_sizes_depth_and_names_follow_the_limits(limited: TestClient) -> None:
    data = refusal(limited.post("/api/tables", content=b" " * 101), 413, "too_large")
    assert "larger than 100 bytes" in data["message"]
    deep = {"game": "bank", "players": 2, "options": {"a": [[1]]}}  # 4 deep; seats are 3
    assert (
        "nested more than 3 deep"
        in refusal(limited.post("/api/tables", json=deep), 400, "bad_json")["message"]
    )
    long = {"game": "bank", "players": 2, "seats": [{"name": "Аннушка"}, {}]}
    refusal(limited.post("/api/tables", json=long), 400, "bad_request")
    assert (
        limited.post(
            "/api/tables", json={"game": "bank", "players": 2, "seats": [{"name": "Аня"}, {}]}
        ).status_code
        == 201
    )


def test_limits_are_checked_and_serve_refuses_a_bad_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert Limits().with_assignments(["messages=200", "origins=https://a.example"]).origins == (
        "https://a.example",
    )
    for bad, why in [
        ("mesages=5", "did you mean 'messages'"),
        ("messages=-1", "must be 0 or more"),
        ("body=0", "must be 1 or more"),
        ("messages=lots", "must be int"),
        ("origins=evil.example", "such as https://cards.example.org"),
        ("ipv6_prefix=200", "at most 128"),
    ]:
        with pytest.raises(OptionsError, match=why):
            Limits().with_assignments([bad])
        assert main(["serve", "--port", "1", "--limit", bad]) == 2
        assert why in capsys.readouterr().err


# -- same origin and JSON ------------------------------------------------------------------------------


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[TestClient]:
    """The app with a client that sends no header of its own (a browser page or curl would)."""
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=3600)
    with TestClient(app) as client:
        yield client


EVIL = ["http://evil.example", "null", "http://testserver.evil.example", "https://testserver:444", "file://"]


@pytest.mark.parametrize("origin", EVIL)
def test_a_request_from_another_origin_changes_nothing(bare: TestClient, origin: str) -> None:
    data = refusal(bare.post("/api/tables", json=TABLE, headers={"origin": origin}), 403, "cross_origin")
    assert "another site" in data["message"]
    refusal(
        bare.post("/api/sheets", json={"players": ["А", "Б"]}, headers={"origin": origin}),
        403,
        "cross_origin",
    )
    assert bare.get("/api/tables").json() == [] and bare.get("/api/sheets").json() == []


def test_the_same_origin_or_one_named_in_the_limits_is_let_through(tmp_path: Path) -> None:
    clients = app_client(tmp_path, bot_delay=3600, limits=Limits(origins=("https://cards.example.org",)))
    client = next(clients)
    for origin in ("http://testserver", "HTTP://TestServer:80", "https://cards.example.org"):
        assert client.post("/api/tables", json=TABLE, headers={"origin": origin}).status_code == 201
    # another scheme is another origin (issue 28): the page was not served by this server
    for origin in ("https://testserver", "http://cards.example.org"):
        refusal(client.post("/api/tables", json=TABLE, headers={"origin": origin}), 403, "cross_origin")
    for site in ("same-origin", "none"):
        assert client.post("/api/tables", json=TABLE, headers={"sec-fetch-site": site}).status_code == 201
    for site in ("cross-site", "same-site"):
        refusal(client.post("/api/tables", json=TABLE, headers={"sec-fetch-site": site}), 403, "cross_origin")
    assert client.get("/api/tables", headers={"origin": "http://evil.example"}).status_code == 200  # reads
    next(clients, None)


def test_a_request_that_changes_something_must_say_json(bare: TestClient) -> None:
    body = json.dumps(TABLE).encode()
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""):
        data = refusal(
            bare.post("/api/tables", content=body, headers={"content-type": kind}), 415, "not_json"
        )
        assert "application/json" in data["message"]
    refusal(bare.post("/api/tables", content=body), 415, "not_json")
    assert bare.get("/api/tables").json() == []
    assert (
        bare.post(
            "/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"}
        ).status_code
        == 201
    )
    made = bare.post("/api/sheets", json={"players": ["А", "Б"]})
    assert made.status_code == 201
    refusal(
        bare.post("/api/sheets/1/undo", headers=editing(made.json())), 415, "not_json"
    )  # even with nothing to say
    undo = bare.post(
        "/api/sheets/1/undo", headers={"content-type": "application/json", **editing(made.json())}
    )
    refusal(undo, 409, "nothing_to_undo")


def test_a_websocket_from_another_origin_is_closed_with_4403(bare: TestClient) -> None:
    create(bare, **TABLE)
    secret = tokens(bare, 1)[0]
    with bare.websocket_connect("/ws/1", headers={"origin": "http://evil.example"}) as ws:
        frame = ws.receive_json()
        assert frame["code"] == "cross_origin" and "another site" in frame["message"]
        assert closed_with(ws) == 4403
    with bare.websocket_connect("/ws/1", headers={"origin": "http://testserver"}) as ws:
        ws.send_json({"type": "hello", "token": secret})
        assert ws.receive_json()["seat"] == 0


# -- headers -------------------------------------------------------------------------------------------


def test_every_answer_has_the_security_headers(bare: TestClient) -> None:
    answers = [
        bare.get("/"),
        bare.get("/table/1"),
        bare.get("/api/games"),
        bare.get("/static/common.js"),
        bare.get("/api/tables/9"),
        bare.get("/metrics"),
        bare.post("/api/tables", content=b"x"),  # refused by the guard itself
    ]
    for answer in answers:
        assert answer.headers["content-security-policy"] == CSP, answer.url
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"
    assert "script-src 'self';" in CSP and "unsafe-inline" not in CSP and "frame-ancestors 'none'" in CSP


def test_no_page_has_an_inline_script_or_handler(bare: TestClient) -> None:
    import re

    for path in ("/", "/table/1", "/sheet", "/banki"):
        html = bare.get(path).text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
        for attributes, body in scripts:
            assert 'src="/static/' in attributes or 'type="application/json"' in attributes, attributes
            assert not body.strip() or 'type="application/json"' in attributes
        assert not re.search(r"\son[a-z]+\s*=", html), path  # no onclick= and the like
        assert "style=" not in html and "javascript:" not in html


# -- seats ---------------------------------------------------------------------------------------------


def test_a_seat_offered_by_link_is_taken_only_with_it(limited: TestClient) -> None:
    made = create(limited, game="bank", players=3, seats=[{}, {"open": True}, {"kind": "bot"}])
    links = tokens(limited, made["id"])
    seats = limited.get(f"/api/tables/{made['id']}").json()["seats"]
    assert [seat["open"] for seat in seats] == [False, True, False]
    data = refusal(limited.post(f"/api/tables/{made['id']}/join", json={"seat": 0}), 403, "seat_by_link")
    assert "only with its link" in data["message"] and data["field"] == "seat"
    assert limited.get(f"/api/tables/{made['id']}").json()["seats"][0]["taken"] is False
    joined = limited.post(f"/api/tables/{made['id']}/join", json={"seat": 1, "name": "Вера"}).json()
    assert joined["token"] != links[1] and joined["token"] not in links
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:  # the old link no longer takes the seat
        ws.send_json({"type": "hello", "token": links[1]})
        assert ws.receive_json()["code"] == "bad_token" and closed_with(ws) == 4403
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": joined["token"]})
        assert ws.receive_json()["seat"] == 1
    with limited.websocket_connect(f"/ws/{made['id']}") as ws:  # the link of seat 0 still takes seat 0
        ws.send_json({"type": "hello", "token": links[0]})
        assert ws.receive_json()["seat"] == 0
    assert [seat["taken"] for seat in limited.get(f"/api/tables/{made['id']}").json()["seats"]] == [True] * 3


def test_a_bot_seat_is_never_open(limited: TestClient) -> None:
    made = create(limited, game="bank", players=2, seats=[{}, {"kind": "bot", "open": True}])
    assert limited.get(f"/api/tables/{made['id']}").json()["seats"][1]["open"] is False


# -- CSV -----------------------------------------------------------------------------------------------


def test_csv_cells_that_a_spreadsheet_would_run_are_escaped(limited: TestClient) -> None:
    names = ["=HYPERLINK(1)", "+Боря", "-Вера", "@Гена"]
    made = limited.post("/api/sheets", json={"players": names}).json()
    sheet, key = made["id"], editing(made)
    deal = {"declarer": "+Боря", "bid": 120, "points": {"=HYPERLINK(1)": 10, "+Боря": 80, "-Вера": 30}}
    answer = limited.post(f"/api/sheets/{sheet}/deals", json={**deal, "sitting": "@Гена"}, headers=key)
    assert answer.status_code == 200
    deal = {"declarer": "-Вера", "bid": 200, "points": {"=HYPERLINK(1)": 10, "@Гена": 80, "-Вера": 30}}
    answer = limited.post(f"/api/sheets/{sheet}/deals", json={**deal, "sitting": "+Боря"}, headers=key)
    assert answer.status_code == 200
    import csv
    import io

    rows = list(csv.reader(io.StringIO(limited.get(f"/api/sheets/{sheet}/export/csv?lang=en").text)))
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in "=+@" or (cell[:1] == "-" and not cell[1:].isdigit())]
    assert "'=HYPERLINK(1): points" in rows[0] and rows[1][1].startswith("'+Боря 120 — ")
    assert "-200" in rows[2]  # a number stays a number


# -- the token bucket, as a property ----------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(1, 20),
    window=st.integers(1, 60),
    gaps=st.lists(st.floats(0, 5, allow_nan=False), min_size=1, max_size=120),
)
def test_a_bucket_never_lets_through_more_than_its_burst_and_its_rate(
    size: int, window: int, gaps: list[float]
) -> None:
    """Over any stretch of time t, a bucket lets through at most size + t * size / window, and a client
    that keeps under the rate is never refused."""
    clock = [0.0]
    bucket = Bucket(size, window, lambda: clock[0])
    taken: list[float] = []
    for gap in gaps:
        clock[0] += gap
        if bucket.take():
            taken.append(clock[0])
    for first in range(len(taken)):
        for last in range(first, len(taken)):
            span = taken[last] - taken[first]
            assert last - first + 1 <= size + span * size / window + 1e-9
    clock[0] += window  # full again
    steady = Bucket(size, window, lambda: clock[0])
    for _ in range(3 * size):
        assert steady.take()
        clock[0] += window / size * 1.001  # just under the rate (exactly on it is a float's rounding away)

"""The bad inputs named in issue 15, one by one: each answers a 4xx refusal that names the input and the
reason, changes nothing, and never a 500 or a dropped socket. (The property-based tests over every endpoint
are tests/web/test_web_fuzz.py; these are the cases found by hand, kept as examples.)"""

from __future__ import annotations

import json
import select
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from web_helpers import Server, create, editing, hub, tokens

BANK = {"game": "bank", "players": 2, "seats": [{}, {"kind": "bot"}], "seed": 5}
CREATE = [
    ("/api/tables", BANK),
    ("/api/sheets", {"players": ["Аня", "Боря", "Вера"]}),
    ("/api/banki", {"names": ["Аня", "Боря", "Вера"]}),
]


@pytest.fixture
def quiet(client: TestClient) -> TestClient:
    """The app with bots that never move (nothing changes but what the requests change)."""
    hub(client).bot_delay = 3600
    return client


def refusal(response: Any, status: int, code: str, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert data["error"] == code, data
    assert data["field"] == field, data
    assert data["message"] and data["message_ru"], data
    return data


@pytest.mark.parametrize("options", [None, True, 0, "s", [], 1.5])
@pytest.mark.parametrize(("path", "body"), CREATE)
def test_options_of_the_wrong_type_are_refused_naming_options(
    quiet: TestClient, path: str, body: dict[str, Any], options: Any
) -> None:
    data = refusal(quiet.post(path, json={**body, "options": options}), 400, "bad_options", "options")
    assert "options" in data["message"] and "options" in data["message_ru"]
    assert quiet.get(path).json() == []  # nothing was created


@pytest.mark.parametrize("seed", [2**62, 2**63, 2**64, 2**64 + 1, 10**30, -1])
@pytest.mark.parametrize(("path", "body"), [CREATE[0], CREATE[2]])
def test_a_seed_beyond_64_bits_is_refused_naming_seed(
    quiet: TestClient, path: str, body: dict[str, Any], seed: int
) -> None:
    data = refusal(quiet.post(path, json={**body, "seed": seed}), 400, "bad_request", "seed")
    assert "seed" in data["message"]
    assert quiet.get(path).json() == []


IDS = ["99999999999999999999", "9223372036854775808", "²", "¹", "٣", "1.0", "-1", "0x1", "1e3", " 1"]


@pytest.mark.parametrize("bad", IDS)
@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/api/tables/{}", "unknown_table"),
        ("/api/sheets/{}", "unknown_sheet"),
        ("/api/banki/{}", "unknown_game"),
    ],
)
def test_ids_that_are_no_number_or_too_large_name_nothing(
    quiet: TestClient, path: str, code: str, bad: str
) -> None:
    data = refusal(quiet.get(path.format(bad)), 404, code)
    assert repr(bad)[:20].strip("'") in data["message"]


@pytest.mark.parametrize("bad", ["99999999999999999999", "²"])
def test_a_post_to_an_id_beyond_64_bits_names_nothing(quiet: TestClient, bad: str) -> None:
    refusal(quiet.post(f"/api/tables/{bad}/join", json={"seat": 0}), 404, "unknown_table")
    refusal(quiet.post(f"/api/sheets/{bad}/undo", json={}), 404, "unknown_sheet")
    refusal(quiet.post(f"/api/banki/{bad}/events", json={"event": "hit Аня"}), 404, "unknown_game")


@pytest.mark.parametrize("bad", ["99999999999999999999", "²"])
def test_a_websocket_to_an_id_beyond_64_bits_is_refused_and_closed(quiet: TestClient, bad: str) -> None:
    from starlette.websockets import WebSocketDisconnect

    with quiet.websocket_connect(f"/ws/{bad}") as ws:
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == "unknown_table"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404


DEEP = [b"[" * 5000, b'{"a":' * 5000, b"[" * 33 + b"]" * 33, b'{"game": ' + b"[" * 3000 + b"]" * 3000 + b"}"]
JSON = {"content-type": "application/json"}


@pytest.mark.parametrize("raw", DEEP, ids=["list", "object", "33", "inside"])
@pytest.mark.parametrize("path", [path for path, _ in CREATE])
def test_deep_nesting_is_refused_as_bad_json(quiet: TestClient, path: str, raw: bytes) -> None:
    data = refusal(quiet.post(path, content=raw, headers=JSON), 400, "bad_json")
    assert "deep" in data["message"] or "recursion" in data["message"]


def test_sitting_as_a_list_is_refused_naming_it(quiet: TestClient) -> None:
    made = quiet.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера", "Гена"]})
    assert made.status_code == 201
    key = editing(made.json())
    deal = {"declarer": "Аня", "bid": 100, "points": {"Аня": 60, "Боря": 40, "Вера": 20}}
    for sitting in ([], {}, ["Гена"], 3, None):
        answer = quiet.post("/api/sheets/1/deals", json={**deal, "sitting": sitting}, headers=key)
        data = refusal(answer, 400, "bad_deal")
        assert "sitting" in data["message"] and "TypeError" not in data["message"], data
    assert quiet.get("/api/sheets/1").json()["deals"] == 0
    assert quiet.post("/api/sheets/1/deals", json={**deal, "sitting": "Гена"}, headers=key).status_code == 200


@pytest.fixture
def thousand(quiet: TestClient) -> Iterator[tuple[Any, int]]:
    """A websocket of the seat to move at a Thousand table of three people, bidding."""
    create(quiet, game="thousand", players=3, seed=2)
    room = hub(quiet).rooms[1]
    mover = room.state.current_player
    assert mover is not None
    with quiet.websocket_connect("/ws/1") as ws:
        ws.send_json({"type": "hello", "token": tokens(quiet, 1)[mover]})
        assert ws.receive_json()["type"] == "sync"
        yield ws, room.version


@pytest.mark.parametrize("action", ["²", "¹²", "1²0", "١٢٠", "१२०", "𝟏𝟐𝟎", "9" * 80])
def test_a_thousand_action_of_other_digits_is_refused_and_the_socket_stays(
    thousand: tuple[Any, int], action: str
) -> None:
    ws, version = thousand
    ws.send_json({"type": "act", "v": version, "action": action})
    frame = ws.receive_json()
    assert frame["type"] == "error" and frame["code"] == "bad_action" and frame["field"] == "action", frame
    assert action[:20] in frame["message"]
    assert ws.receive_json()["type"] == "sync"
    ws.send_json({"type": "act", "v": version, "action": "120"})  # the socket still plays
    assert ws.receive_json()["type"] == "event"


def test_binary_websocket_frames_are_read_like_text_and_refused_like_it(thousand: tuple[Any, int]) -> None:
    ws, version = thousand
    ws.send_bytes(b'{"type": "ping"}')
    assert ws.receive_json() == {"type": "pong", "v": version}
    for raw, code in [(b"\xff\xfe\x00", "bad_json"), (b"\x00" * 10, "bad_json"), (b"[1]", "bad_message")]:
        ws.send_bytes(raw)
        frame = ws.receive_json()
        assert frame["type"] == "error" and frame["code"] == code, frame
        assert ws.receive_json()["type"] == "sync"
    ws.send_bytes(json.dumps({"type": "act", "v": version, "action": "пас"}).encode())
    assert ws.receive_json()["type"] == "event"


def _answer(sock: socket.socket) -> bytes:
    sock.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


def test_a_huge_body_is_refused_before_it_is_read(server: Server) -> None:
    """A real server: a body that says it is 300 MB is refused before a byte of it is read; one sent in
    chunks without a length, as soon as it passes the limit."""
    head = "POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall((head + "Content-Length: 300000000\r\n\r\n").encode())
        answer = _answer(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall((head + "Transfer-Encoding: chunked\r\n\r\n").encode())
        sent = 0
        chunk = b"%x\r\n%s\r\n" % (65536, b" " * 65536)
        while sent < 300_000_000 and not select.select([sock], [], [], 0)[0]:
            try:
                sock.sendall(chunk)
            except OSError:  # the server answered and closed while we were still sending
                break
            sent += 65536
        answer = _answer(sock)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:200]
    assert sent < 20_000_000, sent  # the rest was never read
    assert httpx.get(server.url + "/api/tables").json() == []


def test_thousand_play_reads_other_digits_as_a_wrong_move_and_goes_on() -> None:
    lines = "²\n¹²\n१२०\n" + "9" * 5000 + "\nquit\n"
    done = subprocess.run(
        [sys.executable, "-m", "koloda", "thousand", "play", "--seed", "3", "--lang", "en"],
        input=lines,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONIOENCODING": "utf-8", "PATH": ""},
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert done.stdout.count("bad action") >= 4, done.stdout[-2000:]
    assert "'²'" in done.stdout

"""Property-based (hypothesis): malformed bodies, query strings, paths, methods and headers (content type,
origin) sent to every endpoint (the API, the pages, /metrics, /healthz, the static files), and malformed
messages, text or binary, sent to the websocket at a table or at any path. Whatever arrives: never a 5xx,
every refusal the JSON error shape (or the websocket's error frame followed by a resync, or by a close
with 4000 + the status for a bad first message), and a refusal changes nothing stored (tables, actions,
seats, sheets, deals, banki games and events) and no table's version.

The strategies mix random JSON with near-valid requests: a valid body with one part removed, replaced,
given another type, or an extra key, so that the checks behind the first one are reached too."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import EDIT_KEY, app_client, editing, hub

from koloda.store import Store
from koloda.web.limits import Limits

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
NAMES = ["Аня", "Боря", "Вера", "Гена"]
TABLE = {
    "game": "bank",
    "players": 2,
    "preset": "default",
    "options": {"target": 300},
    "seats": [{"kind": "human", "name": "Аня"}, {"kind": "bot", "level": "easy", "name": "Бот"}],
    "seed": 5,
}
DEAL = {
    "declarer": "Аня",
    "bid": 100,
    "points": {"Аня": 60, "Боря": 40, "Вера": 20},
    "marriages": {"Аня": []},
}

#: Every POST endpoint with a body it accepts (ids: table 1 has a free human seat 1, sheet 1, banki 1).
POSTS: list[tuple[str, Any]] = [
    ("/api/tables", TABLE),
    ("/api/tables/1/join", {"seat": 1, "name": "Вера"}),
    ("/api/sheets", {"players": NAMES[:3], "preset": "home", "options": {"target": 1000}}),
    ("/api/sheets/1/deals", DEAL),
    ("/api/sheets/1/undo", {}),
    ("/api/banki", {"names": NAMES, "preset": "moscow", "options": {}, "seed": 3}),
    ("/api/banki/1/events", {"event": "kick Боря 11"}),
    ("/api/banki/1/undo", {}),
]
#: Every GET endpoint of the API, with the query string it accepts.
GETS: list[tuple[str, dict[str, str]]] = [
    ("/api/games", {}),
    ("/api/tables", {}),
    ("/api/tables/1", {}),
    ("/api/sheets", {}),
    ("/api/sheets", {"limit": "2", "before": "9"}),
    ("/api/sheets/options", {}),
    ("/api/sheets/1", {}),
    ("/api/sheets/1/export/md", {"lang": "en"}),
    ("/api/sheets/1/export/csv", {"lang": "ru"}),
    ("/api/sheets/1/export/jsonl", {}),
    ("/api/banki", {}),
    ("/api/banki", {"limit": "100"}),
    ("/api/banki/1", {}),
    ("/api/banki/options", {}),
    ("/metrics", {}),
    ("/healthz", {}),
]
#: The pages and a static file: they answer HTML, JavaScript or CSS, and refuse like the API.
PAGES = ["/", "/table/1", "/sheet", "/sheet/1", "/banki", "/banki/1", "/static/common.js"]
#: No rate or count limit: every example reaches the checks behind the guard's counters (those have their
#: own tests, tests/web/test_web_guard.py); the sizes, depth and names keep their defaults.
UNLIMITED = Limits(requests=0, creations=0, messages=0, address_messages=0, connections=0, excess=0)

# -- strategies --------------------------------------------------------------------------------------

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["", " ", "Аня", "bank", "bot", "ru", "god", "7H", "x" * 100, "a\nb", "\x00"])
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into a JSON value: the root, each key of an object, each item of a list."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


WORDS = [
    *NAMES,
    *("bank", "thousand", "poker", "human", "bot", "robot", "easy", "hard", "god", "home", "tournament"),
    *(
        "moscow",
        "chelyabinsk",
        "paris",
        "default",
        "ru",
        "en",
        "7H",
        "AS",
        "draw",
        "pass",
        "пас",
        "120",
        "ZZ",
    ),
    *("hit Аня", "kick Аня 7", "kick Никто 5", "осалил Боря палкой нога", "target", "", " "),
]
NUMBERS = [0, 1, 2, 3, 4, 5, 7, -1, 11, 40, 60, 95, 100, 120, 1000, 2**31, 2**62 - 1, 2**62]


def varied(value: Any) -> st.SearchStrategy[Any]:
    """Other values of the same JSON type: they pass the envelope and reach the checks behind it."""
    if isinstance(value, bool):
        return st.just(not value)
    if isinstance(value, int):
        return st.sampled_from(NUMBERS) | st.integers(-10, 1200)
    if isinstance(value, str):
        return st.sampled_from(WORDS) | st.text(max_size=12)
    if isinstance(value, list) and value:
        return st.lists(st.sampled_from(value), max_size=len(value) + 2)
    return st.just(copy.deepcopy(value))


def retyped(value: Any) -> list[Any]:
    """Values of other JSON types than ``value`` that a careless check might take for it."""
    others: list[Any] = [None, True, 0, 1.5, "", str(value), [value], {"value": value}, 2**64, -1, "x" * 300]
    return [other for other in others if type(other) is not type(value) or other != value]


@st.composite
def mutated(draw: st.DrawFn, valid: Any) -> Any:
    """A valid body with one part removed, replaced, varied, retyped, or given an extra key."""
    body = copy.deepcopy(valid)
    path = draw(st.sampled_from(list(paths(body))))
    operation = draw(st.sampled_from(["remove", "replace", "vary", "vary", "retype", "extra"]))
    if not path:
        if operation == "extra" and isinstance(body, dict):
            body[draw(st.text(max_size=8))] = draw(json_values)
            return body
        return draw(json_values)
    parent = body
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if operation == "remove":
        del parent[last]
    elif operation == "replace":
        parent[last] = draw(json_values)
    elif operation == "vary":
        parent[last] = draw(varied(parent[last]))
    elif operation == "retype":
        parent[last] = draw(st.sampled_from(retyped(parent[last])))
    elif isinstance(parent[last], dict):
        parent[last][draw(st.text(min_size=1, max_size=8))] = draw(json_values)
    else:
        parent[last] = {"extra": parent[last]}
    return body


@dataclass(frozen=True)
class Call:
    """One HTTP request."""

    method: str
    path: str
    content: bytes | None = None
    params: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    #: The edit key it carries to a sheet's or banki game's path: the right one (RIGHT), none (None) or this
    #: text.
    key: str | None = "right"

    def edits(self) -> bool:
        """A change of sheet 1 or banki game 1: refused without their edit key."""
        return self.method == "POST" and bool(
            re.fullmatch(r"/api/(sheets|banki)/1/(deals|undo|events)", self.path)
        )

    def foreign(self) -> bool:
        """A request that changes something from another site or without a JSON body: the guard refuses
        it whatever the rest says (the test client's host is ``testserver``; its default type is JSON)."""
        if self.method in ("GET", "HEAD", "OPTIONS"):
            return False
        headers = dict(self.headers)
        origin, site = headers.get("origin"), headers.get("sec-fetch-site")
        kind = headers.get("content-type", "application/json").partition(";")[0].strip().lower()
        if origin is not None:  # the scheme is the origin's too: this server is http
            cross = origin.strip().lower() not in ("http://testserver", "http://testserver:80")
        else:
            cross = site not in (None, "same-origin", "none")
        return cross or kind != "application/json"


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


raw_bodies = st.one_of(
    st.binary(max_size=40),
    st.sampled_from(
        [
            b"",
            b"NaN",
            b'{"players": Infinity}',
            b'{"players": 1e999}',
            b"[" * 300,
            b'{"seed": 1' + b"0" * 5000 + b"}",
            b"\xff\xfe{}",
            b'{"names": ["\\ud800"]}',
            b'{"a": 1} trailing',
            b'{"players": ["A", "B"], "players": ["C", "D"]}',
            b'{"event": "kick \xd0\x91\xd0\xbe\xd1\x80\xd1\x8f 11", "event": "undo"}',
            b" " * 70_000,
        ]
    ),
)


@st.composite
def truncated(draw: st.DrawFn) -> Call:
    path, valid = draw(st.sampled_from(POSTS))
    text = _json(valid)
    return Call("POST", path, text[: draw(st.integers(0, max(0, len(text) - 1)))])


@st.composite
def near_valid_post(draw: st.DrawFn) -> Call:
    path, valid = draw(st.sampled_from(POSTS))
    return Call("POST", path, _json(draw(mutated(valid))))


@st.composite
def random_post(draw: st.DrawFn) -> Call:
    path, _ = draw(st.sampled_from(POSTS))
    content = draw(st.one_of(json_values.map(_json), raw_bodies))
    return Call("POST", path, content)


@st.composite
def bad_query(draw: st.DrawFn) -> Call:
    path, valid = draw(st.sampled_from(GETS + [(page, {}) for page in PAGES]))
    params = list(valid.items())
    keys = st.sampled_from(["lang", "x", "", "lang[]", "page"]) | st.text(max_size=5)
    extra = draw(st.lists(st.tuples(keys, st.text(max_size=10)), max_size=3))
    return Call("GET", path, None, tuple(params + extra))


@st.composite
def bad_path(draw: st.DrawFn) -> Call:
    """A valid request with its id (or format) replaced by any text."""
    method, path, content = draw(
        st.sampled_from(
            [("GET", path, None) for path, _ in GETS]
            + [("GET", page, None) for page in PAGES]
            + [("POST", path, _json(valid)) for path, valid in POSTS]
        )
    )
    segments = path.split("/")
    positions = [
        i for i, segment in enumerate(segments) if segment.isdigit() or segment in ("md", "csv", "jsonl")
    ]
    if positions:
        ids = st.text(min_size=1, max_size=25) | st.sampled_from(
            ["0", "-1", "²", "9" * 30, "1.0", "0x1", " 1"]
        )
        segments[draw(st.sampled_from(positions))] = quote(draw(ids), safe="")
    return Call(method, "/".join(segments), content)


@st.composite
def bad_method(draw: st.DrawFn) -> Call:
    path = draw(st.sampled_from([path for path, _ in GETS] + [path for path, _ in POSTS] + PAGES))
    method = draw(st.sampled_from(["PUT", "DELETE", "PATCH", "GET", "POST", "HEAD", "OPTIONS"]))
    return Call(method, path, draw(st.none() | json_values.map(_json)))


ORIGINS = ["http://testserver", "https://testserver", "http://evil.example", "null", "http://testserver.evil"]
TYPES = [
    "application/json",
    "application/json; charset=utf-8",
    "APPLICATION/JSON",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonp",
    "",
]
SITES = ["same-origin", "none", "same-site", "cross-site"]
header_text = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=12)


@st.composite
def bad_headers(draw: st.DrawFn) -> Call:
    """A valid request (or one changed like the others) sent with any content type, origin and
    Sec-Fetch-Site: what a page of another site could send."""
    valid = st.sampled_from(POSTS).map(lambda post: Call("POST", post[0], _json(post[1])))
    call = draw(valid | near_valid_post())
    headers: list[tuple[str, str]] = []
    for name, values in (("content-type", TYPES), ("origin", ORIGINS), ("sec-fetch-site", SITES)):
        value = draw(st.none() | st.sampled_from(values) | header_text)
        if value is not None:
            headers.append((name, value))
    return Call(call.method, call.path, call.content, call.params, tuple(headers))


@st.composite
def bad_key(draw: st.DrawFn) -> Call:
    """A change of sheet 1 or banki game 1, valid or not, without its edit key or with another."""
    edits = [(path, valid) for path, valid in POSTS if re.fullmatch(r"/api/(sheets|banki)/1/\w+", path)]
    path, valid = draw(st.sampled_from(edits))
    key = draw(st.none() | st.sampled_from(["", "x" * 32, "right-but-not"]) | header_text)
    content = draw(st.just(_json(valid)) | mutated(valid).map(_json))
    return Call("POST", path, content, key=key)


calls = st.one_of(
    bad_key(),
    near_valid_post(),
    near_valid_post(),
    random_post(),
    truncated(),
    bad_query(),
    bad_path(),
    bad_method(),
    bad_headers(),
)

# -- the world and its checks ------------------------------------------------------------------------


@contextmanager
def world(tmp_path: Path) -> Iterator[TestClient]:
    """The app with a table (one human seat free), a score sheet with a deal, a banki game with an event;
    bots never move during the test, so nothing changes but what the requests change."""
    clients = app_client(tmp_path, bot_delay=3600, limits=UNLIMITED)
    client = next(clients)
    try:
        private = {
            key: value for key, value in TABLE.items() if key != "seed"
        }  # a seat open: no seed of ours
        assert client.post("/api/tables", json={**private, "seats": [{}, {"open": True}]}).status_code == 201
        sheet = client.post("/api/sheets", json=POSTS[2][1])
        assert sheet.status_code == 201
        KEYS["sheets"] = sheet.json()["key"]
        assert client.post("/api/sheets/1/deals", json=DEAL, headers=editing(sheet.json())).status_code == 200
        game = client.post("/api/banki", json=POSTS[5][1])
        assert game.status_code == 201
        KEYS["banki"] = game.json()["key"]
        event = {"event": "kick Аня 7"}
        assert client.post("/api/banki/1/events", json=event, headers=editing(game.json())).status_code == 200
        yield client
    finally:
        next(clients, None)


#: The edit keys of sheet 1 and banki game 1 of the world, by the path's word.
KEYS: dict[str, str] = {}


def key_headers(call: Call) -> dict[str, str]:
    """The edit key a call carries to a sheet's or game's path, as :attr:`Call.key` says."""
    found = re.match(r"/api/(sheets|banki)/", call.path)
    if found is None or call.key is None:
        return {}
    return {EDIT_KEY: KEYS[found.group(1)] if call.key == "right" else call.key}


def snapshot(store: Store) -> tuple[Any, ...]:
    """Everything stored: tables (seats, actions), sheets (deals), banki games (events)."""
    return (
        [store.load_table(i) for i in store.table_ids()],
        [store.load_sheet(i) for i in store.sheet_ids()],
        [store.load_banki(i) for i in store.banki_ids()],
    )


def versions(client: TestClient) -> dict[int, int]:
    return {table_id: room.version for table_id, room in hub(client).rooms.items()}


def unchanged(client: TestClient, seen: dict[int, int]) -> bool:
    """No live table moved (a refused request may load a table, but not change it)."""
    rooms = hub(client).rooms
    return all(rooms[table_id].version == version for table_id, version in seen.items())


def check_refusal(data: Any) -> None:
    """The error shape: code, field (a dotted path or null), a message in each language."""
    assert isinstance(data, dict) and set(data) == {"error", "field", "message", "message_ru"}, data
    assert isinstance(data["error"], str) and re.fullmatch("[a-z_]+", data["error"]), data
    assert data["field"] is None or isinstance(data["field"], str), data
    assert isinstance(data["message"], str) and data["message"], data
    assert isinstance(data["message_ru"], str) and CYRILLIC.search(data["message_ru"]), data


FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def test_fuzz_http_requests_never_fail_the_server_or_change_what_they_refuse(tmp_path: Path) -> None:
    with world(tmp_path) as client:
        store = hub(client).store

        @FUZZ
        @given(call=calls)
        def run(call: Call) -> None:
            before, seen = snapshot(store), versions(client)
            response = client.request(
                call.method,
                call.path,
                content=call.content,
                params=list(call.params),
                headers={**key_headers(call), **dict(call.headers)},
            )
            assert response.status_code < 500, (call, response.text)
            assert all(key not in response.text for key in KEYS.values()), call  # no key is ever shown again
            if call.edits() and call.key != "right" and response.status_code < 400:
                raise AssertionError(f"changed without its edit key: {call}")
            assert (
                response.headers["content-security-policy"] and response.headers["x-frame-options"] == "DENY"
            )
            if call.foreign():
                assert response.status_code in (403, 415), (call, response.text)
            if response.status_code >= 400:
                assert snapshot(store) == before, call  # a refusal changes nothing
                assert unchanged(client, seen), call
                if call.method == "HEAD":  # the same answer without its body
                    event(f"{response.status_code} HEAD")
                    return
                check_refusal(response.json())
                event(f"{response.status_code} {response.json()['error']}")  # --hypothesis-show-statistics
            else:
                event(f"{response.status_code}")
                if call.method == "HEAD":
                    assert not response.content and snapshot(store) == before, call
                elif response.headers.get("content-type") == "application/json":
                    response.json()  # what says JSON is JSON
                else:  # a page, a file, an export or the metrics: only ever read
                    assert call.method in ("GET", "HEAD") and snapshot(store) == before, call

        run()


# -- the websocket -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Raw:
    """A message sent as this text, not as JSON."""

    text: str


@dataclass(frozen=True)
class Binary:
    """A message sent as these bytes in a binary frame."""

    data: bytes


V, A = -7_777, -8_888  # stand for the table's version and a legal action when the message is sent
MESSAGES = [
    {"type": "act", "v": V, "action": A},
    {"type": "act", "v": V, "action": "draw"},
    {"type": "sync", "v": V},
    {"type": "ping"},
    {"type": "hello", "v": V},
]
ws_messages = st.one_of(
    st.sampled_from(MESSAGES),
    st.sampled_from(MESSAGES).flatmap(mutated),
    st.sampled_from(MESSAGES).flatmap(mutated),
    json_values,
    st.text(max_size=30).map(Raw),
    st.sampled_from(["", "NaN", '{"type": "act", "v": 1e999, "action": 0}', "x" * 5000, "[" * 300]).map(Raw),
    st.sampled_from(
        ['{"type": "act", "v": 0, "action": "x", "action": 0}', '{"type": "ping", "type": "sync"}']
    ).map(Raw),  # a key given twice (issue 28)
    st.binary(max_size=40).map(Binary),
    st.sampled_from([b"\xff\xfe", b'{"type": "ping"}\xff', b"[" * 5000, b"\x00" * 5000]).map(Binary),
)


def send(ws: Any, message: Any, version: int, legal: list[int], binary: bool = False) -> dict[str, Any]:
    """Send one message (the stand-ins replaced by the current version and a legal action), as JSON text,
    or JSON in a binary frame when ``binary``; the answer."""
    if isinstance(message, Raw):
        ws.send_text(message.text)
    elif isinstance(message, Binary):
        ws.send_bytes(message.data)
    else:
        if isinstance(message, dict):
            message = {
                key: version if value == V and type(value) is int else legal[0] if value == A else value
                for key, value in message.items()
            }
        text = json.dumps(message, ensure_ascii=False)
        if binary:
            ws.send_bytes(text.encode())
        else:
            ws.send_text(text)
    return dict(ws.receive_json())


def check_frame(frame: dict[str, Any]) -> None:
    """A websocket refusal: the HTTP error shape, with "type": "error" and the code as "code"."""
    assert frame.get("type") == "error", frame
    check_refusal(
        {"error": frame.get("code"), **{k: v for k, v in frame.items() if k not in ("type", "code")}}
    )


def test_fuzz_websocket_messages_are_refused_with_a_resync_and_change_nothing(tmp_path: Path) -> None:
    with world(tmp_path) as client:
        store = hub(client).store
        room = hub(client).rooms[1]
        secrets = [seat.token for seat in store.load_table(1).seats]

        @settings(FUZZ, max_examples=120)
        @given(
            messages=st.lists(ws_messages, min_size=1, max_size=6), watch=st.booleans(), binary=st.booleans()
        )
        def run(messages: list[Any], watch: bool, binary: bool) -> None:
            mover = room.state.current_player
            with client.websocket_connect("/ws/1") as ws:  # the seat to move, or a spectator
                ws.send_json(
                    {"type": "hello"}
                    if watch or mover is None
                    else {"type": "hello", "token": secrets[mover]}
                )
                assert ws.receive_json()["type"] == "sync"
                for message in messages:
                    before, version = snapshot(store), room.version
                    answer = send(ws, message, version, room.state.legal_actions(), binary)
                    event(f"{answer['type']} {answer.get('code', '')}")
                    if answer["type"] == "error":
                        check_frame(answer)
                        resync = ws.receive_json()
                        assert resync["type"] == "sync" and resync["v"] == version == room.version, message
                        assert snapshot(store) == before, message
                    else:  # accepted: an action (the next version), a resync, a pong
                        assert answer["type"] in ("event", "sync", "uptodate", "pong"), answer
                        assert answer["v"] == room.version

        run()


def test_fuzz_a_bad_first_message_closes_the_socket_and_changes_nothing(tmp_path: Path) -> None:
    with world(tmp_path) as client:
        store = hub(client).store
        hello = {"type": "hello", "token": store.load_table(1).seats[0].token, "v": 0}
        with client.websocket_connect("/ws/1") as ws:  # seat 0 is taken once, before the examples
            ws.send_json(hello)
            ws.receive_json()

        @settings(FUZZ, max_examples=80)
        @given(
            message=st.one_of(
                st.just(hello).flatmap(mutated),
                json_values,
                st.text(max_size=20).map(Raw),
                st.binary(max_size=20).map(Binary),
            ),
            binary=st.booleans(),
        )
        def run(message: Any, binary: bool) -> None:
            before = snapshot(store)
            with client.websocket_connect("/ws/1") as ws:
                answer = send(ws, message, 0, [0], binary)
                if answer["type"] == "error":
                    check_frame(answer)
                    try:
                        ws.receive_json()
                        raise AssertionError("the socket stays open after a bad hello")
                    except WebSocketDisconnect as closed:
                        assert 4400 <= closed.code < 4500
                else:
                    assert answer["type"] in ("sync", "uptodate"), answer
            assert snapshot(store) == before

        run()


ws_ids = st.text(min_size=1, max_size=25) | st.sampled_from(
    ["0", "-1", "²", "٣", "9" * 30, "1.0", "0x1", "2"]
)


def test_fuzz_a_websocket_at_any_path_is_refused_with_a_close_code_and_changes_nothing(
    tmp_path: Path,
) -> None:
    """A table id that is no table's (no number, '²', beyond 64 bits): the error frame, then a close with
    4000 + its status; a path that is no route at all: closed before the handshake (never a 500)."""
    with world(tmp_path) as client:
        store = hub(client).store

        @settings(FUZZ, max_examples=80)
        @given(table=ws_ids, binary=st.booleans())
        def run(table: str, binary: bool) -> None:
            before = snapshot(store)
            try:
                with client.websocket_connect("/ws/" + quote(table, safe="")) as ws:
                    answer = send(ws, {"type": "hello"}, 0, [0], binary)
                    if table == "1":
                        assert answer["type"] == "sync", answer
                        return
                    check_frame(answer)
                    event(f"{answer['code']}")
                    try:
                        ws.receive_json()
                        raise AssertionError("the socket stays open at a table that is not there")
                    except WebSocketDisconnect as closed:
                        assert closed.code == 4000 + {"unknown_table": 404}.get(answer["code"], 400), answer
            except WebSocketDisconnect as closed:  # no route: the handshake itself is refused
                event(f"closed {closed.code}")
                assert "/" in table or table in (".", ".."), table
            assert snapshot(store) == before

        run()

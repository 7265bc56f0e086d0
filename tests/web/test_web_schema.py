"""Requests and messages checked by their schemas (koloda.web.schemas): strict types, unknown keys,
bounds; every refusal a 4xx JSON body (or websocket frame) naming the field and the reason in English and
Russian; the refusals are members of koloda's error family."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import create, editing, hub, tokens

from koloda.errors import (
    IllegalActionError,
    KolodaError,
    NotationError,
    NotFoundError,
    OptionsError,
    RecordError,
    RequestError,
)
from koloda.i18n import template
from koloda.web import refusals
from koloda.web.limits import Limits

MAX_BODY, MAX_MESSAGE = Limits().body, Limits().message

CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)
TABLE = {
    "game": "bank",
    "players": 2,
    "seats": [{"name": "Аня", "open": True}, {"kind": "bot", "level": "easy"}],
}
NAMES = ["Аня", "Боря", "Вера", "Гена"]


def refusal(response: Any, status: int, code: str, field: str | None) -> dict[str, Any]:
    """The JSON error shape, with this status, code and field."""
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert set(data) == {"error", "field", "message", "message_ru"}, data
    assert (data["error"], data["field"]) == (code, field), data
    assert data["message"] and CYRILLIC.search(data["message_ru"]), data
    return data


@pytest.mark.parametrize(
    ("body", "field", "en", "ru"),
    [
        (
            {"game": "bank", "players": "3"},
            "players",
            "players must be a whole number, not '3'",
            "целым числом",
        ),
        ({"game": "bank", "players": True}, "players", "players must be a whole number, not True", "целым"),
        ({"game": "bank", "players": 3.0}, "players", "not 3.0", "целым числом"),
        (
            {"game": "bank", "players": 5},
            "players",
            "players must be 2-4 for bank, not 5",
            "в bank играют 2-4",
        ),
        ({"game": "thousand", "players": 2}, "players", "players must be 3-4 for thousand", "играют 3-4"),
        ({"game": "poker", "players": 2}, "game", "unknown game 'poker'; games: bank, thousand", "игра"),
        ({"game": 7, "players": 2}, "game", "game must be text, not 7", "строкой"),
        ({"players": 2}, "game", "game is missing", "не хватает game"),
        (
            {"game": "bank", "players": 2, "colour": "red"},
            "colour",
            "unknown key 'colour'; known keys: game,",
            "ключ",
        ),
        (
            {"game": "bank", "players": 2, "seats": [{}, {"kind": "bot", "level": "god"}]},
            "seats.1.level",
            "seats.1.level must be one of easy, medium, hard, not 'god'",
            "seats.1.level — одно из",
        ),
        (
            {"game": "bank", "players": 2, "seats": [{}, {"kind": "bot", "lvl": "easy"}]},
            "seats.1.lvl",
            "unknown key 'lvl' at seats.1.lvl; known keys there: kind, level, name",
            "неизвестный ключ 'lvl' (seats.1.lvl)",
        ),
        (
            {"game": "bank", "players": 2, "seats": [{"kind": "robot"}, {}]},
            "seats.0.kind",
            "kind must be",
            "одно из",
        ),
        ({"game": "bank", "players": 2, "seats": [{}]}, "seats", "a list of 2 seats, not 1", "из 2 мест"),
        ({"game": "bank", "players": 2, "seats": {"0": {}}}, "seats", "seats must be a list", "списком"),
        (
            {"game": "bank", "players": 2, "seats": [{"name": ""}, {}]},
            "seats.0.name",
            "a name must be 1-40",
            "имя",
        ),
        (
            {"game": "bank", "players": 2, "seats": [{"name": "Я" * 41}, {}]},
            "seats.0.name",
            "1-40",
            "от 1 до 40",
        ),
        (
            {"game": "bank", "players": 2, "seats": [{"name": "a\nb"}, {}]},
            "seats.0.name",
            "seats.0.name holds U+000A, a character that does not show",
            "знак U+000A, который не виден",
        ),
        (
            {"game": "bank", "players": 2, "seed": -1},
            "seed",
            "seed must be at least 0, not -1",
            "не меньше 0",
        ),
        (
            {"game": "bank", "players": 2, "seed": 2**62},
            "seed",
            "seed must be at most 4611686018427387903",
            "больше",
        ),
        ({"game": "bank", "players": 2, "seed": "7"}, "seed", "seed must be a whole number", "целым"),
        ({"game": "bank", "players": 2, "preset": ""}, "preset", "at least 1 characters", "не короче"),
        ([TABLE], None, "the body must be a JSON object, not [{", "тело запроса должно быть JSON-объектом"),
    ],
)
def test_schema_refuses_a_bad_new_table_naming_the_field_in_both_languages(
    client: TestClient, body: Any, field: str | None, en: str, ru: str
) -> None:
    code = "bad_options" if field == "preset" else "bad_request"
    data = refusal(client.post("/api/tables", json=body), 400, code, field)
    assert en in data["message"] and ru in data["message_ru"], data
    if field is not None:  # both messages name the field
        assert field in data["message"] and field in data["message_ru"]
    assert client.get("/api/tables").json() == []


def test_schema_options_are_a_json_object_the_games_options_class_checks(client: TestClient) -> None:
    shape = refusal(client.post("/api/tables", json={**TABLE, "options": [1]}), 400, "bad_options", "options")
    assert "options must be a JSON object, not [1]" in shape["message"]
    wrong = refusal(
        client.post("/api/tables", json={**TABLE, "options": {"targt": 9}}), 400, "bad_options", "options"
    )
    assert "did you mean 'target'" in wrong["message"]  # the Options class's own message
    assert wrong["message_ru"].startswith("неизвестный параметр 'targt' (может быть, 'target'?)")  # its own
    preset = refusal(
        client.post("/api/tables", json={**TABLE, "preset": "chess"}), 400, "bad_options", "preset"
    )
    assert "unknown preset 'chess'" in preset["message"]
    assert create(client, **{**TABLE, "options": {"target": 300}})["id"] == 1


def test_schema_valid_requests_still_pass(client: TestClient) -> None:
    assert create(client, game="thousand", players=4, preset="tournament", seed=2**62 - 1)[
        "id"
    ]  # a private table
    seats = [{}, {}, {}, {"open": True}]
    made = create(client, game="thousand", players=4, preset="tournament", seats=seats)
    assert client.get(f"/api/tables/{made['id']}").json()["players"] == 4
    joined = client.post(f"/api/tables/{made['id']}/join", json={"seat": 3, "name": "  Вера  "})
    assert joined.status_code == 200 and hub(client).store.load_table(made["id"]).seats[3].name == "Вера"
    sheet = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]})
    assert sheet.status_code == 201
    undo = client.post(f"/api/sheets/{sheet.json()['id']}/undo", content=b"{}", headers=editing(sheet.json()))
    assert undo.json()["error"] == "nothing_to_undo"
    game = client.post("/api/banki", json={"names": NAMES, "preset": "chelyabinsk", "seed": 0})
    assert game.status_code == 201


def test_schema_join_sheet_and_banki_bodies(client: TestClient) -> None:
    made = create(client, **TABLE)
    join = f"/api/tables/{made['id']}/join"
    refusal(client.post(join, json={"seat": "0"}), 400, "bad_request", "seat")
    refusal(client.post(join, json={"seat": 0, "name": 5}), 400, "bad_request", "name")
    refusal(client.post(join, json={"seat": 0, "token": "x"}), 400, "bad_request", "token")
    refusal(client.post(join, json={"seat": 5}), 400, "bad_seat", "seat")
    refusal(client.post(join, json={"seat": 1}), 409, "seat_taken", "seat")
    refusal(client.post("/api/tables/42/join", json={"seat": 0}), 404, "unknown_table", None)
    refusal(client.post("/api/sheets", json={"players": ["Аня", 5]}), 400, "bad_request", "players.1")
    players = refusal(client.post("/api/sheets", json={"players": ["Аня"]}), 400, "bad_request", "players")
    assert (
        players["message_ru"] == "в тысячу играют от 2 до 4 игроков, а не 1"
    )  # the score book's own Russian
    refusal(client.post("/api/sheets", json={"players": ["Аня"] * 31}), 400, "bad_request", "players")
    refusal(client.post("/api/banki", json={"names": NAMES, "seed": True}), 400, "bad_request", "seed")
    refusal(client.post("/api/banki", json={"names": NAMES, "sead": 1}), 400, "bad_request", "sead")
    names = refusal(
        client.post("/api/banki", json={"names": [*NAMES[:3], "1x"]}), 400, "bad_request", "names"
    )
    assert "bad player name '1x'" in names["message"]
    refusal(client.post("/api/banki", json={"names": NAMES, "preset": 1}), 400, "bad_options", "preset")
    made = client.post("/api/banki", json={"names": NAMES, "seed": 1}).json()
    game, key = made["id"], editing(made)
    events = f"/api/banki/{game}/events"
    refusal(client.post(events, json={"event": 5}, headers=key), 400, "bad_event", "event")
    refusal(client.post(events, json={"event": "  "}, headers=key), 400, "bad_event", "event")
    refusal(client.post(events, json={"event": "x" * 201}, headers=key), 400, "bad_event", "event")
    refusal(client.post(events, json={"event": "kick Аня 7", "x": 1}, headers=key), 400, "bad_request", "x")
    refusal(client.post(f"/api/banki/{game}/undo", json=[], headers=key), 400, "bad_request", None)
    refusal(client.post(f"/api/banki/{game}/undo", headers=key), 409, "nothing_to_undo", None)
    assert client.get(f"/api/banki/{game}").json()["view"]["history"] == []


def test_schema_query_strings(client: TestClient) -> None:
    sheet = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()["id"]
    export = f"/api/sheets/{sheet}/export/md"
    assert client.get(export + "?lang=en").status_code == 200
    refusal(client.get(export + "?lang=fr"), 400, "bad_request", "lang")
    twice = refusal(client.get(export + "?lang=ru&lang=en"), 400, "bad_request", "lang")
    assert "'lang' is given more than once" in twice["message"]
    refusal(client.get(export + "?lang=ru&download=1"), 400, "bad_request", "download")
    refusal(client.get("/api/tables?page=2"), 400, "bad_request", "page")
    refusal(client.get(f"/api/sheets/{sheet}/export/pdf"), 400, "bad_format", "format")


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        (b"{game: bank", "not valid JSON"),
        (b"", "not valid JSON"),
        (b"\xff\xfe{}", "not valid JSON"),
        (b'{"game": "bank", "players": NaN}', "not valid JSON"),
        (b'{"game": "bank", "players": 2, "options": {"target": 1e999}}', "too large"),
        (b'{"game": "bank", "players": ' + b"9" * 5000 + b"}", "number out of range"),
        (b"[" * 1000 + b"]" * 1000, "nested more than 32 deep"),
        (b'{"game": "bank\\ud800", "players": 2}', "not valid JSON"),
    ],
)
def test_schema_bodies_that_are_not_json_are_refused(client: TestClient, raw: bytes, words: str) -> None:
    data = refusal(client.post("/api/tables", content=raw), 400, "bad_json", None)
    assert words in data["message"]


def test_schema_sizes_ids_routes_and_methods(client: TestClient) -> None:
    refusal(client.post("/api/tables", content=b" " * (MAX_BODY + 1)), 413, "too_large", None)
    for path in ("/api/tables/abc", "/api/tables/²", "/api/tables/-1", "/api/tables/" + "9" * 30):
        refusal(client.get(path), 404, "unknown_table", None)
    refusal(client.get("/api/sheets/" + "9" * 19), 404, "unknown_sheet", None)
    refusal(client.get("/api/banki/1"), 404, "unknown_game", None)
    refusal(client.get("/api/nothing"), 404, "not_found", None)
    refusal(client.post("/api/sheets/1/dance"), 404, "not_found", None)
    wrong = client.delete("/api/tables")
    refusal(wrong, 405, "method_not_allowed", None)
    assert wrong.headers["allow"]  # the methods that are allowed


def test_schema_a_deal_line_is_the_score_files_to_check(client: TestClient) -> None:
    made = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()
    sheet, key = made["id"], editing(made)
    path = f"/api/sheets/{sheet}/deals"
    points = {"Аня": 60, "Боря": 40, "Вера": 20}
    not_object = refusal(client.post(path, json=[1, 2], headers=key), 400, "bad_deal", None)
    assert "a deal must be a JSON object" in not_object["message"]
    low = refusal(
        client.post(path, json={"declarer": "Аня", "bid": 95, "points": points}, headers=key),
        400,
        "bad_deal",
        None,
    )
    assert low["message_ru"] == "заказ 95 меньше наименьшего (100)"  # the scorer's own Russian
    # a "sitting" that is no name (once a TypeError the reader let through) is refused by name
    odd = refusal(
        client.post(path, json={"declarer": "Аня", "bid": 100, "points": points, "sitting": []}, headers=key),
        400,
        "bad_deal",
        None,
    )
    assert odd["message"] == "sitting [] is not a player (Аня, Боря, Вера)"
    assert client.get(f"/api/sheets/{sheet}").json()["deals"] == 0


def frame_of(ws: Any, code: str, field: str | None) -> dict[str, Any]:
    frame: dict[str, Any] = ws.receive_json()
    assert set(frame) == {"type", "code", "field", "message", "message_ru"}, frame
    assert (frame["type"], frame["code"], frame["field"]) == ("error", code, field), frame
    assert frame["message"] and CYRILLIC.search(frame["message_ru"]), frame
    return frame


def test_schema_websocket_messages(client: TestClient) -> None:
    made = create(client, game="bank", players=2, seed=11, seats=[{"name": "Аня"}, {"name": "Боря"}])
    table = hub(client).rooms[made["id"]]
    mover = table.state.current_player
    assert mover is not None
    secret = tokens(client, made["id"])[mover]
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": secret})
        assert ws.receive_json()["type"] == "sync"
        for message, code, field, words in [
            ({"type": "act", "v": "0", "action": 0}, "bad_message", "v", "v must be a whole number, not '0'"),
            ({"type": "act", "v": 0}, "bad_message", "action", "action is missing"),
            ({"type": "act", "v": 0, "action": True}, "bad_message", "action", "an action's id"),
            ({"type": "act", "v": 0, "action": -1}, "bad_message", "action", "an action's id"),
            ({"type": "act", "v": 0, "action": "x" * 81}, "bad_message", "action", "an action's id"),
            ({"type": "act", "v": 0, "action": 0, "seat": 1}, "bad_message", "seat", "unknown key 'seat'"),
            ({"type": "sync"}, "bad_message", "v", "v is missing"),
            ({"type": "dance"}, "bad_message", None, "unknown message type 'dance'"),
            ({"v": 0}, "bad_message", None, '"type"'),
            ({"type": "hello"}, "bad_message", None, "hello once"),
            ({"type": "act", "v": 0, "action": "ZZ"}, "bad_action", "action", "ZZ"),
            ({"type": "act", "v": 9, "action": 0}, "stale", "v", "version 0, yours 9"),
        ]:
            ws.send_json(message)
            frame = frame_of(ws, code, field)
            assert words in frame["message"], (message, frame)
            assert ws.receive_json()["type"] == "sync"
        ws.send_bytes(b'{"type": "ping"}')  # a binary frame is read like a text frame
        assert ws.receive_json() == {"type": "pong", "v": 0}
        ws.send_text(" " * (MAX_MESSAGE + 1))
        assert "at most 4096 bytes" in frame_of(ws, "bad_message", None)["message"]
        assert ws.receive_json()["type"] == "sync"
    assert table.version == 0


@pytest.mark.parametrize(
    ("hello", "code", "field", "close"),
    [
        ({"type": "hello", "token": "ü" * 32}, "bad_token", "token", 4403),
        ({"type": "hello", "token": 5}, "bad_token", "token", 4403),
        ({"type": "hello", "token": "x" * 32}, "bad_token", "token", 4403),
        ({"type": "hello", "v": "0"}, "bad_message", "v", 4400),
        ({"type": "hello", "colour": 1}, "bad_message", "colour", 4400),
        ({"type": "ping"}, "bad_message", None, 4400),
    ],
)
def test_schema_a_bad_hello_closes_the_socket(
    client: TestClient, hello: dict[str, Any], code: str, field: str | None, close: int
) -> None:
    made = create(client, **TABLE)
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json(hello)
        frame_of(ws, code, field)
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == close


def test_schema_every_text_has_both_languages_and_every_refusal_is_in_the_family() -> None:
    kinds = (RequestError, NotFoundError, IllegalActionError, NotationError, OptionsError, RecordError)
    for key, text in refusals.TEXTS.items():
        en, ru = template("en", refusals.WORDS[key]), template("ru", refusals.WORDS[key])
        assert en and (CYRILLIC.search(ru) or ru == "{reason}"), key
        params = {name: "x" for name in re.findall(r"{(\w+)}", en + ru)}
        err = refusals.refuse(key, **params)
        assert isinstance(err, text.kind) and isinstance(err, kinds) and isinstance(err, KolodaError), key
        assert (err.code, err.status) == (text.code, text.status)
        # the only 5xx: the server's own record is bad, its database or other nodes cannot be reached, or
        # the coach's worker failed on it (an analysis, a hint)
        server_side = key in ("bad_record", "analysis_failed", "hint_failed") or err.code == "unavailable"
        assert 400 <= err.status < 500 or server_side
    for kind, key in refusals.REASONS.items():
        en, ru = template("en", key), template("ru", key)
        assert en and CYRILLIC.search(ru), kind
    for code, key in refusals.FAMILY.items():
        ru = template("ru", key)
        assert CYRILLIC.search(ru) and "{detail}" in ru, code


def test_schema_an_unwrapped_family_error_still_has_a_russian_message() -> None:
    body = refusals.body(OptionsError("option 'target' must be int, not 'x'", field="target"))
    assert body == {
        "error": "bad_options",
        "field": "target",
        "message": "option 'target' must be int, not 'x'",
        "message_ru": "правила заданы неверно: option 'target' must be int, not 'x'",
    }

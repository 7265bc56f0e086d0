"""Issue 31 over HTTP (TestClient): the rules pages, a table's agreements for them, the lessons page, the
service worker's shell, and the hint (POST /api/tables/ID/hint): refused as it should be, computed in a
worker process, once per table, seat and version, and noted in the table's record."""

from __future__ import annotations

import json
import os
import re
import time
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import create, hub

from koloda import lessons, rules
from koloda.web import hints


def data(html: str, element: str) -> Any:
    found = re.search(rf'<script id="{element}" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None, element
    return json.loads(found.group(1))


def test_a_rules_page_in_each_language(client: TestClient) -> None:
    for lang in ("ru", "en"):
        answer = client.get(f"/rules/thousand?lang={lang}")
        assert answer.status_code == 200
        html = answer.text
        assert f'<html lang="{lang}">' in html and rules.page("thousand", lang).html in html
        assert data(html, "koloda-page-data") == {
            "game": "thousand",
            "lang": lang,
            "rules": list(rules.page("thousand", lang).rules),
            "phases": rules.PHASE_RULES["thousand"],
        }
        assert "<script>" not in html and "style=" not in html  # nothing inline: the CSP allows none
        again = client.get(f"/rules/thousand?lang={lang}", headers={"If-None-Match": answer.headers["etag"]})
        assert again.status_code == 304
    assert client.get("/rules/bank").text == client.get("/rules/bank?lang=ru").text  # Russian, by default
    assert client.get("/rules/banki?table=7").status_code == 200  # the table's marks come from the API


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [
        ("/rules/chess", 404, "not_found"),
        ("/rules/bank?lang=de", 400, "bad_request"),
        ("/rules/bank?lang=ru&lang=en", 400, "bad_request"),
        ("/rules/bank?table=x", 400, "bad_request"),
        ("/rules/bank?page=2", 400, "bad_request"),
        ("/api/rules/chess", 404, "not_found"),
        ("/api/rules/bank?table=-1", 400, "bad_request"),
        ("/api/rules/bank?table=99", 404, "unknown_table"),
        ("/learn?lesson=cover", 400, "bad_request"),
    ],
)
def test_what_the_learning_pages_refuse(client: TestClient, path: str, status: int, code: str) -> None:
    answer = client.get(path)
    assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text


def test_a_tables_agreements_for_its_rules_page(client: TestClient) -> None:
    made = create(
        client,
        game="bank",
        players=2,
        preset="default",
        options={"seven": "none"},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}],
    )
    found = client.get(f"/api/rules/bank?table={made['id']}").json()
    assert found["phases"] == rules.PHASE_RULES["bank"]
    assert found["marks"] == {
        "en": [{"option": "seven", "rules": ["4.8"], "label": "After a 7", "value": "nothing happens"}],
        "ru": [
            {"option": "seven", "rules": ["4.8"], "label": "После семёрки", "value": "ничего не происходит"}
        ],
    }
    other = client.get(f"/api/rules/thousand?table={made['id']}").json()  # a Bank table: nothing to mark
    assert other["marks"] == {"en": [], "ru": []}
    assert client.get("/api/rules/banki").json() == {"phases": {}, "marks": {"en": [], "ru": []}}


def test_the_lessons_page_carries_every_lesson_played_through(client: TestClient) -> None:
    html = client.get("/learn").text
    found = data(html, "koloda-lessons")
    assert list(found) == ["bank", "thousand"]
    for game, every in found.items():
        assert [lesson["id"] for lesson in every["lessons"]] == [
            lesson.id for lesson in lessons.lessons(game)
        ]
        for lesson in every["lessons"]:
            for step in lesson["steps"]:
                legal = {action for action, _ in step["view"]["actions"]}
                assert step["play"] in legal and str(step["play"]) not in step["answers"]
                assert set(step["cards"]) == set(step["view"]["hand"]) or game == "thousand"
                for answer in step["answers"].values():
                    assert not answer["ok"] and answer["why"]["en"] and answer["why"]["ru"]
                for action, _text in step["offer"]:
                    assert action not in legal and not step["answers"][str(action)]["ok"]
            assert set(lesson["words"]) == {"en", "ru"}


def test_the_service_worker_keeps_the_rules_and_the_lessons(client: TestClient) -> None:
    worker = client.get("/sw.js").text
    shell = json.loads(re.search(r"const SHELL = (\[.*?\]);", worker).group(1))  # type: ignore[union-attr]
    for page in (
        "/rules/bank?lang=ru",
        "/rules/banki?lang=en",
        "/learn",
        "/static/rules.js",
        "/static/learn.js",
    ):
        assert page in shell
    assert 'if (first === "rules")' in worker


def _turn(client: TestClient, table: int, seat: int) -> None:
    for _ in range(400):
        room = hub(client).rooms.get(table)
        if room is not None and room.state.current_player == seat:
            return
        time.sleep(0.02)
    raise AssertionError("the bots never gave the seat its turn")


def test_a_hint_for_the_seat_to_move(client: TestClient) -> None:
    made = create(
        client,
        game="thousand",
        players=3,
        preset="default",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        seed=11,
    )
    table, token = made["id"], made["links"][0].split("token=")[1]
    client.get(f"/api/tables/{table}")
    _turn(client, table, 0)
    room = hub(client).rooms[table]
    version = room.version
    answer = client.post(f"/api/tables/{table}/hint", json={"token": token, "v": version})
    assert answer.status_code == 200, answer.text
    found = answer.json()
    assert found["action"] in room.state.legal_actions() and found["text"] == room.state.action_text(
        found["action"]
    )
    assert set(found) == {"action", "text", "words", "reason", "seat", "v"} and found["v"] == version
    assert found["reason"]["en"] and found["reason"]["ru"] and found["words"]["ru"]
    the_hints: hints.Hints = client.app.state.hints  # type: ignore[attr-defined]
    workers = list((the_hints._executor._processes or {}).values())  # type: ignore[union-attr]
    assert workers and all(worker.pid != os.getpid() for worker in workers)  # never on the event loop
    assert client.post(f"/api/tables/{table}/hint", json={"token": token}).json() == found
    assert the_hints.computed == 1  # asked again at the same version: the hint already computed
    assert hub(client).store.hints(table) == [
        {
            "seat": 0,
            "version": version,
            "action": found["text"],
            "created": hub(client).store.hints(table)[0]["created"],
        }
    ]
    closed = client.post(f"/api/tables/{table}/close", json={"token": token})
    assert closed.status_code == 200, closed.text
    record = json.loads(client.get(f"/api/tables/{table}/record").text)
    assert [(h["seat"], h["version"], h["action"]) for h in record["meta"]["hints"]] == [
        (0, version, found["text"])
    ]
    over = client.post(f"/api/tables/{table}/hint", json={"token": token})
    assert (over.status_code, over.json()["error"]) == (409, "game_over")


def test_what_a_hint_refuses(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    made = create(
        client,
        game="bank",
        players=2,
        preset="default",
        seats=[{"kind": "human"}, {"kind": "human"}],
        seed=3,
    )
    table = made["id"]
    tokens = [link.split("token=")[1] for link in made["links"]]
    client.get(f"/api/tables/{table}")
    room = hub(client).rooms[table]
    mover = room.state.current_player
    assert mover is not None
    waiting = tokens[1 - mover]

    def refused(body: dict[str, Any], status: int, code: str, where: int | str = table) -> None:
        answer = client.post(f"/api/tables/{where}/hint", json=body)
        assert (answer.status_code, answer.json()["error"]) == (status, code), answer.text

    refused({"token": waiting}, 409, "not_your_turn")
    refused({"token": "x" * 20}, 403, "bad_token")
    refused({"token": tokens[mover], "v": 5}, 409, "stale")
    refused({"token": tokens[mover], "seat": 0}, 400, "bad_request")
    refused({}, 400, "bad_request")
    refused({"token": tokens[mover]}, 404, "unknown_table", where=999)
    refused({"token": tokens[mover]}, 404, "unknown_table", where="٣")
    monkeypatch.setattr(hints, "hints_allowed", lambda room: False)  # a rated table (issue 30)
    refused({"token": tokens[mover]}, 403, "hints_rated")
    assert hub(client).store.hints(table) == []

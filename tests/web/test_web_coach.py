"""The coach in the web app (issue 17, docs/analysis.md "In the web app"): who may ask for a seat's analysis,
the analysis computed once in the worker process and then read from the store, and the table page's panel
showing the marks (Chromium)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.testclient import TestClient
from web_helpers import Server, create, csp_violations, hub, shot, tokens

from koloda.store.sql import SqlStore
from koloda.web.app import create_app
from koloda.web.coach import Coach

#: Few worlds a decision: the test is about the web app, not the coach's precision (tests/coach).
QUICK = {"batch": 8, "least": 8, "most": 8, "playouts": 64}
BOTS = [{"kind": "bot", "level": "easy"}] * 2


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[TestClient]:
    store = SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    app = create_app(store, bot_delay=0, coach_settings=QUICK)
    with TestClient(app, headers={"content-type": "application/json"}) as test_client:
        yield test_client


def finished(client: TestClient, table_id: int) -> None:
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{table_id}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.05)


def ask(client: TestClient, table_id: int | str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{table_id}/analysis", json=body)


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"] == code, response.text


def test_the_analysis_is_refused_for_unknown_tables_seats_tokens_and_games_in_play(quick: TestClient) -> None:
    refused(ask(quick, 999, {"seat": 0}), 404, "unknown_table")
    refused(ask(quick, "x7", {"seat": 0}), 404, "unknown_table")
    humans = create(quick, game="bank", players=2, seed=11, seats=[{"name": "Аня"}, {"name": "Боря"}])
    table = humans["id"]
    secret = tokens(quick, table)
    refused(ask(quick, table, {"seat": 0}), 403, "analysis_private")  # a private table, no token
    refused(ask(quick, table, {"seat": 1, "token": secret[0]}), 403, "bad_token")  # another seat's token
    refused(ask(quick, table, {"seat": 0, "token": "no-such-token"}), 403, "bad_token")
    refused(ask(quick, table, {"seat": 0, "token": "bad token!"}), 403, "bad_token")
    refused(ask(quick, table, {"seat": 5, "token": secret[0]}), 400, "bad_seat")
    refused(ask(quick, table, {"seat": 0, "token": secret[0]}), 409, "game_not_over")
    opened = create(quick, game="bank", players=2, seats=[{"kind": "human", "open": True}, BOTS[0]])
    refused(ask(quick, opened["id"], {"seat": 0}), 409, "game_not_over")  # public: no token needed


def test_a_finished_bot_game_is_analysed_once_then_read_from_the_store(quick: TestClient) -> None:
    made = create(quick, game="bank", players=2, seed=3, options={"target": 100}, seats=BOTS)
    table = made["id"]
    finished(quick, table)
    secret = tokens(quick, table)
    first = ask(quick, table, {"seat": 0, "token": secret[0]})
    assert first.status_code == 202 and first.json()["status"] in ("running", "waiting"), first.text
    deadline = time.monotonic() + 120
    answer = first
    while answer.status_code == 202:
        assert 0 <= answer.json()["done"] <= answer.json()["total"]
        assert time.monotonic() < deadline, "the analysis took too long"
        time.sleep(0.2)
        answer = ask(quick, table, {"seat": 0, "token": secret[0]})
    assert answer.status_code == 200, answer.text
    analysis = answer.json()["analysis"]
    assert analysis["game"] == "bank" and analysis["seat"] == 0 and analysis["moves"]
    moves = analysis["moves"]
    assert all(m["mark"] in ("", "?", "??") and m["value_best"] >= m["value_played"] for m in moves)
    coach: Coach = quick.app.state.coach  # type: ignore[attr-defined]
    assert coach.computed == 1
    assert hub(quick).store.load_analysis(table, 0, 0) == analysis
    again = ask(quick, table, {"seat": 0})  # an all-bot table is public: anyone may read it
    assert again.status_code == 200 and again.json()["analysis"] == analysis
    assert coach.computed == 1  # served from the store, not computed again


def test_the_table_page_shows_the_marks_and_the_better_moves(server: Server, browser: Any) -> None:
    match = {"game": "bank", "players": 2, "seed": 3, "options": {"target": 100}, "seats": BOTS}
    table = httpx.post(server.url + "/api/tables", json=match).json()["id"]
    deadline = time.monotonic() + 60
    while not httpx.get(f"{server.url}/api/tables/{table}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    # The page is what is tested here: the analysis is put in the store as the worker would have.
    moves = [
        {"index": 3, "action": "KS", "best": "KS", "value_played": 1.0, "value_best": 1.0, "mark": ""},
        {"index": 7, "action": "draw", "best": "9H", "value_played": -4.0, "value_best": 8.5, "mark": "?"},
        {"index": 9, "action": "pass", "best": "AD", "value_played": -20.0, "value_best": 12.0, "mark": "??"},
    ]
    analysis = {"game": "bank", "seat": 0, "seed": 0, "moves": moves, "unrated": 0}
    store = SqlStore(f"sqlite:///{server.db}")
    store.save_analysis(table, 0, 0, analysis)
    store.close()
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.extend(csp_violations([message])))
    try:
        page.goto(f"{server.url}/table/{table}")  # an all-bot table is public: a spectator may ask
        page.wait_for_selector("#end:not(.hidden)", timeout=15_000)
        page.click("#end-close")
        page.wait_for_selector("#coach-panel:not(.hidden)", timeout=15_000)
        page.click("#coach-ask")
        page.wait_for_function("() => document.body.dataset.coach === '3'", timeout=15_000)
        items = page.locator("#coach li")
        assert items.count() == 3
        assert page.locator("#coach li[data-mark='??']").count() == 1
        assert (
            page.locator("#coach li.blunder").count() == 1 and page.locator("#coach li.mistake").count() == 1
        )
        blunder = page.text_content("#coach li.blunder") or ""
        assert "??" in blunder and "(-32.0)" in blunder, blunder
        shot(page, "coach-marks")
    finally:
        context.close()
    assert not errors, errors

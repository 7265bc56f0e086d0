"""A game registered from outside koloda (``toy.py``) gets every front end with no code of its own: the
terminal's ``simulate`` and ``replay``, a web table played by bots to its end, and tournaments."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import toy
from starlette.testclient import TestClient

from koloda import registry
from koloda.bots.tournament import run_tournament
from koloda.cli import main
from koloda.store.sql import SqlStore
from koloda.web.app import create_app


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    registry.register(toy.SPEC)
    try:
        yield
    finally:
        registry.unregister("toy")


def test_conformance_toy_simulate_and_replay_in_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["toy", "simulate", "--deals", "40", "--players", "3", "--seed", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["game"] == "toy" and figures["deals"] == 40 and figures["actions"] >= 40 * 3
    assert sum(figures["mean_points"]) == pytest.approx(1.0)  # one point a deal, to the highest card
    state = toy.SPEC.new_game(players=2, seed=4)
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    path = tmp_path / "toy.json"
    state.record().save(path)
    assert main(["toy", "replay", str(path), "--lang", "en"]) == 0
    assert capsys.readouterr().out.strip() == f"High card: {' '.join(map(str, state.returns()))}"
    assert main(["toy", "simulate", "--players", "5"]) == 2
    assert "toy is played by 2, 3 players, not 5" in capsys.readouterr().err


def _frames_until_over(ws: Any, limit: int = 500) -> dict[str, Any]:
    ws.send_json({"type": "hello", "token": None, "v": -1})
    for _ in range(limit):
        frame: dict[str, Any] = ws.receive_json()
        if frame.get("table", {}).get("over"):
            return frame
    raise AssertionError("the toy table never ended")


def test_conformance_toy_gets_a_web_table_played_to_its_end(tmp_path: Path) -> None:
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=0)
    with TestClient(app) as client:
        games = client.get("/api/games").json()
        assert games["toy"]["title"] == {"ru": "Старшая карта", "en": "High card"}
        assert games["toy"]["presets"] == ["default", "no-swaps"]
        bots = [{"kind": "bot", "level": level} for level in ("easy", "hard")]
        made = client.post("/api/tables", json={"game": "toy", "players": 2, "seed": 3, "seats": bots})
        assert made.status_code == 201, made.text
        with client.websocket_connect(f"/ws/{made.json()['id']}") as ws:
            over = _frames_until_over(ws)
        assert over["view"]["seat"] is None and max(over["returns"]) == toy.ToyOptions().target
        assert over["scores"] == {"names": ["Bot 1", "Bot 2"], "returns": over["returns"]}
        refused = client.post("/api/tables", json={"game": "toy", "players": 4})
        assert refused.status_code == 400 and refused.json()["field"] == "players"


def test_conformance_toy_plays_a_duplicate_tournament() -> None:
    result = run_tournament("toy", ["random", "medium"], players=2, deals=20, seed=1)
    summary = result.summary()
    assert summary["game"] == "toy" and summary["deals"] == 20
    assert set(summary["bots"]) == {"random", "medium"}
    # one point a deal between the two seats, in every rotation of every deal
    assert all(sum(scores) == 1 for deal in result.points for scores in deal)


def test_conformance_toy_table_page_plays_in_chromium(tmp_path: Path) -> None:
    """The table page draws a game it does not know: its observation and a button per legal action."""
    import socket
    import threading
    import time

    import uvicorn

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=0.05)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
        request = {"game": "toy", "players": 2, "seed": 7, "seats": seats}
        link = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=request).json()["links"][0]
        errors: list[str] = []
        outcome: list[BaseException] = []

        def drive() -> None:  # in a thread of its own: Playwright's sync API wants no running event loop
            try:
                play_the_page(f"http://127.0.0.1:{port}{link}", errors)
            except BaseException as exc:
                outcome.append(exc)

        driver = threading.Thread(target=drive)
        driver.start()
        driver.join(timeout=120)
        if outcome:
            raise outcome[0]
        assert errors == []
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def play_the_page(url: str, errors: list[str]) -> None:
    """Open a seat's link in Chromium and play its moves by clicking until the game is over."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        for _ in range(toy.ToyOptions().target * 3):  # one move of ours a deal; a deal scores a point
            page.wait_for_function(
                # a function, not a string: the page's Content-Security-Policy forbids eval
                "() => document.body.dataset.myturn === '1' || document.body.dataset.over === '1'",
                timeout=15000,
            )
            if page.evaluate("document.body.dataset.over") == "1":
                break
            before = page.evaluate("document.body.dataset.v")
            page.locator("#actions button.act").first.click()
            page.wait_for_function(f"() => document.body.dataset.v !== '{before}'", timeout=15000)
        assert page.evaluate("document.body.dataset.over") == "1"
        assert "points" in page.text_content("#zones")
        browser.close()

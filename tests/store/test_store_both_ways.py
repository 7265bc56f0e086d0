"""The terminal and the browser keep their score sheets and banki games in the same store of the same
data directory: a game started in one goes on in the other, both ways, even with both open at once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from store_helpers import feed

from koloda.cli import main
from koloda.store.open import open_store
from koloda.store.paths import DB_NAME
from koloda.web.app import create_app

# Deals as typed at the terminal's prompts: declarer, bid, bomb?, card points of two players (the third
# gets the rest of 120), marriages of each player.
ANYA_MAKES_120 = ["Аня", "120", "н", "85", "25", "60", "", ""]  # Аня +120, Боря +30 (25), Вера +10
BORYA_FAILS_100 = ["Боря", "100", "н", "34", "70", "", "", ""]  # Аня +30 (34), Боря −100, Вера +20 (16)
VERA_BOMB = {"declarer": "Вера", "bid": 110, "bomb": True}  # the same, as the browser sends it
ANYA_120_JSON = {
    "declarer": "Аня",
    "bid": 120,
    "points": {"Аня": 85, "Боря": 25, "Вера": 10},
    "marriages": {"Аня": [60]},
}
BORYA_100_JSON = {"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}}


@pytest.fixture
def browser(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """The web app over the data directory's store (what ``koloda serve`` opens), open all along."""
    monkeypatch.setenv("KOLODA_DATA_DIR", str(tmp_path / "data"))
    with TestClient(create_app(open_store(), bot_delay=60)) as client:
        yield client
    assert (tmp_path / "data" / DB_NAME).exists()


def terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], command: list[str], lines: list[str]
) -> str:
    """Run a koloda command that reads ``lines`` as typed; what it printed."""
    capsys.readouterr()
    feed(monkeypatch, lines)
    assert main(command) == 0
    return capsys.readouterr().out


def sheet(client: TestClient, sheet_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/sheets/{sheet_id}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


EDIT_KEY = "koloda-edit-key"


def link_key(out: str, page: str) -> str:
    """The edit key in the edit link of ``page`` that a terminal command printed (koloda.web.editkeys)."""
    found = re.search(rf"http://127\.0\.0\.1:8000{page}#key=([A-Za-z0-9_-]{{32}})\b", out)
    assert found, out
    return found.group(1)


def totals(data: dict[str, Any]) -> list[int]:
    return [series[-1] for series in data["chart"]["series"]]


def test_a_sheet_started_in_the_terminal_goes_on_in_the_browser_and_back(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = terminal(monkeypatch, capsys, ["thousand", "sheet"], ["Аня, Боря, Вера", *ANYA_MAKES_120])
    assert "koloda thousand sheet --sheet 1" in out  # the terminal closed after the first deal
    assert [(s["id"], s["deals"]) for s in browser.get("/api/sheets").json()] == [(1, 1)]
    assert totals(sheet(browser, 1)) == [120, 30, 10]
    # the terminal printed the sheet's edit link: the browser that opens it keeps the key
    key = link_key(out, "/sheet/1")
    refused = browser.post("/api/sheets/1/deals", json=BORYA_100_JSON)
    assert refused.status_code == 403 and refused.json()["error"] == "bad_edit_key"
    answer = browser.post("/api/sheets/1/deals", json=BORYA_100_JSON, headers={EDIT_KEY: key})
    assert answer.status_code == 200 and totals(answer.json()) == [150, -70, 30]
    out = terminal(monkeypatch, capsys, ["thousand", "sheet", "--resume"], ["Вера", "110", "д"])
    assert out.startswith("Продолжаем игру 1.")
    # the sheet drawn as a table (issue 29), each deal's scores on its row
    assert re.search(
        r"^ +2 +Боря 100 — не выполнил.* \+30 \(34\) → 150 +−100 → −70 +\+20 \(16\) → 30$", out, re.M
    )
    assert re.search(r"^ +3 +Вера 110 — бомба +\+60 → 210 +\+60 → −10 +0 → 30$", out, re.M)
    assert "|---|" not in out
    assert sheet(browser, 1)["deals"] == 3 and totals(sheet(browser, 1)) == [210, -10, 30]


def test_a_sheet_started_in_the_browser_goes_on_in_the_terminal_and_back(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    made = browser.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"], "preset": "home"})
    assert made.status_code == 201
    key = {EDIT_KEY: made.json()["key"]}
    browser.post(f"/api/sheets/{made.json()['id']}/deals", json=ANYA_120_JSON, headers=key)
    out = terminal(monkeypatch, capsys, ["thousand", "sheet", "--resume"], BORYA_FAILS_100)
    assert out.startswith("Продолжаем игру 1.") and re.search(
        r"^ +1 +Аня 120 — выполнила .*\+120 → 120", out, re.M
    )
    assert link_key(out, "/sheet/1") == made.json()["key"]  # the same sheet, the same key
    assert totals(sheet(browser, 1)) == [150, -70, 30]
    assert browser.post("/api/sheets/1/deals", json=VERA_BOMB, headers=key).json()["deals"] == 3
    out = terminal(monkeypatch, capsys, ["thousand", "sheet", "--resume", "--lang", "en"], ["undo"])
    assert "The last deal was taken back." in out
    assert totals(sheet(browser, 1)) == [150, -70, 30]


def test_sheet_id_picks_any_sheet_and_resume_the_last_unfinished(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for players in (["Аня", "Боря", "Вера"], ["Аня", "Боря", "Вера"], ["Гена", "Дина"]):
        assert browser.post("/api/sheets", json={"players": players}).status_code == 201
    out = terminal(monkeypatch, capsys, ["thousand", "sheet", "--sheet", "1"], ANYA_MAKES_120)
    assert out.startswith("Продолжаем игру 1.")
    assert [s["deals"] for s in browser.get("/api/sheets").json()] == [0, 0, 1]  # newest first
    assert terminal(monkeypatch, capsys, ["thousand", "sheet", "--resume"], []).startswith(
        "Продолжаем игру 3."
    )
    capsys.readouterr()
    assert main(["thousand", "sheet", "--sheet", "9"]) == 2
    assert capsys.readouterr().err.startswith("koloda: error: no score sheet 9 in ")
    assert main(["thousand", "sheet", "--sheet", "1", "--preset", "russian"]) == 2
    assert "drop --preset/--option" in capsys.readouterr().err


def test_a_banki_game_goes_from_the_terminal_to_the_phone_and_back(
    browser: TestClient, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["Ann", "Bob", "Cat", "Dan"]
    out = terminal(
        monkeypatch, capsys, ["banki", "new", *names, "--seed", "4"], ["kick Ann 9", "kick Bob 12"]
    )
    game = browser.get("/api/banki/1").json()
    assert game["names"] == names and game["view"]["history"] == ["kick Ann 9", "kick Bob 12"]
    key = {EDIT_KEY: link_key(out, "/banki/1")}
    for event in ("kick Cat 4", "kick Dan 7"):
        assert browser.post("/api/banki/1/events", json={"event": event}, headers=key).status_code == 200
    out = terminal(monkeypatch, capsys, ["banki", "resume"], ["hit Bob"])
    assert "driver: Cat (private)" in out  # the kicks entered on the phone
    assert browser.get("/api/banki/1").json()["view"]["history"][-1] == "hit Bob"
    # a game started on the phone: resume takes the newest unfinished one, --game any
    made = browser.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 3})
    assert made.json()["id"] == 2
    terminal(monkeypatch, capsys, ["banki", "resume", "--lang", "ru"], ["kick Аня 7"])
    terminal(monkeypatch, capsys, ["banki", "resume", "--game", "1"], ["reset"])
    assert browser.get("/api/banki/2").json()["view"]["history"] == ["kick Аня 7"]
    assert browser.get("/api/banki/1").json()["view"]["history"][-2:] == ["hit Bob", "reset"]

"""Score sheets and banki games on the web (issue 28): every change needs the edit key given once at
creation (a stranger who knows the id changes nothing), the database's failures are 503 on every path of
them, as at the tables, and the lists are read a page at a time off the event loop from the summaries
kept with each sheet, never by scoring every sheet."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import EDIT_KEY, app_client, editing, hub

from koloda.errors import StoreError
from koloda.store.sql import SqlStore
from koloda.thousand.scoring import ScoreBook

NAMES = ["Аня", "Боря", "Вера"]
DEAL = {"declarer": "Аня", "bid": 120, "points": {"Аня": 85, "Боря": 25, "Вера": 10}}
BANKI = {"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 3}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    yield from app_client(tmp_path, bot_delay=3600)


def made(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = client.post(path, json=body)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def refused(answer: Any, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    data: dict[str, Any] = answer.json()
    assert data["error"] == code and data["message"] and data["message_ru"], data
    return data


# -- (3) edit keys ------------------------------------------------------------------------------------------


def test_a_sheet_is_changed_only_with_its_edit_key(app: TestClient) -> None:
    sheet = made(app, "/api/sheets", {"players": NAMES})
    key = sheet["key"]
    assert len(key) == 32 and sheet["link"] == f"/sheet/{sheet['id']}#key={key}"
    deals, undo = f"/api/sheets/{sheet['id']}/deals", f"/api/sheets/{sheet['id']}/undo"
    assert app.post(deals, json=DEAL, headers=editing(sheet)).status_code == 200
    for headers in ({}, {EDIT_KEY: "x" * 32}, {EDIT_KEY: key[:-1]}, {EDIT_KEY: "not a key"}):
        for path, body in ((deals, DEAL), (undo, None)):
            data = refused(app.post(path, json=body, headers=headers), 403, "bad_edit_key")
            assert data["field"] == "Koloda-Edit-Key" and str(sheet["id"]) in data["message"]
            assert data["message_ru"] != data["message"]
    assert "did not carry" in refused(app.post(deals, json=DEAL), 403, "bad_edit_key")["message"]
    wrong = app.post(deals, json=DEAL, headers={EDIT_KEY: "x" * 32})
    assert "not the edit key" in wrong.json()["message"]
    kept = app.get(f"/api/sheets/{sheet['id']}").json()  # reads stay public, and show no key
    assert kept["deals"] == 1 and key not in str(kept) and "key" not in kept
    assert key not in app.get("/api/sheets").text
    undone = app.post(undo, headers=editing(sheet))
    assert undone.status_code == 200 and undone.json()["deals"] == 0
    refused(app.post("/api/sheets/99/deals", json=DEAL, headers=editing(sheet)), 404, "unknown_sheet")


def test_a_banki_game_is_changed_only_with_its_edit_key(app: TestClient) -> None:
    game = made(app, "/api/banki", BANKI)
    events, undo = f"/api/banki/{game['id']}/events", f"/api/banki/{game['id']}/undo"
    assert game["link"] == f"/banki/{game['id']}#key={game['key']}"
    kick = {"event": "kick Аня 7"}
    assert app.post(events, json=kick, headers=editing(game)).status_code == 200
    other = made(app, "/api/banki", BANKI)
    for headers in ({}, editing(other), {EDIT_KEY: ""}):
        refused(app.post(events, json=kick, headers=headers), 403, "bad_edit_key")
        refused(app.post(undo, headers=headers), 403, "bad_edit_key")
    assert app.get(f"/api/banki/{game['id']}").json()["view"]["history"] == ["kick Аня 7"]
    assert (
        game["key"] not in app.get("/api/banki").text
        and game["key"] not in app.get(f"/api/banki/{game['id']}").text
    )
    assert app.post(undo, headers=editing(game)).json()["view"]["history"] == []


def test_the_answer_that_gives_a_key_is_never_kept_by_a_cache(app: TestClient) -> None:
    for path, body in (("/api/sheets", {"players": NAMES}), ("/api/banki", BANKI)):
        answer = app.post(path, json=body)
        assert answer.status_code == 201 and answer.headers["cache-control"] == "no-store"
        assert app.get(f"{path}/{answer.json()['id']}").headers.get("cache-control") != "no-store"


def test_the_key_is_sent_in_a_header_only(app: TestClient) -> None:
    """Never in the address: a key in the query string is an unknown parameter, refused, and changes
    nothing (addresses are kept in logs and histories)."""
    sheet = made(app, "/api/sheets", {"players": NAMES})
    answer = app.post(f"/api/sheets/{sheet['id']}/deals?key={sheet['key']}", json=DEAL)
    assert answer.status_code == 400 and app.get(f"/api/sheets/{sheet['id']}").json()["deals"] == 0


# -- (4) the database's failures -------------------------------------------------------------------------


def failing(store: SqlStore, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store's method ``name`` fails as a full disk makes SQLite fail."""

    def fail(*args: Any, **kwargs: Any) -> None:
        raise StoreError(f"cannot write to the database {store.location}: database or disk is full")

    monkeypatch.setattr(store, name, fail)


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("add_sheet_deal", "/api/sheets/1/deals", DEAL),
        ("remove_sheet_deal", "/api/sheets/1/undo", None),
        ("add_banki_event", "/api/banki/1/events", {"event": "kick Вера 5"}),
        ("remove_banki_event", "/api/banki/1/undo", None),
        ("load_sheet", "/api/sheets/1/deals", DEAL),
        ("load_banki", "/api/banki/1", None),
        ("sheet_page", "/api/sheets", None),
        ("create_sheet", "/api/sheets", {"players": NAMES}),
        ("create_banki", "/api/banki", BANKI),
    ],
)
def test_a_write_the_database_cannot_take_is_503_and_changes_nothing(
    app: TestClient, monkeypatch: pytest.MonkeyPatch, method: str, path: str, body: Any
) -> None:
    sheet = made(app, "/api/sheets", {"players": NAMES})
    game = made(app, "/api/banki", BANKI)
    headers = editing(sheet) if "sheets/" in path else editing(game)
    assert app.post("/api/sheets/1/deals", json=DEAL, headers=editing(sheet)).is_success
    assert app.post("/api/banki/1/events", json={"event": "kick Аня 7"}, headers=editing(game)).is_success
    store = hub(app).store
    before = store.load_sheet(1), store.load_banki(1), store.sheet_ids(), store.banki_ids()
    assert isinstance(store, SqlStore)
    failing(store, method, monkeypatch)
    answer = (
        app.get(path)
        if body is None and not path.endswith("undo")
        else app.post(path, json=body, headers=headers)
    )
    data = refused(answer, 503, "unavailable")
    assert "full" in data["message"] and "try again" in data["message"]
    monkeypatch.undo()
    assert (store.load_sheet(1), store.load_banki(1), store.sheet_ids(), store.banki_ids()) == before


def test_a_full_disk_is_503_for_a_sheet_then_the_entry_goes_in_with_no_restart(tmp_path: Path) -> None:
    """SQLite's ``max_page_count`` stands for a full disk (as in test_web_faults.py): the deal that needs
    a page more is refused as ``unavailable`` (the phone keeps it and sends it again), never ``bad_record``
    (which it would file as refused); once there is room, the same entry goes in."""
    import contextlib
    import sqlite3

    import sqlalchemy as sa

    store = SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    limit = {"pages": 1_000_000}
    engine = store._engine
    assert engine is not None

    @sa.event.listens_for(engine, "connect")
    def small_disk(dbapi_connection: Any, record: Any) -> None:
        dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

    from koloda.web.app import create_app

    with TestClient(
        create_app(store, bot_delay=3600), headers={"content-type": "application/json"}
    ) as client:
        sheet = made(client, "/api/sheets", {"players": NAMES})
        with contextlib.closing(sqlite3.connect(tmp_path / "web.sqlite3", isolation_level=None)) as db:
            db.execute("VACUUM")
            limit["pages"] = int(db.execute("PRAGMA page_count").fetchone()[0])
        engine.dispose()
        headers = {**editing(sheet), "Idempotency-Key": "phone-0001"}
        answers: list[int] = []
        for n in range(400):  # until the file must grow (each declarer fails: the game goes on)
            failed = {
                "declarer": NAMES[n % 3],
                "bid": 120,
                "points": dict(zip(NAMES, (85, 25, 10), strict=True)),
            }
            answer = client.post(f"/api/sheets/{sheet['id']}/deals", json=failed, headers=headers)
            answers.append(answer.status_code)
            if answer.status_code != 200:
                break
            headers["Idempotency-Key"] = f"phone-{len(answers):04d}"
        data = refused(answer, 503, "unavailable")
        assert "full" in data["message"]
        stored = client.get(f"/api/sheets/{sheet['id']}").json()["deals"]
        limit["pages"] = 1_000_000
        engine.dispose()
        again = client.post(f"/api/sheets/{sheet['id']}/deals", json=failed, headers=headers)
        assert again.status_code == 200 and again.json()["deals"] == stored + 1
        assert again.json()["entry"]["again"] is False


# -- (5) the lists: a page at a time, off the loop, nothing scored ------------------------------------------


def count_calls(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls: list[int] = []
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def test_the_list_of_sheets_scores_nothing_and_comes_a_page_at_a_time(
    app: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheets = [made(app, "/api/sheets", {"players": NAMES}) for _ in range(5)]
    for sheet in sheets[:3]:
        for _ in range(3):
            assert app.post(f"/api/sheets/{sheet['id']}/deals", json=DEAL, headers=editing(sheet)).is_success
    app.get("/api/sheets")  # the sheets made with no deal yet: scored once, and their summary kept
    scored = count_calls(monkeypatch, ScoreBook, "apply")
    listed = app.get("/api/sheets").json()
    assert scored == []  # every total from the summaries kept with the sheets
    assert [sheet["id"] for sheet in listed] == [5, 4, 3, 2, 1]
    totals = [series[-1] for series in app.get("/api/sheets/1").json()["chart"]["series"]]
    assert listed[-1] | {"created": None} == {
        "id": 1, "players": NAMES, "deals": 3, "totals": totals, "over": False, "created": None,
    }  # fmt: skip
    assert listed[0]["deals"] == 0 and listed[0]["totals"] == [0, 0, 0]
    assert [sheet["id"] for sheet in app.get("/api/sheets?limit=2").json()] == [5, 4]
    assert [sheet["id"] for sheet in app.get("/api/sheets?limit=2&before=4").json()] == [3, 2]
    assert [sheet["id"] for sheet in app.get("/api/sheets?before=2").json()] == [1]
    assert app.get("/api/sheets?before=1").json() == []
    for bad in ("limit=0", "limit=101", "limit=x", "before=-1", "limit=2&limit=3", "page=2"):
        refused(app.get(f"/api/sheets?{bad}"), 400, "bad_request")
    assert [game["id"] for game in app.get("/api/banki?limit=1").json()] == []


def test_the_summary_follows_every_change_made_in_the_terminal_too(app: TestClient) -> None:
    """``koloda thousand sheet`` writes through koloda.thousand.sheet.terminal.Sheet, which keeps the
    summary too: the web's list shows the terminal's deals and undos."""
    from koloda.thousand.options import ThousandOptions
    from koloda.thousand.scoring import DealInput
    from koloda.thousand.sheet.scorefile import Player
    from koloda.thousand.sheet.terminal import Sheet

    store = hub(app).store
    sheet = Sheet.new(store, [Player.named(name) for name in NAMES], ThousandOptions())
    app.get("/api/sheets")
    sheet.add(DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())))
    sheet.add(DealInput(declarer=1, bid=100, bomb=True))
    two = list(sheet.book.totals)
    assert app.get("/api/sheets").json()[0] | {"created": None} == {
        "id": sheet.game_id, "players": NAMES, "deals": 2, "totals": two, "over": False, "created": None,
    }  # fmt: skip
    sheet.undo()
    assert app.get("/api/sheets").json()[0]["totals"] == list(sheet.book.totals) != two


def loop_thread(client: TestClient) -> int:
    ident: int = client.portal.call(threading.get_ident)  # type: ignore[union-attr]
    return ident


@pytest.mark.parametrize(
    "request_of",
    [
        lambda c, s, g: c.get("/api/sheets"),
        lambda c, s, g: c.get(f"/api/sheets/{s['id']}"),
        lambda c, s, g: c.get(f"/api/sheets/{s['id']}/export/md"),
        lambda c, s, g: c.post(f"/api/sheets/{s['id']}/deals", json=DEAL, headers=editing(s)),
        lambda c, s, g: c.post(f"/api/sheets/{s['id']}/undo", headers=editing(s)),
        lambda c, s, g: c.post("/api/sheets", json={"players": NAMES}),
        lambda c, s, g: c.get("/api/banki"),
        lambda c, s, g: c.get(f"/api/banki/{g['id']}"),
        lambda c, s, g: c.post(
            f"/api/banki/{g['id']}/events", json={"event": "kick Аня 7"}, headers=editing(g)
        ),
        lambda c, s, g: c.post(f"/api/banki/{g['id']}/undo", headers=editing(g)),
        lambda c, s, g: c.post("/api/banki", json=BANKI),
    ],
)
def test_the_sheets_and_banki_games_are_read_and_written_off_the_event_loop(
    app: TestClient, monkeypatch: pytest.MonkeyPatch, request_of: Callable[..., Any]
) -> None:
    sheet = made(app, "/api/sheets", {"players": NAMES})
    game = made(app, "/api/banki", BANKI)
    app.post(f"/api/sheets/{sheet['id']}/deals", json=DEAL, headers=editing(sheet))
    app.post(f"/api/banki/{game['id']}/events", json={"event": "kick Вера 5"}, headers=editing(game))
    threads: list[int] = []
    for name in ("reading", "transaction"):
        original = getattr(SqlStore, name)

        def recorded(self: SqlStore, *args: Any, original: Any = original, **kwargs: Any) -> Any:
            threads.append(threading.get_ident())
            return original(self, *args, **kwargs)

        monkeypatch.setattr(SqlStore, name, recorded)
    answer = request_of(app, sheet, game)
    assert answer.is_success, answer.text
    assert threads and loop_thread(app) not in threads

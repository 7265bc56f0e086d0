"""The Thousand score sheet API: scored by koloda.thousand, stored deal by deal, undo, exports, the chart's
lines, and bad input refused with the reason and nothing stored."""

from __future__ import annotations

from starlette.testclient import TestClient
from web_helpers import EDIT_KEY, editing

from koloda.thousand.sheet.scorefile import parse_score_file

DEALS = [
    {
        "declarer": "Аня",
        "bid": 120,
        "points": {"Аня": 85, "Боря": 25, "Вера": 10},
        "marriages": {"Аня": [60]},
    },
    {"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}},
    {"declarer": "Вера", "bid": 110, "bomb": True},
]


def new_sheet(client: TestClient, preset: str = "home") -> tuple[int, dict[str, str]]:
    """A new sheet: its id and the headers that change it (its edit key)."""
    made = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"], "preset": preset})
    assert made.status_code == 201, made.text
    sheet_id: int = made.json()["id"]
    return sheet_id, editing(made.json())


def test_deals_are_scored_stored_undone_and_exported(client: TestClient) -> None:
    sheet_id, key = new_sheet(client)
    for deal in DEALS:
        sheet = client.post(f"/api/sheets/{sheet_id}/deals", json=deal, headers=key).json()
    assert sheet["chart"]["series"] == [[0, 120, 150, 210], [0, 30, -70, -10], [0, 10, 30, 30]]
    assert sheet["chart"]["line_800"] == 800 and sheet["chart"]["barrel"] is None
    assert sheet["ru"]["rows"][1][1] == "Боря 100 — не выполнил (70)"
    assert client.get(f"/api/sheets/{sheet_id}").json() == sheet  # stored: the same sheet read back
    jsonl = client.get(f"/api/sheets/{sheet_id}/export/jsonl").text
    assert parse_score_file(jsonl).book.totals == (210, -10, 30)
    csv = client.get(f"/api/sheets/{sheet_id}/export/csv?lang=en").text
    assert csv.splitlines()[0].startswith("deal,game,Аня: points")
    markdown = client.get(f"/api/sheets/{sheet_id}/export/md").text
    assert "| 3 | Вера 110 — бомба | +60 → 210 | +60 → −10 | 0 → 30 |" in markdown
    undone = client.post(f"/api/sheets/{sheet_id}/undo", headers=key).json()
    assert undone["deals"] == 2 and undone["chart"]["series"][0] == [0, 120, 150]
    listed = client.get("/api/sheets").json()
    assert [(s["deals"], s["totals"], s["over"]) for s in listed] == [(2, [150, -70, 30], False)]
    assert EDIT_KEY not in str(listed) and key[EDIT_KEY] not in str(listed)  # the list shows no key


def test_the_new_sheet_form_offers_the_options_the_scoring_reads(client: TestClient) -> None:
    """The form's options are the scoring's (rules S1-S13, and G10's ace marriage): a play-only option
    (must-beat, the redeals) is not asked on a sheet of real cards; the sheet still takes one."""
    offer = client.get("/api/sheets/options").json()
    assert offer["presets"] == ["home", "tournament", "russian"]
    names = [row["name"] for row in offer["schema"]]
    assert {"rounding", "rule_800", "barrel", "bombs_per_game", "bid_step", "ace_marriage"} <= set(names)
    assert not {"must_beat", "redeal_four_nines", "max_deals"} & set(names)
    assert all(
        row["label"] and (row["rule"].startswith("S") or row["rule"] == "G10") for row in offer["schema"]
    )
    assert offer["preset_values"]["tournament"]["rounding"] == "tournament"
    made = client.post(
        "/api/sheets", json={"players": ["Аня", "Боря", "Вера"], "options": {"must_beat": "led"}}
    )
    assert made.status_code == 201 and made.json()["source"]["options"]["must_beat"] == "led"


def test_the_barrel_is_drawn_when_the_rules_have_it(client: TestClient) -> None:
    sheet = client.get(f"/api/sheets/{new_sheet(client, 'russian')[0]}").json()
    assert sheet["chart"]["barrel"] == 880 and sheet["chart"]["line_800"] is None  # russian: no 800 rule


def test_bad_input_is_refused_and_nothing_stored(client: TestClient) -> None:
    sheet_id, key = new_sheet(client)
    path = f"/api/sheets/{sheet_id}/deals"
    bad_deals = [
        {"declarer": "Аня", "bid": 95, "points": {"Аня": 85, "Боря": 25, "Вера": 10}},
        {"declarer": "Ваня", "bid": 100, "points": {}},
        {"declarer": "Аня", "bid": 100, "points": {"Аня": 85}},
        {"declarer": "Аня", "bid": 100, "bomb": True, "points": {}},
        {"declarer": "Аня", "bid": 100, "colour": "red"},
        [1, 2],
    ]
    for deal in bad_deals:
        refused = client.post(path, json=deal, headers=key)
        assert refused.status_code == 400 and refused.json()["error"] == "bad_deal", (deal, refused.text)
    ru = client.post(path, json=bad_deals[0], headers=key).json()
    assert "95" in ru["message"] and ru["message_ru"] and ru["message_ru"] != ru["message"]
    assert client.post(path, content=b"{", headers=key).json()["error"] == "bad_json"
    assert client.post(f"/api/sheets/{sheet_id}/undo", headers=key).json()["error"] == "nothing_to_undo"
    assert client.get(f"/api/sheets/{sheet_id}").json()["deals"] == 0
    assert client.get(f"/api/sheets/{sheet_id}/export/pdf").json()["error"] == "bad_format"
    assert client.get(f"/api/sheets/{sheet_id}/export/md?lang=fr").json()["error"] == "bad_request"
    assert client.get("/api/sheets/42").status_code == 404
    assert client.post(f"/api/sheets/{sheet_id}/dance", headers=key).status_code == 404
    for body in (
        {"players": ["Аня"]},
        {"players": ["Аня", "Аня"]},
        {"players": "Аня"},
        {"players": ["A", "B"], "x": 1},
    ):
        refused = client.post("/api/sheets", json=body)
        assert refused.status_code == 400, body
    assert (
        client.post("/api/sheets", json={"players": ["A", "B"], "preset": "x"}).json()["error"]
        == "bad_options"
    )
    assert len(client.get("/api/sheets").json()) == 1

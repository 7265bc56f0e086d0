"""Entries sent with an idempotency key (docs/web.md, "Offline"): a phone that syncs an entry twice stores
it once, in the score sheet and the banki referee; a bad key or a key of another entry is refused and
changes nothing."""

from __future__ import annotations

from starlette.testclient import TestClient
from test_web_sheet import DEALS, new_sheet
from web_helpers import editing


def test_a_deal_sent_twice_with_its_key_is_stored_once(client: TestClient) -> None:
    sheet_id, edit = new_sheet(client)
    url = f"/api/sheets/{sheet_id}/deals"
    first = client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-a-0001", **edit})
    assert first.status_code == 200 and first.json()["entry"] == {
        "key": "phone-a-0001",
        "seq": 1,
        "again": False,
    }
    second = client.post(url, json=DEALS[1], headers={"Idempotency-Key": "phone-a-0002", **edit}).json()
    again = client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-a-0001", **edit})
    assert again.status_code == 200, again.text
    assert again.json()["entry"] == {"key": "phone-a-0001", "seq": 1, "again": True}
    assert again.json()["deals"] == second["deals"] == 2
    assert client.get(f"/api/sheets/{sheet_id}").json()["deals"] == 2
    # without a key the API answers as it always did, and every POST is a new deal
    plain = client.post(url, json=DEALS[2], headers=edit)
    assert "entry" not in plain.json() and plain.json()["deals"] == 3


def test_a_banki_event_sent_twice_with_its_key_is_stored_once(client: TestClient) -> None:
    made = client.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 3}).json()
    url = f"/api/banki/{made['id']}/events"
    for _ in range(3):
        headers = {"Idempotency-Key": "yard-0001", **editing(made)}
        answer = client.post(url, json={"event": "kick Аня 7"}, headers=headers)
        assert answer.status_code == 200, answer.text
    assert answer.json()["entry"] == {"key": "yard-0001", "seq": 1, "again": True}
    assert client.get(f"/api/banki/{made['id']}").json()["view"]["history"] == ["kick Аня 7"]


def test_a_bad_key_or_another_entrys_key_is_refused_and_nothing_stored(client: TestClient) -> None:
    (sheet_id, edit), (other, other_edit) = new_sheet(client), new_sheet(client)
    bad = client.post(
        f"/api/sheets/{sheet_id}/deals", json=DEALS[0], headers={"Idempotency-Key": "a b", **edit}
    )
    assert bad.status_code == 400 and bad.json()["error"] == "bad_key", bad.text
    assert bad.json()["field"] == "Idempotency-Key"
    client.post(
        f"/api/sheets/{sheet_id}/deals", json=DEALS[0], headers={"Idempotency-Key": "kkkk-0001", **edit}
    )
    reused = client.post(
        f"/api/sheets/{other}/deals", json=DEALS[0], headers={"Idempotency-Key": "kkkk-0001", **other_edit}
    )
    assert reused.status_code == 409 and reused.json()["error"] == "key_reused", reused.text
    assert "kkkk-0001" in reused.json()["message_ru"]
    assert client.get(f"/api/sheets/{other}").json()["deals"] == 0
    # a refused deal leaves its key unused: the same key with a corrected deal is stored
    headers = {"Idempotency-Key": "kkkk-0002", **other_edit}
    wrong = client.post(f"/api/sheets/{other}/deals", json={"declarer": "Гоша"}, headers=headers)
    assert wrong.status_code == 400
    right = client.post(f"/api/sheets/{other}/deals", json=DEALS[0], headers=headers)
    assert right.json()["entry"]["again"] is False and right.json()["deals"] == 1


def test_an_entry_without_the_edit_key_is_refused_before_its_idempotency_key_is_looked_at(
    client: TestClient,
) -> None:
    """A stranger who replays a phone's entry (its idempotency key) without the sheet's edit key learns
    nothing from the answer, and stores nothing."""
    sheet_id, edit = new_sheet(client)
    url = f"/api/sheets/{sheet_id}/deals"
    assert client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-b-0001", **edit}).is_success
    replayed = client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-b-0001"})
    assert replayed.status_code == 403 and replayed.json()["error"] == "bad_edit_key"
    assert "entry" not in replayed.json() and client.get(f"/api/sheets/{sheet_id}").json()["deals"] == 1

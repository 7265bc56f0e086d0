"""Entries sent with an idempotency key (docs/web.md, "Offline"): a phone that syncs an entry twice stores
it once, in the score sheet and the banki referee; a bad key or a key of another entry is refused and
changes nothing."""

from __future__ import annotations

from starlette.testclient import TestClient
from test_web_sheet import DEALS, new_sheet


def test_a_deal_sent_twice_with_its_key_is_stored_once(client: TestClient) -> None:
    sheet_id = new_sheet(client)
    url = f"/api/sheets/{sheet_id}/deals"
    first = client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-a-0001"})
    assert first.status_code == 200 and first.json()["entry"] == {
        "key": "phone-a-0001",
        "seq": 1,
        "again": False,
    }
    second = client.post(url, json=DEALS[1], headers={"Idempotency-Key": "phone-a-0002"}).json()
    again = client.post(url, json=DEALS[0], headers={"Idempotency-Key": "phone-a-0001"})
    assert again.status_code == 200, again.text
    assert again.json()["entry"] == {"key": "phone-a-0001", "seq": 1, "again": True}
    assert again.json()["deals"] == second["deals"] == 2
    assert client.get(f"/api/sheets/{sheet_id}").json()["deals"] == 2
    # without a key the API answers as it always did, and every POST is a new deal
    plain = client.post(url, json=DEALS[2])
    assert "entry" not in plain.json() and plain.json()["deals"] == 3


def test_a_banki_event_sent_twice_with_its_key_is_stored_once(client: TestClient) -> None:
    made = client.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 3}).json()
    url = f"/api/banki/{made['id']}/events"
    for _ in range(3):
        answer = client.post(url, json={"event": "kick Аня 7"}, headers={"Idempotency-Key": "yard-0001"})
        assert answer.status_code == 200, answer.text
    assert answer.json()["entry"] == {"key": "yard-0001", "seq": 1, "again": True}
    assert client.get(f"/api/banki/{made['id']}").json()["view"]["history"] == ["kick Аня 7"]


def test_a_bad_key_or_another_entrys_key_is_refused_and_nothing_stored(client: TestClient) -> None:
    sheet_id, other = new_sheet(client), new_sheet(client)
    bad = client.post(f"/api/sheets/{sheet_id}/deals", json=DEALS[0], headers={"Idempotency-Key": "a b"})
    assert bad.status_code == 400 and bad.json()["error"] == "bad_key", bad.text
    assert bad.json()["field"] == "Idempotency-Key"
    client.post(f"/api/sheets/{sheet_id}/deals", json=DEALS[0], headers={"Idempotency-Key": "kkkk-0001"})
    reused = client.post(
        f"/api/sheets/{other}/deals", json=DEALS[0], headers={"Idempotency-Key": "kkkk-0001"}
    )
    assert reused.status_code == 409 and reused.json()["error"] == "key_reused", reused.text
    assert "kkkk-0001" in reused.json()["message_ru"]
    assert client.get(f"/api/sheets/{other}").json()["deals"] == 0
    # a refused deal leaves its key unused: the same key with a corrected deal is stored
    wrong = client.post(
        f"/api/sheets/{other}/deals", json={"declarer": "Гоша"}, headers={"Idempotency-Key": "kkkk-0002"}
    )
    assert wrong.status_code == 400
    right = client.post(f"/api/sheets/{other}/deals", json=DEALS[0], headers={"Idempotency-Key": "kkkk-0002"})
    assert right.json()["entry"]["again"] is False and right.json()["deals"] == 1

"""The table page's own check of a fair shuffle (static/fair.js) in a real Chromium: the browser deals
again from the secret exactly as koloda does, and at the end of a match checks what it saw."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import Server, checked_page

from koloda import seeds, verify
from koloda.game import GameRecord
from koloda.registry import get
from koloda.store.sql import SqlStore

BOTS = [{"kind": "bot", "level": "easy"}]
SECRET = "9d" * 32


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from checked_page(browser, {"width": 1280, "height": 800})


def table(server: Server, game: str, players: int, deals: int) -> tuple[int, list[str]]:
    made = httpx.post(
        server.url + "/api/tables",
        json={"game": game, "players": players, "options": {"max_deals": deals}, "seats": BOTS * players},
        timeout=10,
    )
    assert made.status_code == 201, made.text
    store = SqlStore(f"sqlite:///{server.db}")
    try:
        links = [seat.token for seat in store.load_table(made.json()["id"]).seats]
    finally:
        store.close()
    return made.json()["id"], links


@pytest.mark.parametrize(("game", "players"), [("bank", 2), ("bank", 4), ("thousand", 3), ("thousand", 4)])
def test_the_browser_deals_from_a_secret_exactly_as_koloda_does(
    server: Server, page: Any, game: str, players: int
) -> None:
    spec = get(game)
    state = spec.new_game(players=players, seed=SECRET)
    rng = random.Random(3)
    while not state.is_over() and state.version < 300:
        state.apply(rng.choice(state.legal_actions()))
    report = verify.check(state.record())
    assert len(report.deals) >= 2
    page.goto(server.url + "/table/0")  # any page that loads fair.js
    for deal in report.deals:
        hands = page.evaluate(
            "([game, secret, deal, players]) => fairHands(game, secret, deal, players)",
            [game, SECRET, deal.to_json(), players],
        )
        for seat in deal.seats:
            assert sorted(hands[seat]) == sorted(deal.hands[seat]), (deal.number, seat)
    assert page.evaluate("(s) => fairCommitment(s)", SECRET) == seeds.commitment(SECRET)


def test_at_the_end_of_a_match_the_page_checks_every_hand_it_saw(server: Server, page: Any) -> None:
    table_id, links = table(server, "thousand", 3, 2)
    page.goto(f"{server.url}/table/{table_id}?token={links[0]}")  # the page follows seat 0 (a bot's)
    deadline = time.monotonic() + 120
    while not httpx.get(f"{server.url}/api/tables/{table_id}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page.wait_for_selector("#fair-check:not(.hidden)", timeout=15_000)
    if page.is_visible("#end-close"):
        page.click("#end-close")
    page.click("#fair-check")
    page.wait_for_function("() => document.body.dataset.fair", timeout=15_000)
    assert page.evaluate("document.body.dataset.fair") == "ok", page.text_content("#fair-result")
    text = page.text_content("#fair-result") or ""
    assert "Проверено" in text and "koloda verify" in text and "увиденных с начала и проверенных" in text
    record = httpx.get(f"{server.url}/api/tables/{table_id}/record").json()
    assert verify.check(GameRecord.from_json(record), record["meta"]["commitment"]).ok


def test_the_page_sees_a_secret_that_does_not_deal_what_it_saw(server: Server, page: Any) -> None:
    # The check is not vacuous: a hand this browser remembers that the secret does not deal is caught.
    table_id, links = table(server, "bank", 2, 3)
    page.goto(f"{server.url}/table/{table_id}?token={links[1]}")
    deadline = time.monotonic() + 120
    while not httpx.get(f"{server.url}/api/tables/{table_id}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page.wait_for_selector("#fair-check:not(.hidden)", timeout=15_000)
    starts = {
        d["number"]: d["version"]
        for d in httpx.get(f"{server.url}/api/tables/{table_id}/fairness").json()["deals"]
    }
    # one card changed in a hand the page saw from the deal's start (a deal first seen in its middle is not
    # checked, so changing it would prove nothing)
    changed = page.evaluate(
        """([id, starts]) => {
          const key = `koloda.fair.${id}.1`;
          const data = JSON.parse(localStorage.getItem(key));
          const number = Object.keys(data.hands).find((n) => data.hands[n].v === starts[n]);
          if (number === undefined) return null;
          const hand = data.hands[number].hand;
          hand[0] = ["6S", "7S", "8S", "9S", "10S"].find((card) => !hand.includes(card));
          localStorage.setItem(key, JSON.stringify(data));
          return number;
        }""",
        [table_id, starts],
    )
    assert changed is not None, "the page saw no deal from its start"
    if page.is_visible("#end-close"):
        page.click("#end-close")
    page.click("#fair-check")
    page.wait_for_function("() => document.body.dataset.fair", timeout=15_000)
    assert page.evaluate("document.body.dataset.fair") == "bad"
    assert "не те, что даёт ключ" in (page.text_content("#fair-result") or "")

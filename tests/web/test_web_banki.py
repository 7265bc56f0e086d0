"""The banki referee page (issue 8): games stored event by event, refusals with the referee's reason in
both languages, undo, and the page on a phone in a real Chromium."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from starlette.testclient import TestClient
from web_helpers import Server, editing, shot

from koloda.store.sql import SqlStore
from koloda.web.app import create_app

NAMES = ["Аня", "Боря", "Вера", "Гена"]


def new(client: TestClient, **extra: Any) -> dict[str, Any]:
    """A new game as its creation answered (its ``key`` too: :func:`web_helpers.editing`)."""
    response = client.post("/api/banki", json={"names": NAMES, "seed": 3, **extra})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def test_a_game_is_refereed_event_by_event_and_kept(client: TestClient, tmp_path: Path) -> None:
    game = new(client)
    assert game["suggestions"] == [] and game["templates"] == [f"kick {name}" for name in NAMES]
    assert "Аня" in game["ru"]["describe"] and game["en"]["next"]
    for name, metres in zip(NAMES, ("7", "11", "9", "3"), strict=True):
        event = {"event": f"kick {name} {metres}"}
        answer = client.post(f"/api/banki/{game['id']}/events", json=event, headers=editing(game))
        assert answer.status_code == 200, answer.text
    kept = client.get(f"/api/banki/{game['id']}").json()
    assert len(kept["view"]["history"]) == 4 and kept["view"]["driver"] == NAMES.index("Гена")
    assert "seed" not in kept["view"]  # the seed would tell the counting-out in advance
    undone = client.post(f"/api/banki/{game['id']}/undo", headers=editing(game)).json()
    assert len(undone["view"]["history"]) == 3
    listed = client.get("/api/banki").json()
    assert [(g["id"], g["names"]) for g in listed] == [(game["id"], NAMES)] and game["key"] not in str(listed)


def test_refusals_name_the_reason_and_store_nothing(client: TestClient) -> None:
    game = new(client)
    path = f"/api/banki/{game['id']}/events"
    key = editing(game)
    refused = client.post(path, json={"event": "hit Аня"}, headers=key)
    body = refused.json()
    assert refused.status_code == 400 and body["error"] == "bad_event"
    assert body["message"] != body["message_ru"] and "hit" in body["message"]
    for bad in ({"event": "kick Никто 5"}, {"event": ""}, {"event": 5}, [1]):
        assert client.post(path, json=bad, headers=key).status_code == 400
    assert client.post(path, content=b"{", headers=key).json()["error"] == "bad_json"
    assert client.post(f"/api/banki/{game['id']}/undo", headers=key).json()["error"] == "nothing_to_undo"
    assert client.get(f"/api/banki/{game['id']}").json()["view"]["history"] == []
    assert client.get("/api/banki/77").status_code == 404
    assert client.post("/api/banki", json={"names": ["Аня", "Боря"]}).json()["error"] == "bad_options"
    assert (
        client.post("/api/banki", json={"names": NAMES, "preset": "paris"}).json()["error"] == "bad_options"
    )


def test_a_new_server_on_the_same_database_carries_on(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with TestClient(create_app(SqlStore(url))) as first:
        game = new(first)
        first.post(f"/api/banki/{game['id']}/events", json={"event": "kick Аня 7"}, headers=editing(game))
    with TestClient(create_app(SqlStore(url))) as second:
        assert second.get(f"/api/banki/{game['id']}").json()["view"]["history"] == ["kick Аня 7"]


def test_the_referee_page_on_a_phone(server: Server, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/banki")
        page.fill("#names", ", ".join(NAMES))
        page.click("#start")
        page.wait_for_selector("button.chip")
        page.click("button.chip[data-word='kick']")  # taps go word by word; the last fills the line
        page.click("button.chip[data-word='Аня']")
        page.click("button.chip[data-template='kick Аня']")
        assert page.input_value("#event") == "пинок Аня "  # the page's words (issue 20)
        page.click("button.chip[data-metres='7']")  # the metres tapped too
        assert page.input_value("#event") == "пинок Аня 7"
        page.click("#send")
        page.wait_for_function("() => document.body.dataset.events === '1'")
        page.click("button.chip[data-word='kick']")
        page.evaluate("render()")  # the server's answer may redraw the page between two taps: they stay
        page.click("button.chip[data-word='Боря']")
        page.click("button.chip[data-template='kick Боря']")
        page.fill("#event", "пинок Боря 5.5")  # or typed
        page.click("#send")
        page.wait_for_function("() => document.body.dataset.events === '2'")
        page.fill("#event", "hit Аня")
        page.click("#send")
        page.wait_for_function("() => document.getElementById('event-error').textContent.length > 0")
        assert page.evaluate("document.body.dataset.events") == "2"
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        shot(page, "phone-banki")
    finally:
        context.close()


# Every event the page lists is reached by taps, word by word, each button inside a phone's screen width.
REACH = """() => {
  const width = window.innerWidth;
  const visible = (button) => {
    const box = button.getBoundingClientRect();
    return box.width > 0 && box.left >= 0 && box.right <= width;
  };
  const tap = (selector) => {
    const button = [...document.querySelectorAll('#chips button')].find((b) => b.matches(selector));
    if (!button || !visible(button)) throw new Error('no button ' + selector);
    button.click();
  };
  const unreachable = [];
  const lists = [
    [game.suggestions, 'event', game.ru.suggestions],
    [game.templates, 'template', game.ru.templates],
  ];
  for (const [list, key, said] of lists) {
    for (const [at, text] of list.entries()) {
      try {
        while (document.querySelector('#chips button[data-back]')) tap('[data-back]');
        for (const word of text.split(' ')) tap(`[data-word="${word}"]`);
        tap(`[data-${key}="${text}"]`);
        const value = document.getElementById('event').value;
        if (value.trim() !== said[at]) unreachable.push(text + ' -> ' + value);  // in the page's words
      } catch (error) {
        unreachable.push(text + ': ' + error.message);
      }
    }
  }
  while (document.querySelector('#chips button[data-back]')) tap('[data-back]');
  return {unreachable, events: game.suggestions.length, templates: game.templates.length};
}"""


def test_every_event_is_a_few_taps_away_on_a_phone_with_30_players(server: Server, browser: Any) -> None:
    """Issue 16: with 30 players (the most a game takes, rule G1) every event the referee would accept is
    reached by taps at phone size: the kicks (the metres typed), a fresh round's throws, joins and leaves,
    and the race back's every back, tag, knock, foul and crossed stick."""
    names = [f"P{i}" for i in range(1, 31)]
    base = server.url + "/api/banki"
    made = httpx.post(base, json={"names": names, "seed": 5}, timeout=10).json()
    game = f"{base}/{made['id']}"
    key = editing(made)
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        counts = []
        for stage in ("kick", "throw", "race"):
            if stage == "throw":  # everyone kicks a different distance: P1 drives, P30 throws first
                for i, name in enumerate(names):
                    httpx.post(
                        f"{game}/events", json={"event": f"kick {name} {i + 1}"}, headers=key, timeout=10
                    )
            if stage == "race":
                order = httpx.get(game, timeout=10).json()["view"]["order"]
                for seat in order:
                    httpx.post(
                        f"{game}/events", json={"event": f"miss {names[seat]}"}, headers=key, timeout=10
                    )
            # the edit link the first time (the page keeps the key and takes it out of the address)
            page.goto(server.url + (made["link"] if stage == "kick" else f"/banki/{made['id']}"))
            page.wait_for_selector("#chips button")
            result = page.evaluate(REACH)
            assert result["unreachable"] == [], (stage, result["unreachable"][:5])
            counts.append((result["events"], result["templates"]))
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert counts[0] == (0, 30)  # one kick each
        assert counts[1][0] >= 2 + 30 and counts[2][0] > 29 * 8  # throws, leaves; backs and every tag
        page.click("button.chip[data-word='tag']")  # and a real tap, as a thumb does it
        page.click("button.chip[data-word='P2']")
        page.click("button.chip[data-word='hand']")
        page.click("button.chip[data-word='heel']")
        page.click("button.chip[data-event='tag P2 hand heel']")
        page.click("#send")
        page.wait_for_function("() => document.body.dataset.events === '60'")
        shot(page, "phone-banki-30")
    finally:
        context.close()


def test_the_new_game_form_offers_every_option(server: Server, browser: Any) -> None:
    """Issue 16: the form offers every option of BankiOptions beside the preset, filled with its values."""
    from koloda.banki import BankiOptions

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/banki")
        page.wait_for_selector("#banki-options [data-option]", state="attached")
        names = "els => els.map(e => e.dataset.option)"
        shown = page.eval_on_selector_all("#banki-options [data-option]", names)
        assert shown == [row["name"] for row in BankiOptions.schema()]
        assert page.eval_on_selector_all("#banki-preset option", "els => els.map(e => e.value)") == [
            "moscow", "chelyabinsk", "moscow-stick-in-hand", "cards",
        ]  # fmt: skip
        page.select_option("#banki-preset", "cards")
        assert page.input_value("[data-option='ranks']").startswith("nine, ten")
        page.click("#banki-options >> xpath=..")  # open the details
        page.fill("[data-option='max_players']", "10")
        page.fill("#names", "Аня, Боря, Вера, Гена")
        page.click("#start")
        page.wait_for_url("**/banki/*")
        game = httpx.get(server.url + "/api/banki/1", timeout=10).json()
        assert game["view"]["options"]["ranks"][0] == "nine" and game["view"]["options"]["max_players"] == 10
    finally:
        context.close()

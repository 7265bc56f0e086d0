"""The browser's words come from the server's translation catalog: every page embeds the words of both
languages (koloda.web.app.page_html), revalidated by its ETag; the scripts read them and hold none. A
refusal's Russian message is the engine's own Russian where the engine's message has a translation."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from starlette.testclient import TestClient
from web_helpers import Server, create, editing, hub, tokens

from koloda.i18n import LANGS, say, words

PAGES = ["/", "/table/1", "/sheet", "/sheet/1", "/banki", "/banki/1"]
LATIN_WORDS = re.compile(r"\b(bad|illegal|unknown|expected|refused|must|not|option)\b")


def embedded(html: str) -> dict[str, dict[str, str]]:
    found = re.search(r'<script id="koloda-words" type="application/json">(.*?)</script>', html, re.S)
    assert found, "the page embeds no words"
    data: dict[str, dict[str, str]] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("path", PAGES)
def test_every_page_gets_the_words_of_both_languages_from_the_catalog(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert embedded(page.text) == {lang: words(lang) for lang in LANGS}
    assert words("ru")["web.newTable"] == "Новый стол" and words("en")["web.newTable"] == "New table"
    assert page.headers["cache-control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304 and not again.content  # a page the browser has is not sent again


def test_the_browser_shows_the_servers_words_in_both_languages(server: Server, browser: Any) -> None:
    page = browser.new_page()
    try:
        page.goto(server.url + "/")
        page.wait_for_selector("#seats .seat-row")
        page.select_option("#game", "thousand")
        # a rule's control: its label and help in the page's language, its rule, the raw key as small code
        bombs = ".option:has([data-option='bombs_per_game'])"
        for lang in LANGS:  # Russian first (the default), then English after a click on the switch
            if lang == "en":
                page.click("#lang")
            assert page.evaluate("t('web.newTable')") == say(lang, "web.newTable")
            assert page.text_content("h2") == say(lang, "web.newTable")
            assert page.text_content("#lang") == say(lang, "web.otherLang")
            assert page.evaluate("t('bank.bonus.7.3', {place: 2})") == say(lang, "bank.bonus.7.3", place=2)
            label = page.text_content(f"{bombs} label")
            assert label == f"{say(lang, 'option.thousand.bombs_per_game')} § S7 bombs_per_game", label
            assert page.text_content(f"{bombs} .help") == say(lang, "option.thousand.bombs_per_game.help")
        assert words("ru")["option.thousand.bombs_per_game"] == "Бомб за игру"
        assert words("en")["option.thousand.bombs_per_game"] == "Bombs per game"
    finally:
        page.close()


def test_an_options_refusal_is_russian_in_russian(client: TestClient) -> None:
    body = {"game": "bank", "players": 2, "options": {"targt": 9}}
    refused = client.post("/api/tables", json=body).json()
    assert refused["error"] == "bad_options" and "did you mean 'target'" in refused["message"]
    assert refused["message_ru"].startswith("неизвестный параметр 'targt'"), refused
    combination = client.post("/api/tables", json={"game": "bank", "players": 2, "options": {"target": 0}})
    assert combination.json()["message_ru"] == "параметр 'target' — число очков больше нуля, а не 0"


def test_a_refused_event_and_a_refused_deal_are_russian_in_russian(client: TestClient) -> None:
    made = client.post("/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 1}).json()
    game, key = made["id"], editing(made)
    refused = client.post(f"/api/banki/{game}/events", json={"event": "hit Аня"}, headers=key).json()
    assert refused["error"] == "bad_event" and refused["message"].startswith("'hit Аня': ")
    assert refused["message_ru"].startswith("'hit Аня': ") and not LATIN_WORDS.search(refused["message_ru"])
    garbled = client.post(f"/api/banki/{game}/events", json={"event": "прыг Аня"}, headers=key).json()
    assert garbled["message_ru"].startswith("неизвестное событие «прыг»"), garbled
    sheet = client.post("/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}).json()
    deal = {"declarer": "Гена", "bid": 100, "points": {"Аня": 60, "Боря": 40, "Вера": 20}}
    stranger = client.post(f"/api/sheets/{sheet['id']}/deals", json=deal, headers=editing(sheet)).json()
    assert stranger["message_ru"] == "играющий 'Гена' — не игрок (Аня, Боря, Вера)", stranger


def test_an_illegal_move_at_the_table_is_russian_in_russian(client: TestClient) -> None:
    made = create(client, game="bank", players=2, seed=11, seats=[{"name": "Аня"}, {"name": "Боря"}])
    table = hub(client).rooms[made["id"]]
    mover = table.state.current_player
    assert mover is not None
    with client.websocket_connect(f"/ws/{made['id']}") as ws:
        ws.send_json({"type": "hello", "token": tokens(client, made["id"])[mover]})
        assert ws.receive_json()["type"] == "sync"
        for action, code in (("9Z", "bad_action"), ("pass", "illegal")):
            ws.send_json({"type": "act", "v": table.version, "action": action})
            frame = ws.receive_json()
            assert (frame["type"], frame["code"]) == ("error", code), frame
            assert re.search("[а-яё]", frame["message_ru"]) and not LATIN_WORDS.search(frame["message_ru"]), (
                frame
            )
            assert ws.receive_json()["type"] == "sync"

"""Every page as people see it (issue 20): a walk through the lobby, a Bank table and a Thousand table in each
phase of a deal, the score sheet and the banki referee; at each stop the page is shown at phone size
(390x844) and desktop size in Russian and English, photographed (for a person to look at; docs/web.md shows
the phone ones) into $KOLODA_SCREENS when it is set, else into screens/ in the test run's temporary directory
(pytest's --basetemp chooses it), and scanned by axe-core (axe-playwright-python): no serious
or critical violation of WCAG 2.1 AA or of axe's best practices. The cards stay readable: in a full hand
at phone size no card hides another's index."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_helpers import Server, editing

from koloda.i18n import say

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1200, "height": 900}
SIZES = {"phone": PHONE, "desktop": DESKTOP}
STEP_MS = 15_000
#: Where a person finds the screenshots when this is set; else they go into the run's temporary directory.
SCREENS_VAR = "KOLODA_SCREENS"


@pytest.fixture
def screens(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory of the screenshots ($KOLODA_SCREENS, else screens/ in the test run's tmp)."""
    chosen = os.environ.get(SCREENS_VAR)
    folder = Path(chosen) if chosen else tmp_path_factory.getbasetemp() / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


class Walk:
    """Shows one page in each size and language at each stop: screenshots, the axe scan, its findings."""

    def __init__(self, page: Any, screens: Path) -> None:
        from axe_playwright_python.sync_playwright import Axe

        self.page = page
        self.screens = screens
        self.axe = Axe()
        self.found: list[str] = []
        self.stops: list[str] = []

    def language(self, lang: str) -> None:
        if self.page.evaluate("document.documentElement.lang") != lang:
            self.page.evaluate("document.getElementById('lang').click()")  # a dialog may be open
            self.page.wait_for_function("l => document.documentElement.lang === l", arg=lang)

    def stop(self, name: str) -> None:
        self.stops.append(name)
        for lang in ("ru", "en"):
            self.language(lang)
            for size, viewport in SIZES.items():
                self.page.set_viewport_size(viewport)
                self.page.wait_for_timeout(350)  # the layout settles; a card's arrival is over
                width = self.page.evaluate("document.documentElement.scrollWidth")
                wide = self.page.evaluate(WIDE, viewport["width"]) if width > viewport["width"] else []
                assert width <= viewport["width"], (name, size, width, wide)  # nothing wider than the screen
                cut = self.page.evaluate(CUT_LINKS)
                assert cut == [], (name, size, lang, cut)  # the header's links are read whole
                self.page.screenshot(path=str(self.screens / f"{name}-{size}-{lang}.png"), full_page=True)
                results = self.axe.run(self.page, options={"runOnly": {"type": "tag", "values": TAGS}})
                for violation in results.response["violations"]:
                    if violation["impact"] in ("serious", "critical"):
                        targets = [node["target"] for node in violation["nodes"]][:3]
                        self.found.append(f"{name} {size} {lang}: {violation['id']} {targets}")
        self.language("ru")
        self.page.set_viewport_size(DESKTOP)


#: The header's links whose text does not fit (cut with an ellipsis).
CUT_LINKS = """[...document.querySelectorAll('header.bar > a')]
  .filter((a) => a.scrollWidth > a.clientWidth + 1).map((a) => a.textContent)"""

#: The elements that reach past the right edge of the screen (to say which, when one does).
WIDE = """(width) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > width + 0.5)
  .map((e) => `${e.tagName}.${e.className}#${e.id} ${Math.round(e.getBoundingClientRect().right)}`)
  .slice(0, 8)"""


def index_hidden(page: Any) -> list[str]:
    """The cards of the hand whose index (rank over suit) another card covers, at the index's centre."""
    hidden: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card')].filter((card) => {
            const box = card.querySelector('.idx').getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return !hit || hit.closest('.card') !== card;
        }).map((card) => card.dataset.card)"""
    )
    return hidden


#: Cards put into the seat's hand and drawn by the page's own render(), every third one unplayable (the
#: others offered as moves, never sent): a full hand of 12, and Bank's hand grown by a taken bank.
DEAL_HAND = """(cards) => {
  msg.view.hand = cards;
  msg.view.actions = cards.filter((c, i) => i % 3).map((c, i) => [90000 + i, c]);
  render();
}"""
FULL_HAND = ["6S", "10S", "QS", "AS", "7C", "10C", "KC", "9D", "10D", "JD", "8H", "10H"]
GROWN_HAND = [*FULL_HAND, "7S", "8S", "9S", "JS", "KS", "6C", "8C", "9C", "JC", "QC", "AC", "6D", "7D", "8D"]


def play_until(page: Any, done: str, on_turn: Any) -> None:
    """Play this seat's moves (``on_turn(phase)`` chooses and may stop by returning False) until ``done``."""
    for _ in range(200):
        page.wait_for_function(f"() => document.body.dataset.myturn === '1' || ({done})", timeout=STEP_MS)
        if page.evaluate(done):
            return
        before = page.evaluate("document.body.dataset.v")
        if on_turn(page.evaluate("document.body.dataset.phase")) is False:
            return
        page.wait_for_function(
            "v => document.body.dataset.v !== v || document.body.dataset.lastError",
            arg=before,
            timeout=STEP_MS,
        )
    raise AssertionError("the deal did not end")


def click_first_legal(page: Any) -> None:
    cards = page.locator(".hand .card.legal[data-action]")
    (cards.first if cards.count() else page.locator("#actions button[data-action]").first).click()


def table(server: Server, game: str, players: int, seed: int, **extra: Any) -> str:
    seats = [{"kind": "human", "name": "Аня"}] + [{"kind": "bot", "level": "easy"}] * (players - 1)
    body = {"game": game, "players": players, "seed": seed, "seats": seats, **extra}
    made = httpx.post(server.url + "/api/tables", json=body, timeout=10)
    assert made.status_code == 201, made.text
    return server.url + made.json()["links"][0]


def test_every_page_at_both_sizes_in_both_languages(server: Server, browser: Any, screens: Path) -> None:
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    walk = Walk(page, screens)
    try:
        # the lobby, with one table listed and a free seat to sit in
        seats = [
            {"kind": "human", "name": "Аня"},
            {"kind": "human", "open": True},  # open to the lobby: it has a join button
            {"kind": "bot", "level": "hard"},
        ]
        httpx.post(
            server.url + "/api/tables", json={"game": "bank", "players": 3, "seats": seats}, timeout=10
        )
        page.goto(server.url + "/")
        page.wait_for_selector("#seats .seat-row")
        page.wait_for_selector("button.join")
        walk.stop("lobby")

        # Bank: a full hand of 12 at phone size (2 players), the first moves, the deal's end
        page.goto(table(server, "bank", 2, seed=11, options={"trumps": "own"}))
        page.wait_for_selector("body[data-v]")
        page.wait_for_function("() => document.body.dataset.myturn === '1'", timeout=STEP_MS)
        walk.stop("bank")
        # a full hand of 12 at phone size, the tens among them: every index in sight, every card tappable
        page.set_viewport_size(PHONE)
        for cards in (FULL_HAND, GROWN_HAND):
            page.evaluate(DEAL_HAND, cards)
            page.wait_for_timeout(200)
            assert page.locator("#hand .card").count() == len(cards) and index_hidden(page) == []
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
            page.locator("#hand-panel").screenshot(path=str(screens / f"bank-hand-{len(cards)}-phone-ru.png"))
        page.reload()  # the seat's real hand again
        page.wait_for_function("() => document.body.dataset.myturn === '1'", timeout=STEP_MS)
        page.set_viewport_size(DESKTOP)
        moves = {"n": 0}

        def bank_turn(phase: str) -> bool:
            moves["n"] += 1
            if moves["n"] == 4:
                walk.stop("bank-play")
            click_first_legal(page)
            return True

        play_until(page, "Number(document.body.dataset.results) >= 1", bank_turn)
        page.wait_for_selector("#scores table tbody tr")
        walk.stop("bank-deal-over")

        # Thousand: the auction (the compulsory 100), the talon and the contract, the gifts, the tricks
        page.goto(table(server, "thousand", 3, seed=4))
        page.wait_for_selector("body[data-v]")
        seen: set[str] = set()

        def thousand_turn(phase: str) -> bool:
            if phase not in seen:
                seen.add(phase)
                if phase == "giving":  # the declarer's 10 cards after the talon, at phone size
                    page.set_viewport_size(PHONE)
                    page.wait_for_timeout(200)
                    assert page.locator("#hand .card").count() == 10 and index_hidden(page) == []
                    page.set_viewport_size(DESKTOP)
                walk.stop(f"thousand-{phase}")
                if phase == "contract":  # the bomb gives the deal up: outlined, and asked first
                    before = page.evaluate("document.body.dataset.v")
                    page.click("#actions button.secondary[data-action]")
                    page.wait_for_selector("dialog.confirm[open]")
                    walk.stop("thousand-bomb")
                    page.click("#confirm-no")
                    assert page.evaluate("document.body.dataset.v") == before  # nothing sent
            if phase in ("bidding", "contract"):
                page.click("#bid-button")  # always bid: the talon, the gifts and the contract are ours
            elif phase == "giving":
                page.locator(".hand .card.legal[data-gift]").first.click()
                page.locator("#actions button[data-action]").first.click()
            else:
                click_first_legal(page)
            return True

        play_until(page, "Number(document.body.dataset.results) >= 1", thousand_turn)
        assert {"bidding", "giving", "contract", "playing"} <= seen, seen
        page.wait_for_selector("#scores table tbody tr")
        walk.stop("thousand-deal-over")

        # the score sheet: three deals entered, the 800 line explained, undo asked first
        sheet = httpx.post(server.url + "/api/sheets", json={"players": ["Аня", "Боря", "Вера"]}, timeout=10)
        sheet_id = sheet.json()["id"]
        for deal in (
            {
                "declarer": "Аня",
                "bid": 120,
                "points": {"Аня": 85, "Боря": 25, "Вера": 10},
                "marriages": {"Аня": [60]},
            },
            {"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}},
            {"declarer": "Вера", "bid": 110, "bomb": True},
        ):
            httpx.post(
                f"{server.url}/api/sheets/{sheet_id}/deals",
                json=deal,
                headers=editing(sheet.json()),
                timeout=10,
            )
        page.goto(server.url + "/sheet")
        page.wait_for_selector("#sheets li")
        walk.stop("sheet-list")
        page.goto(f"{server.url}/sheet/{sheet_id}")  # without the key: watching, nothing to change
        page.wait_for_selector("#sheet-table tbody tr")
        assert page.is_visible("#view-only") and not page.is_visible("#deal-panel")
        walk.stop("sheet-watching")
        page.goto(server.url + sheet.json()["link"])  # the edit link: the key kept, out of the address
        page.wait_for_selector("#sheet-table tbody tr")
        page.wait_for_selector("#deal-panel:not(.hidden)")
        assert "#" not in page.url
        walk.stop("sheet")
        page.click("#share-button")
        assert page.input_value("#share-link") == server.url + sheet.json()["link"]
        walk.stop("sheet-share")
        page.click("#share-button")
        page.click("#undo")
        page.wait_for_selector("dialog.confirm[open]")
        walk.stop("sheet-undo")
        for lang in ("en", "ru"):  # the open question follows the language switch
            walk.language(lang)
            assert page.text_content("#confirm-no") == say(lang, "web.keep")
            assert page.text_content("#confirm-question") == say(lang, "web.confirmUndoDeal")
        page.click("#confirm-no")
        assert page.locator("#sheet-table tbody tr").count() == 3  # kept

        # banki: the list with its form, a game in its kicks, then its throws
        page.goto(server.url + "/banki")
        page.wait_for_selector("#banki-preset option", state="attached")
        walk.stop("banki-new")
        made = httpx.post(
            server.url + "/api/banki", json={"names": ["Аня", "Боря", "Вера", "Гена"], "seed": 1}
        )
        game = f"{server.url}/api/banki/{made.json()['id']}"
        page.goto(server.url + made.json()["link"])
        page.wait_for_selector("#chips button")
        walk.stop("banki-kick")
        for i, name in enumerate(["Аня", "Боря", "Вера", "Гена"]):
            httpx.post(
                f"{game}/events",
                json={"event": f"kick {name} {i + 3}"},
                headers=editing(made.json()),
                timeout=10,
            )
        page.reload()
        page.wait_for_selector("#chips button")
        walk.stop("banki-throw")
    finally:
        context.close()
    assert not errors, errors
    assert walk.found == [], "\n".join(walk.found)
    assert len(list(screens.glob("*.png"))) >= len(walk.stops) * 4


def test_the_hand_is_played_by_the_keyboard(server: Server, browser: Any) -> None:
    """Arrow keys move between the cards, Enter plays the one in focus; a card that cannot be played says
    why (the server's reason, in the page's language) and nothing is played."""
    context = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto(table(server, "bank", 2, seed=11))
        page.wait_for_selector("body[data-v]")
        page.wait_for_function("() => document.body.dataset.myturn === '1'", timeout=STEP_MS)
        labels = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.getAttribute('aria-label'))")
        assert all(" " in label for label in labels), labels  # «десятка червей», not "10H"
        page.locator("#hand .card[tabindex='0']").focus()
        dim = page.locator("#hand .card.dim")
        if dim.count():
            dim.first.click(force=True)  # aria-disabled: Playwright would wait for it to be enabled
            said = "() => document.getElementById('error').textContent.length > 0"
            page.wait_for_function(said, timeout=STEP_MS)
            assert page.evaluate("document.body.dataset.v") == "0"  # refused: nothing played
            assert not any(word in page.text_content("#error") for word in ("seat", "места", "место"))
        first_legal = page.evaluate(
            "[...document.querySelectorAll('#hand .card')].findIndex(c => c.classList.contains('legal'))"
        )
        page.locator("#hand .card").nth(0).focus()
        for _ in range(first_legal):
            page.keyboard.press("ArrowRight")
        focused = page.evaluate("document.activeElement.dataset.card")
        assert page.evaluate("document.activeElement.classList.contains('legal')"), focused
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.body.dataset.v !== '0'", timeout=STEP_MS)
        assert focused not in [
            c for c in page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
        ]
    finally:
        context.close()

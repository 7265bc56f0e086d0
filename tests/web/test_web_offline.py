"""Issue 18 in a real Chromium at phone size: the pages install (manifest, icons, service worker), the score
sheet and the banki referee work with no network (entries kept in IndexedDB, scored and refereed on the
phone, everything still there after a reload), and when the network is back every entry reaches the server
exactly once, also from two phones that edited one sheet offline. Screenshots go to test-artifacts/web/."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from web_helpers import EDIT_KEY, Server, shot

from koloda.web.offline import service_worker

PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WAIT_MS = 60_000  # generous: the machine may be busy
NAMES = ["Аня", "Боря", "Вера"]
#: Ten deals that keep the game going (nobody nears 1000): the declarer takes 80, failing 100 or 120.
DEALS = [
    (NAMES[i % 3], 100 + 20 * (i % 2), {NAMES[i % 3]: 80, NAMES[(i + 1) % 3]: 25, NAMES[(i + 2) % 3]: 15})
    for i in range(10)
]
#: A round of banki (rules M3, M8): the kicks choose the driver, everyone throws and misses, everyone back.
ROUND = ["kick Аня 9", "kick Боря 12", "kick Вера 4", "kick Гена 7", "miss Боря", "miss Аня", "miss Гена"]
ROUND += ["back Боря", "back Аня", "back Гена"]


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone's browser context (its own IndexedDB and service worker); no script error on any page."""
    context = browser.new_context(**PHONE)
    errors: list[str] = []
    context.on("weberror", lambda error: errors.append(str(error.error)))
    yield context
    context.close()
    assert not errors, errors


def controlled(page: Any) -> None:
    """Wait until the service worker controls the page (then its shell is kept: the page opens offline).
    Every wait is a function, not a string: the pages' Content-Security-Policy forbids eval."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=WAIT_MS)


def new_sheet(server: Server) -> tuple[int, str]:
    """A new sheet: its id and its edit link (the page that opens it keeps the key)."""
    made = httpx.post(server.url + "/api/sheets", json={"players": NAMES, "preset": "home"}, timeout=10)
    assert made.status_code == 201, made.text
    sheet_id: int = made.json()["id"]
    return sheet_id, server.url + made.json()["link"]


def enter_deal(page: Any, declarer: str, bid: int, points: dict[str, int]) -> None:
    before = int(page.evaluate("document.body.dataset.deals"))
    page.select_option("#declarer", declarer)
    page.fill("#bid", str(bid))
    for seat, name in enumerate(NAMES):
        page.fill(f'.points[data-seat="{seat}"]', str(points[name]))
    page.click("#add")
    page.wait_for_function(f"() => document.body.dataset.deals === '{before + 1}'", timeout=WAIT_MS)
    assert page.text_content("#deal-error") == ""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_pages_meet_the_install_criteria(server: Server, phone: Any) -> None:
    page = phone.new_page()
    for path in ("/", "/sheet", "/banki"):
        page.goto(server.url + path)
        assert page.get_attribute("link[rel=manifest]", "href") == "/manifest.webmanifest"
    # The worker installed from the first page may activate while the last one is loading, and then
    # claims no page (a race of the three quick visits, not of the site): once it is ready, a page's next
    # load is controlled.
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    controlled(page)
    manifest = httpx.get(server.url + "/manifest.webmanifest", timeout=10)
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["name"] == "koloda" and data["start_url"] == "/" and data["display"] == "standalone"
    sizes = {icon["sizes"]: icon["src"] for icon in data["icons"]}
    for size in (192, 512):
        icon = httpx.get(server.url + sizes[f"{size}x{size}"], timeout=10)
        assert icon.headers["content-type"] == "image/png" and png_size(icon.content) == (size, size)
    # Chromium's own verdict: what it checks before it offers to install (the manifest, the icons, a
    # service worker that controls the page, a secure origin: 127.0.0.1 is one). A Playwright context is
    # incognito, where Chromium never offers it: that one reason aside, none.
    cdp = phone.new_cdp_session(page)
    errors = [error["errorId"] for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    assert errors == ["in-incognito"], errors
    cdp.detach()
    # the worker is registered at the root and keeps the shell: the lobby opens offline, and says so
    scope = page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.scope)")
    assert scope == server.url + "/"
    phone.set_offline(True)
    page.goto(server.url + "/")
    page.wait_for_selector("#offline-notice:not(.hidden)")
    assert "Нет связи" in page.text_content("#offline-notice")
    assert page.text_content("#create-error") != ""  # the game list needs the server: said, not a blank
    shot(page, "phone-offline-lobby")


def test_ten_deals_entered_offline_survive_a_reload_and_reach_the_server_once(
    server: Server, phone: Any
) -> None:
    sheet_id, link = new_sheet(server)
    page = phone.new_page()
    page.goto(link)
    page.wait_for_selector("#seat-points .points")
    controlled(page)
    phone.set_offline(True)
    for declarer, bid, points in DEALS:
        enter_deal(page, declarer, bid, points)
    shown = page.evaluate("JSON.stringify(sheet.ru.rows)")
    assert page.locator("#sheet-table tr.pending").count() == 10
    assert httpx.get(f"{server.url}/api/sheets/{sheet_id}", timeout=10).json()["deals"] == 0
    page.reload()  # offline: the page from the worker's cache, the deals from IndexedDB
    page.wait_for_function("() => document.body.dataset.deals === '10'", timeout=WAIT_MS)
    assert page.evaluate("JSON.stringify(sheet.ru.rows)") == shown
    assert page.evaluate("document.body.dataset.unsent") == "10"
    page.goto(f"{server.url}/sheet")  # the list offline: the sheets kept on this phone
    page.wait_for_selector(f"#sheets a[href='/sheet/{sheet_id}']")
    page.click(f"#sheets a[href='/sheet/{sheet_id}']")
    page.wait_for_function("() => document.body.dataset.deals === '10'", timeout=WAIT_MS)
    shot(page, "phone-sheet-offline")
    # The first send finds the database unavailable (503: the phone keeps the deal and tries again, never
    # files it as refused); the next answer is lost on the way back (the deal is stored, the phone sends it
    # again with its idempotency key). Every try carries the sheet's edit key (issue 28).
    lost: list[str] = []
    keys: list[str | None] = []

    def unavailable_then_lost(route: Any) -> None:
        keys.append(route.request.headers.get(EDIT_KEY))
        if not lost:
            lost.append("503")
            body = {
                "error": "unavailable",
                "field": None,
                "message": "the database cannot be used now",
                "message_ru": "база данных сейчас недоступна",
            }
            route.fulfill(status=503, content_type="application/json", body=json.dumps(body))
        elif len(lost) == 1:
            lost.append(route.request.headers["idempotency-key"])
            route.fetch()
            route.abort()
        else:
            route.continue_()

    phone.route("**/api/sheets/*/deals", unavailable_then_lost)
    phone.set_offline(False)
    page.wait_for_function("() => document.body.dataset.unsent === '0'", timeout=WAIT_MS)
    sheet = httpx.get(f"{server.url}/api/sheets/{sheet_id}", timeout=10).json()
    assert len(lost) == 2 and sheet["deals"] == 10 and page.evaluate("document.body.dataset.refused") == "0"
    assert len(keys) >= 12 and set(keys) == {link.rsplit("=", 1)[1]}
    assert sheet["ru"]["rows"] == json.loads(shown)
    assert page.evaluate("JSON.stringify(sheet.ru.rows)") == shown
    assert (
        page.locator("#sheet-table tr.pending").count() == 0
        and page.locator("#sync-notes .changed").count() == 0
    )
    jsonl = httpx.get(f"{server.url}/api/sheets/{sheet_id}/export/jsonl", timeout=10).text
    lines = [json.loads(line) for line in jsonl.splitlines()[1:]]
    assert [(line["declarer"], line["bid"], line["points"]) for line in lines] == DEALS


def test_a_round_of_banki_refereed_offline_survives_a_reload_and_reaches_the_server_once(
    server: Server, phone: Any
) -> None:
    made = httpx.post(
        server.url + "/api/banki", json={"names": [*NAMES, "Гена"], "seed": 1}, timeout=10
    ).json()
    page = phone.new_page()
    page.goto(server.url + made["link"])
    page.wait_for_selector("#chips button")
    controlled(page)
    phone.set_offline(True)
    for count, event in enumerate(ROUND, 1):
        page.fill("#event", event)
        page.click("#send")
        page.wait_for_function(f"() => document.body.dataset.events === '{count}'", timeout=WAIT_MS)
        assert page.text_content("#event-error") == ""
    said = page.text_content("#describe"), page.text_content("#next")
    assert "2" in said[0]  # round 2: everyone came back (M8)
    page.reload()
    page.wait_for_function(f"() => document.body.dataset.events === '{len(ROUND)}'", timeout=WAIT_MS)
    assert (page.text_content("#describe"), page.text_content("#next")) == said
    assert page.locator("#history li.pending").count() == len(ROUND)
    page.goto(f"{server.url}/banki")  # the list offline: the games kept on this phone
    page.wait_for_selector(f"#games a[href='/banki/{made['id']}']")
    assert page.text_content("#new-error") != ""  # a new game needs the server: said
    page.go_back()
    page.wait_for_function(f"() => document.body.dataset.events === '{len(ROUND)}'", timeout=WAIT_MS)
    assert httpx.get(f"{server.url}/api/banki/{made['id']}", timeout=10).json()["view"]["history"] == []
    shot(page, "phone-banki-offline")
    phone.set_offline(False)
    page.wait_for_function("() => document.body.dataset.unsent === '0'", timeout=WAIT_MS)
    stored = httpx.get(f"{server.url}/api/banki/{made['id']}", timeout=10).json()
    assert stored["view"]["history"] == ROUND
    assert (stored["ru"]["describe"], "".join(stored["ru"]["next"])) == said


def test_a_counting_out_entered_offline_waits_for_the_server(server: Server, phone: Any) -> None:
    """Rule C1's counting-out is drawn from the game's secret seed: offline it is kept, not refereed, and so
    is what follows it; the server referees both when the network is back."""
    body = {"names": [*NAMES, "Гена"], "preset": "chelyabinsk", "seed": 4}
    made = httpx.post(server.url + "/api/banki", json=body, timeout=10).json()
    page = phone.new_page()
    page.goto(server.url + made["link"])
    page.wait_for_selector("#chips button")
    controlled(page)
    phone.set_offline(True)
    page.fill("#event", "count")
    page.click("#send")
    page.wait_for_function("() => document.body.dataset.unsent === '1'", timeout=WAIT_MS)
    assert "count" in page.text_content("#sync-notes .waiting")
    assert page.evaluate("document.body.dataset.events") == "0"  # not refereed on the phone
    page.fill("#event", "kick Аня 9")
    page.click("#send")
    page.wait_for_function("() => document.getElementById('event-error').textContent !== ''", timeout=WAIT_MS)
    assert page.evaluate("document.body.dataset.unsent") == "1"  # refused until the count is drawn
    phone.set_offline(False)
    page.wait_for_function("() => document.body.dataset.unsent === '0'", timeout=WAIT_MS)
    stored = httpx.get(f"{server.url}/api/banki/{made['id']}", timeout=10).json()
    assert stored["view"]["history"] == ["count"] and stored["view"]["driver"] is not None
    assert page.evaluate("document.body.dataset.events") == "1"
    assert page.text_content("#describe") == stored["ru"]["describe"]


def test_two_phones_edit_one_sheet_offline_then_sync(server: Server, browser: Any) -> None:
    sheet_id, link = new_sheet(server)
    phones = [browser.new_context(**PHONE) for _ in range(2)]
    try:
        pages = [context.new_page() for context in phones]
        for page in pages:  # the second phone got the edit link from the first (its share box)
            page.goto(link)
            page.wait_for_selector("#seat-points .points")
            controlled(page)
        for context in phones:
            context.set_offline(True)
        first, second = pages
        for deal in DEALS[:2]:
            enter_deal(first, *deal)
        for deal in DEALS[2:4]:
            enter_deal(second, *deal)
        assert second.evaluate("sheet.deals") == 2  # each phone sees its own two, numbered 1 and 2
        phones[0].set_offline(False)
        first.wait_for_function("() => document.body.dataset.unsent === '0'", timeout=WAIT_MS)
        phones[1].set_offline(False)
        second.wait_for_function("() => document.body.dataset.unsent === '0'", timeout=WAIT_MS)
        sheet = httpx.get(f"{server.url}/api/sheets/{sheet_id}", timeout=10).json()
        assert sheet["deals"] == 4  # every deal once, in the order they reached the server
        jsonl = httpx.get(f"{server.url}/api/sheets/{sheet_id}/export/jsonl", timeout=10).text
        lines = [json.loads(line) for line in jsonl.splitlines()[1:]]
        assert [(line["declarer"], line["bid"], line["points"]) for line in lines] == DEALS[:4]
        # the second phone shows the server's sheet and says that its two deals moved to 3 and 4
        assert second.evaluate("sheet.deals") == 4
        notes = second.locator("#sync-notes .changed")
        assert notes.count() == 2 and "№ 3" in notes.nth(0).text_content()
        shot(second, "phone-sheet-two-phones")
        first.reload()
        first.wait_for_function("() => document.body.dataset.deals === '4'", timeout=WAIT_MS)
        assert first.locator("#sync-notes .changed").count() == 0  # its deals came first: nothing moved
    finally:
        for context in phones:
            context.close()


def test_the_worker_keeps_a_shell_that_all_answers(client: Any) -> None:
    """Every address of the worker's shell answers 200 (one that did not would make its install fail), and
    the worker's version is a digest that changes with what it keeps."""
    worker = client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    shell = json.loads(worker.text.split("const SHELL = ", 1)[1].split(";\n", 1)[0])
    assert {
        "/",
        "/sheet",
        "/banki",
        "/static/offline.js",
        "/static/rules-thousand.js",
        "/static/icon-512.png",
    } <= set(shell)
    for address in shell:
        assert client.get(address).status_code == 200, address

    def version(text: str) -> str:
        return text.split('const VERSION = "', 1)[1].split('"', 1)[0]

    assert len(version(worker.text)) == 16 and "__KOLODA" not in worker.text
    # a page that changes is a new worker
    assert version(service_worker(lambda name: name)) != version(service_worker(lambda name: name + "!"))

"""What the score sheet and the banki referee need from the server to work offline: the data of the rules.

The pages keep score and referee on the phone with the browser's copy of the rules
(``static/rules-core.js``, ``rules-thousand.js``, ``rules-banki.js``, ``rules-banki-view.js``; docs/web.md,
"Offline"). That copy holds no rule's data: the words of the engines' messages (the translation catalog's,
plural forms included), the tables of keys and the notation's keywords are the Python engines' own, sent
by :func:`rules_data` and embedded in the page as JSON (:func:`koloda.web.app.page_html`), so there is one
place for each of them. tests/web/test_web_rules.py runs every scoring and referee case of the project's
tests through both copies.

>>> data = rules_data("sheet.html")
>>> data["words"]["en"]["thousand.scoring.bomb"]
'{name} {bid} — bomb'
>>> data["plural"]["ru"][:6], data["plural"]["en"][:3]
([2, 0, 1, 1, 1, 2], [1, 0, 1])
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from koloda import i18n
from koloda.banki import events as banki_events
from koloda.banki import race as banki_race
from koloda.banki import text as banki_text
from koloda.banki import view as banki_view
from koloda.i18n import LANGS
from koloda.thousand import scoring
from koloda.thousand.sheet import scorefile

#: The browser's copy of the rules, in the order the pages load it (the sheet: the first two; the referee:
#: the first and the last two).
RULES_SCRIPTS = ("rules-core.js", "rules-thousand.js", "rules-banki.js", "rules-banki-view.js")
#: The page's mark where its rules' data goes (a JSON script element, never run: the CSP allows it).
RULES_MARK = "<!--koloda-rules-->"

#: The catalog's keys each offline page says messages of (their prefixes).
PREFIXES: dict[str, tuple[str, ...]] = {
    "sheet.html": (
        *("thousand.scoring.", "thousand.mark.", "thousand.table.", "thousand.player", "scorefile."),
        "refusal.unreadable_deal",
    ),
    "banki.html": ("banki.", "names."),
}


def plural_table(lang: i18n.Lang) -> list[int]:
    """The plural form of every count from 0 to 199 in ``lang``: a count ``n`` outside takes the form of
    ``100 + n mod 100`` (true of both languages' formulas; tests/web/test_web_rules.py checks it)."""
    return [i18n.plural_form(lang, n) for n in range(200)]


def _thousand() -> dict[str, Any]:
    return {
        "deck_points": scoring.DECK_POINTS,
        "marriage_values": list(scoring.MARRIAGE_VALUES),
        "ace_marriage": scoring.ACE_MARRIAGE,
        "minus": scoring.MINUS,
        "verbs": [[made, gender, key] for (made, gender), key in scoring.VERBS.items()],
        "male_in_a": sorted(scoring.MALE_IN_A),
        "female_endings": list(scoring.FEMALE_ENDINGS),
        "deal_keys": sorted(scorefile.DEAL_KEYS),
        "kinds": {kind.__name__: key for kind, key in scorefile.KINDS.items()},
    }


def _banki() -> dict[str, Any]:
    return {
        "kinds": list(banki_events.KINDS),
        "means": list(banki_events.MEANS),
        "parts": list(banki_events.PARTS),
        "where": list(banki_events.WHERE),
        "fouls": list(banki_events.FOULS),
        "aliases": banki_events.ALIASES,
        "russian": banki_events.RUSSIAN,
        "reserved": sorted(banki_events.RESERVED),
        "phase_events": {phase.value: list(kinds) for phase, kinds in banki_events.PHASE_EVENTS.items()},
        "keys": banki_text.KEYS,
        "ranks": banki_text.RANKS,
        "phases": banki_text.PHASES,
        "means_words": banki_text.MEANS,
        "parts_words": banki_text.PARTS,
        "sticks": banki_view.STICKS,
        "variants": banki_view.VARIANTS,
        "tag_parts": {name: list(parts) for name, parts in banki_race.PARTS.items()},
    }


def rules_data(page: str) -> dict[str, Any]:
    """The data of the rules ``page`` keeps offline: the words of its messages in both languages (a plural
    message as its forms), the plural tables, and the engine's tables."""
    data: dict[str, Any] = {
        "words": {lang: i18n.entries(lang, PREFIXES[page]) for lang in LANGS},
        "plural": {lang: plural_table(lang) for lang in LANGS},
    }
    if page == "sheet.html":
        data["thousand"] = _thousand()
    else:
        data["banki"] = _banki()
    return data


def rules_script(page: str) -> str:
    """The JSON script element of :func:`rules_data` for the page (``</`` escaped: no text ends it)."""
    text = json.dumps(rules_data(page), ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    return f'<script id="koloda-rules" type="application/json">{text}</script>'


STATIC = Path(__file__).parent / "static"
#: The pages the service worker keeps, by the address it keeps each under (every sheet is the sheet page).
PAGES = {"/": "index.html", "/sheet": "sheet.html", "/banki": "banki.html", "/table/0": "table.html"}
#: What is served at the root rather than from static/: the worker (its scope is the path it is served
#: from) and the manifest.
ROOT_FILES = ("sw.js", "manifest.webmanifest")


def shell(generated: Mapping[str, str] | None = None) -> list[str]:
    """Every address the service worker keeps: the pages (those of static/ and the ``generated`` ones,
    the rules and the lessons of issue 31), the manifest, and every static file."""
    files = sorted(path.name for path in STATIC.iterdir() if path.is_file() and path.name not in ROOT_FILES)
    return [*PAGES, *(generated or {}), "/manifest.webmanifest", *(f"/static/{name}" for name in files)]


def service_worker(page_html: Callable[[str], str], generated: Mapping[str, str] | None = None) -> str:
    """``static/sw.js`` with its shell and version filled in: the version is a digest of every page as
    served (``page_html``, and the ``generated`` pages: their addresses and HTML) and every file of the
    shell, so any change to them makes a new worker."""
    digest = hashlib.sha256()
    for name in sorted(PAGES.values()):
        digest.update(page_html(name).encode())
    for address, html in sorted((generated or {}).items()):
        digest.update(address.encode() + b"\0" + html.encode())
    for path in sorted(STATIC.iterdir()):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    return text.replace("__KOLODA_VERSION__", digest.hexdigest()[:16]).replace(
        "__KOLODA_SHELL__", json.dumps(shell(generated))
    )

"""The rules of Bank, Thousand and banki as people read them: one source per game and language (issue 31).

``koloda/rules/<game>.<lang>.md`` is the one text of a game's rules in a language. The English source is
also the project's reference, ``docs/rules/<game>.md``, which ``scripts/rules.py build`` writes from it
(:func:`for_docs`; a test checks that the committed files are what it writes). The web app serves each
source as the page ``/rules/<game>`` (:func:`page`), and the terminal's lessons quote one rule of it
(:func:`rule_text`). Two marks make one text serve both:

- ``[[ ... ]]`` (may span lines): for the document only. Where the rules come from, the option keys and
  the code: a player's page leaves it out (so an English page shows no Russian quotation, and a page
  shows no code key).
- ``{{ ... }}``: for the page only (the words a player reads where the document names an option's key).
- a fenced block ````` ```cards ````` : for the page only, one row a line, ``label | cards``, drawn as card
  pictures by the page (``static/rules.js``, with the table page's ``cardEl``).

A rule is a heading that starts with its number (``### S7. The bomb``, ``### M15 A lieutenant``) or a
paragraph that starts with it in bold (``**4.5 The 8.**``): on the page it gets the anchor ``rule-<id>``
(``#rule-4.5``), the target of a table's "rules" button and of a lesson's pointer.

>>> "Колод 1" in for_docs("bank"), "Колод 1" in page_source("bank", "en")
(True, False)
>>> page("bank", "en").rules[:4]
('1', '1.1', '1.2', '1.3')
>>> print(rule_text("bank", "en", "4.4"))
4.4 The 6. The 6 covers every card of its suit.
"""

from __future__ import annotations

import functools
import html
import re
from dataclasses import dataclass
from importlib import resources

from markdown_it import MarkdownIt
from markdown_it.token import Token

from koloda.cards import Card
from koloda.errors import NotFoundError, RecordError
from koloda.i18n import LANGS, Lang

#: The games that have rules here (banki's referee is not a card game of the registry, but has rules).
GAMES = ("bank", "thousand", "banki")

#: The rule a table's "rules" button opens for each phase of play (``observe(...).phase``): the rule that
#: says what may be done now. The one place of this mapping.
PHASE_RULES: dict[str, dict[str, str]] = {
    "bank": {
        "choose-trump": "3.2",
        "move": "4.3",
        "after-draw": "4.9",
        "extra-move": "4.5",
        "over": "7.1",
    },
    "thousand": {
        "bidding": "G5",
        "giving": "G7",
        "contract": "G8",
        "playing": "G11",
        "over": "S1",
    },
}

_RULE = r"[A-Z]?\d+(?:\.\d+)?"
#: "S7", "3.2-3.4", "2.2, 7.8", "G3, M16-M18": the rules an option belongs to (koloda.options.OptionText).
_RULES = re.compile(rf"{_RULE}(?:-{_RULE})?(?:, {_RULE}(?:-{_RULE})?)*")
#: The start of a rule: a heading's text or a bold paragraph's (after the markdown is parsed).
_START = re.compile(rf"^({_RULE})[. ]")
_DOCS_ONLY = re.compile(r"\[\[(.*?)\]\](?!\])", re.DOTALL)  # "[002]]]": the last two close it
_PAGE_ONLY = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
#: The project's notes on the gaps of Bank's text, which a reading names ("(gaps 16)"): not for a player.
_GAPS = re.compile(r"\s\(gaps\s+\d+\)|,\s+gaps\s+\d+")
_GAPS_SAYING = re.compile(r"\(gaps\s+\d+:\s+")
_CARDS_FENCE = re.compile(r"^```cards\n.*?^```\n", re.DOTALL | re.MULTILINE)


def rule_ids(rules: str) -> list[str]:
    """Every rule a rule string names, its ranges spelt out.

    >>> rule_ids("G3, M16-M18"), rule_ids("3.2-3.4")
    (['G3', 'M16', 'M17', 'M18'], ['3.2', '3.3', '3.4'])
    """
    if not _RULES.fullmatch(rules):
        raise RecordError(f"not a list of rules: {rules!r}")
    ids = []
    for part in rules.split(", "):
        span = re.fullmatch(r"(.*?)(\d+)-(.*?)(\d+)", part)
        if span is None:
            ids.append(part)
            continue
        head, low, other, high = span.groups()
        if head != other or int(low) >= int(high):
            raise RecordError(f"not a range of rules: {part!r}")
        ids.extend(f"{head}{number}" for number in range(int(low), int(high) + 1))
    return ids


def _check(game: str, lang: str) -> None:
    if game not in GAMES:
        raise NotFoundError(f"no rules of {game!r}: there are rules of {', '.join(GAMES)}")
    if lang not in LANGS:
        raise NotFoundError(f"no rules in {lang!r}: the languages are {', '.join(LANGS)}")


@functools.cache
def source(game: str, lang: Lang) -> str:
    """The source text of a game's rules in a language (package data)."""
    _check(game, lang)
    return resources.files(__name__).joinpath(f"{game}.{lang}.md").read_text(encoding="utf-8")


def for_docs(game: str) -> str:
    """``docs/rules/<game>.md``: the English source with what is for the document kept (its marks taken
    off) and what is for the page left out."""
    text = _CARDS_FENCE.sub("", _PAGE_ONLY.sub("", source(game, "en"))).replace("\n\n\n", "\n\n")
    return _DOCS_ONLY.sub(lambda found: found.group(1), text)


def page_source(game: str, lang: Lang) -> str:
    """The source as a page shows it: what is for the document left out, the spaces it leaves tidied."""
    out = []
    text = _PAGE_ONLY.sub(lambda found: found.group(1), source(game, lang))
    text = _GAPS_SAYING.sub("(", _GAPS.sub("", text))
    for line in _DOCS_ONLY.sub("\0", text).split("\n"):
        if "\0" in line:
            line = line.replace("\0", "")
            if not line.strip():
                continue  # a line that held only what is for the document: no paragraph break either
            line = re.sub(r"(?<=\S) {2,}", " ", line)
            line = re.sub(r" +(?=[.,;:)])", "", line).replace("( ", "(").replace("()", "")
        out.append(line.rstrip())
    # a number whose option's key was left out keeps no brackets: "reaches (1000)" -> "reaches 1000"
    text = re.sub(r"(?<=[a-z]) \((\d+)\)(?=[ :;,][ a-z])", r" \1", "\n".join(out))
    return re.sub(r"\( +", "(", text)


@dataclass(frozen=True)
class Page:
    """A game's rules as a page: its title, its body as HTML, and the ids of its rules in order."""

    game: str
    lang: Lang
    title: str
    html: str
    rules: tuple[str, ...]


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.add_render_rule("fence", _fence)
    return md


def _fence(renderer: object, tokens: list[Token], idx: int, options: object, env: object) -> str:
    """A ```cards block as rows of card pictures (``static/rules.js`` draws them from ``data-cards``; the
    text of the cards is there too, for a browser without scripts); any other block as code."""
    token = tokens[idx]
    if token.info.strip() != "cards":
        return f"<pre><code>{html.escape(token.content)}</code></pre>\n"
    rows = []
    for line in token.content.strip("\n").split("\n"):
        label, _, cards = line.rpartition("|")
        canonical = " ".join(str(Card.parse(text)) for text in cards.split())
        rows.append(
            '<div class="rules-cards-row">'
            f'<span class="rules-cards-label">{html.escape(label.strip())}</span>'
            f'<span class="cards rules-cards" data-cards="{canonical}">{html.escape(cards.strip())}</span>'
            "</div>"
        )
    return '<div class="rules-cards-block">' + "".join(rows) + "</div>\n"


def _anchor(tokens: list[Token]) -> list[str]:
    """Give every rule's heading or bold paragraph its anchor ``rule-<id>``; the ids in order."""
    ids: list[str] = []
    for i, token in enumerate(tokens[:-1]):
        inline = tokens[i + 1]
        if inline.type != "inline":
            continue
        text = inline.content
        if token.type == "heading_open" and token.tag in ("h3", "h4"):
            found = _START.match(text)
        elif token.type == "paragraph_open" and text.startswith("**"):
            found = _START.match(text[2:])
        else:
            continue
        if found is not None and found.group(1) not in ids:
            ids.append(found.group(1))
            token.attrSet("id", f"rule-{found.group(1)}")
            token.attrSet("class", "rule")
    return ids


@functools.cache
def page(game: str, lang: Lang) -> Page:
    """The rules of ``game`` in ``lang`` as HTML (the page ``/rules/<game>`` puts it in its frame)."""
    text = page_source(game, lang)
    md = _markdown()
    tokens = md.parse(text)
    ids = _anchor(tokens)
    body = md.renderer.render(tokens, md.options, {})
    title = next(tokens[i + 1].content for i, t in enumerate(tokens) if t.tag == "h1")
    return Page(game, lang, title, body, tuple(ids))


def rule_text(game: str, lang: Lang, rule: str) -> str:
    """One rule as plain text, as the page says it (the terminal's lessons point to it): its first
    paragraph (a rule that is a heading: the heading and the paragraph under it)."""
    text = page_source(game, lang)
    start = re.compile(rf"^(?:#+ |\*\*){re.escape(rule)}[. ]", re.MULTILINE).search(text)
    if start is None:
        raise NotFoundError(f"the rules of {game} have no rule {rule!r}")
    rest = text[start.start() :]
    joint = ""
    if rest.startswith("#"):  # a heading: it and the paragraph under it
        heading, _, body = rest.partition("\n\n")
        rest, joint = heading + "\0" + body.lstrip("\n"), " — "
    end = re.compile(rf"\n(?:\n|#+ |\*\*{_RULE}[. ]|```)").search(rest, 1)
    chunk = rest if end is None else rest[: end.start()]
    plain = re.sub(r"\*|`|^#+ |^> ?", "", chunk.strip(), flags=re.MULTILINE)
    return re.sub(r"\s*\n\s*", " ", plain).replace("\0", joint)

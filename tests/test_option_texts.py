"""Every option of every game says what it is, in Russian and in English: a label and a one-line help from
the catalog, and the rules of docs/rules/<game>.md it belongs to (koloda.options.OptionText). The web forms
show them beside the raw key (common.js optionsForm; the browser's side: tests/web/test_web_words.py)."""

from __future__ import annotations

import dataclasses
import importlib.util
import re
from pathlib import Path

import pytest

from koloda import i18n, registry
from koloda.banki.options import BankiOptions
from koloda.i18n import known, template
from koloda.options import Options
from koloda.rules import rule_ids  # "G3, M16-M18" -> G3 M16 M17 M18: the rules pages' own reading

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rules"
CYRILLIC = re.compile("[А-Яа-яЁё]")
#: The games' options by the name of their rules document (banki's referee is not a registered game).
GAMES: dict[str, type[Options]] = {spec.name: spec.options_class for spec in registry.games()} | {
    "banki": BankiOptions
}
RULE = r"[A-Z]?\d+(?:\.\d+)?"
#: A rule's heading: "### S7. The bomb" (Thousand), "### M15 A lieutenant" (banki), "**4.5 The 8.**" (Bank).
HEADING = re.compile(rf"^(?:### |\*\*)({RULE})[. ]", re.MULTILINE)


def sections(game: str) -> dict[str, str]:
    """Each rule of the game's rules document: its id -> its text, up to the next heading."""
    doc = (DOCS / f"{game}.md").read_text(encoding="utf-8")
    found = list(HEADING.finditer(doc))
    ends = [match.start() for match in found[1:]] + [len(doc)]
    return {match.group(1): doc[match.start() : end] for match, end in zip(found, ends, strict=True)}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_has_a_label_and_a_help_in_both_languages(game: str) -> None:
    options = GAMES[game]
    assert list(options.TEXTS) == [field.name for field in dataclasses.fields(options)]
    for name, text in options.TEXTS.items():
        # the keys follow the option (a copied line would give an option another option's words)
        assert (text.label, text.help) == (f"option.{game}.{name}", f"option.{game}.{name}.help")
        for key in (text.label, text.help):
            assert known(key) and key.startswith(i18n.BROWSER), key  # in the catalog, and sent to the pages
            english, russian = template("en", key), template("ru", key)
            assert english.strip() and english != key and not CYRILLIC.search(english), (key, english)
            assert russian.strip() and CYRILLIC.search(russian), (key, russian)  # not English fallen back
        assert template("en", text.help) != template("en", text.label), name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_options_rule_is_a_rule_of_the_games_document_that_names_it(game: str) -> None:
    """The rule shown beside an option exists in docs/rules/<game>.md, and one of its rules speaks of it."""
    rules = sections(game)
    for name, text in GAMES[game].TEXTS.items():
        ids = rule_ids(text.rule)
        missing = [rule for rule in ids if rule not in rules]
        assert not missing, f"{name}: rule {missing} has no heading in docs/rules/{game}.md"
        named = re.compile(rf"`\W*{name}\b")  # `bombs_per_game`, `−barrel_fall`, `target=300`
        assert any(named.search(rules[rule]) for rule in ids), f"{name}: none of {ids} names it"


def test_the_bank_options_rules_are_the_ones_its_documents_table_gives() -> None:
    doc = (DOCS / "bank.md").read_text(encoding="utf-8")
    start = doc.index("| option | values | default | rule |")
    table = dict(re.findall(r"^\| `(\w+)` \|.*\| ([^|]+?) \|$", doc[start : doc.index("\n\n", start)], re.M))
    assert {name: text.rule for name, text in GAMES["bank"].TEXTS.items()} == table


def test_the_schema_carries_each_options_rule_and_words() -> None:
    row = {row["name"]: row for row in GAMES["thousand"].schema()}["bombs_per_game"]
    assert (row["rule"], row["label"], row["help"]) == (
        "S7",
        "option.thousand.bombs_per_game",
        "option.thousand.bombs_per_game.help",
    )
    assert (
        i18n.words("ru")[row["label"]] == "Бомб за игру"
        and i18n.words("en")[row["label"]] == "Bombs per game"
    )


def test_the_catalogs_tool_finds_the_keys_under_every_browser_prefix() -> None:
    spec = importlib.util.spec_from_file_location("koloda_i18n_tool", ROOT / "scripts" / "i18n.py")
    assert spec is not None and spec.loader is not None
    checks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(checks)
    assert checks.BROWSER == i18n.BROWSER
    assert checks.WEB_KEY.findall('t("option.bank.seven") t("options.unknown")') == ["option.bank.seven"]

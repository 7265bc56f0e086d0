"""The rules' one source (issue 31, koloda.rules): docs/rules is what the English source makes, the pages in
each language have the same rules, each page holds no word of the other language and no code key, and a
table's agreements are marked at the rules their options name."""

from __future__ import annotations

import dataclasses
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from koloda import registry, rules
from koloda.banki.options import BankiOptions
from koloda.errors import NotFoundError, RecordError
from koloda.rules import marks

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[А-Яа-яЁё]")
#: The Latin a Russian page may hold: rule ids (G5, S7, M16, C1; banki's families G, M, C) and the app's name.
RUSSIAN_LATIN = re.compile(r"\b(?:[GSMC]\d*|koloda)\b")
OPTIONS = {"bank": registry.get("bank").options_class, "thousand": registry.get("thousand").options_class}


def visible(page: str) -> str:
    """The text of a page's HTML, the attribute values a person may see (titles, labels) aside."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def test_the_rules_documents_are_what_their_english_source_makes() -> None:
    for game in rules.GAMES:
        assert (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8") == rules.for_docs(game), (
            game
        )
    found = subprocess.run(
        [sys.executable, "scripts/rules.py", "check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert found.returncode == 0, found.stdout


def test_the_check_fails_on_a_document_edited_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import rules as script  # scripts/rules.py

    for game in rules.GAMES:
        (tmp_path / f"{game}.md").write_text(rules.for_docs(game), encoding="utf-8")
    monkeypatch.setattr(script, "DOCS", tmp_path)
    assert script.stale() == []
    edited = tmp_path / "bank.md"
    edited.write_text(edited.read_text(encoding="utf-8").replace("248", "250", 1), encoding="utf-8")
    assert script.stale() == ["bank"]
    assert script.main(["check"]) == 1


@pytest.mark.parametrize("game", rules.GAMES)
def test_both_languages_number_the_same_rules(game: str) -> None:
    english, russian = rules.page(game, "en"), rules.page(game, "ru")
    assert english.rules == russian.rules and len(english.rules) > 20
    for page in (english, russian):
        assert all(f'id="rule-{rule}"' in page.html for rule in page.rules)


@pytest.mark.parametrize("game", rules.GAMES)
def test_an_english_page_has_no_russian_and_a_russian_page_no_latin(game: str) -> None:
    english = visible(rules.page(game, "en").html)
    assert not CYRILLIC.search(english), re.findall(r"\S*[А-Яа-яЁё]\S*", english)[:5]
    russian = RUSSIAN_LATIN.sub("", visible(rules.page(game, "ru").html))
    assert not re.search("[A-Za-z]", russian), re.findall(r"\S*[A-Za-z]\S*", russian)[:10]
    for page in (english, russian):  # nothing of the source's own marks is left
        assert not re.search(r"\[\[|\]\]|\{\{|\}\}", page)


@pytest.mark.parametrize("game", rules.GAMES)
def test_no_page_names_an_option_by_its_key(game: str) -> None:
    cls = OPTIONS.get(game, BankiOptions)
    keys = [field.name for field in dataclasses.fields(cls) if "_" in field.name]
    for lang in ("en", "ru"):
        text = visible(rules.page(game, lang).html)
        assert not [key for key in keys if re.search(rf"\b{key}\b", text)], (lang, game)
    assert any(re.search(rf"`{key}`", rules.for_docs(game)) for key in keys)  # the document does name them


def test_card_rows_become_card_pictures_with_canonical_cards() -> None:
    html = rules.page("bank", "ru").html
    assert 'data-cards="6H 7H 8H 9H JH QH KH 10H AH">6♥ 7♥ 8♥ 9♥ В♥ Д♥ К♥ 10♥ Т♥<' in html
    docs = rules.for_docs("bank")  # the document has none of the page's own words
    assert "```cards" not in docs and "the only description of the game\nknown" not in docs
    assert "the only description of the game" in rules.page_source("bank", "en")


def test_a_rule_as_the_terminal_quotes_it() -> None:
    assert rules.rule_text("bank", "en", "4.4") == "4.4 The 6. The 6 covers every card of its suit."
    assert rules.rule_text("bank", "ru", "4.4").startswith("4.4 Шестёрка. «Шестеркой можно отбить")
    assert rules.rule_text("thousand", "en", "S5").startswith(
        "S5. The 800 line — Reading: the line is checked"
    )
    with pytest.raises(NotFoundError, match=r"no rule '9\.9'"):
        rules.rule_text("bank", "en", "9.9")


def test_every_phase_opens_at_a_rule_of_its_game() -> None:
    for game, phases in rules.PHASE_RULES.items():
        assert set(phases) >= set(_phases(game)), game
        assert set(phases.values()) <= set(rules.page(game, "en").rules)


def _phases(game: str) -> set[str]:
    spec = registry.get(game)
    state = spec.new_game(players=3, seed=1)
    seen = set()
    for _ in range(400):
        seen.add(spec.observe(state, None).phase)
        if state.is_over():
            break
        state.apply(state.legal_actions()[0])
    return seen


def test_rule_lists_spell_out_their_ranges() -> None:
    assert rules.rule_ids("G3, M16-M18") == ["G3", "M16", "M17", "M18"]
    with pytest.raises(RecordError, match="not a range"):
        rules.rule_ids("M18-M16")


@pytest.mark.parametrize("game", sorted(marks.VALUES))
def test_every_choice_of_every_option_has_words(game: str) -> None:
    for row in OPTIONS[game].schema():
        if row["kind"] == "choice" and all(isinstance(choice, str) for choice in row["choices"]):
            assert set(marks.VALUES[game][row["name"]]) == set(row["choices"]), row["name"]
            for value in row["choices"]:
                english, russian = (
                    marks.value_words(game, row["name"], value, lang) for lang in ("en", "ru")
                )
                assert english and not CYRILLIC.search(english) and CYRILLIC.search(russian), value


def test_a_tables_agreements_are_marked_at_the_rules_they_change() -> None:
    found = marks.marks("bank", {"penalty": "flat-fine", "trump_suits": ["C", "D"], "trumps": "two"}, "ru")
    assert [(m["option"], m["rules"], m["value"]) for m in found] == [
        ("trumps", ["3.1"], "два козыря на всех"),
        ("trump_suits", ["3.2", "3.3", "3.4"], "♣ ♦"),
        ("penalty", ["7.6"], "только штраф"),
    ]
    assert marks.marks("thousand", {"bombs_per_game": None, "barrel": True}, "en")[0]["value"] == "yes"
    assert marks.marks("thousand", {"bombs_per_game": None}, "en")[0]["value"] == "no limit"
    assert marks.marks("bank", {}, "en") == []  # the defaults: nothing to mark

"""A person's name (koloda.names, issue 28): kept in its composed form and refused, naming the character,
when it holds one that does not show or turns the text around; the one check of every place that takes a
name, here the terminal's score sheet and banki referee (the web's: tests/web/test_web_hardening.py)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from koloda.cli import main
from koloda.names import REFUSED, BadName, clean, key, person_name
from koloda.store.sql import SqlStore
from koloda.thousand.sheet.terminal import run_sheet

#: A character of each kind a name may not hold, with what the refusal calls it.
INVISIBLE = [
    ("\u200b", "U+200B"),  # zero-width space
    ("\u200d", "U+200D"),  # zero-width joiner
    ("\u202e", "U+202E"),  # right-to-left override
    ("\u2066", "U+2066"),  # left-to-right isolate
    ("\ufeff", "U+FEFF"),  # zero-width no-break space
    ("\x07", "U+0007"),  # a control character
    ("\u2028", "U+2028"),  # line separator
    ("\ue000", "U+E000"),  # private use
    ("\U000e0041", "U+E0041"),  # a tag character (format)
]


@pytest.mark.parametrize(("char", "named"), INVISIBLE)
def test_a_name_with_a_character_that_does_not_show_is_refused_naming_it(char: str, named: str) -> None:
    assert unicodedata.category(char) in REFUSED
    for text in (f"A{char}nn", f"{char}Ann", f"Ann{char}"):
        with pytest.raises(BadName) as refused:
            person_name(text)
        assert named in str(refused.value) and named in refused.value.text("ru")


def test_a_name_is_kept_composed_and_stripped_and_within_its_length() -> None:
    assert person_name("  Jose\u0301 ") == "Jos\u00e9" == clean("Jos\u00e9")
    assert person_name("Анна Мария") == "Анна Мария"  # a space inside is a name's own
    assert key("JOSE\u0301") == key("jos\u00e9") != key("jose")
    with pytest.raises(BadName, match="cannot be empty"):
        person_name("   ")
    with pytest.raises(BadName, match="at most 5 characters, not 6"):
        person_name("Алексе", most=5)
    assert person_name("Ёжик") == "Ёжик" and person_name("O'Brien-Smith") == "O'Brien-Smith"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SqlStore]:
    with SqlStore(f"sqlite:///{tmp_path / 'names.sqlite3'}") as opened:
        yield opened


def test_the_terminal_score_sheet_takes_names_through_the_same_check(store: SqlStore) -> None:
    said: list[str] = []
    lines = iter(["Аня, Бо\u200bря, Вера", "Аня, Jose\u0301, Вера", "quit"])
    run_sheet(store, read=lambda prompt: next(lines), write=said.append, lang="en")
    assert any("U+200B" in line for line in said), said  # refused, and asked again
    players = store.load_sheet(store.sheet_ids()[-1])[0]
    names = [player if isinstance(player, str) else player["name"] for player in players]
    assert names == ["Аня", "Jos\u00e9", "Вера"]  # composed as kept
    assert store.sheet_ids() == [1]  # the refused names started nothing


def test_the_terminal_banki_referee_refuses_such_a_name_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "banki.sqlite3")
    assert main(["banki", "new", "Ann", "B\u202eob", "Cat", "Dan", "--db", db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("koloda: error: ") and "U+202E" in err and err.count("\n") == 1

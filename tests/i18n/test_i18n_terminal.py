"""A refusal in the Russian terminal is Russian: the engine's reason as the catalog says it, then what is
legal (koloda.term.refusal); the English terminal says the same in English."""

from __future__ import annotations

import re

import pytest

from koloda.bank import new_game
from koloda.bank.cli import play_match
from koloda.bots.base import RandomBot
from koloda.i18n import Lang
from koloda.term import Quit
from koloda.thousand.cli import play_game
from koloda.thousand.options import ThousandOptions

LATIN_WORDS = re.compile(r"\b(bad|illegal|expected|refused|must|not)\b")


def bank_refusal(entry: str, lang: Lang) -> str:
    state = new_game(players=2, seed=5, scope="deal")
    seat = state.current_player or 0
    answers = iter([entry, "quit"])
    out: list[str] = []
    with pytest.raises(Quit):
        play_match(
            state,
            seat=seat,
            lang=lang,
            bots={1 - seat: RandomBot(1)},
            read=lambda _: next(answers),
            write=out.append,
        )
    return next(line for line in out if line.startswith(("Так нельзя", "bad", "illegal")))


@pytest.mark.parametrize("entry", ["9Z", "AS", "7H+8H"])
def test_a_bank_refusal_in_russian_is_russian(entry: str) -> None:
    line = bank_refusal(entry, "ru")
    assert line.startswith("Так нельзя: ") and "Можно: " in line, line
    assert not LATIN_WORDS.search(line), line
    english = bank_refusal(entry, "en")
    assert "Legal moves: " in english and not re.search("[а-яё]", english.split("Legal moves")[0]), english


def test_a_thousand_refusal_in_russian_is_russian() -> None:
    out: list[str] = []
    answers = iter(["что-то", "AS", "quit"])
    with pytest.raises(Quit):
        play_game(
            ThousandOptions(), seed=3, bots={1: RandomBot(1), 2: RandomBot(2)}, lang="ru",
            read=lambda _: next(answers), write=out.append,
        )  # fmt: skip
    refused = [line for line in out if line.startswith("Так нельзя")]
    assert len(refused) == 2, out
    # the entry is quoted once (issue 29: a long line is not echoed back twice)
    assert refused[0].startswith("Так нельзя: ход «что-то» не понят: карта — это значение и масть")
    assert refused[0].count("что-то") == 1
    assert "невозможен" in refused[1] and "Можно: " in refused[1]
    assert not any(LATIN_WORDS.search(line) for line in refused), refused

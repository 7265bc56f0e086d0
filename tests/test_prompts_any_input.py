"""Any line at all typed at any prompt of the terminal gives a clear message and the game goes on
(issue 20): Bank's and Thousand's move prompts, every question of the Thousand score sheet, the banki
referee. Hypothesis types random text (every Unicode category, control characters, digits that are not
ASCII such as '²', long lines); the prompt must answer in words, never with a traceback, and ask again."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koloda.bank.cli import play_match
from koloda.bank.options import BankOptions
from koloda.bank.state import new_game as new_bank
from koloda.banki import BankiOptions
from koloda.banki import new_game as new_banki
from koloda.banki.cli import play as banki_play
from koloda.banki.saved import create as create_banki
from koloda.bots.base import RandomBot
from koloda.store.sql import SqlStore
from koloda.term import QUIT_WORDS, Quit
from koloda.thousand.cli import play_game
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet.terminal import run_sheet

#: What a person must never read: a traceback, an exception's name, a seat's or an action's number.
INTERNALS = re.compile(r"Traceback|Error\b|seat \d|место \d|места \d|месту \d|\(action \d|[»'] \(\d+\)")

TEXT = st.one_of(
    st.text(max_size=40),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=12),
    st.sampled_from(["²", "١٢٠", "10♥", "КЧ+", "9S>3", "120.5", "-5", " ", "\x00", "9" * 5000, "пас пас"]),
)
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


class Keyboard:
    """Types the given lines, one a prompt, then closes the input; records what was written between."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.out: list[str] = []
        self.asked: list[int] = []  # the length of ``out`` at each prompt
        self.prompts: list[str] = []

    def read(self, prompt: str) -> str:
        self.asked.append(len(self.out))
        self.prompts.append(prompt)
        if len(self.asked) > len(self.lines):
            raise EOFError
        return self.lines[len(self.asked) - 1]

    def write(self, text: str) -> None:
        self.out.append(text)


def answered(keyboard: Keyboard, typed: str, at: int) -> None:
    """The line typed at prompt ``at`` was answered in words and the prompt (or the next) came again."""
    if typed.strip().lower() in QUIT_WORDS:
        return
    assert len(keyboard.asked) > at + 1, "the game did not go on"
    said = keyboard.out[keyboard.asked[at] : keyboard.asked[at + 1]]
    moved_on = keyboard.prompts[at + 1] != keyboard.prompts[at]  # taken: the next question (a bid of 100)
    if typed.strip() and not moved_on:  # a blank line may simply be asked again
        assert said, f"nothing said to {typed!r}"
    for text in said:
        assert not INTERNALS.search(text), text


def run(play: Callable[[Keyboard], object], keyboard: Keyboard) -> None:
    with contextlib.suppress(Quit):
        play(keyboard)


@SETTINGS
@given(typed=TEXT, lang=st.sampled_from(["ru", "en"]))
def test_bank_move_prompt(typed: str, lang: str) -> None:
    state = new_bank(BankOptions(), players=2, seed=5)
    keyboard = Keyboard([typed])
    run(
        lambda k: play_match(
            state,
            seat=0,
            lang=lang,
            bots={1: RandomBot(1)},
            read=k.read,
            write=k.write,  # type: ignore[arg-type]
        ),
        keyboard,
    )
    answered(keyboard, typed, 0)


@SETTINGS
@given(typed=TEXT, lang=st.sampled_from(["ru", "en"]), when=st.integers(0, 1))
def test_thousand_move_prompt(typed: str, lang: str, when: int) -> None:
    # the first prompt is a bid; after a pass of ours and the bots' auction, a card or the talon's choice
    keyboard = Keyboard(["пас" if lang == "ru" else "pass", typed][1 - when :])
    run(
        lambda k: play_game(
            ThousandOptions(),
            seed=3,
            bots={1: RandomBot(1), 2: RandomBot(2)},
            lang=lang,  # type: ignore[arg-type]
            read=k.read,
            write=k.write,
        ),
        keyboard,
    )
    answered(keyboard, typed, len(keyboard.lines) - 1)


#: A deal of the score sheet answered prompt by prompt (players, declarer, bid, bomb, points, points,
#: marriages of each player); the random line replaces one of them.
SHEET = ["Аня, Боря, Вера", "Аня", "120", "н", "85", "25", "60", "", ""]


@SETTINGS
@given(typed=TEXT, at=st.integers(0, len(SHEET) - 1), lang=st.sampled_from(["ru", "en"]))
def test_score_sheet_prompts(typed: str, at: int, lang: str) -> None:
    keyboard = Keyboard([*SHEET[:at], typed])
    with SqlStore("sqlite://") as store:
        run(lambda k: run_sheet(store, read=k.read, write=k.write, lang=lang), keyboard)  # type: ignore[arg-type]
    answered(keyboard, typed, at)


@SETTINGS
@given(typed=TEXT, lang=st.sampled_from(["ru", "en"]), events=st.integers(0, 2))
def test_banki_referee_prompt(typed: str, lang: str, events: int) -> None:
    state = new_banki(["Аня", "Боря", "Вера", "Гена"], BankiOptions.preset("moscow"), seed=1)
    first = ["kick Аня 7", "kick Боря 5"][:events]
    keyboard = Keyboard([*first, typed])
    with SqlStore("sqlite://") as store:
        game_id = create_banki(store, state)
        run(lambda k: banki_play(state, store, game_id, lang, k.read, k.write), keyboard)  # type: ignore[arg-type]
    if typed.strip().lower() not in ("quit", "выход"):
        answered(keyboard, typed, events)


@pytest.mark.parametrize("typed", ["²", "9" * 5000, "\x1b[A"])
def test_the_inputs_that_used_to_stop_the_game(typed: str) -> None:
    test_thousand_move_prompt.hypothesis.inner_test(typed=typed, lang="ru", when=0)  # type: ignore[attr-defined]
    for at in range(len(SHEET)):  # 5,000 digits for the declarer's number ended the sheet with a ValueError
        test_score_sheet_prompts.hypothesis.inner_test(typed=typed, at=at, lang="ru")  # type: ignore[attr-defined]

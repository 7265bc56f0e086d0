"""Issue 29, the terminal: what the games say at the prompt, in both languages. Bank's cover hint is the
engine's own rule 4.3 (koloda.bank.explain), an empty line asks again, an entry is quoted once, Thousand's
card errors name Thousand's ranks, the person is spoken to as «вы», quitting exits with status 0 in every
game, the score sheet is drawn as a table, and in Russian no refusal names a card by a Latin code and the
coach says no English word."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from koloda.bank import from_deal as bank_deal
from koloda.bank import new_game as bank_game
from koloda.bank import observe as bank_observe
from koloda.bank.cli import play_match, table_view
from koloda.bots.base import RandomBot
from koloda.cli import main
from koloda.i18n import Lang
from koloda.store.open import open_store
from koloda.term import Quit
from koloda.thousand import observe as thousand_observe
from koloda.thousand.cli import Narrator, play_game
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet.terminal import run_sheet
from koloda.thousand.state import from_deal as thousand_deal

sys.path.insert(0, str(Path(__file__).parent / "thousand"))
from test_sheet import SEED_LINES  # the seed's three deals, as typed at the sheet

LANGS: tuple[Lang, ...] = ("ru", "en")
#: A card named by a Latin code (QH, 10S, 9D): never in a Russian refusal.
LATIN_CARD = re.compile(r"(?<![\w+])(?:10|[6-9JQKA])[SCDH](?![\w])")
REFUSED = ("Так нельзя", "illegal", "bad", "seat", "you ")


def feed(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    """The terminal's input is ``lines``, then it closes (end of input)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))


def flat(text: str) -> str:
    """The output with the table view's wrapped lines joined."""
    return " ".join(text.split())


# -- Bank's cover hint: rule 4.3 as the engine plays it --------------------------------------------------

HINT = {
    "en": "To cover 6♥: 6♠ 6♣ 6♦ (the same rank, rule 4.3) · any ♣ (your trump, rule 3.2) · an 8 on anything"
    " (rule 4.5) · four of a kind on anything (rule 4.6)",
    "ru": "Покрыть 6♥: 6♠ 6♣ 6♦ (того же значения, правило 4.3) · любая ♣ (ваш козырь, правило 3.2) ·"
    " восьмёрка на любую карту (правило 4.5) · четыре одного значения на любую карту (правило 4.6)",
}
NO_COVER = {"en": "QH does not cover 6H (rule 4.3)", "ru": "ход Д♥ невозможен: Д♥ не кроет 6♥ (правило 4.3)"}


@pytest.mark.parametrize("lang", LANGS)
def test_the_bank_hint_says_rule_4_3_as_the_engine_plays_it(
    lang: Lang, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``koloda bank play --seed 7``: the 6♥ to cover, the hand A♠ J♦ 8♥ Q♥ and clubs the trump. A higher
    heart does not cover it (rule 4.3 goes one lower); the hint says what does, and the Q♥ is refused."""
    feed(monkeypatch, ["qh", "quit"])
    assert main(["bank", "play", "--lang", lang, "--seed", "7"]) == 0
    out = flat(capsys.readouterr().out)
    assert HINT[lang] in out
    assert "higher card" not in out and "старшей" not in out
    assert NO_COVER[lang] in out


# -- an empty line, a long line ---------------------------------------------------------------------------


def typist(answers: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """A person who types ``answers`` then ``quit``, and the prompts he is asked."""
    asked: list[str] = []
    lines = [*answers, "quit"]

    def read(prompt: str) -> str:
        asked.append(prompt)
        return lines.pop(0)

    return read, asked


def bank_prompt(lang: Lang, answers: list[str]) -> tuple[list[str], list[str]]:
    """Bank's move prompt fed ``answers`` then ``quit``: what it wrote, and the prompts."""
    state = bank_game(players=2, seed=5, scope="deal")
    seat = state.current_player or 0
    out: list[str] = []
    read, asked = typist(answers)
    with pytest.raises(Quit):
        play_match(state, seat=seat, lang=lang, bots={1 - seat: RandomBot(1)}, read=read, write=out.append)
    return out, asked


def thousand_prompt(lang: Lang, answers: list[str]) -> tuple[list[str], list[str]]:
    """Thousand's move prompt fed ``answers`` then ``quit``."""
    out: list[str] = []
    read, asked = typist(answers)
    bots = {1: RandomBot(1), 2: RandomBot(2)}
    with pytest.raises(Quit):
        play_game(ThousandOptions(), seed=3, bots=bots, lang=lang, read=read, write=out.append)
    return out, asked


PROMPTS: dict[str, Callable[[Lang, list[str]], tuple[list[str], list[str]]]] = {
    "bank": bank_prompt,
    "thousand": thousand_prompt,
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PROMPTS))
def test_an_empty_line_asks_again(game: str, lang: Lang) -> None:
    out, asked = PROMPTS[game](lang, ["", "   "])
    assert len(asked) == 3  # the empty lines, then quit: asked again each time
    assert not any(line.startswith(REFUSED) for line in out), out  # nothing refused («ход «» не понят»)
    assert not any("«»" in line or "''" in line for line in out)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(PROMPTS))
def test_a_long_line_is_quoted_once_and_cut(game: str, lang: Lang) -> None:
    out, _ = PROMPTS[game](lang, ["x" * 200])
    (refusal,) = [line for line in out if "x" * 10 in line]
    assert re.findall("x+", refusal) == ["x" * 24] and "x" * 24 + "…" in refusal  # once, cut


@pytest.mark.parametrize("lang", LANGS)
def test_thousands_card_errors_name_thousands_ranks(lang: Lang) -> None:
    """Thousand is played with 9 to ace: a bad rank is told with those ranks, not Bank's 6 7 8."""
    out, _ = thousand_prompt(lang, ["1h"])
    (refusal,) = [line for line in out if "1h" in line or "«1»" in line or "'1'" in line]
    assert "9 10 T J Q K A" in refusal and "9 10 В Д К Т" in refusal
    assert "6 7 8" not in refusal


# -- the person spoken to ---------------------------------------------------------------------------------

#: Thousand, seat 0 declares at the compulsory 100 (tests/coach/test_coach.py).
DECLARER = {
    "dealer": 2,
    "hands": ["AS 10S JS 9S 9D JC 9H", "AH JH KD JD QC KC AD", "KS QS 10H KH QH 10D QD"],
    "talon": "AC 10C 9C",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_declarer_is_spoken_to(lang: Lang) -> None:
    """Not «Играет Вы, заказ 100»: the verb agrees with «вы»; and Bank's bank says the top card is yours."""
    state = thousand_deal(DECLARER)
    for text in ("pass", "pass", "9D>1", "9C>2", "100"):
        state.apply(state.parse_action(text))
    out: list[str] = []
    names = ["Вы" if lang == "ru" else "You", "Bot 1", "Bot 2"]
    Narrator(0, names, lang, out.append).show_turn(thousand_observe(state, 0), state.legal_actions())
    text = "\n".join(out)
    assert ("Играете вы, заказ 100" if lang == "ru" else "You play, contract 100") in text
    assert "Играет Вы" not in text and "You, contract" not in text
    bank = bank_deal({"hands": [["8H", "7H", "AS"], ["9S"]], "open": "KD", "stock": [], "dealer": 1})
    bank.apply(bank.parse_action("8H"))  # seat 0 may add a card: the 8 on top is his own
    view = flat(table_view(bank_observe(bank, 0), 0, lang, False))
    assert ("верхняя карта ваша" if lang == "ru" else "the top card is yours") in view
    assert "положил Вы" not in view and "laid by You" not in view


# -- leaving ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", ["bank", "thousand"])
@pytest.mark.parametrize("how", ["quit", "end of input"])
def test_quitting_exits_with_status_0_in_every_game(
    game: str, lang: Lang, how: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, ["quit"] if how == "quit" else [])
    assert main([game, "play", "--seed", "1", "--lang", lang]) == 0
    assert ("Игра прервана." if lang == "ru" else "Game abandoned.") in capsys.readouterr().out


# -- the score sheet --------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_terminal_sheet_draws_a_table(lang: Lang, tmp_path: Path) -> None:
    lines = ["Аня, Боря, Вера", *SEED_LINES]
    out: list[str] = []

    def read(prompt: str) -> str:
        if not lines:
            raise EOFError
        return lines.pop(0)

    with open_store(tmp_path / "s.sqlite3") as store:
        assert run_sheet(store, lang=lang, read=read, write=out.append) == 0
    head = r"^Кон +Игра +Аня +Боря +Вера$" if lang == "ru" else r"^Deal +Game +Аня +Боря +Вера$"
    tables = [text for text in out if re.match(head, text.splitlines()[0] if text else "")]
    assert tables and all(re.fullmatch("─+", table.splitlines()[1]) for table in tables)
    assert not any("|---|" in text or text.startswith("|") for text in out)
    assert "+60 → 210" in tables[-1] and "0 → 30" in tables[-1]


# -- cards in Russian refusals; the coach's words -----------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_name_cards_in_the_players_notation(lang: Lang) -> None:
    """«у вас нет 9S» reads «у вас нет 9♠» in Russian (Russian ranks: «Т♠»); English keeps the notation
    typed."""
    out, _ = bank_prompt(lang, ["9S", "QD", "KH+QH+JH+9H"])
    refusals = [line for line in out if line.startswith(REFUSED) or "Legal moves" in line]
    assert len(refusals) == 3
    tout, _ = thousand_prompt(lang, ["pass", "9C"])  # in the play: a card he does not hold
    refusals += [line for line in tout if "Можно: " in line or "Legal moves: " in line]
    assert len(refusals) == 4
    if lang == "ru":
        assert "у вас нет 9♠" in refusals[0] and "у вас нет 9♣" in refusals[-1]
        assert not any(LATIN_CARD.search(line.split("Можно:")[0]) for line in refusals), refusals
    else:
        assert "you do not hold 9S" in refusals[0] and "you do not hold 9C" in refusals[-1]


RECORDS = {
    # Bank: Anna passes up going out on her trump king (tests/coach/test_coach.py)
    "bank": (
        {
            "hands": [["10S", "QS", "8S", "KH"], ["KS", "JS", "9D", "JD"]],
            "open": "AS",
            "stock": ["7D", "AC", "6H", "7C"],
            "dealer": 1,
            "trump_suits": ["H", "C"],
        },
        ["10S", "KS", "QS", "JS", "8S", "pass"],
        0,
    ),
    # Thousand: the declarer's gifts and contract, where a bomb was better
    "thousand": (DECLARER, ["pass", "pass", "9D>1", "9C>2", "100", "AS", "QC", "KS", "10S", "AH"], 0),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", sorted(RECORDS))
def test_the_coach_says_moves_in_the_players_words(
    game: str, lang: Lang, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deal, actions, seat = RECORDS[game]
    state = bank_deal(deal) if game == "bank" else thousand_deal(deal)
    for text in actions:
        state.apply(state.parse_action(text))
    path = tmp_path / "record.json"
    state.record().save(path)
    assert main([game, "analyse", str(path), "--seat", str(seat), "--lang", lang]) == 0
    out = capsys.readouterr().out
    word = {"bank": ("пас", "pass"), "thousand": ("бомба", "bomb")}[game]
    if lang == "ru":
        assert word[0] in out and not re.search(r"\b(pass|bomb|seed|draw)\b", out), out
        assert not LATIN_CARD.search(out), out
    else:
        assert word[1] in out

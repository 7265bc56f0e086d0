"""A terminal that is not UTF-8 (Windows' cp1252, ASCII): suits and Cyrillic get readable stand-ins, never a
UnicodeEncodeError (koloda.console)."""

from __future__ import annotations

import ast
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from koloda import console
from koloda.cards import DECK_36, Card
from koloda.term import card_text

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "koloda"
BANK_RECORD = ROOT / "tests" / "bank" / "golden" / "literal-4-deal.json"
THOUSAND_RECORD = ROOT / "tests" / "thousand" / "golden" / "game_russian_4p.json"
SCORE_FILE = ROOT / "tests" / "thousand" / "fixtures" / "russian_barrel.jsonl"
ENCODINGS = ["cp1252", "ascii"]


def run(
    args: list[str], encoding: str, tmp_path: Path, stdin: str = ""
) -> subprocess.CompletedProcess[bytes]:
    tmp_path.mkdir(exist_ok=True)
    env = {**os.environ, "PYTHONIOENCODING": encoding, "KOLODA_DATA_DIR": str(tmp_path), "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "koloda", *args],
        input=stdin.encode("utf-8"),
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )


COMMANDS = {
    "bank replay": (["bank", "replay", str(BANK_RECORD), "--lang", "ru"], ""),
    "thousand replay": (["thousand", "replay", str(THOUSAND_RECORD), "--lang", "ru"], ""),
    "thousand score": (["thousand", "score", str(SCORE_FILE)], ""),
    "help": (["--help"], ""),
    "bank play": (["bank", "play", "--lang", "ru", "--seed", "1", "--players", "2"], "quit\n"),
    # typed in Latin letters: what a cp1252 terminal can type (Russian typed into one: the last test)
    "thousand play": (["thousand", "play", "--lang", "ru", "--seed", "1"], "pass\nquit\n"),
}


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("command", COMMANDS)
def test_commands_print_stand_ins_on_a_terminal_without_suits_or_cyrillic(
    command: str, encoding: str, tmp_path: Path
) -> None:
    args, stdin = COMMANDS[command]
    utf8 = run(args, "utf-8", tmp_path / "utf8", stdin)
    other = run(args, encoding, tmp_path / encoding, stdin)
    # the same ending (thousand play left at a prompt ends with status 1, bank play with 0)
    assert other.returncode == utf8.returncode in (0, 1), other.stderr.decode(encoding, "replace")
    assert b"Traceback" not in other.stderr and b"UnicodeEncodeError" not in other.stderr
    text = utf8.stdout.decode("utf-8")
    assert any(c in text for c in "♠♣♦♥") or console.CYRILLIC.keys() & set(text)  # there was something to do
    shown = other.stdout.decode(encoding)
    # exactly the UTF-8 output, each character the encoding lacks replaced by its stand-in...
    assert shown == console.fallback(text, encoding)
    # ...and every stand-in readable: no "?" where the UTF-8 output had none
    assert shown.count("?") == text.count("?")


def test_the_stand_ins_read_as_the_text_would() -> None:
    assert console.fallback("Ваши карты: 7♠ 10♠ В♠ 7♥") == "Vashi karty: 7S 10S JS 7H"
    assert console.fallback("Сдаёт Бот 1 · козырь ♦ (♦ ♥)") == "Sdayot Bot 1 | kozyr D (D H)"
    assert console.fallback("штраф −1 = +13 → 13") == "shtraf -1 = +13 -> 13"
    # what cp1252 has stays as it is
    assert console.fallback("«пас» — Т♥", "cp1252") == "«pas» — AH"
    # a Russian Windows code page has the Cyrillic but no suits: the card still parses (Т is the ace)
    assert console.fallback("Т♠ → «пас»", "cp1251") == "ТS -> «пас»"
    assert Card.parse("ТS") == Card.parse("AS")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_card_falls_back_to_the_notation_koloda_reads(lang: str) -> None:
    for card in DECK_36:
        shown = console.fallback(card_text(card, lang))  # type: ignore[arg-type]
        assert shown == card.text("latin", "letter")  # Т♠ is AS, not TS (the ten)
        assert Card.parse(shown) == card


def printed_characters() -> set[str]:
    """Every character outside ASCII in the catalog's texts and in the string literals of the code."""
    chars: set[str] = set()
    for po in PACKAGE.glob("locale/*/LC_MESSAGES/koloda.po"):
        for line in po.read_text(encoding="utf-8").splitlines():
            if line.startswith("msgstr"):
                chars |= set(line)
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                chars |= set(node.value)
    return {c for c in chars if ord(c) > 127}


def test_every_character_koloda_prints_has_a_readable_stand_in() -> None:
    # A new symbol in the catalog or the code needs a line in koloda.console, or it would print as "?".
    missing = {c for c in printed_characters() if console.fallback(c) in ("?", "")}
    missing -= {"ъ", "ь", "Ъ", "Ь"}  # the signs are left out on purpose
    assert not missing, sorted(missing)


def stream(encoding: str, errors: str = "strict") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(), encoding=encoding, errors=errors)


def test_only_streams_that_need_it_get_the_handler() -> None:
    utf8, cp1252, chosen = stream("utf-8"), stream("cp1252"), stream("cp1252", "replace")
    err, ascii_in = stream("ascii", "backslashreplace"), stream("ascii")
    console.fit_streams(utf8, err, ascii_in)
    assert utf8.errors == "strict"  # UTF-8 shows everything
    assert err.errors == console.HANDLER
    assert ascii_in.errors == "replace"  # a line it cannot decode is a wrong entry, not a crash
    console.fit_streams(cp1252, chosen, stream("utf-8"))
    assert cp1252.errors == console.HANDLER
    assert chosen.errors == "replace"  # PYTHONIOENCODING=cp1252:replace is the person's choice
    cp1252.write("Т♠ «пас»\n")
    cp1252.flush()
    assert cp1252.buffer.getvalue() == "AS «pas»\n".encode("cp1252")  # type: ignore[attr-defined]


def test_russian_typed_into_an_ascii_terminal_is_refused_not_a_crash(tmp_path: Path) -> None:
    result = run(["thousand", "sheet", "--lang", "en"], "ascii", tmp_path, "Аня, Боря, Вера\nquit\n")
    assert result.returncode == 0, result.stderr
    assert b"Traceback" not in result.stderr
    assert b"two players are named" in result.stdout  # the replaced letters made two names alike

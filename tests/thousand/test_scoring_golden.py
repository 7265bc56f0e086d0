"""Golden score files: checked-in games scored again and compared with their checked-in tables.

``fixtures/seed.jsonl`` is the seed's three deals; ``fixtures/russian_barrel.jsonl`` a 13-deal game under
the ``russian`` preset with the house rules on (bolts, dump, three falls), which passes through the dump
at 555, the barrel (climbing by contract, frozen defence, a failed contract on it) and a win from it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koloda.cli import main
from koloda.thousand.scoring import Note
from koloda.thousand.sheet.scorefile import load_score_file

FIXTURES = Path(__file__).parent / "fixtures"
SEED = Path(__file__).resolve().parents[2] / "docs" / "sources" / "002_3bd9893b7ac19bb5.txt"


@pytest.mark.parametrize(
    ("score_file", "argv", "golden"),
    [
        ("russian_barrel.jsonl", [], "russian_barrel.md"),
        ("russian_barrel.jsonl", ["--lang", "en"], "russian_barrel.en.md"),
        ("russian_barrel.jsonl", ["--json"], "russian_barrel.json"),
    ],
)
def test_golden_output(
    score_file: str, argv: list[str], golden: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["thousand", "score", str(FIXTURES / score_file), *argv]) == 0
    assert capsys.readouterr().out == (FIXTURES / golden).read_text(encoding="utf-8")


def test_seed_fixture_is_the_seeds_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["thousand", "score", str(FIXTURES / "seed.jsonl")]) == 0
    seed_rows = [line for line in SEED.read_text(encoding="utf-8").splitlines() if line.startswith("|")][-5:]
    assert capsys.readouterr().out.splitlines() == seed_rows


def test_russian_barrel_story() -> None:
    """The golden game's key moments, checked by rule rather than by the stored text."""
    game = load_score_file(FIXTURES / "russian_barrel.jsonl")
    deals = game.book.deals
    anya, borya, vera = 0, 1, 2
    assert deals[6].total[anya] == 0 and Note.DUMP in deals[6].notes[anya]  # S12: 550 + 5 = 555 → 0
    assert deals[3].delta[vera] == -120 and Note.BOLT_PENALTY in deals[3].notes[vera]  # S11: third bolt
    assert (
        deals[7].total[borya] == 880 and Note.BARREL_ON in deals[7].notes[borya]
    )  # S6: 580 + 300 stops at 880
    assert (
        deals[8].raw[borya] == 60 and deals[8].delta[borya] == 0
    )  # S6, S7: bomb points frozen on the barrel
    assert deals[10].total[borya] == 770 and Note.BARREL_FALL in deals[10].notes[borya]  # S6: 880 − 110
    assert deals[11].total[borya] == 880 and deals[11].delta[borya] == 110  # S6: 770 + 120 stops at 880
    assert game.book.winner == borya and game.book.totals[borya] == 1000  # S8: won from the barrel
    assert json.loads((FIXTURES / "russian_barrel.json").read_text(encoding="utf-8"))["winner"] == "Боря"

"""``koloda thousand score FILE``: the table, --json, --preset/--option, and every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from koloda.cli import main
from koloda.thousand.sheet.scorefile import dump_score_file, parse_score_file
from koloda.thousand.sheet.table import markdown_table

SEED = Path(__file__).resolve().parents[2] / "docs" / "sources" / "002_3bd9893b7ac19bb5.txt"
HEADER = '{"players": ["Аня", "Боря", "Вера"]}'
DEAL1 = (
    '{"declarer": "Аня", "bid": 120, "points": {"Аня": 85, "Боря": 25, "Вера": 10},'
    ' "marriages": {"Аня": [60]}}'
)
DEAL2 = '{"declarer": "Боря", "bid": 100, "points": {"Аня": 34, "Боря": 70, "Вера": 16}}'
DEAL3 = '{"declarer": "Вера", "bid": 110, "bomb": true}'


def write(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["thousand", "score", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_seed_table_printed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, str(write(tmp_path, HEADER, DEAL1, DEAL2, DEAL3)))
    seed_rows = [line for line in SEED.read_text(encoding="utf-8").splitlines() if line.startswith("|")][-5:]
    assert status == 0 and err == ""
    assert out.splitlines() == seed_rows  # no winner line: nobody has won


def test_english_and_winner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    win = '{"declarer": "Вера", "bid": 120, "points": {"Аня": 0, "Боря": 0, "Вера": 120}}'
    header = (
        '{"players": ["Аня", "Боря", "Вера"], "options": {"target": 130, "defender_cap": 120,'
        ' "rule_800": "off"}}'
    )
    status, out, _ = run(capsys, str(write(tmp_path, header, DEAL1, win)), "--lang", "en")
    assert status == 0
    assert "| Deal | Game | Аня | Боря | Вера |" in out
    assert "| 2 | Вера 120 — made (120) | 0 → 120 | 0 → 30 | +120 → 130 |" in out
    assert out.splitlines()[-1] == "Winner: Вера with 130."
    status, out, _ = run(capsys, str(write(tmp_path, header, DEAL1, win)))
    assert out.splitlines()[-1] == "Победила Вера: 130."


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, str(write(tmp_path, HEADER, DEAL1, DEAL2, DEAL3)), "--json")
    data = json.loads(out)
    assert status == 0 and data["players"] == ["Аня", "Боря", "Вера"] and data["winner"] is None
    assert [deal["total"] for deal in data["deals"]] == [
        {"Аня": 120, "Боря": 30, "Вера": 10},
        {"Аня": 150, "Боря": -70, "Вера": 30},
        {"Аня": 210, "Боря": -10, "Вера": 30},
    ]
    assert data["deals"][1]["delta"] == {"Аня": 30, "Боря": -100, "Вера": 20}
    assert data["deals"][1]["raw"] == {"Аня": 34, "Боря": 70, "Вера": 16}
    assert data["deals"][0]["game"] == "Аня 120 — выполнила (85 + марьяж 60)"


def test_preset_and_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEADER, DEAL1)
    _, out, _ = run(capsys, str(path), "--preset", "tournament", "--json")
    assert json.loads(out)["deals"][0]["delta"]["Боря"] == 20  # 25 rounds down in tournament rounding
    _, out, _ = run(capsys, str(path), "--option", "rounding=russian", "--json")
    assert json.loads(out)["deals"][0]["delta"]["Боря"] == 25
    in_file = write(tmp_path, '{"players": ["Аня", "Боря", "Вера"], "preset": "tournament"}', DEAL1)
    _, out, _ = run(capsys, str(in_file), "--json")
    assert json.loads(out)["deals"][0]["delta"]["Боря"] == 20
    _, out, _ = run(capsys, str(in_file), "--preset", "home", "--json")  # the command line wins
    assert json.loads(out)["deals"][0]["delta"]["Боря"] == 30


def test_four_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header = '{"players": ["Аня", "Боря", "Вера", "Гена"]}'
    deal = (
        '{"declarer": "Аня", "bid": 100, "points": {"Аня": 100, "Боря": 10, "Вера": 10, "Гена": 23},'
        ' "sitting": "Гена"}'
    )
    status, out, _ = run(capsys, str(write(tmp_path, header, deal)), "--json")
    assert status == 0 and json.loads(out)["totals"] == {"Аня": 100, "Боря": 10, "Вера": 10, "Гена": 20}


@pytest.mark.parametrize(
    ("lines", "line", "message"),
    [
        (
            [HEADER, DEAL1.replace('"declarer": "Аня"', '"declarer": "Гена"')],
            2,
            "declarer 'Гена' is not a player",
        ),
        (
            [HEADER, DEAL1.replace('"Боря": 25', '"Боря": 25, "Гена": 0')],
            2,
            "points of 'Гена' is not a player",
        ),
        ([HEADER, DEAL3.replace("110", "95")], 2, "bid 95 is below the lowest bid 100"),
        ([HEADER, DEAL3.replace("110", "112")], 2, "bid 112 is not a multiple of the bid step 5"),
        ([HEADER, DEAL3.replace("110", '"110"')], 2, "bid must be a whole number"),
        ([HEADER, DEAL1.replace('"Вера": 10', '"Вера": 20')], 2, "card points add up to 130, not 120"),
        ([HEADER, DEAL1.replace('"Аня": 85, "Боря": 25', '"Аня": 115, "Боря": -5')], 2, "cannot be negative"),
        ([HEADER, DEAL1.replace(', "Вера": 10', "")], 2, "points has no entry for Вера"),
        ([HEADER, DEAL1.replace("[60]", "[50]")], 2, "50 is not a marriage value"),
        ([HEADER, DEAL1.replace("[60]", "[200]")], 2, "200 is not a marriage value"),
        ([HEADER, DEAL1.replace('{"Аня": [60]}', '{"Аня": [60], "Боря": [60]}')], 2, "declared twice"),
        ([HEADER, DEAL1, DEAL2.replace("}}", '}, "marriages": {"Аня": [40, 40]}}')], 3, "declared twice"),
        ([HEADER, DEAL1, '{"declarer": "Аня", "bid": 100, "points": {"Аня": 85,'], 3, "not valid JSON"),
        (["[1, 2]"], 1, "the first line must be an object"),
        (['{"players": ["Аня"]}'], 1, "2 to 4 players"),
        (['{"players": ["Аня", "Аня", "Вера"]}'], 1, "two players are named 'Аня'"),
        (['{"players": ["Аня", "Боря"], "colour": 1}'], 1, "unknown keys colour"),
        (['{"players": ["Аня", "Боря"], "options": {"barel": true}}'], 1, "did you mean 'barrel'"),
        (['{"players": ["Аня", "Боря"], "preset": "polish"}'], 1, "unknown preset 'polish'"),
        ([HEADER, DEAL1.replace('"bid"', '"bet"')], 2, "unknown keys bet"),
        ([HEADER, DEAL3, DEAL3], 3, "Вера has used the bombs allowed per game (1)"),
        (
            [HEADER, DEAL3.replace("}", ', "points": {"Аня": 120}}')],
            2,
            "a bomb is not played: it has no points",
        ),
        ([HEADER, DEAL1.replace("}}", '}, "sitting": "Боря"}')], 2, "with 4 players, and only then"),
        (
            [
                '{"players": ["Аня", "Боря", "Вера"],'
                ' "options": {"target": 200, "defender_cap": 190, "rule_800": "off"}}',
                DEAL1,
                DEAL1.replace("[60]", "[100]"),
                DEAL2,
            ],
            4,
            "the game is over: Аня has won",
        ),
    ],
)
def test_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], line: int, message: str
) -> None:
    status, out, err = run(capsys, str(write(tmp_path, *lines)))
    assert status == 2
    assert out == ""
    assert err.startswith("koloda: error: ") and f"line {line}: " in err and message in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_ace_marriage_accepted_with_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, HEADER, DEAL1.replace("[60]", "[200]"))
    status, out, err = run(capsys, str(path), "--option", "ace_marriage=true", "--json")
    assert status == 0, err
    assert json.loads(out)["deals"][0]["raw"]["Аня"] == 285


def test_file_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, str(tmp_path / "missing.jsonl"))
    assert status == 2 and "cannot read the score file" in err
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    status, _, err = run(capsys, str(empty))
    assert status == 2 and "the score file is empty" in err
    status, _, err = run(capsys, str(write(tmp_path, HEADER)), "--option", "rounding=up")
    assert status == 2 and "option 'rounding' must be" in err
    # a bad --option is the command line's fault, not the file's first line
    assert "with the options given: option 'rounding'" in err and "line 1" not in err
    status, _, err = run(capsys, str(write(tmp_path, HEADER)), "--option", "roundin=home")
    assert status == 2 and "with the options given: unknown option 'roundin'" in err


def test_real_process_no_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, HEADER, DEAL1, DEAL1.replace("Аня", "Гена", 1))
    result = subprocess.run(
        [sys.executable, "-m", "koloda", "thousand", "score", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "line 3: declarer 'Гена' is not a player" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_dump_round_trip() -> None:
    """The writer's file, read back, gives the same table (also with genders and options that differ)."""
    text = "\n".join(
        ['{"players": ["Аня", {"name": "Саша", "gender": "m"}, "Вера"], "preset": "russian"}', DEAL1, DEAL3]
    ).replace("Боря", "Саша")
    game = parse_score_file(text)
    dumped = dump_score_file(game.players, game.book.options, (s.deal for s in game.book.deals))
    again = parse_score_file(dumped)
    assert again.book == game.book and again.players == game.players
    assert markdown_table(again) == markdown_table(game)
    assert '{"name": "Саша", "gender": "m"}' in dumped
    assert (
        game.book.deals[0].explain(game.names, "ru", game.genders) == "Аня 120 — выполнила (85 + марьяж 60)"
    )

"""``koloda thousand sheet``: the Sheet logic, its SQLite store, exports, and the prompt loop fed lines."""

from __future__ import annotations

import csv
import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from koloda.errors import KolodaError
from koloda.store.open import open_store
from koloda.store.paths import DB_NAME
from koloda.store.paths import default_path as default_db_path
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, ScoringError
from koloda.thousand.sheet.scorefile import Player, parse_score_file
from koloda.thousand.sheet.table import markdown_table
from koloda.thousand.sheet.terminal import Sheet, run_sheet

SEED = Path(__file__).resolve().parents[2] / "docs" / "sources" / "002_3bd9893b7ac19bb5.txt"
PLAYERS = [Player.named("Аня"), Player.named("Боря"), Player.named("Вера")]
SEED_DEALS = [
    DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())),
    DealInput(declarer=1, bid=100, points=(34, 70, 16)),
    DealInput(declarer=2, bid=110, bomb=True),
]
# The seed's three deals as typed at the prompts: declarer, bid, bomb?, points, marriages.
SEED_LINES = [
    "Аня", "120", "н", "85", "25", "60", "", "",
    "2", "100", "", "34", "70", "", "", "",
    "вера", "110", "д",
]  # fmt: skip


def seed_rows() -> list[str]:
    return [line for line in SEED.read_text(encoding="utf-8").splitlines() if line.startswith("|")][-5:]


class Console:
    """Feeds lines to the loop and records everything it writes (prompts included)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.out: list[str] = []

    def read(self, prompt: str) -> str:
        self.out.append(prompt)
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def write(self, text: str) -> None:
        self.out.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def test_sheet_saves_every_deal_and_survives_a_closed_terminal(tmp_path: Path) -> None:
    db = tmp_path / "sheet.sqlite3"
    with open_store(db) as store:
        sheet = Sheet.new(store, PLAYERS, ThousandOptions())
        for deal in SEED_DEALS[:2]:
            sheet.add(deal)
    # a new store object on the same file: nothing lost
    with open_store(db) as store:
        again = Sheet.resume(store)
        assert again.game_id == sheet.game_id
        assert again.book == sheet.book and again.book.totals == (150, -70, 30)
        again.add(SEED_DEALS[2])
    with open_store(db) as store:
        assert Sheet.resume(store).book.totals == (210, -10, 30)


def test_undo_is_saved(tmp_path: Path) -> None:
    db = tmp_path / "sheet.sqlite3"
    with open_store(db) as store:
        sheet = Sheet.new(store, PLAYERS, ThousandOptions())
        for deal in SEED_DEALS:
            sheet.add(deal)
        assert sheet.undo().deal == SEED_DEALS[2]
        assert sheet.book.bomb_allowed(2)
    with open_store(db) as store:
        resumed = Sheet.resume(store)
        assert len(resumed.book.deals) == 2 and resumed.book.totals == (150, -70, 30)
        resumed.add(SEED_DEALS[2])  # the undone deal can be entered again (same seq number)
        assert resumed.book.totals == (210, -10, 30)
        with pytest.raises(ScoringError, match="no deal to undo"):
            Sheet.new(store, PLAYERS, ThousandOptions()).undo()


def test_bad_deal_saves_nothing(tmp_path: Path) -> None:
    db = tmp_path / "sheet.sqlite3"
    with open_store(db) as store:
        sheet = Sheet.new(store, PLAYERS, ThousandOptions())
        sheet.add(SEED_DEALS[0])
        with pytest.raises(ScoringError, match="add up to 110"):
            sheet.add(DealInput(declarer=0, bid=100, points=(80, 20, 10)))
    with open_store(db) as store:
        assert len(Sheet.resume(store).book.deals) == 1


def test_resume_options_and_finished_games(tmp_path: Path) -> None:
    db = tmp_path / "sheet.sqlite3"
    with open_store(db) as store:
        with pytest.raises(KolodaError, match="no unfinished game"):
            Sheet.resume(store)
        russian = Sheet.new(store, PLAYERS, ThousandOptions.preset("russian"))
        russian.add(DealInput(declarer=0, bid=100, points=(100, 17, 3)))
        short = ThousandOptions(target=200, defender_cap=190, rule_800="off")
        won = Sheet.new(store, PLAYERS, short)
        won.add(DealInput(declarer=0, bid=120, points=(120, 0, 0)))
        won.add(DealInput(declarer=0, bid=100, points=(120, 0, 0)))
        assert won.book.is_over
    with open_store(db) as store:
        resumed = Sheet.resume(store)  # the finished game is skipped
        assert resumed.game_id == russian.game_id
        assert resumed.book.options == ThousandOptions.preset("russian") and resumed.book.totals == (
            100,
            15,
            5,
        )


def test_exports(tmp_path: Path) -> None:
    with open_store(tmp_path / "s.sqlite3") as store:
        sheet = Sheet.new(
            store, [*PLAYERS[:2], Player.named("Саша", "m")], ThousandOptions.preset("tournament")
        )
        deals = [
            DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())),
            DealInput(declarer=2, bid=100, points=(34, 16, 70)),
        ]
        for deal in deals:
            sheet.add(deal)
        markdown = sheet.export("md")
        assert (
            markdown.splitlines()[2]
            == "| 1 | Аня 120 — выполнила (85 + марьяж 60) | +120 → 120 | +20 (25) → 20 | +10 → 10 |"
        )
        assert "| 2 | Саша 100 — не выполнил (70) |" in markdown
        rows = list(csv.reader(io.StringIO(sheet.export("csv", "en"))))
        assert rows[0][:5] == ["deal", "game", "Аня: points", "Аня: raw", "Аня: total"]
        assert rows[1][:5] == ["1", "Аня 120 — made (85 + marriage 60)", "120", "145", "120"]
        assert rows[2][-3:] == ["-100", "70", "-90"]
        # the JSON Lines export, scored again, gives the same table and the same book
        again = parse_score_file(sheet.export("jsonl"))
        assert again.book == sheet.book and again.players == sheet.game.players
        assert markdown_table(again) == markdown_table(sheet.game)


def test_default_db_path(tmp_path: Path) -> None:
    assert default_db_path({"KOLODA_DATA_DIR": str(tmp_path)}) == tmp_path / DB_NAME
    assert default_db_path({}).name == DB_NAME and "koloda" in str(default_db_path({}))


# -- the prompt loop ----------------------------------------------------------------------------------


def test_loop_enters_the_seeds_game(tmp_path: Path) -> None:
    console = Console(["Аня, Боря, Вера", *SEED_LINES])
    with open_store(tmp_path / "s.sqlite3") as store:
        assert run_sheet(store, read=console.read, write=console.write) == 0
        tables = [text for text in console.out if text.startswith("Кон ") and "\n─" in text]  # drawn
        assert tables and not any("|---|" in text or text.startswith("| Кон") for text in console.out)
        assert tables[-1].splitlines()[1].strip("─") == ""  # the line under the head
        for row in seed_rows()[2:]:  # every score of the seed's table, in the drawn one
            for cell in [cell.strip() for cell in row.strip("|").split("|")][2:]:
                assert cell in tables[-1], cell
        assert console.out[-1].startswith("Сохранено.")
        # the remaining prompt ran out of input (a closed terminal): everything is in the store
        assert Sheet.resume(store).book.totals == (210, -10, 30)


def test_loop_wrong_entries_are_asked_again(tmp_path: Path) -> None:
    lines = [
        "Аня",  # one player only
        "Аня, Боря, Вера/x",  # a bad gender mark
        "Аня, Боря, Вера",
        "Гена",  # not a player
        "7",  # no seat 7
        "Аня",
        "сто",  # not a number
        "95",  # below 100
        "103",  # not a multiple of 5
        "120",
        "может",  # neither yes nor no
        "н",
        "130",  # more than the 120 left
        "85",
        "36",  # more than the 35 left
        "25",
        "50",  # not a marriage
        "60 60",  # the same marriage twice
        "60",
        "",
        "60",  # a marriage already declared by Аня: the whole deal is refused and asked again
        "Аня", "120", "н", "85", "25", "60", "", "",
    ]  # fmt: skip
    console = Console(lines)
    with open_store(tmp_path / "s.sqlite3") as store:
        run_sheet(store, read=console.read, write=console.write)
        assert Sheet.resume(store).book.totals == (120, 30, 10)
    text = console.text
    for message in (
        "в тысячу играют от 2 до 4 игроков, а не 1",
        "после '/' пишется пол: ж или м",
        "нет такого игрока: 'Гена'",
        "нет такого игрока: '7'",
        "нужно целое число, а не 'сто'",
        "заказ 95 меньше наименьшего (100)",
        "заказ 103 не кратен шагу торговли 5",
        "ответьте д или н",
        "число от 0 до 120, а не 130",
        "число от 0 до 35, а не 36",
        "50 — не марьяж",
        "один марьяж дважды",
        "Кон не записан: марьяж 60 объявлен в одном коне дважды",
    ):
        assert message in text, message


def test_loop_undo_export_and_resume_in_english(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    console = Console(["Аня, Боря, Вера", *SEED_LINES, "undo", "undo", f"export jsonl {out}", "export pdf x"])
    with open_store(tmp_path / "s.sqlite3") as store:
        run_sheet(store, read=console.read, write=console.write, lang="en")
        assert "The last deal was taken back." in console.text
        assert "export md|csv|jsonl FILE" in console.text  # the bad export is refused with the usage
        assert parse_score_file(out.read_text(encoding="utf-8")).book.totals == (120, 30, 10)
        later = Console(["2", "95", "100", "", "34", "70", "", "", ""])
        run_sheet(store, resume=True, read=later.read, write=later.write, lang="en")
        assert later.out[0] == "Resuming game 1."
        assert "bid 95 is below the lowest bid 100" in later.text
        assert Sheet.resume(store).book.totals == (150, -70, 30)
        with pytest.raises(KolodaError, match="drop --preset/--option"):
            run_sheet(store, resume=True, options=ThousandOptions(), read=later.read, write=later.write)


def test_loop_game_over_offers_undo(tmp_path: Path) -> None:
    short = ThousandOptions(target=200, defender_cap=190, rule_800="off")
    win = ["Аня", "120", "н", "120", "0", "", "", ""]
    console = Console(
        ["Аня, Боря, Вера", *win, *win, "Аня", "отмена", "Аня", "110", "н", "120", "0", "", "", ""]
    )
    with open_store(tmp_path / "s.sqlite3") as store:
        run_sheet(store, options=short, read=console.read, write=console.write)
        assert "Победила Аня: 240." in console.text
        assert "Игра окончена." in console.text and "неизвестная команда: 'Аня'" in console.text
        sheet = Sheet.load(store, 1)
        assert sheet.book.winner == 0 and sheet.book.totals == (230, 0, 0)


def test_loop_four_players_with_the_sitting_dealer(tmp_path: Path) -> None:
    lines = [
        "Аня, Боря, Вера, Гена",
        "Боря", "", "100", "н", "30", "80", "22", "", "", "",  # Аня sits (the default): Вера gets the rest 10
        "Вера", "", "100", "н", "0", "120", "", "", "", "",  # next default: Боря sits; talon points default 0
    ]  # fmt: skip
    console = Console(lines)
    with open_store(tmp_path / "s.sqlite3") as store:
        run_sheet(store, read=console.read, write=console.write)
        sheet = Sheet.resume(store)
    assert [score.deal.sitting for score in sheet.book.deals] == [0, 1]
    assert sheet.book.deals[0].deal.points == (22, 30, 80, 10)
    assert sheet.book.totals == (20, -100, 180, 10)


def test_cli_closed_terminal_then_resume_in_new_processes(tmp_path: Path) -> None:
    env = {**os.environ, "KOLODA_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "koloda", "thousand", "sheet"]
    first = "\n".join(["Аня, Боря, Вера", *SEED_LINES[:8]]) + "\n"  # input ends mid-game: the terminal closes
    result = subprocess.run(command, input=first, capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert (tmp_path / DB_NAME).exists()
    second = "\n".join(SEED_LINES[8:]) + "\n"
    result = subprocess.run(
        [*command, "--resume"], input=second, capture_output=True, text=True, env=env, check=False
    )
    assert result.returncode == 0
    assert re.search(r"^ *3 +Вера 110 — бомба +\+60 → 210 +\+60 → −10 +0 → 30$", result.stdout, re.MULTILINE)
    bad = subprocess.run(
        [*command, "--resume", "--db", str(tmp_path / "empty.sqlite3")],
        input="",
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        bad.returncode == 2 and "no unfinished game to resume" in bad.stderr and "Traceback" not in bad.stderr
    )

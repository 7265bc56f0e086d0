"""The files of koloda 0.1.0 in the data directory (the terminal score sheet's SQLite file, banki's JSON
game) are imported into the one store once, then renamed; none is imported twice, none is lost."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from store_helpers import LEGACY_DIR, feed

from koloda.banki import new_game, saved
from koloda.banki.view import describe
from koloda.cli import main
from koloda.errors import RecordError
from koloda.records import banki_options_v2
from koloda.store.legacy import import_banki_file
from koloda.store.open import open_store
from koloda.store.sql import SqlStore
from koloda.thousand.sheet.terminal import Sheet, run_sheet

SHEETS = "thousand-sheet.sqlite3"
BANKI = Path("banki") / "game.json"


def notes(store_opened: Any, capsys: pytest.CaptureFixture[str]) -> list[str]:
    store_opened.close()
    return capsys.readouterr().err.splitlines()


def check_terminal_sheets(store: SqlStore, ids: list[int], expected: dict[str, Any]) -> None:
    """The imported sheets ``ids`` are the terminal's games, in order, scoring exactly as they did."""
    assert len(ids) == len(expected)
    for sheet_id, was in zip(ids, expected.values(), strict=True):
        sheet = Sheet.load(store, sheet_id)
        assert list(sheet.game.names) == was["players"]
        assert list(sheet.book.totals) == was["totals"] and sheet.book.is_over == was["over"]
        assert sheet.export("md") == was["md"] and sheet.export("jsonl") == was["jsonl"]
        assert store.load_sheet(sheet_id)[2] == was["deals"]  # the deal lines as they were written


def check_banki_game(store: SqlStore, game_id: int, was: dict[str, Any]) -> None:
    state = saved.load(store, game_id)
    assert [str(event) for event in state.history] == was["events"]
    assert (list(state.names), state.seed, state.options.to_dict()) == (
        was["names"],
        was["seed"],
        banki_options_v2(was["options"]),  # read in record version 2's terms (koloda.records)
    )
    assert {lang: describe(state, lang) for lang in ("en", "ru")} == was["describe"]
    assert state.is_over() == was["over"]


def test_a_data_directory_of_koloda_0_1_0_ends_in_one_store(
    data_dir: Path, expected: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    store = open_store()
    assert store.path == data_dir / "koloda-web.sqlite3"
    # the web app's two sheets and two banki games first, then the terminal's, imported
    assert store.sheet_ids() == [1, 2, 3, 4, 5] and store.banki_ids() == [1, 2, 3]
    check_terminal_sheets(store, [3, 4, 5], expected["terminal_sheets"])
    check_banki_game(store, 3, expected["banki_file"])
    assert Sheet.load(store, 1).export("jsonl") == expected["web"]["sheets"]["1"]["jsonl"]
    said = notes(store, capsys)
    sheets, banki = data_dir / SHEETS, data_dir / BANKI
    assert said == [
        f"koloda: imported 3 score sheet(s) from {sheets}; the file is now {sheets}.imported",
        f"koloda: imported banki game 3 from {banki}; the file is now {banki}.imported",
    ]
    # the old files are kept, renamed, as they were
    assert not (data_dir / SHEETS).exists() and not (data_dir / BANKI).exists()
    assert (data_dir / f"{SHEETS}.imported").read_bytes() == (LEGACY_DIR / SHEETS).read_bytes()
    assert (data_dir / f"{BANKI}.imported").read_bytes() == (LEGACY_DIR / BANKI).read_bytes()
    # opened again: nothing more to import
    again = open_store()
    assert again.sheet_ids() == [1, 2, 3, 4, 5] and again.banki_ids() == [1, 2, 3]
    assert notes(again, capsys) == []


def test_a_file_imported_but_not_renamed_is_not_imported_again(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    open_store().close()
    # the same files again (a crash between the import and the rename, or a rename that failed)
    shutil.copyfile(LEGACY_DIR / SHEETS, data_dir / SHEETS)
    shutil.copyfile(LEGACY_DIR / BANKI, data_dir / BANKI)
    capsys.readouterr()
    store = open_store()
    assert store.sheet_ids() == [1, 2, 3, 4, 5] and store.banki_ids() == [1, 2, 3]
    said = notes(store, capsys)
    assert said[0].startswith(f"koloda: {data_dir / SHEETS} was imported before (3 score sheet(s))")
    assert said[1].startswith(f"koloda: {data_dir / BANKI} was imported before (banki game 3)")
    assert (data_dir / f"{SHEETS}.imported-2").exists() and (data_dir / f"{BANKI}.imported-2").exists()
    assert not (data_dir / SHEETS).exists()


def test_a_game_an_older_koloda_saved_after_the_import_is_imported_too(data_dir: Path) -> None:
    open_store().close()
    state = new_game(["Ann", "Bob", "Cat", "Dan"], seed=11)  # written as koloda 0.1.0's banki wrote it
    state.apply(state.parse_event("kick Ann 5"))
    (data_dir / BANKI).write_text(state.record().dumps() + "\n", encoding="utf-8")
    with open_store() as store:
        assert store.banki_ids() == [1, 2, 3, 4] and saved.load(store, 4) == state


def test_a_file_that_cannot_be_imported_is_left_where_it_is_with_a_note(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / SHEETS).write_bytes(b"SQLite format 3\x00 but then nothing sensible" * 50)
    record = (
        '{"game": "banki", "players": 4, "seed": 1, "actions": ["hit Ann"], "meta": {"names": ["Ann", "Bob", '
    )
    (data_dir / BANKI).write_text(record + '"Cat", "Dan"]}}', encoding="utf-8")
    sheets, banki = (data_dir / SHEETS).read_bytes(), (data_dir / BANKI).read_bytes()
    store = open_store()
    assert store.sheet_ids() == [1, 2] and store.banki_ids() == [1, 2]  # the store itself opens
    said = notes(store, capsys)
    assert said[0].startswith(f"koloda: cannot import {data_dir / SHEETS}: ")
    assert said[1].startswith(
        f"koloda: cannot import {data_dir / BANKI}: event 1 'hit Ann' does not replay: "
    )
    assert len(said) == 2 and all(line.endswith("; it is left where it is") for line in said)
    assert (data_dir / SHEETS).read_bytes() == sheets and (data_dir / BANKI).read_bytes() == banki


def test_a_sheet_file_of_the_old_terminal_named_by_db_goes_on(
    tmp_path: Path, expected: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """``koloda thousand sheet --db FILE`` of 0.1.0 wrote its tables into FILE: they are imported there."""
    path = tmp_path / "my-sheets.sqlite3"
    shutil.copyfile(LEGACY_DIR / SHEETS, path)
    store = open_store(str(path))
    check_terminal_sheets(store, [1, 2, 3], expected["terminal_sheets"])
    lines = iter(["отмена", "выход"])
    out: list[str] = []
    run_sheet(store, resume=True, read=lambda prompt: next(lines), write=out.append)
    assert out[0] == "Продолжаем игру 3."  # the last unfinished one
    assert len(Sheet.load(store, 3).book.deals) == 1  # the undo is kept in the store
    said = notes(store, capsys)
    assert said == [
        f"koloda: imported 3 score sheet(s) from the old tables games and deals of {path} "
        "(now thousand_sheet_games_imported and thousand_sheet_deals_imported)"
    ]
    with sqlite3.connect(path) as db:
        names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"thousand_sheet_games_imported", "thousand_sheet_deals_imported"} <= names
        assert not {"games", "deals"} & names
        assert db.execute("SELECT count(*) FROM thousand_sheet_deals_imported").fetchone() == (6,)
    again = open_store(str(path))
    assert again.sheet_ids() == [1, 2, 3]
    assert notes(again, capsys) == []


def test_banki_resume_file_imports_the_record_once_then_goes_on_in_the_store(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    expected: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    record = tmp_path / "yard.json"
    shutil.copyfile(LEGACY_DIR / BANKI, record)
    db = str(tmp_path / "games.db")
    feed(monkeypatch, ["undo"])
    assert main(["banki", "resume", "--file", str(record), "--db", db]) == 0
    assert "undone: miss Ann" in capsys.readouterr().out
    feed(monkeypatch, [])
    assert main(["banki", "resume", "--file", str(record), "--db", db]) == 0  # the store's game now
    with open_store(db) as store:
        assert store.banki_ids() == [1]
        assert [str(event) for event in saved.load(store, 1).history] == expected["banki_file"]["events"][:-1]
        assert import_banki_file(store, record) == 1
    assert record.read_bytes() == (LEGACY_DIR / BANKI).read_bytes()  # a file named on the command line stays
    with open_store(db) as store, pytest.raises(RecordError, match=r"cannot import .*nothing\.json: "):
        import_banki_file(store, tmp_path / "nothing.json")

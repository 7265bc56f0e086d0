"""The terminal referee fed input lines: wrong entries, saving after every event, resuming, replay."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from banki_helpers import run

from koloda.banki import BankiOptions, new_game, replay
from koloda.banki.cli import play
from koloda.banki.store import default_path, load
from koloda.cli import main
from koloda.game import GameRecord

OPENING = ["kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7"]


class Terminal:
    """Feeds lines to the referee and keeps what it says; records the saved file at every prompt."""

    def __init__(self, lines: list[str], path: Path | None = None) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.said: list[str] = []
        self.path = path
        self.saved_at_prompt: list[list[str]] = []

    def input(self, prompt: str) -> str:
        if self.path is not None and self.path.exists():
            self.saved_at_prompt.append(json.loads(self.path.read_text(encoding="utf-8"))["actions"])
        try:
            return next(self.lines)
        except StopIteration:
            raise EOFError from None

    def output(self, text: str) -> None:
        self.said.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.said)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KOLODA_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_every_accepted_event_is_saved_before_the_next_prompt(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = new_game(["Ann", "Bob", "Cat", "Dan"], seed=4)
    terminal = Terminal([*OPENING, "hit Bob", "reset"], path)
    assert play(state, path, "en", terminal.input, terminal.output) == 0
    assert terminal.saved_at_prompt == [
        [*OPENING, "hit Bob", "reset"][:n] for n in range(1, len(OPENING) + 3)
    ]
    assert load(path) == state
    assert "Cat drives first" in terminal.text and "Bob throws (private, from the 20 m line)" in terminal.text


def test_a_wrong_entry_gets_a_clear_message_and_the_prompt_again(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = run(new_game(["Ann", "Bob", "Cat", "Dan"]), *OPENING)
    terminal = Terminal(["hit Ann", "throw Bob", "back Zed", "", "hit Bob", "quit", "hit Ann"], path)
    play(state, path, "en", terminal.input, terminal.output)
    assert "not allowed: 'hit Ann': Ann throws out of turn: it is Bob's throw" in terminal.said
    assert any(line.startswith("not understood: unknown event 'throw'") for line in terminal.said)
    assert any("no player called 'Zed'" in line for line in terminal.said)
    assert [str(e) for e in state.history] == [*OPENING, "hit Bob"]  # quit stops before the last line
    assert GameRecord.load(path).actions == (*OPENING, "hit Bob")


def test_undo_help_and_show_in_russian(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    state = run(new_game(["Ann", "Bob", "Cat", "Dan"]), *OPENING)
    terminal = Terminal(["попал Bob", "отмена", "помощь", "состояние", "отмена", "отмена"], path)
    play(state, path, "ru", terminal.input, terminal.output)
    assert "отменено: hit Bob" in terminal.said
    assert any("считалка выбирает водящего" in line for line in terminal.said)
    assert any(line.startswith("банки (московские), кон 1: броски") for line in terminal.said)
    assert [str(e) for e in state.history] == OPENING[:2]
    assert GameRecord.load(path).actions == tuple(OPENING[:2])
    assert terminal.said[-1].startswith("сохранено в ")


def test_a_game_survives_a_restart(monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    lines = iter([*OPENING, "hit Bob"])

    def feed(prompt: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", feed)
    assert main(["banki", "new", "Ann", "Bob", "Cat", "Dan", "--seed", "9"]) == 0
    path = default_path()
    assert path.parent.parent == data_dir and path.exists()
    lines = iter(["reset", "miss Ann", "miss Dan", "tag Dan stick leg", "knock Cat"])
    assert main(["banki", "resume"]) == 0
    resumed = load(path)
    expected = run(new_game(["Ann", "Bob", "Cat", "Dan"], seed=9), *OPENING, "hit Bob", "reset", "miss Ann")
    run(expected, "miss Dan", "tag Dan stick leg", "knock Cat")
    assert resumed == expected and resumed.driver_name == "Dan"


def test_new_does_not_replace_an_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(EOFError))
    assert main(["banki", "new", "Ann", "Bob", "Cat", "Dan", "--seed", "1"]) == 0
    saved = default_path().read_text(encoding="utf-8")
    assert main(["banki", "new", "Eve", "Fay", "Gus", "Hal"]) == 2
    err = capsys.readouterr().err
    assert "an unfinished game is saved" in err and "Traceback" not in err
    assert default_path().read_text(encoding="utf-8") == saved
    assert main(["banki", "new", "Eve", "Fay", "Gus", "Hal", "--force", "--variant", "chelyabinsk"]) == 0
    assert load(default_path()).options == BankiOptions.preset("chelyabinsk")


def test_bad_command_lines_fail_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(EOFError))
    assert main(["banki", "resume"]) == 2
    assert "no saved game" in capsys.readouterr().err
    assert main(["banki", "new", "Ann", "Bob", "Cat", "Dan", "--set", "spear_jump=always"]) == 2
    assert "'spear_jump' must be" in capsys.readouterr().err
    assert main(["banki", "new", "Ann", "Bob", "Cat"]) == 2
    assert "4 to 10 players" in capsys.readouterr().err
    assert not default_path().exists()  # nothing was started
    broken = tmp_path / "broken.json"
    broken.write_text('{"game": "banki", "players": 4, "seed": 1, "actions": ["hit Ann"], '
                      '"meta": {"names": ["Ann", "Bob", "Cat", "Dan"]}}', encoding="utf-8")  # fmt: skip
    assert main(["banki", "replay", str(broken)]) == 2
    err = capsys.readouterr().err
    assert "event 1 'hit Ann' does not replay" in err and "Traceback" not in err


def test_replay_shows_where_a_record_ended(capsys: pytest.CaptureFixture[str]) -> None:
    golden = Path(__file__).parent / "golden" / "chelyabinsk.json"
    assert main(["banki", "replay", str(golden), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    winner = replay(GameRecord.load(golden)).winners[0]
    assert "игра окончена" in out and f"победа: {['Ann', 'Bob', 'Cat', 'Dan', 'Eve'][winner]}" in out

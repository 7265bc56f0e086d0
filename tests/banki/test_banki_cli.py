"""The terminal referee fed input lines: wrong entries, saving after every event (in the one store),
resuming, replay."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from banki_helpers import run

from koloda.banki import BankiOptions, BankiState, new_game, replay, saved
from koloda.banki.cli import play
from koloda.cli import main
from koloda.game import GameRecord
from koloda.store import Store
from koloda.store.open import open_store
from koloda.store.paths import default_path
from koloda.store.sql import SqlStore

OPENING = ["kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7"]


class Terminal:
    """Feeds lines to the referee and keeps what it says; records the saved events at every prompt."""

    def __init__(self, lines: list[str], store: Store | None = None, game_id: int = 0) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.said: list[str] = []
        self.store = store
        self.game_id = game_id
        self.saved_at_prompt: list[list[str]] = []

    def input(self, prompt: str) -> str:
        events = self.store.load_banki(self.game_id)[3] if self.store is not None else []
        if events:  # once something is saved (the old file existed from the first event on)
            self.saved_at_prompt.append(events)
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


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with SqlStore(f"sqlite:///{tmp_path / 'games.sqlite3'}") as opened:
        yield opened


def stored_ids() -> list[int]:
    """The banki games in the data directory's store."""
    with open_store() as store:
        return store.banki_ids()


def latest() -> BankiState:
    """The newest banki game in the data directory's store."""
    with open_store() as store:
        return saved.load(store, store.banki_ids()[-1])


def test_every_accepted_event_is_saved_before_the_next_prompt(store: Store) -> None:
    state = new_game(["Ann", "Bob", "Cat", "Dan"], seed=4)
    game_id = saved.create(store, state)
    terminal = Terminal([*OPENING, "hit Bob", "reset"], store, game_id)
    assert play(state, store, game_id, "en", terminal.input, terminal.output) == 0
    assert terminal.saved_at_prompt == [
        [*OPENING, "hit Bob", "reset"][:n] for n in range(1, len(OPENING) + 3)
    ]
    assert saved.load(store, game_id) == state
    assert "Cat drives first" in terminal.text and "Bob throws (private, from the 20 m line)" in terminal.text


def test_a_wrong_entry_gets_a_clear_message_and_the_prompt_again(store: Store) -> None:
    state = run(new_game(["Ann", "Bob", "Cat", "Dan"]), *OPENING)
    game_id = saved.create(store, state)
    terminal = Terminal(
        ["hit Ann", "throw Bob", "back Zed", "", "hit Bob", "quit", "hit Ann"], store, game_id
    )
    play(state, store, game_id, "en", terminal.input, terminal.output)
    assert "not allowed: 'hit Ann': Ann throws out of turn: it is Bob's throw" in terminal.said
    assert any(line.startswith("not understood: unknown event 'throw'") for line in terminal.said)
    assert any("no player called 'Zed'" in line for line in terminal.said)
    assert [str(e) for e in state.history] == [*OPENING, "hit Bob"]  # quit stops before the last line
    assert tuple(store.load_banki(game_id)[3]) == (*OPENING, "hit Bob")


def test_undo_help_and_show_in_russian(store: Store) -> None:
    state = run(new_game(["Ann", "Bob", "Cat", "Dan"]), *OPENING)
    game_id = saved.create(store, state)
    terminal = Terminal(["попал Bob", "отмена", "помощь", "состояние", "отмена", "отмена"], store, game_id)
    play(state, store, game_id, "ru", terminal.input, terminal.output)
    assert "отменено: hit Bob" in terminal.said
    assert any("считалка выбирает водящего" in line for line in terminal.said)
    assert any(line.startswith("банки (московские), кон 1: броски") for line in terminal.said)
    assert [str(e) for e in state.history] == OPENING[:2]
    assert tuple(store.load_banki(game_id)[3]) == tuple(OPENING[:2])
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
    assert path.parent == data_dir and path.exists()
    lines = iter(["reset", "miss Ann", "miss Dan", "tag Dan stick leg", "knock Cat"])
    assert main(["banki", "resume"]) == 0
    resumed = latest()
    expected = run(new_game(["Ann", "Bob", "Cat", "Dan"], seed=9), *OPENING, "hit Bob", "reset", "miss Ann")
    run(expected, "miss Dan", "tag Dan stick leg", "knock Cat")
    assert resumed == expected and resumed.driver_name == "Dan"


def test_new_does_not_replace_an_unfinished_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(EOFError))
    assert main(["banki", "new", "Ann", "Bob", "Cat", "Dan", "--seed", "1"]) == 0
    kept = (stored_ids(), latest())
    assert main(["banki", "new", "Eve", "Fay", "Gus", "Hal"]) == 2
    err = capsys.readouterr().err
    assert "an unfinished game is saved" in err and "Traceback" not in err
    assert (stored_ids(), latest()) == kept
    assert main(["banki", "new", "Eve", "Fay", "Gus", "Hal", "--force", "--variant", "chelyabinsk"]) == 0
    assert latest().options == BankiOptions.preset("chelyabinsk")


def test_bad_command_lines_fail_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(EOFError))
    assert main(["banki", "resume"]) == 2
    assert "no saved game" in capsys.readouterr().err
    assert main(["banki", "new", "Ann", "Bob", "Cat", "Dan", "--set", "spear_jump=always"]) == 2
    assert "'spear_jump' must be" in capsys.readouterr().err
    assert main(["banki", "new", "Ann", "Bob", "Cat"]) == 2
    assert "4 to 30 players" in capsys.readouterr().err
    assert stored_ids() == []  # nothing was started
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

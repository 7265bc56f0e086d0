"""`koloda bank play | simulate | replay` (issue 2, "Playing it")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from koloda.bank import BankOptions, BankState, new_game
from koloda.bank.cli import play_match, simulate
from koloda.bots import Bot
from koloda.cli import main
from koloda.i18n import Lang
from koloda.registry import get
from koloda.term import Quit


def _bots(state: BankState, human: int, level: str = "medium") -> dict[int, Bot]:
    """The bots of every other seat, as ``koloda bank play`` makes them."""
    bank = get("bank")
    return {p: bank.bot(level, p, state.options) for p in range(state.players) if p != human}


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_play_a_whole_match_against_bots(lang: Lang) -> None:
    state = new_game(players=3, seed=11)
    out: list[str] = []
    asked: list[str] = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        return state.action_text(state.legal_actions()[-1])

    play_match(state, seat=0, lang=lang, bots=_bots(state, 0), read=read, write=out.append)
    text = "\n".join(out)
    assert state.is_over() and state.winner is not None
    assert asked, "the human was never asked for a move"
    assert ("Победитель" if lang == "ru" else "Winner") in text
    # every deal's score sheet was shown, with the totals after it
    for result in state.results:
        assert f"→ {result.totals[0]}" in text
    assert ("Ваши карты" if lang == "ru" else "Your hand") in text


@pytest.mark.parametrize("choice", ["in-turn", "in-turn-after-deal"])
def test_the_human_chooses_his_trump_in_the_terminal(choice: str) -> None:
    """Rule 3.2, trumps chosen in turn: the terminal asks for the suit (after the deal, showing the cards)."""
    state = new_game(BankOptions(trump_choice=choice, first_dealer=2, target=40), players=3, seed=3)
    out: list[str] = []

    def read(prompt: str) -> str:
        return state.action_text(state.legal_actions()[-1])

    play_match(state, seat=0, lang="en", bots=_bots(state, 0), read=read, write=out.append)
    text = "\n".join(out)
    asked = text.index("Choose your trump suit")
    assert state.is_over() and "trump ♥" in text
    assert ("Your hand" in text[:asked]) == (choice == "in-turn-after-deal")  # his cards, if dealt


def test_a_wrong_entry_is_explained_and_asked_again() -> None:
    state = new_game(players=2, seed=5, scope="deal")
    legal = state.legal_actions()
    illegal = next(a for a in range(36) if a not in legal)
    answers = iter(["nonsense", state.action_text(illegal), "?", "quit"])
    out: list[str] = []
    before = state.copy()
    with pytest.raises(Quit):
        seat = state.current_player or 0
        play_match(
            state,
            seat=seat,
            lang="en",
            bots=_bots(state, seat),
            read=lambda _: next(answers),
            write=out.append,
        )
    text = "\n".join(out)
    assert "bad Bank action 'nonsense'" in text
    assert f"illegal action {state.action_text(illegal)}" in text
    assert "Legal moves:" in text
    assert state == before  # nothing was played by the refused entries


@pytest.mark.parametrize("first", [True, False])
def test_the_trumps_are_said_once_when_a_deal_starts(first: bool) -> None:
    # the deal's header names the trumps unless this seat's table view, which names them, follows at once
    state = new_game(players=3, seed=3, scope="deal")
    seat = state.current_player if first else ((state.current_player or 0) + 1) % state.players
    assert seat is not None
    out: list[str] = []
    with pytest.raises(Quit):
        play_match(
            state, seat=seat, lang="en", bots=_bots(state, seat), read=lambda _: "quit", write=out.append
        )
    text = "\n".join(out)
    assert "Deal 1" in text
    assert text.count("each player has his own") == (1 if first else 2)


def test_simulate_figures_are_deterministic_and_sane() -> None:
    first = simulate(BankOptions(), players=3, deals=200, seed=4)
    again = simulate(BankOptions(), players=3, deals=200, seed=4)
    assert first["actions"] == again["actions"] and first["mean_points"] == again["mean_points"]
    assert first["deals"] == 200 and first["actions"] > 200 * 10
    # captured points are at most the deck's 124 plus bonuses per deal, shared by three seats
    assert 0 < sum(first["mean_points"]) < 124 + 200


def test_simulate_json_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bank", "simulate", "--players", "2", "--deals", "30", "--seed", "2", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["deals"] == 30 and len(figures["mean_points"]) == 2 and figures["actions"] > 0


def test_bad_options_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bank", "simulate", "--option", "trumps=purple", "--deals", "1"]) == 2
    assert "option 'trumps'" in capsys.readouterr().err
    assert main(["bank", "simulate", "--preset", "nope", "--deals", "1"]) == 2
    assert "unknown preset 'nope'" in capsys.readouterr().err


def test_replay_command_prints_the_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    state = new_game(players=3, seed=8)
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    path = tmp_path / "match.json"
    state.record().save(path)
    assert main(["bank", "replay", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"Winner: Seat {state.winner}" in out
    assert f"→ {state.results[-1].totals[0]}" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"game": "bank", "players": 3, "seed": 1, "actions": ["ZZ"]}', "action 1 'ZZ'"),
        ('{"game": "thousand", "players": 3, "seed": 1, "actions": []}', "not of 'bank'"),
        ('{"game": "bank", "players": 9, "seed": 1, "actions": []}', "2-4 players, not 9"),
        ('{"game": "bank", "players": 2, "seed": 1, "options": {"sevn": "skip"}, "actions": []}', "'sevn'"),
    ],
)
def test_replay_command_rejects_bad_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["bank", "replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert err.startswith(f"koloda: error: {path}: ")  # the message names the file


@pytest.mark.parametrize(
    ("where", "reason"), [("missing/x.json", "there is no folder"), (".", "it is a folder")]
)
def test_play_refuses_a_save_path_it_cannot_write_before_the_match(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    reason: str,
) -> None:
    def no_input(prompt: str = "") -> str:
        raise AssertionError("the match started although its record could not be saved")

    monkeypatch.setattr("builtins.input", no_input)
    path = tmp_path / where
    assert main(["bank", "play", "--players", "2", "--seed", "1", "--save", str(path)]) == 2
    err = capsys.readouterr().err
    assert f"cannot save the game record to '{path}': {reason}" in err and "Traceback" not in err


def test_a_wrong_entry_in_russian_says_so_in_russian_and_lists_the_moves() -> None:
    state = new_game(players=2, seed=5, scope="deal")
    answers = iter(["9Z", "quit"])
    out: list[str] = []
    with pytest.raises(Quit):
        seat = state.current_player or 0
        play_match(
            state,
            seat=seat,
            lang="ru",
            bots=_bots(state, seat),
            read=lambda _: next(answers),
            write=out.append,
        )
    refused = next(line for line in out if line.startswith("Так нельзя"))
    assert "«9Z»" in refused and "Можно:" in refused


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_the_bots_play_at_the_chosen_level(level: str) -> None:
    state = new_game(players=3, seed=2, scope="deal")
    out: list[str] = []
    play_match(
        state,
        seat=0,
        lang="en",
        bots=_bots(state, 0, level),
        read=lambda _: state.action_text(state.legal_actions()[0]),
        write=out.append,
    )
    assert state.is_over() and any(line.startswith("  Bot 1:") for line in out)


def test_simulate_whole_matches_with_bots_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "bank",
        "simulate",
        "--bots",
        "easy,medium,hard",
        "--players",
        "3",
        "--matches",
        "2",
        "--seed",
        "5",
    ]
    assert main([*argv, "--json", "--records", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    for key in ("matches", "finished", "deals_median", "deals_p90", "deals_max", "stuck_deals"):
        assert type(figures[key]) is int, key
    assert figures["matches"] == 2 and figures["stuck_deals"] <= figures["deals"]
    assert len(list(tmp_path.glob("bank-*.json"))) == 2

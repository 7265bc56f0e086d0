"""``koloda thousand play | simulate | replay``, driven by fed lines and argv."""

from __future__ import annotations

import builtins
import io
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from koloda.bots import Bot
from koloda.cli import main
from koloda.registry import get
from koloda.term import Quit
from koloda.thousand.cli import play_game
from koloda.thousand.options import ThousandOptions


def _bots(seed: int, level: str = "medium") -> dict[int, Bot]:
    """The two bots of ``koloda thousand play``, seeded as it seeds them."""
    return {seat: get("thousand").bot(level, seed * 10 + seat, ThousandOptions()) for seat in (1, 2)}


GOLDEN = Path(__file__).parent / "golden"


def first_choice(out: list[str], extra: list[str]) -> Callable[[str], str]:
    """A player who types the queued lines first, then passes or takes the first move offered."""

    def read(prompt: str) -> str:
        if extra:
            return extra.pop(0)
        lines = [line for text in out for line in text.splitlines()]  # the table view is one text
        offered = next(line for line in reversed(lines) if line.startswith(("Ваши ходы (", "Your moves (")))
        moves = offered.split("): ", 1)[1].split(", ")
        return "пас" if "пас" in moves else "pass" if "pass" in moves else moves[0]

    return read


def test_play_a_whole_game_in_russian() -> None:
    out: list[str] = []
    wrong = ["что-то", "600", "AS", "?"]  # not a move; a bid above the cap; a card in bidding; the moves
    state = play_game(
        ThousandOptions(), seed=3, bots=_bots(3), lang="ru", read=first_choice(out, wrong), write=out.append
    )
    assert state.is_over() and state.book.winner is not None
    text = "\n".join(out)
    assert "ход «что-то» не понят" in text  # the reason, in Russian, then the prompt again
    assert "невозможен" in text  # an illegal move is refused in Russian too
    assert "Возможные ходы: пас, " in text  # '?' lists the moves
    assert "Прикуп: " in text and "Играющий: " in text and "взятку берёт" in text
    assert text.count("(обязательно)") == len(state.results)  # the first hand's bid, every deal
    assert "играет на 100" in text
    # the table after every deal, drawn: its head over a line, not Markdown's source with |---|
    heads = re.findall(r"^Кон +Игра +Вы +Бот 1 +Бот 2\n─+$", text, re.MULTILINE)
    assert len(heads) == len(state.results) and "|---|" not in text and "| Кон |" not in text
    assert "Играете вы, заказ" in text or "Играет Бот" in text
    assert "Играет Вы" not in text  # the verb agrees with «вы»
    # the person is spoken to (the verb agrees with «вы»): «Сдаёте вы.», never «Сдаёт: Вы.»
    assert "Сдаёте вы." in text and "сдаёте вы" in text and "Сдаёт: Вы" not in text and "сдаёт Вы" not in text
    assert "Сдаёт: Бот 1." in text
    assert out[-1].startswith(("Победил", "Победила"))


def test_play_shows_only_what_the_player_may_see() -> None:
    out: list[str] = []
    state = play_game(
        ThousandOptions(), seed=4, bots=_bots(4), lang="en", read=first_choice(out, []), write=out.append
    )
    text = "\n".join(out)
    assert "Your cards: " in text and "Declarer: " in text
    # a gift between the two bots is told without its card
    assert "gives a card away" in text
    assert state.is_over()


def test_play_quits_on_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(Quit):
        play_game(ThousandOptions(), seed=1, bots=_bots(1), read=lambda _: "quit", write=lambda _: None)

    def no_input(prompt: str) -> str:
        raise EOFError

    monkeypatch.setattr(builtins, "input", no_input)
    assert main(["thousand", "play", "--seed", "1", "--lang", "en"]) == 0  # leaving is no error, as in Bank
    assert "Game abandoned." in capsys.readouterr().out


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["thousand", "simulate", "--deals", "40", "--seed", "2", "--json"]) == 0
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert result["deals"] == 40 and result["actions"] > 40 * 8
    assert len(result["mean_points"]) == 3 and captured.err == ""  # no progress bar off a terminal
    assert main(["thousand", "simulate", "--deals", "40", "--seed", "2", "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in result.items() if k != "seconds"
    }


def test_simulate_text_with_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["thousand", "simulate", "--deals", "20", "--seed", "1", "--preset", "russian"]
    assert main([*argv, "--option", "must_beat=winning", "--players", "4"]) == 0
    out = capsys.readouterr().out
    assert "deals: 20" in out and "mean points per seat: " in out
    assert len(out.split("mean points per seat: ")[1].splitlines()[0].split()) == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--deals", "0"], "--deals must be a positive number"),
        (["simulate", "--deals", "5", "--option", "must_bet=led"], "unknown option 'must_bet'"),
        (["simulate", "--deals", "5", "--option", "must_beat=always"], "must_beat"),
        (["simulate", "--deals", "5", "--seed", "-3"], "must not be negative"),
    ],
)
def test_bad_command_lines(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["thousand", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_replay_a_record(capsys: pytest.CaptureFixture[str]) -> None:
    path = GOLDEN / "game_default_3p.json"
    expected = json.loads(path.read_text(encoding="utf-8"))["meta"]["expected"]
    assert main(["thousand", "replay", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert f"Deals played: {len(expected['deals'])}" in out
    assert "Totals: " + " ".join(map(str, expected["totals"])) in out and "Winner:" in out


def test_replay_bad_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = json.loads((GOLDEN / "deal_explicit_random.json").read_text(encoding="utf-8"))
    record["actions"][3] = "AS"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["thousand", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "action 4 'AS' does not replay" in err and "Traceback" not in err
    assert f"{bad}: action 4" in err  # the message names the file
    record["options"] = {"must_beat": "always"}
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["thousand", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: bad options in the record: option 'must_beat'" in err and "Traceback" not in err
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["thousand", "replay", str(broken)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["thousand", "replay", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_play_against_hard_bots_for_one_deal() -> None:
    out: list[str] = []
    with pytest.raises(Quit):
        answers = iter(["pass", "quit"])
        play_game(
            ThousandOptions(),
            seed=5,
            bots=_bots(5, "hard"),
            lang="en",
            read=lambda _: next(answers),
            write=out.append,
        )
    assert any("Bot 1" in line for line in out)


class _Terminal(io.StringIO):
    """A stderr that says it is a terminal, so that the progress bar is drawn on it."""

    def isatty(self) -> bool:
        return True


def test_simulate_whole_games_with_bots_json_records_and_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    argv = ["thousand", "simulate", "--bots", "easy,medium,random", "--games", "2", "--seed", "3"]
    assert main([*argv, "--json", "--records", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)  # stdout: one object, the bar went to stderr
    for key in ("games", "finished", "contracts_played", "contracts_made", "auctions", "forced_minimum"):
        assert type(figures[key]) is int, key
    for key in ("deals_median", "deals_p90", "deals_max", "raises", "bombs", "barrel_entries"):
        assert type(figures[key]) is int, key
    assert figures["games"] == 2 and figures["bots"] == ["easy", "medium", "random"]
    assert set(figures["bands"]) == {"100", "105-120", "125-150", "155-200", "205+"}
    assert sum(b["played"] for b in figures["bands"].values()) == figures["contracts_played"]
    assert figures["contracts_made"] <= figures["contracts_played"] <= figures["auctions"]
    assert "[" in err.getvalue() and "2/2" in err.getvalue()  # the progress bar, to the end
    records = sorted(tmp_path.glob("thousand-*.json"))
    assert [r.name for r in records] == ["thousand-3.json", "thousand-4.json"]
    assert main(["thousand", "replay", str(records[0])]) == 0  # a record replays
    capsys.readouterr()
    assert (
        main(["thousand", "simulate", "--bots", "easy", "--games", "1", "--seed", "3", "--lang", "en"]) == 0
    )
    text = capsys.readouterr().out
    assert "Contracts played: " in text and "ended at the compulsory bid" in text


def test_simulate_never_copies_the_results_while_playing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14 point 8: reading ``state.results`` copies every deal so far; simulate reads it only once a
    game (its figures), never per action or per deal."""
    from koloda.simulate import simulate_matches
    from koloda.thousand.cli import simulate
    from koloda.thousand.state import ThousandState

    reads = 0
    original = ThousandState.results

    def counted(self: ThousandState) -> object:
        nonlocal reads
        reads += 1
        return original.fget(self)  # type: ignore[attr-defined]

    monkeypatch.setattr(ThousandState, "results", property(counted))
    simulate(ThousandOptions(), deals=300, seed=1)
    assert reads == 0
    figures = simulate_matches(
        get("thousand"), None, players=3, bots=["random"], matches=2, seed=1, max_deals=60
    )
    assert figures["deals"] >= 60 and reads <= 2 * 2  # the game's figures and its record, once a game

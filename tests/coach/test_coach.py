"""The coach (issue 17, docs/analysis.md): the marks on constructed positions where one move clearly loses,
the analysis seeing nothing but the seat's observation, the command's JSON and its refusals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from koloda.bank.options import BankOptions
from koloda.bank.state import from_deal as bank_deal
from koloda.cli import main
from koloda.coach import Step, analyse, analyse_record, record_steps
from koloda.coach.bank import BankRater
from koloda.coach.thousand import ThousandRater
from koloda.game import GameRecord, GameSpec
from koloda.registry import get
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import from_deal as thousand_deal

BANK = get("bank")
THOUSAND = get("thousand")

#: Bank, two players, Anna (seat 0, trump hearts) against Boris (seat 1, trump clubs). Anna's last two
#: cards are the 8 of spades and her trump king: she lays the 8 and may add one card that covers it or
#: pass. Adding the king of hearts goes out on her own trump king, which takes the bank (rule 6.3's bonus
#: and the capture); passing gives the move to Boris.
BANK_CAPTURE = {
    "hands": [["10S", "QS", "8S", "KH"], ["KS", "JS", "9D", "JD"]],
    "open": "AS",
    "stock": ["7D", "AC", "6H", "7C"],
    "dealer": 1,
    "trump_suits": ["H", "C"],
}

#: Thousand, seat 0 declares at the compulsory 100 with all the spades but the king and queen. It takes
#: the first trick with the ace of spades and leads the ten, the boss of the suit; seat 1 has no spade
#: and no trump is named, so anything it plays goes under the ten: the ace of hearts gives the declarer
#: 11 points towards his contract.
THOUSAND_ACE = {
    "dealer": 2,
    "hands": ["AS 10S JS 9S 9D JC 9H", "AH JH KD JD QC KC AD", "KS QS 10H KH QH 10D QD"],
    "talon": "AC 10C 9C",
}


def _record(state: object, actions: list[str]) -> GameRecord:
    """The record of ``state`` (an explicit deal) with ``actions`` played on it."""
    for text in actions:
        state.apply(state.parse_action(text))  # type: ignore[attr-defined]
    return state.record()  # type: ignore[attr-defined, no-any-return]


def _move(record: GameRecord, spec: GameSpec, seat: int, index: int, rater: object) -> dict[str, object]:
    analysis = analyse_record(spec, record, seat, rater, seed=3)  # type: ignore[arg-type]
    moves = {m.index: m.to_json() for m in analysis.moves}
    return moves[index]


def test_bank_passing_up_the_capture_of_the_bank_is_marked() -> None:
    record = _record(bank_deal(BANK_CAPTURE), ["10S", "KS", "QS", "JS", "8S", "pass"])
    move = _move(record, BANK, 0, 5, BankRater(None))
    assert move["action"] == "pass" and move["best"] == "KH"
    assert move["mark"] in ("?", "??")
    # and the capture itself, played, is the best move
    record = _record(bank_deal(BANK_CAPTURE), ["10S", "KS", "QS", "JS", "8S", "KH"])
    assert _move(record, BANK, 0, 5, BankRater(None))["mark"] == ""


def test_bank_a_deal_whose_trumps_are_chosen_in_turn_is_analysed() -> None:
    """The same position reached by choosing the trumps in turn (rule 3.2) from an explicit deal that names
    none: the choices are not rated, the moves are, as when the deal names the suits."""
    layout = {k: v for k, v in BANK_CAPTURE.items() if k != "trump_suits"}
    options = BankOptions(trump_choice="in-turn-after-deal")
    actions = ["trump H", "trump C", "10S", "KS", "QS", "JS", "8S", "pass"]
    record = _record(bank_deal(layout, options), actions)
    analysis = analyse_record(BANK, record, 0, BankRater(options), seed=3)
    moves = {m.index: m.to_json() for m in analysis.moves}
    assert 0 not in moves and sorted(moves) == [2, 4, 6, 7]  # the trump choice is not rated
    assert moves[7]["action"] == "pass" and moves[7]["best"] == "KH" and moves[7]["mark"] in ("?", "??")


def test_thousand_an_ace_dropped_under_the_declarers_ten_is_marked() -> None:
    actions = ["pass", "pass", "9D>1", "9C>2", "100", "AS", "QC", "KS", "10S", "AH"]
    record = _record(thousand_deal(THOUSAND_ACE), actions)
    move = _move(record, THOUSAND, 1, 9, ThousandRater(None))
    assert move["action"] == "AH" and move["best"] != "AH"
    assert move["mark"] in ("?", "??")


#: Seat 1 holds no marriage (the king of diamonds without its queen, the queen of clubs without its king).
THOUSAND_NO_MARRIAGE = {
    "dealer": 2,
    "hands": ["AS 10S JS 9S 9D KC 9H", "AH JH KD JD QC JC AD", "KS QS 10H KH QH 10D QD"],
    "talon": "AC 10C 9C",
}


def test_thousand_bidding_300_without_a_marriage_is_a_blunder() -> None:
    options = ThousandOptions(bid_cap="none")  # the default cap (rule G6) would not let the bid be made
    state = thousand_deal(THOUSAND_NO_MARRIAGE, options)
    assert state.current_player == 1
    record = _record(state, ["300"])
    move = _move(record, THOUSAND, 1, 0, ThousandRater(options))
    assert move["action"] == "300" and move["mark"] == "??"
    assert move["best"] == "pass"


#: Seat 0 declares at the compulsory 100 with the king and queen of spades (a marriage, 40) in hand.
THOUSAND_MARRIAGE = {
    "dealer": 2,
    "hands": ["AS 10S KS QS JS 9S 9D", "AH JH 9H KD JD QC JC", "10H KH QH AD 10D QD KC"],
    "talon": "AC 10C 9C",
}


def test_thousand_giving_away_half_a_marriage_from_the_talon_is_a_blunder() -> None:
    record = _record(thousand_deal(THOUSAND_MARRIAGE), ["pass", "pass", "KS>1"])
    move = _move(record, THOUSAND, 0, 2, ThousandRater(None))
    assert move["action"] == "KS>1" and move["mark"] == "??"
    assert move["best"] in ("9C>1", "9D>1")


def _redealt(spec: GameSpec, steps: Iterator[Step], seat: int) -> Iterator[Step]:
    """The same steps with the cards hidden from ``seat`` dealt again at every one of its turns."""
    rng = random.Random(99)
    for index, state, action in steps:
        yield index, (spec.redeal_hidden(state, seat, rng) if state.current_player == seat else state), action


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_hidden_cards_changed_consistently_with_the_view_change_nothing(game: str) -> None:
    spec = get(game)
    state = spec.new_game(players=3, seed=11, scope="deal")
    bots = [spec.guarded_bot("easy", p) for p in range(3)]
    while not state.is_over():
        p = state.current_player
        assert p is not None
        state.apply(bots[p].choose(spec.observe(state, p), state.legal_actions()))
    record = state.record()

    def rater() -> object:
        if game == "bank":
            return BankRater(None, least=24, most=24)
        return ThousandRater(None, worlds=6, talons=8)

    for seat in range(3):
        plain = analyse(spec, record_steps(spec, record), seat, rater(), seed=5)  # type: ignore[arg-type]
        other = analyse(spec, _redealt(spec, record_steps(spec, record), seat), seat, rater(), seed=5)  # type: ignore[arg-type]
        assert plain.moves, (game, seat)
        assert plain == other
        again = analyse(spec, record_steps(spec, record), seat, rater(), seed=6)  # type: ignore[arg-type]
        assert [m.index for m in again.moves] == [m.index for m in plain.moves]


def test_the_json_has_every_move_of_the_seat_with_its_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = BANK.new_game(players=3, seed=4, scope="deal")
    bots = [BANK.guarded_bot("easy", p) for p in range(3)]
    while not state.is_over():
        p = state.current_player
        assert p is not None
        state.apply(bots[p].choose(BANK.observe(state, p), state.legal_actions()))
    record = state.record()
    path = tmp_path / "deal.json"
    record.save(path)
    assert main(["bank", "analyse", str(path), "--seat", "1", "--json", "--seed", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"game", "seat", "seed", "thresholds", "moves", "unrated"} <= out.keys()
    assert out["seat"] == 1 and out["seed"] == 2
    mistake, blunder = out["thresholds"]["mistake"], out["thresholds"]["blunder"]
    rated = [
        i for i, s, _ in record_steps(BANK, record) if s.current_player == 1 and len(s.legal_actions()) > 1
    ]
    assert [m["index"] for m in out["moves"]] == rated[: len(out["moves"])]
    assert len(out["moves"]) + out["unrated"] == len(rated)
    for m in out["moves"]:
        assert set(m) == {"index", "action", "best", "value_played", "value_best", "mark"}
        assert record.actions[m["index"]] == m["action"]
        assert m["value_best"] >= m["value_played"]
        loss = m["value_best"] - m["value_played"]
        expected = "??" if loss >= blunder else "?" if loss >= mistake else ""
        assert m["mark"] == expected or abs(loss - mistake) < 0.02 or abs(loss - blunder) < 0.02
        assert (m["action"] == m["best"]) <= (m["mark"] == "")
    assert main(["bank", "analyse", str(path), "--seat", "1", "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "Seat 1" in text and "Mistakes" in text


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seat", "3"], "bad seat 3"),
        (["--seat", "-1"], "bad seat -1"),
        (["--seat", "0", "--seed", "-2"], "--seed"),
    ],
)
def test_a_bad_seat_or_seed_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    path = tmp_path / "deal.json"
    BANK.new_game(players=3, seed=1, scope="deal").record().save(path)
    assert main(["bank", "analyse", str(path), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("koloda: error: ") and words in err[0]


@pytest.mark.parametrize(
    "content",
    [
        "{",
        '{"game": "bank", "players": 3, "seed": 1, "actions": ["AS+AS+AS"]}',
        '{"game": "thousand", "players": 3, "seed": 1, "actions": []}',
        '{"game": "bank", "players": 3, "seed": 1, "options": {"seven": "x"}, "actions": []}',
    ],
)
def test_a_bad_record_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    assert main(["bank", "analyse", str(path), "--seat", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("koloda: error: ")
    assert main(["bank", "analyse", str(tmp_path / "missing.json"), "--seat", "0"]) == 2
    capsys.readouterr()

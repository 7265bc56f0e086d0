"""Notation, bad input (illegal actions, notation, options, records), determinism and golden records."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from koloda.bank import (
    DRAW,
    NUM_ACTIONS,
    PASS,
    BankOptions,
    BankState,
    action_text,
    from_deal,
    new_game,
    observe,
    parse_action,
    replay,
    run_id,
)
from koloda.errors import IllegalActionError, NotationError, OptionsError, RecordError
from koloda.game import GameRecord

GOLDEN = Path(__file__).parent / "golden"


# -- notation --------------------------------------------------------------------------------------------


def test_every_action_id_round_trips_through_its_text() -> None:
    texts = set()
    for action in range(NUM_ACTIONS):
        text = action_text(action)
        assert parse_action(text) == action
        texts.add(text)
    assert len(texts) == NUM_ACTIONS


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("7♥", "7H"),
        ("7ч", "7H"),
        ("Т♠", "AS"),
        ("10б", "10D"),
        ("TD", "10D"),
        ("взять", "draw"),
        ("DRAW", "draw"),
        ("пас", "pass"),
        ("козырь ч", "trump H"),
        ("TRUMP ♣", "trump C"),
        ("В♠ 9♠ 8♠ 7♠", "JS+9S+8S+7S"),
        ("6h+7h+8h+9h", "6H+7H+8H+9H"),
        ("КП КТ КБ КЧ", "KS+KC+KD+KH"),
        ("kh, ks, kc, kd", "KS+KC+KH+KD"),
    ],
)
def test_friendly_notation(text: str, canonical: str) -> None:
    assert action_text(parse_action(text)) == canonical


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "expected one card"),
        ("7X", "bad suit"),
        ("7H+8H", "expected one card"),
        ("9S+9C+9D", "expected one card"),
        ("6H+8H+9H+JH", "run of four"),
        ("9H+9H+9H+9H", "expected one card"),
        ("6H+7H+9H+8H", "run of four"),
        ("jump", "bad"),
        ("trump X", "bad suit"),
    ],
)
def test_bad_notation_is_refused_with_the_input_quoted(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason) as info:
        parse_action(text)
    assert repr(text) in str(info.value)


def test_bad_action_ids_have_no_text() -> None:
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(NotationError, match="expected an id"):
            action_text(bad)


# -- illegal actions change nothing -------------------------------------------------------------------


def position(hands: list[list[str]], open_card: str, stock: list[str], **options: Any) -> BankState:
    layout = {"hands": hands, "open": open_card, "stock": stock, "dealer": len(hands) - 1}
    return from_deal(layout, BankOptions.from_mapping({"trumps": "none", "opening": "strict", **options}))


def refuse(state: BankState, action: Any, reason: str) -> None:
    before = state.copy()
    with pytest.raises(IllegalActionError, match=reason):
        state.apply(action)
    assert state == before


def test_each_illegal_action_is_refused_with_its_reason() -> None:
    state = position([["JH", "AS", "9S", "JS", "QS"], ["6C"]], "QH", ["KD", "8C"])
    refuse(state, parse_action("7D"), r"seat 0 does not hold 7D")
    refuse(state, parse_action("AS"), r"AS does not cover QH \(rule 4.3\)")
    refuse(state, DRAW, r"you can move, and you draw only when you cannot")
    refuse(state, PASS, r"you can move, and you pass only when you cannot")
    refuse(state, run_id(3, (0, 0, 0, 0), False), r"does not hold KS")
    refuse(state, run_id(3, (3, 0, 0, 0), False), r"runs must be of one suit")
    refuse(state, NUM_ACTIONS, r"not a Bank action id")
    refuse(state, "JH", r"not a Bank action id")
    refuse(state, True, r"not a Bank action id")
    state.apply(parse_action("JH"))  # seat 1 cannot cover the JH
    refuse(state, PASS, r"you cannot move, so you must draw first")
    state.apply(DRAW)
    refuse(state, DRAW, r"already drawn this turn")
    assert state.current_player == 1 and state.legal_actions() == [PASS]  # the drawn KD does not help


def test_trump_choices_only_before_the_first_deal() -> None:
    state = position([["AS"], ["KC"]], "9H", [])
    refuse(state, parse_action("trump H"), r"trumps are chosen only before the first deal")
    choosing = new_game(BankOptions(trump_choice="in-turn"), players=2, seed=1)
    refuse(choosing, parse_action("draw"), r"choose your trump suit first")


def test_draw_refused_on_an_empty_stock_and_in_an_extra_move() -> None:
    state = position([["AS", "8H", "7H"], ["6C"]], "QD", [])
    refuse(state, DRAW, r"the stock is empty")
    state.apply(parse_action("8H"))
    refuse(state, DRAW, r"add a card or pass, never draw")


def test_nothing_is_legal_once_over() -> None:
    state = position([["JS"], ["AH"]], "QS", [])
    state.apply(parse_action("JS"))
    assert state.is_over() and state.current_player is None and state.legal_actions() == []
    refuse(state, PASS, r"the game is over")


# -- options -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"sevn": "skip"}, r"unknown option 'sevn' \(did you mean 'seven'\?\)"),
        ({"target": "248"}, r"option 'target' must be int"),
        ({"trumps": "three"}, r"option 'trumps' must be"),
        ({"penalty": "hand-points-and-fine", "penalty_fixed": 30}, r"one of 15, 23, 31, 40, 48, 56"),
        ({"penalty": "hand-points-and-fine", "fine": "per-card", "penalty_per_card": 5}, r"must be 3 or 6"),
        ({"trumps": "one", "trump_suits": ["H", "S"]}, r"needs 1 suit"),
        ({"trumps": "own", "trump_suits": ["H"]}, r"one suit per player"),
        ({"trumps": "two", "trump_suits": ["H", "H"]}, r"names a suit twice"),
        ({"trumps": "one", "trump_suits": ["X"]}, r"bad suit 'X'"),
        ({"two_trumps_cover": "free"}, r"applies only to trumps 'two'"),
        ({"fine": "split"}, r"needs penalty 'hand-points-and-fine'"),
        ({"penalty": "none", "penalty_who": "loser"}, r"no effect with penalty 'none'"),
        ({"penalty_fixed": 40}, r"'penalty_fixed' needs penalty 'flat-fine'"),
        ({"penalty": "hand-points-and-fine", "fine": "per-card", "penalty_fixed": 40}, r"'fixed', 'split'"),
        ({"penalty_per_card": 6}, r"'penalty_per_card' needs penalty 'hand-points-and-fine'"),
        ({"penalty": "hand-points-and-fine", "penalty_per_card": 6}, r"'per-card', 'split'"),
        ({"max_deals": 0}, r"'max_deals' must be at least 1"),
        ({"target": 0}, r"'target' must be a positive"),
        ({"first_dealer": 4}, r"'first_dealer' must be a seat"),
        ({"trump_choice": "in-turn", "trumps": "none"}, r"'in-turn' needs trumps 'own'"),
        ({"trump_choice": "in-turn", "trump_suits": ["H", "S"]}, r"no fixed 'trump_suits'"),
    ],
)
def test_bad_options_are_refused(mapping: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        BankOptions.from_mapping(mapping)


def test_presets_are_valid_and_distinct() -> None:
    presets = {name: BankOptions.preset(name) for name in BankOptions.preset_names()}
    assert presets["default"] == BankOptions()
    assert len(set(presets.values())) == len(presets)
    assert presets["literal"].after_capture == "last-top" and presets["literal"].opening == "strict"
    for opts in presets.values():
        assert BankOptions.from_mapping(opts.to_dict()) == opts


def test_options_that_do_not_fit_the_player_count() -> None:
    with pytest.raises(OptionsError, match="names 4 own trumps for 3 players"):
        new_game(BankOptions(trump_suits=("S", "C", "D", "H")), players=3, seed=1)
    assert new_game(BankOptions(trump_suits=("H", "S")), players=2, seed=1).trump_suits == (3, 0)


# -- records --------------------------------------------------------------------------------------------


def random_game(options: BankOptions, players: int, seed: int, scope: str = "match") -> BankState:
    state = new_game(options, players=players, seed=seed, scope=scope)  # type: ignore[arg-type]
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_same_options_and_seed_give_the_same_game() -> None:
    a = random_game(BankOptions(), 3, 9)
    b = random_game(BankOptions(), 3, 9)
    assert a == b and a.record() == b.record()
    assert random_game(BankOptions(), 3, 10).record() != a.record()


def test_records_keep_only_changed_options_and_replay() -> None:
    opts = BankOptions.preset("senior-junior")
    state = random_game(opts, 2, 4, scope="deal")
    record = state.record()
    assert record.game == "bank" and record.options == {"trumps": "senior-junior"} and record.seed == 4
    assert replay(GameRecord.loads(record.dumps(), game="bank")) == state


def test_a_record_from_an_explicit_deal_replays() -> None:
    state = position([["JS", "AH", "AC"], ["6D", "7D"]], "QS", ["9C"])
    for text in ("JS", "draw", "pass", "AH"):
        state.apply(parse_action(text))
    record = state.record()
    assert record.deal is not None and record.actions == ("JS", "draw", "pass", "AH")
    assert replay(record) == state


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "thousand"}, r"record of 'thousand', not of 'bank'"),
        ({"actions": None}, r"action 2 'жжж' does not replay: bad Bank action"),
        ({"options": {"seven": "jump"}}, r"option 'seven' must be"),
        ({"players": 6}, r"2-4 players"),
    ],
)
def test_bad_records_are_refused(change: dict[str, Any], message: str) -> None:
    data = random_game(BankOptions(), 2, 1, scope="deal").record().to_json()
    first = data["actions"][0]
    data.update(change)
    if data["actions"] is None:  # a good first action, then bad notation
        data["actions"] = [first, "жжж"]
    with pytest.raises((RecordError, OptionsError), match=message):
        replay(GameRecord.from_json(data))


def test_an_action_that_does_not_replay_is_named() -> None:
    data = random_game(BankOptions(), 2, 1, scope="deal").record().to_json()
    data["actions"] = ["pass"] + data["actions"]
    with pytest.raises(RecordError, match=r"action 1 'pass' does not replay: illegal action pass"):
        replay(GameRecord.from_json(data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hands": [["JS", "AH"], ["JS"]]}, r"card JS is dealt twice"),
        ({"hands": [["JS"], []]}, r"every seat needs at least one card"),
        ({"hands": [["JS"]]}, r"one hand per seat for 2-4 players, not 1"),
        ({"hands": [["JS"], ["QS"], ["KS"], ["AS"], ["6S"]]}, r"one hand per seat for 2-4 players, not 5"),
        ({"hands": [["JS"], ["XX"]]}, r"deal hand 1: bad card 'XX'"),
        ({"dealer": 2}, r"'dealer' must be a seat 0-1"),
        ({"totals": [1]}, r"'totals' must be 2 integers"),
        ({"seed": -1}, r"'seed' must be a non-negative integer"),
        ({"colour": "red"}, r"unknown key 'colour'"),
        ({"open": ["QS"]}, r"'open' must be one card"),
        ({"trump_suits": ["H", "H"]}, r"names a suit twice"),
    ],
)
def test_bad_deals_are_refused(change: dict[str, Any], message: str) -> None:
    layout: dict[str, Any] = {"hands": [["JS", "AH"], ["6D"]], "open": "QS", "stock": [], "dealer": 1}
    layout.update(change)
    with pytest.raises((RecordError, OptionsError, NotationError), match=message):
        from_deal(layout)


# -- golden records ------------------------------------------------------------------------------------

GOLDEN_GAMES = [
    ("default-2-match", BankOptions(), 2, 1, "match"),
    ("senior-junior-3-match", BankOptions.preset("senior-junior"), 3, 2, "match"),
    ("literal-4-deal", BankOptions.preset("literal"), 4, 3, "deal"),
    (
        "variants-3-match",
        BankOptions.from_mapping(
            {
                "trumps": "two",
                "two_trumps_cover": "free",
                "seven": "draw-and-move",
                "runs": "any-suits",
                "penalty": "hand-points-and-fine",
                "fine": "split",
                "next_dealer": "min-points",
                "tie": "tied-only",
            }
        ),
        3,
        4,
        "match",
    ),
]


def make_golden() -> None:
    """Write the golden records (run once: ``python tests/bank/test_bank_protocol.py``)."""
    GOLDEN.mkdir(exist_ok=True)
    for name, opts, players, seed, scope in GOLDEN_GAMES:
        state = random_game(opts, players, seed, scope)
        record = state.record()
        meta = {"returns": state.returns(), "results": [r.to_json() for r in state.results]}
        GameRecord(**{**record.__dict__, "meta": meta}).save(GOLDEN / f"{name}.json")


@pytest.mark.parametrize("name", [game[0] for game in GOLDEN_GAMES])
def test_golden_records_replay_exactly(name: str) -> None:
    record = GameRecord.load(GOLDEN / f"{name}.json", game="bank")
    state = replay(record)
    assert state.is_over()
    assert state.returns() == record.meta["returns"]
    assert [r.to_json() for r in state.results] == record.meta["results"]
    assert state.record().actions == record.actions
    assert json.loads(state.record().dumps())["actions"] == list(record.actions)


if __name__ == "__main__":
    make_golden()


def test_command_line_assignments_reach_every_kind_of_option() -> None:
    opts = BankOptions().with_assignments(
        [
            "trumps=two",
            "trump_suits=H,D",
            "first_dealer=1",
            "run_extra_move=yes",
            "penalty=hand-points-and-fine",
            "penalty_fixed=40",
        ]
    )
    assert opts.trump_suits == ("H", "D") and opts.first_dealer == 1 and opts.run_extra_move
    assert (
        opts.penalty_fixed == 40
        and BankOptions().with_assignments(["first_dealer=null"]).first_dealer is None
    )
    with pytest.raises(OptionsError, match="'penalty_fixed' must be one of"):
        BankOptions().with_assignments(["penalty_fixed=41"])
    with pytest.raises(OptionsError, match=r"'seven' must be .*, not 'yes'"):  # quoted as typed, not True
        BankOptions().with_assignments(["seven=yes"])
    with pytest.raises(OptionsError, match="'target' must be int, not 'on'"):
        BankOptions().with_assignments(["target=on"])


def test_observation_while_trumps_are_chosen_in_turn() -> None:
    state = new_game(BankOptions(trump_choice="in-turn", first_dealer=0), players=2, seed=2)
    state.apply(parse_action("trump C"))
    view = observe(state, 0)
    assert view.phase == "choose-trump" and view.hand == () and view.trump_suits == ("-", "C")
    assert view.legal_actions == tuple(state.legal_actions()) and observe(state, 1).legal_actions == ()
    assert json.loads(json.dumps(view.to_json()))["history"] == [[1, "trump C"]]


# -- hidden information ---------------------------------------------------------------------------------


def _drawn_position(stock: list[str], seven: str = "skip") -> BankState:
    """Seat 0 moves first (the 7H is one lower than the open 8H) and lays the 7H; nobody can cover it."""
    layout = {"hands": [["AS", "7H"], ["KC", "QS"]], "open": "8H", "stock": stock, "dealer": 1}
    return from_deal(layout, BankOptions(trumps="none", seven=seven))  # type: ignore[arg-type]


def test_observe_hides_drawn_cards_and_the_stock() -> None:
    # rule 4.9: a drawn card joins the drawer's hand face down; the others see only that he drew
    a, b = _drawn_position(["QD", "JC", "10S"]), _drawn_position(["10S", "JC", "QD"])
    for state in (a, b):
        state.apply(parse_action("7H"))  # the 7 skips seat 1 (rule 4.8); seat 0 must cover it
        state.apply(DRAW)
    assert a.hand(0) != b.hand(0)  # QD drawn in one, 10S in the other
    assert observe(a, 1) == observe(b, 1)  # seat 1 cannot tell them apart
    view = observe(a, 1).to_json()
    assert view["hand_counts"] == [2, 2] and view["stock_size"] == 2 and view["history"][-1] == [0, "draw"]
    assert "QD" in observe(a, 0).hand
    for seat in (0, 1):
        text = json.dumps(observe(a, seat).to_json())
        assert "JC" not in text and "10S" not in text  # the stock is never shown
        if seat == 1:
            assert "QD" not in text


def test_observe_hides_the_card_drawn_by_a_seven() -> None:
    # rule 4.8 draw-and-move: the engine draws for seat 1, which must not show the card to seat 0
    a, b = _drawn_position(["QD", "JC"], "draw-and-move"), _drawn_position(["JC", "QD"], "draw-and-move")
    for state in (a, b):
        state.apply(parse_action("7H"))
        assert state.current_player == 1 and state.hands[1].bit_count() == 3
    assert a.hand(1) != b.hand(1) and observe(a, 0) == observe(b, 0)
    assert "QD" not in json.dumps(observe(a, 0).to_json()) and "QD" in observe(a, 1).hand

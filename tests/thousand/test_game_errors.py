"""Bad input to the Thousand engine: a clear error naming the input and the reason, and nothing changed."""

from __future__ import annotations

import pytest

from koloda.errors import IllegalActionError, KolodaError, NotationError, OptionsError, RecordError
from koloda.game import GameRecord, apply_as
from koloda.thousand.actions import PASS, parse_action
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState, from_deal, new_game, replay

DEAL = {
    "dealer": 0,
    "hands": ["QC 10C JC 9C AD KD QD", "AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC"],
    "talon": "10D JD 9D",
}


def playing() -> ThousandState:
    state = from_deal(DEAL, ThousandOptions(marriage_needs_trick=False))
    for text in ("pass", "pass", "KH>1", "JD>2", "100", "AS"):
        state.apply(parse_action(text))
    return state  # seat 2 to follow a spade; seat 2 holds KH (a gift), seat 1 QH without KH


def refused(state: ThousandState, action: object, seat: int | None = None) -> str:
    before = state.copy()
    record = state.record()
    with pytest.raises(IllegalActionError) as info:
        if seat is None:
            state.apply(action)  # type: ignore[arg-type]
        else:
            apply_as(state, seat, action)  # type: ignore[arg-type]
    assert state == before and state.record() == record
    return str(info.value)


def test_wrong_suit() -> None:
    message = refused(playing(), parse_action("AC"))
    assert "'AC' (action 11)" in message and "must follow suit ♠" in message


def test_bid_out_of_turn_and_in_the_wrong_phase() -> None:
    state = from_deal(DEAL)
    assert "it is seat 2's turn, not seat 0's" in refused(state, parse_action("105"), seat=0)
    assert "must now make a bid or a pass" in refused(state, parse_action("AS"))
    assert "must now make a card to play" in refused(playing(), parse_action("120"))
    assert "must now make a card to play" in refused(playing(), PASS)


def test_marriage_without_the_pair() -> None:
    state = from_deal(DEAL, ThousandOptions(marriage_needs_trick=False))
    for text in ("pass", "pass", "KH>1", "JD>2", "100"):
        state.apply(parse_action(text))
    assert "does not hold both the king and the queen" in refused(state, parse_action("QH+"))
    assert "does not hold KH" in refused(state, parse_action("KH+"))
    assert "ace marriage is off" in refused(state, parse_action("AH+"))


def test_marriage_not_on_the_lead() -> None:
    state = playing()
    state.apply(parse_action("9S"))
    state.apply(parse_action("QC"))
    state.apply(parse_action("AH"))  # seat 1 leads again... then seat 2 cannot declare on a follow
    assert "only when leading" in refused(state, parse_action("KS+"))


def test_acting_after_the_end() -> None:
    state = from_deal(DEAL)
    for text in ("pass", "pass", "10D>1", "JD>2", "bomb"):
        state.apply(parse_action(text))
    assert state.is_over()
    assert "the game is over" in refused(state, parse_action("AS"))


def test_bad_ids_and_types() -> None:
    state = from_deal(DEAL)
    assert "bad action 999" in refused(state, 999)
    assert "bad action True" in refused(state, True)
    assert "bad action '105'" in refused(state, "105")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "bad action ''"),
        ("7H", "not in Thousand's 24-card deck"),
        ("JH+", "only a king or a queen"),
        ("9S>3", "the recipient must be 1 or 2"),
        ("103", "bids are multiples of 5"),
        ("605", "bids are multiples of 5 from 5 to 600"),
        ("ZZ", "bad rank"),
    ],
)
def test_bad_notation(text: str, reason: str) -> None:
    with pytest.raises(NotationError, match=reason):
        parse_action(text)


def test_bad_options_and_setup() -> None:
    with pytest.raises(OptionsError, match="must_beat"):
        ThousandOptions.from_mapping({"must_beat": "always"})
    with pytest.raises(OptionsError, match="unknown option 'must_bet'"):
        ThousandOptions.from_mapping({"must_bet": "led"})
    with pytest.raises(OptionsError, match="'ace_marriage' must be bool"):
        ThousandOptions.from_mapping({"ace_marriage": "yes"})
    with pytest.raises(KolodaError, match="3 players, or 4"):
        new_game(players=5, seed=1)
    with pytest.raises(KolodaError, match="non-negative integer"):
        new_game(seed=-1)
    with pytest.raises(KolodaError, match="bad seat 3"):
        observe(from_deal(DEAL), 3)


def test_bad_records() -> None:
    good = from_deal(DEAL)
    good.apply(PASS)
    data = good.record().to_json()
    bad_action = GameRecord.from_json(data | {"actions": ["pass", "AS"]})
    with pytest.raises(RecordError, match=r"action 2 'AS' does not replay: .*must now make a bid"):
        replay(bad_action)
    with pytest.raises(RecordError, match="bad options"):
        replay(GameRecord.from_json(data | {"options": {"must_beat": 3}}))
    with pytest.raises(RecordError, match="is dealt twice"):
        replay(GameRecord.from_json(data | {"deal": DEAL | {"talon": "AS JD 9D"}}))
    with pytest.raises(RecordError, match="not of 'thousand'"):
        replay(GameRecord.from_json(data | {"game": "bank"}))
    with pytest.raises(RecordError, match="4 players"):
        replay(GameRecord.from_json(data | {"players": 4}))

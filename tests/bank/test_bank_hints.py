"""Issue 29: help that cannot lie. Bank's hint of what may be played (koloda.bank.explain) comes from the
engine's own reasons; over many random positions under every reading that changes what may be laid, the
cards it admits in the mover's hand are exactly the legal single cards (it never invites an illegal card
nor leaves out a legal one), its four of a kind, runs and pass exactly the legal ones, and its words, in
both languages, name every card it admits by a rank and a suit."""

from __future__ import annotations

import random
from typing import Any

import pytest

from koloda.bank import BankOptions, BankState, explain, new_game, observe
from koloda.bank import tables as T
from koloda.bank.explain import SINGLE
from koloda.cards import DECK_36
from koloda.errors import IllegalActionError

READINGS: list[dict[str, Any]] = [
    {},
    {"opening": "strict"},
    {"trumps": "none"},
    {"trumps": "one"},
    {"trumps": "two", "two_trumps_cover": "free"},
    {"trumps": "senior-junior"},
    {"eight_then": "cover-beneath"},
    {"eight_then": "cover-beneath", "eight_opening": "strict"},
    {"eight_follow": "any"},
    {"four_extra_move": "compulsory"},
    {"runs": "any-suits", "run_extra_move": True},
    {"run_extra_move": True, "run_extra": "compulsory"},
    {"after_capture": "last-top", "four_kings": "anyone"},
    {"four_kings_capture": "after-move"},
    {"trump_choice": "in-turn-after-deal"},
]


def check(state: BankState) -> None:
    """The hint of the position against the engine's legal actions."""
    hint = explain(state)
    legal = state.legal_actions()
    if state.is_over():
        assert hint is None and legal == []
        return
    assert hint is not None and hint.seat == state.current_player
    if state.phase == "choose-trump":
        (way,) = hint.ways
        assert legal == [T.CHOOSE0 + "SCDH".index(s) for s in way.suits]
        return
    hand = state.hands[hint.seat]
    assert hint.target == state.target
    face_up = sum(1 << c for c in state.bank) | sum(state.captured)
    assert not hint.mask() & face_up  # no card that lies face up is offered
    singles = [a for a in legal if a < T.FOUR0]
    assert singles == T.cards_of(hand & hint.mask()), (hint, singles)
    for c in T.cards_of(hand):
        assert (hint.way_of(c) is not None) == (c in singles)
    fours = [a for a in legal if T.FOUR0 <= a < T.RUN0]
    four = hand & hand >> 9 & hand >> 18 & hand >> 27 & 511
    held = sorted(T.FOUR0 + s * 9 + f for f in range(9) if four >> f & 1 for s in range(4))
    assert fours == (held if hint.has("four") else [])
    runs = [a for a in legal if T.RUN0 <= a < T.DRAW]
    cover = 0
    for way in hint.ways:
        if way.kind in SINGLE and way.kind != "eight":
            cover |= way.cards
    run_kind = "run" if state.options.runs == "one-suit" else "run-any"
    assert runs == (T.runs(hand, cover | ~face_up & T.FULL_DECK * (state.target < 0), run_kind == "run")
                    if hint.has(run_kind) else [])  # fmt: skip
    moves = singles + fours + runs
    if moves:
        assert (T.PASS in legal) == hint.has("pass") and T.DRAW not in legal
    else:
        assert legal in ([T.DRAW], [T.PASS])  # nothing covers: draw, or fail (rule 4.9)


def said(state: BankState) -> None:
    """The words: every card a card-list way admits is named, in Russian with Russian ranks."""
    hint = explain(state)
    assert hint is not None
    english, russian = hint.msg().text("en"), hint.msg().text("ru")
    for way in hint.ways:
        if way.kind in ("one-lower", "same-rank", "six"):
            for c in T.cards_of(way.cards):
                assert DECK_36[c].text("latin", "symbol") in english
                assert DECK_36[c].text("russian", "symbol") in russian
        for suit in way.suits if way.kind != "lead" else ():  # "any card" needs no suits
            assert "♠♣♦♥"["SCDH".index(suit)] in english
    assert not any(f"{rank}{suit}" in russian for rank in "JQKA" for suit in "♠♣♦♥")
    assert "higher card" not in english and "старшей" not in russian


@pytest.mark.parametrize(
    "reading", READINGS, ids=lambda r: " ".join(f"{k}={v}" for k, v in r.items()) or "defaults"
)
def test_a_hint_admits_exactly_the_legal_moves(reading: dict[str, Any]) -> None:
    options = BankOptions.from_mapping(reading)
    positions = 0
    for game in range(24):
        players = 2 + game % 3
        state = new_game(options, players=players, seed=game, scope="deal")
        rng = random.Random(game)
        while True:
            check(state)
            positions += 1
            if state.is_over():
                break
            if positions % 7 == 0:
                said(state)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    assert positions > 600


def test_every_seat_sees_the_same_hint_and_only_the_mover_his_cards_reasons() -> None:
    """The hint is public (made of public facts): every seat and a spectator get the same one; its JSON
    names no card but the card to cover and, in the mover's own view, his cards, each with the kind of way
    that admits it (None: it does not cover), which are his legal single cards."""
    state = new_game(players=3, seed=7)
    state.apply(state.legal_actions()[0])
    mover = state.current_player
    views = [observe(state, seat) for seat in (0, 1, 2, None)]
    assert all(view.hint == views[0].hint for view in views)
    for view in views:
        data = view.to_json()["hint"]
        assert data["seat"] == mover and data["target"] == str(DECK_36[state.target])
        assert all(set(way) == {"kind", "rule", "suits"} for way in data["ways"])
        if view.seat != mover:
            assert data["hand"] == {}
            continue
        assert list(data["hand"]) == list(view.hand)
        playable = [card for card, way in data["hand"].items() if way is not None]
        assert playable == [state.action_text(a) for a in state.legal_actions() if a < T.FOUR0]


def test_a_card_that_does_not_cover_is_refused_in_the_players_notation() -> None:
    """The engine's refusal of a card names it as the player's language writes cards: Russian ranks and
    suit symbols in Russian, the canonical notation in English (what he typed)."""
    from koloda.bank import from_deal

    layout = {
        "hands": [["QH", "8H"], ["9S"]],
        "open": "6H",
        "stock": [],
        "dealer": 1,
        "trump_suits": ["C", "S"],
    }
    state = from_deal(layout, BankOptions(opening="strict"))
    with pytest.raises(IllegalActionError) as refused:
        state.apply(state.parse_action("QH"))
    assert "QH does not cover 6H (rule 4.3)" in str(refused.value)
    assert "ход Д♥ места 0 невозможен: Д♥ не кроет 6♥ (правило 4.3)" in refused.value.text("ru")
    with pytest.raises(IllegalActionError) as missing:
        state.apply(state.parse_action("9S"))
    assert "у места 0 нет 9♠" in missing.value.text("ru") and "seat 0 does not hold 9S" in str(missing.value)

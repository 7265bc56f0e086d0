"""One scenario per rule of docs/rules/thousand.md Part II (G1-G15), each from an explicit deal."""

from __future__ import annotations

import pytest

from koloda.cards import Card, Suit, parse_cards
from koloda.errors import IllegalActionError, OptionsError, RecordError
from koloda.thousand.actions import BOMB, NUM_ACTIONS, PASS, POINTS, action_text, bid_action, parse_action
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState, from_deal, new_game

# Dealer 0, first hand 1. Seat 1 has every heart and AS; seat 2 the spade marriage; seat 0 the diamond one.
DEAL = {
    "dealer": 0,
    "hands": ["QC 10C JC 9C AD KD QD", "AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC"],
    "talon": "10D JD 9D",
}
# Seat 1 has no marriage; seat 2 holds the spade and club marriages; seat 0 the diamond one.
CAPPED = {
    "dealer": 0,
    "hands": ["10C JC 9C AD KD QD QH", "AH 10H KH JH 9H AS 10S", "KS QS JS 9S AC KC QC"],
    "talon": "10D JD 9D",
}


def play(state: ThousandState, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text), key=lambda c: c.suit * 9 + c.rank))


def legal_texts(state: ThousandState) -> list[str]:
    return [action_text(a) for a in state.legal_actions()]


def declared_to(deal: dict[str, object], declarer_bids: list[str], options: ThousandOptions | None = None):
    state = from_deal(deal, options)
    play(state, *declarer_bids)
    return state


# --- G1 ---------------------------------------------------------------------------------------------------


def test_g1_card_points_and_rank_order() -> None:
    assert sum(POINTS) == 120
    assert [POINTS[c] for c in range(6)] == [0, 10, 2, 3, 4, 11]  # 9 10 J Q K A of spades
    # seat 1 (declarer) gives hearts away and leads a heart; seat 2, then seat 0 must follow with the gift
    for gifts, lead, winner, taken in (
        (["10H>1", "KH>2"], "AH", 1, 11 + 10 + 4),  # A > 10 > K
        (["KH>1", "QH>2"], "10H", 1, 10 + 4 + 3),  # 10 > K > Q
        (["QH>1", "JH>2"], "9H", 2, 0 + 3 + 2),  # Q > J > 9
    ):
        state = declared_to(DEAL, ["pass", "pass", *gifts, "100"])
        play(state, lead)
        assert len(state.legal_actions()) == 1  # the one heart each opponent received
        state.apply(state.legal_actions()[0])
        state.apply(state.legal_actions()[0])
        assert observe(state, 0).tricks[-1].winner == winner
        assert state._taken[winner] == taken


# --- G2 ---------------------------------------------------------------------------------------------------


FOUR = {
    "dealer": 3,
    "hands": ["QC 10C JC 9C AD KD QD", "AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC", ""],
    "talon": "10D JD 9D",
}


def test_g2_four_players_dealer_sits_out() -> None:
    state = from_deal(FOUR)
    assert state.players == 4 and state.dealer == 3
    assert state.current_player == 1  # seat 0 is the first hand (compulsory bid), seat 1 speaks first
    play(state, "pass", "pass")  # seats 1 and 2 pass: seat 0, the first hand, declares; seat 3 never speaks
    assert state.declarer == 0
    play(state, "QD>1", "KD>2")  # opponent 1 of seat 0 is seat 1, opponent 2 is seat 2 (seat 3 skipped)
    assert Card.parse("QD") in state.hand(1) and Card.parse("KD") in state.hand(2)
    assert state.hand(3) == ()


@pytest.mark.parametrize(("rule", "points"), [("talon", 10 + 2 + 0), ("aces_marriage", 0), ("nothing", 0)])
def test_g2_sitting_dealer_scores_from_the_talon(rule: str, points: int) -> None:
    state = from_deal(FOUR, ThousandOptions(sitting_scores=rule))  # type: ignore[arg-type]
    play(state, "pass", "pass", "QD>1", "KD>2", "100")
    _play_out(state)
    deal, _ = state.results[-1]
    assert deal.sitting == 3 and deal.points[3] == points
    assert sum(p for seat, p in enumerate(deal.points) if seat != 3) == 120


@pytest.mark.parametrize(
    ("seat0", "talon", "gifts", "points"),
    [
        ("QC 10C JC 9C JD 10D QD", "AH AD KD", ["AH>1", "AD>2"], 50 + 50),  # two aces; KD alone is nothing
        ("QC 10C JC 9C JD 10D AD", "AH KD QD", ["AH>1", "KD>2"], 50 + 80),  # an ace and the ♦ marriage
    ],
)
def test_g2_aces_and_marriage_in_the_talon(seat0: str, talon: str, gifts: list[str], points: int) -> None:
    deal = {
        "dealer": 3,
        "hands": [seat0, "KH QH 10H JH 9H AS 9D", "KS QS 10S JS 9S AC KC", ""],
        "talon": talon,
    }
    state = from_deal(deal, ThousandOptions(sitting_scores="aces_marriage"))
    play(state, "pass", "pass", *gifts, "100")
    _play_out(state)
    assert state.results[-1][0].points[3] == points


def _play_out(state: ThousandState) -> None:
    """Finish the deal with the lowest legal action at every step (deterministic)."""
    start = len(state.results)
    while len(state.results) == start:
        state.apply(state.legal_actions()[0])


# --- G3 ---------------------------------------------------------------------------------------------------


def test_g3_seven_cards_each_talon_of_three_from_the_seed() -> None:
    state = new_game(seed=11, scope="match")
    hands = [state.hand(seat) for seat in range(3)]
    assert [len(h) for h in hands] == [7, 7, 7]
    assert len({c for h in hands for c in h}) == 21
    assert new_game(seed=11).hand(0) == hands[0]
    assert any(new_game(seed=s).hand(0) != hands[0] for s in (12, 13))
    assert state.dealer == 0 and state.current_player == 2  # seat 1 is the first hand and has bid
    play(state, "pass", "pass")
    _play_out(state)
    assert state.dealer == 1  # the deal passes clockwise


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"talon": "10D JD"}, "talon has 2 cards"),
        ({"talon": "10D JD AS"}, "AS is dealt twice"),
        ({"talon": "10D JD 8D"}, "not in the 24-card deck"),
        ({"dealer": 5}, "'dealer' must be a seat"),
        ({"hands": ["QC", "AH", "KS"]}, "has 1 cards, not 7"),
        ({"extra": 1}, "unknown key 'extra'"),
    ],
)
def test_g3_explicit_deal_is_checked(change: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        from_deal(DEAL | change)


# --- G4 ---------------------------------------------------------------------------------------------------

NINES = {
    "dealer": 0,
    "hands": ["9S 9C 9D 9H AD KD QD", "AH KH QH 10H JH 10C AS", "KS QS 10S JS QC AC KC"],
    "talon": "10D JD JC",
}


def test_g4_four_nines_are_dealt_again() -> None:
    """[notes]: «Redeal conditions (variants): four nines in a hand; ...». A shuffled deal with four nines in
    one hand is dealt again by the same dealer; an explicit deal asks for it with ``"redeal": true``."""
    nines = cards("9S 9C 9D 9H")
    state = from_deal(NINES | {"redeal": True})
    assert state.hand(0) != cards("9S 9C 9D 9H AD KD QD")  # redealt from the deal's seed
    assert not any(set(nines) <= set(state.hand(seat)) for seat in range(3))
    assert state.explicit_deal is not None and state.explicit_deal["redeal"] is True
    kept = from_deal(NINES | {"redeal": True}, ThousandOptions(redeal_four_nines=False))
    assert kept.hand(0) == cards("9S 9C 9D 9H AD KD QD")
    shuffled = next(s for s in range(2000) if _void_first_shuffle(s))  # a seed whose first shuffle is void
    game = new_game(seed=shuffled)
    assert game.dealer == 0 and not any(set(nines) <= set(game.hand(seat)) for seat in range(3))


def _void_first_shuffle(seed: int) -> bool:
    from koloda.thousand.deal import is_void, shuffle

    return is_void(ThousandOptions(), *shuffle(seed=seed, number=0, dealer=0, players=3))


def test_g4_an_explicit_deal_is_played_as_given() -> None:
    """[notes]: «Redeal conditions (variants): four nines in a hand; ...». An explicit position
    (``from_deal``, a record's ``deal``) is the position asked for: it is played as given, four nines and
    all (issue 16); only ``"redeal": true`` applies rule G4 to it, as koloda did before record version 2."""
    state = from_deal(NINES)
    assert state.hand(0) == cards("9S 9C 9D 9H AD KD QD")
    assert state.explicit_deal is not None and "redeal" not in state.explicit_deal
    assert from_deal(POOR_TALON, ThousandOptions(redeal_talon_under=6)).hand(0) == cards(
        "QC 10C JC 10D AD KD QD"
    )
    with pytest.raises(RecordError, match="'redeal' must be true or false"):
        from_deal(NINES | {"redeal": "yes"})


POOR_TALON = {
    "dealer": 0,
    "hands": ["QC 10C JC 10D AD KD QD", "AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC"],
    "talon": "9D JD 9C",  # 2 card points, two nines
}
WEAK_HAND = {
    "dealer": 0,
    "hands": ["10C QC KC AC AD KD QD", "AH KH QH 10H JH 9H AS", "9S JS QS 9C JC 9D JD"],  # seat 2: 9 points
    "talon": "KS 10S 10D",
}
REDEAL = {"redeal": True}


def test_g4_poor_talon_and_weak_hand() -> None:
    assert from_deal(POOR_TALON | REDEAL).hand(0) == cards("QC 10C JC 10D AD KD QD")
    assert from_deal(POOR_TALON | REDEAL, ThousandOptions(redeal_talon_under=6)).hand(0) != cards(
        "QC 10C JC 10D AD KD QD"
    )
    assert from_deal(POOR_TALON | REDEAL, ThousandOptions(redeal_talon_under=2)).hand(0) == cards(
        "QC 10C JC 10D AD KD QD"
    )
    two_nines = ThousandOptions(redeal_talon_two_nines=True)
    assert from_deal(POOR_TALON | REDEAL, two_nines).hand(0) != cards("QC 10C JC 10D AD KD QD")
    assert from_deal(DEAL | REDEAL, two_nines).hand(0) == cards(
        "QC 10C JC 9C AD KD QD"
    )  # one nine in the talon
    assert from_deal(WEAK_HAND | REDEAL).hand(2) == cards("9S JS QS 9C JC 9D JD")
    assert from_deal(WEAK_HAND | REDEAL, ThousandOptions(redeal_hand_under=13)).hand(2) != cards(
        "9S JS QS 9C JC 9D JD"
    )
    assert from_deal(WEAK_HAND | REDEAL, ThousandOptions(redeal_hand_under=9)).hand(2) == cards(
        "9S JS QS 9C JC 9D JD"
    )


def test_g4_silly_thresholds_are_refused() -> None:
    with pytest.raises(Exception, match="redeal_hand_under"):
        ThousandOptions(redeal_hand_under=40)


# --- G5 ---------------------------------------------------------------------------------------------------


def test_g5_first_hand_bids_100_and_passes_are_final() -> None:
    state = from_deal(DEAL)
    assert state.current_player == 2
    assert legal_texts(state)[:3] == ["pass", "105", "110"]
    view = observe(state, 0)
    assert view.bids == ((1, "100"),) and view.high_bid == 100
    play(state, "105")  # seat 2
    assert state.current_player == 0
    play(state, "pass")  # seat 0 is out for good
    assert state.current_player == 1
    play(state, "110")
    assert state.current_player == 2  # seat 0 is skipped
    play(state, "pass")
    assert state.declarer == 1 and state.phase == "giving"
    assert observe(state, 2).bids == ((1, "100"), (2, "105"), (0, "pass"), (1, "110"), (2, "pass"))


def test_g5_bid_step_ten() -> None:
    state = from_deal(DEAL, ThousandOptions(bid_step=10))
    assert legal_texts(state)[:3] == ["pass", "110", "120"]
    with pytest.raises(IllegalActionError, match="at least 110"):
        state.apply(parse_action("105"))


def test_g5_everyone_passes_the_first_hand_plays_100() -> None:
    state = from_deal(DEAL)
    play(state, "pass", "pass")
    assert state.declarer == 1 and state.phase == "giving"


# --- G6 ---------------------------------------------------------------------------------------------------


def test_g6_no_bid_above_120_without_a_marriage() -> None:
    state = from_deal(CAPPED)
    play(state, "105", "110")  # seat 2 and seat 0 (both hold marriages)
    assert legal_texts(state)[-1] == "120"  # seat 1: no marriage
    with pytest.raises(IllegalActionError, match="at most 120"):
        state.apply(parse_action("125"))
    play(state, "pass")
    assert legal_texts(state)[-1] == "400"  # seat 2 holds a marriage: up to the top bid


def test_g6_cap_is_120_plus_marriages_held() -> None:
    state = from_deal(CAPPED, ThousandOptions(bid_cap="marriages_held"))
    assert legal_texts(state)[-1] == "220"  # seat 2: spades 40 + clubs 60
    play(state, "pass")
    assert legal_texts(state)[-1] == "200"  # seat 0: diamonds 80


def test_g6_no_cap() -> None:
    state = from_deal(CAPPED, ThousandOptions(bid_cap="none"))
    play(state, "105", "pass")
    assert legal_texts(state)[-1] == "400"  # seat 1 without a marriage


def test_g6_cap_at_the_contract_counts_the_talon_and_the_gifts() -> None:
    # seat 1 (no marriage) wins at 100; the talon's cards are no marriage; he gives his KH away
    state = from_deal(CAPPED)
    play(state, "pass", "pass", "KH>1", "9H>2")
    assert legal_texts(state)[-2:] == ["120", "bomb"]
    # with QH in the talon, seat 1 has a heart marriage after the talon
    deal = {"dealer": 0, "hands": ["10C JC 9C AD KD QD 10D", *CAPPED["hands"][1:]], "talon": "QH JD 9D"}
    state = from_deal(deal)
    play(state, "pass", "pass", "JD>1", "9D>2")
    assert legal_texts(state)[-2:] == ["400", "bomb"]


# --- G7 ---------------------------------------------------------------------------------------------------


def test_g7_talon_shown_taken_and_one_card_to_each_opponent() -> None:
    state = from_deal(DEAL)
    assert all(observe(state, seat).talon is None for seat in range(3))
    play(state, "pass", "pass")
    assert all(observe(state, seat).talon == cards("10D JD 9D") for seat in range(3))
    assert len(state.hand(1)) == 10
    assert all(a in range(157, 205) for a in state.legal_actions())
    play(state, "10D>2")
    assert observe(state, 1).gifts == ((0, Card.parse("10D")),)  # opponent 2 of seat 1 is seat 0
    assert observe(state, 0).gifts == ((0, Card.parse("10D")),)
    assert observe(state, 2).gifts == ()
    assert all(action_text(a).endswith(">1") for a in state.legal_actions())
    play(state, "JD>1")
    assert observe(state, 2).gifts == ((2, Card.parse("JD")),)
    assert len(observe(state, 1).gifts) == 2
    assert [len(state.hand(s)) for s in range(3)] == [8, 8, 8]


def test_g7_talon_hidden_at_the_lowest_bid() -> None:
    options = ThousandOptions(talon_hidden_at_100=True)
    state = from_deal(DEAL, options)
    play(state, "pass", "pass")
    assert observe(state, 1).talon == cards("10D JD 9D")
    assert observe(state, 0).talon is None and observe(state, 2).talon is None
    state = from_deal(DEAL, options)
    play(state, "pass", "105", "pass")
    assert observe(state, 2).talon == cards("10D JD 9D")


# --- G8 ---------------------------------------------------------------------------------------------------


def test_g8_raise_after_the_talon() -> None:
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2"])
    assert legal_texts(state)[0] == "100" and "bomb" in legal_texts(state)
    play(state, "150")
    assert observe(state, 0).contract == 150 and state.phase == "playing" and state.current_player == 1
    _play_out(state)
    assert state.results[-1][0].bid == 150


def test_g8_bomb_records_the_bid_won() -> None:
    state = declared_to(DEAL, ["pass", "110", "pass", "10D>1", "JD>2"])  # seat 0 wins the bidding at 110
    play(state, "bomb")
    deal, score = state.results[-1]
    assert deal.bomb and deal.bid == 110 and deal.declarer == 0
    assert score.delta == (0, 60, 60)
    assert state.is_over() and observe(state, 1).bomb


def test_g8_no_bomb_left() -> None:
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2"], ThousandOptions(bombs_per_game=0))
    assert BOMB not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="no bomb left"):
        state.apply(BOMB)


# --- G9 ---------------------------------------------------------------------------------------------------


def test_g9_marriage_needs_a_trick_and_sets_the_trump() -> None:
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"])
    assert "KH+" not in legal_texts(state)  # seat 1 has taken no trick yet
    with pytest.raises(IllegalActionError, match="needs a trick"):
        state.apply(parse_action("KH+"))
    play(state, "AS", "9S", "QC")  # seat 1 wins with AS
    assert {"QH+", "KH+"} <= set(legal_texts(state))
    play(state, "KH+")
    assert state.trump == Suit.HEARTS
    view = observe(state, 0)
    assert view.trump == Suit.HEARTS and view.marriages[0].value == 100 and view.marriages[0].seat == 1
    play(state, "KS", "AD")  # seat 2 and seat 0 have no heart; seat 2 has no trump either
    assert observe(state, 0).tricks[-1].winner == 1
    _play_out(state)
    assert state.results[-1][0].marriages[1] == (100,)


def test_g9_marriage_without_trick_when_option_off() -> None:
    state = declared_to(
        DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], ThousandOptions(marriage_needs_trick=False)
    )
    assert {"QH+", "KH+"} <= set(legal_texts(state))


def test_g9_a_marriage_without_the_pair_is_refused() -> None:
    state = declared_to(
        DEAL, ["pass", "pass", "KH>1", "JD>2", "100"], ThousandOptions(marriage_needs_trick=False)
    )
    assert "QH+" not in legal_texts(state)
    with pytest.raises(IllegalActionError, match="does not hold KH"):
        state.apply(parse_action("KH+"))
    with pytest.raises(IllegalActionError, match="both the king and the queen"):
        state.apply(parse_action("QH+"))


def test_g9_compulsory_declaration() -> None:
    options = ThousandOptions(marriage_needs_trick=False, marriage_optional=False)
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], options)
    texts = legal_texts(state)
    assert "KH" not in texts and "QH" not in texts and "KH+" in texts
    with pytest.raises(IllegalActionError, match="must be declared"):
        state.apply(parse_action("KH"))


def test_g9_defender_declares_and_the_trump_changes_again() -> None:
    state = declared_to(
        DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], ThousandOptions(marriage_needs_trick=False)
    )
    play(state, "KH+", "9S", "QC")  # seat 1: hearts are trump; seat 1 wins
    play(state, "9D", "10D", "AD")  # seat 0 wins with AD
    assert state.current_player == 0
    play(state, "QD+")
    assert state.trump == Suit.DIAMONDS
    assert [(m.seat, m.suit, m.value) for m in observe(state, 2).marriages] == [
        (1, Suit.HEARTS, 100),
        (0, Suit.DIAMONDS, 80),
    ]
    _play_out(state)
    assert state.results[-1][0].marriages == ((80,), (100,), ())


# --- G10 --------------------------------------------------------------------------------------------------

ACES_DEAL = {
    "dealer": 0,
    "hands": ["QC 10C JC 9C 10D KD QD", "AH KH QH 10H AD AC AS", "KS QS 10S JS 9S JH KC"],
    "talon": "9H JD 9D",
}


def test_g10_ace_marriage_scores_200_and_keeps_the_trump() -> None:
    off = declared_to(
        ACES_DEAL, ["pass", "pass", "9H>1", "JD>2", "100"], ThousandOptions(marriage_needs_trick=False)
    )
    assert "AS+" not in legal_texts(off)
    options = ThousandOptions(ace_marriage=True, marriage_needs_trick=False)
    state = declared_to(ACES_DEAL, ["pass", "pass", "9H>1", "JD>2"], options)
    assert legal_texts(state)[-2] == "600"  # the top bid with the ace marriage
    play(state, "100")
    assert {"AS+", "AC+", "AD+", "AH+"} <= set(legal_texts(state))
    play(state, "KH+")  # hearts trump first
    play(state, "JH", "QC")
    play(state, "AS+")
    assert state.trump == Suit.HEARTS
    assert observe(state, 2).marriages[-1].value == 200 and observe(state, 2).marriages[-1].suit is None
    _play_out(state)
    deal, score = state.results[-1]
    assert deal.marriages[1] == (100, 200) and score.raw[1] == deal.points[1] + 300


# --- G11 --------------------------------------------------------------------------------------------------


def test_g11_follow_suit_then_anything() -> None:
    options = ThousandOptions(marriage_needs_trick=False)
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], options)
    play(state, "AS")  # seat 1 leads a spade
    assert legal_texts(state) == ["9S", "10S", "JS", "QS", "KS"]  # seat 2 must follow
    with pytest.raises(IllegalActionError, match="must follow suit ♠"):
        state.apply(parse_action("AC"))
    play(state, "9S")
    assert set(legal_texts(state)) == {"QC", "10C", "JC", "9C", "AD", "KD", "QD", "JD"}  # void, no trump
    play(state, "QC")
    assert state.current_player == 1  # the winner leads
    play(state, "KH+")  # hearts are trump now
    assert len(legal_texts(state)) == 7  # seat 2: no heart, no trump: any card
    play(state, "10D", "AD")
    assert observe(state, 1).tricks[-1].winner == 1


def test_g11_a_void_player_must_trump() -> None:
    state = declared_to(
        DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], ThousandOptions(marriage_needs_trick=False)
    )
    play(state, "9D", "10D", "JD")  # 10D (seat 2) beats JD and 9D
    assert state.current_player == 2
    play(state, "KS+", "QC")  # spades are trump; seat 0 has none: any card
    assert legal_texts(state) == ["AS"]
    play(state, "AS")  # AS beats KS: seat 1 leads
    play(state, "AH")
    assert legal_texts(state) == ["9S", "10S", "JS", "QS"]  # seat 2: no heart, must trump
    with pytest.raises(IllegalActionError, match="must trump"):
        state.apply(parse_action("AC"))
    play(state, "9S")
    play(state, "KD")
    assert state.current_player == 2  # the trump wins


# --- G12 --------------------------------------------------------------------------------------------------


def _clubs_led(rule: str, gift: str, lead: str) -> ThousandState:
    """Seat 0 declares at 105, gives ``gift`` to seat 1, leads ``lead``; seat 1 follows with his club."""
    options = ThousandOptions(must_beat=rule)  # type: ignore[arg-type]
    state = declared_to(DEAL, ["pass", "105", "pass", f"{gift}>1", "JD>2", "105"], options)
    play(state, lead)
    state.apply(state.legal_actions()[0])  # seat 1's only club
    return state  # seat 2 holds KC and AC


def test_g12_must_beat_the_card_led() -> None:
    assert legal_texts(_clubs_led("no", "9C", "10C")) == ["KC", "AC"]
    assert legal_texts(_clubs_led("led", "9C", "10C")) == ["AC"]  # only AC beats 10C
    assert legal_texts(_clubs_led("led", "9C", "JC")) == ["KC", "AC"]  # both beat JC
    with pytest.raises(IllegalActionError, match="must beat"):
        _clubs_led("led", "9C", "10C").apply(parse_action("KC"))


def test_g12_must_beat_the_winning_card() -> None:
    # JC led, seat 1 plays 10C (winning now): "led" accepts KC (beats JC), "winning" wants AC
    assert legal_texts(_clubs_led("led", "10C", "JC")) == ["KC", "AC"]
    assert legal_texts(_clubs_led("winning", "10C", "JC")) == ["AC"]
    # nothing can beat: any card the follow rule allows
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"], ThousandOptions(must_beat="winning"))
    play(state, "AS")
    assert legal_texts(state) == ["9S", "10S", "JS", "QS", "KS"]


# Seat 0 holds every club; seats 1 and 2 have none, so a club led by seat 0 is trumped (hearts, declared
# by seat 1) by both. Seat 2 holds AH and 9H around seat 1's QH.
OVER_TRUMP = {
    "dealer": 0,
    "hands": ["AC 10C KC QC JC 9C AD", "KH QH 9D JD AS 10S KS", "AH 10H 9H 10D QS JS 9S"],
    "talon": "JH KD QD",
}


@pytest.mark.parametrize(
    ("rule", "allowed"), [("no", ["9H", "AH"]), ("led", ["9H", "AH"]), ("winning", ["AH"])]
)
def test_g12_over_trump_under_the_winning_reading(rule: str, allowed: list[str]) -> None:
    options = ThousandOptions(must_beat=rule, marriage_needs_trick=False)  # type: ignore[arg-type]
    state = declared_to(OVER_TRUMP, ["pass", "pass", "KD>1", "QD>2", "100"], options)
    play(state, "KH+", "10H", "JC")  # hearts are trump; seat 2's 10H takes the KH
    play(state, "10D", "AD", "9D")  # seat 0 takes the trick and leads the clubs
    play(state, "AC")
    assert legal_texts(state) == ["JH", "QH"]  # seat 1: void in clubs, must trump (G11); both beat the AC
    play(state, "QH")
    # seat 2: void, must trump; under "winning" the trump must beat the QH that wins the trick so far, while
    # under "led" any trump beats the club led
    assert state.current_player == 2 and legal_texts(state) == allowed
    if rule == "winning":
        with pytest.raises(IllegalActionError, match="must beat"):
            state.apply(parse_action("9H"))
        assert legal_texts(state) == allowed  # the refusal changed nothing
    play(state, "AH")
    assert observe(state, 2).tricks[-1].winner == 2


# --- G13 --------------------------------------------------------------------------------------------------


def test_g13_fixed_action_space() -> None:
    assert NUM_ACTIONS == 206
    assert action_text(bid_action(100)) == "100" and parse_action("600") == bid_action(600) == 156
    assert parse_action("pass") == PASS == 36 and parse_action("bomb") == BOMB == 205
    assert parse_action("9S") == 0 and parse_action("AH") == 23 and parse_action("QS+") == 24
    assert parse_action("AH+") == 35 and parse_action("9S>1") == 157 and parse_action("AH>2") == 204


# --- G14 --------------------------------------------------------------------------------------------------


def test_g14_deal_result_to_the_score_book_and_scopes() -> None:
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"])
    _play_out(state)
    deal, score = state.results[-1]
    assert deal.declarer == 1 and deal.bid == 100 and not deal.bomb and sum(deal.points) == 120
    assert state.is_over() and state.current_player is None and state.legal_actions() == []
    assert state.returns() == list(score.delta)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(PASS)
    match = from_deal(DEAL, scope="match")
    play(match, "pass", "pass", "10D>1", "JD>2", "100")
    _play_out(match)
    assert not match.is_over() and match.dealer == 1 and match.phase == "bidding"
    assert match.returns() == list(match.book.totals) == list(score.total)


# --- G15 --------------------------------------------------------------------------------------------------


def test_g15_views_hide_other_hands_and_show_past_tricks() -> None:
    state = declared_to(DEAL, ["pass", "pass", "10D>1", "JD>2", "100"])
    view = observe(state, 2)
    assert view.hand == state.hand(2) and view.hand_sizes == (8, 8, 8)
    assert view.legal_actions == () and observe(state, 1).legal_actions == tuple(state.legal_actions())
    play(state, "AS", "9S", "QC", "AH", "KS", "AD")
    assert len(observe(state, 0).tricks) == 2
    hidden = from_deal(DEAL, ThousandOptions(show_past_tricks=False))
    play(hidden, "pass", "pass", "10D>1", "JD>2", "100", "AS", "9S", "QC", "AH", "KS", "AD")
    assert observe(hidden, 0).tricks == observe(state, 0).tricks[-1:]
    assert observe(hidden, 0).tricks_won == (0, 2, 0)


# --- G16 --------------------------------------------------------------------------------------------------


def test_g16_the_deal_limit_ends_a_match_with_the_highest_total_as_winner() -> None:
    limited = from_deal(DEAL, ThousandOptions(max_deals=1), scope="match")
    play(limited, "pass", "pass", "10D>1", "JD>2", "100")
    _play_out(limited)
    totals = list(limited.book.totals)
    assert limited.is_over() and limited.current_player is None and limited.deals_played == 1
    assert max(totals) < 1000 and limited.winner == totals.index(max(totals))  # nobody reached 1000 (S8)
    unlimited = from_deal(DEAL, scope="match")  # the default: no limit, the next deal begins
    play(unlimited, "pass", "pass", "10D>1", "JD>2", "100")
    _play_out(unlimited)
    assert not unlimited.is_over()
    with pytest.raises(OptionsError, match="max_deals"):
        ThousandOptions(max_deals=0)

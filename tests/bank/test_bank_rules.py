"""One scenario per numbered rule of docs/rules/bank.md, each from an explicit deal (``from_deal``)."""

from __future__ import annotations

from typing import Any

import pytest

from koloda.bank import DRAW, PASS, BankOptions, BankState, from_deal, new_game, replay, run_id
from koloda.bank import tables as T
from koloda.cards import Card
from koloda.errors import IllegalActionError, OptionsError


def deal(
    hands: list[list[str]],
    open_card: str,
    stock: list[str] | None = None,
    dealer: int | None = None,
    *,
    scope: str = "deal",
    totals: list[int] | None = None,
    trump_suits: list[str] | None = None,
    **options: Any,
) -> BankState:
    """A position from an explicit deal; no trumps unless asked; the dealer sits right of seat 0."""
    layout: dict[str, Any] = {
        "hands": hands,
        "open": open_card,
        "stock": stock or [],
        "dealer": len(hands) - 1 if dealer is None else dealer,
    }
    if totals is not None:
        layout["totals"] = totals
    if trump_suits is not None:
        layout["trump_suits"] = trump_suits
    opts = BankOptions.from_mapping({"trumps": "none", **options})
    return from_deal(layout, opts, scope=scope)  # type: ignore[arg-type]


def legal(state: BankState) -> list[str]:
    return [state.action_text(a) for a in state.legal_actions()]


def play(state: BankState, *texts: str) -> None:
    for text in texts:
        state.apply(state.parse_action(text))


def c(text: str) -> int:
    return Card.parse(text).index


# -- 1. Cards -----------------------------------------------------------------------------------------


def test_rule_1_1_deck_and_players() -> None:
    with pytest.raises(OptionsError, match="2-4 players"):
        new_game(players=5, seed=1)
    with pytest.raises(OptionsError, match="2-4 players"):
        new_game(players=1, seed=1)
    for players in (2, 3, 4):
        state = new_game(players=players, seed=players)
        masks = [*state.hands, *(1 << x for x in state.bank), *(1 << x for x in state.stock)]
        assert sum(m.bit_count() for m in masks) == 36
        combined = 0
        for m in masks:
            combined |= m
        assert combined == T.FULL_DECK


def test_rule_1_2_one_lower_in_banks_order() -> None:
    order = ["6", "7", "8", "9", "J", "Q", "K", "10", "A"]
    plain = (0, 0, 0, 0)
    for i in range(1, 9):
        top = c(order[i] + "H")
        assert T.covers(c(order[i - 1] + "H"), top, plain, False)  # one lower covers
        for j in range(1, 9):
            if j not in (i - 1, i):  # nothing else of the suit but the 6 (rule 4.4)
                assert T.covers(c(order[j] + "H"), top, plain, False) is False
    # in play: the king covers the 10, the queen does not (strict opening isolates the rule)
    state = deal([["KH", "QH"], ["6S"]], "10H", opening="strict")
    assert legal(state) == ["KH"]


def test_rule_1_3_card_points() -> None:
    points = {"A": 12, "10": 10, "K": 5, "Q": 3, "J": 1, "9": 0, "8": 0, "7": 0, "6": 0}
    for rank, value in points.items():
        assert T.CARD_POINTS[c(rank + "D")] == value
    assert T.points_of(T.FULL_DECK) == 124


# -- 2. Dealing -----------------------------------------------------------------------------------------


def test_rule_2_1_first_dealer_by_lot_or_fixed() -> None:
    dealers = {new_game(players=4, seed=s).dealer for s in range(30)}
    assert dealers == {0, 1, 2, 3}
    assert new_game(players=3, seed=5).dealer == new_game(players=3, seed=5).dealer
    assert {new_game(BankOptions(first_dealer=2), players=3, seed=s).dealer for s in range(5)} == {2}
    with pytest.raises(OptionsError, match="first_dealer"):
        new_game(BankOptions(first_dealer=3), players=3, seed=1)


def _short_match(rule: str) -> BankState:
    # seat 0 goes out first with JS, seat 1 second with 9S, seat 2 is left holding two aces
    state = deal([["JS"], ["9S"], ["AH", "AD"]], "QS", dealer=2, scope="match", next_dealer=rule)
    assert state.current_player == 0
    play(state, "JS", "9S")
    return state


@pytest.mark.parametrize(
    ("rule", "dealer"),
    [("loser", 2), ("last-finisher", 1), ("starter", 0), ("max-points", 0), ("min-points", 2)],
)
def test_rule_2_2_next_dealer(rule: str, dealer: int) -> None:
    state = _short_match(rule)
    assert state.deal_no == 2 and state.results[0].totals == (20, 14, -24)
    assert state.dealer == dealer


def test_rule_2_3_the_deal() -> None:
    for players in (2, 3, 4):
        state = new_game(players=players, seed=11)
        assert [h.bit_count() for h in state.hands] == [4] * players
        assert len(state.bank) == 1 and state.top_owner == -1
        assert len(state.stock) == 36 - 4 * players - 1
    a, b = new_game(players=3, seed=1), new_game(players=3, seed=2)
    assert a.hands != b.hands


# -- 3. Trumps ----------------------------------------------------------------------------------------


def test_rule_3_1_five_set_ups() -> None:
    assert BankOptions().trumps == "own"
    for trumps, count in (("own", 3), ("none", 0), ("one", 1), ("two", 2), ("senior-junior", 2)):
        state = new_game(BankOptions(trumps=trumps), players=3, seed=4)  # type: ignore[arg-type]
        assert len(state.trump_suits) == count
    assert new_game(BankOptions(trumps="senior-junior"), players=2, seed=1).trump_suits == (0, 2)


def test_rule_3_2_own_trumps_judged_by_the_covering_player() -> None:
    # seat 0's trump is hearts, seat 1's spades: for seat 0 the AS is a plain card, so any heart covers it
    state = deal([["6H", "KD"], ["7C"]], "AS", dealer=1, trumps="own", trump_suits=["H", "S"])
    assert legal(state) == ["6H"]
    plain = deal([["6H", "KD"], ["7C"]], "AS", ["9D"], dealer=1)
    assert legal(plain) == ["draw"]
    with pytest.raises(OptionsError, match="own trumps"):
        new_game(BankOptions(trump_suits=("H", "S")), players=3, seed=1)


def test_rule_3_2_own_trumps_chosen_in_turn() -> None:
    state = new_game(BankOptions(trump_choice="in-turn", first_dealer=1), players=3, seed=3)
    assert state.current_player == 2 and state.deal_no == 0 and state.hands == [0, 0, 0]  # nothing dealt yet
    assert legal(state) == ["trump S", "trump C", "trump D", "trump H"]
    play(state, "trump H", "козырь ♠")
    assert state.current_player == 1 and legal(state) == ["trump C", "trump D"]
    with pytest.raises(IllegalActionError, match="seat 2 has already chosen that suit"):
        play(state, "trump H")
    play(state, "trump D")
    assert state.deal_no == 1 and state.trump_suits == (0, 2, 3)  # seat 0 spades, 1 diamonds, 2 hearts
    assert [h.bit_count() for h in state.hands] == [4, 4, 4]
    assert replay(state.record()) == state


def test_rule_3_3_one_and_two_trumps() -> None:
    # plain cards cover a trump only by the same rank
    state = deal([["7C", "9C", "AD"], ["KS"]], "9H", dealer=1, trumps="one", trump_suits=["H"])
    assert legal(state) == ["9C"]
    state = deal([["6H", "7D"], ["KS"]], "AC", dealer=1, trumps="one", trump_suits=["H"])
    assert legal(state) == ["6H"]
    # the two trump suits: by the suit rule, or freely (option two_trumps_cover)
    suit = deal([["KD"], ["7S"]], "9H", ["6C"], dealer=1, trumps="two", trump_suits=["H", "D"])
    assert legal(suit) == ["draw"]
    free = deal(
        [["KD"], ["7S"]], "9H", dealer=1, trumps="two", trump_suits=["H", "D"], two_trumps_cover="free"
    )
    assert legal(free) == ["KD"]


def test_rule_3_4_senior_and_junior_trumps() -> None:
    sj = {"trumps": "senior-junior"}
    assert legal(deal([["6S", "KH"], ["7C"]], "AD", dealer=1, **sj)) == ["6S"]  # senior covers junior
    assert legal(deal([["6D", "10S"], ["7C"]], "AS", dealer=1, opening="strict", **sj)) == ["10S"]
    assert legal(deal([["6D"], ["7C"]], "AH", dealer=1, **sj)) == ["6D"]  # junior covers plain


def test_rule_3_5_trumps_kept_for_the_whole_match() -> None:
    state = new_game(players=3, seed=21)
    first = state.trump_suits
    while not state.is_over():
        state.apply(state.legal_actions()[-1])
    assert len(state.results) > 1
    assert {r.trump_suits for r in state.results} == {tuple("SCDH"[s] for s in first)}


# -- 4. Moves -------------------------------------------------------------------------------------------


def test_rule_4_1_first_mover() -> None:
    assert deal([["9H"], ["JH"], ["KH"]], "QH").current_player == 1  # the nearest lower card
    assert deal([["AH"], ["8H"], ["KS"]], "6H").current_player == 1  # else the nearest higher
    assert deal([["AS"], ["8C"], ["KS"]], "6H", dealer=1).current_player == 2  # else the dealer's left


def test_rule_4_2_opening_free_or_strict() -> None:
    assert legal(deal([["KH", "AS"], ["7C"]], "9H", ["6C"])) == ["KH"]
    assert legal(deal([["KH", "AS"], ["7C"]], "9H", ["6C"], opening="strict")) == ["draw"]
    # the opening reading covers the open card only: afterwards the normal rule holds
    state = deal([["QH", "6C"], ["9H", "KC"]], "KH", dealer=1)
    play(state, "QH")
    assert legal(state) == ["pass"]  # the 9H is a heart but not one lower than the QH


def test_rule_4_3_cover_one_lower_or_same_rank() -> None:
    state = deal([["JH", "QS", "10H", "KS"], ["6C"]], "QH", dealer=1, opening="strict")
    assert legal(state) == ["QS", "JH"]


def test_rule_4_4_the_six_covers_its_suit() -> None:
    state = deal([["6H", "7H"], ["6C"]], "AH", dealer=1, opening="strict")
    assert legal(state) == ["6H"]


@pytest.mark.parametrize(
    ("reading", "extra"), [("cover-eight", ["7C", "pass"]), ("cover-beneath", ["QH", "pass"])]
)
def test_rule_4_5_the_eight(reading: str, extra: list[str]) -> None:
    state = deal([["8C", "7C", "QH", "AD"], ["6S"]], "KH", dealer=1, opening="strict", eight_then=reading)
    assert legal(state) == ["8C", "QH"]  # an 8 goes on anything
    play(state, "8C")
    assert state.current_player == 0 and legal(state) == extra
    play(state, "pass")  # adding nothing: the next player must cover the 8
    assert state.current_player == 1 and state.target == c("8C")


def test_rule_4_6_four_of_a_kind() -> None:
    state = deal([["9S", "9C", "9D", "9H", "KH"], ["6S"]], "AC", dealer=1)
    # on anything, with any of the four on top (the 9C also covers by the free opening)
    assert legal(state) == ["9C", "9C+9D+9H+9S", "9S+9D+9H+9C", "9S+9C+9H+9D", "9S+9C+9D+9H"]
    play(state, "9S+9C+9H+9D")  # any of the four on top
    assert state.bank[-1] == c("9D") and state.top_owner == 0
    assert state.current_player == 0 and legal(state) == ["pass"]  # one more move if he can


@pytest.mark.parametrize(("reading", "after"), [("optional", ["6D", "pass"]), ("compulsory", ["6D"])])
def test_rule_4_6_the_extra_move_optional_or_compulsory(reading: str, after: list[str]) -> None:
    hand = ["9S", "9C", "9D", "9H", "6D"]
    state = deal([hand, ["6S"]], "AC", dealer=1, four_extra_move=reading)
    play(state, "9S+9C+9H+9D")  # the 6D covers the 9D on top
    assert state.current_player == 0 and legal(state) == after
    if reading == "compulsory":
        with pytest.raises(IllegalActionError, match=r"must be made when it can \(rule 4\.6\)"):
            play(state, "pass")
    unable = deal([hand, ["6S"]], "AC", dealer=1, four_extra_move=reading)
    play(unable, "9S+9D+9H+9C")  # nothing covers the 9C: "if he can", so he passes either way
    assert legal(unable) == ["pass"]
    eight = deal([["8C", "7C", "AD"], ["6S"]], "KH", dealer=1, four_extra_move=reading)
    play(eight, "8C")  # the option is about four of a kind only: after an 8 adding nothing stays allowed
    assert legal(eight) == ["7C", "pass"]


def test_rule_4_7_runs() -> None:
    hands = [["9H", "JH", "QH", "KH", "AS"], ["6S"]]
    state = deal(hands, "10H", dealer=1, opening="strict")
    run = run_id(3, (3, 3, 3, 3), True)  # 9 J Q K of hearts, the king covers the 10
    assert run in state.legal_actions() and run_id(3, (3, 3, 3, 3), False) not in state.legal_actions()
    play(state, "KH+QH+JH+9H")
    assert state.bank[-1] == c("9H") and state.current_player == 1  # no extra move by default
    mixed = [["9H", "JS", "QH", "KH", "AS"], ["6S"]]
    assert run_id(3, (3, 0, 3, 3), True) not in deal(mixed, "10H", dealer=1).legal_actions()
    assert run_id(3, (3, 0, 3, 3), True) in deal(mixed, "10H", dealer=1, runs="any-suits").legal_actions()
    extra = deal(hands, "10H", dealer=1, opening="strict", run_extra_move=True)
    play(extra, "KH+QH+JH+9H")
    assert extra.current_player == 0 and "pass" in legal(extra)


@pytest.mark.parametrize(
    ("seven", "mover", "drawn"),
    [("skip", 2, None), ("draw-and-move", 1, 1), ("skip-and-draw", 2, 1), ("none", 1, None)],
)
def test_rule_4_8_the_seven(seven: str, mover: int, drawn: int | None) -> None:
    state = deal([["7H", "AS"], ["KC"], ["QC"]], "8H", ["6S", "6C"], dealer=2, seven=seven)
    assert state.current_player == 0
    play(state, "7H")
    assert state.current_player == mover and state.target == c("7H")  # whoever moves must cover the 7
    counts = [h.bit_count() for h in state.hands]
    assert counts == [1, 2 if drawn == 1 else 1, 1]
    assert len(state.stock) == (1 if drawn else 2)


def test_rule_4_8_skip_with_two_players_returns_to_the_layer() -> None:
    state = deal([["7H", "AS"], ["KC"]], "8H", dealer=1)
    play(state, "7H")
    assert state.current_player == 0 and legal(state) == ["pass"]
    play(state, "pass")  # failing against his own 7 takes nothing (rule 5.2); the skip is spent
    assert state.current_player == 1 and len(state.bank) == 2


def test_rule_4_9_draw_when_unable_then_pass() -> None:
    state = deal([["AS"], ["KC"]], "9H", ["KD", "8H"], dealer=1)
    assert legal(state) == ["draw"]
    play(state, "draw")  # the KD (the stock is listed top first) does not help
    assert state.hand(0) == [Card.parse("AS"), Card.parse("KD")] and legal(state) == ["pass"]
    play(state, "pass")
    assert legal(state) == ["draw"]
    play(state, "draw")  # seat 1 draws the 8H, which goes on anything: no pass allowed while a move exists
    assert legal(state) == ["8H"]


# -- 5. The bank ------------------------------------------------------------------------------------


def _capture_flow(**options: Any) -> BankState:
    state = deal([["JS", "AH", "AC"], ["6D", "7D"]], "QS", dealer=1, **options)
    play(state, "JS", "pass")  # seat 1 cannot cover the JS and the stock is empty
    return state


def test_rule_5_1_the_top_cards_owner_takes_the_bank() -> None:
    state = _capture_flow()
    assert state.captured_pts == [4, 0] and state.captured[0] == 1 << c("QS") | 1 << c("JS")
    assert state.bank == []


def test_rule_5_2_no_one_card_bank_and_no_own_card() -> None:
    # the open card alone belongs to nobody
    state = deal([["AS"], ["KC"]], "9H", dealer=1)
    play(state, "pass")
    assert state.bank == [c("9H")] and state.captured_pts == [0, 0]
    # a one-card bank of seat 0's own lead is not taken when seat 1 fails
    state = _capture_flow()
    play(state, "AH", "pass")
    assert state.bank == [c("AH")] and state.captured_pts == [4, 0]


def test_rule_5_3_after_a_capture() -> None:
    free = _capture_flow()
    assert free.current_player == 0 and legal(free) == ["AC", "AH"] and free.target == -1
    literal = _capture_flow(after_capture="last-top")
    assert literal.target == c("JS") and legal(literal) == ["pass"]


@pytest.mark.parametrize("reading", ["other-player", "anyone"])
def test_rule_5_4_four_kings(reading: str) -> None:
    hands = [["KS", "KC", "KD", "KH", "QH", "6S"], ["6H", "6C"]]
    state = deal(hands, "AC", dealer=1, four_kings=reading)
    play(state, "KS+KC+KD+KH")
    if reading == "anyone":
        play(state, "QH")  # the layer's own extra move covers them and takes the bank
        assert state.captured_pts == [12 + 20 + 3, 0] and state.bank == []
        return
    play(state, "QH")  # covering one's own kings takes nothing
    assert state.captured_pts == [0, 0]
    state = deal(hands, "AC", dealer=1)
    play(state, "KS+KC+KD+KH", "pass", "6H")  # another player covers the four kings
    assert state.captured_pts == [0, 12 + 20] and state.bank == []


def test_rule_5_5_going_out_on_a_trump_king_takes_the_bank() -> None:
    state = deal([["KH"], ["QC", "9S"]], "10H", dealer=1, trumps="one", trump_suits=["H"], opening="strict")
    play(state, "KH")
    assert state.captured_pts == [15, 0] and state.is_over()
    plain = deal([["KH"], ["QC", "9S"]], "10H", dealer=1, opening="strict")
    play(plain, "KH")
    assert plain.captured_pts == [15, 0]  # the leftover bank (rule 6.3), not rule 5.5
    plain = deal([["KH"], ["QC", "9S"]], "10H", dealer=1, opening="strict", leftover_bank="set-aside")
    play(plain, "KH")
    assert plain.captured_pts == [0, 0]


@pytest.mark.parametrize("take", [True, False])
def test_rule_5_6_players_who_are_out_take_the_bank(take: bool) -> None:
    state = deal([["JS"], ["6D"], ["7D", "8D"]], "QS", dealer=2, out_players_take=take)
    play(state, "JS", "pass")  # seat 0 is out; seat 1 cannot cover the JS
    assert state.captured_pts[0] == (4 if take else 0)


# -- 6. The end of a deal -----------------------------------------------------------------------------------


def test_rule_6_1_going_out_and_places() -> None:
    state = deal([["JS"], ["9S"], ["AH", "AD"]], "QS", dealer=2)
    play(state, "JS")
    assert state.out == [True, False, False] and state.places == [0]
    play(state, "9S")
    assert state.places == [0, 1] and state.results[-1].places == (1, 2, None)


def test_rule_6_2_end_of_the_deal() -> None:
    one_left = deal([["JS"], ["AH", "AD"]], "QS", dealer=1)
    play(one_left, "JS")
    assert one_left.is_over() and not one_left.results[-1].stuck
    stuck = deal([["AS", "KD"], ["AC", "QD"]], "9H", dealer=1)
    play(stuck, "pass")
    assert not stuck.is_over()
    play(stuck, "pass")  # both players still in failed against the same card, the stock is empty
    assert stuck.is_over() and stuck.results[-1].stuck


@pytest.mark.parametrize(("rule", "points"), [("top-owner", 4), ("set-aside", 0)])
def test_rule_6_3_leftover_bank(rule: str, points: int) -> None:
    state = deal([["JS"], ["9S"], ["AH", "AD"]], "QS", dealer=2, leftover_bank=rule)
    play(state, "JS", "9S")
    assert state.results[-1].captured == (0, points, 0)


@pytest.mark.parametrize(("take", "points", "to"), [(True, 4, 1), (False, 0, None)])
def test_rule_6_3_leftover_bank_and_players_who_are_out(take: bool, points: int, to: int | None) -> None:
    # seat 1 goes out on the bank with its last card: under out_players_take=false (rule 5.6) a player who
    # is out takes no bank, so the leftover bank whose top card is his is set aside too
    state = deal([["JS"], ["9S"], ["AH", "AD"]], "QS", dealer=2, out_players_take=take)
    play(state, "JS", "9S")
    assert state.results[-1].captured == (0, points, 0) and state.results[-1].leftover_to == to


# -- 7. Scoring -----------------------------------------------------------------------------------------


def test_rule_7_1_captured_card_points_score() -> None:
    state = deal([["JS", "AH"], ["6D", "7D"]], "QS", dealer=1, penalty="none")
    play(state, "JS", "pass", "AH")  # seat 0 goes out with the AH
    result = state.results[-1]
    assert result.captured == (4, 0)  # QS 3 + JS 1; the leftover-bank rule leaves a one-card bank
    assert result.scores == (4 + 20, 0)


def test_rule_7_2_place_bonuses_need_four_players_for_third() -> None:
    state = deal([["JS"], ["9S"], ["8S", "AD"], ["AH", "AC"]], "QS", dealer=3, penalty="none")
    # seat 2 adds nothing to its 8, seat 3 cannot cover it, seat 2 takes the bank and goes out
    play(state, "JS", "9S", "8S", "pass", "pass", "AD")
    bonuses = state.results[-1].bonuses
    assert [sum(i[2] for i in b) for b in bonuses] == [20, 10, 10, 0]
    assert {i[0] for b in bonuses for i in b} == {"7.2"}


def test_rule_7_3_going_out_on_a_king() -> None:
    state = deal([["KH"], ["QC", "9S"]], "10H", dealer=1, opening="strict")
    play(state, "KH")
    assert state.results[-1].bonuses[0] == (("7.2", "place 1", 20), ("7.3", "place 1 on a king", 30))


def test_rule_7_4_going_out_with_four_of_a_kind() -> None:
    state = deal([["9S", "9C", "9D", "9H"], ["QC", "7S"]], "AH", dealer=1, penalty="none")
    play(state, "9S+9C+9D+9H")
    assert ("7.4", "went out with four of a kind", 75) in state.results[-1].bonuses[0]
    kings = deal([["KS", "KC", "KD", "KH"], ["QC", "7S"]], "AH", dealer=1)
    play(kings, "KS+KC+KD+KH")
    assert [i[0] for i in kings.results[-1].bonuses[0]] == ["7.2", "7.3"]  # kings: no 75, a king finish


def test_rule_7_5_going_out_with_a_run_of_one_suit() -> None:
    state = deal([["9H", "JH", "QH", "KH"], ["6S", "7S"]], "10H", dealer=1, opening="strict")
    play(state, "KH+QH+JH+9H")
    assert ("7.5", "place 1 with a run of one suit", 30) in state.results[-1].bonuses[0]


@pytest.mark.parametrize(("penalty", "fine"), [("none", 0), ("hand-points", 24)])
def test_rule_7_6_points_left_in_hand(penalty: str, fine: int) -> None:
    state = deal([["JS"], ["AH", "AD"]], "QS", dealer=1, penalty=penalty)
    play(state, "JS")
    assert state.results[-1].penalties == (0, fine)
    assert state.returns()[1] == -fine


@pytest.mark.parametrize(
    ("options", "fine"),
    [
        ({"penalty": "hand-points-and-fine", "fine": "fixed", "penalty_fixed": 15}, 13 + 15),
        ({"penalty": "hand-points-and-fine", "fine": "per-card", "penalty_per_card": 6}, 13 + 6 * 3),
        ({"penalty": "hand-points-and-fine", "fine": "split", "penalty_per_card": 3}, 13 + 3 * 1),
    ],
)
def test_rule_7_7_penalty_variants(options: dict[str, Any], fine: int) -> None:
    state = deal([["JS"], ["AH", "JD", "7C"]], "QS", dealer=1, **options)
    play(state, "JS")
    assert state.results[-1].penalties == (0, fine)
    pointless = deal([["JS"], ["7C", "8D"]], "QS", dealer=1, penalty="hand-points-and-fine", fine="split")
    play(pointless, "JS")
    assert pointless.results[-1].penalties == (0, 3 * 2 + 31)  # a pointless hand adds the fixed amount


@pytest.mark.parametrize(("who", "fines"), [("holders", (24, 13)), ("loser", (24, 0))])
def test_rule_7_8_who_pays(who: str, fines: tuple[int, int]) -> None:
    state = deal([["AS", "AD"], ["10C", "QD"]], "9H", dealer=1, penalty_who=who)
    play(state, "pass", "pass")  # a stuck end: the loser is the holder with most points in hand
    assert state.results[-1].loser == 0 and state.results[-1].penalties == fines


# -- 8. The match ---------------------------------------------------------------------------------------


def test_rule_8_1_target_reached_exactly_wins() -> None:
    state = deal([["JS"], ["AH", "AD"]], "QS", dealer=1, scope="match", totals=[224, 0], penalty="none")
    play(state, "JS")  # 20 for the first place and the leftover QS JS: exactly 248
    assert state.is_over() and state.winner == 0 and state.returns() == [248, 0]
    short = deal([["JS"], ["AH", "AD"]], "QS", dealer=1, scope="match", totals=[223, 0], penalty="none")
    play(short, "JS")
    assert not short.is_over() and short.deal_no == 2


@pytest.mark.parametrize(("tie", "active"), [("everyone", (0, 1, 2)), ("tied-only", (0, 1))])
def test_rule_8_2_tied_leaders_play_one_more_deal(tie: str, active: tuple[int, ...]) -> None:
    hands = [["JS"], ["9S"], ["AH", "AD"]]
    state = deal(hands, "QS", dealer=2, scope="match", totals=[230, 236, 0], tie=tie)
    play(state, "JS", "9S")  # seat 0: +20 = 250, seat 1: +10 and the leftover bank's 4 = 250
    assert state.results[-1].totals == (250, 250, -24)
    assert not state.is_over() and state.winner is None and state.active == active
    assert [h.bit_count() > 0 for h in state.hands] == [p in active for p in range(3)]
    higher = deal(hands, "QS", dealer=2, scope="match", totals=[231, 236, 0])
    play(higher, "JS", "9S")
    assert higher.winner == 0  # above the target, the higher total wins


def test_rule_8_3_deal_limit_ends_every_match() -> None:
    hands = [["JS"], ["9S"], ["AH", "AD"]]
    state = deal(hands, "QS", dealer=2, scope="match", totals=[0, 30, 0], max_deals=1)
    play(state, "JS", "9S")  # far below 248, but the limit of one deal is reached
    assert state.is_over() and state.winner == 1 and state.returns() == [20, 44, -24]
    state = deal(hands, "QS", dealer=2, scope="match", totals=[0, 30, 0], max_deals=2)
    play(state, "JS", "9S")
    assert not state.is_over() and state.deal_no == 2


def test_unknown_option_values_are_rejected() -> None:
    with pytest.raises(OptionsError, match="seven"):
        BankOptions.from_mapping({"seven": "jump"})
    assert DRAW != PASS

"""Thousand's bots make the decisions an experienced player would agree with (issue 14, point 6), and every
decision that changes the score is backed by the bot's own evaluator (docs/bots.md)."""

from __future__ import annotations

import copy

import pytest

from koloda.bots.thousand import ThousandBot
from koloda.bots.thousand_eval import Estimator, estimator, playouts
from koloda.registry import get
from koloda.thousand.actions import ALL_ACES, BID, BOMB, GIVE, PASS, action_bid, bid_action, marriages_held
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState, from_deal, new_game


def _deal(hands: list[str], talon: str, options: ThousandOptions | None = None) -> ThousandState:
    """Dealer 2: seat 0 holds the compulsory 100 and seat 1 bids first (rule G5)."""
    return from_deal({"dealer": 2, "hands": hands, "talon": talon}, options)


def test_two_marriages_and_two_aces_bid_at_least_160() -> None:
    # seat 1: the hearts (100) and diamonds (80) marriages and two aces; seat 2 holds the spades marriage
    # and keeps raising against it, seat 0 passes
    state = _deal(["KC QC JC 10D JD 10H JH", "AH KH QH AD KD QD 9C", "AS KS QS AC 10C 10S JS"], "9S 9D 9H")
    bot = ThousandBot(1, samples=24)
    highest = 0
    while state.phase == "bidding":
        seat = state.current_player
        legal = state.legal_actions()
        bids = [a for a in legal if BID <= a < GIVE]
        if seat == 1:
            action = bot.choose(observe(state, 1), legal)
            if action == PASS:
                break
            highest = action_bid(action)
        elif seat == 2 and bids and action_bid(min(bids)) <= 200:
            action = min(bids)  # the rival raises by the smallest step up to 200
        else:
            action = PASS
        state.apply(action)
    assert highest >= 160


def test_no_ace_and_no_marriage_passes_at_100() -> None:
    state = _deal(["AS 10S KS AC 10C KC QC", "9S JS 9C JC 9D QS JD", "AH 10H KH QH AD 10D KD"], "QD JH 9H")
    assert state.current_player == 1
    assert ThousandBot(0).choose(observe(state, 1), state.legal_actions()) == PASS


@pytest.mark.parametrize("samples", [8, 24])
def test_hands_without_an_ace_or_a_marriage_never_open_the_auction(samples: int) -> None:
    checked = 0
    for seed in range(80):
        state = new_game(seed=seed, scope="deal")
        while state.phase == "bidding":
            seat = state.current_player
            assert seat is not None
            hand = state.hands[seat]
            legal = state.legal_actions()
            action = ThousandBot(seed, samples=samples).choose(observe(state, seat), legal)
            weak = not hand & ALL_ACES and not marriages_held(hand, False)
            if weak and state.high_bid == 100 and len(legal) > 1:  # at 100: no one has opened
                assert action == PASS, state.action_text(action)
                checked += 1
            state.apply(action)
    assert checked >= 10


def _forced_weak_declarer(
    options: ThousandOptions | None = None, talon: int = 0
) -> tuple[ThousandState, ThousandBot]:
    """Seat 0 left at the compulsory 100 with a hand of nines and jacks, the talon no help, the gifts made
    by the bot (``talon`` > 0: valued by playing the deal out, as ``hard``): the contract decision."""
    state = _deal(
        ["9S JS 9C JC 9D QS JD", "AS 10S KS AC 10C KC QC", "AH 10H KH QH AD 10D KD"], "QD JH 9H", options
    )
    state.apply(state.parse_action("pass"))
    state.apply(state.parse_action("pass"))
    bot = ThousandBot(0, options=options, talon=talon)
    for _ in range(2):
        state.apply(bot.choose(observe(state, 0), state.legal_actions()))
    assert state.phase == "contract"
    return state, bot


@pytest.mark.parametrize("talon", [0, 12])
def test_a_hopeless_talon_is_bombed_where_the_rules_allow_it(talon: int) -> None:
    state, bot = _forced_weak_declarer(talon=talon)
    assert BOMB in state.legal_actions()
    assert bot.choose(observe(state, 0), state.legal_actions()) == BOMB  # rule S7
    # no bomb left to call (bombs_per_game=0): the lowest contract, never a raise
    opts = ThousandOptions(bombs_per_game=0)
    state, bot = _forced_weak_declarer(opts, talon)
    assert BOMB not in state.legal_actions()
    assert bot.choose(observe(state, 0), state.legal_actions()) == bid_action(100)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_no_raise_after_the_talon_that_the_evaluator_does_not_back(level: str) -> None:
    """Every contract a bot names is the best by its own :meth:`ThousandBot.action_values`, and a raise
    above the auction's bid has at least an even chance by the estimator (hard: by its playouts too)."""
    spec = get("thousand")
    raises = decisions = 0
    for seed in range(40 if level == "easy" else 6):
        state = new_game(seed=100 + seed, scope="deal")
        bots = [spec.bot(level, seed * 10 + p) for p in range(3)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view, legal = observe(state, seat), state.legal_actions()
            if state.phase == "contract" and len(legal) > 1:
                bot = bots[seat]
                assert isinstance(bot, ThousandBot)
                values = bot.action_values(view, legal)
                action = bot.choose(view, legal)
                assert set(values) == set(legal)
                assert values[action] == max(values.values())
                decisions += 1
                if action != BOMB and action_bid(action) > view.high_bid:
                    raises += 1
                    mean, sd = estimator().points(state.hands[seat], state.options)
                    assert values[action] > values[bid_action(view.high_bid)]
                    if level == "easy":
                        assert Estimator.chance(mean, sd, action_bid(action)) >= 0.5
                state.apply(action)
                continue
            state.apply(bots[seat].choose(view, legal))
    assert decisions >= 5 and (raises > 0 or level == "hard")


def test_action_values_cover_every_phase() -> None:
    state = new_game(seed=7, scope="deal")
    bots = [ThousandBot(p, samples=6) for p in range(3)]
    phases = set()
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        view, legal = observe(state, seat), state.legal_actions()
        if len(legal) > 1 and view.phase not in phases:
            values = bots[seat].action_values(view, legal)
            assert set(values) == set(legal) and all(isinstance(v, float) for v in values.values())
            phases.add(view.phase)
        state.apply(bots[seat].choose(view, legal))
    assert {"bidding", "giving", "contract", "playing"} <= phases


def test_the_playouts_calibration_says_what_hard_made() -> None:
    """The shipped calibration of the deal played out (scripts/calibrate_thousand.py playouts): the chance
    grows with the playouts' points and falls with the contract, and playouts that all fall short by 40
    points say the contract is hopeless (in whole games of ``hard`` such contracts were made 5% of the
    time), while playouts all 30 points over it say it is nearly sure."""
    calibration = playouts()
    short = calibration.chance([60] * 12, 70.0, 100)
    assert short < 0.1
    assert calibration.chance([130] * 12, 130.0, 100) > 0.9
    assert calibration.chance([100] * 12, 100.0, 100) > calibration.chance([100] * 12, 100.0, 110)
    assert calibration.chance([110] * 12, 100.0, 100) > calibration.chance([100] * 12, 100.0, 100)


def test_a_bid_over_another_players_bid_beats_passing_by_the_margin() -> None:
    """Past the opening, the bot bids only when declaring beats passing by MARGIN (the auction's winner is
    the most optimistic bidder): every such bid in these deals clears it, and some hands pass short of it."""
    from koloda.bots.thousand import MARGIN

    overcalls = declined = 0
    for seed in range(30):
        state = new_game(seed=200 + seed, scope="deal")
        bots = [ThousandBot(seed * 10 + p, samples=8) for p in range(3)]
        while state.phase == "bidding":
            seat = state.current_player
            assert seat is not None
            view, legal = observe(state, seat), state.legal_actions()
            twin = copy.deepcopy(bots[seat])  # the same talons drawn: the values the choice is made from
            action = bots[seat].choose(view, legal)
            bids = [a for a in legal if BID <= a < GIVE]
            if bids and state.high_bid > 100:  # someone has opened: no allowance for hope
                values = twin.action_values(view, [PASS, min(bids)])
                gap = values[min(bids)] - values[PASS]
                if action != PASS:
                    assert gap > MARGIN
                    overcalls += 1
                elif 0 < gap <= MARGIN:
                    declined += 1
            state.apply(action)
    assert overcalls >= 5
    assert declined >= 1

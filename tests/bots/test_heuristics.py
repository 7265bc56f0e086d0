"""Scenario tests of the heuristic players and of what they know (docs/bots.md, "The heuristic players")."""

from __future__ import annotations

from koloda.bank import from_deal as bank_from_deal
from koloda.bank import observe as bank_observe
from koloda.bank.observe import laid_cards
from koloda.bots.bank import BankHeuristicBot
from koloda.bots.thousand_2026_11 import ThousandHeuristicBot, hand_value
from koloda.thousand.actions import BOMB, PASS, action_bid
from koloda.thousand.knowledge import TrickMemory, knowledge
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import from_deal, new_game

STRONG = "AH 10H KH QH AD 10D KD"  # two marriages (100 + 80) and four sure tricks
WEAK = "9S JS 9C JC 9D QS JD"


def _bidding_state(first_hand: str) -> object:
    # dealer 2: seat 0 holds the compulsory bid, seat 1 bids next
    deck = "AS 10S KS AC 10C KC QC QD JH 9H 9S JS 9C JC 9D QS JD AH 10H KH QH AD 10D KD"
    first = first_hand.split()
    rest = [c for c in deck.split(" ") if c not in first]
    return from_deal(
        {
            "dealer": 2,
            "hands": [" ".join(rest[7:14]), first_hand, " ".join(rest[:7])],
            "talon": " ".join(rest[14:17]),
        }
    )


def test_thousand_bids_a_strong_hand_and_passes_a_weak_one() -> None:
    assert hand_value(0, talon_bonus=0) == 0  # an empty hand is worth nothing
    strong, weak = _bidding_state(STRONG), _bidding_state(WEAK)
    for state, wants_bid in ((strong, True), (weak, False)):
        assert state.current_player == 1  # type: ignore[attr-defined]
        legal = state.legal_actions()  # type: ignore[attr-defined]
        action = ThousandHeuristicBot(0).choose(observe(state, 1), legal)  # type: ignore[arg-type]
        assert (action != PASS) == wants_bid
        if wants_bid:
            assert action_bid(action) == 105  # the smallest raise over the compulsory 100


def test_thousand_declares_its_richest_marriage_when_it_leads() -> None:
    state = from_deal(
        {
            "dealer": 2,
            "hands": [STRONG, "AS 10S KS AC 10C KC QC", "QS JS 9S JC 9C 9D JD"],
            "talon": "QD JH 9H",
        }
    )
    for text in ("pass", "pass", "QD>1", "JH>2", "200"):
        state.apply(state.parse_action(text))
    # rule G9: a marriage is declared only after a trick: seat 0 wins one with the ace of hearts first
    lead = ThousandHeuristicBot(0).choose(observe(state, 0), state.legal_actions())
    assert state.action_text(lead) in ("AH", "AD")  # a boss card
    opts = ThousandOptions(marriage_needs_trick=False)
    state = from_deal(
        {
            "dealer": 2,
            "hands": [STRONG, "AS 10S KS AC 10C KC QC", "QS JS 9S JC 9C 9D JD"],
            "talon": "QD JH 9H",
        },
        opts,
    )
    for text in ("pass", "pass", "QD>1", "JH>2", "200"):
        state.apply(state.parse_action(text))
    lead = ThousandHeuristicBot(0, options=opts).choose(observe(state, 0), state.legal_actions())
    assert state.action_text(lead) == "KH+"  # hearts, 100: the richest, led with its king


def test_thousand_gives_away_cheap_cards_and_bombs_a_hopeless_contract() -> None:
    state = from_deal(
        {
            "dealer": 2,
            "hands": [WEAK, "AS 10S KS AC 10C KC QC", "AH 10H KH QH AD 10D KD"],
            "talon": "QD JH 9H",
        }
    )
    # seat 0 holds the compulsory 100; the others pass: it must take the talon with a weak hand
    state.apply(state.parse_action("pass"))
    state.apply(state.parse_action("pass"))
    bot = ThousandHeuristicBot(0)
    gifts = []
    for _ in range(2):
        action = bot.choose(observe(state, 0), state.legal_actions())
        gifts.append(state.action_text(action))
        state.apply(action)
    assert all(g.split(">")[0] in ("9S", "9C", "9D", "9H", "JS", "JC", "JD", "JH") for g in gifts)
    assert {g.split(">")[1] for g in gifts} == {"1", "2"}
    assert bot.choose(observe(state, 0), state.legal_actions()) == BOMB  # rule G8


def test_thousand_knowledge_tracks_voids_and_remembers_hidden_tricks() -> None:
    opts = ThousandOptions(show_past_tricks=False)
    hidden = 0
    for seed in range(6):
        hidden += _check_knowledge(opts, seed)
    assert hidden > 3  # the memory, not the view, supplied the older tricks


def _check_knowledge(opts: ThousandOptions, seed: int) -> int:
    state = new_game(opts, seed=seed, scope="deal")
    bots = [ThousandHeuristicBot(p, options=opts) for p in range(3)]
    memory = TrickMemory()
    hidden = 0
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        view = observe(state, seat)
        if seat == 0:
            know = knowledge(view, memory)
            hidden += len(view.tricks) < sum(view.tricks_won)
            assert know.complete  # every trick is known although the view shows only the last
            assert len([t for t in know.tricks if len(t[1]) == 3]) == sum(view.tricks_won)
            for _leader, cards in know.tricks:
                led = cards[0][1] // 6
                for who, card in cards[1:]:
                    if card // 6 != led:
                        assert know.void[who] >> led & 1  # did not follow suit: void in it
            assert know.gone & know.hand == 0
        state.apply(bots[seat].choose(view, state.legal_actions()))
    return hidden


def test_bank_goes_out_and_prefers_four_of_a_kind() -> None:
    deal = {
        "hands": [["9S", "9C", "9D", "9H"], ["6D", "QS", "10C", "JD"]],
        "open": "10H",
        "stock": ["AC", "7D", "8S"],
        "dealer": 1,
        "trump_suits": ["S", "C"],
    }
    state = bank_from_deal(deal)
    assert state.current_player == 0
    action = BankHeuristicBot(0).choose(bank_observe(state, 0), state.legal_actions())
    assert len(laid_cards(state.action_text(action))) == 4  # out at once with 75 points (rule 7.4)


def test_bank_keeps_its_eight_and_plays_points_first() -> None:
    deal = {
        "hands": [["8S", "AH", "7C", "KD"], ["6D", "QS", "10C", "JD"]],
        "open": "10H",  # the ace covers by the free opening (rule 4.2); so does the 8
        "stock": ["AC", "7D", "9S"],
        "dealer": 1,
        "trump_suits": ["S", "C"],
    }
    state = bank_from_deal(deal)
    legal = state.legal_actions()
    assert {state.action_text(a) for a in legal} >= {"8S", "AH"}
    action = BankHeuristicBot(0).choose(bank_observe(state, 0), legal)
    assert state.action_text(action) == "AH"

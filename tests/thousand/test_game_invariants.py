"""Random-playout invariants of the Thousand engine over thousands of seeded deals and every option.

After every action: the 24 cards are each in exactly one place; the legal actions agree with an
independent reference (written with Card objects, not bitmasks) and each applies; a refused action
changes nothing; marriages are declared only with both cards, only on the lead and only by the rules.
Per deal: card points add up to 120. Whole games end, and their score table is the scoring engine's on
the same deals. Records replay to equal states; views leak nothing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from koloda.bots.thousand import CautiousRandomBot
from koloda.cards import Card, Rank, Suit
from koloda.errors import IllegalActionError
from koloda.game import GameRecord
from koloda.thousand.actions import BID, BOMB, CARD_IDS, GIVE, NUM_ACTIONS, PASS, action_text, parse_action
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import ScoreBook
from koloda.thousand.state import ThousandState, new_game, replay

OPTION_SETS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (3, {"bid_step": 10, "rounding": "tournament", "rule_800": "tournament"}),
    (3, {"bid_cap": "marriages_held"}),
    (3, {"bid_cap": "none", "bombs_per_game": None}),
    (3, {"must_beat": "led"}),
    (3, {"must_beat": "winning", "marriage_needs_trick": False}),
    (3, {"marriage_optional": False}),
    (3, {"marriage_optional": False, "marriage_needs_trick": False, "ace_marriage": True}),
    (3, {"ace_marriage": True, "bid_cap": "marriages_held", "must_beat": "winning"}),
    (3, {"talon_hidden_at_100": True, "show_past_tricks": False, "bombs_per_game": 0}),
    (3, {"redeal_hand_under": 13, "redeal_talon_under": 6, "redeal_talon_two_nines": True}),
    (3, {"redeal_four_nines": False, "barrel": True, "rounding": "russian", "rule_800": "off"}),
    (3, {"min_bid": 60, "bid_step": 10}),
    (4, {}),
    (4, {"sitting_scores": "aces_marriage", "sitting_as_defender": False, "must_beat": "winning"}),
    (4, {"sitting_scores": "nothing", "ace_marriage": True, "marriage_needs_trick": False}),
]
ORDER = {Rank.NINE: 0, Rank.JACK: 1, Rank.QUEEN: 2, Rank.KING: 3, Rank.TEN: 4, Rank.ACE: 5}
MARRIAGE = {Suit.SPADES: 40, Suit.CLUBS: 60, Suit.DIAMONDS: 80, Suit.HEARTS: 100}


def beats(card: Card, target: Card, trump: Suit | None) -> bool:
    if card.suit == target.suit:
        return ORDER[card.rank] > ORDER[target.rank]
    return card.suit == trump


def held_marriages(hand: set[Card], options: ThousandOptions) -> int:
    value = sum(v for s, v in MARRIAGE.items() if Card(Rank.KING, s) in hand and Card(Rank.QUEEN, s) in hand)
    if options.ace_marriage and all(Card(Rank.ACE, s) in hand for s in Suit):
        value += 200
    return value


def cap(hand: set[Card], options: ThousandOptions) -> int:
    top = 400 + (200 if options.ace_marriage else 0)
    held = held_marriages(hand, options)
    value = {
        "none": top,
        "marriage": top if held else 120,
        "marriages_held": 120 + held,
    }[options.bid_cap]
    return value - value % options.bid_step


def reference_legal(state: ThousandState) -> set[int]:
    """The legal actions, computed again from the rules with Card objects (rules G5-G12)."""
    seat = state.current_player
    if seat is None:
        return set()
    o = state.options
    hand = set(state.hand(seat))
    view = observe(state, seat)
    step = o.bid_step
    if view.phase == "bidding":
        return {PASS} | {parse_action(str(b)) for b in range(view.high_bid + step, cap(hand, o) + 1, step)}
    if view.phase == "giving":
        used = {_gift_slot(state, recipient) for recipient, _ in view.gifts}  # the declarer sees his gifts
        return {parse_action(f"{card}>{k}") for card in hand for k in (1, 2) if k not in used}
    if view.phase == "contract":
        top = max(cap(hand, o), view.high_bid)
        legal = {parse_action(str(b)) for b in range(view.high_bid, top + 1, step)}
        return legal | ({BOMB} if state.book.bomb_allowed(seat) else set())
    trick = view.trick.cards if view.trick else ()
    trump = view.trump
    if not trick:
        legal = {CARD_IDS[c] for c in hand}
        if view.tricks_won[seat] or not o.marriage_needs_trick:
            for suit in Suit:
                king, queen = Card(Rank.KING, suit), Card(Rank.QUEEN, suit)
                if king in hand and queen in hand:
                    legal |= {parse_action(f"{king}+"), parse_action(f"{queen}+")}
                    if not o.marriage_optional:
                        legal -= {CARD_IDS[king], CARD_IDS[queen]}
            if o.ace_marriage and all(Card(Rank.ACE, s) in hand for s in Suit):
                legal |= {parse_action(f"A{s.letter}+") for s in Suit}
        return legal
    led = trick[0][1]
    allowed = [c for c in hand if c.suit == led.suit] or [c for c in hand if c.suit == trump] or list(hand)
    if o.must_beat != "no":
        target = led
        if o.must_beat == "winning":
            for _, card in trick[1:]:
                if beats(card, target, trump):
                    target = card
        beating = [c for c in allowed if beats(c, target, trump)]
        allowed = beating or allowed
    return {CARD_IDS[c] for c in allowed}


def _gift_slot(state: ThousandState, recipient: int) -> int:
    """1 or 2: which opponent of the declarer ``recipient`` is (rule G7)."""
    declarer = state.declarer
    assert declarer is not None
    n = state.players
    order = [(declarer + i) % n for i in range(1, n) if n == 3 or (declarer + i) % n != state.dealer]
    return order.index(recipient) + 1


def check_cards(state: ThousandState, played: set[int]) -> None:
    """All 24 cards in exactly one place: a hand, the talon (until taken) or the tricks."""
    places: list[int] = []
    for seat in range(state.players):
        places += [CARD_IDS[c] for c in state.hand(seat)]
    if state.phase == "bidding":
        places += [i for i in range(24) if state._talon >> i & 1]
    places += sorted(played)
    assert sorted(places) == list(range(24)), (state, sorted(places))


def play_deal(state: ThousandState, rng: random.Random, *, deep: bool) -> int:
    """Play one deal at random with the checks; return the number of actions."""
    start = len(state.results)
    played: set[int] = set()
    count = 0
    while len(state.results) == start and not state.is_over():
        legal = state.legal_actions()
        assert legal == sorted(set(legal)) and legal and all(0 <= a < NUM_ACTIONS for a in legal)
        seat = state.current_player
        assert seat is not None
        if deep:
            assert set(legal) == reference_legal(state), (state, legal)
            check_cards(state, played)
            illegal = rng.choice([a for a in range(NUM_ACTIONS) if a not in legal])
            before = state.copy()
            with pytest.raises(IllegalActionError):
                state.apply(illegal)
            assert state == before
        action = rng.choice(legal)
        if action < PASS:  # a card: check marriages against the hand before the play (rules G9, G10)
            hand = set(state.hand(seat))
            view = observe(state, seat)
            if action >= 24:
                text = action_text(action)
                card = Card.parse(text[:-1])
                assert view.trick is None, "a marriage is declared only when leading"
                assert view.tricks_won[seat] or not state.options.marriage_needs_trick
                if card.rank == Rank.ACE:
                    assert state.options.ace_marriage and all(Card(Rank.ACE, s) in hand for s in Suit)
                else:
                    assert {Card(Rank.KING, card.suit), Card(Rank.QUEEN, card.suit)} <= hand
                played.add(CARD_IDS[card])
            else:
                played.add(action)
        state.apply(action)
        count += 1
    deal, _score = state.results[-1]
    if not deal.bomb:
        assert sum(p for s, p in enumerate(deal.points) if s != deal.sitting) == 120
        if deep:
            assert len(played) == 24
    return count


@pytest.mark.parametrize(("players", "overrides"), OPTION_SETS, ids=[str(o) for _, o in OPTION_SETS])
def test_random_deals_keep_every_invariant(players: int, overrides: dict[str, Any]) -> None:
    options = ThousandOptions.from_mapping(overrides)
    rng = random.Random(len(str(overrides)) * 7 + players)
    for seed in range(40):  # deep checks on every action
        state = new_game(options, players=players, seed=seed, scope="deal")
        play_deal(state, rng, deep=True)
        assert state.is_over() and state.current_player is None and state.legal_actions() == []
    state = new_game(options, players=players, seed=1000, scope="match")
    for _ in range(250):  # light checks on deals following each other in one game
        if state.is_over():
            break
        play_deal(state, rng, deep=False)


def test_thousands_of_deals_end_with_120_points() -> None:
    rng = random.Random(5)
    total = 0
    for seed in range(3000):
        state = new_game(seed=seed, scope="deal", players=3 + seed % 2)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            total += 1
            assert total < 200_000
        deal, _ = state.results[-1]
        assert deal.bomb or sum(p for s, p in enumerate(deal.points) if s != deal.sitting) == 120


def play_match(state: ThousandState, seed: int) -> ThousandState:
    bots = [CautiousRandomBot(seed * 10 + seat) for seat in range(state.players)]
    steps = 0
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(observe(state, seat), state.legal_actions()))
        steps += 1
        assert steps < 500_000, "the game did not end"
    return state


SCORING_SETS: list[tuple[int, dict[str, Any]]] = [
    (3, {"bolts": 3, "dump": True}),
    (4, {"barrel": True, "barrel_fall_reset": 3, "barrel_deals": 1, "barrel_failed": "both"}),
    (3, {"target": 500, "defender_cap": 490, "threshold_800": 400, "bomb_points": 40}),
    (4, {"barrel": True, "barrel_deals": None, "rule_800": "off", "bid_step": 10, "barrel_failed": "fall"}),
]
WHOLE_GAMES = OPTION_SETS[::3] + SCORING_SETS


@pytest.mark.parametrize(("players", "overrides"), WHOLE_GAMES, ids=[str(o) for _, o in WHOLE_GAMES])
def test_whole_games_end_and_the_score_table_is_the_scoring_engines(
    players: int, overrides: dict[str, Any]
) -> None:
    options = ThousandOptions.from_mapping(overrides)
    state = play_match(new_game(options, players=players, seed=3), 3)
    book = state.book
    assert book.is_over and state.returns() == list(book.totals)
    again = ScoreBook(options, players)
    for deal, score in state.results:
        assert again.apply(deal) == score
    assert again.totals == book.totals and again.winner == book.winner
    assert state.returns()[book.winner] >= options.target


def test_determinism_and_records_replay() -> None:
    options = ThousandOptions.preset("russian")
    one = play_match(new_game(options, seed=8), 8)
    two = play_match(new_game(options, seed=8), 8)
    assert one == two and one.record() == two.record()
    record = GameRecord.loads(one.record().dumps(), game="thousand")
    again = replay(record)
    assert again == one and again.returns() == one.returns()
    assert record.seed == 8 and record.options == {"rounding": "russian", "rule_800": "off", "barrel": True}


def test_replay_mid_game_and_copy_independence() -> None:
    rng = random.Random(2)
    state = new_game(seed=4, players=4)
    for _ in range(150):
        state.apply(rng.choice(state.legal_actions()))
    assert replay(state.record()) == state
    copy = state.copy()
    assert copy == state
    copy.apply(copy.legal_actions()[0])
    assert copy != state and replay(state.record()) == state


def test_views_do_not_leak_hidden_cards() -> None:
    """Swapping cards a seat cannot see (other hands, the hidden talon) leaves its view unchanged."""
    rng = random.Random(9)
    for seed in range(60):
        state = new_game(seed=seed, scope="deal")
        for _ in range(rng.randrange(0, 25)):
            if state.is_over():
                break
            state.apply(rng.choice(state.legal_actions()))
        for seat in range(3):
            view = observe(state, seat)
            others = [s for s in range(3) if s != seat]
            gifts_seen = {CARD_IDS[c] for _, c in view.gifts}
            changed = state.copy()
            a, b = changed._hands[others[0]], changed._hands[others[1]]
            swap_a = [i for i in range(24) if a >> i & 1 and i not in gifts_seen]
            swap_b = [i for i in range(24) if b >> i & 1 and i not in gifts_seen]
            if swap_a and swap_b:
                x, y = rng.choice(swap_a), rng.choice(swap_b)
                changed._hands[others[0]] ^= (1 << x) | (1 << y)
                changed._hands[others[1]] ^= (1 << x) | (1 << y)
            if view.talon is None and swap_a:  # the talon is still hidden: swap one of its cards too
                t = rng.choice([i for i in range(24) if changed._talon >> i & 1])
                x = rng.choice(
                    [i for i in range(24) if changed._hands[others[0]] >> i & 1 and i not in gifts_seen]
                )
                changed._talon ^= (1 << t) | (1 << x)
                changed._hands[others[0]] ^= (1 << t) | (1 << x)
            changed._legal = None
            assert changed != state or not (swap_a and swap_b)
            assert observe(changed, seat) == view


def test_every_action_id_has_a_text_that_parses_back() -> None:
    for action in range(NUM_ACTIONS):
        text = action_text(action)
        assert parse_action(text) == action
        assert parse_action(text.lower()) == action
    assert {parse_action(t) for t in ("пас", "PASS")} == {PASS}
    assert parse_action("Д♥+") == parse_action("QH+") and parse_action("10П>2") == parse_action("10S>2")
    assert parse_action("5") == BID and parse_action("9S>1") == GIVE

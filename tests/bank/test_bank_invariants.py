"""Random-playout invariants over seeded deals across a sample of the option space."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import typing
from typing import Any, get_args

import pytest

from koloda.bank import DRAW, PASS, BankOptions, BankState, new_game, observe, replay, run_id
from koloda.bank import tables as T
from koloda.errors import OptionsError
from koloda.game import GameRecord

MAX_ACTIONS_PER_DEAL = 400  # 36 cards laid, 27 draws, and one pass per player between them at most


def _choices() -> dict[str, tuple[Any, ...]]:
    hints = typing.get_type_hints(BankOptions)
    choices: dict[str, tuple[Any, ...]] = {}
    for field in dataclasses.fields(BankOptions):
        hint = hints[field.name]
        if typing.get_origin(hint) is typing.Literal:
            choices[field.name] = get_args(hint)
        elif hint is bool:
            choices[field.name] = (False, True)
    choices["penalty_fixed"] = (15, 31, 56)
    choices["penalty_per_card"] = (3, 6)
    return choices


def sample_options(count: int, seed: int) -> list[BankOptions]:
    """Every preset, then random valid combinations of every choice (invalid ones are redrawn)."""
    out = [BankOptions.preset(name) for name in BankOptions.preset_names()]
    rng = random.Random(seed)
    choices = _choices()
    while len(out) < count:
        mapping = {name: rng.choice(values) for name, values in choices.items()}
        try:
            out.append(BankOptions.from_mapping(mapping))
        except OptionsError:
            continue
    return out


OPTIONS = sample_options(60, seed=2024)


def check_position(state: BankState) -> None:
    """Every card is in exactly one place, and the card points add up to 124."""
    places = [
        *state.hands,
        *state.captured,
        sum(1 << c for c in state.bank),
        sum(1 << c for c in state.stock),
    ]
    assert sum(m.bit_count() for m in places) == 36
    union = 0
    for m in places:
        union |= m
    assert union == T.FULL_DECK
    assert sum(T.points_of(m) for m in places) == 124
    assert sum(state.captured_pts) == sum(T.points_of(m) for m in state.captured)


def check_no_leak(state: BankState) -> None:
    for seat in range(state.players):
        view = observe(state, seat)
        text = json.dumps(view.to_json())
        tokens = set(text.replace("+", '"').split('"'))
        assert list(view.hand) == [str(card) for card in state.hand(seat)]
        for other in range(state.players):
            if other != seat:
                assert not tokens & {str(card) for card in state.hand(other)}


def choose_trumps(state: BankState, rng: random.Random) -> None:
    """Random trump choices while set-up 1's suits are chosen in turn (rule 3.2)."""
    while state.deal_no == 0:
        state.apply(rng.choice(state.legal_actions()))


def _cards_mask(action: int) -> int:
    """The cards an action lays, as a bitmask."""
    if action < T.FOUR0:
        return 1 << action
    if action < T.RUN0:
        return T.RANK_MASK[(action - T.FOUR0) % 9]
    return T.RUN_MASK[action - T.RUN0]


def play_deal(state: BankState, rng: random.Random, *, leak_every: int = 0) -> int:
    """Random legal play to the end of the current deal, checking after every action."""
    choose_trumps(state, rng)
    deal_no = state.deal_no
    steps = 0
    while not state.is_over() and state.deal_no == deal_no:
        legal = state.legal_actions()
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        action = rng.choice(legal)
        before = state.hands[state._cur]
        state.apply(action)
        steps += 1
        if action == DRAW:  # rule 4.9: a move after the draw is made with the drawn card («этой картой»)
            drawn = state.hands[state._cur] & ~before
            assert all(a == PASS or _cards_mask(a) & drawn for a in state.legal_actions())
        assert steps <= MAX_ACTIONS_PER_DEAL, "a deal that does not end"
        if state.deal_no == deal_no:
            check_position(state)
        if leak_every and steps % leak_every == 0:
            check_no_leak(state)
    return steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_deals_keep_every_card_and_end(players: int) -> None:
    rng = random.Random(players)
    for k in range(1000):
        opts = OPTIONS[k % len(OPTIONS)]
        state = new_game(opts, players=players, seed=k, scope="deal")
        choose_trumps(state, rng)
        check_position(state)
        play_deal(state, rng, leak_every=7 if k % 10 == 0 else 0)
        result = state.results[-1]
        for p in range(players):
            assert (
                result.scores[p]
                == result.captured[p] + sum(i[2] for i in result.bonuses[p]) - result.penalties[p]
            )
        if k % 5 == 0:
            again = replay(GameRecord.loads(state.record().dumps(), game="bank"))
            assert again == state and again.returns() == state.returns()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end_and_replay(players: int) -> None:
    rng = random.Random(100 + players)
    for k in range(12):
        opts = OPTIONS[(7 * k + players) % len(OPTIONS)].replace(target=120)
        state = new_game(opts, players=players, seed=k, scope="match")
        while not state.is_over():
            play_deal(state, rng)
            assert state.deal_no < opts.max_deals + 10, "a match that does not end"
        totals = [0] * players
        for result in state.results:
            totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
            assert list(result.totals) == totals
        assert state.returns() == totals and totals[state.winner or 0] == max(totals)
        assert max(totals) >= 120 or state.deal_no >= opts.max_deals
        assert replay(state.record()) == state


def test_copy_is_equal_and_independent() -> None:
    rng = random.Random(5)
    state = new_game(players=3, seed=5)
    for _ in range(40):
        twin = state.copy()
        assert twin == state
        action = rng.choice(state.legal_actions())
        twin.apply(action)
        assert twin != state
        state.apply(action)
        assert twin == state


def test_observation_of_seat_is_blind_to_other_hands() -> None:
    # two states that differ only in seat 1's hand look the same to seat 0
    a = new_game(players=2, seed=8, scope="deal")
    b = a.copy()
    low, top = b.hands[1] & -b.hands[1], b.stock[-1]  # swap seat 1's lowest card with the stock's top
    b._hands[1] = b.hands[1] ^ low | 1 << top  # a white-box edit: the state's own fields
    b._stock[-1] = low.bit_length() - 1
    assert a.hands[1] != b.hands[1]
    view_a, view_b = observe(a, 0).to_json(), observe(b, 0).to_json()
    assert view_a == view_b
    assert observe(a, 1).hand != observe(b, 1).hand


def reference_legal(state: BankState) -> list[int]:
    """Legal actions by brute force from the rules (4.2-4.9), without the engine's tables or bit tricks."""
    opts, p = state.options, state._cur
    if state._phase == 4:  # choosing trumps in turn (rule 3.2)
        return [T.CHOOSE0 + s for s in range(4) if s not in state._chosen]
    hand = T.cards_of(state.hands[p])
    classes = [0, 0, 0, 0]
    if opts.trumps == "own":
        classes[state.trump_suits[p]] = 1
    elif opts.trumps == "senior-junior":
        classes[state.trump_suits[0]], classes[state.trump_suits[1]] = 2, 1
    else:
        for s in state.trump_suits:
            classes[s] = 1
    t = state.target
    free_two = opts.two_trumps_cover == "free"

    def covers(card: int) -> bool:
        if t < 0:
            return True
        opening = state.opening and opts.opening == "free" and card // 9 == t // 9
        return opening or T.covers(card, t, (classes[0], classes[1], classes[2], classes[3]), free_two)

    extra = state._phase == 2
    last = state.actions[-1] if extra else -1
    # rule 4.5, eight_follow=card: after an 8 only one single card that covers
    single = extra and last < T.FOUR0 and opts.eight_follow == "card"
    acts = [card for card in hand if covers(card) or (card % 9 == T.EIGHT and not single)]
    for face in range(9):
        if all(s * 9 + face in hand for s in range(4)) and not single:
            acts += [T.FOUR0 + s * 9 + face for s in range(4)]
    for combo in () if single else itertools.combinations(hand, 4):
        cards = sorted(combo, key=lambda card: T.FACE_ORD[card % 9])
        ords = [T.FACE_ORD[card % 9] for card in cards]
        if ords != list(range(ords[0], ords[0] + 4)):
            continue
        suits = (cards[0] // 9, cards[1] // 9, cards[2] // 9, cards[3] // 9)
        if opts.runs == "one-suit" and len(set(suits)) > 1:
            continue
        for high in (False, True):
            if covers(cards[3] if high else cards[0]):
                acts.append(run_id(ords[0], suits, high))
    if not acts:
        return [DRAW] if state._phase == 0 and state.stock else [PASS]
    must = (T.FOUR0 <= last < T.RUN0 and opts.four_extra_move == "compulsory") or (
        T.RUN0 <= last < DRAW and opts.run_extra == "compulsory"
    )
    if extra and not must:
        acts.append(
            PASS
        )  # rules 4.5-4.7: adding nothing is allowed, unless rule 4.6's or 4.7's option forbids it
    return sorted(acts)


def test_legal_actions_agree_with_a_brute_force_reference() -> None:
    rng = random.Random(77)
    positions = 0
    for k in range(300):
        opts = OPTIONS[k % len(OPTIONS)]
        state = new_game(opts, players=2 + k % 3, seed=k, scope="deal")
        while not state.is_over():
            assert state.legal_actions() == reference_legal(state)
            state.apply(rng.choice(state.legal_actions()))
            positions += 1
    assert positions > 10_000

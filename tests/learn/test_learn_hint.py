"""The hint (issue 31, koloda.coach.hint): never an illegal move, from the seat's own observation only (the
hidden cards dealt again, the hint stays), agreeing with the hard bot on a fixed set of positions as often
as docs/learn.md says, and its reasons true of the position."""

from __future__ import annotations

import importlib.util
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from koloda import registry
from koloda.bank import tables as BT
from koloda.bank.actions import cards_of_action
from koloda.cards import Card
from koloda.coach.hint import Hint, suggest, thousand_reason
from koloda.game import GameSpec, GameState
from koloda.i18n import Msg

#: A budget small enough for many positions (the legality of a hint does not depend on it).
SMALL = {
    "bank": {"batch": 16, "least": 16, "most": 32, "playouts": 256},
    "thousand": {"worlds": 4, "talons": 8},
}
OPTIONS = {
    "bank": [
        {},
        {"trumps": "none"},
        {"trumps": "senior-junior"},
        {"trump_choice": "in-turn"},
        {"seven": "none"},
    ],
    "thousand": [{}, {"rounding": "russian", "rule_800": "off", "barrel": True}, {"must_beat": "winning"}],
}


def positions(
    game: str, options: dict[str, object], players: int, seed: int, every: float
) -> Iterator[GameState]:
    """Decisions (more than one legal move) of a random game, each taken with probability ``every``."""
    spec = registry.get(game)
    state = spec.new_game(spec.options_class.from_mapping(options), players=players, seed=seed)
    rng = random.Random(seed)
    for _ in range(600):
        if state.is_over():
            return
        legal = state.legal_actions()
        if len(legal) > 1 and rng.random() < every:
            yield state.copy()
        state.apply(rng.choice(legal))


def hint_of(
    spec: GameSpec, state: GameState, options: dict[str, object], seed: int = 0, **kw: object
) -> Hint:
    seat = state.current_player
    assert seat is not None
    budget = kw.get("budget", SMALL[spec.name])
    return suggest(
        spec,
        spec.observe(state, seat),
        state.legal_actions(),
        spec.options_class.from_mapping(options),
        seed=seed,
        budget=budget,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_a_hint_is_always_a_legal_move_with_a_reason_in_both_languages(game: str) -> None:
    spec = registry.get(game)
    seen = 0
    for number, options in enumerate(OPTIONS[game]):
        for players in spec.player_counts:
            for state in positions(game, options, players, seed=10 * number + players, every=0.2):
                hint = hint_of(spec, state, options, seed=seen)
                assert hint.action in state.legal_actions(), (options, players, hint.text)
                assert hint.text == spec.action_text(hint.action)
                english, russian = hint.reason.text("en"), hint.reason.text("ru")
                assert english and russian and english != russian and "{" not in english + russian
                seen += 1
    assert seen > 100


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_a_hint_comes_from_the_seats_observation_only(game: str) -> None:
    """Deal the cards the seat cannot see again (its observation unchanged): the same hint, to the digit."""
    spec = registry.get(game)
    compared = 0
    for state in positions(game, {}, 3, seed=4, every=0.25):
        seat = state.current_player
        assert seat is not None
        other = spec.redeal_hidden(state, seat, random.Random(compared))
        assert spec.observe(other, seat) == spec.observe(state, seat)
        first, second = hint_of(spec, state, {}, seed=3), hint_of(spec, other, {}, seed=3)
        assert (first.action, first.values, first.reason) == (second.action, second.values, second.reason)
        compared += 1
        if compared == 8:
            break
    assert compared == 8


#: The least share of bench/hint_agreement.py's 80 positions (three medium bots' games) on which the hint is
#: the hard bot's move, and the least on which the hard bot's move is rated within a point of the hint's;
#: docs/learn.md gives the figures measured (Bank 47 and 55 of 80, Thousand 59 and 73).
AGREEMENT = {"bank": (0.5, 0.6), "thousand": (0.65, 0.8)}
BENCH = Path(__file__).resolve().parents[2] / "bench" / "hint_agreement.py"


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_the_hint_agrees_with_the_hard_bot_on_most_positions(game: str) -> None:
    loaded = importlib.util.spec_from_file_location("hint_agreement", BENCH)
    assert loaded is not None and loaded.loader is not None
    bench = importlib.util.module_from_spec(loaded)
    loaded.loader.exec_module(bench)
    found = bench.measure(game, 80)  # asserts on the way that every hint is legal
    same, near = AGREEMENT[game]
    assert found["positions"] == 80
    assert found["same"] >= same * 80 and found["within_a_point"] >= near * 80, found


def test_banks_likely_bank_is_the_bank_on_the_table_and_the_cards_laid() -> None:
    spec = registry.get("bank")
    likely = 0
    for seed in range(6):
        for state in positions("bank", {}, 3, seed=seed, every=0.5):
            hint = hint_of(spec, state, {}, seed=seed)
            if hint.reason.key != "hint.bank.likely":
                continue
            view = spec.observe(state, state.current_player)
            laid = [Card.parse(text).index for text in view.bank] + list(cards_of_action(hint.action))
            assert hint.reason.params["points"] == sum(BT.CARD_POINTS[c] for c in laid)
            assert 50 <= int(str(hint.reason.params["percent"])) <= 100
            likely += 1
    assert likely > 0


def test_a_thousand_hint_says_it_keeps_the_marriage() -> None:
    spec = registry.get("thousand")
    hands = ["JS QS KS 10S QC JC 9C", "AS KD QD AD 10D AC KC", "9S 9D JD KH QH 10H 9H"]
    deal = {"dealer": 0, "hands": hands, "talon": "10C JH AH"}
    from koloda.game import GameRecord

    moves = ("pass", "pass", "JH>1", "AH>2", "100", "AS")
    state = spec.replay(GameRecord("thousand", 3, {}, moves, deal=deal, scope="deal"))
    view = spec.observe(state, 2)
    assert thousand_reason(view, state.parse_action("9S")) == Msg("hint.thousand.keeps", suit="♥")
    hint = suggest(spec, view, state.legal_actions(), spec.options_class(), seed=0)
    assert hint.reason == Msg("hint.only") and hint.text == "9S"  # the only spade: the only move

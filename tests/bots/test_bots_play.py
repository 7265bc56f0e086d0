"""Every bot plays every option preset of both games without an illegal move, and the sampled worlds of
the search agree with everything the seat has seen."""

from __future__ import annotations

import random

import pytest

from koloda.bank import BankOptions
from koloda.bank import new_game as bank_new_game
from koloda.bank import observe as bank_observe
from koloda.bank.worlds import WorldSampler as BankSampler
from koloda.bots.thousand_2026_11 import make_solver, utility
from koloda.registry import get
from koloda.thousand.actions import CARDS
from koloda.thousand.knowledge import TrickMemory
from koloda.thousand.observe import observe as thousand_observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import new_game as thousand_new_game
from koloda.thousand.worlds import WorldSampler as ThousandSampler


def _deals(game: str, preset: str, spec: str, deals: int, seed: int) -> int:
    """Play ``deals`` deals with ``spec`` in every seat; ``apply`` raises on any illegal move."""
    moves = 0
    for d in range(deals):
        if game == "bank":
            opts = BankOptions.preset(preset)
            players = 2 + d % 3
            state = bank_new_game(opts, players=players, seed=seed + d, scope="deal")
            observe = bank_observe
        else:
            opts = ThousandOptions.preset(preset)  # type: ignore[assignment]
            players = 3 + d % 2
            state = thousand_new_game(opts, players=players, seed=seed + d, scope="deal")  # type: ignore[arg-type, assignment]
            observe = thousand_observe  # type: ignore[assignment]
        bots = [get(game).bot(spec, seed * 100 + d * 4 + p, opts) for p in range(players)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = observe(state, seat)  # type: ignore[arg-type]
            state.apply(bots[seat].choose(view, state.legal_actions()))
            moves += 1
    return moves


@pytest.mark.parametrize("preset", sorted(BankOptions.PRESETS))
def test_bank_bots_play_every_preset(preset: str) -> None:
    assert _deals("bank", preset, "heuristic", 100, 1) > 100 * 10
    assert _deals("bank", preset, "easy", 50, 2) > 50 * 10
    assert _deals("bank", preset, "random", 50, 3) > 50 * 10
    assert _deals("bank", preset, "search:iters=6", 2, 4) > 0


@pytest.mark.parametrize("preset", sorted(ThousandOptions.PRESETS))
def test_thousand_bots_play_every_preset(preset: str) -> None:
    # at least the bidding, the talon and a contract or a bomb in every deal
    assert _deals("thousand", preset, "heuristic", 300, 1) > 300 * 5
    assert _deals("thousand", preset, "easy", 120, 2) > 120 * 5
    assert _deals("thousand", preset, "random", 120, 3) > 120 * 5
    assert _deals("thousand", preset, "search:iters=6", 2, 4) > 0


def test_thousand_bots_play_the_house_variants() -> None:
    # the options that change what is legal or seen: must-beat, hidden talon and past tricks, ace marriage
    for variant in (
        {"must_beat": "winning", "show_past_tricks": False},
        {"talon_hidden_at_100": True, "ace_marriage": True, "marriage_needs_trick": False},
        {"marriage_optional": False, "bid_cap": "none"},
    ):
        opts = ThousandOptions.from_mapping(variant)
        for spec in ("heuristic", "search:iters=6"):
            for d in range(3 if spec != "heuristic" else 100):
                state = thousand_new_game(opts, seed=d, scope="deal")
                bots = [get("thousand").bot(spec, p, opts) for p in range(3)]
                while not state.is_over():
                    seat = state.current_player
                    assert seat is not None
                    state.apply(bots[seat].choose(thousand_observe(state, seat), state.legal_actions()))


def test_bank_worlds_agree_with_the_observation() -> None:
    found = 0
    for d in range(6):
        state = bank_new_game(players=2 + d % 3, seed=d, scope="deal")
        bots = [get("bank").bot("heuristic", p) for p in range(state.players)]
        sampler = BankSampler(BankOptions())
        rng = random.Random(d)
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = bank_observe(state, seat)
            world = sampler(view, rng)
            if world is not None:
                found += 1
                seen = bank_observe(world, seat)
                for name in (
                    "hand",
                    "hand_counts",
                    "bank",
                    "captured_cards",
                    "stock_size",
                    "history",
                    "legal_actions",
                ):
                    assert getattr(seen, name) == getattr(view, name), name
            state.apply(bots[seat].choose(view, state.legal_actions()))
    assert found > 50


def test_thousand_worlds_agree_with_the_view() -> None:
    found = differ = 0
    for d in range(10):
        state = thousand_new_game(seed=d, scope="deal")
        bots = [get("thousand").bot("heuristic", p) for p in range(3)]
        memories = [TrickMemory() for _ in range(3)]
        rng = random.Random(d)
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = thousand_observe(state, seat)
            if view.phase == "playing":
                world = ThousandSampler(ThousandOptions(), memories[seat])(view, rng)
                assert world is not None
                found += 1
                assert thousand_observe(world, seat) == view  # the seat cannot tell the world from the game
                others = [p for p in range(3) if p != seat]
                differ += any(world.hand(p) != state.hand(p) for p in others)
            state.apply(bots[seat].choose(view, state.legal_actions()))
    assert found > 100 and differ > found // 2  # the hidden cards really are drawn


def test_thousand_worlds_give_the_other_opponent_a_talon_card_too() -> None:
    """Rule G7: an opponent who saw the talon does not see the other opponent's gift, which may have been
    a talon card; the sampler draws such worlds as well as the others, each agreeing with the view."""
    checked = from_talon = 0
    for d in range(12):
        state = thousand_new_game(seed=d, scope="deal")
        bots = [get("thousand").bot("heuristic", p) for p in range(3)]
        rng = random.Random(d)
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            view = thousand_observe(state, seat)
            if view.phase == "playing" and seat != view.declarer and view.talon is not None:
                sampler = ThousandSampler(ThousandOptions(), TrickMemory())
                mine = {card for recipient, card in view.gifts if recipient == seat}
                for _ in range(4):
                    world = sampler(view, rng)
                    assert world is not None and thousand_observe(world, seat) == view
                    other = [c for c in world._gifts if str(CARDS[c]) not in map(str, mine)]
                    assert len(other) == 1
                    # a talon card the other opponent still holds (one he played was always drawn)
                    held = [
                        q
                        for q in range(3)
                        if q not in (seat, view.declarer) and world._hands[q] >> other[0] & 1
                    ]
                    from_talon += bool(world._talon >> other[0] & 1 and held)
                    checked += 1
            state.apply(bots[seat].choose(view, state.legal_actions()))
    assert checked > 100 and checked // 20 < from_talon < checked  # some of the time


def test_endgame_solver_on_the_last_trick_is_the_outcome() -> None:
    solver = make_solver(3)
    checked = 0
    for d in range(20):
        state = thousand_new_game(seed=d, scope="deal")
        bots = [get("thousand").bot("heuristic", p) for p in range(3)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            if state.phase == "playing" and len(state.legal_actions()) == 1 and len(state.hand(seat)) == 1:
                value = solver(state, seat)
                finish = state.copy()
                while not finish.is_over():
                    finish.apply(finish.legal_actions()[0])  # one card each: the play is forced
                assert value == utility(finish, seat)
                checked += 1
            state.apply(bots[seat].choose(thousand_observe(state, seat), state.legal_actions()))
        assert make_solver(0)(state, 0) is None
    assert checked >= 10


def _plain_minimax(state: object, decl: int, seat: int) -> tuple[float, float]:
    """Minimax without pruning: the reference the solver's alpha-beta must agree with."""
    if state.is_over():  # type: ignore[attr-defined]
        return utility(state, decl), utility(state, seat)  # type: ignore[arg-type]
    maximise = state.current_player == decl  # type: ignore[attr-defined]
    best: tuple[float, float] | None = None
    for action in state.legal_actions():  # type: ignore[attr-defined]
        child = state.copy()  # type: ignore[attr-defined]
        child.apply(action)
        value = _plain_minimax(child, decl, seat)
        if best is None or (value[0] > best[0] if maximise else value[0] < best[0]):
            best = value
    assert best is not None
    return best


def test_endgame_solver_agrees_with_plain_minimax() -> None:
    solver = make_solver(3)
    checked = 0
    for d in range(15):
        state = thousand_new_game(seed=d, scope="deal")
        bots = [get("thousand").bot("easy", p) for p in range(3)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            if state.phase == "playing" and max(len(state.hand(p)) for p in range(3)) <= 3:
                decl = state.declarer
                assert decl is not None
                for who in range(3):
                    assert solver(state, who) == _plain_minimax(state, decl, who)[1]
                    checked += 1
            state.apply(bots[seat].choose(thousand_observe(state, seat), state.legal_actions()))
    assert checked > 60

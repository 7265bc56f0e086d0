"""Issue 5: ``resample_from_infostate`` never changes what the player knows, from any position random play
reaches (every phase, several presets, 2-4 players, every player, clones too), so OpenSpiel's ISMCTS,
which asserts that, runs; and a clone of a state keeps its game's ``spec``."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import koloda.rl.openspiel  # noqa: F401 (registers the games)

BANK = "python_koloda_bank"
THOUSAND = "python_koloda_thousand"
CASES = [
    (BANK, {"players": 3}),
    (BANK, {"players": 2, "seven": "draw-and-move"}),  # rule 4.8: the automatic draw, then a move
    (BANK, {"players": 4, "seven": "skip-and-draw"}),
    (BANK, {"players": 3, "preset": "literal"}),
    (BANK, {"players": 2, "preset": "two-trumps", "run_extra_move": True}),  # extra moves (rules 4.5-4.7)
    (THOUSAND, {"players": 3}),
    (THOUSAND, {"players": 4}),
]


def dealt(game, rng):
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(outcomes[rng.randrange(len(outcomes))])
    return state


def known(state, player):
    return (
        state.current_player(),  # ISMCTS keys its nodes by (player to move, information state string)
        state.information_state_string(player),
        state.information_state_tensor(player),
        state.observation_tensor(player),
    )


@pytest.mark.parametrize(("name", "params"), CASES)
def test_resampling_from_random_play_keeps_every_players_information_state(name, params):
    game = pyspiel.load_game(name, params)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    players = game.num_players()
    checked = redrawn = 0
    seed = 0
    while checked < 400:
        seed += 1
        rng = random.Random(seed)
        state = dealt(game, rng)
        step = 0
        while not state.is_terminal():
            # every position at the start of the deal (rule 4.1's first mover is all a player knows then),
            # then every other one: after draws, captures, extra moves, bids and tricks
            if step < 3 or step % 2 == 0:
                source = state.clone() if seed % 2 else state
                for player in range(players):
                    world = source.resample_from_infostate(player, sampler)
                    assert known(world, player) == known(state, player), (seed, step, player)
                    checked += 1
                    redrawn += world.history() != state.history()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            step += 1
    assert redrawn > checked // 2  # the hidden cards really were drawn again (not the true deal returned)


def test_the_first_mover_is_kept_before_anyone_moves():
    # rule 4.1 names the first mover from the dealt hands; with no action yet nothing else reveals it,
    # and a world naming another seat gave ISMCTS a root of another player (its assertion)
    game = pyspiel.load_game(BANK, {"players": 4})
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(10):
        state = dealt(game, random.Random(seed))
        for player in range(4):
            for _ in range(10):
                world = state.resample_from_infostate(player, sampler)
                assert world.current_player() == state.current_player()
                assert world.information_state_tensor(player) == state.information_state_tensor(player)


@pytest.mark.parametrize("name", [BANK, THOUSAND])
def test_a_clone_keeps_its_game_and_can_be_resampled(name):
    game = pyspiel.load_game(name, {"players": 3})
    state = dealt(game, random.Random(1))
    state.apply_action(state.legal_actions()[0])
    clone = state.clone().clone()
    assert clone.get_game().spec is game.spec
    world = clone.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.information_state_string(1) == state.information_state_string(1)
    # the clone is independent of the original
    clone.apply_action(clone.legal_actions()[-1])
    assert len(clone.history()) == len(state.history()) + 1
    assert str(state) != str(clone) and state.tracker.actions != clone.tracker.actions


@pytest.mark.parametrize("name", [BANK, THOUSAND])
def test_a_pickled_game_or_state_keeps_its_options(name):
    game = pyspiel.load_game(name, {"players": 4, "preset": "strict" if name == BANK else "home"})
    again = pickle.loads(pickle.dumps(game))
    assert again.spec.options == game.spec.options and again.get_parameters() == game.get_parameters()
    state = dealt(game, random.Random(2))
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) and copy.information_state_string(0) == state.information_state_string(0)
    copy.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))


def test_ismcts_searches_bank_deals_without_an_assertion():
    # the bots engineer's reproduction: ISMCTS at the first moves of Bank deals, fixed seeds
    game = pyspiel.load_game(BANK, {"players": 3, "seven": "skip-and-draw"})
    for seed in range(6):
        rng = random.Random(seed)
        state = dealt(game, rng)
        for _ in range(3):
            if state.is_terminal():
                break
            nprng = np.random.RandomState(seed)
            evaluator = mcts.RandomRolloutEvaluator(1, nprng)
            bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2, max_simulations=30, random_state=nprng)
            state.apply_action(bot.step(state))

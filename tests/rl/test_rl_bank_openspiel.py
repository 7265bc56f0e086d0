"""python_koloda_bank in OpenSpiel: random simulation with serialisation, Python bots playing whole games,
information states kept by resampling, and no hidden card in a player's tensors or strings."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import koloda.rl.openspiel  # noqa: F401 (registers the games)
from koloda.errors import KolodaError, OptionsError


def load(**params):
    return pyspiel.load_game("python_koloda_bank", params)


def random_state(game, seed, steps):
    """A state after the deal and ``steps`` random player actions (or fewer if the deal ends)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = [o for o, _ in state.chance_outcomes()]
        state.apply_action(outcomes[rng.randrange(len(outcomes))])
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(
    "params",
    [{"players": 3}, {"players": 2, "preset": "literal", "first_dealer": 1}, {"players": 4, "trumps": "two"}],
)
def test_random_sim_test_passes_with_serialisation(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_parameters_reach_the_options_and_bad_ones_are_refused():
    game = load(players=2, preset="literal", seven="none", trump_suits="HS", trumps="two")
    options = game.spec.options
    assert (options.opening, options.seven, options.trump_suits) == ("strict", "none", ("H", "S"))
    assert game.num_players() == 2 and game.num_distinct_actions() == 3150
    assert game.new_initial_state().chance_outcomes()[0][0] == 0  # no trump node: dealer by lot, then cards
    with pytest.raises(OptionsError, match="2-4 players"):
        load(players=5)
    with pytest.raises(OptionsError, match="trump_choice"):
        load(trump_choice="in-turn")


def test_a_history_replays_the_same_state():
    game = load(players=3)
    state = random_state(game, seed=3, steps=30)
    again = game.new_initial_state()
    for action in state.history():
        again.apply_action(action)
    assert str(again) == str(state)
    assert again.information_state_string(1) == state.information_state_string(1)
    assert again.tracker.state == state.tracker.state


def test_ismcts_and_random_bots_play_whole_games():
    for players in (2, 3):
        game = load(players=players)
        rng = np.random.RandomState(players)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
        bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng)]
        bots += [pyspiel.make_uniform_random_bot(p, p) for p in range(1, players)]
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, players)
        assert len(returns) == players and any(r != 0 for r in returns)


def test_resampling_keeps_the_information_state():
    game = load(players=3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(6):
        state = random_state(game, seed, steps=8 + 6 * seed)
        if state.is_terminal():
            continue
        player = state.current_player()
        info = state.information_state_string(player)
        tensor = state.information_state_tensor(player)
        for _ in range(20):
            world = state.resample_from_infostate(player, sampler)
            assert world.information_state_string(player) == info
            assert world.information_state_tensor(player) == tensor
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.legal_actions() == state.legal_actions()
            changed += str(world) != str(state) or world.tracker.state.hands != state.tracker.state.hands
    assert changed > 50  # the hidden cards really were redrawn


def test_when_the_sampler_gives_up_resampling_returns_the_true_state(monkeypatch):
    game = load(players=2)
    state = random_state(game, seed=4, steps=10)

    def give_up(tracker, seat, rng):
        raise KolodaError("no Bank deal is consistent")

    monkeypatch.setattr(game.spec, "resample", give_up)
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert world.history() == state.history() and world is not state


def test_tensors_and_strings_do_not_leak_hidden_cards():
    game = load(players=3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seed in range(5):
        state = random_state(game, seed, steps=5 + 4 * seed)
        for player in range(3):
            world = state.resample_from_infostate(player, sampler)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.observation_tensor(player) == state.observation_tensor(player)
            assert world.information_state_tensor(player) == state.information_state_tensor(player)


def test_while_dealing_a_player_sees_only_its_own_cards():
    game = load(players=2, first_dealer=0, trumps="none")
    state = game.new_initial_state()
    for card in (0, 1, 2, 3):  # 6S 7S 8S 9S; rule 2.3: from the dealer's left, so seat 1, 0, 1, 0
        state.apply_action(card)
    assert state.information_state_string(0).endswith("hand: 7S 9S")
    assert state.information_state_string(1).endswith("hand: 6S 8S")
    tensor = np.array(state.observation_tensor(0))
    assert list(np.flatnonzero(tensor)) == [1, 3]

"""Thousand through PettingZoo, Gymnasium and OpenSpiel: conformance, rewards, errors, hidden information
(the talon, the gifts), the world sampler, and the pinned action and observation spaces (docs/rl.md)."""

from __future__ import annotations

import hashlib
import random
import warnings

import gymnasium
import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import api_test, seed_test

import koloda.rl.openspiel  # noqa: F401 (registers the OpenSpiel games; importing koloda.rl registers Gymnasium ids)
from koloda.errors import IllegalActionError, OptionsError
from koloda.rl import thousand_v0
from koloda.rl.thousand_encoding import ThousandAdapter
from koloda.thousand import actions as G
from koloda.thousand import tensor as E
from koloda.thousand.actions import action_text
from koloda.thousand.knowledge import HIDDEN_GIFT, knowledge_of
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import new_game
from koloda.thousand.worlds import sample_world

CONFIGS = [
    {"players": 3},
    {"players": 4, "preset": "tournament"},
    {"players": 3, "talon_hidden_at_100": True, "must_beat": "winning", "show_past_tricks": False},
    {"players": 3, "scope": "match", "rewards": "game", "ace_marriage": True},
]


def random_play(state, rng, steps):
    for _ in range(steps):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


# -- PettingZoo and Gymnasium -------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_pettingzoo_api_and_seed_tests_pass(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "observation is not a NumPy array": the dict form is the standard
        api_test(thousand_v0.env(**kwargs), num_cycles=150)
        seed_test(lambda: thousand_v0.env(**kwargs), num_cycles=80)


def test_deal_rewards_are_the_score_changes():
    env = thousand_v0.env(players=3)
    env.reset(seed=12)
    rng = random.Random(12)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, _, _ = env.last()
        totals[agent] += reward
        if terminated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    state = env.unwrapped.state
    assert [totals[f"player_{p}"] for p in range(3)] == list(state.returns())
    assert any(totals.values())


def test_a_masked_action_raises_and_changes_nothing():
    env = thousand_v0.env(players=3)
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[-1])
    before = env.unwrapped.state.copy()
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.unwrapped.state == before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 2}, "3-4 players"),
        ({"players": 3, "preset": "polish"}, "polish"),
        ({"players": 3, "must_beet": "led"}, "must_beet"),
        ({"players": 3, "rewards": "game"}, "needs scope 'match'"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(OptionsError, match=message):
        thousand_v0.env(**kwargs)


def test_gymnasium_check_env_passes_and_the_learner_earns_its_score():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("koloda/Thousand-v0", players=4, seat=2).unwrapped)
    env = gymnasium.make("koloda/Thousand-v0", players=3, seat=1).unwrapped
    obs, _ = env.reset(seed=5)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
        assert "illegal" not in info
    assert total == env.state.returns()[1]


def test_gymnasium_refuses_a_learner_who_never_plays_and_steps_after_the_end():
    with pytest.raises(OptionsError, match="sits it out"):
        gymnasium.make("koloda/Thousand-v0", players=4, seat=0)
    env = gymnasium.make("koloda/Thousand-v0", players=3, seat=0).unwrapped
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(36)
    obs, _ = env.reset(seed=1)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(IllegalActionError, match="episode is over"):
        env.step(36)


def test_render_shows_the_acting_seat_hand_only():
    env = thousand_v0.env(players=3, render_mode="ansi")
    env.reset(seed=2)
    state = env.unwrapped.state
    seat = state.current_player
    text = env.render()
    assert f"seat {seat} holds: {' '.join(map(str, state.hand(seat)))}" in text
    assert "talon: (hidden)" in text


# -- the observation tensor ---------------------------------------------------------------------------


def test_encoding_blocks_hold_what_they_say():
    adapter = ThousandAdapter(players=3)
    state = random_play(adapter.new_state(seed=8), random.Random(8), 14)
    seat = 2
    v = adapter.encode(state, seat)
    view = observe(state, seat)
    assert {G.CARDS[c] for c in np.flatnonzero(v[E.HAND : E.HAND + 24])} == set(view.hand)
    talon = {G.CARDS[c] for c in np.flatnonzero(v[E.TALON : E.TALON + 24])}
    assert talon == (set(view.talon) if view.talon is not None else set())
    trick = [
        G.CARDS[c] for i in range(3) for c in np.flatnonzero(v[E.TRICK + 24 * i : E.TRICK + 24 * i + 24])
    ]
    assert trick == ([c for _, c in view.trick.cards] if view.trick else [])
    gifts = {G.CARDS[c] for c in np.flatnonzero(v[E.GIFTS : E.GIFTS + 24])}
    assert gifts == {c for _, c in view.gifts}
    for r in range(3):
        q = (seat + r) % 3
        assert v[E.HAND_SIZES + r] * 10 == pytest.approx(view.hand_sizes[q])
        assert v[E.TRICKS_WON + r] * 8 == pytest.approx(view.tricks_won[q])
    assert v.shape == (E.OBS_SIZE,) and v.dtype == np.float32


def test_observation_tensor_does_not_leak_hidden_cards():
    """Worlds that differ only in cards a seat cannot see (other hands, the talon, another's gift) give
    that seat the same tensor and the same view."""
    adapter = ThousandAdapter(players=3, talon_hidden_at_100=True)
    differed = 0
    for seed in range(10):
        state = random_play(adapter.new_state(seed), random.Random(seed), 4 + 2 * seed)
        for seat in range(3):
            other = sample_world(knowledge_of(state, seat), random.Random(seed))
            differed += other._hands != state._hands
            assert np.array_equal(adapter.encode(state, seat), adapter.encode(other, seat))
            assert observe(state, seat) == observe(other, seat)
    assert differed >= 20


def test_a_gift_is_hidden_from_the_third_seat():
    state = random_play(new_game(players=3, seed=1, scope="deal"), random.Random(1), 60)
    gifts = [(q, a) for q, a in zip(state._actors, state._history, strict=True) if G.GIVE <= a < G.BOMB]
    assert len(gifts) == 2
    declarer = gifts[0][0]
    first, second = state._nxt[declarer], state._nxt[state._nxt[declarer]]
    known = knowledge_of(state, first)
    marks = [a for _, a in known.actions if a < 0 or G.GIVE <= a < G.BOMB]
    assert sorted(marks) == sorted(
        [gifts[0][1] if (gifts[0][1] - G.GIVE) % 2 == 0 else gifts[1][1], HIDDEN_GIFT - 1]
    )
    assert all(a >= 0 for _, a in knowledge_of(state, declarer).actions)
    assert any(a == HIDDEN_GIFT for _, a in knowledge_of(state, second).actions)


# -- stable spaces ------------------------------------------------------------------------------------


def test_action_space_is_pinned():
    texts = "\n".join(action_text(a) for a in range(G.NUM_ACTIONS))
    assert G.NUM_ACTIONS == 206
    assert [action_text(a) for a in (0, 23, 24, 31, 32, 36, 37, 156, 157, 204, 205)] == [
        "9S", "AH", "QS+", "KH+", "AS+", "pass", "5", "600", "9S>1", "AH>2", "bomb",
    ]  # fmt: skip
    assert hashlib.sha256(texts.encode()).hexdigest() == (
        "a35cf4ef8268ab22444e0767f531d420c0bbd8c1ddfc3fb88d8bd69a37401230"
    )


def test_observation_layout_is_pinned():
    assert (E.HAND, E.TALON, E.TRICK, E.PLAYED, E.GIFTS, E.TRUMP, E.MARRIAGES, E.PHASE, E.N_BITS) == (
        0, 24, 48, 120, 144, 168, 172, 208, 218,
    )  # fmt: skip
    assert (E.HIGH_BID, E.TRICKS_WON, E.TOTALS, E.TARGET, E.OBS_SIZE) == (218, 220, 232, 236, 260)


# -- the world sampler --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        ThousandOptions(),
        ThousandOptions(talon_hidden_at_100=True, must_beat="led", ace_marriage=True),
        ThousandOptions(bid_cap="marriages_held", marriage_needs_trick=False, redeal_hand_under=13),
    ],
)
def test_sampled_worlds_never_change_what_the_seat_knows(options):
    samples = 0
    for players in (3, 4):
        for seed in range(5):
            state = new_game(options, players=players, seed=seed, scope="deal")
            rng = random.Random(seed)
            step = 0
            while not state.is_over():
                random_play(state, rng, 1)
                step += 1
                if step % 4:
                    continue
                seat = rng.randrange(players)
                known = knowledge_of(state, seat)
                for k in range(10):
                    world = sample_world(known, random.Random(k))
                    assert knowledge_of(world, seat) == known
                    assert world._hands[seat] == state._hands[seat]
                    samples += 1
    assert samples >= 400


# -- OpenSpiel ----------------------------------------------------------------------------------------


def load(**params):
    return pyspiel.load_game("python_koloda_thousand", params)


@pytest.mark.parametrize("params", [{"players": 3}, {"players": 4, "preset": "tournament", "bolts": 3}])
def test_random_sim_test_passes_with_serialisation(params):
    pyspiel.random_sim_test(load(**params), num_sims=2, serialize=True, verbose=False)


def test_parameters_reach_the_options():
    game = load(players=4, preset="russian", must_beat="led", bombs_per_game=-1)
    options = game.spec.options
    assert (options.barrel, options.must_beat, options.bombs_per_game) == (True, "led", None)
    with pytest.raises(OptionsError, match="3-4 players"):
        load(players=2)


def test_ismcts_and_random_bots_play_a_whole_deal():
    game = load(players=3)
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rng)]
    bots += [pyspiel.make_uniform_random_bot(p, p) for p in (1, 2)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 1)
    assert len(returns) == 3 and any(r != 0 for r in returns)


def test_resampling_keeps_the_information_state_and_hides_gifts():
    game = load(players=3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for seed in range(5):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
        for _ in range(8 + 3 * seed):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        player = state.current_player()
        for viewer in range(3):
            info = state.information_state_string(viewer)
            for _ in range(6):
                world = state.resample_from_infostate(viewer, sampler)
                assert world.information_state_string(viewer) == info
                assert world.information_state_tensor(viewer) == state.information_state_tensor(viewer)
                assert world.observation_string(viewer) == state.observation_string(viewer)
                changed += world.tracker.state._hands != state.tracker.state._hands
        assert world.current_player() == player
    assert changed > 20

"""Bank through PettingZoo, Gymnasium and OpenSpiel: conformance, rewards, errors, hidden information, the
world sampler, and the pinned action and observation spaces (docs/rl.md)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import koloda.rl  # registers the Gymnasium ids
from koloda.bank import NUM_ACTIONS, BankOptions, action_text, from_deal, new_game, observe, replay
from koloda.bank import tables as T
from koloda.bank import tensor as E
from koloda.bank.knowledge import knowledge_of
from koloda.bank.worlds import WorldSampler, deal_layout, sample_world
from koloda.errors import IllegalActionError, KolodaError, OptionsError
from koloda.rl import bank_v0
from koloda.rl.bank_encoding import BankAdapter

CONFIGS = [
    {"players": 3},
    {"players": 2, "preset": "literal"},
    {"players": 4, "preset": "no-trumps", "seven": "draw-and-move"},
    {"players": 3, "preset": "senior-junior", "scope": "match", "rewards": "game", "target": 60},
    {"players": 2, "trump_choice": "in-turn", "scope": "match", "target": 60},
]


def play_random(env, seed):
    """Play an AEC episode with random legal actions; returns the summed rewards per agent."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return totals


# -- PettingZoo ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", CONFIGS)
def test_pettingzoo_api_and_seed_tests_pass(kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "observation is not a NumPy array": the dict form is the standard
        api_test(bank_v0.env(**kwargs), num_cycles=200)
        seed_test(lambda: bank_v0.env(**kwargs), num_cycles=100)


def test_deal_rewards_are_the_deal_scores():
    env = bank_v0.env(players=3)
    totals = play_random(env, seed=11)
    state = env.unwrapped.state
    assert state.is_over()
    assert [totals[f"player_{p}"] for p in range(3)] == list(state.results[-1].scores)


def test_match_rewards_per_deal_add_up_to_the_totals():
    env = bank_v0.env(players=2, scope="match", target=60)
    totals = play_random(env, seed=4)
    state = env.unwrapped.state
    assert len(state.results) >= 1
    assert [totals[f"player_{p}"] for p in range(2)] == state.totals


def test_game_rewards_are_won_or_lost_at_the_end_only():
    env = bank_v0.env(players=3, scope="match", rewards="game", target=60)
    totals = play_random(env, seed=5)
    winner = env.unwrapped.state.winner
    assert totals == {f"player_{p}": (1.0 if p == winner else -0.5) for p in range(3)}


def test_a_masked_action_raises_and_changes_nothing():
    env = bank_v0.env(players=2)
    env.reset(seed=3)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.unwrapped.state.copy()
    with pytest.raises(IllegalActionError, match=rf"illegal action {action_text(illegal)}"):
        env.step(illegal)
    assert env.unwrapped.state == before
    with pytest.raises(IllegalActionError, match="must act"):
        env.step(None)
    with pytest.raises(IllegalActionError, match="expected an integer"):
        env.step(1.5)
    env.step(np.int64(np.flatnonzero(obs["action_mask"])[0]))  # NumPy ints are fine
    assert env.unwrapped.state != before


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5}, "2-4 players"),
        ({"players": 3, "preset": "nope"}, "nope"),
        ({"players": 3, "sevn": "skip"}, "sevn"),
        ({"players": 3, "seven": 7}, "seven"),
        ({"players": 3, "rewards": "game"}, "needs scope 'match'"),
        ({"players": 3, "scope": "forever"}, "scope"),
        ({"players": 2, "first_dealer": 3}, "first_dealer"),
    ],
)
def test_bad_arguments_are_refused_with_a_reason(kwargs, message):
    with pytest.raises(OptionsError, match=message):
        bank_v0.env(**kwargs)


def test_render_shows_only_the_acting_seat_hand(capsys):
    env = bank_v0.env(players=2, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    state = env.unwrapped.state
    seat = state.current_player
    assert f"seat {seat} holds: {' '.join(map(str, state.hand(seat)))}" in text
    other = [str(c) for c in state.hand(1 - seat)]
    assert not any(f" {c}" in text.split("holds:")[1] for c in other if c not in map(str, state.hand(seat)))
    human = bank_v0.env(players=2, render_mode="human")
    human.reset(seed=8)
    assert human.render() is None
    assert "Bank, deal 1" in capsys.readouterr().out


# -- Gymnasium ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("kwargs", [{"players": 3, "seat": 1}, {"players": 2, "preset": "literal"}])
def test_gymnasium_check_env_passes(kwargs):
    env = gymnasium.make("koloda/Bank-v0", **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped)


class FirstBot:
    """Plays the lowest legal id; counts its calls and checks it only sees observations."""

    def __init__(self):
        self.calls = 0

    def choose(self, observation, legal_actions):
        assert observation.__class__.__name__ == "BankObservation"
        self.calls += 1
        return legal_actions[0]


def test_gymnasium_learner_reward_is_its_deal_score_and_bots_play_the_rest():
    bots = [FirstBot(), FirstBot()]
    env = gymnasium.make("koloda/Bank-v0", players=3, seat=2, opponents=bots).unwrapped
    obs, _ = env.reset(seed=21)
    total, done = 0.0, False
    while not done:
        assert env.state.current_player == 2
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        total += reward
        assert not truncated and "illegal" not in info
    assert total == env.state.results[-1].scores[2]
    assert all(bot.calls > 0 for bot in bots)


def test_gymnasium_illegal_action_ends_or_raises_and_never_plays():
    env = gymnasium.make("koloda/Bank-v0", players=2).unwrapped
    obs, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.copy()
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "illegal action" in info["illegal"]
    assert env.state == before
    strict = gymnasium.make("koloda/Bank-v0", players=2, illegal="raise").unwrapped
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)
    assert strict.state == before
    with pytest.raises(OptionsError, match="opponents"):
        gymnasium.make("koloda/Bank-v0", players=3, opponents=[FirstBot()])
    with pytest.raises(OptionsError, match="seat"):
        gymnasium.make("koloda/Bank-v0", players=3, seat=3)


def test_gymnasium_sample_draws_legal_actions():
    env = gymnasium.make("koloda/Bank-v0", players=3).unwrapped
    obs, _ = env.reset(seed=9)
    env.action_space.seed(0)
    for _ in range(30):
        action = env.action_space.sample()
        assert obs["action_mask"][action] == 1
        obs, _, done, _, _ = env.step(action)
        if done:
            break


# -- the observation tensor ---------------------------------------------------------------------------


def test_encoding_blocks_hold_what_they_say():
    adapter = BankAdapter(players=3, trumps="senior-junior")
    state = adapter.new_state(seed=6)
    rng = random.Random(6)
    for _ in range(25):
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    seat = 1
    v = adapter.encode(state, seat)
    view = observe(state, seat)
    assert sorted(np.flatnonzero(v[E.HAND : E.HAND + 36])) == sorted(c.index for c in state.hand(seat))
    assert set(np.flatnonzero(v[E.BANK : E.BANK + 36])) == set(state.bank)
    assert v[E.STOCK_SIZE] * 36 == pytest.approx(view.stock_size)
    for r in range(3):
        q = (seat + r) % 3
        assert v[E.HAND_COUNTS + r] * 36 == pytest.approx(view.hand_counts[q])
        assert set(np.flatnonzero(v[E.CAPTURED + 36 * r : E.CAPTURED + 36 * r + 36])) == set(
            T.cards_of(state.captured[q])
        )
    assert v[E.TO_MOVE + (state.current_player - seat) % 3] == 1
    assert v[E.SENIOR + 0] == 1 and v[E.TRUMP + 0] == 1 and v[E.TRUMP + 2] == 1  # rule 3.4: ♠ over ♦
    assert v.dtype == np.float32 and v.shape == (E.OBS_SIZE,)


def test_encoder_caches_never_change_its_output():
    """The encoder caches the slowly changing blocks by value: a warm encoder agrees with a fresh one on
    states of many different games (different trumps, captures, seats out)."""
    warm = BankAdapter(players=3, trumps="two")
    for seed in range(15):
        state = warm.new_state(seed)
        rng = random.Random(seed)
        while not state.is_over():
            for seat in range(3):
                fresh = BankAdapter(players=3, trumps="two").encode(state, seat)
                assert np.array_equal(warm.encode(state, seat), fresh)
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])


def test_observation_tensor_does_not_leak_hidden_cards():
    """Two worlds that differ only in cards seat 0 cannot see give seat 0 the same tensor."""
    adapter = BankAdapter(players=3)
    differed = 0
    for seed in range(12):
        state = adapter.new_state(seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 30)):
            if state.is_over():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        known = knowledge_of(state, 0)
        other = sample_world(known, random.Random(seed))
        differed += other.hands[1:] != state.hands[1:] or other.stock != state.stock
        assert np.array_equal(adapter.encode(state, 0), adapter.encode(other, 0))
        assert observe(state, 0) == observe(other, 0)
    assert differed >= 10  # the worlds really differ, so equal tensors mean something


# -- stable spaces ------------------------------------------------------------------------------------


def test_action_space_is_pinned():
    """Every id's text, hashed: renumbering an action breaks trained agents, so it must be deliberate."""
    texts = "\n".join(action_text(a) for a in range(NUM_ACTIONS))
    assert NUM_ACTIONS == 3150
    assert [action_text(a) for a in (0, 35, 36, 72, 3144, 3145, 3146, 3149)] == [
        "6S", "AH", "6C+6D+6H+6S", "6S+7S+8S+9S", "draw", "pass", "trump S", "trump H",
    ]  # fmt: skip
    assert hashlib.sha256(texts.encode()).hexdigest() == (
        "61dec4d7d1cb1a571dbc916c3d2f59047f60912a8c1ab96c86a730d8504a3f3a"
    )


def test_observation_layout_is_pinned():
    assert (E.HAND, E.BANK, E.TO_COVER, E.TOP_OWNER, E.PHASE, E.FREE_LEAD, E.CAPTURED, E.TRUMP) == (
        0, 36, 72, 108, 116, 124, 125, 277,
    )  # fmt: skip
    assert (E.HAND_COUNTS, E.STOCK_SIZE, E.CAPTURED_POINTS, E.TOTALS, E.OBS_SIZE) == (309, 313, 314, 318, 322)


# -- the world sampler --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["default", "literal", "no-trumps"])
def test_sampled_worlds_never_change_what_the_seat_knows(preset):
    samples = 0
    for players in (2, 3, 4):
        state = new_game(BankOptions.preset(preset), players=players, seed=players, scope="deal")
        rng = random.Random(players)
        step = 0
        while not state.is_over() and samples < 600 * players:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
            step += 1
            if step % 3:
                continue
            seat = rng.randrange(players)
            known = knowledge_of(state, seat)
            for k in range(25):
                world = sample_world(known, random.Random(k))
                assert knowledge_of(world, seat) == known
                assert world.hands[seat] == state.hands[seat]
                assert world.legal_actions() == state.legal_actions() or state.current_player != seat
                samples += 1
    assert samples >= 300


@pytest.mark.parametrize("choice", ["in-turn", "in-turn-after-deal"])
def test_explicit_deals_with_trumps_chosen_in_turn_are_sampled_and_encoded(choice):
    """An explicit deal that leaves its trumps to be chosen in turn (rule 3.2): through the choosing and the
    play, every seat's tensor and text view, what it knows, the worlds drawn from that (their records
    replay) and from its observation (the search bots' sampler) agree with the true state."""
    layout = deal_layout(new_game(players=3, seed=8, scope="deal"))
    del layout["trump_suits"]
    options = BankOptions(trump_choice=choice)
    state = from_deal(layout, options)
    assert state.phase == "choose-trump"
    adapter = BankAdapter(players=3, trump_choice=choice)
    sampler = WorldSampler(options)
    rng = random.Random(1)
    found = 0
    while not state.is_over():
        for seat in range(3):
            assert adapter.encode(state, seat).shape == (adapter.obs_size,)
            assert f"seat {seat} holds" in adapter.render(state, seat)
            if state.phase == "choose-trump":
                continue
            known = knowledge_of(state, seat)
            world = sample_world(known, random.Random(seat))
            assert knowledge_of(world, seat) == known and world.hands[seat] == state.hands[seat]
            assert replay(world.record()) == world
        seat = state.current_player
        view = observe(state, seat)
        world = sampler(view, rng)
        if world is not None:
            found += 1
            assert observe(world, seat).legal_actions == view.legal_actions
            assert observe(world, seat).history == view.history
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert found > 10
    assert replay(state.record()) == state


def test_sampled_worlds_vary_and_keep_stock_draws():
    state = new_game(players=2, seed=30, scope="deal")
    rng = random.Random(0)
    while len(knowledge_of(state, 0).pops) < 4:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    known = knowledge_of(state, 0)
    worlds = [sample_world(known, random.Random(k)) for k in range(20)]
    assert len({tuple(w.hands) for w in worlds}) > 5
    assert all((card >= 0) == (seat == 0) for _, seat, card in known.pops)  # only its own draws are known
    assert all(w.stock.__len__() == len(state.stock) for w in worlds)


def test_inconsistent_knowledge_is_refused():
    state = new_game(players=2, seed=1, scope="deal")
    known = knowledge_of(state, 0)
    mine = known.dealt[0]
    impossible = dataclasses.replace(known, actions=((1, mine),))  # the other seat lays seat 0's card
    with pytest.raises(KolodaError, match=f"seat 1 laid {action_text(mine)}, which it cannot have held"):
        sample_world(impossible, random.Random(0))


def test_gym_ids_are_registered_on_import():
    assert {"koloda/Bank-v0", "koloda/Thousand-v0"} <= set(gymnasium.registry)
    assert koloda.rl.__name__ == "koloda.rl"

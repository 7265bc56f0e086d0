"""The conformance suite: what every registered game must do, whoever wrote it (docs/architecture.md).

Parametrised over the registry (``koloda.registry.games()``), plus the toy game of ``toy.py``, registered
for the test, to show that a game written outside koloda gets the same checks. Like OpenSpiel's
``random_sim_test``: random playouts with the game's own audit after every action, records that round-trip
and replay exactly, copies and pickles that are independent, determinism by seed, no hidden card in any
observation or web view, and every kind of bad input refused with the documented error and no change.
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator

import pytest
import toy

from koloda import registry
from koloda.errors import IllegalActionError, NotationError, OptionsError, RecordError, RequestError
from koloda.game import GameRecord, GameSpec, GameState, Scope
from koloda.web.views import seat_view

NAMES = [spec.name for spec in registry.games()] + ["toy"]
MAX_ACTIONS = 2000  # any deal of any game ends well within this (Bank: 400, Thousand: about 40)


@pytest.fixture(params=NAMES)
def spec(request: pytest.FixtureRequest) -> Iterator[GameSpec]:
    """Each registered game; the toy game is registered for the test and taken away after it."""
    if request.param == "toy":
        registry.register(toy.SPEC)
        try:
            yield registry.get("toy")
        finally:
            registry.unregister("toy")
    else:
        yield registry.get(request.param)


def positions(spec: GameSpec, seed: int, *, scope: Scope = "deal", deals: int = 1) -> Iterator[GameState]:
    """Every position of random play from a new game, for each player count, with the audit after every
    action and a bound on the deal's length."""
    rng = random.Random(seed)
    for players in spec.player_counts:
        state = spec.new_game(players=players, seed=seed, scope=scope)
        steps = 0
        yield state
        while not state.is_over():
            before = state.version
            legal = state.legal_actions()
            assert legal and legal == sorted(set(legal)), (spec.name, legal)
            state.apply(rng.choice(legal))
            steps += 1
            assert state.version == before + 1
            assert spec.audit(state) == [], (spec.name, players, steps, spec.audit(state))
            assert steps <= MAX_ACTIONS, f"{spec.name}: a deal with no end after {steps} actions"
            yield state
            if scope == "match" and steps >= 300 * deals:
                break  # a random match need not end (Thousand's bidders may drift below zero for ever)


def test_conformance_random_deals_keep_the_audit_and_end(spec: GameSpec) -> None:
    ended = 0
    for seed in range(6):
        for state in positions(spec, seed):
            seat = state.current_player
            assert (seat is None) == state.is_over()
            assert seat is None or 0 <= seat < state.players
            returns = state.returns()
            assert len(returns) == state.players and all(type(x) is int for x in returns)
            ended += state.is_over()
    assert ended == 6 * len(spec.player_counts)  # every deal ended


def test_conformance_random_matches_keep_the_audit(spec: GameSpec) -> None:
    for state in positions(spec, 11, scope="match", deals=3):
        assert state.players in spec.player_counts


def test_conformance_observation_header_says_where_the_game_stands(spec: GameSpec) -> None:
    for state in positions(spec, 3):
        for seat in [None, *range(state.players)]:
            view = spec.observe(state, seat)
            assert (view.seat, view.players, view.version) == (seat, state.players, state.version)
            assert view.current_player == state.current_player and isinstance(view.phase, str)
            mine = seat is not None and seat == state.current_player
            assert view.legal_actions == (tuple(state.legal_actions()) if mine else ())
            json.dumps(view.to_json())  # every observation is JSON


def test_conformance_records_round_trip_and_replay_exactly(spec: GameSpec) -> None:
    for seed in (1, 2):
        for step, state in enumerate(positions(spec, seed)):
            if step % 7 and not state.is_over():
                continue
            record = state.record(meta={"names": ["a", "b"]})
            again = GameRecord.loads(json.dumps(record.to_json()), game=spec.name)
            assert again == record
            replayed = spec.replay(again)
            assert replayed == state, (spec.name, seed, step)
            assert replayed.record() == state.record()


def test_conformance_copies_and_pickles_are_independent(spec: GameSpec) -> None:
    for step, state in enumerate(positions(spec, 4)):
        if step % 5 or state.is_over():
            continue
        saved = pickle.dumps(state)
        twin = state.copy()
        assert twin == state and pickle.loads(saved) == state
        twin.apply(twin.legal_actions()[-1])
        assert twin != state and pickle.loads(saved) == state  # the copy moved, the original did not
        loaded = pickle.loads(saved)
        loaded.apply(loaded.legal_actions()[0])
        assert pickle.loads(saved) == state


def test_conformance_the_seed_decides_everything(spec: GameSpec) -> None:
    players = spec.player_counts[0]
    first = [s.record().to_json() for s in positions(spec, 21)][-1]
    again = [s.record().to_json() for s in positions(spec, 21)][-1]
    assert first == again
    deals = {
        json.dumps(spec.observe(spec.new_game(players=players, seed=seed), 0).to_json()) for seed in range(8)
    }
    assert len(deals) > 1, "every seed dealt the same cards"


def test_conformance_no_hidden_card_in_any_observation_or_web_view(spec: GameSpec) -> None:
    rng = random.Random(5)
    changed = 0
    for seed in (5, 6):
        for step, state in enumerate(positions(spec, seed)):
            if step % 3:
                continue
            for seat in [None, *range(state.players)]:
                other = spec.redeal_hidden(state, seat, rng)
                changed += other != state
                assert spec.observe(other, seat) == spec.observe(state, seat), (spec.name, seat, step)
                assert seat_view(spec, other, seat) == seat_view(spec, state, seat)
    assert changed, "redealing what a seat cannot see never changed anything: the check would be vacuous"


def test_conformance_the_check_of_hidden_cards_sees_a_leak(spec: GameSpec) -> None:
    # Not vacuous: another seat's view differs when its own cards are dealt again.
    rng = random.Random(8)
    state = spec.new_game(players=spec.player_counts[0], seed=8, scope="deal")
    seen = False
    for _ in range(20):
        other = spec.redeal_hidden(state, 0, rng)
        seen |= spec.observe(other, 1) != spec.observe(state, 1)
    assert seen


def test_conformance_bad_input_is_refused_and_changes_nothing(spec: GameSpec) -> None:
    rng = random.Random(9)
    probes: list[object] = [None, "x", 1.5, -1, 10**9, [0]]
    for step, state in enumerate(positions(spec, 9)):
        if step % 4:
            continue
        before, record = state.copy(), state.record()
        legal = state.legal_actions()
        illegal = [a for a in rng.sample(range(max(legal or [0]) + 50), 20) if a not in legal]
        for action in [*illegal, *probes]:
            with pytest.raises(IllegalActionError):
                state.apply(action)  # type: ignore[arg-type]
            assert state == before and state.record() == record
        for text in ("", "!!", "9Z9", "draw draw draw"):
            with pytest.raises(NotationError):
                spec.parse_action(text)
        for seat in (-1, state.players, "0", 1.0):
            with pytest.raises(RequestError):
                spec.observe(state, seat)  # type: ignore[arg-type]
        assert state == before
    with pytest.raises(OptionsError):
        spec.new_game(players=max(spec.player_counts) + 1, seed=1)
    with pytest.raises(OptionsError):
        spec.new_game(
            players=spec.player_counts[0], seed=1, options=spec.options_class.from_mapping({"nope": 1})
        )
    with pytest.raises(RecordError):
        spec.new_game(players=spec.player_counts[0], seed=-1)
    good = spec.new_game(players=spec.player_counts[0], seed=1).record()
    bad = GameRecord(spec.name, good.players, good.options, ("not an action",), seed=1, scope=good.scope)
    with pytest.raises(RecordError, match="action 1"):
        spec.replay(bad)


def test_conformance_every_level_has_a_bot_that_plays_legal_moves(spec: GameSpec) -> None:
    state = spec.new_game(players=spec.player_counts[0], seed=2, scope="deal")
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        for level in ("easy", "medium"):
            bot = spec.guarded_bot(level, seed=seat, options=None)
            assert bot.choose(spec.observe(state, seat), state.legal_actions()) in state.legal_actions()
            assert bot.faults == []
        state.apply(state.legal_actions()[0])

"""Golden OpenSpiel histories (tests/rl/golden, written by make_rl_golden.py) replay to the same returns and
information state: the chance layout of the deal and the action ids stay stable across versions. And the
worked examples of docs/rl.md are what the environments give."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import koloda.rl.openspiel  # noqa: F401 (registers the games)
from koloda.rl import bank_v0, thousand_v0

GOLDEN = sorted(Path(__file__).with_name("golden").glob("*.json"))


def test_there_are_golden_histories_of_both_games():
    games = {json.loads(path.read_text(encoding="utf-8"))["game"] for path in GOLDEN}
    assert games == {"python_koloda_bank", "python_koloda_thousand"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_history_replays_exactly(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    game = pyspiel.load_game(record["game"], record["params"])
    state = game.new_initial_state()
    for action in record["history"]:
        assert action in (
            state.legal_actions() if not state.is_chance_node() else dict(state.chance_outcomes())
        )
        state.apply_action(action)
    assert state.is_terminal()
    assert state.returns() == record["returns"]
    assert state.information_state_string(0) == record["information_state_0"]


def test_the_worked_example_of_docs_rl_md():
    env = bank_v0.env(players=2, trumps="two", trump_suits=["D", "H"], first_dealer=0)
    env.reset(seed=7)
    obs, *_ = env.last()
    assert env.agent_selection == "player_1"
    vector = obs["observation"]
    ones = [2, 8, 24, 29, 47, 83, 112, 116, 121, 273, 274, 279, 280, 283, 284]
    assert list(np.flatnonzero(vector == 1)) == ones
    assert vector[309] == vector[310] == pytest.approx(4 / 36)
    assert vector[313] == pytest.approx(0.75)
    assert len(np.flatnonzero(vector)) == len(ones) + 3
    assert list(np.flatnonzero(obs["action_mask"])) == [2, 24, 29]


def test_the_thousand_worked_example_of_docs_rl_md():
    env = thousand_v0.env(players=3)
    env.reset(seed=5)
    obs, *_ = env.last()
    assert env.agent_selection == "player_2"
    vector = obs["observation"]
    assert list(np.flatnonzero(vector == 1)) == [2, 3, 6, 7, 9, 11, 19, 194, 197, 200, 208, 236]
    assert vector[218] == pytest.approx(1 / 3)
    assert list(vector[228:231]) == pytest.approx([0.7, 0.7, 0.7])
    assert len(np.flatnonzero(vector)) == 16
    assert list(np.flatnonzero(obs["action_mask"])) == [36, 57, 58, 59, 60]

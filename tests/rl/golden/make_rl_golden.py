"""Write the golden OpenSpiel histories (run once; the tests replay them and compare).

.venv/bin/python tests/rl/golden/make_rl_golden.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pyspiel

import koloda.rl.openspiel  # noqa: F401 (registers the games)

GAMES = [
    ("bank-3", "python_koloda_bank", {"players": 3}, 1),
    ("bank-literal-2", "python_koloda_bank", {"players": 2, "preset": "literal"}, 2),
    ("thousand-3", "python_koloda_thousand", {"players": 3}, 3),
    ("thousand-4-tournament", "python_koloda_thousand", {"players": 4, "preset": "tournament"}, 4),
]


def main() -> None:
    for name, game_name, params, seed in GAMES:
        game = pyspiel.load_game(game_name, params)
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([o for o, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        record = {
            "game": game_name,
            "params": params,
            "history": state.history(),
            "returns": state.returns(),
            "information_state_0": state.information_state_string(0),
        }
        path = Path(__file__).with_name(f"{name}.json")
        path.write_text(json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

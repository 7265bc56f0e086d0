"""The yardstick every playout benchmark compares with: OpenSpiel's C++ hearts, driven from Python.

The loop is the same one the koloda benchmarks run over their own engines: at each step the legal actions
(or the chance outcomes) are listed, one is picked at random and applied.
"""

from __future__ import annotations

import random
import time


def hearts_rate(seconds: float, seed: int = 0) -> dict[str, float]:
    """Actions and games per second of random play in OpenSpiel's hearts for about ``seconds``."""
    import pyspiel  # benchmark-only dependency (open_spiel)

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice([outcome for outcome, _ in state.chance_outcomes()])
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_second": actions / elapsed, "games_per_second": games / elapsed}


if __name__ == "__main__":
    print(hearts_rate(3.0))

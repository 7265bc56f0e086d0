"""How often the hint (koloda.coach.hint) suggests the hard bot's move, and how long a hint takes (issue 31;
docs/learn.md, "The hint").

Positions are the decisions of three medium bots' matches (each decision with more than one legal move
taken with probability 0.15, from seed 100 on), the same positions for every run. At each, the hint for
the seat to move is compared with ``guarded_bot("hard")``'s choice from the same observation: the same
move, or a move the coach itself rates within a point of its best (a tie the two break differently), and
the coach's own gap between them where they differ.

    .venv/bin/python bench/hint_agreement.py bank --positions 80
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from koloda import registry
from koloda.coach.hint import suggest


def measure(game: str, positions: int) -> dict[str, object]:
    spec = registry.get(game)
    options = spec.options_class()
    same = near = 0
    gaps: list[float] = []
    seconds: list[float] = []
    by_phase: dict[str, list[int]] = {}
    taken = 0
    for match in range(1000):
        if taken >= positions:
            break
        state = spec.new_game(players=3, seed=100 + match)
        bots = {p: spec.guarded_bot("medium", 1000 * match + p, options) for p in range(3)}
        rng = random.Random(match)
        step = 0
        while not state.is_over() and taken < positions:
            seat = state.current_player
            assert seat is not None
            legal = state.legal_actions()
            view = spec.observe(state, seat)
            if len(legal) > 1 and rng.random() < 0.15:
                started = time.perf_counter()
                hint = suggest(spec, view, legal, options, seed=step)
                seconds.append(time.perf_counter() - started)
                hard = spec.guarded_bot("hard", 7 + step, options).choose(view, legal)
                assert hint.action in legal, (game, match, step)
                taken += 1
                agrees = hint.action == hard
                gap = hint.values[hint.action] - hint.values[hard] if hard in hint.values else 0.0
                same += agrees
                near += agrees or gap < 1.0
                if not agrees:
                    gaps.append(gap)
                counts = by_phase.setdefault(view.phase, [0, 0])
                counts[0] += agrees
                counts[1] += 1
            state.apply(legal[0] if len(legal) == 1 else bots[seat].choose(view, legal))
            step += 1
    return {
        "game": game,
        "positions": taken,
        "same": same,
        "within_a_point": near,
        "median_gap_where_they_differ": round(statistics.median(gaps), 1) if gaps else 0.0,
        "seconds_median": round(statistics.median(seconds), 3),
        "seconds_max": round(max(seconds), 3),
        "by_phase": {phase: f"{a}/{b}" for phase, (a, b) in by_phase.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("bank", "thousand"))
    parser.add_argument("--positions", type=int, default=80)
    args = parser.parse_args()
    print(measure(args.game, args.positions))


if __name__ == "__main__":
    main()

"""Random Thousand deals through the public API, against OpenSpiel's C++ hearts in the same run.

Each step lists ``legal_actions()``, picks one at random and ``apply()``s it, exactly as bench/hearts.py
does for hearts (whose chance outcomes, the deal, count as actions there). Every Thousand deal is a new
``new_game(..., scope="deal")``: the shuffle, the bidding, the talon, the play and the score book's
scoring are all inside the timed loop.

    .venv/bin/python bench/thousand_playouts.py [--seconds 6] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hearts import hearts_rate

from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import new_game


def thousand_rate(seconds: float, seed: int = 0, players: int = 3) -> dict[str, float]:
    """Actions and deals per second of random play for about ``seconds``."""
    options = ThousandOptions()
    rng = random.Random(seed)
    actions = deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = new_game(options, players=players, seed=seed + deals, scope="deal")
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return {"actions_per_second": actions / elapsed, "deals_per_second": deals / elapsed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per engine (default 6)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    # alternate short runs of the two engines, so that a change of the machine's load hits both alike
    rounds = 3
    runs = [
        (thousand_rate(args.seconds / rounds, seed=i), hearts_rate(args.seconds / rounds, seed=i))
        for i in range(rounds)
    ]
    thousand = {key: sum(t[key] for t, _ in runs) / rounds for key in runs[0][0]}
    hearts = {key: sum(h[key] for _, h in runs) / rounds for key in runs[0][1]}
    result = {
        "thousand_actions_per_second": round(thousand["actions_per_second"]),
        "thousand_deals_per_second": round(thousand["deals_per_second"]),
        "hearts_actions_per_second": round(hearts["actions_per_second"]),
        "ratio": round(thousand["actions_per_second"] / hearts["actions_per_second"], 3),
        "python": platform.python_version(),
        "machine": platform.machine(),
    }
    if args.json:
        print(json.dumps(result))
        return
    rate, deals = result["thousand_actions_per_second"], result["thousand_deals_per_second"]
    print(f"Thousand: {rate:,} actions/s ({deals:,} deals/s)")
    print(f"hearts (OpenSpiel C++): {result['hearts_actions_per_second']:,} actions/s")
    print(f"ratio: {result['ratio']}")


if __name__ == "__main__":
    main()

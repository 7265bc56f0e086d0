"""What secret seeds cost (issue 28): a shuffle from a secret against one from a number, and whole random
deals of both games from each kind of seed, on one core.

Prints microseconds a 36- and a 24-card shuffle takes from each kind, and random deals per second from each
kind; the research interfaces and ``simulate`` keep number seeds (docs/web.md, "Fair shuffles"), so the
second column of the deals is what they run at. Instruction counts of the same (valgrind's callgrind,
independent of the machine's load) are in docs/performance.md.

    .venv/bin/python bench/seeds_cost.py [--seconds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from datetime import UTC, datetime
from typing import Any

from koloda import registry, seeds
from koloda.bank import deal as bank_deal
from koloda.thousand import deal as thousand_deal

SECRET = "a5" * 32


def per_call(call: Any, seconds: float) -> float:
    """Microseconds a call of ``call(i)`` takes, over about ``seconds``."""
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for i in range(200):
            call(calls + i)
        calls += 200
    return (time.perf_counter() - start) / calls * 1e6


def deals_per_second(game: str, seed: seeds.Seed, seconds: float) -> float:
    spec = registry.get(game)
    choice = random.Random(0).choice
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = spec.new_game(players=3, seed=seed if isinstance(seed, str) else seed + deals, scope="deal")
        while not state.is_over():
            state.apply(choice(state.legal_actions()))
        deals += 1
    return deals / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    s = args.seconds
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "bank_shuffle_us": {
            "number": per_call(
                lambda i: bank_deal.shuffle(seed=i, deal_no=1, dealer=0, active=(0, 1, 2), players=3), s
            ),
            "secret": per_call(
                lambda i: bank_deal.shuffle(seed=SECRET, deal_no=i, dealer=0, active=(0, 1, 2), players=3), s
            ),
        },
        "thousand_shuffle_us": {
            "number": per_call(lambda i: thousand_deal.shuffle(seed=i, number=1, dealer=0, players=3), s),
            "secret": per_call(
                lambda i: thousand_deal.shuffle(seed=SECRET, number=i, dealer=0, players=3), s
            ),
        },
        "deals_per_second": {
            game: {"number": deals_per_second(game, 1, s), "secret": deals_per_second(game, SECRET, s)}
            for game in ("bank", "thousand")
        },
    }
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{figures['date']}, {figures['machine']}")
    for game in ("bank", "thousand"):
        shuffle = figures[f"{game}_shuffle_us"]
        deals = figures["deals_per_second"][game]
        print(
            f"{game}: a shuffle {shuffle['number']:.1f} µs from a number, {shuffle['secret']:.1f} µs from a "
            f"secret; random deals {deals['number']:.0f}/s and {deals['secret']:.0f}/s"
        )


if __name__ == "__main__":
    main()

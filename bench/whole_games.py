"""Paired whole games against fixed reference players (issue 35; koloda.bots.matches, docs/bots.md).

    python bench/whole_games.py --game thousand --candidate hard --baseline medium --reference medium
                                [--seeds 5000-5079] [--players 3] [--max-deals 200] [--jobs 1] [--json]

For every seed and every seat: one game with the candidate at that seat and the reference at the others,
one with the baseline there instead, from the same deals. Prints the win-rate and final-margin differences
with their 95% intervals clustered by seed, each side's wins, its own contracts made (Thousand), points a
deal as declarer and as defender, the game lengths, the calibration of the chances the candidate said
when it named a contract, the seconds it took, the machine and the load average. Report figures on
``REPORTING_SEEDS`` (5000-5999) only; tune on ``TUNING_SEEDS`` (1-499).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from datetime import UTC, datetime

from koloda.bots.matches import REPORTING_SEEDS, TUNING_SEEDS, Result, run_pairs
from koloda.registry import get


def seed_range(text: str) -> range:
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def lines(result: Result, args: argparse.Namespace, seconds: float) -> list[str]:
    a_made, a_played = result.a_made
    b_made, b_played = result.b_made
    out = [
        f"{args.game}: {args.candidate} (A) against {args.baseline} (B) at one seat, "
        f"{args.reference} at the others",
        f"pairs: {result.pairs} over {result.win.clusters} seeds; unfinished games: {result.unfinished}",
        f"wins: A {result.a_wins:.1%}, B {result.b_wins:.1%}; A − B {result.win.text(1, 100)} points of %",
        f"final margin (own total − best other), A − B: {result.margin.text(0)}",
        f"points a deal as declarer, A − B: {result.declarer.text(1)}; "
        f"as defender: {result.defender.text(1)}",
        f"deals a game (median): A {result.a_deals_median:g}, B {result.b_deals_median:g}",
    ]
    if a_played or b_played:
        out.append(
            f"own contracts made: A {a_made}/{a_played} ({a_made / max(1, a_played):.1%}), "
            f"B {b_made}/{b_played} ({b_made / max(1, b_played):.1%})"
        )
    for band in result.calibration:
        out.append(
            f"  said {band['from']:.0%}-{band['to']:.0%}: {band['n']:.0f} contracts, said "
            f"{band['said']:.0%} on average, made {band['made']:.0%}"
        )
    out.append(
        f"{seconds:.0f} s; {platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}"
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="thousand")
    parser.add_argument("--candidate", required=True)
    parser.add_argument("--baseline", required=True)
    parser.add_argument("--reference", required=True)
    parser.add_argument("--seeds", type=seed_range, default=seed_range("5000-5079"))
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--preset", default="default")
    parser.add_argument("--max-deals", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    seeds = args.seeds
    where = (
        "reporting"
        if seeds.start in REPORTING_SEEDS and seeds.stop - 1 in REPORTING_SEEDS
        else "tuning"
        if seeds.start in TUNING_SEEDS and seeds.stop - 1 in TUNING_SEEDS
        else "other"
    )
    options = get(args.game).options(args.preset)
    began = time.perf_counter()
    result = run_pairs(
        args.game,
        args.candidate,
        args.baseline,
        args.reference,
        seeds=seeds,
        players=args.players,
        options=options,
        max_deals=args.max_deals,
        jobs=args.jobs,
    )
    seconds = time.perf_counter() - began
    if args.json:
        figures = result.to_json() | {
            "game": args.game,
            "candidate": args.candidate,
            "baseline": args.baseline,
            "reference": args.reference,
            "seeds": [seeds.start, seeds.stop - 1],
            "seed_set": where,
            "preset": args.preset,
            "seconds": round(seconds, 1),
            "date": datetime.now(UTC).strftime("%Y-%m-%d"),
            "machine": f"{platform.machine()}, {os.cpu_count()} cores",
            "load": round(os.getloadavg()[0], 2),
        }
        print(json.dumps(figures))
        return
    print(f"seeds {seeds.start}-{seeds.stop - 1} ({where} seeds)")
    for line in lines(result, args, seconds):
        print(line)


if __name__ == "__main__":
    main()

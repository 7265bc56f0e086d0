"""Duplicate deals between two Thousand bots, written deal by deal (issue 14 point 5: the new ``hard``
against ``hard-2026-11``; docs/bots.md).

    python bench/thousand_duplicate.py [--bots hard,hard-2026-11] [--deals 1000] [--seed 1]
                                       [--out deals.jsonl] [--json]

The same duplicate deals as ``koloda tournament --game thousand --players 3`` (the line-up A B A rotated
round the table, every deal and bot seeded by :mod:`koloda.bots.tournament`), played one at a time: each
deal's points are appended to ``--out`` as they come, so a long run read half way (``--summary`` of that
file) still gives the paired 95% interval of the first bot's mean points per deal minus the second's.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from koloda.bots.tournament import Job, lineup, mean_ci, play_deal
from koloda.thousand.options import ThousandOptions


def difference(points: list[list[float]], players: int = 3) -> float:
    """One duplicate deal: the first bot's mean points over the seats it held less the second's."""
    sums, counts = [0.0, 0.0], [0, 0]
    for rotation, scores in enumerate(points):
        for seat, entry in enumerate(lineup(players, 2, rotation)):
            sums[entry] += scores[seat]
            counts[entry] += 1
    return sums[0] / counts[0] - sums[1] / counts[1]


def summary(rows: list[dict[str, object]], bots: list[str]) -> dict[str, object]:
    diffs = [float(r["difference"]) for r in rows]  # type: ignore[arg-type]
    mean, (low, high) = mean_ci(diffs)
    return {
        "bots": bots,
        "deals": len(diffs),
        "difference": round(mean, 2),
        "ci95": [round(low, 2), round(high, 2)],
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="hard,hard-2026-11")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="home")
    parser.add_argument("--out", type=Path, default=Path("thousand_duplicate.jsonl"))
    parser.add_argument("--summary", action="store_true", help="only summarise the deals in --out")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    bots = args.bots.split(",")
    if len(bots) != 2:
        parser.error("--bots names two bots")
    rows = []
    if args.out.exists():
        rows = [json.loads(line) for line in args.out.read_text("utf-8").splitlines() if line]
        rows = [r for r in rows if r["bots"] == bots and r["seed"] == args.seed]
    if not args.summary:
        options = ThousandOptions.preset(args.preset).to_dict()
        job = Job("thousand", tuple(bots), 3, options, args.seed, 0, args.deals)
        done = {int(r["deal"]) for r in rows}
        with args.out.open("a", encoding="utf-8") as out:
            for deal in range(args.deals):
                if deal in done:
                    continue
                began = time.perf_counter()
                outcome = play_deal(job, deal)
                row = {
                    "bots": bots,
                    "seed": args.seed,
                    "deal": deal,
                    "points": outcome.points,
                    "faults": outcome.faults,
                    "difference": difference(outcome.points),
                    "seconds": round(time.perf_counter() - began, 2),
                }
                out.write(json.dumps(row) + "\n")
                out.flush()
                rows.append(row)
    result = summary(rows, bots)
    if args.json:
        print(json.dumps(result))
    else:
        ci = result["ci95"]
        assert isinstance(ci, list)
        lo, hi = ci
        print(
            f"{bots[0]} - {bots[1]}: {result['difference']:+} points a duplicate deal, 95% [{lo:+}, {hi:+}], "
            f"{result['deals']} duplicate deals; load average {result['load_average']}, {result['date']}"
        )


if __name__ == "__main__":
    main()

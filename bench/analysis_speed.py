"""The coach's speed and stability (docs/analysis.md, docs/performance.md "The coach").

Deals are played by the bots of a level (``--bots``, default ``medium``; one record per deal,
``scope="deal"``), then one seat's decisions are analysed (``koloda <game> analyse``'s own function) and
timed: the seconds per deal, the mean and the worst. With ``--agreement`` every seat of every deal is
analysed again with another seed and the share of decisions whose mark is the same in both runs is
printed (issue 17 asks for 95% at least).

    .venv/bin/python bench/analysis_speed.py [--game thousand|bank] [--deals 6] [--agreement] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time

from koloda.coach import Analysis, RaterFactory, analyse_record
from koloda.coach.bank import BankRater
from koloda.coach.thousand import ThousandRater
from koloda.game import GameRecord
from koloda.registry import get

RATERS: dict[str, RaterFactory] = {"bank": BankRater, "thousand": ThousandRater}


def records(game: str, deals: int, seed: int, level: str = "medium") -> list[GameRecord]:
    """``deals`` single deals played by the bots of ``level``."""
    spec = get(game)
    out = []
    for i in range(deals):
        state = spec.new_game(players=spec.default_players, seed=seed + i, scope="deal")
        bots = [spec.guarded_bot(level, seed * 10 + p) for p in range(state.players)]
        while not state.is_over():
            seat = state.current_player
            assert seat is not None
            state.apply(bots[seat].choose(spec.observe(state, seat), state.legal_actions()))
        out.append(state.record())
    return out


def analyse(game: str, record: GameRecord, seat: int, seed: int) -> tuple[Analysis, float, float]:
    """The analysis, its wall-clock seconds and its CPU seconds (what a quiet machine's wall clock would
    show: the analysis runs in one thread)."""
    spec = get(game)
    options = spec.options_class.from_mapping(record.options)
    start, cpu = time.perf_counter(), time.process_time()
    analysis = analyse_record(spec, record, seat, RATERS[game](options), seed=seed)
    return analysis, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(RATERS), default="thousand")
    parser.add_argument("--deals", type=int, default=6, help="deals played and analysed (default 6)")
    parser.add_argument("--seed", type=int, default=1, help="the first deal's seed (default 1)")
    parser.add_argument("--bots", default="medium", help="the level of the bots that play (default medium)")
    parser.add_argument("--agreement", action="store_true", help="every seat twice, with seeds 0 and 1")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    recs = records(args.game, args.deals, args.seed, args.bots)
    seconds, cpu = [], []
    same = total = marked = 0
    for i, record in enumerate(recs):
        seats = range(record.players) if args.agreement else [i % record.players]
        for seat in seats:
            first, took, used = analyse(args.game, record, seat, 0)
            seconds.append(took)
            cpu.append(used)
            if args.agreement:
                second, _, _ = analyse(args.game, record, seat, 1)
                marks = {m.index: m.mark for m in second.moves}
                for m in first.moves:
                    if m.index in marks:
                        total += 1
                        same += m.mark == marks[m.index]
                        marked += bool(m.mark or marks[m.index])
    figures = {
        "game": args.game,
        "bots": args.bots,
        "deals": len(recs),
        "analyses": len(seconds),
        "seconds_mean": round(statistics.mean(seconds), 2),
        "seconds_max": round(max(seconds), 2),
        "cpu_seconds_mean": round(statistics.mean(cpu), 2),
        "cpu_seconds_max": round(max(cpu), 2),
        "load": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
    }
    if args.agreement:
        figures |= {"decisions": total, "marked": marked, "agreement": round(same / max(total, 1), 4)}
    if args.json:
        print(json.dumps(figures))
        return
    print(
        f"{args.game}: {figures['analyses']} analyses of one seat's deal, {figures['deals']} deals"
        f" played by {args.bots} bots"
    )
    print(f"  seconds per deal: mean {figures['seconds_mean']}, worst {figures['seconds_max']}")
    print(f"  CPU seconds per deal: mean {figures['cpu_seconds_mean']}, worst {figures['cpu_seconds_max']}")
    if args.agreement:
        share = 100 * same / max(total, 1)
        print(
            f"  marks equal with seeds 0 and 1: {same} of {total} decisions ({share:.1f}%),"
            f" {marked} marked in either run"
        )
    print(f"  load average {figures['load']}, Python {figures['python']}")


if __name__ == "__main__":
    main()

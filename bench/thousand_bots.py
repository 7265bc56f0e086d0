"""How Thousand's bots play whole games: issue 14's figures per level (docs/bots.md, docs/performance.md).

    python bench/thousand_bots.py [--levels easy,medium,hard] [--games 100,100,20] [--seed 1]
                                  [--preset home] [--jobs 1] [--records DIR] [--json]

Three seats of one level play whole games (``koloda thousand simulate``'s loop,
:func:`koloda.simulate.simulate_matches`, one game at a time so that the games can be shared between
processes) and the script prints, per level: games finished, deals a game (median, p90, max), contracts
made overall and by bid band, auctions left at the forced minimum, raises after the talon, bombs, barrel
entries and falls, the contracts made kept at the auction's bid and raised after the talon, and by a
declarer at 800 or more (rule S5), and the seconds of every bot decision (p50, p99, max), with the goals of
issue 14 point 5 and whether each holds. Every contract played is also solved double dummy (every hand
seen, both sides playing perfectly from the first lead, the exact solver of koloda.thousand.solver): the
contracts made among those that could be made and those that could not, and the ceiling of the share made
if every contract that could be made were made (what the auction leaves to the play). ``--jobs 2``
plays in one extra process (the machine has two cores: use it only when nothing else runs). The load
average is printed with the figures: the times depend on it.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from koloda.game import GameRecord, GameSpec
from koloda.registry import get
from koloda.simulate import simulate_matches
from koloda.thousand import solver
from koloda.thousand.actions import BOMB
from koloda.thousand.cli import _auctions
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import ScoreBook
from koloda.thousand.state import ThousandState, from_deal, new_game, replay

#: Issue 14, point 5: the share of contracts made each level must reach.
MADE_GOAL = {"easy": 0.50, "medium": 0.65, "hard": 0.75}
BANDS = ("100", "105-120", "125-150", "155-200", "205+")
#: The contracts of :func:`kinds`: kept at the auction's bid or raised after the talon, by a declarer whose
#: total before the deal was 800 or more (where defence scores nothing at home, rule S5), and those that
#: could or could not be made double dummy (:func:`double_dummy`).
#: "no bomb": by a declarer who had called all the bombs the game allows him (rule S7).
KINDS = ("kept", "raised", "800+", "no bomb", "makeable", "unmakeable")


def start_of(state: ThousandState) -> ThousandState:
    """The game ``state`` was played from, before its first action."""
    if state.explicit_deal is not None:
        return from_deal(state.explicit_deal, state.options, scope=state.scope)
    return new_game(state.options, players=state.players, seed=state.seed or 0, scope=state.scope)


def double_dummy(state: ThousandState) -> list[bool]:
    """Per contract played in a finished game (bombs are not played): whether the declarer could make it
    with every hand seen and both sides playing perfectly from the first lead."""
    game = start_of(state)
    out = []
    for action in state.history:
        named = game.phase == "contract" and action != BOMB
        game.apply(action)
        if named:
            pos, seats = solver.position(game)
            goal = solver.Objective(bid=solver.objective(game, seats).bid, step=1)
            out.append(solver.solve(pos, solver.rules_of(game.options, goal)) > 0)
    return out


def kinds(state: ThousandState) -> dict[str, dict[str, int]]:
    """Contracts played and made of one game by :data:`KINDS` (bombs are not contracts)."""
    out = {k: {"played": 0, "made": 0} for k in KINDS}
    auctions = _auctions(state.history, state.options.min_bid)
    makeable = iter(double_dummy(state))
    book = ScoreBook(state.options, state.players)  # asked, deal by deal, whether a bomb was left
    for (deal, score), (_, high) in zip(state.results, auctions, strict=False):
        seat = deal.declarer
        bomb_left = book.bomb_allowed(seat)
        book.apply(deal)
        if deal.bomb:
            continue
        chosen = ["raised" if deal.bid > high else "kept", "makeable" if next(makeable) else "unmakeable"]
        if score.total[seat] - score.delta[seat] >= state.options.threshold_800:
            chosen.append("800+")
        if not bomb_left:
            chosen.append("no bomb")
        for kind in chosen:
            out[kind]["played"] += 1
            out[kind]["made"] += bool(score.made)
    return out


#: The spec the games are played with (bench/thousand_talon_seen.py puts in one that shows the bots' talon
#: sampler the talon, to measure what the figures owe to the auction's ignorance of it).
SPEC: GameSpec = get("thousand")


def play_games(
    level: str, preset: str, seeds: list[int], max_deals: int, keep: str | None = None
) -> dict[str, Any]:
    """Whole games of three bots of ``level``, one per seed: every game's figures and every move's time
    (the games' records are kept in ``keep`` when given)."""
    options = ThousandOptions.preset(preset)
    games = []
    times: list[float] = []
    with tempfile.TemporaryDirectory() as scratch:
        records = keep or scratch
        for seed in seeds:
            game = simulate_matches(
                SPEC,
                options,
                players=3,
                bots=[level],
                matches=1,
                seed=seed,
                max_deals=max_deals,
                records=Path(records),
                move_seconds=times,
            )
            state = replay(GameRecord.load(Path(records) / f"thousand-{seed}.json", game="thousand"))
            games.append({**game, "kinds": kinds(state)})
    return {"games": games, "times": times}


def _pct(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summary(level: str, games: list[dict[str, Any]], times: list[float]) -> dict[str, Any]:
    """The figures of issue 14 for one level, from the games' own figures."""
    lengths = sorted(g["deals"] for g in games)
    total: dict[str, Any] = {
        "bands": {b: {"played": 0, "made": 0} for b in BANDS},
        "kinds": {k: {"played": 0, "made": 0} for k in KINDS},
    }
    keys = (
        "finished",
        "contracts_played",
        "contracts_made",
        "auctions",
        "forced_minimum",
        "forced_played",
        "forced_made",
        "raises",
        "bombs",
        "barrel_entries",
        "barrel_falls",
    )
    for g in games:
        for key in keys:
            total[key] = total.get(key, 0) + g[key]
        for group, names in (("bands", BANDS), ("kinds", KINDS)):
            for name in names:
                for k in ("played", "made"):
                    total[group][name][k] += g[group][name][k]
    played = total["contracts_played"]
    made_share = total["contracts_made"] / played if played else 0.0
    forced_share = total["forced_minimum"] / total["auctions"] if total["auctions"] else 0.0
    median = _pct([float(n) for n in lengths], 0.5)
    out = {
        "level": level,
        "games": len(games),
        **total,
        "deals_median": int(median),
        "deals_p90": int(_pct([float(n) for n in lengths], 0.9)),
        "deals_max": max(lengths),
        "made_share": round(made_share, 3),
        # the share made if every contract that could be made double dummy were made
        "ceiling_share": round(
            (total["kinds"]["makeable"]["played"] + total["kinds"]["unmakeable"]["made"]) / played, 3
        )
        if played
        else 0.0,
        "forced_share": round(forced_share, 3),
        "moves": len(times),
        "move_p50_ms": round(1000 * _pct(times, 0.5), 2),
        "move_p99_ms": round(1000 * _pct(times, 0.99), 1),
        "move_max_ms": round(1000 * max(times, default=0.0), 1),
    }
    goals = {
        "all finish within 200 deals": total["finished"] == len(games) and max(lengths) <= 200,
        "median deals 15-40": 15 <= median <= 40,
        "forced minimum <= 40%": forced_share <= 0.40,
    }
    if level in MADE_GOAL:
        goals[f"contracts made >= {MADE_GOAL[level]:.0%}"] = made_share >= MADE_GOAL[level]
    if level == "hard":
        goals["p99 <= 1 s a move"] = out["move_p99_ms"] <= 1000
    out["goals"] = goals
    return out


def lines(s: dict[str, Any]) -> list[str]:
    def share(part: int, whole: int) -> str:
        return f"{part}/{whole} ({100 * part / whole:.0f}%)" if whole else "-"

    bands = ", ".join(f"{b}: {share(v['made'], v['played'])}" for b, v in s["bands"].items() if v["played"])
    out = [
        f"== {s['level']}: {s['games']} games, {s['finished']} finished",
        f"deals a game: median {s['deals_median']}, p90 {s['deals_p90']}, max {s['deals_max']}",
        f"contracts made: {share(s['contracts_made'], s['contracts_played'])}; by band: {bands}",
        "contracts made: " + ", ".join(f"{k} {share(v['made'], v['played'])}" for k, v in s["kinds"].items()),
        f"made if every contract that could be made double dummy were made: {s['ceiling_share']:.0%}",
        f"forced minimum: {share(s['forced_minimum'], s['auctions'])} of auctions; "
        f"those contracts made {share(s['forced_made'], s['forced_played'])}",
        f"raises after the talon: {s['raises']}; bombs: {s['bombs']}; "
        f"barrel: {s['barrel_entries']} entries, {s['barrel_falls']} falls",
        f"seconds a move ({s['moves']} decisions): p50 {s['move_p50_ms']} ms, p99 {s['move_p99_ms']} ms, "
        f"max {s['move_max_ms']} ms",
    ]
    out += [f"  [{'ok' if ok else 'NO'}] {goal}" for goal, ok in s["goals"].items()]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--games", default="100,100,20", help="games per level (one number: for all)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="home")
    parser.add_argument("--max-deals", type=int, default=500)
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--records", help="a directory to keep the games' records in (one per level)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    levels = args.levels.split(",")
    counts = [int(n) for n in args.games.split(",")]
    counts = counts * len(levels) if len(counts) == 1 else counts
    results = []
    began = time.time()
    for level, count in zip(levels, counts, strict=True):
        seeds = [args.seed + i for i in range(count)]
        keep = None
        if args.records:
            keep = str(Path(args.records) / level)
            Path(keep).mkdir(parents=True, exist_ok=True)
        if args.jobs == 2:  # one extra process plays the odd games
            with ProcessPoolExecutor(max_workers=1) as pool:
                other = pool.submit(play_games, level, args.preset, seeds[1::2], args.max_deals, keep)
                mine = play_games(level, args.preset, seeds[0::2], args.max_deals, keep)
                theirs = other.result()
            games, times = mine["games"] + theirs["games"], mine["times"] + theirs["times"]
        else:
            played = play_games(level, args.preset, seeds, args.max_deals, keep)
            games, times = played["games"], played["times"]
        s = summary(level, games, times)
        results.append(s)
        if not args.json:
            print("\n".join(lines(s)), flush=True)
    machine = {
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "preset": args.preset,
        "jobs": args.jobs,
        "seconds": round(time.time() - began),
    }
    if args.json:
        print(json.dumps({**machine, "levels": results}))
    else:
        print(
            f"machine: {machine['machine']}; load average {machine['load_average']} at the end; "
            f"{machine['date']}; {machine['seconds']} s"
        )


if __name__ == "__main__":
    main()

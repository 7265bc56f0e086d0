"""Speed and strength of koloda's search bots against OpenSpiel's Python ``ISMCTSBot`` (docs/performance.md).

    python bench/bots_speed.py [--positions 12] [--iters 50] [--match DEALS [--equal-time]] [--json]

On fixed positions (seeded deals played by the heuristic bot up to a decision with a choice), for each game:
koloda's ``search`` iterations per second, the ``hard`` level's seconds per move, and OpenSpiel's
``ISMCTSBot`` (random-rollout evaluator, one rollout, a fresh world per simulation) iterations per second
on the same positions of koloda's own OpenSpiel registration (``python_koloda_bank`` with 2 players,
``python_koloda_thousand`` with 3). ``--match DEALS`` also plays duplicate deals between the two searches
at the same number of iterations per move and prints koloda's mean points-per-deal advantage with its 95%
interval. Needs the ``rl`` extra (open_spiel).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import koloda.rl.openspiel  # noqa: F401  (registers the games)
from koloda.bank import observe as bank_observe
from koloda.bots.search import SearchBot
from koloda.bots.thousand import ThousandBot
from koloda.bots.tournament import lineup, mean_ci
from koloda.registry import get
from koloda.thousand.observe import observe as thousand_observe

#: per game: OpenSpiel's name, the players, koloda's observe (state, seat), the points' scale
GAMES: dict[str, tuple[str, int, Callable[[Any, int], object], float]] = {
    "bank": ("python_koloda_bank", 2, bank_observe, 40.0),
    "thousand": ("python_koloda_thousand", 3, thousand_observe, 100.0),
}


def _dealt(game: Any, seed: int) -> Any:
    """A spiel state with its deal made from ``seed`` (the chance nodes drawn from one seeded stream)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    return state


def _replayed(game: Any, seed: int, actions: list[int]) -> Any:
    state = _dealt(game, seed)
    for action in actions:
        state.apply_action(action)
    return state


def _searched(name: str, state: Any) -> bool:
    """Whether koloda's search bot searches here (Thousand: only the trick play)."""
    if len(state.legal_actions()) < 2:
        return False
    return name == "bank" or state.tracker.state.phase == "playing"


def positions(name: str, count: int, seed: int) -> list[Any]:
    """Seeded decisions with a choice, reached by heuristic play, that koloda's search bot searches.

    Each is rebuilt from its deal seed and actions, so that both searches start from the same position."""
    spiel_name, players, observe, _ = GAMES[name]
    game = pyspiel.load_game(spiel_name, {"players": players})
    out: list[Any] = []
    deal = 0
    while len(out) < count:
        state = _dealt(game, seed + deal)
        bots = [get(name).bot("heuristic", seed + deal * 10 + p) for p in range(players)]
        rng = random.Random(seed + deal)
        stop = rng.randrange(4, 14)
        seen = 0
        actions: list[int] = []
        while not state.is_terminal():
            engine = state.tracker.state
            seat = engine.current_player
            if _searched(name, state):
                seen += 1
                if seen == stop:
                    out.append(_replayed(game, seed + deal, actions))
                    break
            action = bots[seat].choose(observe(engine, seat), engine.legal_actions())
            actions.append(action)
            state.apply_action(action)
        deal += 1
    return out


def _ismcts(game: Any, iters: int, seed: int, scale: float) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(game, evaluator, 0.7 * scale, iters, random_state=np.random.RandomState(seed))


def speed(name: str, count: int, iters: int, seed: int) -> dict[str, Any]:
    """Iterations per second of both searches on the same positions, and the hard level's time per move."""
    spiel_name, players, observe, scale = GAMES[name]
    game = pyspiel.load_game(spiel_name, {"players": players})
    states = positions(name, count, seed)
    ours = theirs = hard = 0.0
    ours_iters = 0
    hard_max = 0.0
    for i, state in enumerate(states):
        engine = state.tracker.state
        seat = engine.current_player
        view, legal = observe(engine, seat), engine.legal_actions()
        bot = get(name).bot(f"search:iters={iters}", seed + i)
        assert isinstance(bot, SearchBot | ThousandBot)
        t = time.perf_counter()
        bot.choose(view, legal)
        ours += time.perf_counter() - t
        ours_iters += bot.last_iterations  # Thousand: (world, move) evaluations, each played out and solved
        t = time.perf_counter()
        get(name).bot("hard", seed + i).choose(view, legal)
        dt = time.perf_counter() - t
        hard += dt
        hard_max = max(hard_max, dt)
        t = time.perf_counter()
        _ismcts(game, iters, seed + i, scale).step(state)
        theirs += time.perf_counter() - t
    ours_rate = ours_iters / ours
    theirs_rate = iters * len(states) / theirs
    return {
        "positions": len(states),
        "iters_per_move": iters,
        "koloda_search_iters_per_second": round(ours_rate, 1),
        "openspiel_ismcts_iters_per_second": round(theirs_rate, 1),
        "speed_ratio": round(ours_rate / theirs_rate, 2),
        "hard_seconds_per_move_mean": round(hard / len(states), 4),
        "hard_seconds_per_move_max": round(hard_max, 4),
    }


def match(name: str, deals: int, iters: int, seed: int, theirs: int | None = None) -> dict[str, Any]:
    """Duplicate deals: koloda's search at ``iters`` per searched move against OpenSpiel's ISMCTS at
    ``theirs`` (default the same; the speed ratio times fewer gives both the same time per move)."""
    theirs = iters if theirs is None else theirs
    spiel_name, players, observe, scale = GAMES[name]
    game = pyspiel.load_game(spiel_name, {"players": players})
    diffs = []
    for deal in range(deals):
        sums, counts = [0.0, 0.0], [0, 0]
        for rotation in range(players):
            seats = lineup(players, 2, rotation)
            state = _dealt(game, seed * 1000 + deal)
            base = (seed * 1000 + deal) * 10 + rotation * 4
            bots: list[Any] = [
                get(name).bot(f"search:iters={iters}", base + p)
                if e == 0
                else _ismcts(game, theirs, base + p, scale)
                for p, e in enumerate(seats)
            ]
            while not state.is_terminal():
                engine = state.tracker.state
                seat = engine.current_player
                legal = engine.legal_actions()
                if len(legal) == 1:
                    action = legal[0]
                elif seats[seat] == 0:
                    action = bots[seat].choose(observe(engine, seat), legal)
                else:
                    action = int(bots[seat].step(state))
                state.apply_action(action)
            for p, points in enumerate(state.returns()):
                sums[seats[p]] += points
                counts[seats[p]] += 1
        diffs.append(sums[0] / counts[0] - sums[1] / counts[1])
    mean, (low, high) = mean_ci(diffs)
    return {
        "deals": deals,
        "iters_per_move": iters,
        "ismcts_iters_per_move": theirs,
        "koloda_minus_ismcts": mean,
        "ci95": [low, high],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="bank,thousand")
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--match", type=int, default=0, metavar="DEALS")
    parser.add_argument(
        "--equal-time",
        action="store_true",
        help="in the match, give ISMCTS the iterations it does in koloda's time (iters / speed ratio)",
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {}
    for name in args.games.split(","):
        report[name] = {"speed": speed(name, args.positions, args.iters, args.seed)}
        if args.match:
            ratio = report[name]["speed"]["speed_ratio"]
            theirs = max(1, round(args.iters / ratio)) if args.equal_time else args.iters
            report[name]["match"] = match(name, args.match, args.iters, args.seed, theirs)
    if args.json:
        print(json.dumps(report))
        return
    for name, parts in report.items():
        for part, figures in parts.items():
            print(f"{name} {part}: " + ", ".join(f"{k} {v}" for k, v in figures.items()))


if __name__ == "__main__":
    main()

"""Duplicate tournaments between bots: ``koloda tournament`` (docs/bots.md, "Tournaments").

Every deal is played once per seat rotation of the same line-up, so each bot holds every seat's cards
once and the luck of the cards cancels. The unit of measurement is the *duplicate deal* (all rotations of
one deal): per bot, its mean points per seat-deal within it; the means, win rates and pairwise
differences come with 95% confidence intervals over the duplicate deals (normal approximation,
mean ± 1.96·s/√n, s the sample standard deviation).

>>> mean_ci([1.0, 2.0, 3.0, 4.0])  # doctest: +ELLIPSIS
(2.5, (1.2348..., 3.7651...))
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple

from koloda import registry
from koloda.bots.base import parse_spec
from koloda.errors import NotFoundError, OptionsError, RequestError
from koloda.game import GameSpec
from koloda.options import Options

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% confidence interval (normal approximation); one value gives a zero width."""
    n = len(values)
    if n == 0:
        raise RequestError("no values to average", field="values")
    mean = sum(values) / n
    if n == 1:
        return mean, (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def lineup(players: int, entries: int, rotation: int) -> list[int]:
    """The entry (index into the bot list) at each seat: the entries repeated round the table, rotated.

    >>> [lineup(3, 2, r) for r in range(3)]
    [[0, 1, 0], [1, 0, 0], [0, 0, 1]]
    """
    base = [i % entries for i in range(players)]
    return [base[(seat + rotation) % players] for seat in range(players)]


@dataclass(frozen=True)
class Job:
    """One chunk of deals: everything a worker needs (picklable)."""

    game: str
    specs: tuple[str, ...]
    players: int
    options: dict[str, Any]
    seed: int
    first: int
    count: int


def deal_seed(seed: int, deal: int) -> int:
    """The engine seed of deal ``deal`` of a tournament (the same for every rotation)."""
    return (seed * 1_000_003 + deal) % (2**62)


def bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    """Each bot's own seed: fixed by the tournament seed and its place, not by the worker that runs it."""
    return (((seed * 7919 + deal) * 31 + rotation) * 8 + seat) % (2**62)


def _engine(game: str, options: dict[str, Any]) -> tuple[GameSpec, Options]:
    spec = registry.get(game)
    return spec, spec.options_class.from_mapping(options)


class DealOutcome(NamedTuple):
    """One duplicate deal: per rotation the points of each seat; per entry the moves its bot failed to
    make (a fallback played them, docs/bots.md "Bots that misbehave")."""

    points: list[list[float]]
    faults: list[int]


def play_deal(job: Job, deal: int) -> DealOutcome:
    """Play one duplicate deal, every seat's bot guarded by its fallbacks."""
    spec, opts = _engine(job.game, job.options)
    out = []
    faults = [0] * len(job.specs)
    for rotation in range(job.players):
        seats = lineup(job.players, len(job.specs), rotation)
        bots = [
            spec.guarded_bot(job.specs[entry], bot_seed(job.seed, deal, rotation, seat), opts)
            for seat, entry in enumerate(seats)
        ]
        state = spec.new_game(opts, players=job.players, seed=deal_seed(job.seed, deal), scope="deal")
        while True:
            seat = state.current_player
            if seat is None:
                break
            legal = state.legal_actions()
            state.apply(bots[seat].choose(spec.observe(state, seat), legal))
        out.append([float(x) for x in state.returns()])
        for seat, entry in enumerate(seats):
            faults[entry] += len(bots[seat].faults)
    return DealOutcome(out, faults)


def play_chunk(job: Job) -> list[DealOutcome]:
    """Play deals ``first`` .. ``first + count - 1`` of a tournament."""
    return [play_deal(job, d) for d in range(job.first, job.first + job.count)]


def _chunks(base: Job, deals: int, size: int) -> list[Job]:
    return [
        Job(base.game, base.specs, base.players, base.options, base.seed, first, min(size, deals - first))
        for first in range(0, deals, size)
    ]


def _run_processes(jobs: list[Job], workers: int) -> Iterator[list[DealOutcome]]:
    if workers <= 1:
        for job in jobs:
            yield play_chunk(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play_chunk, jobs)


def _run_ray(jobs: list[Job], workers: int) -> Iterator[list[DealOutcome]]:
    try:
        import ray
    except ImportError:
        raise RequestError("--backend ray needs the 'ray' extra: pip install 'koloda[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_chunk)
        refs = [remote.remote(job) for job in jobs]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


@dataclass(frozen=True)
class TournamentResult:
    """The per-deal points (deal, rotation, seat) and the statistics derived from them."""

    game: str
    players: int
    specs: tuple[str, ...]
    seed: int
    options: dict[str, Any]
    points: tuple[tuple[tuple[float, ...], ...], ...]
    seconds: float
    faults: tuple[int, ...] = ()  # per entry: moves its bot failed to make, played by a fallback

    @property
    def deals(self) -> int:
        return len(self.points)

    def labels(self) -> list[str]:
        """One name per entry: the spec, with ``#2``… when a spec is entered more than once."""
        seen: dict[str, int] = {}
        out = []
        for spec in self.specs:
            seen[spec] = seen.get(spec, 0) + 1
            out.append(spec if seen[spec] == 1 else f"{spec}#{seen[spec]}")
        return out

    def per_deal_means(self) -> list[list[float]]:
        """For each duplicate deal, each entry's mean points over the seats it held in all rotations."""
        k = len(self.specs)
        out = []
        for deal in self.points:
            sums, counts = [0.0] * k, [0] * k
            for rotation, scores in enumerate(deal):
                for seat, entry in enumerate(lineup(self.players, k, rotation)):
                    sums[entry] += scores[seat]
                    counts[entry] += 1
            out.append([s / c for s, c in zip(sums, counts, strict=True)])
        return out

    def summary(self) -> dict[str, Any]:
        """The JSON object of ``--json``: per bot mean points per deal, win rate, and pairwise differences."""
        means = self.per_deal_means()
        labels = self.labels()
        k = len(labels)
        bots: dict[str, Any] = {}
        for j, label in enumerate(labels):
            mean, ci = mean_ci([m[j] for m in means])
            wins = []
            for m in means:
                top = max(m)
                winners = [i for i, v in enumerate(m) if v == top]
                wins.append(1.0 / len(winners) if j in winners else 0.0)
            win, win_ci = mean_ci(wins)
            bots[label] = {
                "faults": self.faults[j] if self.faults else 0,
                "mean_points_per_deal": mean,
                "ci95": [ci[0], ci[1]],
                "win_rate": win,
                "win_rate_ci95": [win_ci[0], win_ci[1]],
            }
        pairs = []
        for a in range(k):
            for b in range(a + 1, k):
                diff, ci = mean_ci([m[a] - m[b] for m in means])
                pairs.append({"a": labels[a], "b": labels[b], "difference": diff, "ci95": [ci[0], ci[1]]})
        return {
            "game": self.game,
            "players": self.players,
            "deals": self.deals,
            "games_played": self.deals * self.players,
            "seed": self.seed,
            "options": self.options,
            "bots": bots,
            "pairs": pairs,
            "seconds": round(self.seconds, 3),
        }


def run_tournament(
    game: str,
    specs: Sequence[str],
    *,
    players: int,
    deals: int,
    seed: int,
    workers: int = 1,
    backend: str = "processes",
    options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    chunk: int | None = None,
) -> TournamentResult:
    """Play ``deals`` duplicate deals; the results depend only on the arguments, never on ``workers``."""
    try:
        game_spec = registry.get(game)
    except NotFoundError as exc:  # the tournament's arguments are its options: one kind of error for all
        raise OptionsError(str(exc), field="game") from None
    if not specs:
        raise OptionsError("give at least one bot spec", field="bots")
    for spec in specs:
        parse_spec(spec, game_spec.levels)
    if type(deals) is not int or deals < 1:
        raise OptionsError(f"--deals must be at least 1, not {deals!r}", field="deals")
    if type(seed) is not int or seed < 0:
        raise OptionsError(f"--seed must be a non-negative integer, not {seed!r}", field="seed")
    if type(workers) is not int or workers < 1:
        raise OptionsError(f"--workers must be at least 1, not {workers!r}", field="workers")
    if backend not in ("processes", "ray"):
        raise OptionsError(f"unknown backend {backend!r}: expected processes or ray", field="backend")
    game_spec.check_players(players)
    opts = options or {}
    _engine(game, opts)  # validate the options before any worker starts
    size = chunk or max(1, min(25, -(-deals // (workers * 4))))
    jobs = _chunks(Job(game, tuple(specs), players, opts, seed, 0, 0), deals, size)
    start = time.perf_counter()
    points: list[tuple[tuple[float, ...], ...]] = []
    faults = [0] * len(specs)
    runner = _run_ray if backend == "ray" else _run_processes
    for result in runner(jobs, workers):
        for outcome in result:
            points.append(tuple(tuple(r) for r in outcome.points))
            faults = [a + b for a, b in zip(faults, outcome.faults, strict=True)]
        if progress is not None:
            progress(len(points), deals)
    return TournamentResult(
        game, players, tuple(specs), seed, opts, tuple(points), time.perf_counter() - start, tuple(faults)
    )


# --- the command ------------------------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    """Add ``koloda tournament`` to the command line."""
    p = subparsers.add_parser(
        "tournament",
        help="duplicate deals between bots, with 95%% confidence intervals",
        description="Duplicate deals between bots (each deal replayed with the seats rotated).",
    )
    names = [spec.name for spec in registry.games()]
    p.add_argument("--game", required=True, choices=names, help=", ".join(names))
    p.add_argument("--players", type=int, default=None, help="seats (default: the fewest the game allows)")
    p.add_argument(
        "--bots", required=True, help="comma-separated specs: random, heuristic, search:iters=200, hard"
    )
    p.add_argument("--deals", type=int, default=100, help="duplicate deals (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--backend", choices=("processes", "ray"), default="processes")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    p.add_argument("--preset", default=None, help="a preset of the game's options")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    specs = [s.strip() for s in args.bots.split(",") if s.strip()]
    spec = registry.get(args.game)
    players = args.players if args.players is not None else spec.player_counts[0]
    options = spec.options(args.preset, args.option).to_dict()
    show = sys.stderr.isatty()

    def bar(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals", end="", file=sys.stderr)
        if done == total:
            print(file=sys.stderr)

    result = run_tournament(
        args.game,
        specs,
        players=players,
        deals=args.deals,
        seed=args.seed,
        workers=args.workers,
        backend=args.backend,
        options=options,
        progress=bar if show else None,
    )
    summary = result.summary()
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
        return 0
    print(f"{args.game}, {players} players, {result.deals} duplicate deals, seed {args.seed}")
    for label, row in summary["bots"].items():
        lo, hi = row["ci95"]
        wl, wh = row["win_rate_ci95"]
        print(
            f"  {label:<24} {row['mean_points_per_deal']:8.2f} points/deal [{lo:.2f}, {hi:.2f}]"
            f"   wins {100 * row['win_rate']:5.1f}% [{100 * wl:.1f}, {100 * wh:.1f}]"
        )
        if row["faults"]:
            print(f"  {label}: {row['faults']} moves its bot failed to make were played by a fallback")
    for pair in summary["pairs"]:
        lo, hi = pair["ci95"]
        print(f"  {pair['a']} - {pair['b']}: {pair['difference']:+.2f} [{lo:+.2f}, {hi:+.2f}]")
    return 0

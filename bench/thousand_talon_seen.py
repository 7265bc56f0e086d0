"""What the share of contracts made owes to the talon being hidden in the auction (issue 14): ``hard``
bidding as if it saw ``--seen`` of the talon's three cards (the others drawn as usual), all else the same.

    python bench/thousand_talon_seen.py --seen 1 [--games 40] [--seed 1] [--jobs 2] [--json]

A measurement, not a level: koloda's bots see only ``observe(state, seat)``. Here the benchmark plays the
games through a spec of its own that keeps the talon of the position being decided, and replaces the bot's
talon sampler (``ThousandBot._talons``, which values passing against bidding) by one that deals the cards
it may see into every sampled talon. The figures are bench/thousand_bots.py's (the same games, seeds and
summary); ``--seen 0`` plays exactly those games.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from koloda.bots.thousand import ThousandBot
from koloda.game import GameState
from koloda.thousand.knowledge import Knowledge
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.spec import ThousandSpec
from koloda.thousand.state import ThousandState

sys.path.insert(0, str(Path(__file__).resolve().parent))
import thousand_bots

_TALON = [0]  # the talon of the position the bot is deciding, as the spec last showed it


class TalonKeepingSpec(ThousandSpec):
    """Thousand's spec, keeping the talon of every position it shows a seat (in :data:`_TALON`)."""

    def observe(self, state: GameState, seat: int | None) -> ThousandObservation:
        assert isinstance(state, ThousandState)
        _TALON[0] = state.talon
        return super().observe(state, seat)


Sampler = Callable[[ThousandBot, ThousandObservation, Knowledge], list[int]]


def talon_sampler(seen: int) -> Sampler:
    """A ``ThousandBot._talons`` that deals ``seen`` cards of the kept talon into every sampled talon."""

    def talons(self: ThousandBot, view: ThousandObservation, know: Knowledge) -> list[int]:
        cards = [c for c in range(24) if _TALON[0] >> c & 1]
        known = random.Random(_TALON[0]).sample(cards, seen)  # the same cards at every seat of the deal
        unseen = [c for c in range(24) if not know.hand >> c & 1 and c not in known]
        rng = self._rng
        return [sum(1 << c for c in known + rng.sample(unseen, 3 - seen)) for _ in range(self._samples)]

    return talons


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seen", type=int, choices=(0, 1, 2, 3), required=True)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="home")
    parser.add_argument("--jobs", type=int, choices=(1, 2), default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.seen:  # before the extra process forks, which inherits both
        thousand_bots.SPEC = TalonKeepingSpec()
        ThousandBot._talons = talon_sampler(args.seen)  # type: ignore[method-assign, assignment]
    seeds = [args.seed + i for i in range(args.games)]
    began = time.time()
    if args.jobs == 2:
        with ProcessPoolExecutor(max_workers=1) as pool:
            other = pool.submit(thousand_bots.play_games, "hard", args.preset, seeds[1::2], 500)
            mine = thousand_bots.play_games("hard", args.preset, seeds[0::2], 500)
            theirs = other.result()
        games, times = mine["games"] + theirs["games"], mine["times"] + theirs["times"]
    else:
        played = thousand_bots.play_games("hard", args.preset, seeds, 500)
        games, times = played["games"], played["times"]
    figures = thousand_bots.summary("hard", games, times)
    figures["goals"] = {}  # a measurement, not a level: issue 14's goals do not apply
    if args.json:
        print(json.dumps({"seen": args.seen, "seconds": round(time.time() - began), **figures}))
    else:
        print(f"hard, bidding as if it saw {args.seen} of the talon's 3 cards ({args.games} games):")
        print("\n".join(thousand_bots.lines(figures)))


if __name__ == "__main__":
    main()

"""Thousand's card play by search: perfect-information Monte Carlo over sampled worlds, each solved.

For a decision in the trick play the bot draws worlds consistent with its observation
(:class:`koloda.thousand.worlds.WorldSampler`: the other hands dealt again respecting every void, gift,
marriage and the talon, the public play replayed through the engine), turns each into a compact position
(:func:`koloda.thousand.solver.position`) and values every legal move in it with
:func:`koloda.thousand.solver.evaluate`: the playout policy plays on until every hand holds at most
``cards`` cards, and the rest of the deal is solved exactly, the declarer against the two defenders, who
play as one side. The value is the deal's worth to the declarer's side under the score book
(:func:`koloda.thousand.solver.objective`: his contract, and what each defender's points count for him);
a defender takes its negative. Every move is valued in the same worlds, so the comparison between moves
is paired; the move with the best mean is played when it beats the bot's default move (its heuristic's) by
``margin`` standard errors of the paired difference, else the default stands.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from koloda.thousand import solver
from koloda.thousand.knowledge import TrickMemory
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions
from koloda.thousand.worlds import WorldSampler


class PlaySearch:
    """The search of one bot (module docstring). ``iters`` is the budget of (world, move) evaluations per
    decision (the worlds are ``iters`` divided by the moves, at least 2); ``ms`` a time budget instead;
    ``cards`` the hand size from which the rest is solved exactly (8: all of it)."""

    def __init__(
        self,
        seed: int,
        options: ThousandOptions,
        memory: TrickMemory,
        *,
        iters: int,
        cards: int,
        margin: float,
        ms: int | None = None,
        max_worlds: int = 64,
    ) -> None:
        self._rng = random.Random(seed)
        self._options = options
        self._sampler = WorldSampler(options, memory)
        self.iters = iters
        self.cards = cards
        self.margin = margin
        self.ms = ms
        self.max_worlds = max_worlds
        #: (world, move) evaluations of the last decision, and the worlds drawn (for the benchmarks).
        self.last_iterations = 0
        self.last_worlds = 0

    def values(self, view: ThousandObservation, legal: Sequence[int]) -> dict[int, float]:
        """Every legal move's mean value to this seat over the sampled worlds (points of the declarer's
        objective, negated for a defender); empty when no world is found."""
        moves = sorted(legal)
        totals, _, drawn = self._search(view, moves, 0)
        return {m: t / drawn for m, t in zip(moves, totals, strict=True)} if drawn else {}

    def choose(self, view: ThousandObservation, legal: Sequence[int], default: int) -> int:
        """The searched move, or ``default`` when no world is found or no move beats it clearly."""
        self.last_iterations = self.last_worlds = 0
        moves = sorted(legal)
        k = len(moves)
        if k < 2:
            return default
        d = moves.index(default) if default in moves else 0
        totals, diffs, drawn = self._search(view, moves, d)
        if drawn == 0:
            return default
        best = max(range(k), key=lambda i: (totals[i], i == d))  # a tie keeps the default
        if best == d or drawn < 2:
            return moves[best] if drawn >= 2 else default
        gaps = diffs[best]
        mean = sum(gaps) / drawn
        var = sum((g - mean) ** 2 for g in gaps) / (drawn - 1)
        if mean <= self.margin * math.sqrt(var / drawn):
            return default
        return moves[best]

    def _search(
        self, view: ThousandObservation, moves: list[int], d: int
    ) -> tuple[list[float], list[list[float]], int]:
        """The sums of every move's values over the worlds drawn, each move's differences from move ``d``
        world by world, and the number of worlds."""
        k = len(moves)
        worlds = max(2, min(self.max_worlds, -(-self.iters // k)))
        deadline = None if self.ms is None else time.perf_counter() + self.ms / 1000
        totals = [0.0] * k
        diffs: list[list[float]] = [[] for _ in range(k)]
        rules: solver.Rules | None = None
        sign = 1
        drawn = 0
        while drawn < worlds or deadline is not None:
            if deadline is not None and time.perf_counter() >= deadline and drawn >= 2:
                break
            world = self._sampler(view, self._rng)
            if world is None:
                break
            pos, seats = solver.position(world)
            if rules is None:
                rules = solver.rules_of(self._options, solver.objective(world, seats))
                sign = 1 if view.seat == seats[0] else -1
            values = solver.evaluate(pos, rules, self.cards)
            if len(values) != k:  # pragma: no cover - the sampler's worlds agree with the view's moves
                continue
            drawn += 1
            for i, v in enumerate(values):
                totals[i] += sign * v
                diffs[i].append(sign * (v - values[d]))
            if deadline is None and drawn >= worlds:
                break
        self.last_worlds = drawn
        self.last_iterations = drawn * k
        return totals, diffs, drawn

"""The coach's rater for Bank (docs/analysis.md): the search bot's worlds and playouts, every move valued.

At a decision the rater draws ``worlds`` deals consistent with the seat's observation
(:class:`koloda.bank.worlds.WorldSampler`, as the search bot does), plays every legal move in each of them
and the deal out to its end with the same playout randomness for every move (a paired comparison: the
difference between two moves is measured without the luck of the deal), and scores the end by the search
bot's utility (:func:`koloda.bots.bank.utility`: the seat's points in the deal minus the others' mean).
The playouts are the heuristic bot's moves (:class:`koloda.bots.bank.BankHeuristicBot`, from each seat's
own observation of the world) with a share ``noise`` of random moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.bank.observe import BankObservation, observe
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState
from koloda.bank.worlds import WorldSampler
from koloda.bots.bank import BankHeuristicBot, utility
from koloda.coach import Thresholds
from koloda.options import Options

#: Bank's marks (docs/analysis.md): a move that loses 10 points of the deal against the best is a mistake,
#: 25 points a blunder (a rich bank is 30 to 60 points).
THRESHOLDS = Thresholds(mistake=10.0, blunder=25.0)


class BankRater:
    """Values every legal move of a Bank seat over ``worlds`` sampled deals (module docstring)."""

    thresholds = THRESHOLDS

    def __init__(self, options: Options | None = None, *, worlds: int = 512, noise: float = 0.0) -> None:
        opts = options if isinstance(options, BankOptions) else BankOptions()
        self._sampler = WorldSampler(opts)
        self._options = opts
        self._worlds = worlds
        self._noise = noise

    def values(
        self, observation: Any, legal: Sequence[int], rng: random.Random
    ) -> Mapping[int, float] | None:
        assert isinstance(observation, BankObservation)
        seat = observation.seat
        if len(legal) < 2 or seat is None:
            return None
        totals = dict.fromkeys(legal, 0.0)
        drawn = 0
        for _ in range(self._worlds):
            world = self._sampler(observation, rng)
            if world is None:
                break
            round_seed = rng.getrandbits(32)
            for action in legal:
                sim = world.copy()
                sim.apply(action)
                totals[action] += self._playout(sim, seat, round_seed)
            drawn += 1
        if drawn == 0:
            return None
        return {a: t / drawn for a, t in totals.items()}

    def _playout(self, sim: BankState, seat: int, seed: int) -> float:
        bot = BankHeuristicBot(seed, noise=self._noise, options=self._options)
        while not sim.is_over():
            legal = sim.legal_actions()
            player = sim.current_player
            assert player is not None
            sim.apply(legal[0] if len(legal) == 1 else bot.choose(observe(sim, player), legal))
        return utility(sim, seat)

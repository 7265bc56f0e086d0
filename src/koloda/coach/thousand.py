"""The coach's rater for Thousand (docs/analysis.md): the bots' own valuation of every action.

Every value is the seat's expected change of score in the deal minus the others' mean change, in points
of score (the measure of :mod:`koloda.bots.thousand_eval`).

- **Bidding, the talon and the contract**: :meth:`koloda.bots.thousand.ThousandBot.action_values`, the
  bots' estimator over ``talons`` talons the auction allows (a bid: being the declarer at it or above; a
  pass: the seat's defence against the likely declarer; a gift: the best contract the cards kept make; a
  contract: its chance under the score book; the bomb). A fresh bot per decision, seeded from the
  decision's stream, shares the rater's trick memory.
- **Card play**: the search's worlds (:class:`koloda.bots.thousand_search.PlaySearch`, ``worlds`` worlds
  consistent with the seat's view), every legal move solved in each (:func:`koloda.thousand.solver.
  evaluate`: the rest of the current trick by the playout policy while the hands hold eight cards, then
  exactly, both sides playing perfectly; ``exact`` = 8 solves the first trick too, at five times the
  cost). The search's values are the declarer's objective in half points (his contract under the score
  book, less the defenders' points), negated for a defender (the defenders play as one side); the rater
  halves them and moves their zero (the contract failed, no defender's point) to the declarer's change
  for a failed contract, so that card play and contract are valued on one scale.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.bots.thousand import ThousandBot
from koloda.bots.thousand_eval import Stakes
from koloda.bots.thousand_search import PlaySearch
from koloda.coach import Thresholds
from koloda.options import Options
from koloda.thousand.knowledge import TrickMemory, knowledge
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions

#: Thousand's marks (docs/analysis.md): 15 points of score lost against the best move is a mistake, 40 a
#: blunder (a contract of 100 made or failed is 200 points apart).
THRESHOLDS = Thresholds(mistake=15.0, blunder=40.0)


class ThousandRater:
    """Values every legal action of a Thousand seat (module docstring): ``worlds`` solved worlds per card
    played, ``talons`` talons per bid, ``exact`` the hand size from which a world is solved exactly. One
    rater follows one seat through a game: its trick memory needs every view of that seat at its turns, in
    order."""

    thresholds = THRESHOLDS

    def __init__(
        self, options: Options | None = None, *, worlds: int = 48, talons: int = 64, exact: int = 7
    ) -> None:
        self._options = options if isinstance(options, ThousandOptions) else ThousandOptions()
        self._memory = TrickMemory()
        self._worlds = worlds
        self._talons = talons
        self._exact = exact

    def values(
        self, observation: Any, legal: Sequence[int], rng: random.Random
    ) -> Mapping[int, float] | None:
        assert isinstance(observation, ThousandObservation)
        view = observation
        knowledge(view, self._memory)  # the trick memory follows every view, forced moves' too
        if len(legal) < 2 or view.seat is None:
            return None
        seed = rng.getrandbits(32)
        if view.phase != "playing":
            bot = ThousandBot(seed, options=self._options, samples=self._talons, memory=self._memory)
            return bot.action_values(view, legal)
        search = PlaySearch(
            seed,
            self._options,
            self._memory,
            iters=self._worlds * len(legal),
            cards=self._exact,
            margin=0.0,
            max_worlds=self._worlds,
        )
        values = search.values(view, legal)
        if not values:
            return None
        assert view.declarer is not None and view.contract is not None  # the playing phase
        active = tuple(p for p in range(view.players) if view.players == 3 or p != view.dealer)
        stakes = Stakes(self._options, view.standings, view.seat, active)
        failed = stakes.contract(view.declarer, view.contract, False)  # the objective's zero
        sign = 1 if view.seat == view.declarer else -1
        return {a: v / 2 + sign * failed for a, v in values.items()}

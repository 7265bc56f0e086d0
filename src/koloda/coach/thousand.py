"""The coach's rater for Thousand (docs/analysis.md): the bots' estimator and their solved worlds.

Every value is the seat's expected change of score in the deal minus the others' mean change, in points
of score (the measure :mod:`koloda.bots.thousand_eval` uses):

- **Bidding**: the estimator (:mod:`koloda.bots.thousand_eval`) over ``talons`` talons the auction allows.
  A bid is valued as being the declarer at that bid or above: for each talon, the two cards
  :func:`~koloda.bots.thousand_eval.gifts` gives away, then the best contract from the bid up (or a bomb,
  when the seat has one left). Passing is valued as the bot values it: this seat's defence against the
  likely declarer, who makes his bid with the chance the bots measured.
- **The talon** (the two gifts): the best contract the eight cards kept make, by the estimator; the first
  gift is valued with the best second gift after it.
- **The contract** (or the bomb): the estimator's chance of making each contract, weighed by the score
  book; a bomb as the bot values it (the defenders' points, and a bomb kept for later deals).
- **Card play**: ``worlds`` worlds consistent with the seat's view (:class:`koloda.thousand.worlds.
  WorldSampler`), each solved after every legal move (:func:`koloda.thousand.solver.evaluate`: the rest
  of the first trick by the playout policy, then from seven cards a hand on exactly, both sides playing
  perfectly; ``exact`` = 8 solves the first trick too, at five times the cost), with the objective the
  search bot uses (the declarer's contract under the score book, less the defenders' points); a
  defender takes its negative (the defenders play as one side). Every move is valued in the same
  worlds. The objective's zero (the contract failed, no defender's point) is moved to the declarer's
  change for a failed contract, so that card play and contract are valued on one scale.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from koloda.bots.thousand import BIDDER_MADE, BOMB_RESERVE, FORCED_MADE
from koloda.bots.thousand_eval import (
    Stakes,
    bomb_value,
    cap_for,
    contract_levels,
    contract_values,
    defence_points,
    estimator,
    gifts,
)
from koloda.coach import Thresholds
from koloda.options import Options
from koloda.thousand import solver
from koloda.thousand.actions import BID, BOMB, GIVE, PASS, action_bid, bid_action
from koloda.thousand.deal import NEXT
from koloda.thousand.knowledge import Knowledge, TrickMemory, knowledge
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions
from koloda.thousand.worlds import WorldSampler

#: Thousand's marks (docs/analysis.md): 15 points of score lost against the best move is a mistake, 40 a
#: blunder (a contract of 100 made or failed is 200 points apart).
THRESHOLDS = Thresholds(mistake=15.0, blunder=40.0)
#: Hands dealt again per talon drawn before an opponent's bid above the cap shows a marriage (rule G6).
_TRIES = 20


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
        self._sampler = WorldSampler(self._options, self._memory)
        self._worlds = worlds
        self._talons = talons
        self._exact = exact

    def values(
        self, observation: Any, legal: Sequence[int], rng: random.Random
    ) -> Mapping[int, float] | None:
        assert isinstance(observation, ThousandObservation)
        view = observation
        know = knowledge(view, self._memory)  # the trick memory follows every view
        if len(legal) < 2 or view.seat is None:
            return None
        if view.phase == "bidding":
            return self._bids(view, know, legal, rng)
        if view.phase == "giving":
            return self._gifts(view, know, legal)
        if view.phase == "contract":
            return self._contracts(view, know, legal)
        if view.phase == "playing":
            return self._cards(view, legal, rng)
        return None

    # -- the estimator's decisions -------------------------------------------------------------------

    def _stakes(self, view: ThousandObservation) -> Stakes:
        assert view.seat is not None
        active = tuple(p for p in range(view.players) if view.players == 3 or p != view.dealer)
        return Stakes(self._options, view.standings, view.seat, active)

    def _bomb(self, view: ThousandObservation, stakes: Stakes) -> float | None:
        """What a bomb is worth to this seat, or None when it has none left."""
        limit = self._options.bombs_per_game
        assert view.seat is not None
        if limit is not None and view.standings[view.seat].bombs >= limit:
            return None
        return bomb_value(stakes) - (0.0 if limit is None else BOMB_RESERVE)

    def _from(self, stakes: Stakes, kept: int, low: int, bomb: float | None) -> float:
        """The best of the contracts from ``low`` up (and the bomb) for the eight cards ``kept``."""
        mean, sd = estimator().points(kept, self._options)
        levels = contract_levels(self._options, low, max(low, cap_for(self._options, kept)))
        best = max(contract_values(stakes, mean, sd, levels))
        return best if bomb is None else max(best, bomb)

    def _bids(
        self, view: ThousandObservation, know: Knowledge, legal: Sequence[int], rng: random.Random
    ) -> dict[int, float]:
        stakes = self._stakes(view)
        bomb = self._bomb(view, stakes)
        bids = sorted(action_bid(a) for a in legal if BID <= a < GIVE)
        totals = dict.fromkeys(bids, 0.0)
        talons = self._draw_talons(view, know, rng)
        step = self._options.bid_step
        for talon in talons:
            ten = know.hand | talon
            a, b = gifts(ten)
            kept = ten & ~(1 << a) & ~(1 << b)
            mean, sd = estimator().points(kept, self._options)
            top = max(bids[-1], cap_for(self._options, kept))
            levels = contract_levels(self._options, bids[0], top)
            values = contract_values(stakes, mean, sd, levels)
            best = {}
            running = -1e18
            for level, value in zip(reversed(levels), reversed(values), strict=True):
                running = max(running, value)  # a bid of ``level`` may name any contract from it up
                best[level] = running if bomb is None else max(running, bomb)
            for bid in bids:
                totals[bid] += best[bid - (bid - bids[0]) % step]
        out = {bid_action(bid): total / len(talons) for bid, total in totals.items()}
        if PASS in legal:
            out[PASS] = self._pass_value(view, know, stakes)
        return out

    def _draw_talons(self, view: ThousandObservation, know: Knowledge, rng: random.Random) -> list[int]:
        """Talons the auction allows: the unseen cards dealt at random, again (a few times) while an
        opponent who bid above the cap of a hand without a marriage (rule G6) would hold none."""
        unseen = [c for c in range(24) if not know.hand >> c & 1]
        limit = cap_for(self._options, 0)
        high: dict[int, int] = {}
        for seat, text in view.bids[1:]:
            if text.isdigit() and int(text) > limit and seat != view.seat:
                high[seat] = max(high.get(seat, 0), int(text))
        others = [
            p for p in range(view.players) if p != view.seat and (view.players == 3 or p != view.dealer)
        ]
        out = []
        for _ in range(self._talons):
            cards = rng.sample(unseen, len(unseen))
            for _try in range(_TRIES):
                hands = {p: sum(1 << c for c in cards[7 * i : 7 * i + 7]) for i, p in enumerate(others)}
                if all(cap_for(self._options, hands[p]) >= bid for p, bid in high.items()):
                    break
                cards = rng.sample(unseen, len(unseen))
            out.append(sum(1 << c for c in cards[14:17]))
        return out

    def _pass_value(self, view: ThousandObservation, know: Knowledge, stakes: Stakes) -> float:
        """Passing: this seat's defence, less the likely declarer's change and the other defender's (their
        mean); the likely declarer is the highest bidder so far, who makes his bid with the chance the bots
        measured (:data:`koloda.bots.thousand.FORCED_MADE`, :data:`~koloda.bots.thousand.BIDDER_MADE`)."""
        seat = view.seat
        assert seat is not None
        first = NEXT[view.players, view.dealer][view.dealer]
        high_seat = first
        for s, text in view.bids[1:]:
            if text.isdigit():
                high_seat = s
        if high_seat == seat:
            high_seat = first
        others = [p for p in stakes.active if p != seat]
        forced = high_seat == first and view.high_bid == self._options.min_bid
        q = FORCED_MADE if forced else BIDDER_MADE
        bid = view.high_bid
        declarer = q * stakes.contract(high_seat, bid, True) + (1 - q) * stakes.contract(
            high_seat, bid, False
        )
        rest = [stakes.defence(p, 25) for p in others if p != high_seat]
        mine = stakes.defence(seat, defence_points(know.hand))
        return mine - (declarer + sum(rest)) / len(others)

    def _gifts(self, view: ThousandObservation, know: Knowledge, legal: Sequence[int]) -> dict[int, float]:
        stakes = self._stakes(view)
        bomb = self._bomb(view, stakes)
        hand = know.hand
        second = len(know.gifts) == 1  # one card given already: this one leaves the eight kept
        out = {}
        for action in legal:
            card = (action - GIVE) // 2
            rest = hand & ~(1 << card)
            if second:
                out[action] = self._from(stakes, rest, view.high_bid, bomb)
            else:
                out[action] = max(
                    self._from(stakes, rest & ~(1 << c), view.high_bid, bomb)
                    for c in range(24)
                    if rest >> c & 1
                )
        return out

    def _contracts(
        self, view: ThousandObservation, know: Knowledge, legal: Sequence[int]
    ) -> dict[int, float]:
        stakes = self._stakes(view)
        mean, sd = estimator().points(know.hand, self._options)
        contracts = [a for a in legal if BID <= a < GIVE]
        values = contract_values(stakes, mean, sd, [action_bid(a) for a in contracts])
        out = dict(zip(contracts, values, strict=True))
        if BOMB in legal:
            limit = self._options.bombs_per_game
            out[BOMB] = bomb_value(stakes) - (0.0 if limit is None else BOMB_RESERVE)
        return out

    # -- card play: solved worlds --------------------------------------------------------------------

    def _cards(
        self, view: ThousandObservation, legal: Sequence[int], rng: random.Random
    ) -> dict[int, float] | None:
        moves = sorted(legal)
        totals = [0.0] * len(moves)
        assert view.declarer is not None and view.contract is not None  # the playing phase
        stakes = self._stakes(view)
        failed = stakes.contract(view.declarer, view.contract, False)  # the objective's zero
        drawn = 0
        for _ in range(self._worlds):
            world = self._sampler(view, rng)
            if world is None:
                break
            pos, seats = solver.position(world)
            rules = solver.rules_of(self._options, solver.objective(world, seats))
            sign = 1 if view.seat == seats[0] else -1
            values = solver.evaluate(pos, rules, self._exact)
            if len(values) != len(moves):  # pragma: no cover - a world agrees with the view's moves
                continue
            for i, v in enumerate(values):
                totals[i] += sign * (v / 2 + failed)  # the objective counts half points
            drawn += 1
        if drawn == 0:
            return None
        return {a: t / drawn for a, t in zip(moves, totals, strict=True)}

"""Thousand's bots: one player whose levels differ only in how much it computes (docs/bots.md).

Everything starts from a :class:`koloda.thousand.observe.ThousandObservation` (rule G15): what the seat
knows is rebuilt from it by :func:`koloda.thousand.knowledge.knowledge`.

- **Bidding, the talon and the contract** are valued by :mod:`koloda.bots.thousand_eval`: the estimator of
  what an 8-card declarer hand makes, averaged over the talons the auction allows, weighed by the score
  book's stakes (rules S1-S13). The bot raises while being the declarer beats passing by a margin
  (opening the auction on the talon's hope with a marriage or an ace); with the talon it gives away the
  pair of cards that leaves the best contract, and names the contract (or the bomb) of the highest value.
  With ``talon`` > 0 (``hard``) the gifts and the contract are valued instead by playing the deal out in
  that many sampled worlds per candidate (the search's playouts and solver).
- **Card play**: the heuristic (:class:`CardPlay`) alone, or the search
  (:class:`koloda.bots.thousand_search.PlaySearch`), which overrules the heuristic's card only when its
  sampled worlds show a clearly better one.
- :meth:`ThousandBot.action_values` gives every legal action's value as the bot reckons it (for a coach).

>>> from koloda.thousand import new_game, observe
>>> state = new_game(seed=5, scope="deal")
>>> bots = [ThousandBot(seat, samples=8) for seat in range(3)]
>>> while not state.is_over():
...     seat = state.current_player
...     state.apply(bots[seat].choose(observe(state, seat), state.legal_actions()))
>>> len(state.results)
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from koloda.bots.base import Bot, BotSpec
from koloda.bots.thousand_eval import (
    DEFENDER_POINTS,
    Stakes,
    bomb_value,
    cap_for,
    contract_levels,
    contract_values,
    defence_points,
    estimator,
    gift_pairs,
    gifts,
    is_top,
    playouts,
)
from koloda.bots.thousand_search import PlaySearch
from koloda.errors import IllegalActionError
from koloda.thousand import solver
from koloda.thousand.actions import (
    ACES,
    ALL_ACES,
    BID,
    BOMB,
    GIVE,
    MARRIAGE_VALUES,
    MARRY,
    PASS,
    POINTS,
    STRENGTH,
    action_bid,
    bid_action,
    marriages_held,
)
from koloda.thousand.deal import NEXT
from koloda.thousand.knowledge import Knowledge, TrickMemory, knowledge
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions

_QUEEN, _KING = 3, 4
_ALL = (1 << 24) - 1


def _beats(card: int, target: int, trump: int) -> bool:
    if card // 6 == target // 6:
        return STRENGTH[card] > STRENGTH[target]
    return card // 6 == trump


def _marriage_value(action: int) -> int:
    return 200 if action >= ACES else MARRIAGE_VALUES[(action - MARRY) // 2]


class CautiousRandomBot:
    """Random, but passes in the bidding, keeps the bid after the talon unless a higher contract would win
    the game at once (200 points or less from the target), and declares every marriage it may.

    Uniformly random bidders overbid every deal, fail, and a game of them drifts below zero for ever
    (docs/rules/thousand.md G14): whole-game tests and golden games use these to reach the end.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: ThousandObservation, legal: Sequence[int]) -> int:
        if view.phase == "bidding":
            return PASS
        if view.phase == "contract":  # keep the bid, or raise to what wins the game at once
            assert view.seat is not None  # a seat's observation, never a spectator's
            need = view.target - view.totals[view.seat]
            winning = [a for a in legal if BID <= a < GIVE and action_bid(a) >= need]
            return winning[0] if winning and need <= 200 else legal[0]
        marriages = [a for a in legal if MARRY <= a < PASS]
        if marriages:
            return self._rng.choice(marriages)
        return self._rng.choice(legal)


# -- card play by rules of thumb ---------------------------------------------------------------------------


class CardPlay:
    """The heuristic's trick play, from what the seat knows (cards gone, voids, the trump): it leads its
    richest marriage once it may declare it, then boss cards (trump bosses first while trumps are out),
    else its cheapest card outside marriages; following, a defender smears points on his partner's sure
    trick, the last hand wins a trick worth taking with its cheapest winner, the second hand wins only
    with a card no unseen card of the suit beats, and otherwise it throws its cheapest card."""

    @staticmethod
    def move(view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
        trump = know.trump
        unseen = _ALL & ~know.gone & ~know.hand
        trick = know.tricks[-1][1] if view.trick is not None else ()
        if not trick:
            marriages = [a for a in legal if MARRY <= a < BID and a != PASS]
            if marriages:  # declare the richest marriage, leading its king
                return max(marriages, key=lambda a: (_marriage_value(a), a % 2 if a < ACES else 0))
            return CardPlay._lead(know, legal, unseen, trump)
        cards = [a for a in legal if a < MARRY]
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            if _beats(card, best, trump):
                best_seat, best = seat, card
        trick_points = sum(POINTS[c] for _, c in trick)
        last = len(trick) == 2
        friend = (
            know.declarer is not None
            and know.seat != know.declarer
            and best_seat != know.declarer
            and best_seat != know.seat
        )
        winners = [c for c in cards if _beats(c, best, trump)]
        if friend and (last or CardPlay._safe(best, unseen, trump)):
            return max(cards, key=lambda c: (POINTS[c], -STRENGTH[c]))  # give points to the partner
        if winners:
            if last:
                if trick_points > 0 or min(POINTS[c] for c in winners) == 0:
                    return min(winners, key=lambda c: (POINTS[c], STRENGTH[c]))
            else:
                safe = [c for c in winners if CardPlay._safe(c, unseen, trump)]
                if safe:
                    return min(safe, key=lambda c: (POINTS[c], STRENGTH[c]))
        return min(cards, key=lambda c: (POINTS[c], STRENGTH[c], c // 6 == trump))

    @staticmethod
    def _safe(card: int, unseen: int, trump: int) -> bool:
        """Whether no unseen card of the suit beats it (trumps from a void are not counted)."""
        return not any(
            unseen >> c & 1 and _beats(c, card, -1) for c in range(card // 6 * 6, card // 6 * 6 + 6)
        )

    @staticmethod
    def _lead(know: Knowledge, legal: list[int], unseen: int, trump: int) -> int:
        cards = [a for a in legal if a < MARRY]
        if not cards:
            return legal[0]
        bosses = [c for c in cards if CardPlay._safe(c, unseen, trump)]
        if trump >= 0 and unseen >> (trump * 6) & 63:  # an opponent may ruff: lead bosses of trump first
            trump_bosses = [c for c in bosses if c // 6 == trump]
            if trump_bosses:
                return max(trump_bosses, key=lambda c: POINTS[c])
        if bosses:
            return max(bosses, key=lambda c: (POINTS[c], STRENGTH[c]))

        def lead_cost(c: int) -> tuple[int, int, int]:
            s = c // 6
            in_marriage = know.hand >> (s * 6 + _QUEEN) & know.hand >> (s * 6 + _KING) & 1
            return (int(in_marriage), int(s == trump), POINTS[c])

        return min(cards, key=lead_cost)


# -- the player ----------------------------------------------------------------------------------------------

#: The chance that a declarer makes his contract, as the others reckon it when they pass: the first hand
#: left at the compulsory bid, and a player who bid (measured in the bots' own games, docs/bots.md).
FORCED_MADE = 0.6
BIDDER_MADE = 0.85
#: How much more than passing being the declarer must be worth before the bot bids (points of score): the
#: winner of an auction is the bidder whose estimate was highest, so an even margin overbids (at 0,
#: ``hard``'s contracts won at 110 or more without a raise were made 43%; at 15, 76%: docs/bots.md); and
#: before it opens the auction over the first hand's compulsory bid with a marriage or an ace of its own:
#: less, as players do (opening on the talon's hope keeps the first hand from playing most deals at the
#: forced 100, docs/bots.md). A hand with neither opens only on its value.
MARGIN = 15.0
OPEN_MARGIN = -40.0
#: What a bomb still in hand is worth for later deals, when bombs are limited.
BOMB_RESERVE = 20.0


class ThousandBot:
    """Koloda's Thousand player (module docstring). ``samples``: talons drawn to value a bid; ``talon``:
    sampled worlds per candidate gift to value the gifts and the contract by play (0: by the estimator);
    ``search``: the card play's search (None: the heuristic alone); ``noise``: a share of random moves
    (no level uses it)."""

    def __init__(
        self,
        seed: int = 0,
        *,
        options: ThousandOptions | None = None,
        samples: int = 24,
        talon: int = 0,
        talon_cards: int = 6,
        search: PlaySearch | None = None,
        noise: float = 0.0,
        memory: TrickMemory | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self._options = options or ThousandOptions()
        self._memory = memory if memory is not None else TrickMemory()
        self._samples = samples
        self._talon = talon
        self._talon_cards = talon_cards
        self._search = search
        self._noise = noise
        self._plan: tuple[int, int, int] | None = None  # (deal, first gift action, second gift action)
        self._played: dict[tuple[int, int], list[int]] = {}  # (deal, kept hand) -> simulated points
        #: Iterations of the last searched decision (the benchmarks read it).
        self.last_iterations = 0

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise IllegalActionError("no legal action to choose from: the game is over")
        assert isinstance(observation, ThousandObservation)
        view = observation
        know = knowledge(view, self._memory)  # keeps the trick memory current on every turn
        self.last_iterations = 0
        if self._noise and self._rng.random() < self._noise:
            return legal_actions[self._rng.randrange(len(legal_actions))]
        legal = list(legal_actions)
        if len(legal) == 1:
            return legal[0]
        if view.phase == "bidding":
            return self._bid(view, know, legal)
        if view.phase == "giving":
            return self._give(view, know, legal)
        if view.phase == "contract":
            return self._contract(view, know, legal)
        default = CardPlay.move(view, know, legal)
        if self._search is None:
            return default
        move = self._search.choose(view, legal, default)
        self.last_iterations = self._search.last_iterations
        return move

    # -- what the table looks like -----------------------------------------------------------------------

    def _stakes(self, view: ThousandObservation) -> Stakes:
        assert view.seat is not None
        active = tuple(p for p in range(view.players) if view.players == 3 or p != view.dealer)
        return Stakes(self._options, view.standings, view.seat, active)

    def _bomb_allowed(self, view: ThousandObservation) -> bool:
        limit = self._options.bombs_per_game
        assert view.seat is not None
        return limit is None or view.standings[view.seat].bombs < limit

    def _contract_table(
        self, stakes: Stakes, hand: int, low: int, bomb: bool, top: int = 0
    ) -> dict[int, float]:
        """The value of every contract from ``low`` to the hand's cap (or ``top``) for an 8-card hand by
        the estimator, and the bomb's (key -1) when it may be called."""
        mean, sd = estimator().points(hand, self._options)
        levels = contract_levels(self._options, low, max(low, top, cap_for(self._options, hand)))
        table = dict(zip(levels, contract_values(stakes, mean, sd, levels), strict=True))
        if bomb:
            table[-1] = bomb_value(stakes) - self._reserve()
        return table

    def _best_contract(self, stakes: Stakes, hand: int, low: int, bomb: bool) -> tuple[float, int]:
        """The value of the best contract from ``low`` for an 8-card hand (the bomb's, as -1, if better)."""
        return _best(self._contract_table(stakes, hand, low, bomb))

    def _reserve(self) -> float:
        return 0.0 if self._options.bombs_per_game is None else BOMB_RESERVE

    # -- bidding --------------------------------------------------------------------------------------------

    def _bid(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
        bids = [a for a in legal if BID <= a < GIVE]
        if not bids:
            return PASS
        values = self._bid_values(view, know, [PASS, min(bids)])
        hope = know.hand & ALL_ACES or marriages_held(know.hand, self._options.ace_marriage)
        margin = OPEN_MARGIN if self._opening(view) and hope else MARGIN
        wanted = values[PASS] + margin
        return min(bids) if values[min(bids)] > wanted else PASS

    def _bid_values(self, view: ThousandObservation, know: Knowledge, actions: list[int]) -> dict[int, float]:
        """Passing's value, and each bid's: the mean over the talons the auction allows of the best
        contract (or bomb) the bot could name from that bid after giving two cards away."""
        stakes = self._stakes(view)
        bomb = self._bomb_allowed(view)
        bids = [action_bid(a) for a in actions if a != PASS]
        totals = dict.fromkeys(bids, 0.0)
        talons = self._talons(view, know) if bids else []
        for talon in talons:
            ten = know.hand | talon
            a, b = gifts(ten)
            kept = ten & ~(1 << a) & ~(1 << b)
            table = self._contract_table(stakes, kept, min(bids, default=0), bomb, max(bids, default=0))
            for bid in bids:
                totals[bid] += max(v for level, v in table.items() if level >= bid or level < 0)
        out = {bid_action(bid): total / len(talons) for bid, total in totals.items()}
        if PASS in actions:
            out[PASS] = self._pass_value(view, know, stakes)
        return out

    def _opening(self, view: ThousandObservation) -> bool:
        """Whether no one has bid yet above the first hand's compulsory bid."""
        return view.high_bid == self._options.min_bid

    def _talons(self, view: ThousandObservation, know: Knowledge) -> list[int]:
        """Talons the auction allows: the unseen cards dealt at random, again while an opponent who bid
        above the cap without a marriage (rule G6) would hold none (a few tries)."""
        unseen = [c for c in range(24) if not know.hand >> c & 1]
        limit = cap_for(self._options, 0)  # the cap of a hand without a marriage
        high: dict[int, int] = {}
        for seat, text in view.bids[1:]:
            if text.isdigit() and int(text) > limit and seat != view.seat:
                high[seat] = max(high.get(seat, 0), int(text))
        others = [
            p for p in range(view.players) if p != view.seat and (view.players == 3 or p != view.dealer)
        ]
        out = []
        for _ in range(self._samples):
            for _try in range(20):
                cards = self._rng.sample(unseen, len(unseen))
                hands = {p: sum(1 << c for c in cards[7 * i : 7 * i + 7]) for i, p in enumerate(others)}
                if all(cap_for(self._options, hands[p]) >= bid for p, bid in high.items()):
                    break
            out.append(sum(1 << c for c in cards[14:17]))
        return out

    def _pass_value(self, view: ThousandObservation, know: Knowledge, stakes: Stakes) -> float:
        """What passing is worth: this seat's defence, less the likely declarer's and the other defender's
        changes (their mean)."""
        seat = view.seat
        assert seat is not None
        first = NEXT[view.players, view.dealer][view.dealer]
        high_seat = first
        for s, text in view.bids[1:]:
            if text.isdigit():
                high_seat = s
        others = [p for p in stakes.active if p != seat]
        if high_seat == seat:  # cannot happen at one's own turn; counted as the first hand's
            high_seat = first
        forced = high_seat == first and view.high_bid == self._options.min_bid
        q = FORCED_MADE if forced else BIDDER_MADE
        bid = view.high_bid
        declarer = q * stakes.contract(high_seat, bid, True) + (1 - q) * stakes.contract(
            high_seat, bid, False
        )
        rest = [stakes.defence(p, DEFENDER_POINTS) for p in others if p != high_seat]
        mine = stakes.defence(seat, defence_points(know.hand))
        return mine - (declarer + sum(rest)) / len(others)

    # -- the talon ------------------------------------------------------------------------------------------

    def _give(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
        plan = self._plan
        if plan is None or plan[0] != view.deal:
            plan = self._plan = (view.deal, *self._choose_gifts(view, know))
        for action in plan[1:]:
            if action in legal:
                return action
        return min(legal)  # pragma: no cover - the plan's gifts are legal

    def _choose_gifts(self, view: ThousandObservation, know: Knowledge) -> tuple[int, int]:
        """The gift actions (first opponent, second opponent) leaving the best contract."""
        stakes = self._stakes(view)
        ten = know.hand
        bomb = self._bomb_allowed(view)
        pairs = gift_pairs(ten, 45)
        scored = []
        for a, b in pairs:
            value = self._best_contract(stakes, ten & ~(1 << a) & ~(1 << b), view.high_bid, bomb)[0]
            scored.append((value, (a, b)))
        scored.sort(key=lambda item: -item[0])
        if self._talon <= 0:
            a, b = scored[0][1]
            return GIVE + 2 * a, GIVE + 2 * b + 1
        best, choice = -1e9, (scored[0][1][0], scored[0][1][1])
        for _, (a, b) in scored[:3]:
            for first, second in ((a, b), (b, a)):
                value = self._played_value(view, know, stakes, first, second, bomb)
                if value > best:
                    best, choice = value, (first, second)
        return GIVE + 2 * choice[0], GIVE + 2 * choice[1] + 1

    def _played_points(
        self, view: ThousandObservation, know: Knowledge, first: int, second: int
    ) -> list[int]:
        """The points the declarer takes with these gifts in ``talon`` sampled worlds, played out (cached)."""
        key = (view.deal, know.hand | 1 << 30 | first << 32 | second << 40)
        cached = self._played.get(key)
        if cached is not None:
            return cached
        kept = know.hand & ~(1 << first) & ~(1 << second)
        unknown = [c for c in range(24) if not know.hand >> c & 1]
        rules = solver.rules_of(self._options, solver.Objective(bid=0, step=0, wd=1))
        rng = random.Random(hash(key) & 0xFFFFFFFF)
        out = []
        for _ in range(self._talon):
            rng.shuffle(unknown)
            one = sum(1 << c for c in unknown[:7]) | 1 << first
            two = sum(1 << c for c in unknown[7:]) | 1 << second
            pos = (kept, one, two, 0, -1, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0)
            out.append(solver.rollout(pos, rules, self._talon_cards))
        self._played = {k: v for k, v in self._played.items() if k[0] == view.deal}
        self._played[key] = out
        return out

    def _played_value(
        self, view: ThousandObservation, know: Knowledge, stakes: Stakes, first: int, second: int, bomb: bool
    ) -> float:
        points = self._played_points(view, know, first, second)
        kept = know.hand & ~(1 << first) & ~(1 << second)
        return self._value_of_points(stakes, points, kept, view.high_bid, bomb)[0]

    def _value_of_points(
        self, stakes: Stakes, points: list[int], kept: int, low: int, bomb: bool
    ) -> tuple[float, int]:
        """The best contract's value (or the bomb's, as -1) when the declarer's points are those samples."""
        return _best(self._points_table(stakes, points, kept, low, bomb))

    def _points_table(
        self, stakes: Stakes, points: list[int], kept: int, low: int, bomb: bool
    ) -> dict[int, float]:
        """Every contract's value from ``low`` (and the bomb's, key -1) when the declarer's points are
        those samples: the chance of making it as calibrated on what ``hard`` made (:func:`playouts`)."""
        calibration = playouts()
        estimate = estimator().points(kept, self._options)[0]
        levels = contract_levels(self._options, low, max(low, cap_for(self._options, kept)))
        cost = stakes.others_defending()
        table = {}
        for bid in levels:
            p = calibration.chance(points, estimate, bid)
            made, failed = stakes.contract(stakes.seat, bid, True), stakes.contract(stakes.seat, bid, False)
            table[bid] = p * made + (1 - p) * failed - cost
        if bomb:
            table[-1] = bomb_value(stakes) - self._reserve()
        return table

    def _contract_values(
        self, view: ThousandObservation, know: Knowledge, legal: list[int]
    ) -> dict[int, float]:
        """Every contract's value and the bomb's: by the deal played out in sampled worlds with the gifts
        made (``talon`` > 0), else by the estimator."""
        stakes = self._stakes(view)
        bomb = BOMB in legal
        contracts = [a for a in legal if BID <= a < GIVE]
        low = action_bid(min(contracts))
        if self._talon > 0 and len(know.gifts) == 2:
            first, second = (c for r, c in sorted(know.gifts, key=lambda g: _gift_order(view, g[0])))
            points = self._played_points(view, _with_gifts(know, first, second), first, second)
            table = self._points_table(stakes, points, know.hand, low, bomb)
        else:
            table = self._contract_table(stakes, know.hand, low, bomb)
        return {
            BOMB if level < 0 else bid_action(level): v
            for level, v in table.items()
            if (BOMB if level < 0 else bid_action(level)) in legal
        }

    def _contract(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
        values = self._contract_values(view, know, legal)
        return max(values, key=lambda a: (values[a], -a))  # a tie: the lower contract

    # -- what every action is worth (issue 17's coach reads these) -----------------------------------------

    def action_values(self, observation: object, legal_actions: Sequence[int]) -> dict[int, float]:
        """The estimated value of every legal action to the observing seat, in points of score: its own
        change in the deal less the mean change of the others (module docstring), as the bot reckons it.

        - bidding: passing, and each bid as the mean over the talons the auction allows of the best
          contract (or bomb) the bot could name from it; the bot bids when the lowest bid beats passing
          by :data:`MARGIN` (:data:`OPEN_MARGIN` when it opens the auction);
        - the talon: each gift as the best contract left after it (and after the best second gift);
        - the contract: each contract and the bomb;
        - the trick play: each card's (or marriage's) mean value over the search's sampled worlds, in
          points of the declarer's objective from this seat's side (a bot without a search uses one of
          ``medium``'s size).

        Reads the seat's memory of the tricks like :meth:`choose`, so call it with the same stream of
        observations (a fresh bot knows the tricks the observation shows).
        """
        assert isinstance(observation, ThousandObservation)
        view = observation
        know = knowledge(view, self._memory)
        legal = list(legal_actions)
        if view.phase == "bidding":
            return self._bid_values(view, know, legal)
        if view.phase == "giving":
            return self._gift_values(view, know, legal)
        if view.phase == "contract":
            return self._contract_values(view, know, legal)
        search = self._search or PlaySearch(0, self._options, self._memory, iters=48, cards=4, margin=0.5)
        values = search.values(view, legal)
        return {a: values.get(a, 0.0) for a in legal}

    def _gift_values(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> dict[int, float]:
        stakes = self._stakes(view)
        bomb = self._bomb_allowed(view)
        out = {}
        for action in legal:
            card = (action - GIVE) // 2
            rest = know.hand & ~(1 << card)
            if rest.bit_count() == 8:
                out[action] = self._best_contract(stakes, rest, view.high_bid, bomb)[0]
            else:
                out[action] = max(
                    self._best_contract(stakes, rest & ~(1 << c), view.high_bid, bomb)[0]
                    for c in range(24)
                    if rest >> c & 1
                )
        return out


def _best(table: dict[int, float]) -> tuple[float, int]:
    """The best value of a contract table and its level (-1: the bomb); a tie: the lower contract."""
    level = max(table, key=lambda k: (table[k], -k if k >= 0 else -(10**9)))
    return table[level], level


def _gift_order(view: ThousandObservation, recipient: int) -> int:
    """0 for the declarer's first opponent (the next seat in play), 1 for the second."""
    assert view.seat is not None
    return 0 if recipient == NEXT[view.players, view.dealer][view.seat] else 1


def _with_gifts(know: Knowledge, first: int, second: int) -> Knowledge:
    """The knowledge with the ten cards the declarer held before giving (the cache's key)."""
    import dataclasses

    return dataclasses.replace(know, hand=know.hand | 1 << first | 1 << second)


# -- the levels ----------------------------------------------------------------------------------------------


def make_bot(spec: BotSpec, seed: int, options: ThousandOptions | None) -> Bot:
    """The bot of a spec: ``heuristic`` (no search), ``search`` (the card play searched), or a bot of
    November 2026 (``version=2026-11``, :mod:`koloda.bots.thousand_2026_11`)."""
    opts = options or ThousandOptions()
    if spec.version == "2026-11":
        from koloda.bots import thousand_2026_11 as old

        if spec.kind == "heuristic":
            return old.ThousandHeuristicBot(seed, noise=spec.noise, options=opts)
        return old.make_search_bot(spec, seed, opts)
    memory = TrickMemory()
    search = None
    if spec.kind == "search":
        search = PlaySearch(
            seed,
            opts,
            memory,
            iters=spec.iters,
            ms=spec.ms,
            cards=spec.endgame,
            margin=0.5 if spec.margin is None else spec.margin,
        )
    return ThousandBot(
        seed,
        options=opts,
        samples=spec.samples,
        talon=spec.talon,
        search=search,
        noise=spec.noise,
        memory=memory,
    )


__all__ = ["CardPlay", "CautiousRandomBot", "ThousandBot", "is_top", "make_bot"]

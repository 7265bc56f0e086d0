"""What a hand of Thousand can make, and what the auction's and the talon's choices are worth to a seat.

**The estimator.** After the talon and the gifts the declarer holds 8 cards and leads. How many points
(cards and marriages) he takes with them is estimated from the hand alone: a linear model over its cards,
marriages, aces, tens and suit lengths (:func:`features`) gives the mean, and the spread around it is a
normal whose width grows with the mean. It was fitted by ``scripts/calibrate_thousand.py`` on random
deals played out by the search's own means (the playout policy for the first tricks, then the exact
solver, :func:`koloda.thousand.solver.rollout`) and then shifted to what the bots' real play makes; the
numbers ship with the package (``koloda/bots/data/thousand_estimator.json``) and the script makes them
again.

**The stakes.** What a deal is worth to a seat comes from the score book
(:func:`koloda.thousand.scoring.deal_delta`): a contract's worth made and failed, what a defender's points
add, a bomb; so the 800 rule, the barrel, bolts, the dump and the rounding all count the way the book
counts them. The value of a choice is the seat's expected change minus the mean change of the others
(the measure of a tournament). Reaching the target is in the book's own delta (a score that is not a made
contract stops short of it, rule S9); a bonus for winning beyond it was tried and made the bots gamble
near the end (contracts made fell from 71% to 61% at ``medium``, docs/bots.md).

**Bidding.** Before the talon the bot draws talons the auction allows (an opponent's bid above the cap
shows a marriage), gives away two cards by :func:`gifts` from each ten-card hand, and values being the
declarer at a bid as the mean, over the talons, of the best contract it could then name (or a bomb); it
raises while that beats passing by a margin.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from koloda.errors import OptionsError
from koloda.thousand.actions import ALL_ACES, DECK_POINTS, MARRIAGE_VALUES, POINTS, STRENGTH, mask_points
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import SeatState, deal_delta

_QUEEN, _KING, _ACE, _TEN = 3, 4, 5, 1
#: Cards of each suit from the strongest down (rule G1: A 10 K Q J 9).
SUIT_ORDER = tuple(tuple(sorted(range(s * 6, s * 6 + 6), key=lambda c: -STRENGTH[c])) for s in range(4))

# -- the hand's features ---------------------------------------------------------------------------------

FEATURES: tuple[str, ...] = (
    *(f"card {c}" for c in range(24)),
    *(f"marriage {s}" for s in range(4)),
    *(f"marriage {s} and an ace" for s in range(4)),
    *(f"ace and ten {s}" for s in range(4)),
    "voids",
    "suits of 4+",
    "suits of 5+",
    "longest suit",
    "no ace",
    "2+ aces",
    "3+ aces",
    "2+ tens",
    *(f"marriage {s} with its ace" for s in range(4)),
    *(f"marriage {s} with its ten" for s in range(4)),
    *(f"marriage {s} in 4+" for s in range(4)),
    "2+ marriages",
    "no trick needed",
    "must beat",
    "ace marriage",
    "bias",
)


def features(hand: int, options: ThousandOptions) -> list[float]:
    """The estimator's inputs for a hand (a bitmask of card ids) under the rules of play in ``options``.

    >>> len(features(0, ThousandOptions())) == len(FEATURES)
    True
    """
    cards = [float(hand >> c & 1) for c in range(24)]
    marriages = [hand >> (s * 6 + _QUEEN) & hand >> (s * 6 + _KING) & 1 for s in range(4)]
    aces = (hand & ALL_ACES).bit_count()
    tens = sum(hand >> (s * 6 + _TEN) & 1 for s in range(4))
    lengths = [(hand >> (s * 6) & 63).bit_count() for s in range(4)]
    f = cards
    f += [float(m) for m in marriages]
    f += [float(m and aces > 0) for m in marriages]
    f += [float(hand >> (s * 6 + _ACE) & hand >> (s * 6 + _TEN) & 1) for s in range(4)]
    f += [
        float(sum(n == 0 for n in lengths)),
        float(sum(n >= 4 for n in lengths)),
        float(sum(n >= 5 for n in lengths)),
        float(max(lengths)),
        float(aces == 0),
        float(aces >= 2),
        float(aces >= 3),
        float(tens >= 2),
    ]
    f += [float(marriages[s] and hand >> (s * 6 + _ACE) & 1) for s in range(4)]
    f += [float(marriages[s] and hand >> (s * 6 + _TEN) & 1) for s in range(4)]
    f += [float(marriages[s] and lengths[s] >= 4) for s in range(4)]
    f += [
        float(sum(marriages) >= 2),
        float(not options.marriage_needs_trick),
        float(options.must_beat != "no"),
        float(options.ace_marriage and aces == 4),
        1.0,
    ]
    return f


# -- the gifts ---------------------------------------------------------------------------------------------


def is_top(hand: int, card: int) -> bool:
    """Whether ``card`` and every card of its suit above it are in ``hand`` (a sure winner of its suit)."""
    for c in SUIT_ORDER[card // 6]:
        if c == card:
            return True
        if not hand >> c & 1:
            return False
    return True


def keep_value(hand: int, card: int) -> int:
    """How much a ten-card hand wants to keep a card (the cheapest go as gifts): its points, more for a
    marriage's card or a sure winner, more for a king or queen whose partner an opponent may hold, less for
    a singleton (giving it away makes a void)."""
    s, face = card // 6, card % 6
    marriage = face in (_QUEEN, _KING) and bool(hand >> (s * 6 + _QUEEN) & hand >> (s * 6 + _KING) & 1)
    lone_half = face in (_QUEEN, _KING) and not marriage
    single = (hand >> (s * 6) & 63).bit_count() == 1
    return POINTS[card] + 60 * marriage + 15 * is_top(hand, card) + 8 * lone_half - 3 * single


def gifts(hand: int) -> tuple[int, int]:
    """The two cards a ten-card hand gives away: the two it least wants to keep (ties: the lower id)."""
    cards = sorted((c for c in range(24) if hand >> c & 1), key=lambda c: (keep_value(hand, c), c))
    return cards[0], cards[1]


def gift_pairs(hand: int, count: int) -> list[tuple[int, int]]:
    """The ``count`` pairs of cards a ten-card hand would best give away, by the sum of their keep values."""
    cards = sorted((c for c in range(24) if hand >> c & 1), key=lambda c: (keep_value(hand, c), c))
    keep = {c: keep_value(hand, c) for c in cards}
    pairs = [(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    pairs.sort(key=lambda p: (keep[p[0]] + keep[p[1]], p))
    return pairs[:count]


# -- the estimator -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Estimator:
    """The declarer's points with 8 cards, leading: mean ``weights · features``, spread ``sd`` (piecewise
    linear in the mean over ``knots``), ``shift`` added for the bots' real play."""

    weights: tuple[float, ...]
    knots: tuple[tuple[float, float], ...]
    shift: float
    source: str = ""

    def points(self, hand: int, options: ThousandOptions) -> tuple[float, float]:
        """The mean and spread of the points an 8-card declarer hand takes."""
        mean = self.shift + sum(w * f for w, f in zip(self.weights, features(hand, options), strict=True))
        return mean, self.sd(mean)

    def sd(self, mean: float) -> float:
        knots = self.knots
        if mean <= knots[0][0]:
            return knots[0][1]
        for (x0, y0), (x1, y1) in itertools.pairwise(knots):
            if mean <= x1:
                return y0 + (y1 - y0) * (mean - x0) / (x1 - x0)
        return knots[-1][1]

    @staticmethod
    def chance(mean: float, sd: float, bid: int) -> float:
        """The chance that the points reach ``bid``.

        >>> round(Estimator.chance(100.0, 20.0, 100), 2)
        0.51
        """
        return 0.5 * math.erfc((bid - 0.5 - mean) / (sd * math.sqrt(2)))

    def to_json(self) -> dict[str, object]:
        return {
            "features": list(FEATURES),
            "weights": list(self.weights),
            "knots": [list(k) for k in self.knots],
            "shift": self.shift,
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Estimator:
        names = data.get("features")
        if names != list(FEATURES):
            raise OptionsError("the Thousand estimator's data does not match its features: calibrate again")
        weights = tuple(float(w) for w in data["weights"])  # type: ignore[attr-defined]
        knots = tuple((float(x), float(y)) for x, y in data["knots"])  # type: ignore[attr-defined]
        return cls(weights, knots, float(data["shift"]), str(data.get("source", "")))  # type: ignore[arg-type]


DATA = "thousand_estimator.json"


@lru_cache(maxsize=1)
def estimator() -> Estimator:
    """The estimator shipped with the package (``koloda/bots/data/thousand_estimator.json``)."""
    text = resources.files("koloda.bots").joinpath("data", DATA).read_text("utf-8")
    return Estimator.from_json(json.loads(text))


# -- the deal played out: its calibration --------------------------------------------------------------------


def reach(points: float, bid: int) -> float:
    """A sampled deal's chance of reaching ``bid``: a step softened over a few points (play varies)."""
    gap = points - bid + 0.5
    if gap >= 8:
        return 1.0
    if gap <= -8:
        return 0.0
    return 0.5 + gap / 16


@dataclass(frozen=True)
class Playouts:
    """The chance that a declarer makes a contract, from the deal played out in sampled worlds (``hard``'s
    ``talon``): a logistic curve of the share of playouts that reach it (:func:`reach`) less a half and of
    the estimator's mean less the contract. The worlds' play is clairvoyant and their defence does not
    know the auction, so the raw share was overconfident (0.72 said, 0.52 made); the weights were fitted
    on what ``hard`` made in whole games (``scripts/calibrate_thousand.py playouts``; the playouts' mean
    as a third input predicted no better and made the curve fall with the points) and ship as data
    (``koloda/bots/data/thousand_playouts.json``).
    """

    weights: tuple[float, float, float]  # share - 1/2, estimator's mean - contract, bias
    source: str = ""

    def chance(self, points: Sequence[int], estimate: float, bid: int) -> float:
        """The chance of making ``bid`` given the playouts' points and the estimator's mean.

        >>> round(Playouts((4.0, 0.0, 0.0)).chance([90, 130], 0.0, 110), 2)
        0.5
        """
        share = sum(reach(p, bid) for p in points) / len(points)
        w = self.weights
        z = w[0] * (share - 0.5) + w[1] * (estimate - bid) + w[2]
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, z))))

    def to_json(self) -> dict[str, object]:
        return {"inputs": list(PLAYOUT_INPUTS), "weights": list(self.weights), "source": self.source}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Playouts:
        if data.get("inputs") != list(PLAYOUT_INPUTS):
            raise OptionsError("the Thousand playouts' calibration does not match its inputs: fit it again")
        w = tuple(float(x) for x in data["weights"])  # type: ignore[attr-defined]
        return cls((w[0], w[1], w[2]), str(data.get("source", "")))


PLAYOUT_INPUTS = ("share of playouts reaching the contract - 1/2", "estimator's mean - contract", "bias")
PLAYOUTS_DATA = "thousand_playouts.json"


@lru_cache(maxsize=1)
def playouts() -> Playouts:
    """The playouts' calibration shipped with the package (``koloda/bots/data/thousand_playouts.json``)."""
    text = resources.files("koloda.bots").joinpath("data", PLAYOUTS_DATA).read_text("utf-8")
    return Playouts.from_json(json.loads(text))


# -- the stakes --------------------------------------------------------------------------------------------

#: A defender's points, on average, against a declarer (for what the others score when this seat declares).
DEFENDER_POINTS = 20


@dataclass(frozen=True)
class Stakes:
    """What a deal is worth to the seats, from the public score book (rules S1-S13)."""

    options: ThousandOptions
    standings: tuple[SeatState, ...]
    seat: int
    active: tuple[int, ...]  # the seats in play (not the sitting dealer)

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(p for p in self.active if p != self.seat)

    def contract(self, seat: int, bid: int, made: bool) -> float:
        """A declarer's change for a contract made or failed."""
        state = self.standings[seat]
        delta = deal_delta(self.options, state, declarer=True, bid=bid, points=bid if made else 0)
        return float(delta)

    def defence(self, seat: int, points: int) -> float:
        """A defender's change for ``points`` taken."""
        state = self.standings[seat]
        return float(deal_delta(self.options, state, declarer=False, bid=self.options.min_bid, points=points))

    def bomb(self, seat: int) -> float:
        """A defender's change when the declarer bombs (rule S7)."""
        state = self.standings[seat]
        return float(deal_delta(self.options, state, declarer=False, bid=self.options.min_bid, bomb=True))

    def others_defending(self, points: int | None = None) -> float:
        """The mean change of the others while this seat declares (each taking ``points``, by default
        :data:`DEFENDER_POINTS`)."""
        others = self.others
        taken = DEFENDER_POINTS if points is None else points
        return sum(self.defence(p, taken) for p in others) / len(others)

    def others_bombed(self) -> float:
        others = self.others
        return sum(self.bomb(p) for p in others) / len(others)


def contract_values(stakes: Stakes, mean: float, sd: float, bids: Sequence[int]) -> list[float]:
    """The value to the declarer of naming each contract in ``bids`` with a hand of that mean and spread."""
    out = []
    cost = stakes.others_defending()
    for bid in bids:
        p = Estimator.chance(mean, sd, bid)
        value = p * stakes.contract(stakes.seat, bid, True) + (1 - p) * stakes.contract(
            stakes.seat, bid, False
        )
        out.append(value - cost)
    return out


def bomb_value(stakes: Stakes) -> float:
    """The value to the declarer of a bomb: nothing for him, the bomb's points for the others."""
    return -stakes.others_bombed()


def contract_levels(options: ThousandOptions, low: int, cap: int) -> list[int]:
    """The contracts from ``low`` to ``cap`` in the game's steps."""
    step = options.bid_step
    return list(range(low, cap + 1, step))


def cap_for(options: ThousandOptions, hand: int) -> int:
    """Rule G6: the highest bid or contract a hand allows (the engine's ``_cap``)."""
    from koloda.thousand.actions import ACE_MARRIAGE_VALUE, marriages_held

    top_all = DECK_POINTS + sum(MARRIAGE_VALUES) + (ACE_MARRIAGE_VALUE if options.ace_marriage else 0)
    held = marriages_held(hand, options.ace_marriage)
    if options.bid_cap == "none":
        top = top_all
    elif options.bid_cap == "marriage":
        top = top_all if held else DECK_POINTS
    else:
        top = DECK_POINTS + held
    return top - top % options.bid_step


#: A defender's share of its hand's card points and of its marriages' values (:func:`defence_points`).
DEFENCE_CARDS = 0.45
DEFENCE_MARRIAGES = 0.1


def defence_points(hand: int) -> int:
    """A rough share of the points a seven-card hand takes in defence: a part of its card points and of
    its marriages (a defender declares one only after taking a trick and leading)."""
    marriages = sum(
        MARRIAGE_VALUES[s] for s in range(4) if hand >> (s * 6 + _QUEEN) & hand >> (s * 6 + _KING) & 1
    )
    return round(DEFENCE_CARDS * mask_points(hand) + DEFENCE_MARRIAGES * marriages)

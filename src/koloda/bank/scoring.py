"""Bank's scoring at the end of a deal: places, bonuses, penalties, the loser and the next dealer
(docs/rules/bank.md, rules 2.2 and 6-8).

Pure functions; :mod:`koloda.bank.state` calls them when a deal ends and keeps the :class:`DealResult`.

>>> bonuses(Finish(1, "KH", "card", False))
(('7.2', 'place 1', 20), ('7.3', 'place 1 on a king', 30))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from koloda.bank import tables as T
from koloda.bank.options import BankOptions
from koloda.i18n import N_, Lang, say


@dataclass(frozen=True)
class Finish:
    """How a seat went out (rule 6.1): its place, the last card laid and the move that laid it."""

    place: int
    card: str
    kind: str  # "card", "four", "run"
    one_suit_run: bool


@dataclass(frozen=True)
class DealResult:
    """The score sheet of one deal, for UIs: everything rules 6-8 decide, itemised."""

    number: int
    dealer: int
    starter: int
    active: tuple[int, ...]
    trumps: str
    trump_suits: tuple[str, ...]  # per seat for set-up "own", else the trump suits (senior first)
    stuck: bool
    captured: tuple[int, ...]
    bonuses: tuple[tuple[tuple[str, str, int], ...], ...]  # per seat: (rule, what, points)
    penalties: tuple[int, ...]
    places: tuple[int | None, ...]
    leftover_to: int | None  # seat that took the leftover bank (rule 6.3)
    loser: int | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "starter": self.starter,
            "active": list(self.active),
            "trumps": self.trumps,
            "trump_suits": list(self.trump_suits),
            "stuck": self.stuck,
            "captured": list(self.captured),
            "bonuses": [[list(item) for item in seat] for seat in self.bonuses],
            "penalties": list(self.penalties),
            "places": list(self.places),
            "leftover_to": self.leftover_to,
            "loser": self.loser,
            "scores": list(self.scores),
            "totals": list(self.totals),
        }


def bonuses(finish: Finish | None) -> tuple[tuple[str, str, int], ...]:
    """Rules 7.2-7.5: the bonuses of a seat that went out (none for a seat still holding cards), each with
    its rule, its English words (:func:`bonus_text`) and its points."""
    if finish is None:
        return ()
    place = finish.place
    rules = []
    if place <= 3:
        rules.append(("7.2", (20, 10, 10)[place - 1]))
        if finish.card[0] == "K":
            rules.append(("7.3", (30, 20, 10)[place - 1]))
        if finish.one_suit_run:
            rules.append(("7.5", (30, 25, 20)[place - 1]))
    if finish.kind == "four" and finish.card[0] != "K":
        rules.append(("7.4", 75))
    return tuple((rule, bonus_text(rule, place, "en"), points) for rule, points in rules)


#: The words of each bonus rule (the web page says them too).
_BONUS = {
    "7.2": N_("bank.bonus.7.2"),
    "7.3": N_("bank.bonus.7.3"),
    "7.4": N_("bank.bonus.7.4"),
    "7.5": N_("bank.bonus.7.5"),
}


def bonus_text(rule: str, place: int | None, lang: Lang) -> str:
    """A bonus of rules 7.2-7.5 in words, for the seat that went out in ``place``.

    >>> bonus_text("7.3", 1, "en"), bonus_text("7.3", 1, "ru")
    ('place 1 on a king', '1-е место, закончил королём')
    """
    return say(lang, _BONUS[rule], place=place)


def penalty(opts: BankOptions, hand: int, is_loser: bool) -> int:
    """Rules 7.6-7.8: the penalty for the cards left in a hand (a bitmask); an empty hand pays nothing.

    >>> penalty(BankOptions(), 1 << 8 | 1 << 4, True)  # A and 10 of spades: 12 + 10
    22
    >>> penalty(BankOptions(penalty="flat-fine", penalty_fixed=40), 1 << 8 | 1 << 4, True)
    40
    """
    if opts.penalty == "none" or not hand or (opts.penalty_who == "loser" and not is_loser):
        return 0
    if opts.penalty == "flat-fine":
        return opts.penalty_fixed  # rule 7.7 a): «независимо от количества очков и карт»
    points = T.points_of(hand)
    if opts.penalty == "hand-points":
        return points
    fine = opts.fine
    if fine == "fixed":
        return points + opts.penalty_fixed
    if fine == "per-card":
        return points + opts.penalty_per_card * hand.bit_count()
    zero_cards = sum(1 for c in T.cards_of(hand) if T.CARD_POINTS[c] == 0)
    per_zero_card = opts.penalty_per_card * zero_cards if fine != "fixed-zero-only" else 0
    pointless = opts.penalty_fixed if points == 0 and fine != "per-card-zero-only" else 0
    return points + per_zero_card + pointless


def clockwise(seat: int, players: int) -> list[int]:
    """Every seat from ``seat``'s left round the table, ``seat`` last."""
    return [(seat + 1 + k) % players for k in range(players)]


def loser(
    opts: BankOptions,
    hands: Sequence[int],
    active: Sequence[int],
    dealer: int,
    stuck: bool,
    scores: Sequence[int],
    stuck_reading: str,
) -> int | None:
    """Rules 2.2, 7.8: who lost the deal. ``loser=last-holder``: the last player holding cards; after a stuck
    end, as ``stuck_reading`` says (``opts.stuck_loser`` for the next dealer, ``opts.stuck_payer`` for the
    penalty): the holder with most points in hand (``most-points``) or nobody. ``loser=lowest-score``: the
    lowest score of the deal before penalties (``scores``). Ties: the first clockwise from the dealer's left.

    >>> hands = [0, 1 << 8, 1 << 4]  # seat 1 holds the AS (12), seat 2 the 10S (10)
    >>> loser(BankOptions(), hands, (0, 1, 2), 0, True, [20, 0, 0], "most-points")
    1
    >>> loser(BankOptions(), hands, (0, 1, 2), 0, True, [20, 0, 0], "nobody") is None
    True
    >>> loser(BankOptions(loser="lowest-score"), hands, (0, 1, 2), 0, True, [20, 5, 5], "nobody")
    1
    """
    order = [p for p in clockwise(dealer, len(hands)) if p in active]
    if opts.loser == "lowest-score":
        return min(order, key=lambda p: scores[p])  # min keeps the first of ties
    holders = [p for p in order if hands[p]]
    if not holders or (stuck and stuck_reading == "nobody"):
        return None
    return max(holders, key=lambda p: T.points_of(hands[p]))  # max keeps the first of ties


def next_dealer(
    rule: str,
    *,
    dealer: int,
    starter: int,
    places: Sequence[int],
    loser: int | None,
    totals: Sequence[int],
) -> int:
    """Rule 2.2: the agreed next dealer; ties go clockwise from the old dealer's left. A deal without a
    loser (``stuck_loser=nobody`` after a stuck end) is dealt next by the last player out, or else by the
    dealer's left."""
    if rule == "starter":
        return starter
    if rule == "last-finisher" and places:
        return places[-1]
    if rule in ("loser", "last-finisher"):
        if loser is not None:
            return loser
        return places[-1] if places else clockwise(dealer, len(totals))[0]
    pick = max if rule == "max-points" else min
    return pick(clockwise(dealer, len(totals)), key=lambda p: totals[p])

"""What a Bank player may lay, and by which rule: the engine's own reasons, as data and in words (issue 29).

:func:`explain` builds the :class:`Hint` of the player to move from the rules the legal actions come
from: the cover reasons of :func:`koloda.bank.tables.cover_reason` (rules 3, 4.3, 4.4), the lenient
opening (4.2), the 8, four of a kind and runs (4.5-4.7), the free lead (5.3) and the optional extra move.
Every observation carries it (``hint``; in JSON each way's kind and rule, and in the mover's own view each
of his cards with the way that admits it), the terminal says it (:meth:`Hint.msg`), and
tests/bank/test_bank_hints.py checks over many random positions that the cards it admits in a hand are
exactly the legal single cards, and its other ways exactly the other moves.

Cards that lie face up (the bank, the captured piles) are left out of the ways: nobody can lay them.

>>> from koloda.bank.state import from_deal
>>> state = from_deal({"hands": [["QH", "8H", "7C"], ["9S"]], "open": "9H", "stock": [], "dealer": 1,
...                    "trump_suits": ["C", "S"]})
>>> for line in explain(state).msg().text("en").split(" · "):
...     print(line)
To cover 9♥: 8♥ (one lower, rule 4.3)
9♠ 9♣ 9♦ (the same rank, rule 4.3)
6♥ (the 6 of its suit, rule 4.4)
any ♣ (your trump, rule 3.2)
any ♥ (the open card's suit, rule 4.2)
an 8 on anything (rule 4.5)
four of a kind on anything (rule 4.6)
four in a row of one suit, an end covering (rule 4.7)
>>> [state.action_text(a) for a in state.legal_actions()]  # the hint's cards in his hand
['7C', '8H', 'QH']
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from koloda.bank import deal as D
from koloda.bank import tables as T
from koloda.bank.rules import CHOOSE, EXTRA, FOLLOW_CARD, FOLLOW_MUST, OVER
from koloda.bank.state import BankState
from koloda.cards import DECK_36, CardsShown, Suit
from koloda.i18n import N_, Msg

#: The words of each way (``bank.way.<kind>``): a card or suit list, what it is, and its rule.
_WAYS = {
    "one-lower": N_("bank.way.one-lower"),
    "same-rank": N_("bank.way.same-rank"),
    "six": N_("bank.way.six"),
    "own-trump": N_("bank.way.own-trump"),
    "trump": N_("bank.way.trump"),
    "senior-trump": N_("bank.way.senior-trump"),
    "other-trump": N_("bank.way.other-trump"),
    "open-suit": N_("bank.way.open-suit"),
    "eight": N_("bank.way.eight"),
    "four": N_("bank.way.four"),
    "run": N_("bank.way.run"),
    "run-any": N_("bank.way.run-any"),
    "lead": N_("bank.way.lead"),
    "pass": N_("bank.way.pass"),
    "choose": N_("bank.way.choose"),
}
#: The kinds of way that admit single cards (the others are four of a kind, runs, pass and the trump choice).
SINGLE = frozenset(
    {"one-lower", "same-rank", "six", "own-trump", "trump", "senior-trump", "other-trump", "open-suit"}
    | {"eight", "lead"}
)
#: The way of each reason of :func:`koloda.bank.tables.cover_reason`, in the order said.
_REASONS = (T.ONE_LOWER, T.SAME_RANK, T.SIX_OF_SUIT, T.HIGHER_CLASS, T.FREE_TRUMPS)
_TRUMP_RULE = {"own": "3.2", "one": "3.3", "two": "3.3", "senior-junior": "3.4"}


_CARD = tuple(str(card) for card in DECK_36)
#: The suit letters of each set of whole suits (4 bits, ♠ first) and the symbols they are said with.
_LETTERS = tuple(tuple(s.letter for s in Suit if m >> s & 1) for m in range(16))
_SUIT_OF = {s.letter: s for s in Suit}


@dataclass(frozen=True, slots=True)
class Way:
    """One way to move: its kind, its rule, the cards it admits as a single card (a bitmask of card ids;
    face-up cards left out), and the suits it admits whole (letters; said "any ♣")."""

    kind: str
    rule: str
    cards: int = 0
    suits: tuple[str, ...] = ()

    def msg(self) -> Msg:
        cards = CardsShown(tuple(DECK_36[c] for c in T.cards_of(self.cards)), symbols=True)
        suits = " ".join(_SUIT_OF[s].symbol for s in self.suits)
        return Msg(_WAYS[self.kind], cards=cards, suits=suits, rule=self.rule)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "suits": "".join(self.suits)}


@dataclass(frozen=True, slots=True)
class Hint:
    """What the player to move (``seat``) may do: the card to cover (-1: a free lead, or the choice of
    trumps) and every way to move, in the order said."""

    seat: int
    target: int
    ways: tuple[Way, ...]

    def mask(self) -> int:
        """The single cards the hint admits, as a bitmask of card ids."""
        out = 0
        for way in self.ways:
            if way.kind in SINGLE:
                out |= way.cards
        return out

    def way_of(self, card: int) -> Way | None:
        """The way that admits ``card`` (an id) as a single card; None: it does not cover."""
        return next((w for w in self.ways if w.kind in SINGLE and w.cards >> card & 1), None)

    def has(self, kind: str) -> bool:
        return any(way.kind == kind for way in self.ways)

    def msg(self) -> Msg:
        """The hint in words: "To cover 9♥: 8♥ (one lower, rule 4.3) · ..."."""
        said = self.ways[-1].msg()
        for way in reversed(self.ways[:-1]):
            said = Msg("bank.hint.and", first=way.msg(), rest=said)
        if self.target < 0:
            return said if self.ways[0].kind == "choose" else Msg("bank.hint.lead", ways=said)
        return Msg("bank.hint.cover", card=CardsShown((DECK_36[self.target],), symbols=True), ways=said)

    def to_json(self, hand: int = 0) -> dict[str, Any]:
        """For the pages: the seat to move, the card to cover (canonical text, None for none), each way's
        kind, rule and whole suits (letters, ``"SC"``; the words: the catalog's ``bank.way.<kind>``), and
        each card of ``hand`` (the mover's own, in his own view; else none) with the kind of the way that
        admits it, None when it does not cover. No other card is named: a page gets no card it could take
        for one held. (Few objects: a table's frame is patched at every action, docs/performance.md.)"""
        target = None if self.target < 0 else _CARD[self.target]
        cards: dict[str, str | None] = {}
        for c in T.cards_of(hand):
            way = self.way_of(c)
            cards[_CARD[c]] = None if way is None else way.kind
        return {"seat": self.seat, "target": target, "ways": [w.to_json() for w in self.ways], "hand": cards}


def choosing(seat: int, suits: tuple[int, ...]) -> Hint:
    """Rule 3.2: the suits nobody has taken."""
    return Hint(seat, -1, (Way("choose", "3.2", suits=tuple(Suit(s).letter for s in suits)),))


#: The ways that admit no single card, made once (every observation has a hint).
_FOUR, _RUN, _RUN_ANY = Way("four", "4.6"), Way("run", "4.7"), Way("run-any", "4.7")
_PASS = {rule: Way("pass", rule) for rule in ("4.5", "4.6", "4.7")}
_TRUMP_KIND = {"own": "own-trump", "one": "trump", "two": "trump", "senior-junior": "trump"}
_PLAIN_KINDS = {
    T.ONE_LOWER: ("one-lower", "4.3"),
    T.SAME_RANK: ("same-rank", "4.3"),
    T.SIX_OF_SUIT: ("six", "4.4"),
}


def hint(
    seat: int,
    target: int,
    reasons: tuple[int, ...],
    *,
    trumps: str,
    target_class: int,
    open_suit: bool,
    card_only: bool,
    extra_rule: str | None,
    one_suit_runs: bool,
    live: int,
) -> Hint:
    """The hint of a position: ``target`` the card to cover (-1: a free lead, rule 5.3), ``reasons`` its row
    of :func:`koloda.bank.tables.reason_table` for the mover, ``target_class`` its trump class for him,
    ``open_suit`` the lenient opening (4.2), ``card_only`` one covering card after an 8 (4.5), ``extra_rule``
    the rule of an optional extra move (pass adds nothing), ``live`` the cards not lying face up."""
    ways: list[Way] = []
    if target < 0:
        ways.append(Way("lead", "5.3", live, _LETTERS[15]))
        taken = T.FULL_DECK
    else:
        taken = 0
        for reason in _REASONS:
            mask = reasons[reason]
            if not mask & live:
                continue
            taken |= mask
            if reason == T.HIGHER_CLASS or reason == T.FREE_TRUMPS:  # whole suits, said "any ♣"
                whole = sum(1 << s for s in range(4) if mask & T.SUIT_MASK[s])  # (its rank: the same rank)
                if reason == T.FREE_TRUMPS:
                    kind, rule = "other-trump", "3.3"
                else:
                    kind, rule = _TRUMP_KIND[trumps], _TRUMP_RULE[trumps]
                    if trumps == "senior-junior" and target_class == 1:
                        kind = "senior-trump"
                ways.append(Way(kind, rule, mask & live, _LETTERS[whole]))
            else:
                kind, rule = _PLAIN_KINDS[reason]
                ways.append(Way(kind, rule, mask & live))
        if open_suit:  # rule 4.2: any card of the open card's suit, besides those above
            suit = target // 9
            mask = T.SUIT_MASK[suit] & ~taken & ~(1 << target)
            if mask & live:
                ways.append(Way("open-suit", "4.2", mask & live, _LETTERS[1 << suit]))
            taken |= mask
    if not card_only:
        eights = T.EIGHTS & ~taken & live
        if eights:
            ways.append(Way("eight", "4.5", eights))
        ways.append(_FOUR)
        ways.append(_RUN if one_suit_runs else _RUN_ANY)
    if extra_rule is not None:
        ways.append(_PASS[extra_rule])
    return Hint(seat, target, tuple(ways))


@functools.lru_cache(maxsize=256)
def _classes(trumps: str, suits: tuple[int, ...], players: int) -> list[D.Classes]:
    return D.seat_classes(trumps, suits, players)


#: The public facts a hint is made of (:func:`facts`): the arguments of :func:`hint`, or ``("choose", seat,
#: suits left)`` while trumps are chosen (rule 3.2); None once over.
Facts = tuple[Any, ...] | None


def facts(state: BankState) -> Facts:
    """The public facts of ``state`` a hint is made of: what an observation keeps, so that its hint is
    built only when asked for (bots never ask; :func:`from_facts`)."""
    phase = state._phase
    if phase == OVER:
        return None
    p = state._cur
    if phase == CHOOSE:
        return ("choose", p, tuple(s for s in range(4) if s not in state._chosen))
    opts, t = state.options, state._target
    classes = _classes(opts.trumps, state._trump_suits, state.players)[p]
    follow = state._extra_kind() if phase == EXTRA else 0
    extra_rule = None
    if follow and follow != FOLLOW_MUST:  # the extra move of rules 4.5-4.7 may add nothing
        last = state._hist[-1] >> 2
        extra_rule = "4.5" if last < T.FOUR0 else "4.6" if last < T.RUN0 else "4.7"
    return (
        p,
        t,
        T.reason_table(classes, opts.two_trumps_cover == "free")[t] if t >= 0 else (),
        opts.trumps,
        classes[t // 9] if t >= 0 else 0,
        state._opening and opts.opening == "free",
        follow == FOLLOW_CARD,
        extra_rule,
        opts.runs == "one-suit",
        tuple(state._bank),  # face up, with the captured piles: no way offers them
        tuple(state._captured),
    )


@functools.lru_cache(maxsize=1024)  # every seat's view of a position asks for the same hint
def from_facts(known: Facts) -> Hint | None:
    """The hint :func:`facts` describe."""
    if known is None:
        return None
    if known[0] == "choose":
        return choosing(known[1], known[2])
    seat, target, reasons, trumps, target_class, open_suit, card_only, extra_rule, one_suit, bank, piles = (
        known
    )
    face_up = 0
    for c in bank:
        face_up |= 1 << c
    for mask in piles:
        face_up |= mask
    return hint(
        seat,
        target,
        reasons,
        trumps=trumps,
        target_class=target_class,
        open_suit=open_suit,
        card_only=card_only,
        extra_rule=extra_rule,
        one_suit_runs=one_suit,
        live=T.FULL_DECK & ~face_up,
    )


def explain(state: BankState) -> Hint | None:
    """What the player to move may do, and by which rule; None once the game is over."""
    return from_facts(facts(state))

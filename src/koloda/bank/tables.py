"""Precomputed tables of Bank: cards are ints 0-35 (``Card.index`` = suit * 9 + face offset).

The face offset runs 6 7 8 9 10 J Q K A (0-8); Bank's own order (rule 1.2) is 6 7 8 9 J Q K 10 A, so
``FACE_ORD`` maps a face offset to its position in Bank's order and ``ORD_FACE`` back.

>>> [ORD_FACE[o] for o in range(9)] == [0, 1, 2, 3, 5, 6, 7, 4, 8]
True
>>> points_of(SUIT_MASK[0])  # one suit: A 12 + 10 + K 5 + Q 3 + J 1
31
"""

from __future__ import annotations

from koloda.cards import DECK_36, Card

#: Position in Bank's order (rule 1.2) of each face offset (6 7 8 9 10 J Q K A).
FACE_ORD = (0, 1, 2, 3, 7, 4, 5, 6, 8)
#: Face offset at each position of Bank's order.
ORD_FACE = (0, 1, 2, 3, 5, 6, 7, 4, 8)
#: Card points by face offset (rule 7.1): A 12, 10 10, K 5, Q 3, J 1.
FACE_POINTS = (0, 0, 0, 0, 10, 1, 3, 5, 12)
SIX, SEVEN, EIGHT, KING = 0, 1, 2, 7

CARD_POINTS = tuple(FACE_POINTS[i % 9] for i in range(36))
SUIT_MASK = tuple(511 << (9 * s) for s in range(4))
RANK_MASK = tuple(sum(1 << (s * 9 + f) for s in range(4)) for f in range(9))
EIGHTS = RANK_MASK[EIGHT]
KINGS = RANK_MASK[KING]
FULL_DECK = (1 << 36) - 1
#: Points of each 9-bit set of face offsets of one suit.
POINTS9 = tuple(sum(FACE_POINTS[f] for f in range(9) if m >> f & 1) for m in range(512))
#: Bank-order starts (0-5) of every run of four present in a 9-bit set of face offsets (rule 4.7).
RUN_STARTS9 = tuple(
    tuple(st for st in range(6) if all(m >> ORD_FACE[st + k] & 1 for k in range(4))) for m in range(512)
)

# -- the fixed action space (docs/api.md, "Bank's action space") --------------------------------------
#: 0-35 one card; 36-71 four of a kind by its top card; then runs; draw; pass; the four trump choices.
FOUR0 = 36
RUN0 = 72
RUN_COUNT = 6 * 256 * 2
DRAW = RUN0 + RUN_COUNT
PASS = DRAW + 1
#: Set-up 1 with trumps chosen in turn (rule 3.2): choose ♠ ♣ ♦ ♥ as one's own trump.
CHOOSE0 = PASS + 1
NUM_ACTIONS = CHOOSE0 + 4


def run_id(start: int, suits: tuple[int, int, int, int], high_covers: bool) -> int:
    """The action id of a run: Bank-order start 0-5, the suit of each card from low to high, the end laid."""
    code = suits[0] + 4 * suits[1] + 16 * suits[2] + 64 * suits[3]
    return RUN0 + (start * 256 + code) * 2 + int(high_covers)


def _run_cards(index: int) -> tuple[int, ...]:
    rest, high = divmod(index, 2)
    start, code = divmod(rest, 256)
    cards = [((code >> (2 * k)) & 3) * 9 + ORD_FACE[start + k] for k in range(4)]
    return tuple(reversed(cards)) if high else tuple(cards)


#: The cards of each run action in the order laid: the first covers the bank, the last is the new top.
RUN_CARDS = tuple(_run_cards(i) for i in range(RUN_COUNT))
RUN_MASK = tuple(sum(1 << c for c in cards) for cards in RUN_CARDS)
RUN_ONE_SUIT = tuple(len({c // 9 for c in cards}) == 1 for cards in RUN_CARDS)


def points_of(mask: int) -> int:
    """Card points (rule 7.1) of a set of cards given as a bitmask."""
    return (
        POINTS9[mask & 511] + POINTS9[mask >> 9 & 511] + POINTS9[mask >> 18 & 511] + POINTS9[mask >> 27 & 511]
    )


def cards_of(mask: int) -> list[int]:
    """The card indices in a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card(index: int) -> Card:
    return DECK_36[index]


#: Why a card covers another (:func:`cover_reason`; 0: it does not): the same rank (rule 4.3), a higher trump
#: class (rule 3), one lower in its suit (4.3), the 6 of its suit (4.4), the other trump of set-up 4 (3.3).
SAME_RANK, HIGHER_CLASS, ONE_LOWER, SIX_OF_SUIT, FREE_TRUMPS = 1, 2, 3, 4, 5


def cover_reason(c: int, t: int, classes: tuple[int, int, int, int], free_same_class: bool) -> int:
    """Why card ``c`` covers card ``t`` for a player who sees the suits in these trump classes; 0 if it does
    not. The one rule of covering: the cover tables, the hints and the refusals all come from it.

    Rule 4.3: same rank always covers; a higher class covers a lower one; within one class the card one
    lower in Bank's order of the same suit covers, and so does the 6 of that suit (rule 4.4).
    ``free_same_class`` is set-up 4's "free" reading: the two trump suits cover each other freely (3.3).

    >>> cover_reason(Card.parse("QH").index, Card.parse("KH").index, (0, 0, 0, 0), False) == ONE_LOWER
    True
    """
    if c == t:
        return 0
    cs, cf, ts, tf = c // 9, c % 9, t // 9, t % 9
    if cf == tf:
        return SAME_RANK
    if classes[cs] != classes[ts]:
        return HIGHER_CLASS if classes[cs] > classes[ts] else 0
    if cs == ts:
        if FACE_ORD[cf] == FACE_ORD[tf] - 1:
            return ONE_LOWER
        return SIX_OF_SUIT if cf == SIX else 0
    return FREE_TRUMPS if free_same_class and classes[cs] > 0 else 0


def covers(c: int, t: int, classes: tuple[int, int, int, int], free_same_class: bool) -> bool:
    """Whether card ``c`` covers card ``t`` (:func:`cover_reason`)."""
    return cover_reason(c, t, classes, free_same_class) != 0


_REASON_CACHE: dict[tuple[tuple[int, int, int, int], bool], tuple[tuple[int, ...], ...]] = {}


def reason_table(classes: tuple[int, int, int, int], free_same_class: bool) -> tuple[tuple[int, ...], ...]:
    """For every top card, the bitmask of the cards that cover it for each reason of :func:`cover_reason`
    (index 0 unused), cached per class assignment."""
    key = (classes, free_same_class)
    table = _REASON_CACHE.get(key)
    if table is None:
        rows = []
        for t in range(36):
            masks = [0] * 6
            for c in range(36):
                masks[cover_reason(c, t, classes, free_same_class)] |= 1 << c
            masks[0] = 0
            rows.append(tuple(masks))
        table = _REASON_CACHE[key] = tuple(rows)
    return table


_COVER_CACHE: dict[tuple[tuple[int, int, int, int], bool], tuple[int, ...]] = {}


def cover_table(classes: tuple[int, int, int, int], free_same_class: bool) -> tuple[int, ...]:
    """For every top card, the bitmask of the cards that cover it (cached per class assignment)."""
    key = (classes, free_same_class)
    table = _COVER_CACHE.get(key)
    if table is None:
        table = tuple(sum(masks) for masks in reason_table(classes, free_same_class))
        _COVER_CACHE[key] = table
    return table


def runs(h: int, cov: int, one_suit: bool) -> list[int]:
    """Rule 4.7: the run actions in hand ``h`` (of one suit, or of any suits) whose covering end is in
    ``cov``, ascending."""
    out: list[int] = []
    if one_suit:
        for s in range(4):
            for st in RUN_STARTS9[(h >> (9 * s)) & 511]:
                base = RUN0 + (st * 256 + 85 * s) * 2
                if cov >> (s * 9 + ORD_FACE[st]) & 1:
                    out.append(base)
                if cov >> (s * 9 + ORD_FACE[st + 3]) & 1:
                    out.append(base + 1)
    else:
        present = (h | h >> 9 | h >> 18 | h >> 27) & 511
        for st in RUN_STARTS9[present]:
            options = [[s for s in range(4) if h >> (s * 9 + ORD_FACE[st + k]) & 1] for k in range(4)]
            for s0 in options[0]:
                for s1 in options[1]:
                    for s2 in options[2]:
                        for s3 in options[3]:
                            base = run_id(st, (s0, s1, s2, s3), False)
                            if cov >> (s0 * 9 + ORD_FACE[st]) & 1:
                                out.append(base)
                            if cov >> (s3 * 9 + ORD_FACE[st + 3]) & 1:
                                out.append(base + 1)
    out.sort()
    return out

"""Thousand's cards, action space and notation (docs/rules/thousand.md, rules G1 and G13).

Cards are the ids 0-23 of :data:`koloda.cards.DECK_24` (``suit * 6 + rank - 9``); hands are bitmasks of
them. Actions are ints in one fixed space of :data:`NUM_ACTIONS` ids (the table of rule G13); the text
notation parses back to the same id, and every table the engine's hot path needs is computed here once.

>>> [parse_action(t) for t in ("9S", "KH+", "Д♥+", "пас", "120", "9П>2", "бомба")]
[0, 31, 30, 36, 60, 158, 205]
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from koloda.cards import DECK_24, Card, Rank, Style, card_reason, clip
from koloda.errors import NotationError
from koloda.i18n import Lang, Msg, Shown, say

# -- cards (rule G1) ------------------------------------------------------------------------------------

CARDS: tuple[Card, ...] = DECK_24  # card id = suit * 6 + (rank - 9): 9, 10, J, Q, K, A in each suit
CARD_IDS: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
_FACE_POINTS = (0, 10, 2, 3, 4, 11)  # rule G1: 9, 10, J, Q, K, A
_FACE_STRENGTH = (0, 4, 1, 2, 3, 5)  # rule G1: A > 10 > K > Q > J > 9
POINTS: tuple[int, ...] = _FACE_POINTS * 4
STRENGTH: tuple[int, ...] = _FACE_STRENGTH * 4
FACE_NINE, FACE_QUEEN, FACE_KING, FACE_ACE = 0, 3, 4, 5
MARRIAGE_VALUES: tuple[int, ...] = (40, 60, 80, 100)  # rule G9: ♠ 40, ♣ 60, ♦ 80, ♥ 100
ACE_MARRIAGE_VALUE = 200  # rule G10
DECK_POINTS = 120
ALL_QUEENS = sum(1 << (s * 6 + FACE_QUEEN) for s in range(4))
ALL_ACES = sum(1 << (s * 6 + FACE_ACE) for s in range(4))
ALL_NINES = sum(1 << (s * 6 + FACE_NINE) for s in range(4))

# --- the action space (rule G13) ---------------------------------------------------------------------------

PLAY = 0  # 0-23: play card id
MARRY = 24  # 24-31: lead the queen (even) or the king (odd) of suit (id - 24) // 2, declaring the marriage
ACES = 32  # 32-35: lead the ace of suit id - 32, declaring the ace marriage
PASS = 36
BID = 37  # 37-156: bid (or, after the talon, the contract) 5 * (id - 36): 5 ... 600
MAX_BID = 600
GIVE = 157  # 157-204: give card (id - 157) // 2 to the first (even) or second (odd) opponent
BOMB = 205
NUM_ACTIONS = 206


def bid_action(bid: int) -> int:
    """The action id of a bid (or contract) of ``bid`` points.

    >>> bid_action(100), bid_action(600)
    (56, 156)
    """
    if not (0 < bid <= MAX_BID and bid % 5 == 0):
        raise NotationError(Msg("thousand.notation.bid", bid=repr(bid), top=MAX_BID))
    return BID + bid // 5 - 1


def action_bid(action: int) -> int:
    """The points of a bid action id."""
    return (action - BID + 1) * 5


def _card_text(card: int) -> str:
    return str(CARDS[card])


def _make_texts() -> tuple[str, ...]:
    texts = [_card_text(c) for c in range(24)]
    texts += [_card_text(s * 6 + FACE_QUEEN + k) + "+" for s in range(4) for k in range(2)]
    texts += [_card_text(s * 6 + FACE_ACE) + "+" for s in range(4)]
    texts.append("pass")
    texts += [str(action_bid(a)) for a in range(BID, GIVE)]
    texts += [f"{_card_text(c)}>{k + 1}" for c in range(24) for k in range(2)]
    texts.append("bomb")
    return tuple(texts)


ACTION_TEXTS: tuple[str, ...] = _make_texts()
_DIGITS = re.compile(r"[0-9]+")
_WORDS = {"pass": PASS, "пас": PASS, "bomb": BOMB, "бомба": BOMB}


def action_words(action: int, lang: Lang) -> str:
    """An action as the player may type it: cards with suit symbols, Russian ranks in Russian.

    >>> action_words(31, "ru"), action_words(PASS, "ru"), action_words(GIVE + 1, "en")
    ('К♥+', 'пас', '9♠>2')
    """
    style: Style = "russian" if lang == "ru" else "latin"
    if action == PASS:
        return say(lang, "thousand.action.pass")
    if action == BOMB:
        return say(lang, "thousand.action.bomb")
    if BID <= action < GIVE:
        return str(action_bid(action))
    if action >= GIVE:
        card, k = divmod(action - GIVE, 2)
        return f"{CARDS[card].text(style, 'symbol')}>{k + 1}"
    if action >= ACES:
        return CARDS[(action - ACES) * 6 + 5].text(style, "symbol") + "+"
    if action >= MARRY:
        suit, k = divmod(action - MARRY, 2)
        return CARDS[suit * 6 + 3 + k].text(style, "symbol") + "+"
    return CARDS[action].text(style, "symbol")


@dataclass(frozen=True)
class ActionShown(Shown):
    """An action in a message (a refusal): its canonical text in English, as typed in Russian (no Latin
    card codes: ``Д♥``, ``пас``)."""

    action: int

    def text(self, lang: Lang) -> str:
        return action_text(self.action) if lang == "en" else action_words(self.action, lang)


def action_text(action: int) -> str:
    """The canonical text of an action id (the same in every position).

    >>> action_text(0), action_text(31), action_text(PASS), action_text(bid_action(120)), action_text(BOMB)
    ('9S', 'KH+', 'pass', '120', 'bomb')
    """
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise NotationError(Msg("thousand.notation.bad_id", action=repr(action), last=NUM_ACTIONS - 1))
    return ACTION_TEXTS[action]


def parse_action(text: str) -> int:
    """Text to an action id: ``QH`` play, ``KH+`` marriage, ``AS+`` ace marriage, ``pass``/``пас``,
    ``120`` bid or contract, ``9S>1`` give 9♠ to the first opponent, ``bomb``/``бомба``; cards in any
    notation of :mod:`koloda.cards` (``Д♥+``, ``9П>2``).

    >>> [parse_action(t) for t in ("9S", "KH+", "Д♥+", "пас", "120", "9П>2", "бомба")]
    [0, 31, 30, 36, 60, 158, 205]
    """
    token = text.strip()
    word = _WORDS.get(token.lower())
    if word is not None:
        return word
    try:
        if _DIGITS.fullmatch(token):  # ASCII digits only: str.isdigit() also takes '²', which int() refuses
            if len(token.lstrip("0")) > len(str(MAX_BID)):  # never read a thousand digits as a number
                raise NotationError(Msg("thousand.notation.bid", bid=token, top=MAX_BID))
            return bid_action(int(token))
        if ">" in token:
            card_part, _, who = token.partition(">")
            if who.strip() not in ("1", "2"):
                raise NotationError(Msg("thousand.notation.recipient", who=repr(who)))
            return GIVE + 2 * _parse_card(card_part) + int(who) - 1
        if token.endswith("+"):
            card = _parse_card(token[:-1])
            face = card % 6
            if face == FACE_ACE:
                return ACES + card // 6
            if face in (FACE_QUEEN, FACE_KING):
                return MARRY + 2 * (card // 6) + face - FACE_QUEEN
            raise NotationError(Msg("thousand.notation.declare"))
        return _parse_card(token)
    except NotationError as exc:
        reason = card_reason(exc.detail, text)  # the entry is quoted once
        raise NotationError(Msg("thousand.notation.bad", text=clip(text), reason=reason)) from None


def _parse_card(text: str) -> int:
    card = Card.parse(text, Rank.NINE)  # a bad rank is told with Thousand's ranks, 9 to ace
    if card.rank < Rank.NINE:
        raise NotationError(Msg("thousand.notation.deck", card=clip(text.strip())))
    return CARD_IDS[card]


# --- precomputed tables for the hot path -------------------------------------------------------------------


def _ids(mask: int, offset: int) -> list[int]:
    return [offset + i for i in range(12) if mask >> i & 1]


IDS_LOW: tuple[list[int], ...] = tuple(_ids(m, 0) for m in range(4096))  # cards 0-11 (♠ ♣)
IDS_HIGH: tuple[list[int], ...] = tuple(_ids(m, 12) for m in range(4096))  # cards 12-23 (♦ ♥)
SUIT_IDS: tuple[tuple[list[int], ...], ...] = tuple(
    tuple([s * 6 + i for i in range(6) if m >> i & 1] for m in range(64)) for s in range(4)
)
_MASK_POINTS: tuple[int, ...] = tuple(sum(POINTS[i] for i in range(12) if m >> i & 1) for m in range(4096))


def mask_ids(mask: int) -> list[int]:
    """The card ids of a bitmask, ascending (a new list)."""
    return IDS_LOW[mask & 4095] + IDS_HIGH[mask >> 12]


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask of card ids, in id order."""
    return tuple(CARDS[c] for c in IDS_LOW[mask & 4095] + IDS_HIGH[mask >> 12])


def mask_points(mask: int) -> int:
    """Card points of a bitmask of card ids."""
    return _MASK_POINTS[mask & 4095] + _MASK_POINTS[mask >> 12]


def marriages_held(hand: int, aces: bool) -> int:
    """Total value of the marriages (and, if on, the ace marriage) in a hand: the bid cap's measure."""
    pairs = hand & (hand >> 1) & ALL_QUEENS
    value = sum(MARRIAGE_VALUES[s] for s in range(4) if pairs >> (s * 6 + FACE_QUEEN) & 1)
    if aces and hand & ALL_ACES == ALL_ACES:
        value += ACE_MARRIAGE_VALUE
    return value


def card_played(action: int) -> int:
    """The card a play action (0-35) lays: the card, a marriage's queen or king, an ace (rules G9, G10).

    >>> str(CARDS[card_played(parse_action("KH+"))])
    'KH'
    """
    if action < MARRY:
        return action
    if action < ACES:
        suit, k = divmod(action - MARRY, 2)
        return suit * 6 + FACE_QUEEN + k
    return (action - ACES) * 6 + FACE_ACE


def shown_cards(action: int) -> tuple[int, ...]:
    """Cards an action shows its seat holds: the card played, both cards of a marriage, four aces, a gift.

    >>> [str(CARDS[c]) for c in shown_cards(parse_action("QS+"))]
    ['QS', 'KS']
    """
    if action < MARRY:
        return (action,) if action >= 0 else ()
    if action < ACES:
        suit = (action - MARRY) // 2
        return (suit * 6 + FACE_QUEEN, suit * 6 + FACE_KING)
    if action < PASS:
        return tuple(s * 6 + FACE_ACE for s in range(4))
    if GIVE <= action < BOMB:
        return ((action - GIVE) // 2,)
    return ()

"""The card core shared by every card game: suits, ranks, cards, the two decks and their notation.

Cards are small immutable values with a round-trip notation, in the manner of python-chess moves:

>>> Card.parse("10♥")
Card.parse('10H')
>>> str(Card.parse("TH")), str(Card.parse("Т♠"))
('10H', 'AS')
>>> Card.parse("дб").text(style="russian", suits="symbol")
'Д♦'

A card has no order of its own: every game supplies its rank order and card points (Bank puts the 10
between the king and the ace; Thousand puts it above the king). Hot loops use ``Card.index`` (0-35),
a dense number that is the same in every game.

Notation accepted by :meth:`Card.parse` (case does not matter; the suit is always the last character):

=========  =====================================  ===============================================
part       Latin                                  Russian
=========  =====================================  ===============================================
rank       ``6 7 8 9 10 T J Q K A``               ``6 7 8 9 10 В Д К Т`` (валет, дама, король, туз)
suit       ``S C D H`` or ``♠ ♣ ♦ ♥``             ``П К/Т Б Ч`` (пики, крести/трефы, бубны, черви)
=========  =====================================  ===============================================

Latin ``T`` is the ten and Cyrillic ``Т`` the ace: they are different letters, so there is no ambiguity.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum
from typing import Literal

from koloda.errors import NotationError
from koloda.i18n import Lang, Msg, Shown

Style = Literal["latin", "russian"]
SuitStyle = Literal["letter", "symbol"]


class Suit(IntEnum):
    """The four suits, numbered as in ``Card.index``."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def symbol(self) -> str:
        return "♠♣♦♥"[self]

    @property
    def letter(self) -> str:
        return "SCDH"[self]

    @property
    def russian_letter(self) -> str:
        return "ПКБЧ"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def text(self, style: Style = "latin", suits: SuitStyle = "letter") -> str:
        """The suit's token: ``'H'``, ``'♥'`` or ``'Ч'``."""
        if suits == "symbol":
            return self.symbol
        return self.russian_letter if style == "russian" else self.letter

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Parse one suit token (letter in either alphabet, or symbol).

        >>> Suit.parse("♣"), Suit.parse("т"), Suit.parse("ч")
        (<Suit.CLUBS: 1>, <Suit.CLUBS: 1>, <Suit.HEARTS: 3>)
        """
        suit = _SUIT_TOKENS.get(text.strip().upper())
        if suit is None:
            raise NotationError(Msg("cards.bad_suit", text=text))
        return suit


class Rank(IntEnum):
    """Ranks by their face value; the order a game plays them in is the game's own."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def latin(self) -> str:
        return _RANK_LATIN[self]

    @property
    def russian(self) -> str:
        return _RANK_RUSSIAN[self]

    def text(self, style: Style = "latin") -> str:
        return self.russian if style == "russian" else self.latin

    @classmethod
    def parse(cls, text: str, lowest: Rank | None = None) -> Rank:
        """Parse one rank token; a bad one is refused naming the ranks from ``lowest`` up (the game's deck:
        Thousand's starts at the nine).

        >>> Rank.parse("T"), Rank.parse("Т"), Rank.parse("в")
        (<Rank.TEN: 10>, <Rank.ACE: 14>, <Rank.JACK: 11>)
        """
        rank = _RANK_TOKENS.get(text.strip().upper())
        if rank is None:
            low = lowest or Rank.SIX
            latin = " ".join(r.latin + (" T" if r == Rank.TEN else "") for r in Rank if r >= low)
            russian = " ".join(r.russian for r in Rank if r >= low)
            raise NotationError(Msg("cards.bad_rank", text=clip(text), latin=latin, russian=russian))
        return rank


_RANK_LATIN = {r: str(int(r)) for r in Rank if r <= Rank.TEN} | {
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
}
_RANK_RUSSIAN = {r: str(int(r)) for r in Rank if r <= Rank.TEN} | {
    Rank.JACK: "В",
    Rank.QUEEN: "Д",
    Rank.KING: "К",
    Rank.ACE: "Т",
}
_RANK_TOKENS: dict[str, Rank] = (
    {v: k for k, v in _RANK_LATIN.items()} | {v: k for k, v in _RANK_RUSSIAN.items()} | {"T": Rank.TEN}
)
_SUIT_TOKENS: dict[str, Suit] = (
    {s.letter: s for s in Suit}
    | {s.symbol: s for s in Suit}
    | {s.russian_letter: s for s in Suit}
    | {"Т": Suit.CLUBS, "♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS}
)


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Use :meth:`parse` or :data:`DECK_36` rather than building new instances."""

    rank: Rank
    suit: Suit

    @property
    def index(self) -> int:
        """A dense number 0-35, the same in every game: ``suit * 9 + rank - 6``."""
        return self.suit * 9 + self.rank - 6

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this :attr:`index`.

        >>> Card.from_index(35)
        Card.parse('AH')
        """
        if not 0 <= index < 36:
            raise NotationError(Msg("cards.bad_index", index=index))
        return DECK_36[index]

    @classmethod
    def parse(cls, text: str, lowest: Rank | None = None) -> Card:
        """Parse a card in Latin or Russian notation with a suit letter or symbol (see module doc); a bad
        rank is refused naming the ranks from ``lowest`` up.

        >>> try:
        ...     Card.parse("1H", Rank.NINE)
        ... except NotationError as exc:
        ...     print(exc)
        bad card '1H': bad rank '1': expected one of 9 10 T J Q K A or 9 10 В Д К Т
        """
        token = text.strip()
        if len(token) < 2:
            raise NotationError(Msg("cards.too_short", text=text))
        if len(token) > 3:  # "10♥" is the longest card: a long entry is not a card, nor quoted whole twice
            raise NotationError(Msg("cards.bad_card", text=clip(text), reason=Msg("cards.too_long")))
        try:
            rank = Rank.parse(token[:-1], lowest)
            suit = Suit.parse(token[-1])
        except NotationError as exc:
            raise NotationError(Msg("cards.bad_card", text=text, reason=exc.detail)) from None
        return DECK_36[suit * 9 + rank - 6]

    def text(self, style: Style = "latin", suits: SuitStyle = "letter") -> str:
        """The card's token in the chosen notation; :meth:`parse` reads every form back."""
        return self.rank.text(style) + self.suit.text(style, suits)

    def __str__(self) -> str:
        return self.rank.latin + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


#: The 36-card deck (6 to ace), ordered by ``Card.index``.
DECK_36: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)
#: The 24-card deck (9 to ace) that Thousand uses, in the same relative order.
DECK_24: tuple[Card, ...] = tuple(card for card in DECK_36 if card.rank >= Rank.NINE)

_SPLIT = re.compile(r"[\s,;]+")


#: How much of an entry a message quotes: a long line is not echoed back whole.
CLIP = 24


def clip(text: str) -> str:
    """An entry as a message quotes it: at most :data:`CLIP` characters, then "…".

    >>> clip("x" * 30)
    'xxxxxxxxxxxxxxxxxxxxxxxx…'
    """
    return text if len(text) <= CLIP else text[:CLIP] + "…"


def card_reason(detail: Msg | str, entry: str) -> Msg | str:
    """Why a card was not read, inside a message that already quotes ``entry``: without quoting the same
    entry a second time when the entry is that one card.

    >>> print(card_reason(Msg("cards.bad_card", text="9Z", reason=Msg("cards.bad_suit", text="Z")), " 9z"))
    bad suit 'Z': expected one of S C D H, ♠ ♣ ♦ ♥ or П К Т Б Ч
    """
    if isinstance(detail, Msg) and detail.key == "cards.bad_card":
        quoted = str(detail.params["text"]).strip().lower()
        if quoted in (entry.strip().lower(), clip(entry.strip()).lower()):
            reason = detail.params["reason"]
            assert isinstance(reason, Msg)
            return reason
    return detail


def parse_cards(text: str) -> list[Card]:
    """Parse cards separated by spaces or commas.

    >>> parse_cards("AS, 10h Д♦")
    [Card.parse('AS'), Card.parse('10H'), Card.parse('QD')]
    """
    return [Card.parse(token) for token in _SPLIT.split(text.strip()) if token]


def cards_text(cards: Iterable[Card], style: Style = "latin", suits: SuitStyle = "letter") -> str:
    """Cards as one space-separated string that :func:`parse_cards` reads back."""
    return " ".join(card.text(style, suits) for card in cards)


@dataclass(frozen=True)
class CardsShown(Shown):
    """Cards in a message, said in its language: Russian ranks with suit symbols in Russian (``Д♥ 9♠``),
    the canonical Latin in English (``QH 9S``, what the player types and records hold), or Latin with
    symbols (``symbols``: ``Q♥ 9♠``); ``joined`` between them (``+`` for four of a kind or a run).

    >>> hand = CardsShown((Card.parse("QH"), Card.parse("9S")))
    >>> hand.text("ru"), hand.text("en"), CardsShown(hand.cards, symbols=True, joined="+").text("en")
    ('Д♥ 9♠', 'QH 9S', 'Q♥+9♠')
    """

    cards: tuple[Card, ...]
    symbols: bool = False
    joined: str = " "

    def text(self, lang: Lang) -> str:
        if lang == "ru":
            return self.joined.join(card.text("russian", "symbol") for card in self.cards)
        suits: SuitStyle = "symbol" if self.symbols else "letter"
        return self.joined.join(card.text("latin", suits) for card in self.cards)

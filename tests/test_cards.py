"""The card core: notation round-trips in every style, bad tokens are quoted."""

import pytest

from koloda.cards import DECK_24, DECK_36, Card, Rank, Suit, cards_text, parse_cards
from koloda.errors import NotationError


def test_decks_have_the_right_cards() -> None:
    assert len(DECK_36) == len(set(DECK_36)) == 36
    assert len(DECK_24) == 24 and {c.rank for c in DECK_24} == {Rank.NINE, Rank.TEN, *range(11, 15)}
    assert [card.index for card in DECK_36] == list(range(36))


@pytest.mark.parametrize("style", ["latin", "russian"])
@pytest.mark.parametrize("suits", ["letter", "symbol"])
def test_every_card_round_trips_in_every_notation(style: str, suits: str) -> None:
    for card in DECK_36:
        text = card.text(style, suits)  # type: ignore[arg-type]
        assert Card.parse(text) == card
        assert Card.parse(text.lower()) == card
        assert Card.from_index(card.index) is card


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("AS", "AS"),
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("QD", "QD"),
        ("JC", "JC"),
        ("6S", "6S"),
        ("Т♠", "AS"),  # Cyrillic Т is the ace (туз); Latin T is the ten
        ("К♥", "KH"),
        ("Д♦", "QD"),
        ("В♣", "JC"),
        ("10Ч", "10H"),
        ("ТТ", "AC"),  # туз треф
        ("КК", "KC"),  # король крестей
        ("9П", "9S"),
        ("7б", "7D"),
        (" 8♥ ", "8H"),
    ],
)
def test_parse_examples(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize("text", ["", "A", "1H", "11S", "AX", "ZZ", "10", "♥A", "Q♥♥", "AS AS"])
def test_bad_tokens_are_quoted(text: str) -> None:
    with pytest.raises(NotationError) as info:
        Card.parse(text)
    assert repr(text) in str(info.value)


def test_parse_cards_and_back() -> None:
    cards = parse_cards("AS, 10h  Д♦;6c")
    assert cards == [
        Card(Rank.ACE, Suit.SPADES),
        Card(Rank.TEN, Suit.HEARTS),
        Card(Rank.QUEEN, Suit.DIAMONDS),
        Card(Rank.SIX, Suit.CLUBS),
    ]
    assert parse_cards(cards_text(cards, "russian", "symbol")) == cards
    assert cards_text(cards) == "AS 10H QD 6C"


def test_repr_pastes_back() -> None:
    card = Card.parse("10♥")
    assert eval(repr(card)) == card


def test_suit_colour() -> None:
    assert [s.is_red for s in Suit] == [False, False, True, True]

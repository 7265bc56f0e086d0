"""The sample deal of docs/rules/thousand.md, played through the engine: the bidding, the talon, every
trick with its winner and points, and the score the document states."""

from __future__ import annotations

import re
from pathlib import Path

from koloda.thousand import from_deal, observe

DOC = Path(__file__).parents[2] / "docs" / "rules" / "thousand.md"
DEAL = {
    "dealer": 0,
    "hands": ["JD 9S AD 10C 9C AC KH", "QH KC KS JS JH QS 10H", "AS 9H QC AH QD KD JC"],
    "talon": "10S 10D 9D",
}
BIDDING = ["105", "pass", "pass", "9D>2", "9H>1", "140"]
TRICKS = [  # (leader, cards in order, winner, points)
    (2, ["AS", "9S", "JS"], 2, 13),
    (2, ["KD+", "AD", "9D"], 0, 15),
    (0, ["AC", "KC", "JC"], 0, 17),
    (0, ["10C", "10H", "QC"], 0, 23),
    (0, ["9C", "KS", "QD"], 2, 7),
    (2, ["10D", "JD", "JH"], 2, 14),
    (2, ["AH", "9H", "QH"], 2, 14),
    (2, ["10S", "KH", "QS"], 2, 17),
]
POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0}
SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def test_the_sample_deal_plays_as_the_document_tells_it() -> None:
    state = from_deal(DEAL)
    assert state.current_player == 2  # Boris's compulsory 100 is made; Vera speaks first (G5)
    for move in BIDDING:
        state.apply(state.parse_action(move))
    assert state.declarer == 2 and state.phase == "playing"
    for leader, cards, winner, points in TRICKS:
        assert state.current_player == leader
        for card in cards:
            state.apply(state.parse_action(card))
        assert sum(POINTS[card.rstrip("+")[:-1]] for card in cards) == points
        finished = observe(state, None).tricks[-1]
        assert finished.winner == winner
    assert state.trump is not None and state.trump.letter == "D"  # the marriage's suit
    assert state.is_over() and state.returns() == [60, 0, 140]
    score = state.results[-1][1]
    assert score.raw == (55, 0, 145) and score.made


def _shown(card: str) -> str:
    """A card as the document writes it: K♦, or K♦+ for a declared marriage."""
    plus = "+" if card.endswith("+") else ""
    card = card.rstrip("+")
    return card[:-1] + SUITS[card[-1]] + plus


def test_the_document_shows_these_tricks() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## A sample deal") : doc.index("## Part I")]
    names = ["Anna", "Boris", "Vera"]
    rows = re.findall(r"^\| (\d) \| (\w+) \| ([^|]+) \| (\w+) \| (\d+) \|", section, re.MULTILINE)
    shown = [
        (names.index(lead), [c.strip().strip("*") for c in cards.split(",")], names.index(win), int(points))
        for _, lead, cards, win, points in rows
    ]
    expected = [(leader, [_shown(c) for c in cards], w, p) for leader, cards, w, p in TRICKS]
    assert shown == expected
    assert "**+140**" in section and "**+60**" in section

"""The sample deal of docs/rules/bank.md, played through the engine: every move, the bank's top, the
capture, the places and the scores the document states."""

from __future__ import annotations

import re
from pathlib import Path

from koloda.bank import BankOptions, from_deal

DOC = Path(__file__).parents[2] / "docs" / "rules" / "bank.md"
LAYOUT = {
    "hands": [["8S", "6D", "KD", "10S"], ["7D", "8D", "10C", "8H"], ["KC", "9S", "7S", "9H"]],
    "open": "10D",
    "stock": ["JH", "QD", "JC", "JS", "7H"],
    "dealer": 2,
    "trump_suits": ["H", "S", "C"],
}
# (who, move, the bank's top card after it, "-" for an empty bank)
MOVES = [
    (0, "10S", "10S"),
    (1, "10C", "10C"),
    (2, "KC", "KC"),
    (0, "8S", "8S"),
    (0, "pass", "8S"),
    (1, "8D", "8D"),
    (1, "7D", "7D"),
    (0, "6D", "6D"),
    (1, "8H", "8H"),
    (2, "draw", "8H"),
    (2, "pass", "-"),
    (0, "KD", "KD"),
]
SUITS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def shown(card: str) -> str:
    """A card as the document writes it: 10♦."""
    return card[:-1] + SUITS[card[-1]]


def test_the_sample_deal_plays_as_the_document_tells_it() -> None:
    state = from_deal(LAYOUT, BankOptions())
    assert state.current_player == 0  # Anna's K♦ is the nearest lower diamond (rule 4.1)
    assert sorted(state.action_text(a) for a in state.legal_actions()) == ["10S", "6D", "8S", "KD"]
    for who, move, top in MOVES:
        assert state.current_player == who, move
        state.apply(state.parse_action(move))
        assert (state.action_text(state.bank[-1]) if state.bank else "-") == top, move
        if move == "7D":
            assert state.current_player == 0  # the 7 skips Vera
        if move == "draw":
            assert state.hand(2)[-1].index == state.parse_action("JH")  # she drew the J♥
        if (who, move) == (2, "pass"):
            assert state.captured_pts == [0, 35, 0]  # Boris, out, takes the bank (rules 5.1, 5.6)
    result = state.results[-1]
    assert state.is_over() and not result.stuck
    assert result.places == (2, 1, None) and result.loser == 2
    assert result.bonuses == (
        (("7.2", "place 2", 10), ("7.3", "place 2 on a king", 20)),
        (("7.2", "place 1", 20),),
        (),
    )
    assert result.penalties == (0, 0, 1) and result.scores == (30, 55, -1)


def test_the_document_shows_these_moves_and_scores() -> None:
    doc = DOC.read_text(encoding="utf-8")
    section = doc[doc.index("## A sample deal") : doc.index("## The rules")]
    rows = re.findall(r"^\| (\d+) \| (\w+) \| ([^|]+) \|", section, re.MULTILINE)
    names = ["Anna", "Boris", "Vera"]
    assert [(names.index(who), move.strip()) for _, who, move in rows] == [
        (who, move if move in ("pass", "draw") else shown(move)) for who, move, _ in MOVES
    ]
    assert "**30**" in section and "**55**" in section and "**−1**" in section

"""What one seat may see of a Bank state (the only view that crosses to bots and interfaces).

>>> from koloda.bank.state import new_game
>>> view = observe(new_game(players=2, seed=3), 1)
>>> len(view.hand), view.hand_counts, view.stock_size
(4, (4, 4), 27)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from koloda.bank import tables as T
from koloda.bank.state import PHASE_NAMES, BankState, DealResult, action_text
from koloda.cards import DECK_36, Suit


@dataclass(frozen=True)
class BankObservation:
    """One seat's view: its own hand, and only public facts about everything else."""

    seat: int
    players: int
    deal: int
    dealer: int
    current_player: int | None
    phase: str
    hand: tuple[str, ...]
    hand_counts: tuple[int, ...]
    bank: tuple[str, ...]  # bottom first; the bank's cards lie face up
    bank_top_owner: int | None  # None: the open card, or an empty bank
    to_cover: str | None  # the card the next move must cover; None: a free lead
    opening: bool
    stock_size: int
    captured_points: tuple[int, ...]
    captured_cards: tuple[tuple[str, ...], ...]
    out: tuple[bool, ...]
    places: tuple[int, ...]  # seats in the order they went out
    trumps: str
    trump_suits: tuple[str, ...]  # while trumps are chosen in turn: each seat's choice so far, "-" for none
    seven: str  # the agreed rule 4.8, and whether a 7 lies on top
    seven_on_top: bool
    totals: tuple[int, ...]
    legal_actions: tuple[int, ...]  # only for the seat to act
    history: tuple[tuple[int, str], ...]  # this deal's public actions: (seat, text)
    results: tuple[DealResult, ...]
    winner: int | None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        data: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            if name == "results":
                value = [r.to_json() for r in value]
            elif name == "history" or name == "captured_cards":
                value = [list(item) for item in value]
            elif isinstance(value, tuple):
                value = list(value)
            data[name] = value
        return data


def observe(state: BankState, seat: int) -> BankObservation:
    """Everything ``seat`` may see: its own hand, the counts of the others', and the public table."""
    if type(seat) is not int or not 0 <= seat < state.n:
        raise ValueError(f"bad seat {seat!r}: expected 0-{state.n - 1}")
    start = state._deal_starts[-1] if state._deal_starts else 0
    history = tuple((h & 3, action_text(h >> 2)) for h in state.hist[start:])
    over = state.is_over()
    return BankObservation(
        seat=seat,
        players=state.n,
        deal=state.deal_no,
        dealer=state.dealer,
        current_player=state.current_player,
        phase=PHASE_NAMES[state.phase],
        hand=tuple(str(DECK_36[c]) for c in T.cards_of(state.hands[seat])),
        hand_counts=tuple(h.bit_count() for h in state.hands),
        bank=tuple(str(DECK_36[c]) for c in state.bank),
        bank_top_owner=state.top_owner if state.bank and state.top_owner >= 0 else None,
        to_cover=None if over or state.target < 0 else str(DECK_36[state.target]),
        opening=state.opening,
        stock_size=len(state.stock),
        captured_points=tuple(state.captured_pts),
        captured_cards=tuple(tuple(str(DECK_36[c]) for c in T.cards_of(m)) for m in state.captured),
        out=tuple(state.out),
        places=tuple(state.places),
        trumps=state.opts.trumps,
        trump_suits=tuple(Suit(s).letter for s in state.trump_suits)
        or tuple("-" if s < 0 else Suit(s).letter for s in state._chosen),
        seven=state.opts.seven,
        seven_on_top=bool(state.bank) and state.bank[-1] % 9 == T.SEVEN,
        totals=tuple(state.totals),
        legal_actions=tuple(state.legal_actions()) if state.current_player == seat else (),
        history=history,
        results=tuple(state.results),
        winner=state.winner,
    )

"""What one seat may see of a Bank state: the only view that crosses to bots, interfaces and the network.

Bank hides two things: the hands and the stock (rule 2.3). The bank, the captured cards and every move
lie open. :func:`visible_hand` is the one rule of what a seat sees beyond the public table (its own
hand; a spectator nothing); :func:`observe`, the web's views and the observation tensor
(:mod:`koloda.bank.tensor`) all use it.

>>> from koloda.bank.state import new_game
>>> view = observe(new_game(players=2, seed=3), 1)
>>> len(view.hand), view.hand_counts, view.stock_size
(4, (4, 4), 27)
>>> observe(new_game(players=2, seed=3), None).hand
()
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.bank import tables as T
from koloda.bank.actions import action_text, cards_of_action, parse_action
from koloda.bank.explain import Facts, Hint, facts, from_facts
from koloda.bank.scoring import DealResult
from koloda.bank.state import BankState
from koloda.cards import DECK_36, Suit
from koloda.errors import RequestError
from koloda.game import Observation, check_seat


@dataclass(frozen=True, kw_only=True)
class BankObservation(Observation):
    """One seat's view: its own hand, and only public facts about everything else."""

    dealer: int
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
    history: tuple[tuple[int, str], ...]  # this deal's public actions: (seat, text)
    results: tuple[DealResult, ...]
    winner: int | None
    # the public facts the hint is made of (koloda.bank.explain.facts): the hint itself is built only when
    # asked for (bots, which never ask, observe at every step of their playouts)
    hint_facts: Facts = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def hint(self) -> Hint | None:
        """What the player to move may lay and by which rule (koloda.bank.explain): public, the same for
        every seat (made of public facts only); None once over."""
        return from_facts(self.hint_facts)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        del data["hint_facts"]
        hint = self.hint
        # the mover's own cards with their reasons, in his own view only
        data["hint"] = (
            None if hint is None else hint.to_json(cards_mask(self.hand) if self.seat == hint.seat else 0)
        )
        return data


# Texts made once: the web app observes every table at every move.
_CARD = tuple(str(card) for card in DECK_36)  # the canonical text of each card
_ITEMS: dict[int, tuple[int, str]] = {}  # a history entry (action << 2 | seat) as (seat, text)
_MASKS: dict[int, tuple[str, ...]] = {}  # a set of cards as their texts (bounded: cleared when big)


def _item(entry: int) -> tuple[int, str]:
    item = _ITEMS[entry] = (entry & 3, action_text(entry >> 2))
    return item


def _cards(mask: int) -> tuple[str, ...]:
    if len(_MASKS) > 100_000:
        _MASKS.clear()
    cards = _MASKS[mask] = tuple(_CARD[c] for c in T.cards_of(mask))
    return cards


def visible_hand(state: BankState, seat: int | None) -> int:
    """Rule 2.3: the hidden cards a seat may see, as a bitmask: its own hand (a spectator: none)."""
    if seat is None:
        return 0
    if not 0 <= seat < state._n:
        raise RequestError(f"no seat {seat} at a Bank table of {state._n}", field="seat")
    return state._hands[seat]


def observe(state: BankState, seat: int | None) -> BankObservation:
    """Everything ``seat`` may see (``None``: a spectator): its own hand, the counts of the others', and
    the public table."""
    seat = check_seat(state, seat)
    s = state
    start = s.deal_start if s._deal_no else 0  # while trumps are chosen in turn: their choice so far
    history = tuple([_ITEMS.get(h) or _item(h) for h in s._hist[start:]])
    over = s.is_over()
    return BankObservation(
        seat=seat,
        players=s._n,
        deal=s._deal_no,
        phase=s.phase,
        current_player=s.current_player,
        version=s.version,
        legal_actions=tuple(s.legal_actions()) if seat is not None and s.current_player == seat else (),
        dealer=s._dealer,
        hand=tuple(_CARD[c] for c in T.cards_of(visible_hand(s, seat))),
        hand_counts=tuple(h.bit_count() for h in s._hands),
        bank=tuple(_CARD[c] for c in s._bank),
        bank_top_owner=s._top_owner if s._bank and s._top_owner >= 0 else None,
        to_cover=None if over or s._target < 0 else _CARD[s._target],
        opening=s._opening,
        stock_size=len(s._stock),
        captured_points=tuple(s._captured_pts),
        captured_cards=tuple([_MASKS.get(m) or _cards(m) for m in s._captured]),
        out=tuple(s._out),
        places=tuple(s._places),
        trumps=s._opts.trumps,
        trump_suits=tuple(Suit(x).letter for x in s._trump_suits)
        or tuple("-" if x < 0 else Suit(x).letter for x in s._chosen),
        seven=s._opts.seven,
        seven_on_top=bool(s._bank) and s._bank[-1] % 9 == T.SEVEN,
        totals=tuple(s._totals),
        history=history,
        results=tuple(s._results),
        winner=s._winner,
        hint_facts=facts(s),
    )


# -- reading an observation (for bots and samplers) ------------------------------------------------

_TEXT_CARDS: dict[str, tuple[int, ...]] = {}


def laid_cards(text: str) -> tuple[int, ...]:
    """The card indices an action text lays, in the order laid (empty for draw, pass, trump choice).

    >>> laid_cards("KH+QH+JH+9H"), laid_cards("draw")
    ((34, 33, 32, 30), ())
    """
    cards = _TEXT_CARDS.get(text)
    if cards is None:
        cards = _TEXT_CARDS[text] = cards_of_action(action_of(text))
    return cards


_TEXT_ACTIONS: dict[str, int] = {}


def action_of(text: str) -> int:
    """The action id of a (canonical) action text, cached: observations carry the history as text."""
    action = _TEXT_ACTIONS.get(text)
    if action is None:
        action = _TEXT_ACTIONS[text] = parse_action(text)
    return action


_CARD_BITS: dict[str, int] = {str(T.card(c)): 1 << c for c in range(36)}


def cards_mask(cards: Sequence[str]) -> int:
    """The bitmask of card ids of canonical card texts (an observation's hand, bank or captured pile)."""
    m = 0
    for text in cards:
        m |= _CARD_BITS[text]
    return m


def seat_classes(obs: BankObservation, seat: int) -> tuple[int, int, int, int]:
    """Rule 3: the trump class of each suit as ``seat`` sees it (0 plain, 1 trump, 2 senior trump)."""
    classes = [0, 0, 0, 0]
    suits = [Suit.parse(s) if s != "-" else None for s in obs.trump_suits]
    if obs.trumps == "own":
        own = suits[seat] if seat < len(suits) else None
        if own is not None:
            classes[own] = 1
    elif obs.trumps == "senior-junior" and len(suits) == 2:
        senior, junior = suits
        if senior is not None and junior is not None:
            classes[senior], classes[junior] = 2, 1
    elif obs.trumps in ("one", "two"):
        for s in suits:
            if s is not None:
                classes[s] = 1
    return classes[0], classes[1], classes[2], classes[3]

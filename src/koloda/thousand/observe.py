"""What one seat may see of a game of Thousand (rule G15): the only view that crosses to bots, interfaces
and the network.

:func:`visible` is the one rule of which hidden cards a seat sees: its own hand, the talon once it is
shown (rule G7; never to the defenders under ``talon_hidden_at_100`` at the compulsory bid), and of the
declarer's two gifts those it gave or received. :func:`observe`, the web's views, the observation
tensor (:mod:`koloda.thousand.tensor`) and what a seat knows for sampling
(:mod:`koloda.thousand.knowledge`) all use it. A spectator (seat ``None``) sees what a defender sees of
the talon, and no hand and no gift.

>>> from koloda.thousand.state import new_game
>>> state = new_game(seed=3, scope="deal")
>>> view = observe(state, 1)
>>> len(view.hand), view.talon, view.phase
(7, None, 'bidding')
>>> observe(state, None).hand
()
"""

from __future__ import annotations

from dataclasses import dataclass

from koloda.cards import Card, Suit
from koloda.game import Observation, check_seat
from koloda.thousand.actions import (
    ACE_MARRIAGE_VALUE,
    ACES,
    ACTION_TEXTS,
    BID,
    BOMB,
    CARDS,
    FACE_ACE,
    FACE_QUEEN,
    GIVE,
    MARRIAGE_VALUES,
    MARRY,
    PASS,
    action_bid,
    mask_cards,
)
from koloda.thousand.rules import BIDDING
from koloda.thousand.scoring import SeatState
from koloda.thousand.state import ThousandState


@dataclass(frozen=True)
class Trick:
    """A trick: who led, the cards in playing order with their seats, and (when complete) the winner."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None = None


@dataclass(frozen=True)
class Marriage:
    """A declared marriage: the seat, the suit (``None`` for the ace marriage) and its value."""

    seat: int
    suit: Suit | None
    value: int


@dataclass(frozen=True, kw_only=True)
class ThousandObservation(Observation):
    """Everything one seat may see of a game, and nothing else (rule G15)."""

    dealer: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, str], ...]  # (seat, "100" or "pass") in order, the compulsory bid first
    high_bid: int
    declarer: int | None
    talon: tuple[Card, ...] | None  # None while hidden
    gifts: tuple[tuple[int, Card], ...]  # (recipient, card) in the order given: only those the seat saw
    contract: int | None  # the declarer's contract once named (rule G8)
    bomb: bool  # the declarer called a bomb (rule G8)
    trump: Suit | None
    marriages: tuple[Marriage, ...]
    trick: Trick | None  # the trick being played
    tricks: tuple[Trick, ...]  # finished tricks: all, or only the last one (option show_past_tricks)
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    target: int  # the score that wins (S8): public, like every option
    #: Each seat's public standing in the score book: total, deals on the barrel, falls, bolts, bombs
    #: called (rules S6, S7, S11, S13): what a bot needs to value a deal under every scoring option.
    standings: tuple[SeatState, ...] = ()


#: The hidden cards one seat sees: its own hand (a bitmask; 0 for a spectator), the talon once shown to it
#: (a bitmask; None while hidden from it, rule G7), and the card given to the declarer's first and second
#: opponent (-1 when unseen or not given yet). A plain tuple: the tensor builds one every step.
Visible = tuple[int, int | None, int, int]


def visible(state: ThousandState, seat: int | None) -> Visible:
    """Rule G7, G15: the hidden cards ``seat`` sees (``None``: a spectator, who sees what a defender sees
    of the talon and nothing else)."""
    s = state
    o = s._options
    decl = s._declarer
    hand = 0 if seat is None else s._hands[seat]
    if s._phase == BIDDING:
        return hand, None, -1, -1
    talon = None if o.talon_hidden_at_100 and s._high_bid == o.min_bid and seat != decl else s._talon
    gifts = s._gifts
    if seat == decl:
        return hand, talon, gifts[0], gifts[1]
    if seat is not None and seat == s._nxt[decl]:
        return hand, talon, gifts[0], -1
    if seat is not None and seat == s._nxt[s._nxt[decl]]:
        return hand, talon, -1, gifts[1]
    return hand, talon, -1, -1


def observe(state: ThousandState, seat: int | None) -> ThousandObservation:
    """What ``seat`` may see (``None``: a spectator): its own hand, the public bidding and play, the talon
    once shown and the gifts it gave or received (:func:`visible`)."""
    seat = check_seat(state, seat)
    s = state
    hand, talon, *gifts_seen = visible(s, seat)
    bids: list[tuple[int, str]] = [(s._first, str(s._options.min_bid))]  # rule G5: the compulsory bid
    gifts: list[tuple[int, Card]] = []
    tricks: list[Trick] = []
    marriages: list[Marriage] = []
    current: list[tuple[int, Card]] = []
    leader = -1
    given = 0
    contract: int | None = None
    bomb = False
    decl = s._declarer
    for action, actor in zip(s._history[s._deal_start :], s._actors[s._deal_start :], strict=True):
        if action == PASS or (BID <= action < GIVE and given < 2):
            bids.append((actor, ACTION_TEXTS[action]))
        elif BID <= action < GIVE:
            contract = action_bid(action)
        elif action == BOMB:
            bomb = True
        elif action >= GIVE:
            given += 1
            card, k = divmod(action - GIVE, 2)
            if gifts_seen[k] >= 0:
                gifts.append((s._nxt[decl] if k == 0 else s._nxt[s._nxt[decl]], CARDS[card]))
        else:
            if action < MARRY:
                card = action
            elif action < ACES:
                suit, k = divmod(action - MARRY, 2)
                card = suit * 6 + FACE_QUEEN + k
                marriages.append(Marriage(actor, Suit(suit), MARRIAGE_VALUES[suit]))
            else:
                card = (action - ACES) * 6 + FACE_ACE
                marriages.append(Marriage(actor, None, ACE_MARRIAGE_VALUE))
            if not current:
                leader = actor
            current.append((actor, CARDS[card]))
            if len(current) == 3:
                tricks.append(Trick(leader, tuple(current), s._winners[len(tricks)]))
                current = []
    if not s._options.show_past_tricks:
        tricks = tricks[-1:]
    mine = seat is not None and s._to_move == seat
    return ThousandObservation(
        seat=seat,
        players=s._players,
        deal=s.deal_number,
        phase=s.phase,
        current_player=s._to_move,
        version=s.version,
        legal_actions=tuple(s.legal_actions()) if mine else (),
        dealer=s._dealer,
        hand=mask_cards(hand),
        hand_sizes=tuple(h.bit_count() for h in s._hands),
        bids=tuple(bids),
        high_bid=s._high_bid,
        declarer=s.declarer,
        talon=None if talon is None else mask_cards(talon),
        gifts=tuple(gifts),
        contract=contract,
        bomb=bomb,
        trump=s.trump,
        marriages=tuple(marriages),
        trick=Trick(leader, tuple(current)) if current else None,
        tricks=tuple(tricks),
        tricks_won=tuple(s._won),
        totals=tuple(s._book.totals),
        target=s._options.target,
        standings=s._book.seats,
    )

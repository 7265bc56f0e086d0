"""What one seat of Thousand knows: the facts a sampler of worlds must respect.

Two forms, for the two kinds of callers:

* :class:`ThousandKnowledge` (with :class:`DealTracker` and :func:`knowledge_of`): for a caller that drives
  the engine itself (OpenSpiel's ``resample_from_infostate``): the options, the dealer, the score book
  (public), the seat's own dealt hand, the talon if it was shown to it, and the deal's actions with
  their seats in order, where a gift the seat neither gave nor received is hidden (``HIDDEN_GIFT``: the
  giver and the opponent are public, the card is not, rule G15).
* :class:`Knowledge` (with :class:`TrickMemory` and :func:`knowledge`): for a bot that sees only its
  observations: the cards gone, the void suits and the trump of every trick, rebuilt from the
  observation's public tricks (a bot remembers the tricks across its own turns when
  ``show_past_tricks=false`` shows only the last one).

Which hidden cards a seat sees is :func:`koloda.thousand.observe.visible`, in both.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from koloda.errors import RequestError
from koloda.game import check_seat
from koloda.thousand.actions import (
    BOMB,
    CARD_IDS,
    FACE_ACE,
    FACE_KING,
    FACE_QUEEN,
    GIVE,
)
from koloda.thousand.observe import ThousandObservation, visible
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import ScoreBook
from koloda.thousand.state import ThousandState, from_deal, new_game


def cards_mask(cards: Any) -> int:
    """The bitmask of card ids of some cards (an observation's hand or talon)."""
    m = 0
    for card in cards:
        m |= 1 << CARD_IDS[card]
    return m


#: A gift whose card the seat does not see: ``HIDDEN_GIFT - k`` for opponent k (0 or 1) of the declarer.
HIDDEN_GIFT = -1
_REPAIRS = 300
_CANDIDATES = 40


@dataclass(frozen=True)
class ThousandKnowledge:
    """Everything one seat knows about the current deal (see the module docstring)."""

    options: ThousandOptions
    players: int
    seat: int
    dealer: int
    book: ScoreBook  # the score book at the start of the deal (public)
    hand: int  # the seat's dealt cards (a bitmask of card ids; 0 for a sitting dealer)
    talon: int  # the talon if the seat saw it, else -1
    actions: tuple[tuple[int, int], ...]  # (seat, action id), hidden gifts as HIDDEN_GIFT - k

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThousandKnowledge):
            return NotImplemented
        return (self.options, self.players, self.seat, self.dealer, self.hand, self.talon, self.actions) == (
            other.options,
            other.players,
            other.seat,
            other.dealer,
            other.hand,
            other.talon,
            other.actions,
        ) and self.book.totals == other.book.totals

    __hash__ = None  # type: ignore[assignment]


class DealTracker:
    """Follows a Thousand state through one deal, remembering the dealt hands and the talon."""

    def __init__(self, state: ThousandState) -> None:
        self.state = state
        self._start()

    def _start(self) -> None:
        s = self.state
        self.deal_no = s._deal_no
        self.hands = list(s._hands)
        self.talon = s._talon
        self.book = s.book
        self.actions: list[tuple[int, int]] = []

    def __deepcopy__(self, memo: dict[int, object]) -> DealTracker:
        # an OpenSpiel state's clone() deep-copies its tracker; ThousandState.copy shares what never changes
        new = copy.copy(self)
        new.state = self.state.copy()
        new.hands, new.book, new.actions = list(self.hands), self.book.copy(), list(self.actions)
        return new

    def apply(self, action: int) -> None:
        """Play ``action`` on the tracked state."""
        s = self.state
        seat = s._to_move
        assert seat is not None
        s.apply(action)
        if s._deal_no != self.deal_no and not s.is_over():
            self._start()  # the next deal of a match
            return
        self.actions.append((seat, action))

    def knowledge(self, seat: int) -> ThousandKnowledge:
        """What ``seat`` knows of the deal so far."""
        s = self.state
        _, talon, *gifts = visible(s, seat)  # rule G7: the talon once shown, the gifts given or received
        actions = []
        for q, a in self.actions:
            if a >= GIVE and a != BOMB:
                k = (a - GIVE) % 2
                if gifts[k] < 0:
                    a = HIDDEN_GIFT - k
            actions.append((q, a))
        return ThousandKnowledge(
            options=s.options,
            players=s.players,
            seat=seat,
            dealer=s.dealer,
            book=self.book,
            hand=self.hands[seat],
            talon=-1 if talon is None else self.talon,
            actions=tuple(actions),
        )


def knowledge_of(state: ThousandState, seat: int) -> ThousandKnowledge:
    """What ``seat`` knows of the current deal of ``state`` (replaying the game to the deal's start)."""
    if check_seat(state, seat) is None:
        raise RequestError("a spectator knows no deal to sample", field="seat")
    start = state.deal_start
    deal = state.explicit_deal
    if deal is not None:
        base = from_deal(deal, state.options, scope=state.scope)
    else:
        assert state.seed is not None
        base = new_game(state.options, players=state.players, seed=state.seed, scope=state.scope)
    history = state.history
    for a in history[:start]:
        base.apply(a)
    tracker = DealTracker(base)
    for a in history[start:]:
        tracker.apply(a)
    return tracker.knowledge(seat)


# -- from observations (bots) --------------------------------------------------------------------------


@dataclass
class Knowledge:
    """What a seat knows of the deal, rebuilt from its observation (and remembered tricks)."""

    seat: int | None
    players: int
    dealer: int
    declarer: int | None
    hand: int
    gone: int  # cards played in finished and current tricks
    played: list[int]  # per seat: cards it played
    void: list[int]  # per seat: bitmask of suits it is known to lack
    tricks: list[tuple[int, tuple[tuple[int, int], ...]]]  # (leader, ((seat, card id), ...)) incl. current
    marriage_leads: set[int]  # indices into ``tricks`` whose lead declared a marriage (or the ace one)
    trump: int
    complete: bool  # every trick of the deal is known
    talon: int | None
    gifts: list[tuple[int, int]] = field(default_factory=list)  # (recipient, card id) seen by this seat


class TrickMemory:
    """The finished tricks of the current deal as seen in successive views of one seat."""

    def __init__(self) -> None:
        self._deal = -1
        self._tricks: list[Any] = []

    def tricks(self, view: ThousandObservation) -> tuple[list[Any], bool]:
        """Every finished trick of the deal, and whether none is missing."""
        done = sum(view.tricks_won)
        if self._deal != view.deal:
            self._deal, self._tricks = view.deal, []
        if len(view.tricks) == done:
            self._tricks = list(view.tricks)
        elif view.tricks and len(self._tricks) == done - 1:
            self._tricks.append(view.tricks[-1])
        return list(self._tricks), len(self._tricks) == done


def knowledge(view: ThousandObservation, memory: TrickMemory | None = None) -> Knowledge:
    """Rebuild what ``view.seat`` knows: cards gone, voids, the trump of each trick, marriages led."""
    if memory is None:
        finished, complete = list(view.tricks), len(view.tricks) == sum(view.tricks_won)
    else:
        finished, complete = memory.tricks(view)
    all_tricks = finished + ([view.trick] if view.trick is not None else [])
    pending = [(m.seat, -1 if m.suit is None else int(m.suit)) for m in view.marriages]
    played = [0] * view.players
    void = [0] * view.players
    gone = 0
    trump = -1
    tricks: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    leads: set[int] = set()
    for t_index, trick in enumerate(all_tricks):
        cards = tuple((seat, CARD_IDS[card]) for seat, card in trick.cards)
        tricks.append((trick.leader, cards))
        lead_seat, lead = cards[0]
        face, suit = lead % 6, lead // 6
        if face in (FACE_QUEEN, FACE_KING) and (lead_seat, suit) in pending:
            pending.remove((lead_seat, suit))
            leads.add(t_index)
            trump = suit  # rule G9: the marriage's suit is trump from this trick on
        elif face == FACE_ACE and (lead_seat, -1) in pending:
            pending.remove((lead_seat, -1))
            leads.add(t_index)
        for seat, card in cards:
            played[seat] |= 1 << card
            gone |= 1 << card
            if card // 6 != suit:
                void[seat] |= 1 << suit
                if trump >= 0 and card // 6 != trump:
                    void[seat] |= 1 << trump
    if view.trump is not None:
        trump = int(view.trump)
    return Knowledge(
        seat=view.seat,
        players=view.players,
        dealer=view.dealer,
        declarer=view.declarer,
        hand=cards_mask(view.hand),
        gone=gone,
        played=played,
        void=void,
        tricks=tricks,
        marriage_leads=leads,
        trump=trump,
        complete=complete and not pending,
        talon=None if view.talon is None else cards_mask(view.talon),
        gifts=[(r, CARD_IDS[c]) for r, c in view.gifts],
    )

"""What one seat of Bank knows of the current deal: the facts a sampler of worlds must respect.

:class:`BankKnowledge` is what a caller that drives the engine itself gets (OpenSpiel's
``resample_from_infostate``), with :class:`DealTracker` and :func:`knowledge_of`:

* the public facts of the deal: dealer, active seats, trump suits, match totals at its start, the open
  card, the size of the stock, the seat rule 4.1 named to move first (seen even before anyone moves);
* every action of the deal with the seat that played it (the public history; ``observe`` shows it);
* who took each card from the stock and during which action (public: the stock size and the hand sizes
  say so), and, for the seat's own draws, which card it got;
* the seat's own dealt hand.

>>> import random
>>> from koloda.bank.state import new_game
>>> from koloda.bank.worlds import sample_world
>>> state = new_game(players=3, seed=5, scope="deal")
>>> for _ in range(12):
...     state.apply(state.legal_actions()[0])
>>> known = knowledge_of(state, 1)
>>> world = sample_world(known, random.Random(0))
>>> knowledge_of(world, 1) == known, world.hands[1] == state.hands[1]
(True, True)
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from koloda.bank import tables as T
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState, from_deal, new_game
from koloda.game import check_seat


@dataclass(frozen=True)
class BankKnowledge:
    """Everything one seat knows about the current deal (see the module docstring)."""

    options: BankOptions
    players: int
    seat: int
    dealer: int
    active: tuple[int, ...]
    trump_suits: tuple[int, ...]
    totals: tuple[int, ...]  # match totals at the start of the deal
    open_card: int
    stock_size: int  # at the start of the deal
    first_mover: int  # rule 4.1; also the seat to move while ``actions`` is empty
    dealt: tuple[int, ...]  # the seat's own dealt cards, ascending
    actions: tuple[tuple[int, int], ...]  # (seat, action id) of the deal, in order
    # one per card taken from the stock, in order: (index of the action during which it was taken,
    # the seat that took it, the card if the seat is ``seat`` itself, else -1)
    pops: tuple[tuple[int, int, int], ...]


class DealTracker:
    """Follows a Bank state through one deal and records what each seat has seen.

    Start it on a state at the start of a deal (or at any time in the choose-trump phase); pass every
    action through :meth:`apply`. When a match moves to its next deal the tracker starts over.
    """

    def __init__(self, state: BankState) -> None:
        self.state = state
        self._start()

    def _start(self) -> None:
        s = self.state
        self.deal_no = s.deal_no
        self.dealt = list(s.hands)
        self.open_card = s.bank[0] if s.bank else -1
        self.stock_size = len(s._stock)
        self.first_mover = s.starter
        self.dealer, self.active = s.dealer, s.active
        self.trump_suits, self.totals = s.trump_suits, tuple(s.totals)
        self.actions: list[tuple[int, int]] = []
        self.pops: list[tuple[int, int, int]] = []

    def __deepcopy__(self, memo: dict[int, object]) -> DealTracker:
        # an OpenSpiel state's clone() deep-copies its tracker; BankState.copy shares the immutable tables
        new = copy.copy(self)
        new.state = self.state.copy()
        new.dealt, new.actions, new.pops = list(self.dealt), list(self.actions), list(self.pops)
        return new

    def apply(self, action: int) -> None:
        """Play ``action`` on the tracked state, noting who took which card from the stock."""
        s = self.state
        seat, deal, before, choosing = s._cur, s._deal_no, len(s._stock), s.phase == "choose-trump"
        top = s._stock[-2:][::-1]  # at most two cards leave the stock in one action: a draw, or a 7's (4.8)
        s.apply(action)
        if s._deal_no != deal or choosing:
            self._start()  # the next deal of a match, or the first one after trumps were chosen (rule 3.2)
            return
        t = len(self.actions)
        self.actions.append((seat, action))
        for card in top[: before - len(s._stock)]:
            holder = next(p for p in range(s._n) if s._hands[p] >> card & 1)
            self.pops.append((t, holder, card))

    def knowledge(self, seat: int) -> BankKnowledge:
        """What ``seat`` knows of the deal so far."""
        s = self.state
        return BankKnowledge(
            options=s.options,
            players=s.players,
            seat=seat,
            dealer=self.dealer,
            active=self.active,
            trump_suits=self.trump_suits,
            totals=self.totals,
            open_card=self.open_card,
            stock_size=self.stock_size,
            first_mover=self.first_mover,
            dealt=tuple(T.cards_of(self.dealt[seat])),
            actions=tuple(self.actions),
            pops=tuple((t, q, c if q == seat else -1) for t, q, c in self.pops),
        )


def knowledge_of(state: BankState, seat: int) -> BankKnowledge:
    """What ``seat`` knows of the current deal of ``state``, read by replaying the deal from its start.

    Only facts the seat has seen go in (its own cards and draws, public actions and stock counts).
    """
    check_seat(state, seat)
    start = state.deal_start
    base = _rebuild(state, start)
    tracker = DealTracker(base)
    for _, action in state.history[start:]:
        tracker.apply(action)
    return tracker.knowledge(seat)


def _rebuild(state: BankState, upto: int) -> BankState:
    """The state after the first ``upto`` actions of ``state``'s history."""
    deal = state.explicit_deal
    if deal is not None:
        base = from_deal(deal, state.options, scope=state.scope)
    else:
        base = new_game(state.options, players=state.players, seed=state.seed, scope=state.scope)
    for _, action in state.history[:upto]:
        base.apply(action)
    return base

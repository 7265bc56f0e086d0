"""Worlds a Bank seat cannot tell apart: what a seat knows, and a sampler of full deals consistent with it.

Search bots (IS-MCTS, determinised rollouts) need full states that agree with everything one seat has
seen. The input is **what the seat knows** about the current deal, :class:`BankKnowledge`:

* the public facts of the deal: dealer, active seats, trump suits, match totals at its start, the open
  card, the size of the stock, the seat rule 4.1 named to move first (seen even before anyone moves);
* every action of the deal with the seat that played it (the public history; ``observe`` shows it);
* who took each card from the stock and during which action (public: the stock size and the hand sizes
  say so), and, for the seat's own draws, which card it got;
* the seat's own dealt hand.

A bot that drives the engine itself gets it with :func:`knowledge_of` (which reads only those facts);
a bot fed observations keeps a :class:`DealTracker` or builds the tuple itself from what it remembered.

:func:`sample_deal` draws the hidden cards (the other hands and the stock order) so that replaying the
deal's public history on them is legal at every step and gives the seat exactly what it saw: every card
another seat laid was in that seat's hand when laid, a seat that drew or passed could not move with the
hand it held then (rule 4.9), the first mover is the one rule 4.1 names, and the seat's own cards and
draws are unchanged. :func:`sample_world` returns that deal as a :class:`BankState` with the history
replayed. The draw is not the exact posterior (later constraints bias it slightly) but every world it
returns is possible.

>>> import random
>>> from koloda.bank.state import new_game
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
import random
from collections.abc import Sequence
from dataclasses import dataclass

from koloda.bank import tables as T
from koloda.bank.actions import cards_of_action
from koloda.bank.deal import layout_json
from koloda.bank.observe import (
    BankObservation,
    action_of,
    cards_mask,
    check_seat,
    laid_cards,
    seat_classes,
)
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState, from_deal, new_game
from koloda.cards import DECK_36, Suit
from koloda.errors import IllegalActionError, KolodaError, RecordError, RequestError

#: Repairs tried on one candidate deal before drawing a fresh one, and fresh candidates before giving up.
_REPAIRS = 300
_CANDIDATES = 40


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
        seat, deal, before = s._cur, s._deal_no, len(s._stock)
        top = s._stock[-2:][::-1]  # at most two cards leave the stock in one action: a draw, or a 7's (4.8)
        s.apply(action)
        if s._deal_no != deal:
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
        opts = state.options
        if opts.trump_choice == "in-turn":
            opts = opts.replace(trump_choice="random")  # the deal names the suits chosen (rule 3.2)
        base = from_deal(deal, opts, scope=state.scope)
    else:
        base = new_game(state.options, players=state.players, seed=state.seed, scope=state.scope)
    for _, action in state.history[:upto]:
        base.apply(action)
    return base


# -- sampling ---------------------------------------------------------------------------------------------


class _Slots:
    """Where every card of a deal sits: hand slots (4 per active seat) and stock positions (pop order).

    ``owner[s]`` is the seat whose hand the slot is in (-1: still in the stock at the end of the history)
    and ``since[s]`` the index of the action during which it came to that hand (-1: dealt).
    """

    def __init__(self, known: BankKnowledge) -> None:
        self.known = known
        me = known.seat
        self.owner: list[int] = []
        self.since: list[int] = []
        self.fixed: list[int] = []  # the card of a slot the seat itself knows, else -1
        self.hand_slots: dict[int, list[int]] = {}
        dealt = list(known.dealt)
        for p in known.active:
            slots = []
            for k in range(4):
                slots.append(len(self.owner))
                self.owner.append(p)
                self.since.append(-1)
                self.fixed.append(dealt[k] if p == me else -1)
            self.hand_slots[p] = slots
        self.stock0 = len(self.owner)
        for k in range(known.stock_size):
            if k < len(known.pops):
                t, q, c = known.pops[k]
                self.owner.append(q)
                self.since.append(t)
                self.fixed.append(c if q == me else -1)
            else:
                self.owner.append(-1)
                self.since.append(10**9)
                self.fixed.append(-1)
        used = {c for c in self.fixed if c >= 0} | {known.open_card}
        self.hidden = [c for c in range(36) if c not in used]
        # cards other seats laid: they were in that seat's hand when laid (rules 4.3-4.7)
        self.revealed: dict[int, tuple[int, int]] = {}
        for t, (q, a) in enumerate(known.actions):
            if q != me and a < T.DRAW:
                for c in cards_of_action(a):
                    if c in used or c in self.revealed:
                        raise RecordError(
                            f"no Bank deal is consistent with what seat {me} has seen: "
                            f"seat {q} laid {DECK_36[c]}, which it cannot have held"
                        )
                    self.revealed[c] = (q, t)


def _candidate(slots: _Slots, rng: random.Random) -> list[int] | None:
    """A first guess: every revealed card in a slot of its player that it could have come from."""
    card = list(slots.fixed)
    free = [s for s, c in enumerate(card) if c < 0]
    taken = set()
    for c, (q, t) in sorted(slots.revealed.items(), key=lambda item: item[1][1]):
        options = [s for s in free if s not in taken and slots.owner[s] == q and slots.since[s] < t]
        if not options:
            return None  # the knowledge itself is inconsistent
        s = options[rng.randrange(len(options))]
        taken.add(s)
        card[s] = c
    rest = [c for c in slots.hidden if c not in slots.revealed]
    rng.shuffle(rest)
    for s in free:
        if s not in taken:
            card[s] = rest.pop()
    return card


def _build(slots: _Slots, card: list[int]) -> BankState:
    """The deal a slot assignment describes, at its start."""
    known = slots.known
    hands = [[card[s] for s in slots.hand_slots.get(p, ())] for p in range(known.players)]
    stock = [card[s] for s in range(slots.stock0, len(card))]
    return deal_state(
        known.options, known.dealer, known.trump_suits, hands, known.open_card, stock, known.totals
    )


def deal_state(
    options: BankOptions,
    dealer: int,
    trump_suits: Sequence[int],
    hands: Sequence[Sequence[int]],
    open_card: int,
    stock: Sequence[int],
    totals: Sequence[int] | None = None,
    *,
    keep_layout: bool = False,
) -> BankState:
    """The state at the start of a deal given as card ids (stock top first), built without parsing text:
    samplers and the OpenSpiel chance nodes build many. With ``keep_layout`` the state keeps the deal's
    layout (:func:`deal_layout`) as its explicit deal, so that its record replays; samplers skip it.
    """
    state = BankState(
        options,
        len(hands),
        "deal",
        0,
        dealer=dealer,
        trump_suits=trump_suits,
        layout=(hands, open_card, list(stock)[::-1]),
        totals=totals,
    )
    if keep_layout:
        state._deal = deal_layout(state)
    return state


def _replay(state: BankState, known: BankKnowledge) -> int:
    """Replay the public history; the index of the first action that fails, or -1 when all replay.

    0 also when rule 4.1 names another first mover: with no action yet, the seat to move is all that says so.
    """
    if state._cur != known.first_mover:
        return 0
    for t, (q, a) in enumerate(known.actions):
        if state._cur != q:
            return t
        try:
            state.apply(a)
        except IllegalActionError:
            return t
    return -1


def _repair(slots: _Slots, card: list[int], state: BankState, t: int, rng: random.Random) -> bool:
    """Swap two cards so that the failure at action ``t`` may go away; False when nothing can be swapped.

    Either rule 4.1 named another first mover (move a card dealt to another seat), or a seat that drew or
    passed (rule 4.9) holds a card it could have played (move that card out of its hand at that time).
    """
    n = len(card)
    q = slots.known.first_mover
    if t == 0 and state._cur != q:
        lower = 0  # rule 4.1: someone holds a card of the open card's suit nearer to it than he should
        dealt = [card[x] for x in range(slots.stock0) if slots.fixed[x] < 0]
        suit = slots.known.open_card // 9
        near = [c for c in dealt if c // 9 == suit]
        offending = near if near and rng.random() < 0.5 else dealt
    else:
        q = slots.known.actions[t][0]
        lower = t
        hand = state._hands[q]
        offending = [
            c for b in state.legal_actions() if b < T.DRAW for c in cards_of_action(b) if hand >> c & 1
        ]
    if not offending:
        return False  # (defensive) nothing to move: the next repair round draws again
    c = offending[rng.randrange(len(offending))]
    s = card.index(c)
    if c in slots.revealed:
        # a card its seat laid later stays with that seat: it can only have come to him later
        owner, when = slots.revealed[c]
        targets = [
            x
            for x in range(n)
            if x != s
            and slots.owner[x] == owner
            and lower <= slots.since[x] < when
            and slots.fixed[x] < 0
            and (card[x] not in slots.revealed or slots.since[s] < slots.revealed[card[x]][1])
        ]
    else:
        targets = [
            x
            for x in range(n)
            if x != s
            and slots.fixed[x] < 0
            and card[x] not in slots.revealed
            and not (lower and slots.owner[x] == q and slots.since[x] < t)
        ]
    if not targets:
        return False
    x = targets[rng.randrange(len(targets))]
    card[s], card[x] = card[x], card[s]
    return True


def sample_deal(known: BankKnowledge, rng: random.Random) -> BankState:
    """A state at the start of the deal, consistent with ``known`` (the history not yet replayed).

    Raises :class:`KolodaError` if ``known`` describes no possible deal.
    """
    if set(known.active) != set(range(known.players)):
        raise RequestError("sampling a deal played by only the tied seats (rule 8.2) is not supported")
    slots = _Slots(known)
    for _ in range(_CANDIDATES):
        card = _candidate(slots, rng)
        if card is None:
            break
        for _ in range(_REPAIRS):
            state = _build(slots, card)
            t = _replay(state, known)
            if t < 0:
                state = _build(slots, card)
                state._deal = deal_layout(state)  # so that the world replays and reports its own deal
                return state
            _repair(slots, card, state, t, rng)
    raise RecordError(f"no Bank deal is consistent with what seat {known.seat} has seen")


def sample_world(known: BankKnowledge, rng: random.Random) -> BankState:
    """A full state consistent with ``known``: :func:`sample_deal` with the deal's history replayed.

    The state's scope is "deal"; its later deals (if any) would come from an unknown seed.
    """
    state = sample_deal(known, rng)
    for _, a in known.actions:
        state.apply(a)
    return state


def deal_layout(state: BankState) -> dict[str, object]:
    """The ``from_deal`` layout of a state at the start of its deal (hands, open card, stock top first)."""
    return layout_json(
        state._hands, state._bank[0], state._stock, state.dealer, state.trump_suits, state.totals
    )


# -- worlds from an observation (search bots) ------------------------------------------------------------


class WorldSampler:
    """Draws full deal states consistent with a seat's observation (all a search bot has: the observation
    shows the deal's whole public history). The unseen cards are dealt at random to the other hands and
    the stock; the deal's start is rebuilt (a card drawn and laid at once is the
    card laid; a card drawn before a failure is one the player still held) and the public history is
    replayed through the engine, which rejects any world where a recorded move would have been illegal:
    so every world agrees with who moved first (rule 4.1), with every draw and every failure (rule 4.9).
    The automatic draws of rule 4.8 (``seven=draw-and-move`` / ``skip-and-draw``) are not in the history:
    such positions are not sampled and the bot plays its heuristic move."""

    def __init__(self, options: BankOptions, attempts: int = 40) -> None:
        self._options = (
            options.replace(trump_choice="random") if options.trump_choice == "in-turn" else options
        )
        self._attempts = attempts
        self._auto_draws = options.seven in ("draw-and-move", "skip-and-draw")

    def __call__(self, obs: BankObservation, rng: random.Random) -> BankState | None:
        if obs.phase == "choose-trump" or obs.current_player != obs.seat:
            return None
        for _ in range(self._attempts):
            world = self._try(obs, rng)
            if world is not None:
                return world
        return None

    def _try(self, obs: BankObservation, rng: random.Random) -> BankState | None:
        n, me = obs.players, obs.seat
        assert me is not None  # a seat's observation, never a spectator's
        hand = cards_mask(obs.hand)
        public = cards_mask(obs.bank)
        for pile in obs.captured_cards:
            public |= cards_mask(pile)
        laid = [0] * n
        events: list[tuple[int, str]] = list(obs.history)
        for seat, text in events:
            for c in laid_cards(text):
                laid[seat] |= 1 << c
        all_laid = 0
        for m in laid:
            all_laid |= m
        open_mask = public & ~all_laid
        if open_mask.bit_count() != 1:
            return None
        active = [p for p in range(n) if obs.hand_counts[p] or laid[p] or p == me]
        if self._auto_draws and any(c % 9 == T.SEVEN for m in laid for c in T.cards_of(m)):
            return None  # rule 4.8 drew cards that are not in the history: not sampled
        forbidden = self._forbidden(obs, events, open_mask.bit_length() - 1)
        pool = T.cards_of(T.FULL_DECK & ~hand & ~public)
        rng.shuffle(pool)
        hands = [0] * n
        hands[me] = hand
        room = {p: obs.hand_counts[p] for p in range(n) if p != me and obs.hand_counts[p]}
        stock: list[int] = []
        # an explicit deal may leave cards out of play (from_deal); a shuffled deal uses all 36
        spare = len(pool) - sum(room.values()) - obs.stock_size
        for c in pool:
            seats = [p for p, r in room.items() if r and not forbidden[p] >> c & 1]
            free = len(stock) < obs.stock_size
            k = rng.randrange(len(seats) + free) if seats or free else -1
            if k < 0:
                if spare <= 0:
                    return None
                spare -= 1
                continue
            if k == len(seats):
                stock.append(c)
            else:
                hands[seats[k]] |= 1 << c
                room[seats[k]] -= 1
        if len(stock) != obs.stock_size or any(room.values()):
            return None
        # rebuild the start: which card each draw brought; a draw followed at once by a single card laid
        # brought that card (the player could not move before drawing, so his move uses the drawn card)
        forced: dict[int, int] = {}
        taken = [0] * n
        for k, (seat, text) in enumerate(events):
            if text == "draw" and k + 1 < len(events) and events[k + 1][0] == seat:
                cards = laid_cards(events[k + 1][1])
                if len(cards) == 1:
                    forced[k] = cards[0]
                    taken[seat] |= 1 << cards[0]
        drawn: list[int] = []
        for k, (seat, text) in enumerate(events):
            if text != "draw":
                continue
            after = events[k + 1][1] if k + 1 < len(events) and events[k + 1][0] == seat else None
            cards = laid_cards(after) if after is not None else ()
            if k in forced:
                drawn.append(forced[k])
                continue
            else:
                later = 0
                for s, t in events[k + 1 :]:
                    if s == seat:
                        for c in laid_cards(t):
                            later |= 1 << c
                options = T.cards_of((hands[seat] | later) & ~taken[seat])
                if cards:
                    options = [c for c in cards if not taken[seat] >> c & 1]
                if not options:
                    return None
                card = options[rng.randrange(len(options))]
            taken[seat] |= 1 << card
            drawn.append(card)
        initial = [(hands[p] | laid[p]) & ~taken[p] for p in range(n)]
        if any(initial[p].bit_count() != 4 for p in active):
            return None
        if "-" in obs.trump_suits:
            return None
        hands_list = [T.cards_of(initial[p]) for p in range(n)]
        if any(not h for h in hands_list):
            return None  # a seat sitting out a tie deal (rule 8.2): not sampled
        suits = [int(Suit.parse(letter)) for letter in obs.trump_suits]
        open_card = open_mask.bit_length() - 1
        state = deal_state(self._options, obs.dealer, suits, hands_list, open_card, drawn + stock, obs.totals)
        try:
            for seat, text in events:
                if state.current_player != seat:
                    return None
                state.apply(action_of(text))
        except KolodaError:
            return None
        if state.current_player != me or tuple(state.legal_actions()) != tuple(obs.legal_actions):
            return None
        return state

    def _forbidden(self, obs: BankObservation, events: list[tuple[int, str]], open_card: int) -> list[int]:
        """Per seat, the cards it cannot hold now: every card in a hand was already held at that seat's
        last failure (rule 4.9: a card drawn since then was laid at once), so none of them covers the card
        it failed against, and none is an 8 (rule 4.5)."""
        n = obs.players
        out = [0] * n
        top = open_card
        opening = True
        free = self._options.two_trumps_cover == "free"
        previous: tuple[int, str] | None = None
        for seat, text in events:
            cards = laid_cards(text)
            if cards:
                top, opening = cards[-1], False
            elif text == "pass" and not (
                previous is not None and previous[0] == seat and previous[1] != "draw"
            ):
                cover = T.cover_table(seat_classes(obs, seat), free)[top] | T.EIGHTS
                if opening and self._options.opening == "free":
                    cover |= T.SUIT_MASK[top // 9]
                out[seat] = cover
            previous = (seat, text)
        return out

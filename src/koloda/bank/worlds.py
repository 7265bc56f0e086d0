"""Worlds a Bank seat cannot tell apart: samplers of full deals consistent with what it knows.

Search bots (IS-MCTS, determinised rollouts) need full states that agree with everything one seat has
seen. Three ways, for three kinds of callers:

* :func:`sample_deal` / :func:`sample_world` from a :class:`~koloda.bank.knowledge.BankKnowledge`
  (OpenSpiel's ``resample_from_infostate``): they draw the hidden cards (the other hands and the stock
  order) so that replaying the deal's public history on them is legal at every step and gives the seat
  exactly what it saw: every card another seat laid was in that seat's hand when laid, a seat that drew
  or passed could not move with the hand it held then (rule 4.9), the first mover is the one rule 4.1
  names, and the seat's own cards and draws are unchanged. The draw is not the exact posterior (later
  constraints bias it slightly) but every world it returns is possible.
* :class:`WorldSampler` from a seat's observation alone (the search bots, which see only observations).
* :func:`redeal_hidden`: the hidden cards dealt again with no regard to the history, for tests that a
  seat's view does not change when only what it cannot see changes.

>>> import random
>>> from koloda.bank.knowledge import knowledge_of
>>> from koloda.bank.state import new_game
>>> state = new_game(players=3, seed=5, scope="deal")
>>> for _ in range(12):
...     state.apply(state.legal_actions()[0])
>>> world = sample_world(knowledge_of(state, 1), random.Random(0))
>>> knowledge_of(world, 1) == knowledge_of(state, 1), world.hands[1] == state.hands[1]
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from koloda.bank import tables as T
from koloda.bank.actions import cards_of_action
from koloda.bank.deal import layout_json
from koloda.bank.knowledge import BankKnowledge
from koloda.bank.observe import (
    BankObservation,
    action_of,
    cards_mask,
    laid_cards,
    seat_classes,
)
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState
from koloda.cards import DECK_36, Suit
from koloda.errors import IllegalActionError, KolodaError, RecordError, RequestError
from koloda.game import check_seat

#: Repairs tried on one candidate deal before drawing a fresh one, and fresh candidates before giving up.
_REPAIRS = 300
_CANDIDATES = 40


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
        self._options = options
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


# -- what a seat cannot tell apart, the quick way ---------------------------------------------------------


def redeal_hidden(state: BankState, seat: int | None, rng: random.Random) -> BankState:
    """A copy of ``state`` whose cards hidden from ``seat`` (the other hands and the stock, rule 2.3) are
    dealt again at random among those places, each keeping its size. ``seat`` sees no difference: its
    observation is the same (the conformance suite checks this of every game). The copy need not be one
    the deal's history could reach: only what ``seat`` sees is kept.
    """
    check_seat(state, seat)
    new = state.copy()
    others = [p for p in range(state.players) if p != seat]
    cards = [c for p in others for c in T.cards_of(new._hands[p])] + list(new._stock)
    rng.shuffle(cards)
    for p in others:
        size = new._hands[p].bit_count()
        new._hands[p] = sum(1 << c for c in cards[:size])
        cards = cards[size:]
    new._stock = cards
    new._legal = None
    return new

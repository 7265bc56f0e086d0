"""Worlds a Thousand seat cannot tell apart: what a seat knows of a deal, and a sampler of full deals
consistent with it (for search bots and OpenSpiel's ``resample_from_infostate``).

The input is **what the seat knows**, :class:`ThousandKnowledge`: the options, the dealer, the score
book (public), its own dealt hand, the talon if it was shown to it (rule G7), and the deal's actions with
their seats in order, where a gift the seat neither gave nor received is hidden (``HIDDEN_GIFT``: the
giver and the opponent are public, the card is not, rule G15). A bot driving the engine gets it with
:func:`knowledge_of`; a bot fed observations keeps the same facts (``observe`` shows its hand, the
bidding, the talon, its gifts and every trick).

:func:`sample_deal` draws the unseen cards (the other hands, the talon if unseen, the hidden gift) so
that replaying the history on them is legal at every step: every card a seat played or declared was in
its hand then, a seat that did not follow suit had none of that suit (and no trump, if it did not trump;
rule G11, G12 with ``must_beat``), bids above the cap show a marriage (G6), and the deal is not one that
rule G4 deals again. Its own cards and what it saw are unchanged. The draw is not the exact posterior;
every world it returns is possible.

>>> import random
>>> from koloda.thousand.game import new_game
>>> state = new_game(players=3, seed=4, scope="deal")
>>> for _ in range(12):
...     state.apply(state.legal_actions()[0])
>>> known = knowledge_of(state, 2)
>>> world = sample_world(known, random.Random(1))
>>> knowledge_of(world, 2) == known, world.hand(2) == state.hand(2)
(True, True)
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass

from koloda.errors import IllegalActionError, KolodaError
from koloda.thousand import game as G
from koloda.thousand.game import ThousandState, from_deal, new_game
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import ScoreBook

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
        self.book = s._book.copy()
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
        o = s.options
        # rule G7 as observe shows it: the talon once the bidding is over, unless hidden at the lowest bid
        shown = s._phase != G.BIDDING and not (
            o.talon_hidden_at_100 and s._high_bid == o.min_bid and seat != s._declarer
        )
        actions = []
        for q, a in self.actions:
            if a >= G.GIVE and a != G.BOMB:
                k = (a - G.GIVE) % 2
                recipient = s._nxt[q] if k == 0 else s._nxt[s._nxt[q]]
                if seat not in (q, recipient):
                    a = HIDDEN_GIFT - k
            actions.append((q, a))
        return ThousandKnowledge(
            options=o,
            players=s._players,
            seat=seat,
            dealer=s._dealer,
            book=self.book,
            hand=self.hands[seat],
            talon=self.talon if shown else -1,
            actions=tuple(actions),
        )


def knowledge_of(state: ThousandState, seat: int) -> ThousandKnowledge:
    """What ``seat`` knows of the current deal of ``state`` (replaying the game to the deal's start)."""
    if type(seat) is not int or not 0 <= seat < state._players:
        raise KolodaError(f"bad seat {seat!r}: seats are 0-{state._players - 1}")
    start = state._deal_start
    if state._deal0 is not None:
        base = from_deal(G.deal_to_json(state._deal0), state.options, scope=state._scope)
    else:
        assert state._seed is not None
        base = new_game(state.options, players=state._players, seed=state._seed, scope=state._scope)
    for a in state._history[:start]:
        base.apply(a)
    tracker = DealTracker(base)
    for a in state._history[start:]:
        tracker.apply(a)
    return tracker.knowledge(seat)


# -- sampling ---------------------------------------------------------------------------------------------


def _played(action: int) -> tuple[int, ...]:
    """Cards an action shows its seat holds: the card played, both cards of a marriage, four aces."""
    if action < G.MARRY:
        return (action,) if action >= 0 else ()
    if action < G.ACES:
        suit = (action - G.MARRY) // 2
        return (suit * 6 + 3, suit * 6 + 4)
    if action < G.PASS:
        return tuple(s * 6 + 5 for s in range(4))
    if G.GIVE <= action < G.BOMB:
        return ((action - G.GIVE) // 2,)
    return ()


class _World:
    """What the seat's knowledge says about where cards were dealt (the candidates are dicts of places)."""

    def __init__(self, known: ThousandKnowledge) -> None:
        self.known = known
        n, me = known.players, known.seat
        self.sitting = known.dealer if n == 4 else -1
        self.seats = [q for q in range(n) if q != me and q != self.sitting]
        decl = _declarer(known)
        self.declarer = decl
        # when the talon joined the declarer's hand: the last bidding action
        self.talon_time: int = next(
            (t for t, (_, a) in enumerate(known.actions) if a >= G.GIVE or a < 0 or a == G.BOMB), 10**9
        )
        self.talon_known = known.talon >= 0
        nxt = G._NEXT[n, known.dealer]
        # hidden gifts (one for an opponent of the declarer, both for a sitting dealer): k -> (time, seat)
        self.gifts = {
            -1 - a: (t, nxt[decl] if a == HIDDEN_GIFT else nxt[nxt[decl]])
            for t, (_, a) in enumerate(known.actions)
            if a < 0
        }
        used = known.hand | (known.talon if self.talon_known else 0)
        # cards whose holder is known: (holder, the first action index by which he held it)
        self.revealed: dict[int, tuple[int, int]] = {}
        self.forced: dict[int, int] = {}  # hidden gift k -> its card, when the seat saw where it came from
        for t, (q, a) in enumerate(known.actions):
            for c in _played(a):
                if q == me or c in self.revealed:
                    continue
                if used >> c & 1:
                    if q != decl:  # a card the seat saw in the talon, played by an opponent: a gift
                        self.forced.update((k, c) for k, (_, r) in self.gifts.items() if r == q)
                    continue
                self.revealed[c] = (q, t)
        self.unknown = [c for c in range(24) if not used >> c & 1]

    def holders(self, c: int) -> list[str]:
        """Where a revealed card may have been dealt: "hand q" or "talon"."""
        q, t = self.revealed[c]
        out = []
        if q in self.seats:
            out.append(f"hand {q}")
        if q == self.declarer and not self.talon_known and t >= self.talon_time:
            out.append("talon")
        return out


def _declarer(known: ThousandKnowledge) -> int:
    """The declarer once the bidding is over (rule G5): the last seat to bid, else the first hand."""
    first = G._NEXT[known.players, known.dealer][known.dealer]
    decl = first
    for q, a in known.actions:
        if G.BID <= a < G.GIVE:
            decl = q
        if a >= G.GIVE or a < 0 or a == G.BOMB:
            return q
    return decl


def _candidate(w: _World, rng: random.Random) -> dict[str, list[int]] | None:
    places: dict[str, list[int]] = {f"hand {q}": [] for q in w.seats}
    room = {f"hand {q}": 7 for q in w.seats}
    if not w.talon_known:
        places["talon"] = []
        room["talon"] = 3
    gift = dict(w.forced)
    for c, (q, t) in sorted(w.revealed.items(), key=lambda item: item[1][1]):
        options = [p for p in w.holders(c) if len(places[p]) < room[p]]
        decl_places = [p for p in (f"hand {w.declarer}", "talon") if p in places and len(places[p]) < room[p]]
        # a hidden gift went to this seat: was it this card? (rarely: the seat's own hand is likelier)
        for k, (when, seat) in w.gifts.items():
            if (
                seat == q
                and t > when
                and k not in gift
                and decl_places
                and (not options or rng.random() < 0.15)
            ):
                gift[k] = c
                options = decl_places
                break
        if not options:
            return None
        where = options[rng.randrange(len(options))]
        places[where].append(c)
    rest = [c for c in w.unknown if c not in w.revealed]
    rng.shuffle(rest)
    for p, cards in places.items():
        while len(cards) < room[p]:
            cards.append(rest.pop())
    for k in w.gifts:
        if k in gift:
            continue
        pool = [c for p in (f"hand {w.declarer}", "talon") if p in places for c in places[p]]
        if w.talon_known:
            pool += [c for c in range(24) if w.known.talon >> c & 1]
        played_by_declarer = {c for q, a in w.known.actions if q == w.declarer for c in _played(a)}
        pool = [c for c in pool if c not in played_by_declarer and c not in gift.values()]
        if not pool:
            return None
        gift[k] = pool[rng.randrange(len(pool))]
    places["gift"] = [gift.get(0, -1), gift.get(1, -1)]
    return places


def _build(w: _World, places: dict[str, list[int]]) -> tuple[ThousandState, list[int]] | None:
    """The deal at its start and the history with the hidden gift filled in; None if rule G4 voids it."""
    known = w.known
    hands = [0] * known.players
    hands[known.seat] = known.hand
    for q in w.seats:
        for c in places[f"hand {q}"]:
            hands[q] |= 1 << c
    talon = known.talon if w.talon_known else sum(1 << c for c in places["talon"])
    state = ThousandState(
        known.options,
        known.players,
        "deal",
        None,
        {"dealer": known.dealer, "hands": hands, "talon": talon, "seed": 0},
    )
    if state._shuffle != 1:
        return None  # rule G4 would have dealt these cards again
    state._book = known.book.copy()
    gift = places["gift"]
    actions = [a if a >= 0 else G.GIVE + 2 * gift[-1 - a] + (-1 - a) for _, a in known.actions]
    return state, actions


def _replay(state: ThousandState, known: ThousandKnowledge, actions: list[int]) -> int:
    for t, a in enumerate(actions):
        if state._to_move != known.actions[t][0]:
            return t
        try:
            state.apply(a)
        except IllegalActionError:
            return t
    return -1


def _swap(
    w: _World, places: dict[str, list[int]], state: ThousandState | None, t: int, rng: random.Random
) -> None:
    """Move one card that makes action ``t`` impossible (or, for a void deal, any card) elsewhere."""
    movable = {p: [c for c in cards if c not in w.revealed] for p, cards in places.items() if p != "gift"}
    if state is None or t < 0:
        sources = [p for p in movable if movable[p]]
    else:
        q, a = w.known.actions[t]
        source = f"hand {q}"
        if source not in movable:
            sources = [p for p in movable if movable[p]]
        elif G.BID <= a < G.GIVE and state._phase == G.BIDDING:
            # rule G6: a bid above the cap shows a marriage: bring a king and queen into that hand
            suit = rng.randrange(4)
            for c in (suit * 6 + 3, suit * 6 + 4):
                if c in places[source] or c in w.revealed:
                    continue
                giver = next((p for p in movable if c in movable[p]), None)
                mine = movable[source]
                if giver is None or not mine:
                    continue
                d = mine[rng.randrange(len(mine))]
                places[giver][places[giver].index(c)] = d
                places[source][places[source].index(d)] = c
                movable[source].remove(d)
            return
        else:
            hand = state._hands[q]
            legal_cards = {c for b in state.legal_actions() for c in _played(b) if hand >> c & 1}
            offending = [c for c in movable[source] if c in legal_cards] or movable[source]
            if offending:
                c = offending[rng.randrange(len(offending))]
                targets = [(p, d) for p in movable if p != source for d in movable[p]]
                if targets:
                    p, d = targets[rng.randrange(len(targets))]
                    places[source][places[source].index(c)] = d
                    places[p][places[p].index(d)] = c
                return
            sources = [p for p in movable if movable[p]]
    if len(sources) < 2:
        return
    a_place, b_place = rng.sample(sources, 2)
    c, d = rng.choice(movable[a_place]), rng.choice(movable[b_place])
    places[a_place][places[a_place].index(c)] = d
    places[b_place][places[b_place].index(d)] = c


def sample_deal(known: ThousandKnowledge, rng: random.Random) -> tuple[ThousandState, list[int]]:
    """A state at the start of the deal consistent with ``known``, and the deal's actions on it (the hidden
    gift filled in). Raises :class:`KolodaError` if ``known`` describes no possible deal."""
    w = _World(known)
    for _ in range(_CANDIDATES):
        places = _candidate(w, rng)
        if places is None:
            continue
        for _ in range(_REPAIRS):
            built = _build(w, places)
            if built is None:
                _swap(w, places, None, -1, rng)
                continue
            state, actions = built
            t = _replay(state, known, actions)
            if t < 0:
                fresh = _build(w, places)
                assert fresh is not None
                return fresh
            _swap(w, places, state, t, rng)
    raise KolodaError(f"no Thousand deal is consistent with what seat {known.seat} has seen")


def sample_world(known: ThousandKnowledge, rng: random.Random) -> ThousandState:
    """A full state consistent with ``known``: :func:`sample_deal` with the history replayed."""
    state, actions = sample_deal(known, rng)
    for a in actions:
        state.apply(a)
    return state

"""Worlds a Thousand seat cannot tell apart: samplers of full states consistent with what it knows.

Two samplers, for the two forms of :mod:`koloda.thousand.knowledge`: :func:`sample_world` from a
:class:`~koloda.thousand.knowledge.ThousandKnowledge` (OpenSpiel's ``resample_from_infostate``), and
:class:`WorldSampler` from a seat's observation (the search bots, which see only observations).

:func:`sample_deal` draws the unseen cards (the other hands, the talon if unseen, the hidden gift) so
that replaying the history on them is legal at every step: every card a seat played or declared was in
its hand then, a seat that did not follow suit had none of that suit (and no trump, if it did not trump;
rule G11, G12 with ``must_beat``), bids above the cap show a marriage (G6), and the deal is not one that
rule G4 deals again. Its own cards and what it saw are unchanged. The draw is not the exact posterior;
every world it returns is possible.

>>> import random
>>> from koloda.thousand.state import new_game
>>> from koloda.thousand.knowledge import knowledge_of
>>> state = new_game(players=3, seed=4, scope="deal")
>>> for _ in range(12):
...     state.apply(state.legal_actions()[0])
>>> known = knowledge_of(state, 2)
>>> world = sample_world(known, random.Random(1))
>>> knowledge_of(world, 2) == known, world.hand(2) == state.hand(2)
(True, True)
"""

from __future__ import annotations

import random

from koloda.errors import IllegalActionError, RecordError
from koloda.game import check_seat
from koloda.thousand.actions import (
    ACES,
    BID,
    BOMB,
    FACE_ACE,
    FACE_KING,
    FACE_QUEEN,
    GIVE,
    MARRY,
    bid_action,
    mask_ids,
    parse_action,
    shown_cards,
)
from koloda.thousand.deal import NEXT
from koloda.thousand.knowledge import (
    HIDDEN_GIFT,
    Knowledge,
    ThousandKnowledge,
    TrickMemory,
    cards_mask,
    knowledge,
)
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions
from koloda.thousand.rules import BIDDING
from koloda.thousand.state import ThousandState

_REPAIRS = 300
_CANDIDATES = 40
ALL_CARDS = (1 << 24) - 1


# -- sampling ---------------------------------------------------------------------------------------------


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
            (t for t, (_, a) in enumerate(known.actions) if a >= GIVE or a < 0 or a == BOMB), 10**9
        )
        self.talon_known = known.talon >= 0
        nxt = NEXT[n, known.dealer]
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
            for c in shown_cards(a):
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
    first = NEXT[known.players, known.dealer][known.dealer]
    decl = first
    for q, a in known.actions:
        if BID <= a < GIVE:
            decl = q
        if a >= GIVE or a < 0 or a == BOMB:
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
        played_by_declarer = {c for q, a in w.known.actions if q == w.declarer for c in shown_cards(a)}
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
        # a shuffled deal is never void, so neither is a world of it: "redeal" makes the engine deal a void
        # world again, which the check below sees (an explicit void deal, played as given, finds no world)
        {"dealer": known.dealer, "hands": hands, "talon": talon, "seed": 0, "redeal": True},
    )
    if state._shuffle != 1:
        return None  # rule G4 would have dealt these cards again
    state._book = known.book.copy()
    gift = places["gift"]
    actions = [a if a >= 0 else GIVE + 2 * gift[-1 - a] + (-1 - a) for _, a in known.actions]
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
        elif BID <= a < GIVE and state._phase == BIDDING:
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
            legal_cards = {c for b in state.legal_actions() for c in shown_cards(b) if hand >> c & 1}
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
    raise RecordError(f"no Thousand deal is consistent with what seat {known.seat} has seen")


def sample_world(known: ThousandKnowledge, rng: random.Random) -> ThousandState:
    """A full state consistent with ``known``: :func:`sample_deal` with the history replayed."""
    state, actions = sample_deal(known, rng)
    for a in actions:
        state.apply(a)
    return state


# -- worlds from observations (search bots) ----------------------------------------------------------------


class WorldSampler:
    """Draws full deal states consistent with a seat's view: the hidden cards are dealt at random among the
    other hands respecting known voids, the gifts and the talon, and the public bidding and play are
    replayed through the engine, which rejects any world where a recorded move would have been illegal
    (so every world also respects the bid cap, following suit and the duty to beat)."""

    def __init__(self, options: ThousandOptions, memory: TrickMemory, attempts: int = 100) -> None:
        self._options = options
        self._memory = memory
        self._attempts = attempts

    def __call__(self, view: ThousandObservation, rng: random.Random) -> ThousandState | None:
        know = knowledge(view, self._memory)
        if not know.complete or view.phase != "playing" or view.declarer is None or view.contract is None:
            return None
        for _ in range(self._attempts):
            world = self._try(view, know, rng)
            if world is not None:
                return world
        return None

    def _try(self, view: ThousandObservation, know: Knowledge, rng: random.Random) -> ThousandState | None:
        n, me, decl = view.players, view.seat, view.declarer
        assert decl is not None and me is not None
        active = [p for p in range(n) if n == 3 or p != view.dealer]
        others = [p for p in active if p != me]
        hands = [0] * n
        hands[me] = know.hand
        sizes = view.hand_sizes
        gave_to = dict((r, c) for r, c in know.gifts)
        placed = 0
        for r, c in know.gifts:  # gifts this seat gave, not yet played, are in the recipients' hands
            if r != me and not know.gone >> c & 1:
                hands[r] |= 1 << c
                placed |= 1 << c
        for m in view.marriages:  # a declared marriage's other card is still in its owner's hand
            cards = (
                [s * 6 + FACE_ACE for s in range(4)]
                if m.suit is None
                else [m.suit * 6 + FACE_QUEEN, m.suit * 6 + FACE_KING]
            )
            for c in cards:
                if m.seat != me and not (know.gone | know.hand | placed) >> c & 1:
                    hands[m.seat] |= 1 << c
                    placed |= 1 << c
        talon = know.talon
        talon_gifts: dict[int, int] = {}  # the other opponent's unseen gift, when it came from the talon
        if talon is not None and decl != me:
            # Rule G7: the declarer gave one of his other nine cards to the other opponent, a talon card
            # with prior chance (talon cards left) / 9; drawn so, and worlds the play rules out rejected
            # (a talon card played by someone else, or one the other opponent is void in or has no room
            # for). Without a talon gift, a talon card he played rules the world out too.
            left = talon & ~(1 << gave_to[me] if me in gave_to else 0)
            for r in active:
                if r in (me, decl) or r in gave_to:
                    continue
                shown = know.played[r] | hands[r]  # what he played, and a declared marriage's other card
                if rng.randrange(9) < left.bit_count():
                    c = mask_ids(left)[rng.randrange(left.bit_count())]
                    if not shown >> c & 1:
                        if (know.gone | placed) >> c & 1 or know.void[r] >> (c // 6) & 1:
                            return None
                        if hands[r].bit_count() >= sizes[r]:
                            return None
                        hands[r] |= 1 << c
                        placed |= 1 << c
                    talon_gifts[r] = c
                elif talon & shown:
                    return None
            # the declarer keeps the talon's other unplayed cards
            keep = talon & ~know.gone & ~know.hand & ~placed
            if keep.bit_count() > sizes[decl]:
                return None
            hands[decl] |= keep
            placed |= keep
        pool = mask_ids(ALL_CARDS & ~know.gone & ~know.hand & ~placed)
        rng.shuffle(pool)
        for card in pool:
            options = [
                p for p in others if hands[p].bit_count() < sizes[p] and not know.void[p] >> (card // 6) & 1
            ]
            if not options:
                return None
            p = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
            hands[p] |= 1 << card
        # the deal as it was dealt: each hand's cards now and played, before the talon and the gifts
        initial = [hands[p] | know.played[p] for p in range(n)]
        opponents = [p for p in active if p != decl]
        gifts: dict[int, int] = {}
        for r in opponents:
            if r in gave_to:
                gifts[r] = gave_to[r]
            elif r in talon_gifts:
                gifts[r] = talon_gifts[r]
            else:  # a gift this seat did not see: any card the recipient held
                held = mask_ids(initial[r])
                gifts[r] = held[rng.randrange(len(held))]
        for r, c in gifts.items():
            initial[r] &= ~(1 << c)
            initial[decl] |= 1 << c
        if talon is None:
            held = mask_ids(initial[decl])
            rng.shuffle(held)
            talon = sum(1 << c for c in held[:3])
        if initial[decl] & talon != talon:
            return None
        initial[decl] &= ~talon
        deal = {"dealer": view.dealer, "hands": initial, "talon": talon, "seed": 0, "redeal": True}
        state = ThousandState(self._options, n, "deal", None, deal)
        if any(cards_mask(state.hand(p)) != initial[p] for p in active):
            return None  # the world would have been dealt again (rule G4)
        try:
            for seat, text in view.bids[1:]:
                if state.current_player != seat:
                    return None
                state.apply(parse_action(text))
            first = state.current_player
            seen_order = [r for r, _ in know.gifts]  # the declarer saw both, in the order given
            for r in sorted(gifts, key=lambda p: seen_order.index(p) if p in seen_order else 2):
                k = 0 if r == _next_active(active, decl) else 1
                state.apply(GIVE + 2 * gifts[r] + k)
            if first != decl:
                return None
            assert view.contract is not None
            state.apply(bid_action(view.contract))
            for t_index, (_leader, trick_cards) in enumerate(know.tricks):
                for i, (seat, card) in enumerate(trick_cards):
                    if state.current_player != seat:
                        return None
                    action = card
                    if i == 0 and t_index in know.marriage_leads:
                        face = card % 6
                        action = (
                            ACES + card // 6
                            if face == FACE_ACE
                            else MARRY + 2 * (card // 6) + face - FACE_QUEEN
                        )
                    state.apply(action)
        except IllegalActionError:
            return None
        if state.current_player != me or tuple(state.legal_actions()) != tuple(view.legal_actions):
            return None
        if any(len(state.hand(p)) != view.hand_sizes[p] for p in active):
            return None  # more known cards placed in a hand than it holds
        return state


def _next_active(active: list[int], seat: int) -> int:
    return active[(active.index(seat) + 1) % len(active)]


def redeal_hidden(state: ThousandState, seat: int | None, rng: random.Random) -> ThousandState:
    """A copy of ``state`` whose cards hidden from ``seat`` (the other hands, and the talon while it is
    hidden from it, rule G15) are dealt again at random among those places, each keeping its size.
    ``seat`` sees no difference: its observation is the same (the conformance suite checks this of every
    game). The copy need not be one the deal's history could reach: only what ``seat`` sees is kept.
    """
    check_seat(state, seat)
    new = state.copy()
    others = [p for p in range(state.players) if p != seat]
    talon_hidden = new._phase == BIDDING  # afterwards the talon's cards are in the declarer's hand
    cards = [c for p in others for c in mask_ids(new._hands[p])]
    if talon_hidden:
        cards += mask_ids(new._talon)
    rng.shuffle(cards)
    for p in others:
        size = new._hands[p].bit_count()
        new._hands[p] = sum(1 << c for c in cards[:size])
        cards = cards[size:]
    if talon_hidden:
        new._talon = sum(1 << c for c in cards)
    new._legal = None
    return new

"""Thousand bots: the heuristic player, the world sampler, the endgame solver and the search bot.

Everything here starts from a :class:`koloda.thousand.game.ThousandView` (rule G14): the cards gone, the
void suits and the trump of every trick are rebuilt from the view's public tricks, and a bot remembers
tricks across its own turns only from the views it was given (option ``show_past_tricks=false`` shows
only the last trick).

>>> from koloda.thousand.game import new_game, observe
>>> state = new_game(seed=5, scope="deal")
>>> bot = ThousandHeuristicBot(seed=0)
>>> while not state.is_over():
...     seat = state.current_player
...     state.apply(bot.choose(observe(state, seat), state.legal_actions()))
>>> len(state.results)
1
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from koloda.bots.levels import BotSpec
from koloda.bots.search import SearchBot
from koloda.errors import IllegalActionError
from koloda.thousand.game import (
    ACES,
    BID,
    BOMB,
    CARD_IDS,
    GIVE,
    MARRIAGE_VALUES,
    MARRY,
    PASS,
    POINTS,
    STRENGTH,
    ThousandState,
    ThousandView,
    action_bid,
    bid_action,
    parse_action,
)
from koloda.thousand.options import ThousandOptions

_QUEEN, _KING, _ACE = 3, 4, 5
#: Cards of each suit from the strongest down (rule G1: A 10 K Q J 9).
_SUIT_ORDER = tuple(tuple(sorted(range(s * 6, s * 6 + 6), key=lambda c: -STRENGTH[c])) for s in range(4))
_ALL = (1 << 24) - 1


def _mask(cards: Any) -> int:
    m = 0
    for card in cards:
        m |= 1 << CARD_IDS[card]
    return m


def _ids(mask: int) -> list[int]:
    return [c for c in range(24) if mask >> c & 1]


def _points(mask: int) -> int:
    return sum(POINTS[c] for c in range(24) if mask >> c & 1)


@dataclass
class Knowledge:
    """What a seat knows of the deal, rebuilt from a view (and remembered tricks): nothing hidden."""

    seat: int
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


def _beats(card: int, target: int, trump: int) -> bool:
    if card // 6 == target // 6:
        return STRENGTH[card] > STRENGTH[target]
    return card // 6 == trump


class TrickMemory:
    """The finished tricks of the current deal as seen in successive views of one seat."""

    def __init__(self) -> None:
        self._deal = -1
        self._tricks: list[Any] = []

    def tricks(self, view: ThousandView) -> tuple[list[Any], bool]:
        """Every finished trick of the deal, and whether none is missing."""
        done = sum(view.tricks_won)
        if self._deal != view.deal_number:
            self._deal, self._tricks = view.deal_number, []
        if len(view.tricks) == done:
            self._tricks = list(view.tricks)
        elif view.tricks and len(self._tricks) == done - 1:
            self._tricks.append(view.tricks[-1])
        return list(self._tricks), len(self._tricks) == done


def knowledge(view: ThousandView, memory: TrickMemory | None = None) -> Knowledge:
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
        if face in (_QUEEN, _KING) and (lead_seat, suit) in pending:
            pending.remove((lead_seat, suit))
            leads.add(t_index)
            trump = suit  # rule G9: the marriage's suit is trump from this trick on
        elif face == _ACE and (lead_seat, -1) in pending:
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
        hand=_mask(view.hand),
        gone=gone,
        played=played,
        void=void,
        tricks=tricks,
        marriage_leads=leads,
        trump=trump,
        complete=complete and not pending,
        talon=None if view.talon is None else _mask(view.talon),
        gifts=[(r, CARD_IDS[c]) for r, c in view.gifts],
    )


# --- the heuristic player ------------------------------------------------------------------------------


def hand_value(hand: int, *, talon_bonus: float) -> float:
    """Rule-of-thumb points a declarer can expect from a hand: sure tricks, marriages and a share of the
    rest (the bidding and contract estimate; ``talon_bonus`` is what the talon is worth on average).

    >>> hand_value(_mask_text("AH 10H KH QH AS 10S 9C"), talon_bonus=0) >= 100 + 40
    True
    """
    value = talon_bonus
    for s in range(4):
        suit = hand >> (s * 6) & 63
        if suit >> _QUEEN & 1 and suit >> _KING & 1:
            value += MARRIAGE_VALUES[s]
        # sure winners: the unbroken run of top cards (A, then 10, then K ...) takes a trick each
        for card in _SUIT_ORDER[s]:
            if not hand >> card & 1:
                break
            value += POINTS[card] + 8  # the card and about what two others put on it
        else:
            continue
    # lower cards still win some tricks: count a third of their points
    value += 0.3 * (_points(hand) - sum(POINTS[c] for c in _ids(hand) if _is_top(hand, c)))
    return value


def _is_top(hand: int, card: int) -> bool:
    for c in _SUIT_ORDER[card // 6]:
        if c == card:
            return True
        if not hand >> c & 1:
            return False
    return True


def _mask_text(text: str) -> int:
    from koloda.cards import parse_cards

    return _mask(parse_cards(text))


class CautiousRandomBot:
    """Random, but passes in the bidding, keeps the bid after the talon unless a higher contract would win
    the game at once (200 points or less from the target), and declares every marriage it may.

    Uniformly random bidders overbid every deal, fail, and a game of them drifts below zero for ever
    (docs/rules/thousand.md G14): whole-game tests and golden games use these to reach the end.
    """

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: ThousandView, legal: Sequence[int]) -> int:
        if view.phase == "bidding":
            return PASS
        if view.phase == "contract":  # keep the bid, or raise to what wins the game at once
            need = view.target - view.totals[view.seat]
            winning = [a for a in legal if BID <= a < GIVE and action_bid(a) >= need]
            return winning[0] if winning and need <= 200 else legal[0]
        marriages = [a for a in legal if MARRY <= a < PASS]
        if marriages:
            return self._rng.choice(marriages)
        return self._rng.choice(legal)


class ThousandHeuristicBot:
    """A hand-written player: bids from a hand evaluation (marriages, sure tricks), gives away its cheapest
    cards, bombs a hopeless contract, and plays tracking the cards gone (boss cards, voids, the partner's
    trick as a defender). ``noise`` is the share of uniformly random moves (the ``easy`` level)."""

    def __init__(self, seed: int = 0, *, noise: float = 0.0, options: ThousandOptions | None = None) -> None:
        self._rng = random.Random(seed)
        self._noise = noise
        self._options = options or ThousandOptions()
        self._memory = TrickMemory()

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        assert isinstance(observation, ThousandView)
        view = observation
        know = knowledge(view, self._memory)  # keeps the trick memory current on every turn
        if self._noise and self._rng.random() < self._noise:
            return legal_actions[self._rng.randrange(len(legal_actions))]
        legal = list(legal_actions)
        if view.phase == "bidding":
            return self._bid(view, know, legal)
        if view.phase == "giving":
            return self._give(know, legal)
        if view.phase == "contract":
            return self._contract(view, know, legal)
        return self._play(view, know, legal)

    def _bid(self, view: ThousandView, know: Knowledge, legal: list[int]) -> int:
        estimate = hand_value(know.hand, talon_bonus=12)
        bids = [a for a in legal if BID <= a < GIVE and action_bid(a) <= estimate]
        return min(bids) if bids else PASS  # raise by the least step while the hand is worth it

    def _give(self, know: Knowledge, legal: list[int]) -> int:
        def keep(action: int) -> float:
            card = (action - GIVE) // 2
            s, face = card // 6, card % 6
            in_marriage = (
                face in (_QUEEN, _KING) and know.hand >> (s * 6 + _QUEEN) & know.hand >> (s * 6 + _KING) & 1
            )
            return POINTS[card] + 60 * in_marriage + 15 * _is_top(know.hand, card) + action % 2 * 0.01

        return min(legal, key=keep)

    def _contract(self, view: ThousandView, know: Knowledge, legal: list[int]) -> int:
        estimate = hand_value(know.hand, talon_bonus=0)
        contracts = [a for a in legal if BID <= a < GIVE]
        if BOMB in legal and estimate < view.high_bid - 25:
            return BOMB  # rule G8: a bomb costs less than the bid it would lose
        fitting = [a for a in contracts if action_bid(a) <= max(estimate, view.high_bid)]
        return max(fitting) if fitting else min(contracts)

    def _play(self, view: ThousandView, know: Knowledge, legal: list[int]) -> int:
        trump = know.trump
        unseen = _ALL & ~know.gone & ~know.hand
        trick = know.tricks[-1][1] if view.trick is not None else ()
        if not trick:
            marriages = [a for a in legal if MARRY <= a < BID and a != PASS]
            if marriages:  # declare the richest marriage, leading its king
                return max(marriages, key=lambda a: (_marriage_value(a), a % 2 if a < ACES else 0))
            return self._lead(know, legal, unseen, trump)
        cards = [a for a in legal if a < MARRY]
        best_seat, best = trick[0]
        for seat, card in trick[1:]:
            if _beats(card, best, trump):
                best_seat, best = seat, card
        trick_points = sum(POINTS[c] for _, c in trick)
        last = len(trick) == 2
        friend = (
            know.declarer is not None
            and know.seat != know.declarer
            and best_seat != know.declarer
            and best_seat != know.seat
        )
        winners = [c for c in cards if _beats(c, best, trump)]
        if friend and (last or self._safe(best, unseen, trump)):
            return max(cards, key=lambda c: (POINTS[c], -STRENGTH[c]))  # give points to the partner
        if winners:
            if last:
                if trick_points > 0 or min(POINTS[c] for c in winners) == 0:
                    return min(winners, key=lambda c: (POINTS[c], STRENGTH[c]))
            else:
                safe = [c for c in winners if self._safe(c, unseen, trump)]
                if safe:
                    return min(safe, key=lambda c: (POINTS[c], STRENGTH[c]))
        return min(cards, key=lambda c: (POINTS[c], STRENGTH[c], c // 6 == trump))

    @staticmethod
    def _safe(card: int, unseen: int, trump: int) -> bool:
        """Whether no unseen card of the suit beats it (trumps from a void are not counted)."""
        return not any(
            unseen >> c & 1 and _beats(c, card, -1) for c in range(card // 6 * 6, card // 6 * 6 + 6)
        )

    def _lead(self, know: Knowledge, legal: list[int], unseen: int, trump: int) -> int:
        cards = [a for a in legal if a < MARRY]
        if not cards:
            return legal[0]
        bosses = [c for c in cards if self._safe(c, unseen, trump)]
        if trump >= 0:
            trumps_out = unseen >> (trump * 6) & 63
            if trumps_out:  # an opponent may ruff: lead bosses of trump first
                trump_bosses = [c for c in bosses if c // 6 == trump]
                if trump_bosses:
                    return max(trump_bosses, key=lambda c: POINTS[c])
        if bosses:
            return max(bosses, key=lambda c: (POINTS[c], STRENGTH[c]))

        def lead_cost(c: int) -> tuple[int, int, int]:
            s = c // 6
            in_marriage = know.hand >> (s * 6 + _QUEEN) & know.hand >> (s * 6 + _KING) & 1
            return (int(in_marriage), int(s == trump), POINTS[c])

        return min(cards, key=lead_cost)


def _marriage_value(action: int) -> int:
    return 200 if action >= ACES else MARRIAGE_VALUES[(action - MARRY) // 2]


# --- sampled worlds -------------------------------------------------------------------------------------


class WorldSampler:
    """Draws full deal states consistent with a seat's view: the hidden cards are dealt at random among the
    other hands respecting known voids, the gifts and the talon, and the public bidding and play are
    replayed through the engine, which rejects any world where a recorded move would have been illegal
    (so every world also respects the bid cap, following suit and the duty to beat)."""

    def __init__(self, options: ThousandOptions, memory: TrickMemory, attempts: int = 100) -> None:
        self._options = options
        self._memory = memory
        self._attempts = attempts

    def __call__(self, view: ThousandView, rng: random.Random) -> ThousandState | None:
        know = knowledge(view, self._memory)
        if not know.complete or view.phase != "playing" or view.declarer is None or view.contract is None:
            return None
        for _ in range(self._attempts):
            world = self._try(view, know, rng)
            if world is not None:
                return world
        return None

    def _try(self, view: ThousandView, know: Knowledge, rng: random.Random) -> ThousandState | None:
        n, me, decl = view.players, view.seat, view.declarer
        assert decl is not None
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
                [s * 6 + _ACE for s in range(4)]
                if m.suit is None
                else [m.suit * 6 + _QUEEN, m.suit * 6 + _KING]
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
                    c = _ids(left)[rng.randrange(left.bit_count())]
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
        pool = _ids(_ALL & ~know.gone & ~know.hand & ~placed)
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
                held = _ids(initial[r])
                gifts[r] = held[rng.randrange(len(held))]
        for r, c in gifts.items():
            initial[r] &= ~(1 << c)
            initial[decl] |= 1 << c
        if talon is None:
            held = _ids(initial[decl])
            rng.shuffle(held)
            talon = sum(1 << c for c in held[:3])
        if initial[decl] & talon != talon:
            return None
        initial[decl] &= ~talon
        deal = {"dealer": view.dealer, "hands": initial, "talon": talon, "seed": 0}
        state = ThousandState(self._options, n, "deal", None, deal)
        if any(_mask(state.hand(p)) != initial[p] for p in active):
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
                        action = ACES + card // 6 if face == _ACE else MARRY + 2 * (card // 6) + face - _QUEEN
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


# --- values and the endgame solver ----------------------------------------------------------------------


def utility(state: ThousandState, seat: int) -> float:
    """A finished deal's value for ``seat``: its score change minus the mean of the other players'."""
    delta = state.results[-1][1].delta
    others = [d for p, d in enumerate(delta) if p != seat and not (state.players == 4 and p == state.dealer)]
    return delta[seat] - sum(others) / len(others)


def make_solver(max_cards: int) -> Any:
    """An exact solver of trick play once every hand holds at most ``max_cards`` cards: the declarer
    maximises and the defenders minimise the declarer's value (a paranoid two-team search); the seat gets
    the value of the leaf that optimal play reaches."""

    def solve(state: ThousandState, seat: int) -> float | None:
        if max_cards <= 0 or state.is_over() or state.phase != "playing":
            return None
        if max(len(state.hand(p)) for p in range(state.players)) > max_cards:
            return None
        decl = state.declarer
        assert decl is not None
        return _minimax(state, decl, seat)[1]

    return solve


def _minimax(
    state: ThousandState, decl: int, seat: int, alpha: float = -math.inf, beta: float = math.inf
) -> tuple[float, float]:
    """Alpha-beta on the declarer's value; the pair is (declarer's value, seat's value) of the leaf that
    optimal play reaches. Moves replace the best only when strictly better, so the line found (and the
    seat's value) is the one plain minimax finds, with far fewer leaves."""
    if state.is_over():
        return utility(state, decl), utility(state, seat)
    maximise = state.current_player == decl
    best: tuple[float, float] | None = None
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        value = _minimax(child, decl, seat, alpha, beta)
        if best is None or (value[0] > best[0] if maximise else value[0] < best[0]):
            best = value
        if maximise:
            alpha = max(alpha, best[0])
        else:
            beta = min(beta, best[0])
        if alpha >= beta:
            break
    assert best is not None
    return best


def greedy_rollout(state: ThousandState, rng: random.Random) -> int:
    """A playout move that plays like a careless human rather than at random: a follower takes the trick
    with his cheapest winning card when he can (the last hand always, the second hand half the time) and
    otherwise throws his cheapest card; leads and the other phases are random. It runs inside sampled
    worlds only, so it reads the world's trick directly (the hot path of the search)."""
    legal = state.legal_actions()
    trick = state._trick
    if not trick or len(legal) == 1 or rng.random() < 0.1:
        return legal[rng.randrange(len(legal))]
    trump = state._trump
    best = trick[0]
    for card in trick[1:]:
        if _beats(card, best, trump):
            best = card
    winners = [c for c in legal if c < MARRY and _beats(c, best, trump)]
    if winners and (len(trick) == 2 or rng.random() < 0.5):
        return min(winners, key=lambda c: STRENGTH[c] + 10 * (c // 6 == trump))
    return min(legal, key=lambda c: POINTS[c] if c < MARRY else 99)


def make_search_bot(spec: BotSpec, seed: int, options: ThousandOptions | None) -> SearchBot:
    """The ``search`` bot of Thousand: PIMC over sampled worlds for the trick play, exact endgames, and the
    heuristic for the bidding, the talon and the contract (decisions whose worlds random rollouts judge
    badly)."""
    opts = options or ThousandOptions()
    fallback = ThousandHeuristicBot(seed, options=opts)
    return SearchBot(
        seed,
        sampler=WorldSampler(opts, fallback._memory),
        utility=utility,
        fallback=fallback,
        searchable=lambda view, legal: view.phase == "playing",
        scale=100.0,
        worlds=20,  # a world serves several playouts: sampling costs about as much as a playout
        iters=spec.iters,
        ms=spec.ms,
        solver=make_solver(spec.endgame),
        rollout=greedy_rollout,
        margin=1.0 if spec.margin is None else spec.margin,  # the heuristic's card stands unless beaten
    )


__all__ = [
    "Knowledge",
    "ThousandHeuristicBot",
    "TrickMemory",
    "WorldSampler",
    "hand_value",
    "knowledge",
    "make_search_bot",
    "make_solver",
    "utility",
]

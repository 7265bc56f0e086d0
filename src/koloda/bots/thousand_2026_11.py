"""Thousand's bots as they were in November 2026, kept unchanged as fixed opponents for tournaments (the
levels ``medium-2026-11`` and ``hard-2026-11``, docs/bots.md): the heuristic player, the endgame solver on
copied states and the search bot with greedy playouts. The bots people play are in
:mod:`koloda.bots.thousand`.

Everything here starts from a :class:`koloda.thousand.observe.ThousandObservation` (rule G15): what the
seat knows is rebuilt from it by :func:`koloda.thousand.knowledge.knowledge`, and the search bot's
worlds come from :class:`koloda.thousand.worlds.WorldSampler`.

>>> from koloda.thousand import new_game, observe
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
from typing import Any

from koloda.bots.base import BotSpec
from koloda.bots.search import SearchBot
from koloda.errors import IllegalActionError
from koloda.thousand.actions import (
    ACES,
    BID,
    BOMB,
    GIVE,
    MARRIAGE_VALUES,
    MARRY,
    PASS,
    POINTS,
    STRENGTH,
    action_bid,
    mask_ids,
)
from koloda.thousand.knowledge import Knowledge, TrickMemory, cards_mask, knowledge
from koloda.thousand.observe import ThousandObservation
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState
from koloda.thousand.worlds import WorldSampler

_QUEEN, _KING, _ACE = 3, 4, 5
#: Cards of each suit from the strongest down (rule G1: A 10 K Q J 9).
_SUIT_ORDER = tuple(tuple(sorted(range(s * 6, s * 6 + 6), key=lambda c: -STRENGTH[c])) for s in range(4))
_ALL = (1 << 24) - 1


def _points(mask: int) -> int:
    return sum(POINTS[c] for c in range(24) if mask >> c & 1)


def _beats(card: int, target: int, trump: int) -> bool:
    if card // 6 == target // 6:
        return STRENGTH[card] > STRENGTH[target]
    return card // 6 == trump


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
    value += 0.3 * (_points(hand) - sum(POINTS[c] for c in mask_ids(hand) if _is_top(hand, c)))
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

    return cards_mask(parse_cards(text))


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
            raise IllegalActionError("no legal action to choose from: the game is over")
        assert isinstance(observation, ThousandObservation)
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

    def _bid(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
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

    def _contract(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
        estimate = hand_value(know.hand, talon_bonus=0)
        contracts = [a for a in legal if BID <= a < GIVE]
        if BOMB in legal and estimate < view.high_bid - 25:
            return BOMB  # rule G8: a bomb costs less than the bid it would lose
        fitting = [a for a in contracts if action_bid(a) <= max(estimate, view.high_bid)]
        return max(fitting) if fitting else min(contracts)

    def _play(self, view: ThousandObservation, know: Knowledge, legal: list[int]) -> int:
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
    worlds only, so it reads the world's trick (full information, the hot path of the search)."""
    legal = state.legal_actions()
    trick = state.trick
    if not trick or len(legal) == 1 or rng.random() < 0.1:
        return legal[rng.randrange(len(legal))]
    suit = state.trump
    trump = -1 if suit is None else int(suit)
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
    "ThousandHeuristicBot",
    "greedy_rollout",
    "hand_value",
    "make_search_bot",
    "make_solver",
    "utility",
]

"""Bank bots: the heuristic player and the search bot (its worlds come from :mod:`koloda.bank.worlds`).

Everything starts from a :class:`koloda.bank.BankObservation`: the bank and all captured cards lie face
up, so the unseen cards are the other hands and the stock; the public history says who laid what, who
drew and who failed.

>>> from koloda.bank import new_game, observe
>>> state = new_game(players=3, seed=2, scope="deal")
>>> bot = BankHeuristicBot(seed=0)
>>> while not state.is_over():
...     seat = state.current_player
...     state.apply(bot.choose(observe(state, seat), state.legal_actions()))
>>> len(state.results)
1
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from koloda.bank import tables as T
from koloda.bank.actions import action_text
from koloda.bank.observe import BankObservation, cards_mask, laid_cards, seat_classes
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState
from koloda.bank.worlds import WorldSampler
from koloda.bots.base import BotSpec
from koloda.bots.search import SearchBot
from koloda.errors import IllegalActionError


class BankHeuristicBot:
    """A hand-written player. It goes out when it can (and with four of a kind or a run for the bonus),
    keeps its 8s, 6s and combinations for the moment they pay, lays its high-point cards before they cost
    a penalty, and prefers the move whose top card the next player is least likely to cover when the bank
    is rich, counting the cards he could hold among those not yet seen. ``noise`` is the share of random
    moves (the ``easy`` level)."""

    def __init__(self, seed: int = 0, *, noise: float = 0.0, options: BankOptions | None = None) -> None:
        self._rng = random.Random(seed)
        self._noise = noise
        self._options = options or BankOptions()

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise IllegalActionError("no legal action to choose from: the game is over")
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self._noise and self._rng.random() < self._noise:
            return legal_actions[self._rng.randrange(len(legal_actions))]
        assert isinstance(observation, BankObservation)
        if legal_actions[0] >= T.CHOOSE0:  # rule 3.2: choosing one's trump before the deal; any suit
            return legal_actions[self._rng.randrange(len(legal_actions))]
        return self.ranked(observation, legal_actions)[0]

    def ranked(self, obs: BankObservation, legal_actions: Sequence[int]) -> list[int]:
        """The legal moves from the heuristic's best to its worst (ties: the lower id first)."""
        hand = cards_mask(obs.hand)
        seen = hand | cards_mask(obs.bank)
        for pile in obs.captured_cards:
            seen |= cards_mask(pile)
        unseen = T.FULL_DECK & ~seen
        nxt = self._next_seat(obs)
        table = T.cover_table(seat_classes(obs, nxt), self._options.two_trumps_cover == "free")
        bank_points = T.points_of(cards_mask(obs.bank))
        bank_size = len(obs.bank)
        fours = _fours(hand)
        runs = _runs(hand)

        def score(action: int) -> float:
            if action in (T.DRAW, T.PASS):
                return -1000.0 if action == T.DRAW else 0.0
            cards = laid_cards(action_text(action))
            laid = sum(1 << c for c in cards)
            left = hand & ~laid
            value = 0.0
            if not left:  # going out: a place (rule 7.2) and no penalty; four of a kind or a run pays more
                value += 100 + (75 if len(cards) == 4 and cards[0] % 9 == cards[-1] % 9 else 0)
                value += 30 if len(cards) == 4 and cards[0] % 9 != cards[-1] % 9 else 0
                value += 20 if cards[-1] % 9 == T.KING else 0
                return value
            value += 0.4 * T.points_of(laid)  # points laid cannot be a penalty at the end (rule 7.6)
            for c in cards:
                face = c % 9
                if face == T.EIGHT:
                    value -= 6  # an 8 goes on anything: worth keeping for a stuck moment (rule 4.5)
                elif face == T.SIX:
                    value -= 3  # the 6 covers its whole suit (rule 4.4)
                if laid >> c & 1 and (fours & (1 << c) or runs & (1 << c)) and len(cards) == 1:
                    value -= 8  # breaks a four or a run kept to go out with
            if len(cards) == 4 and len(cards) < hand.bit_count():
                value -= 25  # a combination laid early wastes its bonus
            top = cards[-1]
            pot = bank_points + T.points_of(laid)
            if bank_size + len(cards) >= 2 and nxt != obs.seat:  # a one-card bank is never taken (5.2)
                covering = (table[top] | T.EIGHTS) & unseen
                value += pot * _fail_chance(covering.bit_count(), unseen.bit_count(), obs, nxt)
            return value

        return sorted(legal_actions, key=lambda a: (-score(a), a))

    @staticmethod
    def _next_seat(obs: BankObservation) -> int:
        n, seat = obs.players, obs.seat
        assert seat is not None  # a seat's observation, never a spectator's
        for k in range(1, n + 1):
            p = (seat + k) % n
            if not obs.out[p]:
                return p
        return seat


def _fail_chance(covering: int, unseen: int, obs: BankObservation, seat: int) -> float:
    """The chance that ``seat`` holds none of ``covering`` cards among ``unseen`` (and draws none)."""
    if unseen <= 0:
        return 0.0
    held = obs.hand_counts[seat] + (1 if obs.stock_size else 0)
    p = 1.0
    for k in range(min(held, unseen)):
        p *= max(0.0, (unseen - covering - k) / (unseen - k))
    return p


def _fours(hand: int) -> int:
    out = 0
    for f in range(9):
        if hand & T.RANK_MASK[f] == T.RANK_MASK[f]:
            out |= T.RANK_MASK[f]
    return out


def _runs(hand: int) -> int:
    out = 0
    for s in range(4):
        suit = hand >> (9 * s) & 511
        for start in T.RUN_STARTS9[suit]:
            for k in range(4):
                out |= 1 << (9 * s + T.ORD_FACE[start + k])
    return out


def utility(state: BankState, seat: int) -> float:
    """A finished deal's value for ``seat``: its score minus the mean score of the others."""
    scores = state.results[-1].scores
    others = [s for p, s in enumerate(scores) if p != seat]
    return scores[seat] - sum(others) / len(others)


def make_search_bot(spec: BotSpec, seed: int, options: BankOptions | None) -> SearchBot:
    """The ``search`` bot of Bank: PIMC over sampled worlds with random playouts to the end of the deal,
    over the heuristic's two best moves, each tried in the same worlds with the same playout randomness
    (paired: Bank's deal luck dwarfs the difference one move makes; docs/performance.md "Bots")."""
    opts = options or BankOptions()
    heuristic = BankHeuristicBot(seed, options=opts)
    return SearchBot(
        seed,
        sampler=WorldSampler(opts),
        utility=utility,
        fallback=heuristic,
        shortlist=heuristic.ranked,
        width=2,
        paired=True,
        searchable=lambda obs, legal: legal[0] < T.DRAW,
        scale=40.0,
        worlds=10,
        margin=0.0 if spec.margin is None else spec.margin,
        iters=spec.iters,
        ms=spec.ms,
    )

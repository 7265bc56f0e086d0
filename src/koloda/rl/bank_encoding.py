"""Bank for the research interfaces: options, the observation tensor and the text view (docs/rl.md).

The observation of a seat is a float32 vector of :data:`OBS_SIZE`; seats are numbered relative to the
observer (0 = itself, 1 = the next seat clockwise, ...; seats a smaller table lacks stay zero). The
encoder is written twice: in C (``bank_encode`` in src/koloda/rl/_speedups.c, used when built, about a
microsecond) and in Python (:meth:`BankAdapter.encode_python`, the reference, which packs the 0/1 part
into one int with shifts); tests/rl/test_rl_speedups.py checks that they agree entry for entry
(docs/performance.md, "RL interfaces").

>>> adapter = BankAdapter(players=2)
>>> state = adapter.new_state(seed=3)
>>> vector = adapter.encode(state, 0)
>>> vector.shape, int(vector[HAND : HAND + 36].sum()), float(vector[STOCK_SIZE]) * 36
((322,), 4, 27.0)
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from koloda.bank import tables as T
from koloda.bank.observe import observe
from koloda.bank.options import BankOptions
from koloda.bank.state import CHOOSE, NORMAL, OVER, BankState, new_game
from koloda.rl.core import FloatArray, Rewards, VectorBuilder, check_players, check_rewards, speedups

#: Offsets of the blocks of the observation vector (docs/rl.md has the table). The blocks that change
#: with every move come first (one unpacking writes them), those that change only on a capture, a seat
#: going out or a new deal after them (cached).
HAND = 0  # 36: the observer's hand
BANK = 36  # 36: the cards in the bank (face up)
TO_COVER = 72  # 36: the card the next move must cover (none on a free lead)
TOP_OWNER = 108  # 4: who laid the bank's top card
TO_MOVE = 112  # 4: the seat to act
PHASE = 116  # 5: move, after-draw, extra-move, over, choose-trump
OPENING = 121  # 1: the open card is still to be covered (rule 4.2)
SEVEN_ON_TOP = 122  # 1: a 7 lies on top (rule 4.8)
FOUR_KINGS = 123  # 1: four kings lie on top (rule 5.4)
FREE_LEAD = 124  # 1: the next move is a free lead (rule 5.3)
N_MOVING = 125
CAPTURED = 125  # 4 x 36: the cards each seat has captured (public)
OUT = 269  # 4: seats that went out
ACTIVE = 273  # 4: seats dealt into this deal
TRUMP = 277  # 4 seats x 4 suits: the suit is trump for that seat
SENIOR = 293  # 4 seats x 4 suits: the suit is the senior trump (set-up 5)
N_BITS = 309
HAND_COUNTS = 309  # 4: cards in each hand / 36
STOCK_SIZE = 313  # 1: cards in the stock / 36
CAPTURED_POINTS = 314  # 4: points captured this deal / 124
TOTALS = 318  # 4: match totals / target, clipped to [-10, 10]
OBS_SIZE = 322

_REL = {n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in (2, 3, 4)}
_BANK_BIT = tuple(1 << (BANK + c) for c in range(36))
_CAPTURED_SHIFT = tuple(CAPTURED + 36 * r for r in range(4))
_LOW = np.zeros(OBS_SIZE, np.float32)
_HIGH = np.ones(OBS_SIZE, np.float32)
_LOW[TOTALS : TOTALS + 4] = -10.0
_HIGH[TOTALS : TOTALS + 4] = 10.0


def _trump_bits(state: BankState, seat: int) -> int:
    """Rule 3: which suits are trumps (and senior trumps) for each seat, relative to ``seat``."""
    n, opts = state.n, state.opts
    suits = state.trump_suits
    out = 0
    for r in range(n):
        q = (seat + r) % n
        if opts.trumps == "own":
            own = suits[q] if suits else state._chosen[q]
            if own >= 0:
                out |= 1 << (TRUMP + 4 * r + own)
        elif opts.trumps == "senior-junior" and suits:
            out |= 1 << (TRUMP + 4 * r + suits[0]) | 1 << (TRUMP + 4 * r + suits[1])
            out |= 1 << (SENIOR + 4 * r + suits[0])
        else:
            for s in suits:
                out |= 1 << (TRUMP + 4 * r + s)
    return out


class BankAdapter:
    """Bank with fixed options for PettingZoo, Gymnasium and OpenSpiel.

    ``players`` 2-4; ``preset`` one of :attr:`BankOptions.PRESETS`; ``scope`` "deal" (an episode is one
    deal) or "match" (to 248, rule 8.1); ``rewards`` "deal" (each deal's points when it ends) or
    "game" (match scope only: 1 to the winner, -1/(n-1) to the others); any other keyword is an option of
    :class:`BankOptions` overriding the preset.
    """

    game = "bank"
    num_actions = T.NUM_ACTIONS
    obs_size = OBS_SIZE
    obs_low = _LOW
    obs_high = _HIGH

    def __init__(
        self,
        players: int = 3,
        preset: str = "default",
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        self.players = check_players(players, 2, 4, "Bank")
        self.rewards = check_rewards(rewards, scope)
        self.scope = scope
        self.options = BankOptions.preset(preset).replace(**options)
        self.options.check_players(players)
        self._table_cache: dict[tuple[Any, ...], tuple[int, list[float]]] = {}
        self._trumps: dict[tuple[Any, ...], int] = {}
        self._vector = VectorBuilder(N_BITS, OBS_SIZE - N_BITS)

    def new_state(self, seed: int) -> BankState:
        return new_game(self.options, players=self.players, seed=seed, scope=self.scope)

    def encode(self, state: BankState, seat: int) -> FloatArray:
        """The observation tensor of ``seat`` (a new float32 array; docs/rl.md)."""
        if speedups is not None:
            return speedups.bank_encode(state, seat)
        return self.encode_python(state, seat)

    def encode_python(self, state: BankState, seat: int) -> FloatArray:
        """:meth:`encode` in Python: the reference of the C version (pure Python, C or not)."""
        if not 0 <= seat < state.n:
            raise ValueError(f"no seat {seat} at a Bank table of {state.n}")
        phase = state.phase
        opts = state.opts
        # the blocks that change only on a capture, a seat going out or a new deal are cached; the key
        # holds everything they depend on, by value (states are copied and reused, never by identity;
        # the options are in it for a state made with other options than the adapter's)
        key = (seat, state.n, opts.trumps, opts.target, state.trump_suits, state.active, *state.out)
        key += (*state.captured, *state.totals)
        if phase == CHOOSE:
            key += tuple(state._chosen)
        table = self._table_cache.get(key)
        if table is None:
            if len(self._table_cache) > 4096:
                self._table_cache.clear()
            table = self._table_cache[key] = self._table(state, seat)
        bank, target = state.bank, state.target
        over = phase == OVER
        n = state.n
        flags = state.hands[seat] | 1 << (PHASE + phase) | table[0]
        for c in bank:
            flags |= _BANK_BIT[c]
        if target >= 0:
            if not over and phase != CHOOSE:
                flags |= 1 << (TO_COVER + target)
        elif phase == NORMAL:
            flags |= 1 << FREE_LEAD
        if state.opening and not over:
            flags |= 1 << OPENING
        if bank:
            if bank[-1] % 9 == T.SEVEN:
                flags |= 1 << SEVEN_ON_TOP
            if state.top_owner >= 0:
                flags |= 1 << (TOP_OWNER + (state.top_owner - seat) % n)
        if state.four_kings:
            flags |= 1 << FOUR_KINGS
        if not over:
            flags |= 1 << (TO_MOVE + (state.cur - seat) % n)
        hands = state.hands
        scalars = [0.0, 0.0, 0.0, 0.0, len(state.stock) / 36, *table[1]]
        for r, q in enumerate(_REL[n][seat]):
            scalars[r] = hands[q].bit_count() / 36
        return self._vector.build_python(flags, scalars)

    def _table(self, state: BankState, seat: int) -> tuple[int, list[float]]:
        """The flags and scalars that change only on a capture, a seat going out or a new deal."""
        trump_key = (state.opts.trumps, state.n, state.trump_suits, tuple(state._chosen), seat)
        flags = self._trumps.get(trump_key)
        if flags is None:
            flags = self._trumps[trump_key] = _trump_bits(state, seat)
        scale = state.opts.target
        scalars = [0.0] * 8
        for r, q in enumerate(_REL[state.n][seat]):
            flags |= state.captured[q] << _CAPTURED_SHIFT[r]
            if state.out[q]:
                flags |= 1 << (OUT + r)
            if q in state.active:
                flags |= 1 << (ACTIVE + r)
            scalars[r] = state.captured_pts[q] / 124
            scalars[4 + r] = min(10.0, max(-10.0, state.totals[q] / scale))
        return flags, scalars

    def deals_done(self, state: BankState) -> int:
        return len(state.results)

    def deal_scores(self, state: BankState, index: int) -> tuple[int, ...]:
        return state.results[index].scores

    def winner(self, state: BankState) -> int | None:
        return state.winner

    def render(self, state: BankState, seat: int | None) -> str:
        """The table as text: deal, trumps, bank, stock, hand sizes, scores; ``seat``'s hand if given."""
        view = observe(state, 0 if seat is None else seat)
        lines = [
            f"Bank, deal {view.deal}, dealer {view.dealer}, phase {view.phase}, "
            f"trumps {view.trumps} {' '.join(view.trump_suits) or '-'}",
            f"bank: {' '.join(view.bank) or '(empty)'}"
            + (f"  (to cover: {view.to_cover})" if view.to_cover else "  (free lead)"),
            f"stock: {view.stock_size}  hands: {' '.join(map(str, view.hand_counts))}  "
            f"captured: {' '.join(map(str, view.captured_points))}  "
            f"totals: {' '.join(map(str, view.totals))}",
        ]
        if seat is not None:
            lines.append(f"seat {seat} holds: {' '.join(view.hand)}")
        if state.is_over():
            lines.append("over" + (f", winner seat {state.winner}" if state.winner is not None else ""))
        else:
            lines.append(f"to act: seat {state.current_player}")
        return "\n".join(lines)

"""The observation of a Bank seat as a float32 tensor (docs/rl.md): the research interfaces' view.

Like :func:`koloda.bank.observe.observe`, it shows a seat what it may see and nothing else: its hand
comes from :func:`koloda.bank.observe.visible_hand`, everything else is public. Seats are numbered
relative to the observer (0 = itself, 1 = the next seat clockwise, ...; seats a smaller table lacks stay
zero). The encoder is written twice: in C (``bank_encode`` in src/koloda/_speedups.c, used when built,
about a microsecond) and in Python (:meth:`BankEncoder.encode_python`, the reference, which packs the 0/1
part into one int with shifts); tests/rl/test_rl_speedups.py checks that they agree entry for entry
(docs/performance.md, "RL interfaces"). Needs NumPy (the ``rl`` extra).

>>> from koloda.bank.state import new_game
>>> vector = BankEncoder().encode(new_game(players=2, seed=3), 0)
>>> vector.shape, int(vector[HAND : HAND + 36].sum()), float(vector[STOCK_SIZE]) * 36
((322,), 4, 27.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from koloda.bank import tables as T
from koloda.bank.observe import visible_hand
from koloda.bank.rules import CHOOSE, NORMAL, OVER
from koloda.bank.state import BankState
from koloda.tensor import FloatArray, VectorBuilder, speedups

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
LOW = np.zeros(OBS_SIZE, np.float32)  # the bounds of every entry (Gymnasium's observation space)
HIGH = np.ones(OBS_SIZE, np.float32)
LOW[TOTALS : TOTALS + 4] = -10.0
HIGH[TOTALS : TOTALS + 4] = 10.0


def _trump_bits(state: BankState, seat: int) -> int:
    """Rule 3: which suits are trumps (and senior trumps) for each seat, relative to ``seat``."""
    n, opts = state._n, state._opts
    suits = state._trump_suits
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


class BankEncoder:
    """Encodes Bank states as tensors; it caches the blocks that change only on a capture, a seat going
    out or a new deal (one encoder per environment: states of any options may be encoded)."""

    size = OBS_SIZE
    low = LOW
    high = HIGH

    def __init__(self) -> None:
        self._table_cache: dict[tuple[Any, ...], tuple[int, list[float]]] = {}
        self._trumps: dict[tuple[Any, ...], int] = {}
        self._vector = VectorBuilder(N_BITS, OBS_SIZE - N_BITS)

    def encode(self, state: BankState, seat: int) -> FloatArray:
        """The observation tensor of ``seat`` (a new float32 array; docs/rl.md)."""
        if speedups is not None:
            return speedups.bank_encode(state, seat, visible_hand(state, seat))
        return self.encode_python(state, seat)

    def encode_python(self, state: BankState, seat: int) -> FloatArray:
        """:meth:`encode` in Python: the reference of the C version (pure Python, C or not)."""
        s = state
        hand = visible_hand(s, seat)  # rule 2.3: the seat's own hand; refuses a seat not at the table
        phase = s._phase
        opts = s._opts
        # the blocks that change only on a capture, a seat going out or a new deal are cached; the key
        # holds everything they depend on, by value (states are copied and reused, never by identity;
        # the options are in it for a state made with other options than the adapter's)
        key = (seat, s._n, opts.trumps, opts.target, s._trump_suits, s._active, *s._out)
        key += (*s._captured, *s._totals)
        if phase == CHOOSE:
            key += tuple(s._chosen)
        table = self._table_cache.get(key)
        if table is None:
            if len(self._table_cache) > 4096:
                self._table_cache.clear()
            table = self._table_cache[key] = self._table(state, seat)
        bank, target = s._bank, s._target
        over = phase == OVER
        n = s._n
        flags = hand | 1 << (PHASE + phase) | table[0]
        for c in bank:
            flags |= _BANK_BIT[c]
        if target >= 0:
            if not over and phase != CHOOSE:
                flags |= 1 << (TO_COVER + target)
        elif phase == NORMAL:
            flags |= 1 << FREE_LEAD
        if s._opening and not over:
            flags |= 1 << OPENING
        if bank:
            if bank[-1] % 9 == T.SEVEN:
                flags |= 1 << SEVEN_ON_TOP
            if s._top_owner >= 0:
                flags |= 1 << (TOP_OWNER + (s._top_owner - seat) % n)
        if s._four_kings:
            flags |= 1 << FOUR_KINGS
        if not over:
            flags |= 1 << (TO_MOVE + (s._cur - seat) % n)
        hands = s._hands
        scalars = [0.0, 0.0, 0.0, 0.0, len(s._stock) / 36, *table[1]]
        for r, q in enumerate(_REL[n][seat]):
            scalars[r] = hands[q].bit_count() / 36
        return self._vector.build_python(flags, scalars)

    def _table(self, state: BankState, seat: int) -> tuple[int, list[float]]:
        """The flags and scalars that change only on a capture, a seat going out or a new deal."""
        s = state
        trump_key = (s._opts.trumps, s._n, s._trump_suits, tuple(s._chosen), seat)
        flags = self._trumps.get(trump_key)
        if flags is None:
            flags = self._trumps[trump_key] = _trump_bits(s, seat)
        scale = s._opts.target
        scalars = [0.0] * 8
        for r, q in enumerate(_REL[s._n][seat]):
            flags |= s._captured[q] << _CAPTURED_SHIFT[r]
            if s._out[q]:
                flags |= 1 << (OUT + r)
            if q in s._active:
                flags |= 1 << (ACTIVE + r)
            scalars[r] = s._captured_pts[q] / 124
            scalars[4 + r] = min(10.0, max(-10.0, s._totals[q] / scale))
        return flags, scalars

"""The observation of a Thousand seat as a float32 tensor (docs/rl.md): the research interfaces' view.

Like :func:`koloda.thousand.observe.observe`, it shows a seat only what it may see (rule G15): its
hand, the talon once shown and its own gifts come from :func:`koloda.thousand.observe.visible`; past
tricks only if ``show_past_tricks``. Seats are relative to the observer (0 = itself, 1 = the next seat
clockwise...; a fourth seat stays zero with 3 players). Cards are the engine's ids 0-23
(``suit * 6 + rank - 9``). Needs NumPy (the ``rl`` extra).

>>> from koloda.thousand.state import new_game
>>> vector = ThousandEncoder().encode(new_game(seed=3, scope="deal"), 1)
>>> vector.shape, int(vector[HAND : HAND + 24].sum()), int(vector[TALON : TALON + 24].sum())
((260,), 7, 0)
"""

from __future__ import annotations

import numpy as np

from koloda.errors import RequestError
from koloda.tensor import FloatArray, VectorBuilder
from koloda.thousand.actions import MARRIAGE_VALUES, card_played
from koloda.thousand.observe import visible
from koloda.thousand.options import ThousandOptions
from koloda.thousand.rules import BIDDING, OVER
from koloda.thousand.scoring import ScoreBook
from koloda.thousand.state import ThousandState

HAND = 0  # 24: the observer's hand
TALON = 24  # 24: the talon, once shown to the observer (rule G7)
TRICK = 48  # 3 x 24: the cards of the trick being played, in playing order
PLAYED = 120  # 24: cards of finished tricks (only the last trick's without show_past_tricks)
GIFTS = 144  # 24: cards the observer gave or received (rule G7)
TRUMP = 168  # 4: the trump suit (rule G9)
MARRIAGES = 172  # 4 seats x 5: marriages declared by each seat, by suit, and the ace marriage (G9, G10)
DECLARER = 192  # 4: the declarer (or, in the bidding, the highest bidder so far)
DEALER = 196  # 4
TO_MOVE = 200  # 4
LEADER = 204  # 4: who led the current trick
PHASE = 208  # 5: bidding, giving, contract, playing, over
PASSED = 213  # 4: seats that have passed (rule G5)
BOMB = 217  # 1: the declarer called a bomb (rule G8)
N_BITS = 218
HIGH_BID = 218  # 1: the highest bid / 300
CONTRACT = 219  # 1: the contract / 300 (0 until named)
TRICKS_WON = 220  # 4: tricks won by each seat / 8
TAKEN = 224  # 4: card points taken in tricks / 120
HAND_SIZES = 228  # 4: cards in each hand / 10
TOTALS = 232  # 4: game totals / 1000, clipped to [-10, 10]
TARGET = 236  # 1: the winning score / 1000
SPARE = 237  # 23: zero, room for later features without moving the blocks above
OBS_SIZE = 260

LOW = np.zeros(OBS_SIZE, np.float32)
HIGH = np.ones(OBS_SIZE, np.float32)
LOW[TOTALS : TOTALS + 4] = -10.0
HIGH[TOTALS : TOTALS + 4] = 10.0
HIGH[HIGH_BID : HIGH_BID + 2] = 3.0
HIGH[TARGET] = 10.0
_SUIT_OF_MARRIAGE = {value: suit for suit, value in enumerate(MARRIAGE_VALUES)}
_REL = {n: tuple(tuple((seat + r) % n for r in range(n)) for seat in range(n)) for n in (3, 4)}
#: _WHERE[n][seat][q]: where seat q sits relative to ``seat`` (the inverse of _REL)
_WHERE = {n: tuple(tuple((q - seat) % n for q in range(n)) for seat in range(n)) for n in (3, 4)}
_ALL_CARDS = (1 << 24) - 1
#: _PASSED[n][seat][passed]: the PASSED flags of a bitmask of seats that passed (rule G5), relative to seat
_PASSED = {
    n: tuple(
        tuple(sum(1 << (PASSED + (q - seat) % n) for q in range(n) if p >> q & 1) for p in range(1 << n))
        for seat in range(n)
    )
    for n in (3, 4)
}


class ThousandEncoder:
    """Encodes Thousand states as tensors (one encoder per environment)."""

    size = OBS_SIZE
    low = LOW
    high = HIGH

    def __init__(self) -> None:
        self._vector = VectorBuilder(N_BITS, SPARE - N_BITS, n_zeros=OBS_SIZE - SPARE)
        # the totals before the first deal, for the options and table of the last state seen
        self._start: tuple[ThousandOptions | None, int, tuple[int, ...]] = (None, 0, ())

    def encode(self, state: ThousandState, seat: int) -> FloatArray:
        s, o = state, state._options
        if type(seat) is not int or not 0 <= seat < s._players:
            raise RequestError(f"no seat {seat!r} at a Thousand table of {s._players}", field="seat")
        rel = _REL[s._players][seat]
        where = _WHERE[s._players][seat]
        phase = s._phase
        hands = s._hands
        decl = s._declarer
        hand, talon, gift0, gift1 = visible(s, seat)  # rule G7, G15: what the seat may see
        flags = hand | 1 << (PHASE + phase)
        if phase != BIDDING:
            if talon is not None:
                flags |= talon << TALON
            if gift0 >= 0:
                flags |= 1 << (GIFTS + gift0)
            if gift1 >= 0:
                flags |= 1 << (GIFTS + gift1)
            if o.show_past_tricks:
                held = hands[0] | hands[1] | hands[2] | (hands[3] if len(hands) == 4 else 0)
                for c in s._trick:
                    held |= 1 << c
                flags |= (_ALL_CARDS & ~held) << PLAYED
            elif s._winners:  # a trick of this deal is finished
                flags |= _last_trick(s) << PLAYED
        for i, c in enumerate(s._trick):
            flags |= 1 << (TRICK + 24 * i + c)
        if s._trump >= 0:
            flags |= 1 << (TRUMP + s._trump)
        marriages = s._marriages
        if any(marriages):
            for q, values in enumerate(marriages):
                for v in values:
                    flags |= 1 << (MARRIAGES + 5 * where[q] + _SUIT_OF_MARRIAGE.get(v, 4))
        flags |= 1 << (DECLARER + where[decl]) | 1 << (DEALER + where[s._dealer])
        if s._to_move is not None:
            flags |= 1 << (TO_MOVE + where[s._to_move])
        if s._trick:
            flags |= 1 << (LEADER + where[s._leader])
        flags |= _PASSED[s._players][seat][s._passed]
        if phase == OVER and s._results and s._results[-1][0].bomb:
            flags |= 1 << BOMB
        scalars = [0.0] * (SPARE - N_BITS)
        scalars[0] = s._high_bid / 300
        scalars[1] = s._bid / 300
        won, taken = s._won, s._taken
        # the totals after the last deal scored (the score book's, without building its tuple each step)
        if s._results:
            totals = s._results[-1][1].total
        else:
            if self._start[0] is not o or self._start[1] != s._players:
                self._start = (o, s._players, ScoreBook(o, s._players).totals)
            totals = self._start[2]
        for r, q in enumerate(rel):
            scalars[2 + r] = won[q] / 8
            scalars[6 + r] = taken[q] / 120
            scalars[10 + r] = hands[q].bit_count() / 10
            if totals[q]:
                total = totals[q] / 1000
                scalars[14 + r] = total if -10.0 <= total <= 10.0 else (10.0 if total > 0 else -10.0)
        scalars[18] = o.target / 1000
        return self._vector.build(flags, scalars)


def _last_trick(s: ThousandState) -> int:
    """The cards of the last finished trick (rule G15 with show_past_tricks off): in the play, history
    ends with the plays of the finished tricks and then those of the trick being played."""
    end = len(s._history) - len(s._trick)
    mask = 0
    for a in s._history[end - 3 : end]:
        mask |= 1 << card_played(a)
    return mask

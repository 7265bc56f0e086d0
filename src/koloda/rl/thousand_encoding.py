"""Thousand for the research interfaces: options, the observation tensor and the text view (docs/rl.md).

The observation of a seat is a float32 vector of :data:`OBS_SIZE`; seats are relative to the observer
(0 = itself, 1 = the next seat clockwise...; a fourth seat stays zero with 3 players). Cards are the
engine's ids 0-23 (``suit * 6 + rank - 9``). Only what ``observe`` shows goes in (rule G15): the talon
once shown, only the seat's own gifts, past tricks only if ``show_past_tricks``.

>>> adapter = ThousandAdapter(players=3)
>>> state = adapter.new_state(seed=3)
>>> vector = adapter.encode(state, 1)
>>> vector.shape, int(vector[HAND : HAND + 24].sum()), int(vector[TALON : TALON + 24].sum())
((260,), 7, 0)
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from koloda.rl.core import FloatArray, Rewards, VectorBuilder, check_players, check_rewards
from koloda.thousand import game as G
from koloda.thousand.game import ThousandState, new_game, observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import ScoreBook

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

_LOW = np.zeros(OBS_SIZE, np.float32)
_HIGH = np.ones(OBS_SIZE, np.float32)
_LOW[TOTALS : TOTALS + 4] = -10.0
_HIGH[TOTALS : TOTALS + 4] = 10.0
_HIGH[HIGH_BID : HIGH_BID + 2] = 3.0
_HIGH[TARGET] = 10.0
_SUIT_OF_MARRIAGE = {value: suit for suit, value in enumerate(G.MARRIAGE_VALUES)}
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


class ThousandAdapter:
    """Thousand with fixed options for PettingZoo, Gymnasium and OpenSpiel.

    ``players`` 3 or 4 (the dealer sits out, rule G2); ``preset`` one of :attr:`ThousandOptions.PRESETS`;
    ``scope`` "deal" or "match" (to 1000; random players may never get there, rule G14); ``rewards``
    "deal" (each deal's score changes) or "game" (match scope: 1 to the winner, -1/(n-1) to the others);
    any other keyword is an option of :class:`ThousandOptions` overriding the preset.
    """

    game = "thousand"
    num_actions = G.NUM_ACTIONS
    obs_size = OBS_SIZE
    obs_low = _LOW
    obs_high = _HIGH

    def __init__(
        self,
        players: int = 3,
        preset: str = "home",
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        self.players = check_players(players, 3, 4, "Thousand")
        self.rewards = check_rewards(rewards, scope)
        self.scope = scope
        self.options = ThousandOptions.preset(preset).replace(**options)
        self._start_totals = ScoreBook(self.options, players).totals
        self._vector = VectorBuilder(N_BITS, SPARE - N_BITS, n_zeros=OBS_SIZE - SPARE)

    def new_state(self, seed: int) -> ThousandState:
        return new_game(self.options, players=self.players, seed=seed, scope=self.scope)

    def encode(self, state: ThousandState, seat: int) -> FloatArray:
        s, o = state, state.options
        rel = _REL[s._players][seat]
        where = _WHERE[s._players][seat]
        phase = s._phase
        hands = s._hands
        decl = s._declarer
        flags = hands[seat] | 1 << (PHASE + phase)
        if phase != G.BIDDING:
            if not (o.talon_hidden_at_100 and s._high_bid == o.min_bid and seat != decl):
                flags |= s._talon << TALON
            # rule G7: a seat sees the gifts it gave (the declarer) or received (gift k goes k+1 seats on)
            nxt = s._nxt
            for k, card in enumerate(s._gifts):
                if card >= 0 and (seat == decl or seat == (nxt[decl] if k == 0 else nxt[nxt[decl]])):
                    flags |= 1 << (GIFTS + card)
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
        if phase == G.OVER and s._results and s._results[-1][0].bomb:
            flags |= 1 << BOMB
        scalars = [0.0] * (SPARE - N_BITS)
        scalars[0] = s._high_bid / 300
        scalars[1] = s._bid / 300
        won, taken = s._won, s._taken
        # the totals after the last deal scored (the score book's, without building its tuple each step)
        totals = s._results[-1][1].total if s._results else self._start_totals
        for r, q in enumerate(rel):
            scalars[2 + r] = won[q] / 8
            scalars[6 + r] = taken[q] / 120
            scalars[10 + r] = hands[q].bit_count() / 10
            if totals[q]:
                total = totals[q] / 1000
                scalars[14 + r] = total if -10.0 <= total <= 10.0 else (10.0 if total > 0 else -10.0)
        scalars[18] = o.target / 1000
        return self._vector.build(flags, scalars)

    def deals_done(self, state: ThousandState) -> int:
        return len(state._results)

    def deal_scores(self, state: ThousandState, index: int) -> tuple[int, ...]:
        return tuple(state._results[index][1].delta)

    def winner(self, state: ThousandState) -> int | None:
        return state._book.winner

    def render(self, state: ThousandState, seat: int | None) -> str:
        """The table as text: bidding, declarer, trump, trick, scores; ``seat``'s hand if given."""
        view = observe(state, 0 if seat is None else seat)
        trick = " ".join(f"{q}:{c}" for q, c in view.trick.cards) if view.trick else "-"
        lines = [
            f"Thousand, deal {view.deal_number}, dealer {view.dealer}, phase {view.phase}, "
            f"high bid {view.high_bid}, declarer {view.declarer}, contract {view.contract}, "
            f"trump {view.trump.letter if view.trump is not None else '-'}",
            f"bids: {' '.join(f'{q}:{b}' for q, b in view.bids)}",
            f"talon: {' '.join(map(str, view.talon)) if view.talon is not None else '(hidden)'}  "
            f"trick: {trick}",
            f"hands: {' '.join(map(str, view.hand_sizes))}  "
            f"tricks won: {' '.join(map(str, view.tricks_won))}  totals: {' '.join(map(str, view.totals))}",
        ]
        if seat is not None:
            lines.append(f"seat {seat} holds: {' '.join(map(str, view.hand))}")
        lines.append("over" if state.is_over() else f"to act: seat {state.current_player}")
        return "\n".join(lines)


def _last_trick(s: ThousandState) -> int:
    """The cards of the last finished trick (rule G15 with show_past_tricks off): in the play, history
    ends with the plays of the finished tricks and then those of the trick being played."""
    end = len(s._history) - len(s._trick)
    mask = 0
    for a in s._history[end - 3 : end]:
        mask |= 1 << card_played(a)
    return mask


def card_played(action: int) -> int:
    """The card a play action (0-35) lays: the card, a marriage's queen or king, an ace (rules G9, G10)."""
    if action < G.MARRY:
        return action
    if action < G.ACES:
        suit, k = divmod(action - G.MARRY, 2)
        return suit * 6 + 3 + k
    return (action - G.ACES) * 6 + 5

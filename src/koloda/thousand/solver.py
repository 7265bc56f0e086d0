"""Thousand's trick play as a compact position, and its exact solver on one world (every hand known).

A search bot samples worlds (:mod:`koloda.thousand.worlds`) and asks, in each, what every move is worth if
the rest of the deal is played perfectly by both sides: the declarer against the two defenders, who play as
one side (docs/bots.md, "The search"). Copying whole engine states for that is slow; this module turns a
state in the playing phase into a :data:`Position`, a tuple of 16 ints (the three hands as bitmasks, the
trick, the trump, the points taken and declared, who has taken a trick), and plays and solves positions
without building a state.

The rules of play are rules.py's (G9-G12), written twice more: in C (``koloda._thousand``, used when
built) and here in Python, line for line (the fallback, and the reference for the C code). The engine
stays the reference of both: tests/thousand/test_solver_lockstep.py plays deals through the engine and
both twins at once and compares the legal moves, the positions and the solved values at every step.

The value of a finished deal is the solver's objective (:class:`Objective`): ``step`` when the declarer's
points (cards and marriages) reach ``bid``, plus ``wd`` per point of the declarer, minus ``w[x]`` per point
of defender ``x``. :func:`objective` derives it from the score book (rules S1-S13), so the same search
serves every scoring option: a contract's value, and how much a defender's points count (nothing from the
800 line on, nothing on the barrel).

>>> from koloda.thousand.state import from_deal
>>> state = from_deal({"dealer": 2, "hands": ["AH 10H KH QH AD 10D KD", "AS 10S KS AC 10C KC QC",
...     "QS JS 9S JC 9C 9D JD"], "talon": "QD JH 9H"})
>>> for text in ("pass", "pass", "QD>1", "JH>2", "120"):
...     state.apply(state.parse_action(text))
>>> pos, seats = position(state)
>>> seats, len(legal(pos, rules_of(state.options, Objective(bid=0, step=0, wd=1))))
((0, 1, 2), 8)
>>> solve(pos, rules_of(state.options, Objective(bid=0, step=0, wd=1)))  # all: 120 + hearts 100
220
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from koloda.errors import IllegalActionError
from koloda.thousand.actions import (
    ACE_MARRIAGE_VALUE,
    ACES,
    ALL_ACES,
    MARRIAGE_VALUES,
    MARRY,
    POINTS,
    STRENGTH,
    card_played,
)
from koloda.thousand.options import ThousandOptions
from koloda.thousand.rules import PLAYING
from koloda.thousand.scoring import SeatState, deal_delta

if TYPE_CHECKING:
    from koloda.thousand.state import ThousandState

#: h0 h1 h2, count c0 c1, to_move, trump, decl, t0 t1 t2, m0 m1 m2, won (see the module docstring).
Position = tuple[int, ...]
#: must_beat needs_trick optional ace, bid step wd w0 w1 w2.
Rules = tuple[int, ...]

NO_SPEEDUPS = "KOLODA_NO_SPEEDUPS"  # the same switch as koloda.tensor's: 1 runs the Python twin

_c: ModuleType | None
try:
    from koloda import _thousand as _c
except ImportError:  # pragma: no cover - the project's machines have a compiler
    _c = None
#: The C twin in use: None where it is not built or switched off (``KOLODA_NO_SPEEDUPS=1``).
native = None if os.environ.get(NO_SPEEDUPS) == "1" else _c


@dataclass(frozen=True)
class Objective:
    """What the declarer's side maximises (module docstring): ``step`` once his points reach ``bid``,
    ``wd`` per point of his, ``-w[x]`` per point of defender ``x`` (by the position's seat numbers)."""

    bid: int
    step: int
    wd: int = 0
    w: tuple[int, int, int] = (0, 0, 0)


def rules_of(options: ThousandOptions, goal: Objective) -> Rules:
    """The rules tuple of a game's options and an objective."""
    beat = {"no": 0, "led": 1, "winning": 2}[options.must_beat]
    return (
        beat,
        int(options.marriage_needs_trick),
        int(options.marriage_optional),
        int(options.ace_marriage),
        goal.bid,
        goal.step,
        goal.wd,
        *goal.w,
    )


def position(state: ThousandState) -> tuple[Position, tuple[int, int, int]]:
    """The playing phase of ``state`` as a position, and the table's seat of each of its seats 0, 1, 2
    (in playing order, the declarer first). Only a world (every hand known) should be turned into one."""
    s = state
    if s._phase != PLAYING:
        raise IllegalActionError(f"a position is taken in the playing phase, not in {state.phase!r}")
    decl = s._declarer
    nxt = s._nxt
    seats = (decl, nxt[decl], nxt[nxt[decl]])
    index = {seat: i for i, seat in enumerate(seats)}
    trick = s._trick
    count = len(trick)
    won = sum(1 << i for i, seat in enumerate(seats) if s._won[seat])
    pos: Position = (
        s._hands[seats[0]],
        s._hands[seats[1]],
        s._hands[seats[2]],
        count,
        trick[0] if count > 0 else -1,
        trick[1] if count > 1 else -1,
        index[s._to_move if s._to_move is not None else decl],
        s._trump,
        0,
        s._taken[seats[0]],
        s._taken[seats[1]],
        s._taken[seats[2]],
        sum(s._marriages[seats[0]]),
        sum(s._marriages[seats[1]]),
        sum(s._marriages[seats[2]]),
        won,
    )
    return pos, seats


def objective(state: ThousandState, seats: tuple[int, int, int]) -> Objective:
    """The deal's value for the declarer's side, in half points (two points per point of score): his
    contract's worth under the score book as it stands (S1, S6, S8) and what each defender's points add
    to his score (S4-S6, S9), linearised (rounding to tens is left out)."""
    s = state
    book = s._book.seats
    decl = seats[0]
    bid = s._bid
    made = deal_delta(s._options, book[decl], declarer=True, bid=bid, points=bid)
    failed = deal_delta(s._options, book[decl], declarer=True, bid=bid, points=0)
    weights = (0, defence_weight(s._options, book[seats[1]]), defence_weight(s._options, book[seats[2]]))
    return Objective(bid=bid, step=2 * (made - failed), wd=0, w=weights)


@lru_cache(maxsize=4096)
def defence_weight(options: ThousandOptions, seat: SeatState) -> int:
    """How much a defender's points count for him, 1 or 0 (the 800 rule, the barrel, the cap)."""
    gain = deal_delta(options, seat, declarer=False, bid=options.min_bid, points=60) - deal_delta(
        options, seat, declarer=False, bid=options.min_bid, points=0
    )
    return 1 if gain >= 30 else 0


# -- the rules of play, in Python (the twin of src/koloda/_thousand.c) --------------------------------------

_FACE_Q, _FACE_K = 3, 4
_DOOMED = 1023
_INF = 1 << 24


def _beats(card: int, target: int, trump: int) -> bool:
    if card // 6 == target // 6:
        return STRENGTH[card] > STRENGTH[target]
    return card // 6 == trump


def legal_py(pos: Position, rules: Rules) -> list[int]:
    """The legal actions of the seat to move, ascending (rules.py's ``_legal_play``)."""
    h0, h1, h2, count, c0, c1, seat, trump, _decl, *_, won = pos
    hand = (h0, h1, h2)[seat]
    if count == 0:
        if not (h0 | h1 | h2):
            return []
        extra: list[int] = []
        skip = 0
        if won >> seat & 1 or not rules[1]:
            for s in range(4):
                if hand >> (s * 6 + _FACE_Q) & 1 and hand >> (s * 6 + _FACE_K) & 1:
                    extra += (MARRY + 2 * s, MARRY + 2 * s + 1)
                    if not rules[2]:
                        skip |= (1 << (s * 6 + _FACE_Q)) | (1 << (s * 6 + _FACE_K))
            if rules[3] and hand & ALL_ACES == ALL_ACES:
                extra += (ACES, ACES + 1, ACES + 2, ACES + 3)
        return [c for c in range(24) if hand >> c & 1 and not skip >> c & 1] + extra
    lead = c0 // 6
    pool = hand & (63 << (lead * 6))
    if not pool:
        trumps = hand & (63 << (trump * 6)) if trump >= 0 else 0
        pool = trumps or hand
    if rules[0]:
        target = c0
        if rules[0] == 2 and count == 2 and _beats(c1, c0, trump):
            target = c1
        beating = 0
        for c in range(24):
            if pool >> c & 1 and _beats(c, target, trump):
                beating |= 1 << c
        if beating:
            pool = beating
    return [c for c in range(24) if pool >> c & 1]


def play_py(pos: Position, action: int) -> Position:
    """The position after ``action`` (legal: callers check) is played (rules.py's ``_play``)."""
    h = [pos[0], pos[1], pos[2]]
    count, c0, c1, seat, trump, decl = pos[3], pos[4], pos[5], pos[6], pos[7], pos[8]
    taken = [pos[9], pos[10], pos[11]]
    marr = [pos[12], pos[13], pos[14]]
    won = pos[15]
    card = card_played(action)
    if MARRY <= action < ACES:
        suit = (action - MARRY) // 2
        trump = suit
        marr[seat] += MARRIAGE_VALUES[suit]
    elif action >= ACES:
        marr[seat] += ACE_MARRIAGE_VALUE
    h[seat] &= ~(1 << card)
    if count < 2:
        if count == 0:
            c0 = card
        else:
            c1 = card
        return (h[0], h[1], h[2], count + 1, c0, c1, (seat + 1) % 3, trump, decl, *taken, *marr, won)
    leader = (seat + 1) % 3
    cards = (c0, c1, card)
    best = 0
    for i in (1, 2):
        if _beats(cards[i], cards[best], trump):
            best = i
    winner = (leader + best) % 3
    taken[winner] += POINTS[c0] + POINTS[c1] + POINTS[card]
    won |= 1 << winner
    return (h[0], h[1], h[2], 0, -1, -1, winner, trump, decl, *taken, *marr, won)


def _linear(pos: Position, rules: Rules) -> int:
    decl = pos[8]
    value = rules[6] * (pos[9 + decl] + pos[12 + decl])
    for x in range(3):
        if x != decl:
            value -= rules[7 + x] * (pos[9 + x] + pos[12 + x])
    return value


def _leaf(pos: Position, rules: Rules) -> int:
    decl = pos[8]
    own = pos[9 + decl] + pos[12 + decl]
    return (rules[5] if own >= rules[4] else 0) + _linear(pos, rules)


def _need(pos: Position, rules: Rules) -> int:
    if rules[5] == 0:
        return 0
    decl = pos[8]
    n = rules[4] - pos[9 + decl] - pos[12 + decl]
    if n <= 0:
        return 0
    cards = pos[0] | pos[1] | pos[2]
    most = sum(POINTS[c] for c in range(24) if cards >> c & 1)
    mine = pos[decl]
    for s in range(4):
        if mine >> (s * 6 + _FACE_Q) & 1 and mine >> (s * 6 + _FACE_K) & 1:
            most += MARRIAGE_VALUES[s]
    if rules[3] and mine & ALL_ACES == ALL_ACES:
        most += ACE_MARRIAGE_VALUE
    return _DOOMED if n > most else n


def _over(pos: Position) -> bool:
    return pos[3] == 0 and not (pos[0] | pos[1] | pos[2])


class _Solver:
    """Alpha-beta with a transposition table at the start of each trick (the C solver's algorithm)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.table: dict[tuple[int, ...], tuple[int, int]] = {}

    def search(self, pos: Position, alpha: int, beta: int) -> int:
        rules = self.rules
        key: tuple[int, ...] | None = None
        base = 0
        alpha0, beta0 = alpha, beta
        if pos[3] == 0:
            if _over(pos):
                return _leaf(pos, rules)
            base = _linear(pos, rules)
            key = (pos[0], pos[1], pos[2], pos[6], pos[7], pos[15], _need(pos, rules))
            bounds = self.table.get(key)
            if bounds is not None:
                lo, hi = bounds[0] + base, bounds[1] + base
                if lo == hi or lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                alpha, beta = max(alpha, lo), min(beta, hi)
        maximise = pos[6] == pos[8]
        best = -_INF if maximise else _INF
        for action in legal_py(pos, rules):
            child = play_py(pos, action)
            value = _leaf(child, rules) if _over(child) else self.search(child, alpha, beta)
            if maximise:
                best = max(best, value)
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                beta = min(beta, best)
            if alpha >= beta:
                break
        if key is not None:
            lo, hi = -_INF, _INF
            if best <= alpha0:
                hi = best
            elif best >= beta0:
                lo = best
            else:
                lo = hi = best
            old = self.table.get(key)
            if old is not None:
                lo = max(lo, old[0] + base) if old[0] != -_INF else lo
                hi = min(hi, old[1] + base) if old[1] != _INF else hi
            self.table[key] = (lo - base if lo != -_INF else -_INF, hi - base if hi != _INF else _INF)
        return best


def _mtdf(solver: _Solver, pos: Position, guess: int) -> int:
    """The exact value by null-window searches from ``guess`` (MTD(f), as the C solver does)."""
    g, lo, hi = guess, -_INF, _INF
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = solver.search(pos, beta - 1, beta)
        if g < beta:
            hi = g
        else:
            lo = g
    return g


# -- the playout policy ----------------------------------------------------------------------------------


def _marriage_value(action: int) -> int:
    return ACE_MARRIAGE_VALUE if action >= ACES else MARRIAGE_VALUES[(action - MARRY) // 2]


def _cheap(c: int, trump: int) -> tuple[int, int, int, int]:
    return (POINTS[c], STRENGTH[c], int(c // 6 == trump), c)


def _next_beats(pos: Position, rules: Rules, action: int, target: int) -> bool:
    """Whether the next seat could beat ``target`` after ``action`` is played (within the trick)."""
    child = play_py(pos, action)
    if child[3] == 0:
        return False
    return any(_beats(c, target, child[7]) for c in legal_py(child, rules))


def greedy_py(pos: Position, rules: Rules) -> int:
    """The playout move (the C ``greedy``): a careful player who sees every hand declares his richest
    marriage, cashes a card nobody can beat or leads cheap; following, he smears points on his partner's
    safe trick, wins with the cheapest card that holds the trick, else throws his cheapest card."""
    moves = legal_py(pos, rules)
    if len(moves) == 1:
        return moves[0]
    seat, trump, count = pos[6], pos[7], pos[3]
    if count == 0:
        marriages = [a for a in moves if a >= MARRY]
        if marriages:
            return max(marriages, key=lambda a: (_marriage_value(a), a))
        safe = []
        for c in moves:
            after = play_py(pos, c)
            ok = True
            for _ in range(2):
                replies = legal_py(after, rules)
                if any(_beats(d, c, after[7]) for d in replies):
                    ok = False
                    break
                after = play_py(after, replies[0])
            if ok:
                safe.append(c)
        if safe:
            return min(safe, key=lambda c: (-POINTS[c], -STRENGTH[c], c))
        return min(moves, key=lambda c: _cheap(c, trump))
    leader = (seat + 3 - count) % 3
    win_card, win_seat = pos[4], leader
    if count == 2 and _beats(pos[5], pos[4], trump):
        win_card, win_seat = pos[5], (leader + 1) % 3
    decl = pos[8]
    mine = seat == decl
    friend = win_seat != seat and (win_seat == decl) == mine
    last = count == 2
    next_friend = not last and (((seat + 1) % 3 == decl) == mine)
    if friend:
        weakest = min(moves, key=lambda c: _cheap(c, trump))
        if last or not _next_beats(pos, rules, weakest, win_card):
            return min(moves, key=lambda c: (-POINTS[c], STRENGTH[c], int(c // 6 == trump), c))
    winners = [
        c
        for c in moves
        if _beats(c, win_card, trump) and (last or next_friend or not _next_beats(pos, rules, c, c))
    ]
    if winners:
        return min(winners, key=lambda c: (int(c // 6 == trump), STRENGTH[c], c))
    return min(moves, key=lambda c: _cheap(c, trump))


def _rollout_value(pos: Position, rules: Rules, cards: int, solver: _Solver) -> int:
    while not _over(pos) and cards_left(pos) > cards:
        pos = play_py(pos, greedy_py(pos, rules))
    return _leaf(pos, rules) if _over(pos) else _mtdf(solver, pos, _linear(pos, rules))


def rollout_py(pos: Position, rules: Rules, cards: int) -> int:
    """The value of ``pos`` played by the playout policy until every hand holds at most ``cards``, then
    exactly."""
    return _rollout_value(pos, rules, cards, _Solver(rules))


def evaluate_py(pos: Position, rules: Rules, cards: int) -> list[int]:
    """:func:`rollout_py` after each legal action, in the order of :func:`legal_py`."""
    solver = _Solver(rules)
    return [_rollout_value(play_py(pos, a), rules, cards, solver) for a in legal_py(pos, rules)]


def solve_py(pos: Position, rules: Rules) -> int:
    """The value of ``pos`` played out perfectly by both sides (the objective of ``rules``)."""
    if _over(pos):
        return _leaf(pos, rules)
    return _mtdf(_Solver(rules), pos, _linear(pos, rules))


def solve_moves_py(pos: Position, rules: Rules) -> list[int]:
    """The value after each legal action, in the order of :func:`legal_py`."""
    solver = _Solver(rules)
    out = []
    guess = _linear(pos, rules)
    for action in legal_py(pos, rules):
        child = play_py(pos, action)
        guess = _leaf(child, rules) if _over(child) else _mtdf(solver, child, guess)
        out.append(guess)
    return out


# -- the functions in use: C where built --------------------------------------------------------------------


def legal(pos: Position, rules: Rules) -> list[int]:
    """The legal actions of the seat to move, ascending."""
    return native.legal(pos, rules) if native is not None else legal_py(pos, rules)


def play(pos: Position, rules: Rules, action: int) -> Position:
    """The position after ``action``; an action that is not legal raises IllegalActionError."""
    if action not in legal(pos, rules):
        raise IllegalActionError(f"action {action} is not legal in position {pos}")
    return native.play(pos, rules, action) if native is not None else play_py(pos, action)


def solve(pos: Position, rules: Rules) -> int:
    """The value of ``pos`` played out perfectly by both sides."""
    return native.solve(pos, rules) if native is not None else solve_py(pos, rules)


def solve_moves(pos: Position, rules: Rules) -> list[int]:
    """The value after each legal action (the order of :func:`legal`), each played out perfectly."""
    return native.solve_moves(pos, rules) if native is not None else solve_moves_py(pos, rules)


def cards_left(pos: Position) -> int:
    """The most cards any hand still holds."""
    return max(pos[0].bit_count(), pos[1].bit_count(), pos[2].bit_count())


def greedy(pos: Position, rules: Rules) -> int:
    """The playout policy's move (:func:`greedy_py`)."""
    return native.greedy(pos, rules) if native is not None else greedy_py(pos, rules)


def evaluate(pos: Position, rules: Rules, cards: int) -> list[int]:
    """The value after each legal action (the order of :func:`legal`): the playout policy plays on until
    every hand holds at most ``cards``, and the rest is solved exactly (all of it when ``cards`` is 8)."""
    return native.evaluate(pos, rules, cards) if native is not None else evaluate_py(pos, rules, cards)


def rollout(pos: Position, rules: Rules, cards: int) -> int:
    """The value of ``pos`` itself, played as :func:`evaluate` plays after a move."""
    return native.rollout(pos, rules, cards) if native is not None else rollout_py(pos, rules, cards)

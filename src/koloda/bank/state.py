"""The Bank engine: the state of a deal or a match, its legal actions and their effects.

The rules are those of docs/rules/bank.md; comments give the rule numbers. The state is built for speed
(cards are ints 0-35, hands are bitmasks, cover tables are precomputed per trump class assignment, legal
actions are computed once per position and reused by :meth:`BankState.apply` for validation).

>>> state = new_game(players=3, seed=7)
>>> state.current_player in (0, 1, 2), len(state.stock), sum(h.bit_count() for h in state.hands)
(True, 23, 12)
>>> while not state.is_over():
...     state.apply(state.legal_actions()[0])
>>> state.winner is not None and max(state.totals) >= 248
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from koloda.bank import tables as T
from koloda.bank.options import BankOptions
from koloda.cards import DECK_36, Card, Suit, parse_cards
from koloda.errors import IllegalActionError, NotationError, RecordError
from koloda.game import GameRecord, Scope, replay_actions

NORMAL, DRAWN, EXTRA, OVER, CHOOSE = 0, 1, 2, 3, 4
_DEFAULTS = BankOptions()  # frozen: built (and validated) once, not per game
PHASE_NAMES = ("move", "after-draw", "extra-move", "over", "choose-trump")
_KIND_SINGLE, _KIND_FOUR, _KIND_RUN = 0, 1, 2


@dataclass(frozen=True)
class Finish:
    """How a seat went out (rule 6.1): its place, the last card laid and the move that laid it."""

    place: int
    card: str
    kind: str  # "card", "four", "run"
    one_suit_run: bool


@dataclass(frozen=True)
class DealResult:
    """The score sheet of one deal, for UIs: everything rules 6-8 decide, itemised."""

    number: int
    dealer: int
    starter: int
    active: tuple[int, ...]
    trumps: str
    trump_suits: tuple[str, ...]  # per seat for set-up "own", else the trump suits (senior first)
    stuck: bool
    captured: tuple[int, ...]
    bonuses: tuple[tuple[tuple[str, str, int], ...], ...]  # per seat: (rule, what, points)
    penalties: tuple[int, ...]
    places: tuple[int | None, ...]
    leftover_to: int | None  # seat that took the leftover bank (rule 6.3)
    loser: int | None
    scores: tuple[int, ...]
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "starter": self.starter,
            "active": list(self.active),
            "trumps": self.trumps,
            "trump_suits": list(self.trump_suits),
            "stuck": self.stuck,
            "captured": list(self.captured),
            "bonuses": [[list(item) for item in seat] for seat in self.bonuses],
            "penalties": list(self.penalties),
            "places": list(self.places),
            "leftover_to": self.leftover_to,
            "loser": self.loser,
            "scores": list(self.scores),
            "totals": list(self.totals),
        }


class BankState:
    """A Bank deal or match in progress. Mutable for speed; :meth:`copy` is cheap; ``==`` compares all."""

    __slots__ = (
        "_chosen",
        "_cov",
        "_deal_starts",
        "_finish",
        "_legal",
        "_trump_kings",
        "active",
        "after_free",
        "bank",
        "captured",
        "captured_pts",
        "cur",
        "deal",
        "deal_no",
        "dealer",
        "fails",
        "four_kings",
        "hands",
        "hist",
        "kings_any",
        "kings_layer",
        "n",
        "n_in",
        "opening",
        "opts",
        "out",
        "phase",
        "places",
        "results",
        "scope",
        "seed",
        "seven_mode",
        "starter",
        "stock",
        "target",
        "top_owner",
        "totals",
        "trump_suits",
        "winner",
    )

    n: int
    opts: BankOptions
    scope: Scope
    seed: int
    deal: dict[str, Any] | None
    hands: list[int]
    stock: list[int]
    bank: list[int]
    captured: list[int]
    captured_pts: list[int]
    out: list[bool]
    places: list[int]
    _finish: list[Finish | None]
    hist: list[int]
    _deal_starts: list[int]
    results: list[DealResult]
    totals: list[int]
    trump_suits: tuple[int, ...]
    _cov: list[tuple[int, ...]]
    _trump_kings: list[int]
    _legal: list[int] | None
    _chosen: list[int]
    winner: int | None
    active: tuple[int, ...]
    dealer: int
    starter: int
    cur: int
    deal_no: int
    phase: int
    target: int
    top_owner: int
    fails: int
    n_in: int
    opening: bool
    four_kings: bool
    kings_layer: int
    after_free: bool
    kings_any: bool
    seven_mode: int

    # -- construction ----------------------------------------------------------------------------------

    def _setup(self, options: BankOptions, players: int, scope: Scope, seed: int) -> None:
        options.check_players(players)
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        self.opts, self.n, self.scope, self.seed = options, players, scope, seed
        self.deal = None
        self.totals = [0] * players
        self.results, self.hist, self._deal_starts = [], [], []
        self.winner = None
        self.deal_no = 0
        self.after_free = options.after_capture == "free-lead"
        self.kings_any = options.four_kings == "anyone"
        self.seven_mode = ("none", "skip", "draw-and-move", "skip-and-draw").index(options.seven)
        self._chosen = []
        self._legal = None

    def _set_trumps(self, suits: Sequence[int]) -> None:
        """Rule 3: the trump class of every suit as each seat sees it, and each seat's cover table."""
        opts, n = self.opts, self.n
        self.trump_suits = tuple(suits)
        per_seat: list[tuple[int, int, int, int]] = []
        for p in range(n):
            classes = [0, 0, 0, 0]
            if opts.trumps == "own":
                classes[suits[p]] = 1  # rule 3.2: one's own suit is trump, all others plain for him
            elif opts.trumps == "senior-junior":
                classes[suits[0]], classes[suits[1]] = 2, 1  # rule 3.4
            else:
                for s in suits:
                    classes[s] = 1
            per_seat.append((classes[0], classes[1], classes[2], classes[3]))
        free = opts.two_trumps_cover == "free"
        self._cov = [T.cover_table(c, free) for c in per_seat]
        self._trump_kings = [sum(1 << (s * 9 + T.KING) for s in range(4) if per_seat[p][s]) for p in range(n)]

    def _begin_choice(self, dealer: int) -> None:
        """Rule 3.2, trumps chosen in turn: before the first deal, from the dealer's left, each player
        names a suit nobody has taken yet. Nothing is dealt until everyone has chosen."""
        n = self.n
        self.dealer, self.active, self._chosen = dealer, tuple(range(n)), [-1] * n
        self.hands, self.stock, self.bank = [0] * n, [], []
        self.captured, self.captured_pts = [0] * n, [0] * n
        self.out, self.places, self._finish = [False] * n, [], [None] * n
        self.trump_suits, self._cov, self._trump_kings = (), [], [0] * n
        self.top_owner = self.target = self.kings_layer = -1
        self.fails, self.n_in = 0, n
        self.opening = self.four_kings = False
        self.phase = CHOOSE
        self.starter = self.cur = (dealer + 1) % n

    def _choose(self, p: int, suit: int) -> None:
        chosen = self._chosen
        chosen[p] = suit
        if -1 in chosen:
            self.cur = (p + 1) % self.n
            return
        self._set_trumps(chosen)
        self._start_deal(self.dealer, self.active, None)

    def _start_deal(
        self, dealer: int, active: tuple[int, ...], layout: tuple[list[list[int]], int, list[int]] | None
    ) -> None:
        """Rule 2.3: shuffle (from the seed), deal four cards each, one open card, the stock."""
        n = self.n
        self.deal_no += 1
        self.dealer = dealer
        self.active = active
        hands = [0] * n
        if layout is None:
            deck = list(range(36))
            random.Random(f"bank:{self.seed}:deal:{self.deal_no}").shuffle(deck)
            order = [(dealer + 1 + k) % n for k in range(n)]
            order = [p for p in order if p in active]
            for _ in range(4):
                for p in order:
                    hands[p] |= 1 << deck.pop()
            open_card = deck.pop()
            stock = deck  # the top of the stock is the end of the list
        else:
            hand_lists, open_card, stock = layout
            for p, cards in enumerate(hand_lists):
                for c in cards:
                    hands[p] |= 1 << c
        self.hands = hands
        self.stock = stock
        self.bank = [open_card]
        self.top_owner = -1  # the open card belongs to nobody (rule 5.2)
        self.target = open_card
        self.opening = True
        self.captured = [0] * n
        self.captured_pts = [0] * n
        self.out = [p not in active for p in range(n)]
        self.n_in = len(active)
        self.places = []
        self._finish = [None] * n
        self.fails = 0
        self.four_kings = False
        self.kings_layer = -1
        self.phase = NORMAL
        self.starter = self.cur = self._first_mover()
        self._deal_starts.append(len(self.hist))
        self._legal = None

    def _first_mover(self) -> int:
        """Rule 4.1: the nearest lower card of the open card's suit, else the nearest higher, else the
        dealer's left."""
        t = self.target
        suit, rank_ord = t // 9, T.FACE_ORD[t % 9]
        best_lower = best_higher = None
        for p in self.active:
            for c in T.cards_of(self.hands[p] & T.SUIT_MASK[suit]):
                o = T.FACE_ORD[c % 9]
                if o < rank_ord and (best_lower is None or o > best_lower[0]):
                    best_lower = (o, p)
                elif o > rank_ord and (best_higher is None or o < best_higher[0]):
                    best_higher = (o, p)
        if best_lower is not None:
            return best_lower[1]
        if best_higher is not None:
            return best_higher[1]
        return self._next_in(self.dealer)

    # -- the protocol ----------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.cur

    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (rule 4; empty when over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> list[int]:
        phase = self.phase
        if phase >= OVER:
            return [] if phase == OVER else [T.CHOOSE0 + s for s in range(4) if s not in self._chosen]
        p = self.cur
        h = self.hands[p]
        t = self.target
        if t < 0:
            cov = T.FULL_DECK
            m = h
        else:
            cov = self._cov[p][t]
            if self.opening and self.opts.opening == "free":
                cov |= T.SUIT_MASK[t // 9]  # rule 4.2: any card of the open card's suit
            m = h & (cov | T.EIGHTS)  # rule 4.5: an 8 goes on anything
        acts = []
        while m:
            low = m & -m
            acts.append(low.bit_length() - 1)
            m ^= low
        if h.bit_count() >= 4:
            four = h & (h >> 9) & (h >> 18) & (h >> 27) & 511
            if four:  # rule 4.6: four of a kind goes on anything, any of the four on top
                acts.extend(sorted(T.FOUR0 + s * 9 + f for f in range(9) if four >> f & 1 for s in range(4)))
            runs = self._runs(h, cov)
            if runs:
                acts.extend(runs)
        if not acts:
            # rule 4.9: unable to move, draw one card; still unable (or no stock), pass
            return [T.DRAW] if phase == NORMAL and self.stock else [T.PASS]
        if phase == EXTRA and not (self.opts.four_extra_move == "compulsory" and self._after_four()):
            acts.append(T.PASS)  # the extra move is optional (rules 4.5, 4.7; 4.6 by default)
        return acts

    def _after_four(self) -> bool:
        """Whether the extra move being made follows four of a kind (the last action laid them)."""
        return T.FOUR0 <= self.hist[-1] >> 2 < T.RUN0

    def _runs(self, h: int, cov: int) -> list[int]:
        """Rule 4.7: runs of four in Bank's order whose covering end covers the target."""
        out: list[int] = []
        if self.opts.runs == "one-suit":
            for s in range(4):
                for st in T.RUN_STARTS9[(h >> (9 * s)) & 511]:
                    base = T.RUN0 + (st * 256 + 85 * s) * 2
                    if cov >> (s * 9 + T.ORD_FACE[st]) & 1:
                        out.append(base)
                    if cov >> (s * 9 + T.ORD_FACE[st + 3]) & 1:
                        out.append(base + 1)
        else:
            present = (h | h >> 9 | h >> 18 | h >> 27) & 511
            for st in T.RUN_STARTS9[present]:
                options = [[s for s in range(4) if h >> (s * 9 + T.ORD_FACE[st + k]) & 1] for k in range(4)]
                for s0 in options[0]:
                    for s1 in options[1]:
                        for s2 in options[2]:
                            for s3 in options[3]:
                                base = T.run_id(st, (s0, s1, s2, s3), False)
                                if cov >> (s0 * 9 + T.ORD_FACE[st]) & 1:
                                    out.append(base)
                                if cov >> (s3 * 9 + T.ORD_FACE[st + 3]) & 1:
                                    out.append(base + 1)
        out.sort()
        return out

    def apply(self, action: int) -> None:
        """Play an action id; an illegal one raises IllegalActionError saying why and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal or type(action) is not int:
            raise IllegalActionError(self._why(action))
        self._legal = None
        p = self.cur
        self.hist.append(action << 2 | p)
        if action < T.FOUR0:
            self._lay(p, (action,), action, _KIND_SINGLE)
        elif action < T.RUN0:
            top = action - T.FOUR0
            rank = T.RANK_MASK[top % 9]
            self._lay(p, (*T.cards_of(rank & ~(1 << top)), top), top, _KIND_FOUR)
        elif action < T.DRAW:
            cards = T.RUN_CARDS[action - T.RUN0]
            self._lay(p, cards, cards[3], _KIND_RUN)
        elif action == T.DRAW:
            self.hands[p] |= 1 << self.stock.pop()
            self.phase = DRAWN
        elif action == T.PASS:
            if self.phase == EXTRA:
                self._end_turn(p)  # the player adds nothing after his 8 or four of a kind
            else:
                self._fail(p)
        else:
            self._choose(p, action - T.CHOOSE0)

    # -- effects of a move -----------------------------------------------------------------------------

    def _lay(self, p: int, cards: tuple[int, ...], top: int, kind: int) -> None:
        before = self.target
        hands = self.hands
        for c in cards:
            hands[p] ^= 1 << c
        bank = self.bank
        bank.extend(cards)
        self.top_owner = p
        self.fails = 0
        self.opening = False
        self.target = top
        if self.four_kings and (p != self.kings_layer or self.kings_any):
            self._capture(p)  # rule 5.4: whoever lays on four kings takes the bank
            self._end_turn(p, top, kind)
            return
        face = top % 9
        self.four_kings = kind == _KIND_FOUR and face == T.KING
        if self.four_kings:
            self.kings_layer = p
        if hands[p] and (
            (kind == _KIND_SINGLE and face == T.EIGHT)
            or kind == _KIND_FOUR
            or (kind == _KIND_RUN and self.opts.run_extra_move)
        ):
            # rules 4.5-4.7: one more move; after an 8 it covers the 8 or (option) the card beneath
            self.phase = EXTRA
            if kind == _KIND_SINGLE and self.opts.eight_then == "cover-beneath":
                self.target = before
            return
        self._end_turn(p, top, kind)

    def _end_turn(self, p: int, last: int = -1, kind: int = _KIND_SINGLE) -> None:
        """After a move: going out (rule 6.1), the end of the deal (6.2), the 7 (4.8), the next player."""
        if not self.hands[p] and not self.out[p]:
            self._go_out(p, last, kind)
            if self.n_in <= 1:
                self._end_deal(False)
                return
        bank = self.bank
        if bank:
            self.target = bank[-1]
        q = self._next_in(p)
        mode = self.seven_mode
        if mode and bank and bank[-1] % 9 == T.SEVEN:
            if mode != 1 and self.stock:  # draw-and-move, skip-and-draw
                self.hands[q] |= 1 << self.stock.pop()
            if mode != 2:  # skip, skip-and-draw
                q = self._next_in(q)
        self.cur = q
        self.phase = NORMAL

    def _fail(self, p: int) -> None:
        """Rules 5.1, 5.2, 5.6: the player cannot cover; the top card's owner takes the bank."""
        owner = self.top_owner
        if (
            len(self.bank) >= 2
            and owner >= 0
            and owner != p
            and (not self.out[owner] or self.opts.out_players_take)
        ):
            self._capture(owner)
        self.fails += 1
        if not self.stock and self.fails >= self.n_in:
            self._end_deal(True)  # rule 6.2: every player still in failed against the same card
            return
        self.cur = self._next_in(p)
        self.phase = NORMAL

    def _capture(self, taker: int) -> None:
        bank = self.bank
        mask = 0
        for c in bank:
            mask |= 1 << c
        self.captured[taker] |= mask
        self.captured_pts[taker] += T.points_of(mask)
        # rule 5.3: a free lead, or (literal reading) the next move covers the last top card
        self.target = -1 if self.after_free else bank[-1]
        bank.clear()
        self.top_owner = -1
        self.four_kings = False

    def _go_out(self, p: int, last: int, kind: int) -> None:
        self.out[p] = True
        self.n_in -= 1
        self.places.append(p)
        one_suit = kind == _KIND_RUN and T.RUN_ONE_SUIT[(self.hist[-1] >> 2) - T.RUN0]
        self._finish[p] = Finish(
            len(self.places), str(DECK_36[last]), ("card", "four", "run")[kind], one_suit
        )
        if self._trump_kings[p] >> last & 1 and self.bank:
            self._capture(p)  # rule 5.5: going out on a trump king takes the bank

    def _next_in(self, p: int) -> int:
        n, out = self.n, self.out
        q = (p + 1) % n
        while out[q] and q != p:
            q = (q + 1) % n
        return q

    # -- the end of a deal and the match -------------------------------------------------------------

    def _end_deal(self, stuck: bool) -> None:
        opts, n = self.opts, self.n
        leftover_to = None
        owner = self.top_owner
        if (
            len(self.bank) >= 2
            and owner >= 0
            and opts.leftover_bank == "top-owner"
            and (not self.out[owner] or opts.out_players_take)  # rule 5.6: out players may take nothing
        ):
            leftover_to = owner  # rule 6.3
            self._capture(owner)
        loser = self._loser()
        bonuses: list[tuple[tuple[str, str, int], ...]] = []
        penalties: list[int] = []
        scores: list[int] = []
        for p in range(n):
            items = self._bonuses(p)
            fine = self._penalty(p, loser)
            bonuses.append(items)
            penalties.append(fine)
            scores.append(self.captured_pts[p] + sum(i[2] for i in items) - fine)
        for p in range(n):
            self.totals[p] += scores[p]
        places: list[int | None] = [None] * n
        for i, p in enumerate(self.places):
            places[p] = i + 1
        self.results.append(
            DealResult(
                self.deal_no,
                self.dealer,
                self.starter,
                self.active,
                opts.trumps,
                tuple(Suit(s).letter for s in self.trump_suits),
                stuck,
                tuple(self.captured_pts),
                tuple(bonuses),
                tuple(penalties),
                tuple(places),
                leftover_to,
                loser,
                tuple(scores),
                tuple(self.totals),
            )
        )
        self.phase = OVER
        if self.scope == "deal":
            return
        best = max(self.totals)
        # rule 8.1: reaching the target exactly counts; rule 8.3: the deal limit ends any match
        if best >= opts.target or self.deal_no >= opts.max_deals:
            leaders = tuple(p for p in range(n) if self.totals[p] == best)
            if len(leaders) == 1:
                self.winner = leaders[0]
                return
            active = leaders if opts.tie == "tied-only" else tuple(range(n))  # rule 8.2
        else:
            active = tuple(range(n))
        self._start_deal(self._next_dealer(loser), active, None)

    def _loser(self) -> int | None:
        """Rule 7.8: the last player holding cards; after a stuck end the holder with most points in hand."""
        holders = [p for p in self._clockwise(self.dealer) if p in self.active and self.hands[p]]
        if not holders:
            return None
        return max(holders, key=lambda p: T.points_of(self.hands[p]))  # max keeps the first of ties

    def _clockwise(self, seat: int) -> list[int]:
        return [(seat + 1 + k) % self.n for k in range(self.n)]

    def _next_dealer(self, loser: int | None) -> int:
        """Rule 2.2: the agreed next dealer; ties go clockwise from the old dealer's left."""
        rule = self.opts.next_dealer
        order = self._clockwise(self.dealer)
        if rule == "starter":
            return self.starter
        if rule == "last-finisher" and self.places:
            return self.places[-1]
        if rule in ("loser", "last-finisher"):
            return loser if loser is not None else self.places[-1]
        pick = max if rule == "max-points" else min
        return pick(order, key=lambda p: self.totals[p])

    def _bonuses(self, p: int) -> tuple[tuple[str, str, int], ...]:
        finish = self._finish[p]
        if finish is None:
            return ()
        place = finish.place
        items = []
        if place <= 3:
            items.append(("7.2", f"place {place}", (20, 10, 10)[place - 1]))
            if finish.card[0] == "K":
                items.append(("7.3", f"place {place} on a king", (30, 20, 10)[place - 1]))
            if finish.one_suit_run:
                items.append(("7.5", f"place {place} with a run of one suit", (30, 25, 20)[place - 1]))
        if finish.kind == "four" and finish.card[0] != "K":
            items.append(("7.4", "went out with four of a kind", 75))
        return tuple(items)

    def _penalty(self, p: int, loser: int | None) -> int:
        """Rules 7.6-7.8: points left in hand."""
        opts = self.opts
        hand = self.hands[p]
        if opts.penalty == "none" or not hand or (opts.penalty_who == "loser" and p != loser):
            return 0
        points = T.points_of(hand)
        if opts.penalty == "variant1":
            return points
        if opts.variant2 == "fixed":
            return points + opts.penalty_fixed
        if opts.variant2 == "per-card":
            return points + opts.penalty_per_card * hand.bit_count()
        zero_cards = sum(1 for c in T.cards_of(hand) if T.CARD_POINTS[c] == 0)
        return points + opts.penalty_per_card * zero_cards + (opts.penalty_fixed if points == 0 else 0)

    # -- results -------------------------------------------------------------------------------------

    def returns(self) -> list[int]:
        """Scope "deal": this deal's points (captured so far, the score once over); "match": the totals."""
        if self.scope == "match":
            return list(self.totals)
        if self.phase == OVER:
            return list(self.results[-1].scores)
        return list(self.captured_pts)

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand (for tests and the engine's owner; bots use ``observe``)."""
        return [DECK_36[c] for c in T.cards_of(self.hands[seat])]

    # -- notation ------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        """Canonical notation: ``7H``; four of a kind and runs as cards joined by ``+`` in the order laid
        (the last on top); ``draw``; ``pass``."""
        return action_text(action)

    def parse_action(self, text: str) -> int:
        """Canonical or friendly notation to an action id (see :func:`parse_action`)."""
        return parse_action(text)

    def _why(self, action: object) -> str:
        shown = action_text(action) if type(action) is int and 0 <= action < T.NUM_ACTIONS else repr(action)
        head = f"illegal action {shown}"
        if self.phase == OVER:
            return f"{head}: the game is over"
        if type(action) is not int or not 0 <= action < T.NUM_ACTIONS:
            return f"{head}: not a Bank action id (0-{T.NUM_ACTIONS - 1})"
        p = self.cur
        head += f" for seat {p}"
        legal = self._legal or []
        if action >= T.CHOOSE0:
            if self.phase != CHOOSE:
                return f"{head}: trumps are chosen only before the first deal (rule 3.2)"
            taker = self._chosen.index(action - T.CHOOSE0)
            return f"{head}: seat {taker} has already chosen that suit (rule 3.2)"
        if self.phase == CHOOSE:
            return f"{head}: choose your trump suit first (rule 3.2)"
        if action == T.DRAW:
            if self.phase == EXTRA:
                return f"{head}: after an 8 or four of a kind you add a card or pass, never draw (rule 4.9)"
            if self.phase == DRAWN:
                return f"{head}: you have already drawn this turn (rule 4.9)"
            if not self.stock:
                return f"{head}: the stock is empty (rule 4.9)"
            return f"{head}: you can move, and you draw only when you cannot (rule 4.9)"
        if action == T.PASS:
            if self.phase == EXTRA:
                return f"{head}: after four of a kind the extra move must be made when it can (rule 4.6)"
            if legal == [T.DRAW]:
                return f"{head}: you cannot move, so you must draw first (rule 4.9)"
            return f"{head}: you can move, and you pass only when you cannot (rule 4.9)"
        cards: tuple[int, ...]
        if action < T.FOUR0:
            cards = (action,)
        elif action < T.RUN0:
            cards = tuple(T.cards_of(T.RANK_MASK[(action - T.FOUR0) % 9]))
        else:
            cards = T.RUN_CARDS[action - T.RUN0]
            if self.opts.runs == "one-suit" and not T.RUN_ONE_SUIT[action - T.RUN0]:
                return f"{head}: runs must be of one suit (rule 4.7)"
        missing = [str(DECK_36[c]) for c in cards if not self.hands[p] >> c & 1]
        if missing:
            return f"{head}: seat {p} does not hold {' '.join(missing)}"
        return f"{head}: {DECK_36[cards[0]]} does not cover {DECK_36[self.target]} (rule 4.3)"

    # -- copying, equality, records --------------------------------------------------------------------

    def copy(self) -> Self:
        """An independent copy (lists copied, immutable tables shared)."""
        new = object.__new__(type(self))
        for name in self.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = list(value)
            setattr(new, name, value)
        return new

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__ if name not in ("_legal", "_cov"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BankState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<BankState players={self.n} deal={self.deal_no} turn={self.current_player} "
            f"phase={PHASE_NAMES[self.phase]} bank={len(self.bank)} stock={len(self.stock)}>"
        )

    @property
    def actions(self) -> list[int]:
        """Every action played so far, in order."""
        return [h >> 2 for h in self.hist]

    def record(self) -> GameRecord:
        """The record of everything played so far (game "bank"): options, seed or deal, actions."""
        defaults = _DEFAULTS.to_dict()
        options = {k: v for k, v in self.opts.to_dict().items() if defaults[k] != v}
        texts = tuple(action_text(h >> 2) for h in self.hist)
        if self.deal is not None:
            return GameRecord("bank", self.n, options, texts, deal=self.deal, scope=self.scope)
        return GameRecord("bank", self.n, options, texts, seed=self.seed, scope=self.scope)


# -- notation ----------------------------------------------------------------------------------------

_DRAW_WORDS = {"draw", "взять", "беру", "брать"}
_TRUMP_WORDS = {"trump", "козырь"}
_PASS_WORDS = {"pass", "пас", "stop", "хватит"}


def action_text(action: int) -> str:
    """The canonical text of an action id.

    >>> action_text(0), action_text(T.FOUR0 + 35), action_text(T.DRAW), action_text(T.PASS)
    ('6S', 'AS+AC+AD+AH', 'draw', 'pass')
    >>> action_text(T.run_id(0, (3, 3, 3, 3), True))
    '9H+8H+7H+6H'
    """
    if type(action) is not int or not 0 <= action < T.NUM_ACTIONS:
        raise NotationError(f"bad Bank action {action!r}: expected an id 0-{T.NUM_ACTIONS - 1}")
    if action < T.FOUR0:
        return str(DECK_36[action])
    if action < T.RUN0:
        top = action - T.FOUR0
        others = T.cards_of(T.RANK_MASK[top % 9] & ~(1 << top))
        return "+".join(str(DECK_36[c]) for c in (*others, top))
    if action < T.DRAW:
        return "+".join(str(DECK_36[c]) for c in T.RUN_CARDS[action - T.RUN0])
    if action >= T.CHOOSE0:
        return f"trump {Suit(action - T.CHOOSE0).letter}"
    return "draw" if action == T.DRAW else "pass"


def parse_action(text: str) -> int:
    """Read an action: a card (``7H``, ``7♥``, ``7Ч``), four of a kind or a run as cards joined by ``+``
    or spaces in the order laid (the last on top), ``draw``/``взять``, ``pass``/``пас``.

    >>> parse_action("7♥") == parse_action("7Ч") == parse_action("7H")
    True
    >>> action_text(parse_action("в♠ 9♠ 8♠ 7♠"))
    'JS+9S+8S+7S'
    >>> parse_action("ПАС") == T.PASS
    True
    """
    if not isinstance(text, str):
        raise NotationError(f"bad Bank action {text!r}: expected text")
    word = text.strip().lower()
    if word in _DRAW_WORDS:
        return T.DRAW
    if word in _PASS_WORDS:
        return T.PASS
    head, _, rest = word.partition(" ")
    if head in _TRUMP_WORDS:
        try:
            return T.CHOOSE0 + Suit.parse(rest)
        except NotationError as exc:
            raise NotationError(f"bad Bank action {text!r}: {exc}") from None
    try:
        cards = [c.index for c in parse_cards(word.replace("+", " "))]
    except NotationError as exc:
        raise NotationError(f"bad Bank action {text!r}: {exc}") from None
    if len(cards) == 1:
        return cards[0]
    if len(cards) == 4 and len(set(cards)) == 4:
        faces = {c % 9 for c in cards}
        if len(faces) == 1:
            return T.FOUR0 + cards[3]
        ords = [T.FACE_ORD[c % 9] for c in cards]
        high = ords[0] > ords[1]
        if high:
            cards, ords = cards[::-1], ords[::-1]
        if ords == list(range(ords[0], ords[0] + 4)):
            s = [c // 9 for c in cards]
            return T.run_id(ords[0], (s[0], s[1], s[2], s[3]), high)
    raise NotationError(
        f"bad Bank action {text!r}: expected one card, four of a kind, a run of four in the order laid "
        "(6 7 8 9 J Q K 10 A), 'draw' or 'pass'"
    )


# -- building states -------------------------------------------------------------------------------------


def new_game(
    options: BankOptions | None = None, *, players: int, seed: int, scope: Scope = "match"
) -> BankState:
    """A new deal or match; the first dealer (by lot), random trumps and every shuffle come from ``seed``.

    >>> new_game(players=5, seed=1)
    Traceback (most recent call last):
    ...
    koloda.errors.OptionsError: Bank is for 2-4 players, not 5
    """
    opts = options if options is not None else _DEFAULTS
    if type(seed) is not int or seed < 0:
        raise RecordError(f"seed must be a non-negative integer, not {seed!r}")
    state = object.__new__(BankState)
    state._setup(opts, players, scope, seed)
    rng = random.Random(f"bank:{seed}:setup")
    dealer = opts.first_dealer if opts.first_dealer is not None else rng.randrange(players)  # rule 2.1
    if opts.trump_choice == "in-turn":
        state._begin_choice(dealer)
    else:
        state._set_trumps(_trump_suits(opts, players, rng))
        state._start_deal(dealer, tuple(range(players)), None)
    return state


def _trump_suits(opts: BankOptions, players: int, rng: random.Random) -> tuple[int, ...]:
    """Rule 3: the trump suits, named in the options or drawn once for the whole match (rule 3.5)."""
    named = tuple(int(s) for s in opts.trump_suit_values())
    if named:
        return named
    suits = [0, 1, 2, 3]
    if opts.trumps == "senior-junior":
        return (int(Suit.SPADES), int(Suit.DIAMONDS))  # rule 3.4: the Lithuanian text's suits
    rng.shuffle(suits)
    count = {"own": players, "none": 0, "one": 1, "two": 2}[opts.trumps]
    return tuple(suits[:count])


def from_deal(
    deal: Mapping[str, Any], options: BankOptions | None = None, *, scope: Scope = "deal"
) -> BankState:
    """A state from an explicit deal, to set up any position.

    ``deal`` has ``hands`` (a list of card lists, one per seat), ``open`` (the open card), ``stock`` (top
    first), ``dealer`` (a seat), and optionally ``trump_suits`` (suit letters, as the option), ``totals``
    (match scores so far) and ``seed`` (for the later deals of a match, and the trump suits when neither
    the deal nor the options name them). Cards not named are out of play.

    >>> s = from_deal({"hands": [["7H", "KS"], ["9H"]], "open": "8H", "stock": ["AS"], "dealer": 1,
    ...                "trump_suits": ["C", "D"]})
    >>> s.current_player, s.legal_actions() == [s.parse_action("7H")]
    (0, True)
    """
    opts = options if options is not None else _DEFAULTS
    if not isinstance(deal, Mapping):
        raise RecordError("a Bank deal must be a JSON object")
    known = {"hands", "open", "stock", "dealer", "trump_suits", "totals", "seed"}
    unknown = sorted(set(deal) - known)
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} in Bank deal; known keys: {', '.join(sorted(known))}")
    for key in ("hands", "open", "stock", "dealer"):
        if key not in deal:
            raise RecordError(f"Bank deal has no {key!r}")
    hands_in = deal["hands"]
    if not isinstance(hands_in, list) or not all(isinstance(h, list) for h in hands_in):
        raise RecordError("deal 'hands' must be a list of card lists, one per seat")
    players = len(hands_in)
    if not 2 <= players <= 4:  # rule 1.1, before the other checks, which count seats
        raise RecordError(f"deal 'hands' must hold one hand per seat for 2-4 players, not {players}")
    seen: set[int] = set()

    def cards(items: list[Any], where: str) -> list[int]:
        out = []
        for item in items:
            if not isinstance(item, str):
                raise RecordError(f"deal {where}: a card must be text, not {item!r}")
            try:
                c = Card.parse(item).index
            except NotationError as exc:
                raise RecordError(f"deal {where}: {exc}") from None
            if c in seen:
                raise RecordError(f"deal {where}: card {DECK_36[c]} is dealt twice")
            seen.add(c)
            out.append(c)
        return out

    hands = [cards(h, f"hand {p}") for p, h in enumerate(hands_in)]
    if any(not h for h in hands):
        raise RecordError("deal 'hands': every seat needs at least one card")
    if not isinstance(deal["open"], str):
        raise RecordError(f"deal 'open' must be one card, not {deal['open']!r}")
    open_card = cards([deal["open"]], "open card")[0]
    if not isinstance(deal["stock"], list):
        raise RecordError("deal 'stock' must be a list of cards, top first")
    stock = cards(deal["stock"], "stock")[::-1]
    dealer = deal["dealer"]
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordError(f"deal 'dealer' must be a seat 0-{players - 1}, not {dealer!r}")
    seed = deal.get("seed", 0)
    if type(seed) is not int or seed < 0:
        raise RecordError(f"deal 'seed' must be a non-negative integer, not {seed!r}")
    totals = deal.get("totals", [0] * players)
    if not isinstance(totals, list) or len(totals) != players or any(type(x) is not int for x in totals):
        raise RecordError(f"deal 'totals' must be {players} integers, not {totals!r}")
    suits = deal.get("trump_suits")
    if suits is not None:
        if not isinstance(suits, list) or not all(isinstance(s, str) for s in suits):
            raise RecordError(f"deal 'trump_suits' must be a list of suit letters, not {suits!r}")
        opts = opts.replace(trump_suits=tuple(suits))
    state = object.__new__(BankState)
    state._setup(opts, players, scope, seed)
    state.opts = options if options is not None else _DEFAULTS
    state.deal = dict(deal)
    state.totals = list(totals)
    state._set_trumps(_trump_suits(opts, players, random.Random(f"bank:{seed}:setup")))
    state._start_deal(dealer, tuple(range(players)), (hands, open_card, stock))
    return state


def replay(record: GameRecord) -> BankState:
    """Rebuild the state a record describes, raising RecordError at the first action that does not replay."""
    if record.game != "bank":
        raise RecordError(f"this is a record of {record.game!r}, not of 'bank'")
    options = BankOptions.from_mapping(record.options)
    if record.deal is not None:
        state = from_deal(record.deal, options, scope=record.scope)
    else:
        assert record.seed is not None  # GameRecord guarantees one of seed and deal
        state = new_game(options, players=record.players, seed=record.seed, scope=record.scope)
    if state.n != record.players:
        raise RecordError(f"record says {record.players} players but its deal has {state.n}")
    replay_actions(state, record.actions)
    return state

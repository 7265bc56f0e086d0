"""Bank's rules of play: the legal actions of a position and the effect of an action (rules 3-6, 8).

:class:`BankRules` holds the state's private fields and the turn logic; :class:`koloda.bank.state.BankState`
derives from it with construction, the read-only properties, copies and records. Comments give the rule
numbers of docs/rules/bank.md. Built for speed: cards are ints 0-35, hands are bitmasks, cover tables are
precomputed per trump class assignment, and the legal actions of a position are computed once and reused
by :meth:`BankRules.apply` for validation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from koloda.bank import deal as D
from koloda.bank import scoring
from koloda.bank import tables as T
from koloda.bank.actions import ActionShown, cards_of_action
from koloda.bank.options import BankOptions
from koloda.bank.scoring import DealResult, Finish
from koloda.cards import DECK_36, CardsShown, Suit
from koloda.errors import IllegalActionError
from koloda.game import Scope
from koloda.i18n import Msg
from koloda.seeds import Seed

NORMAL, DRAWN, EXTRA, OVER, CHOOSE = 0, 1, 2, 3, 4
PHASE_NAMES = ("move", "after-draw", "extra-move", "over", "choose-trump")
_KIND_SINGLE, _KIND_FOUR, _KIND_RUN = 0, 1, 2
#: What an extra move follows (:meth:`BankRules._extra_kind`): any move, optional; one covering card after
#: an 8, optional; any move, compulsory when the player has one.
FOLLOW_ANY, FOLLOW_CARD, FOLLOW_MUST = 1, 2, 3


class BankRules:
    """The fields of a Bank deal or match and its rules of play (see the module docstring)."""

    __slots__ = (
        "_active",
        "_after_free",
        "_bank",
        "_captured",
        "_captured_pts",
        "_chosen",
        "_cov",
        "_cur",
        "_deal",
        "_deal_no",
        "_deal_starts",
        "_dealer",
        "_fails",
        "_finish",
        "_four_kings",
        "_hands",
        "_hist",
        "_kings_any",
        "_kings_layer",
        "_kings_pending",
        "_legal",
        "_n",
        "_n_in",
        "_opening",
        "_opts",
        "_out",
        "_phase",
        "_places",
        "_results",
        "_scope",
        "_seed",
        "_seven_mode",
        "_seven_taken",
        "_starter",
        "_stock",
        "_target",
        "_top_owner",
        "_totals",
        "_trump_kings",
        "_trump_suits",
        "_winner",
    )

    _n: int
    _opts: BankOptions
    _scope: Scope
    _seed: Seed
    _deal: dict[str, Any] | None
    _hands: list[int]
    _stock: list[int]
    _bank: list[int]
    _captured: list[int]
    _captured_pts: list[int]
    _out: list[bool]
    _places: list[int]
    _finish: list[Finish | None]
    _hist: list[int]  # action << 2 | seat, every action of the game
    _deal_starts: list[int]  # where each deal starts in _hist
    _results: list[DealResult]
    _totals: list[int]
    _trump_suits: tuple[int, ...]
    _cov: list[tuple[int, ...]]
    _trump_kings: list[int]
    _legal: list[int] | None
    _chosen: list[int]
    _winner: int | None
    _active: tuple[int, ...]
    _dealer: int
    _starter: int
    _cur: int
    _deal_no: int
    _phase: int
    _target: int  # the card the next move must cover; -1 for a free lead (rule 5.3)
    _top_owner: int
    _fails: int
    _n_in: int
    _opening: bool
    _four_kings: bool
    _kings_layer: int
    _after_free: bool
    _kings_any: bool
    _kings_pending: bool  # rule 5.4 under four_kings_capture=after-move: an 8 lies on four kings
    _seven_mode: int
    _seven_taken: bool  # rule 4.8 under seven_captured=acts: this turn's move took the bank with a 7 on top

    # -- construction ----------------------------------------------------------------------------------

    def _set_trumps(self, suits: Sequence[int]) -> None:
        """Rule 3: the trump class of every suit as each seat sees it, and each seat's cover table."""
        self._trump_suits = tuple(suits)
        per_seat = D.seat_classes(self._opts.trumps, suits, self._n)
        free = self._opts.two_trumps_cover == "free"
        self._cov = [T.cover_table(c, free) for c in per_seat]
        self._trump_kings = [sum(1 << (s * 9 + T.KING) for s in range(4) if c[s]) for c in per_seat]

    def _begin_choice(self, dealer: int) -> None:
        """Rule 3.2, trumps chosen in turn: before the first deal, from the dealer's left, each player
        names a suit nobody has taken yet. Nothing is dealt until everyone has chosen."""
        n = self._n
        self._dealer, self._active, self._chosen = dealer, tuple(range(n)), [-1] * n
        self._hands, self._stock, self._bank = [0] * n, [], []
        self._captured, self._captured_pts = [0] * n, [0] * n
        self._out, self._places, self._finish = [False] * n, [], [None] * n
        self._trump_suits, self._cov, self._trump_kings = (), [], [0] * n
        self._top_owner = self._target = self._kings_layer = -1
        self._fails, self._n_in = 0, n
        self._opening = self._four_kings = self._kings_pending = self._seven_taken = False
        self._phase = CHOOSE
        self._starter = self._cur = (dealer + 1) % n

    def _begin_choice_after_deal(self) -> None:
        """Rule 3.2 under ``trump_choice=in-turn-after-deal``: the first deal is dealt, then each player, from
        the dealer's left and seeing his cards, names a suit nobody has taken; play starts when all have."""
        self._chosen = [-1] * self._n
        self._phase = CHOOSE
        self._cur = (self._dealer + 1) % self._n

    def _choose(self, p: int, suit: int) -> None:
        chosen = self._chosen
        chosen[p] = suit
        if -1 in chosen:
            self._cur = (p + 1) % self._n
            return
        self._set_trumps(chosen)
        if self._deal_no:  # chosen after the deal: play begins; this deal's play starts here
            self._phase = NORMAL
            self._cur = self._starter
            self._deal_starts.append(len(self._hist))
            self._legal = None
            return
        self._start_deal(self._dealer, self._active, self._explicit_cards())

    def _explicit_cards(self) -> tuple[list[int], int, list[int]] | None:
        """The cards of the explicit first deal (``from_deal``), laid out once trumps are chosen before it
        (rule 3.2); None: the deal is shuffled."""
        if self._deal is None:
            return None
        parsed = D.parse_deal(self._deal)
        return D.laid_out(parsed.hands, parsed.open_card, parsed.stock, self._n)

    def _start_deal(
        self, dealer: int, active: tuple[int, ...], cards: tuple[list[int], int, list[int]] | None
    ) -> None:
        """Rule 2.3: shuffle (from the seed) and deal, or lay out the explicit cards; rule 4.1 moves first."""
        n = self._n
        self._deal_no += 1
        self._dealer = dealer
        self._active = active
        if cards is None:
            cards = D.shuffle(seed=self._seed, deal_no=self._deal_no, dealer=dealer, active=active, players=n)
        self._hands, open_card, self._stock = cards
        self._bank = [open_card]
        self._top_owner = -1  # the open card belongs to nobody (rule 5.2)
        self._target = open_card
        self._opening = True
        self._captured = [0] * n
        self._captured_pts = [0] * n
        self._out = [p not in active for p in range(n)]
        self._n_in = len(active)
        self._places = []
        self._finish = [None] * n
        self._fails = 0
        self._four_kings = self._kings_pending = self._seven_taken = False
        self._kings_layer = -1
        self._phase = NORMAL
        first = D.first_mover(self._hands, active, open_card)
        self._starter = self._cur = self._next_in(dealer) if first is None else first
        self._deal_starts.append(len(self._hist))
        self._legal = None

    # -- the protocol ----------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        return None if self._phase == OVER else self._cur

    @property
    def version(self) -> int:
        """The number of actions applied so far."""
        return len(self._hist)

    def is_over(self) -> bool:
        return self._phase == OVER

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (rule 4; empty when over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return list(legal)

    def _generate(self) -> list[int]:
        phase = self._phase
        if phase >= OVER:
            return [] if phase == OVER else [T.CHOOSE0 + s for s in range(4) if s not in self._chosen]
        p = self._cur
        h = self._hands[p]
        t = self._target
        follow = phase == EXTRA and self._extra_kind()
        if t < 0:
            cov = T.FULL_DECK
            m = h
        else:
            cov = self._cov[p][t]
            if self._opening and self._opts.opening == "free":
                cov |= T.SUIT_MASK[t // 9]  # rule 4.2: any card of the open card's suit
            # rule 4.5: an 8 goes on anything, but the single card added after an 8 must cover
            m = h & cov if follow == FOLLOW_CARD else h & (cov | T.EIGHTS)
        acts = []
        while m:
            low = m & -m
            acts.append(low.bit_length() - 1)
            m ^= low
        if h.bit_count() >= 4 and follow != FOLLOW_CARD:
            four = h & (h >> 9) & (h >> 18) & (h >> 27) & 511
            if four:  # rule 4.6: four of a kind goes on anything, any of the four on top
                acts.extend(sorted(T.FOUR0 + s * 9 + f for f in range(9) if four >> f & 1 for s in range(4)))
            runs = T.runs(h, cov, self._opts.runs == "one-suit")
            if runs:
                acts.extend(runs)
        if not acts:
            # rule 4.9: unable to move, draw one card; still unable (or no stock), pass
            return [T.DRAW] if phase == NORMAL and self._stock else [T.PASS]
        if phase == EXTRA and follow != FOLLOW_MUST:
            acts.append(T.PASS)  # the extra move is optional (rule 4.5; 4.6 and 4.7 by option)
        return acts

    def _extra_kind(self) -> int:
        """What the extra move being made follows (the last action laid it): an 8 whose added move is one
        covering card (rule 4.5, ``eight_follow=card``), a compulsory extra move (four of a kind or a run,
        rules 4.6-4.7), or an optional one."""
        last = self._hist[-1] >> 2
        if last < T.FOUR0:
            return FOLLOW_CARD if self._opts.eight_follow == "card" else FOLLOW_ANY
        if last < T.RUN0:
            return FOLLOW_MUST if self._opts.four_extra_move == "compulsory" else FOLLOW_ANY
        return FOLLOW_MUST if self._opts.run_extra == "compulsory" else FOLLOW_ANY

    def apply(self, action: int) -> None:
        """Play an action id; an illegal one raises IllegalActionError saying why and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal or type(action) is not int:
            raise IllegalActionError(self._why(action))
        self._legal = None
        p = self._cur
        self._hist.append(action << 2 | p)
        if action < T.FOUR0:
            self._lay(p, (action,), action, _KIND_SINGLE)
        elif action < T.RUN0:
            self._lay(p, cards_of_action(action), action - T.FOUR0, _KIND_FOUR)
        elif action < T.DRAW:
            cards = T.RUN_CARDS[action - T.RUN0]
            self._lay(p, cards, cards[3], _KIND_RUN)
        elif action == T.DRAW:
            self._hands[p] |= 1 << self._stock.pop()
            self._phase = DRAWN
        elif action == T.PASS:
            if self._phase == EXTRA:
                if self._kings_pending:
                    self._take_kings(p, -1)  # rule 5.4: the 8 alone covered the four kings
                self._end_turn(p)  # the player adds nothing after his 8 or four of a kind
            else:
                self._fail(p)
        else:
            self._choose(p, action - T.CHOOSE0)

    # -- effects of a move -----------------------------------------------------------------------------

    def _lay(self, p: int, cards: tuple[int, ...], top: int, kind: int) -> None:
        before = self._target
        hands = self._hands
        for c in cards:
            hands[p] ^= 1 << c
        bank = self._bank
        bank.extend(cards)
        self._top_owner = p
        self._fails = 0
        # rule 4.5 under eight_then=cover-beneath: the card added after an 8 laid on the open card still
        # covers the open card, by the lenient opening (rule 4.2) unless eight_opening=strict
        beneath_open = self._opening and self._opts.eight_opening == "lenient"
        self._opening = False
        self._target = top
        self._seven_taken = False
        face = top % 9
        if kind == _KIND_SINGLE:
            # rule 4.5: an 8 gives one more move, but under eight_follow=card the card added after an 8 is
            # the last of the turn, even if it is an 8 itself
            added = self._phase == EXTRA and self._hist[-2] >> 2 < T.FOUR0
            extra = face == T.EIGHT and not (added and self._opts.eight_follow == "card")
        else:
            extra = kind == _KIND_FOUR or self._opts.run_extra_move  # rules 4.6, 4.7
        extra = extra and hands[p] != 0
        after_move = self._opts.four_kings_capture == "after-move"
        if self._kings_pending:  # rule 5.4, after-move: the card added after an 8 laid on four kings
            self._take_kings(p, top)
            if extra:
                self._phase = EXTRA
                return
            self._end_turn(p, top, kind)
            return
        if self._four_kings and (p != self._kings_layer or self._kings_any):
            # rule 5.4: whoever lays on four kings takes the bank; under four_kings_capture=after-move an 8
            # first gets its added card, and four of a kind or a run take it before their extra move
            self._four_kings = False
            if extra and after_move and kind == _KIND_SINGLE:
                self._kings_pending = True
            else:
                self._take_kings(p, top)
                if extra and after_move:
                    self._phase = EXTRA
                else:
                    self._end_turn(p, top, kind)
                return
        else:
            self._four_kings = kind == _KIND_FOUR and face == T.KING
            if self._four_kings:
                self._kings_layer = p
        if extra:
            # rules 4.5-4.7: one more move; after an 8 it covers the 8 or (option) the card beneath
            self._phase = EXTRA
            if kind == _KIND_SINGLE and self._opts.eight_then == "cover-beneath":
                self._target = before
                self._opening = beneath_open
            return
        self._end_turn(p, top, kind)

    def _take_kings(self, p: int, top: int) -> None:
        """Rule 5.4: ``p`` took the bank by laying on four kings (``top``: the top card of his move, -1 after
        a pass); rule 4.8 under ``seven_captured=acts``: a 7 on top of that move still acts."""
        self._kings_pending = False
        self._capture(p)
        self._seven_taken = top >= 0 and top % 9 == T.SEVEN and self._opts.seven_captured == "acts"

    def _end_turn(self, p: int, last: int = -1, kind: int = _KIND_SINGLE) -> None:
        """After a move: going out (rule 6.1), the end of the deal (6.2), the 7 (4.8), the next player."""
        if not self._hands[p] and not self._out[p]:
            self._go_out(p, last, kind)
            if self._n_in <= 1:
                self._end_deal(False)
                return
        self._opening = False
        bank = self._bank
        if bank:
            self._target = bank[-1]
        q = self._next_in(p)
        mode = self._seven_mode
        if mode and (bank[-1] % 9 == T.SEVEN if bank else self._seven_taken):
            if mode != 1 and self._stock:  # draw-and-move, skip-and-draw
                self._hands[q] |= 1 << self._stock.pop()
            if mode != 2:  # skip, skip-and-draw
                q = self._next_in(q)
        self._seven_taken = False
        self._cur = q
        self._phase = NORMAL

    def _fail(self, p: int) -> None:
        """Rules 5.1, 5.2, 5.6: the player cannot cover; the top card's owner takes the bank."""
        owner = self._top_owner
        if (
            len(self._bank) >= 2
            and owner >= 0
            and owner != p
            and (not self._out[owner] or self._opts.out_players_take)
        ):
            self._capture(owner)
        self._fails += 1
        if not self._stock and self._fails >= self._n_in:
            self._end_deal(True)  # rule 6.2: every player still in failed against the same card
            return
        self._cur = self._next_in(p)
        self._phase = NORMAL

    def _capture(self, taker: int) -> None:
        bank = self._bank
        mask = 0
        for c in bank:
            mask |= 1 << c
        self._captured[taker] |= mask
        self._captured_pts[taker] += T.points_of(mask)
        # rule 5.3: a free lead, or (literal reading) the next move covers the last top card
        self._target = -1 if self._after_free else bank[-1]
        bank.clear()
        self._top_owner = -1
        self._four_kings = False

    def _go_out(self, p: int, last: int, kind: int) -> None:
        self._out[p] = True
        self._n_in -= 1
        self._places.append(p)
        one_suit = kind == _KIND_RUN and T.RUN_ONE_SUIT[(self._hist[-1] >> 2) - T.RUN0]
        self._finish[p] = Finish(
            len(self._places), str(DECK_36[last]), ("card", "four", "run")[kind], one_suit
        )
        # rule 5.5: going out on a trump king takes the bank, but not the king alone (rule 5.2) unless
        # trump_king_alone=taken
        if self._trump_kings[p] >> last & 1 and (
            len(self._bank) > 1 or (self._bank and self._opts.trump_king_alone == "taken")
        ):
            self._capture(p)

    def _next_in(self, p: int) -> int:
        n, out = self._n, self._out
        q = (p + 1) % n
        while out[q] and q != p:
            q = (q + 1) % n
        return q

    # -- the end of a deal and the match -------------------------------------------------------------

    def _end_deal(self, stuck: bool) -> None:
        opts, n = self._opts, self._n
        leftover_to = None
        owner = self._top_owner
        if (
            len(self._bank) >= 2
            and owner >= 0
            and opts.leftover_bank == "top-owner"
            and (not self._out[owner] or opts.out_players_take)  # rule 5.6: out players may take nothing
        ):
            leftover_to = owner  # rule 6.3
            self._capture(owner)
        bonuses = tuple(scoring.bonuses(self._finish[p]) for p in range(n))
        before_penalties = [self._captured_pts[p] + sum(i[2] for i in bonuses[p]) for p in range(n)]
        # rules 2.2, 7.8: who lost (and deals next) and who pays may be read apart after a stuck end
        hands, active, dealer = self._hands, self._active, self._dealer
        loser = scoring.loser(opts, hands, active, dealer, stuck, before_penalties, opts.stuck_loser)
        payer = scoring.loser(opts, hands, active, dealer, stuck, before_penalties, opts.stuck_payer)
        penalties = tuple(scoring.penalty(opts, hands[p], p == payer) for p in range(n))
        scores = tuple(before_penalties[p] - penalties[p] for p in range(n))
        for p in range(n):
            self._totals[p] += scores[p]
        places: list[int | None] = [None] * n
        for i, p in enumerate(self._places):
            places[p] = i + 1
        self._results.append(
            DealResult(
                self._deal_no,
                self._dealer,
                self._starter,
                self._active,
                opts.trumps,
                tuple(Suit(s).letter for s in self._trump_suits),
                stuck,
                tuple(self._captured_pts),
                bonuses,
                penalties,
                tuple(places),
                leftover_to,
                loser,
                scores,
                tuple(self._totals),
            )
        )
        self._phase = OVER
        if self._scope == "deal":
            return
        best = max(self._totals)
        # rule 8.1: reaching the target exactly counts; rule 8.3: the deal limit ends any match
        if best >= opts.target or self._deal_no >= opts.max_deals:
            leaders = tuple(p for p in range(n) if self._totals[p] == best)
            if len(leaders) == 1:
                self._winner = leaders[0]
                return
            active = leaders if opts.tie == "tied-only" else tuple(range(n))  # rule 8.2
        else:
            active = tuple(range(n))
        dealer = scoring.next_dealer(
            opts.next_dealer,
            dealer=self._dealer,
            starter=self._starter,
            places=self._places,
            loser=loser,
            totals=self._totals,
        )
        if dealer not in active and opts.tie_dealer == "tied":
            dealer = next(q for q in scoring.clockwise(dealer, n) if q in active)  # rule 8.2
        self._start_deal(dealer, active, None)

    def returns(self) -> list[int]:
        """Scope "deal": this deal's points (captured so far, the score once over); "match": the totals."""
        if self._scope == "match":
            return list(self._totals)
        if self._phase == OVER:
            return list(self._results[-1].scores)
        return list(self._captured_pts)

    def _why(self, action: object) -> Msg:
        ok = type(action) is int and 0 <= action < T.NUM_ACTIONS
        shown: object = ActionShown(action) if ok else repr(action)  # type: ignore[arg-type]
        if self._phase == OVER:
            return Msg("bank.illegal", action=shown, reason=Msg("bank.why.over"))
        if type(action) is not int or not 0 <= action < T.NUM_ACTIONS:
            return Msg("bank.illegal", action=shown, reason=Msg("bank.why.not_an_id", last=T.NUM_ACTIONS - 1))
        p = self._cur
        return Msg("bank.illegal_for", action=shown, seat=p, reason=self._why_seat(action, p))

    def _why_seat(self, action: int, p: int) -> Msg:
        legal = self._legal or []
        if action >= T.CHOOSE0:
            if self._phase != CHOOSE:
                return Msg("bank.why.choose_late")
            taker = self._chosen.index(action - T.CHOOSE0)
            return Msg("bank.why.suit_taken", seat=taker)
        if self._phase == CHOOSE:
            return Msg("bank.why.choose_first")
        if action == T.DRAW:
            if self._phase == EXTRA:
                return Msg("bank.why.draw_extra")
            if self._phase == DRAWN:
                return Msg("bank.why.drawn")
            if not self._stock:
                return Msg("bank.why.stock_empty")
            return Msg("bank.why.draw_can_move")
        if action == T.PASS:
            if self._phase == EXTRA:
                after_run = T.RUN0 <= self._hist[-1] >> 2 < T.DRAW
                return Msg("bank.why.pass_extra_run") if after_run else Msg("bank.why.pass_extra")
            if legal == [T.DRAW]:
                return Msg("bank.why.must_draw")
            return Msg("bank.why.pass_can_move")
        cards: tuple[int, ...]
        if action < T.FOUR0:
            cards = (action,)
        elif action < T.RUN0:
            cards = tuple(T.cards_of(T.RANK_MASK[(action - T.FOUR0) % 9]))
        else:
            cards = T.RUN_CARDS[action - T.RUN0]
            if self._opts.runs == "one-suit" and not T.RUN_ONE_SUIT[action - T.RUN0]:
                return Msg("bank.why.run_one_suit")
        missing = tuple(DECK_36[c] for c in cards if not self._hands[p] >> c & 1)
        if missing:
            return Msg("bank.why.not_held", seat=p, cards=CardsShown(missing))
        if action >= T.FOUR0 and self._phase == EXTRA and self._extra_kind() == FOLLOW_CARD:
            return Msg("bank.why.one_card")  # rule 4.5: one single card after an 8
        card, target = CardsShown((DECK_36[cards[0]],)), CardsShown((DECK_36[self._target],))
        return Msg("bank.why.no_cover", card=card, target=target)

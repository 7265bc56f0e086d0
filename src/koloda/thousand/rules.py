"""Thousand's rules of play: the legal actions of a position and the effect of an action (rules G2-G14).

:class:`ThousandRules` holds the state's private fields and the turn logic: the bidding (G5, G6), the
talon and the gifts (G7), the contract and the bomb (G8), marriages (G9, G10) and tricks (G11, G12), and
the end of a deal handed to the score book (G14). :class:`koloda.thousand.state.ThousandState` derives
from it with construction, the read-only properties, copies and records. Hot-path tables come from
:mod:`koloda.thousand.actions`; everything only a view needs (the bidding, the tricks, the marriages)
is rebuilt from the history by :mod:`koloda.thousand.observe`.
"""

from __future__ import annotations

from typing import Any

from koloda.cards import CardsShown, Suit
from koloda.errors import IllegalActionError
from koloda.game import Scope
from koloda.i18n import N_, Msg
from koloda.seeds import Seed
from koloda.thousand import deal as D
from koloda.thousand.actions import (
    ACE_MARRIAGE_VALUE,
    ACES,
    ALL_ACES,
    ALL_QUEENS,
    BID,
    BOMB,
    CARDS,
    DECK_POINTS,
    FACE_ACE,
    FACE_KING,
    FACE_QUEEN,
    GIVE,
    IDS_HIGH,
    IDS_LOW,
    MARRIAGE_VALUES,
    MARRY,
    NUM_ACTIONS,
    PASS,
    POINTS,
    STRENGTH,
    SUIT_IDS,
    ActionShown,
    action_bid,
    bid_action,
    marriages_held,
    mask_points,
)
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook

BIDDING, GIVING, CONTRACT, PLAYING, OVER = range(5)
PHASES: tuple[str, ...] = ("bidding", "giving", "contract", "playing", "over")


class ThousandRules:
    """The fields of a game of Thousand and its rules of play (see the module docstring)."""

    __slots__ = (
        "_actors",
        "_bid",
        "_book",
        "_deal0",
        "_deal_no",
        "_deal_start",
        "_dealer",
        "_declarer",
        "_first",
        "_gifts",
        "_hands",
        "_high_bid",
        "_history",
        "_leader",
        "_legal",
        "_marriages",
        "_must_beat",
        "_nxt",
        "_options",
        "_passed",
        "_phase",
        "_players",
        "_results",
        "_scope",
        "_seed",
        "_shuffle",
        "_taken",
        "_talon",
        "_to_move",
        "_top",
        "_trick",
        "_trump",
        "_winners",
        "_won",
    )

    _options: ThousandOptions
    _players: int
    _scope: Scope
    _seed: Seed | None  # None for an explicit first deal (its own "seed" shuffles the later deals)
    _deal0: dict[str, Any] | None  # the explicit first deal, parsed (koloda.thousand.deal.parse_deal)
    _book: ScoreBook
    _top: int  # the highest bid any hand could make: every point and marriage (rule G6)
    _must_beat: bool
    _history: list[int]  # every action of the game
    _actors: list[int]  # the seat of each action
    _results: list[tuple[DealInput, DealScore]]
    _shuffle: int  # shuffles so far (void deals included, rule G4)
    _deal_no: int  # deals finished
    _legal: list[int] | None
    _winners: list[int]  # the winner of each finished trick of this deal
    _dealer: int
    _nxt: tuple[int, ...]  # the next seat to act after each seat (rule G2)
    _first: int  # the first hand: the dealer's left, who bids first (rule G5)
    _hands: list[int]
    _talon: int
    _passed: int  # bitmask of the seats that passed (rule G5)
    _high_bid: int
    _declarer: int
    _bid: int  # the contract, once named (rule G8)
    _gifts: list[int]  # the card given to the first and the second opponent, -1 until given (rule G7)
    _trump: int  # -1: no trump yet (rule G9)
    _trick: list[int]
    _leader: int
    _taken: list[int]  # card points taken in tricks this deal
    _won: list[int]  # tricks won this deal
    _marriages: list[list[int]]  # values of the marriages each seat declared this deal
    _deal_start: int  # where this deal's actions begin in _history
    _phase: int
    _to_move: int | None

    # -- the deal (rules G2-G4) ----------------------------------------------------------------------------

    def _start_deal(self, dealer: int, cards: tuple[tuple[int, ...], int] | None) -> None:
        n = self._players
        while True:
            if cards is None:
                seed = self._seed
                if seed is None:  # an explicit first deal: the later deals come from the deal's own seed
                    assert self._deal0 is not None
                    seed = self._deal0["seed"]
                hands, talon = D.shuffle(seed=seed, number=self._shuffle, dealer=dealer, players=n)
            else:
                hands, talon = list(cards[0]), cards[1]
                cards = None
                if not (self._deal0 is not None and self._deal0.get("redeal")):
                    self._shuffle += 1
                    break  # rule G4: an explicit deal is played as given (unless it asks for the redeal)
            self._shuffle += 1
            if not D.is_void(self._options, hands, talon):  # rule G4
                break
        self._dealer = dealer
        self._nxt = D.NEXT[n, dealer]
        self._first = self._nxt[dealer]
        self._hands = hands
        self._talon = talon
        self._passed = 0
        self._high_bid = self._options.min_bid  # rule G5: the first hand's compulsory bid
        self._declarer = self._first
        self._bid = 0
        self._gifts = [-1, -1]
        self._trump = -1
        self._trick = []
        self._leader = -1
        self._taken = [0] * n
        self._won = [0] * n
        self._marriages = [[] for _ in range(n)]
        self._winners = []
        self._deal_start = len(self._history)
        self._phase = BIDDING
        self._to_move = self._nxt[self._first]
        self._legal = None

    # -- the protocol -------------------------------------------------------------------------------------

    def is_over(self) -> bool:
        return self._phase == OVER

    def returns(self) -> list[int]:
        """This deal's score changes (scope "deal") or the game's totals (scope "match")."""
        if self._scope == "match":
            return list(self._book.totals)
        if self._results:
            return list(self._results[-1][1].delta)
        return [0] * self._players

    def legal_actions(self) -> list[int]:
        """The legal action ids of the seat to act, ascending (empty when the game is over)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal.copy()

    def _compute_legal(self) -> list[int]:
        phase = self._phase
        if phase == PLAYING:
            return self._legal_play()
        if phase == BIDDING:
            seat = self._to_move
            assert seat is not None
            top = self._cap(self._hands[seat])
            step = self._options.bid_step
            return [PASS, *range(BID + (self._high_bid + step) // 5 - 1, BID + top // 5, step // 5)]
        if phase == GIVING:
            given = 2 if self._gifts[0] < 0 and self._gifts[1] < 0 else 1
            hand = self._hands[self._declarer]
            cards = IDS_LOW[hand & 4095] + IDS_HIGH[hand >> 12]
            if given == 2:
                return [GIVE + 2 * c + k for c in cards for k in (0, 1)]
            k = 0 if self._gifts[0] < 0 else 1
            return [GIVE + 2 * c + k for c in cards]
        if phase == CONTRACT:
            top = max(self._cap(self._hands[self._declarer]), self._high_bid)
            legal = list(range(bid_action(self._high_bid), BID + top // 5, self._options.bid_step // 5))
            if self._book.bomb_allowed(self._declarer):  # rule G8
                legal.append(BOMB)
            return legal
        return []

    def _cap(self, hand: int) -> int:
        """Rule G6: the highest bid this hand allows, a multiple of the bid step."""
        cap = self._options.bid_cap
        if cap == "none":
            top = self._top
        else:
            held = marriages_held(hand, self._options.ace_marriage)
            top = (self._top if held else DECK_POINTS) if cap == "marriage" else DECK_POINTS + held
        return top - top % self._options.bid_step

    def _legal_play(self) -> list[int]:
        seat = self._to_move
        assert seat is not None
        hand = self._hands[seat]
        trick = self._trick
        if not trick:  # rule G9: leading; any card, and a marriage may be declared
            legal = IDS_LOW[hand & 4095] + IDS_HIGH[hand >> 12]
            o = self._options
            if self._won[seat] or not o.marriage_needs_trick:
                pairs = hand & (hand >> 1) & ALL_QUEENS
                if pairs:
                    for s in range(4):
                        if pairs >> (s * 6 + FACE_QUEEN) & 1:
                            legal += (MARRY + 2 * s, MARRY + 2 * s + 1)
                            if not o.marriage_optional:  # rule G9: a held marriage must be declared
                                legal.remove(s * 6 + FACE_QUEEN)
                                legal.remove(s * 6 + FACE_KING)
                if o.ace_marriage and hand & ALL_ACES == ALL_ACES:  # rule G10
                    legal += (ACES, ACES + 1, ACES + 2, ACES + 3)
            return legal
        # rule G11: follow suit, else trump, else any card
        lead = trick[0] // 6
        same = hand >> (lead * 6) & 63
        if same:
            legal = SUIT_IDS[lead][same]  # shared: the cache is never changed in place
        else:
            trump = self._trump
            trumps = hand >> (trump * 6) & 63 if trump >= 0 else 0
            legal = SUIT_IDS[trump][trumps] if trumps else IDS_LOW[hand & 4095] + IDS_HIGH[hand >> 12]
        if self._must_beat:  # rule G12
            target = trick[0] if self._options.must_beat == "led" else self._winning(trick)
            beating = [c for c in legal if self._beats(c, target)]
            if beating:
                return beating
        return legal

    def _beats(self, card: int, target: int) -> bool:
        suit, other = card // 6, target // 6
        if suit == other:
            return STRENGTH[card] > STRENGTH[target]
        return suit == self._trump

    def _winning(self, trick: list[int]) -> int:
        """Rule G12: the card winning the trick so far."""
        best = trick[0]
        for card in trick[1:]:
            if self._beats(card, best):
                best = card
        return best

    def apply(self, action: int) -> None:
        """Play an action; an illegal one raises IllegalActionError saying why and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal or type(action) is not int:
            raise IllegalActionError(self._why(action))
        self._legal = None
        seat = self._to_move
        assert seat is not None
        self._history.append(action)
        self._actors.append(seat)
        phase = self._phase
        if phase == PLAYING:
            self._play(seat, action)
        elif phase == BIDDING:
            self._bidding(seat, action)
        elif phase == GIVING:
            self._give(action)
        else:
            self._contract(action)

    def _bidding(self, seat: int, action: int) -> None:
        """Rule G5: raise or pass; a pass is final; when two have passed the third is the declarer."""
        if action == PASS:
            self._passed |= 1 << seat
        else:
            self._high_bid = action_bid(action)
            self._declarer = seat
        if self._passed.bit_count() == 2:  # three seats bid, with 4 players too (the dealer sits out)
            self._take_talon()
            return
        nxt = self._nxt
        following = nxt[seat]
        while self._passed >> following & 1:
            following = nxt[following]
        self._to_move = following

    def _take_talon(self) -> None:
        """Rule G7: the talon is shown and taken by the declarer, who gives one card to each opponent."""
        decl = self._declarer
        self._hands[decl] |= self._talon
        self._phase = GIVING
        self._to_move = decl

    def _give(self, action: int) -> None:
        card, k = divmod(action - GIVE, 2)
        decl = self._declarer
        recipient = self._nxt[decl] if k == 0 else self._nxt[self._nxt[decl]]
        self._hands[decl] ^= 1 << card
        self._hands[recipient] |= 1 << card
        self._gifts[k] = card
        if self._gifts[1 - k] >= 0:
            self._phase = CONTRACT

    def _contract(self, action: int) -> None:
        """Rule G8: the declarer names his contract (the bid or more), or calls a bomb."""
        if action == BOMB:
            self._end_deal(bomb=True)
            return
        self._bid = action_bid(action)
        self._phase = PLAYING
        self._leader = self._declarer

    def _play(self, seat: int, action: int) -> None:
        if action < MARRY:
            card = action
        elif action < ACES:  # rule G9: the marriage's suit is trump from this trick on
            suit, k = divmod(action - MARRY, 2)
            card = suit * 6 + FACE_QUEEN + k
            self._trump = suit
            self._marriages[seat].append(MARRIAGE_VALUES[suit])
        else:  # rule G10: the ace marriage scores and leaves the trump as it was
            card = (action - ACES) * 6 + FACE_ACE
            self._marriages[seat].append(ACE_MARRIAGE_VALUE)
        self._hands[seat] ^= 1 << card
        trick = self._trick
        trick.append(card)
        if len(trick) < 3:
            self._to_move = self._nxt[seat]
            return
        # rule G11: the highest trump wins, else the highest card of the suit led
        best = self._winning(trick)
        winner = self._leader
        for card in trick:
            if card == best:
                break
            winner = self._nxt[winner]
        self._taken[winner] += POINTS[trick[0]] + POINTS[trick[1]] + POINTS[trick[2]]
        self._won[winner] += 1
        self._winners.append(winner)
        trick.clear()
        self._leader = winner
        if self._hands[winner]:
            self._to_move = winner
        else:
            self._end_deal(bomb=False)

    def _end_deal(self, bomb: bool) -> None:
        """Rule G14: the deal's result goes to the score book; then the next deal or the end."""
        n = self._players
        sitting = self._dealer if n == 4 else None
        points = list(self._taken)
        if sitting is not None:
            points[sitting] = self._sitting_points()
        deal = DealInput(
            declarer=self._declarer,
            bid=self._high_bid if bomb else self._bid,
            bomb=bomb,
            points=() if bomb else tuple(points),
            marriages=() if bomb else tuple(tuple(m) for m in self._marriages),
            sitting=sitting,
        )
        score = self._book.apply(deal)
        self._results.append((deal, score))
        self._deal_no += 1
        limit = self._options.max_deals  # G16: a game that would not end is ended by the deal limit
        if self._scope == "deal" or self._book.is_over or (limit is not None and self._deal_no >= limit):
            self._phase = OVER
            self._to_move = None
        else:
            self._start_deal((self._dealer + 1) % n, None)

    def _sitting_points(self) -> int:
        """Rule G2: what the sitting-out dealer scores from the talon."""
        rule = self._options.sitting_scores
        talon = self._talon
        if rule == "talon":
            return mask_points(talon)
        if rule == "aces_marriage":
            return 50 * (talon & ALL_ACES).bit_count() + marriages_held(talon, False)
        return 0

    # -- errors ----------------------------------------------------------------------------------------------

    def _why(self, action: object) -> Msg:
        """The reason an action is refused (the slow path only)."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return Msg("thousand.notation.bad_id", action=repr(action), last=NUM_ACTIONS - 1)
        shown = ActionShown(action)  # the player's notation: no Latin card codes in Russian
        return Msg("thousand.refused", action=shown, id=action, reason=self._why_id(action))

    def _why_id(self, action: int) -> Msg:
        if self._phase == OVER:
            return Msg("thousand.why.over")
        to_move = self._to_move
        assert to_move is not None
        phase = self._phase
        fits = (
            action == PASS or BID <= action < GIVE,
            GIVE <= action < BOMB,
            BID <= action < GIVE or action == BOMB,
            action < PASS,
        )[phase]
        if not fits:
            return Msg("thousand.why.phase", seat=to_move, wanted=Msg(_WANTED[phase]), phase=PHASES[phase])
        hand = self._hands[to_move]
        step = self._options.bid_step
        if phase == GIVING:
            card, k = divmod(action - GIVE, 2)
            if not hand >> card & 1:
                return Msg("thousand.why.gift_not_held", card=CardsShown((CARDS[card],)))
            return Msg("thousand.why.gift_given", opponent=k + 1)
        if action == BOMB:
            return Msg("thousand.why.no_bomb", seat=to_move)
        if phase in (BIDDING, CONTRACT):
            bid = action_bid(action)
            low = self._high_bid + step if phase == BIDDING else self._high_bid
            if bid < low:
                return Msg("thousand.why.bid_low", low=low)
            if bid % step:
                return Msg("thousand.why.bid_step", step=step)
            return Msg("thousand.why.bid_cap", cap=self._cap(hand))
        return self._why_play(action, to_move, hand)

    def _why_play(self, action: int, seat: int, hand: int) -> Msg:
        if action < MARRY:
            card = action
        elif action < ACES:
            card = (action - MARRY) // 2 * 6 + FACE_QUEEN + (action - MARRY) % 2
        else:
            card = (action - ACES) * 6 + FACE_ACE
        if not hand >> card & 1:
            return Msg("thousand.why.not_held", seat=seat, card=CardsShown((CARDS[card],)))
        trick = self._trick
        if action >= MARRY:
            if trick:
                return Msg("thousand.why.marriage_lead")
            if action >= ACES:
                if not self._options.ace_marriage:
                    return Msg("thousand.why.ace_marriage_off")
                if hand & ALL_ACES != ALL_ACES:
                    return Msg("thousand.why.ace_marriage_aces")
            elif not hand >> (card // 6 * 6 + FACE_QUEEN) & 1 or not hand >> (card // 6 * 6 + FACE_KING) & 1:
                return Msg("thousand.why.marriage_pair", seat=seat)
            return Msg("thousand.why.marriage_trick")
        if not trick:
            return Msg("thousand.why.marriage_held")
        lead = trick[0] // 6
        if hand >> (lead * 6) & 63:
            if card // 6 != lead:
                return Msg("thousand.why.follow", seat=seat, suit=Suit(lead).symbol)
        elif self._trump >= 0 and hand >> (self._trump * 6) & 63 and card // 6 != self._trump:
            return Msg("thousand.why.trump", seat=seat, suit=Suit(lead).symbol)
        return Msg("thousand.why.beat", seat=seat)


#: What each phase wants of the seat to move, for the refusal of an action of another phase.
_WANTED = (
    N_("thousand.wanted.bid"),
    N_("thousand.wanted.gift"),
    N_("thousand.wanted.contract"),
    N_("thousand.wanted.card"),
)

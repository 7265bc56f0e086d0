"""Thousand (Тысяча), the game: deal, bidding, talon, marriages and tricks (docs/rules/thousand.md, Part II).

The engine follows the protocol of ``docs/api.md``. Actions are ints in one fixed space
(:data:`NUM_ACTIONS` ids, the table in the rules document, rule G13); the text notation parses back:

>>> state = from_deal({"dealer": 0, "hands": ["AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC",
...     "QC 10C JC 9C AD KD QD"], "talon": "10D JD 9D"})
>>> state.current_player, state.action_text(state.legal_actions()[0])
(2, 'pass')
>>> state.apply(state.parse_action("пас")); state.apply(state.parse_action("pass"))
>>> state.declarer, observe(state, 2).talon
(1, (Card.parse('9D'), Card.parse('10D'), Card.parse('JD')))

Cards are the ids 0-23 of :data:`koloda.cards.DECK_24` (``suit * 6 + rank - 9``), hands are bitmasks,
and every table the hot path needs is computed once at import: random play runs at tens of thousands of
actions a second (docs/performance.md). Everything only a view needs (the bidding, the tricks, the
marriages) is rebuilt from the action history when :func:`observe` asks for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Self

from koloda.cards import DECK_24, Card, Rank, Suit, parse_cards
from koloda.errors import IllegalActionError, KolodaError, NotationError, RecordError
from koloda.game import GameRecord, Scope, replay_actions
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook

# --- cards (rule G1) ---------------------------------------------------------------------------------------

CARDS: tuple[Card, ...] = DECK_24  # card id = suit * 6 + (rank - 9): 9, 10, J, Q, K, A in each suit
CARD_IDS: dict[Card, int] = {card: i for i, card in enumerate(CARDS)}
_FACE_POINTS = (0, 10, 2, 3, 4, 11)  # rule G1: 9, 10, J, Q, K, A
_FACE_STRENGTH = (0, 4, 1, 2, 3, 5)  # rule G1: A > 10 > K > Q > J > 9
POINTS: tuple[int, ...] = _FACE_POINTS * 4
STRENGTH: tuple[int, ...] = _FACE_STRENGTH * 4
_NINE, _QUEEN, _KING, _ACE = 0, 3, 4, 5
MARRIAGE_VALUES: tuple[int, ...] = (40, 60, 80, 100)  # rule G9: ♠ 40, ♣ 60, ♦ 80, ♥ 100
ACE_MARRIAGE_VALUE = 200  # rule G10
DECK_POINTS = 120
_QUEENS = sum(1 << (s * 6 + _QUEEN) for s in range(4))
_ACES = sum(1 << (s * 6 + _ACE) for s in range(4))
_NINES = sum(1 << (s * 6 + _NINE) for s in range(4))

# --- the action space (rule G13) ---------------------------------------------------------------------------

PLAY = 0  # 0-23: play card id
MARRY = 24  # 24-31: lead the queen (even) or the king (odd) of suit (id - 24) // 2, declaring the marriage
ACES = 32  # 32-35: lead the ace of suit id - 32, declaring the ace marriage
PASS = 36
BID = 37  # 37-156: bid (or, after the talon, the contract) 5 * (id - 36): 5 ... 600
MAX_BID = 600
GIVE = 157  # 157-204: give card (id - 157) // 2 to the first (even) or second (odd) opponent
BOMB = 205
NUM_ACTIONS = 206

BIDDING, GIVING, CONTRACT, PLAYING, OVER = range(5)
PHASES: tuple[str, ...] = ("bidding", "giving", "contract", "playing", "over")


def bid_action(bid: int) -> int:
    """The action id of a bid (or contract) of ``bid`` points.

    >>> bid_action(100), bid_action(600)
    (56, 156)
    """
    if not (0 < bid <= MAX_BID and bid % 5 == 0):
        raise NotationError(f"bad bid {bid!r}: bids are multiples of 5 from 5 to {MAX_BID}")
    return BID + bid // 5 - 1


def action_bid(action: int) -> int:
    """The points of a bid action id."""
    return (action - BID + 1) * 5


def _card_text(card: int) -> str:
    return str(CARDS[card])


def _make_texts() -> tuple[str, ...]:
    texts = [_card_text(c) for c in range(24)]
    texts += [_card_text(s * 6 + _QUEEN + k) + "+" for s in range(4) for k in range(2)]
    texts += [_card_text(s * 6 + _ACE) + "+" for s in range(4)]
    texts.append("pass")
    texts += [str(action_bid(a)) for a in range(BID, GIVE)]
    texts += [f"{_card_text(c)}>{k + 1}" for c in range(24) for k in range(2)]
    texts.append("bomb")
    return tuple(texts)


ACTION_TEXTS: tuple[str, ...] = _make_texts()
_WORDS = {"pass": PASS, "пас": PASS, "bomb": BOMB, "бомба": BOMB}


def action_text(action: int) -> str:
    """The canonical text of an action id (the same in every position).

    >>> action_text(0), action_text(31), action_text(PASS), action_text(bid_action(120)), action_text(BOMB)
    ('9S', 'KH+', 'pass', '120', 'bomb')
    """
    if type(action) is not int or not 0 <= action < NUM_ACTIONS:
        raise NotationError(f"bad action {action!r}: Thousand actions are ids 0-{NUM_ACTIONS - 1}")
    return ACTION_TEXTS[action]


def parse_action(text: str) -> int:
    """Text to an action id: ``QH`` play, ``KH+`` marriage, ``AS+`` ace marriage, ``pass``/``пас``,
    ``120`` bid or contract, ``9S>1`` give 9♠ to the first opponent, ``bomb``/``бомба``; cards in any
    notation of :mod:`koloda.cards` (``Д♥+``, ``9П>2``).

    >>> [parse_action(t) for t in ("9S", "KH+", "Д♥+", "пас", "120", "9П>2", "бомба")]
    [0, 31, 30, 36, 60, 158, 205]
    """
    token = text.strip()
    word = _WORDS.get(token.lower())
    if word is not None:
        return word
    try:
        if token.isdigit():
            return bid_action(int(token))
        if ">" in token:
            card_part, _, who = token.partition(">")
            if who.strip() not in ("1", "2"):
                raise NotationError(f"the recipient must be 1 or 2 (first or second opponent), not {who!r}")
            return GIVE + 2 * _parse_card(card_part) + int(who) - 1
        if token.endswith("+"):
            card = _parse_card(token[:-1])
            face = card % 6
            if face == _ACE:
                return ACES + card // 6
            if face in (_QUEEN, _KING):
                return MARRY + 2 * (card // 6) + face - _QUEEN
            raise NotationError("only a king or a queen (marriage) or an ace (ace marriage) is declared")
        return _parse_card(token)
    except NotationError as exc:
        raise NotationError(
            f"bad action {text!r}: {exc}; expected a card (QH), a marriage (KH+), pass, a bid (120),"
            " a gift (9S>1) or bomb"
        ) from None


def _parse_card(text: str) -> int:
    card = Card.parse(text)
    if card.rank < Rank.NINE:
        raise NotationError(f"{text.strip()!r} is not in Thousand's 24-card deck (9 to ace)")
    return CARD_IDS[card]


# --- precomputed tables for the hot path -------------------------------------------------------------------


def _ids(mask: int, offset: int) -> list[int]:
    return [offset + i for i in range(12) if mask >> i & 1]


_LOW: tuple[list[int], ...] = tuple(_ids(m, 0) for m in range(4096))  # cards 0-11 (♠ ♣)
_HIGH: tuple[list[int], ...] = tuple(_ids(m, 12) for m in range(4096))  # cards 12-23 (♦ ♥)
_SUIT_CARDS: tuple[tuple[list[int], ...], ...] = tuple(
    tuple([s * 6 + i for i in range(6) if m >> i & 1] for m in range(64)) for s in range(4)
)
_MASK_POINTS: tuple[int, ...] = tuple(sum(POINTS[i] for i in range(12) if m >> i & 1) for m in range(4096))


def _next_seats(players: int, dealer: int) -> tuple[int, ...]:
    """For each seat the next one to act clockwise; with 4 players the dealer sits out (rule G2)."""
    order = [s for s in range(players) if players == 3 or s != dealer]
    nxt = [0] * players
    for i, seat in enumerate(order):
        nxt[seat] = order[(i + 1) % len(order)]
    if players == 4:
        nxt[dealer] = (dealer + 1) % 4  # the first hand, so that nxt[dealer] works in either case
    return tuple(nxt)


_NEXT: dict[tuple[int, int], tuple[int, ...]] = {(n, d): _next_seats(n, d) for n in (3, 4) for d in range(n)}


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask of card ids, in id order."""
    return tuple(CARDS[c] for c in _LOW[mask & 4095] + _HIGH[mask >> 12])


def mask_points(mask: int) -> int:
    """Card points of a bitmask of card ids."""
    return _MASK_POINTS[mask & 4095] + _MASK_POINTS[mask >> 12]


def _marriages_held(hand: int, aces: bool) -> int:
    """Total value of the marriages (and, if on, the ace marriage) in a hand: the bid cap's measure."""
    pairs = hand & (hand >> 1) & _QUEENS
    value = sum(MARRIAGE_VALUES[s] for s in range(4) if pairs >> (s * 6 + _QUEEN) & 1)
    if aces and hand & _ACES == _ACES:
        value += ACE_MARRIAGE_VALUE
    return value


# --- the state ---------------------------------------------------------------------------------------------


class ThousandState:
    """A game of Thousand in progress: one deal (``scope="deal"``) or a whole game to 1000."""

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
        "options",
    )

    options: ThousandOptions

    def __init__(
        self,
        options: ThousandOptions,
        players: int,
        scope: Scope,
        seed: int | None,
        deal: dict[str, Any] | None,
    ) -> None:
        if players not in (3, 4):
            raise KolodaError(
                f"Thousand is played by 3 players, or 4 with the dealer sitting out; not {players}"
            )
        if scope not in ("deal", "match"):
            raise KolodaError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        self.options = options
        self._players = players
        self._scope: Scope = scope
        self._seed = seed
        self._deal0 = deal
        self._book = ScoreBook(options, players)
        self._top = DECK_POINTS + sum(MARRIAGE_VALUES) + (ACE_MARRIAGE_VALUE if options.ace_marriage else 0)
        self._must_beat = options.must_beat != "no"
        self._history: list[int] = []
        self._actors: list[int] = []
        self._results: list[tuple[DealInput, DealScore]] = []
        self._shuffle = 0
        self._deal_no = 0
        self._legal: list[int] | None = None
        self._winners: list[int] = []
        if deal is None:
            self._start_deal(0, None)
        else:
            self._start_deal(deal["dealer"], (tuple(deal["hands"]), deal["talon"]))

    # -- the deal (rules G2-G4) ----------------------------------------------------------------------------

    def _start_deal(self, dealer: int, cards: tuple[tuple[int, ...], int] | None) -> None:
        n = self._players
        while True:
            if cards is None:
                hands, talon = self._shuffled(dealer)
            else:
                hands, talon = list(cards[0]), cards[1]
                cards = None
            self._shuffle += 1
            if not self._redeal(hands, talon):  # rule G4
                break
        self._dealer = dealer
        self._nxt = _NEXT[n, dealer]
        self._first = self._nxt[dealer]
        self._hands = hands
        self._talon = talon
        self._passed = 0
        self._high_bid = self.options.min_bid  # rule G5: the first hand's compulsory bid
        self._declarer = self._first
        self._bid = 0
        self._gifts = [-1, -1]
        self._trump = -1
        self._trick: list[int] = []
        self._leader = -1
        self._taken = [0] * n
        self._won = [0] * n
        self._marriages: list[list[int]] = [[] for _ in range(n)]
        self._winners = []
        self._deal_start = len(self._history)
        self._phase = BIDDING
        self._to_move: int | None = self._nxt[self._first]
        self._legal = None

    def _shuffled(self, dealer: int) -> tuple[list[int], int]:
        seed = self._seed
        if seed is None:  # an explicit first deal: the later deals come from the deal's own seed
            assert self._deal0 is not None
            seed = self._deal0["seed"]
        deck = list(range(24))
        # rule G3: one shuffle per deal, numbered, from the recorded seed: a record replays every deal
        random.Random(seed * 1_000_003 + self._shuffle).shuffle(deck)
        n = self._players
        hands = [0] * n
        seat = dealer
        for start in (0, 7, 14):
            seat = _NEXT[n, dealer][seat]
            mask = 0
            for c in deck[start : start + 7]:
                mask |= 1 << c
            hands[seat] = mask
        return hands, (1 << deck[21]) | (1 << deck[22]) | (1 << deck[23])

    def _redeal(self, hands: list[int], talon: int) -> bool:
        """Rule G4: whether this deal is void and dealt again."""
        o = self.options
        for hand in hands:
            if not hand:
                continue  # the sitting dealer's empty hand
            if o.redeal_four_nines and hand & _NINES == _NINES:
                return True
            if mask_points(hand) < o.redeal_hand_under:
                return True
        if mask_points(talon) < o.redeal_talon_under:
            return True
        return o.redeal_talon_two_nines and (talon & _NINES).bit_count() >= 2

    # -- the protocol ----------------------------------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``None`` when the game is over."""
        return self._to_move

    @property
    def players(self) -> int:
        return self._players

    @property
    def scope(self) -> Scope:
        return self._scope

    @property
    def phase(self) -> str:
        """``bidding``, ``giving``, ``contract``, ``playing`` or ``over``."""
        return PHASES[self._phase]

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def declarer(self) -> int | None:
        """The winner of the bidding, once the bidding is over."""
        return None if self._phase == BIDDING else self._declarer

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else Suit(self._trump)

    @property
    def book(self) -> ScoreBook:
        """The score book of the game (a copy: the state's own book changes only by playing)."""
        return self._book.copy()

    @property
    def results(self) -> tuple[tuple[DealInput, DealScore], ...]:
        """Every finished deal: what was handed to the score book and what it scored."""
        return tuple(self._results)

    @property
    def history(self) -> tuple[int, ...]:
        return tuple(self._history)

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds (full information: bots and interfaces use :func:`observe`)."""
        return mask_cards(self._hands[seat])

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
            step = self.options.bid_step
            return [PASS, *range(BID + (self._high_bid + step) // 5 - 1, BID + top // 5, step // 5)]
        if phase == GIVING:
            given = 2 if self._gifts[0] < 0 and self._gifts[1] < 0 else 1
            hand = self._hands[self._declarer]
            cards = _LOW[hand & 4095] + _HIGH[hand >> 12]
            if given == 2:
                return [GIVE + 2 * c + k for c in cards for k in (0, 1)]
            k = 0 if self._gifts[0] < 0 else 1
            return [GIVE + 2 * c + k for c in cards]
        if phase == CONTRACT:
            top = max(self._cap(self._hands[self._declarer]), self._high_bid)
            legal = list(range(bid_action(self._high_bid), BID + top // 5, self.options.bid_step // 5))
            if self._book.bomb_allowed(self._declarer):  # rule G8
                legal.append(BOMB)
            return legal
        return []

    def _cap(self, hand: int) -> int:
        """Rule G6: the highest bid this hand allows, a multiple of the bid step."""
        cap = self.options.bid_cap
        if cap == "none":
            top = self._top
        else:
            held = _marriages_held(hand, self.options.ace_marriage)
            top = (self._top if held else DECK_POINTS) if cap == "marriage" else DECK_POINTS + held
        return top - top % self.options.bid_step

    def _legal_play(self) -> list[int]:
        seat = self._to_move
        assert seat is not None
        hand = self._hands[seat]
        trick = self._trick
        if not trick:  # rule G9: leading; any card, and a marriage may be declared
            legal = _LOW[hand & 4095] + _HIGH[hand >> 12]
            o = self.options
            if self._won[seat] or not o.marriage_needs_trick:
                pairs = hand & (hand >> 1) & _QUEENS
                if pairs:
                    for s in range(4):
                        if pairs >> (s * 6 + _QUEEN) & 1:
                            legal += (MARRY + 2 * s, MARRY + 2 * s + 1)
                            if not o.marriage_optional:  # rule G9: a held marriage must be declared
                                legal.remove(s * 6 + _QUEEN)
                                legal.remove(s * 6 + _KING)
                if o.ace_marriage and hand & _ACES == _ACES:  # rule G10
                    legal += (ACES, ACES + 1, ACES + 2, ACES + 3)
            return legal
        # rule G11: follow suit, else trump, else any card
        lead = trick[0] // 6
        same = hand >> (lead * 6) & 63
        if same:
            legal = _SUIT_CARDS[lead][same]  # shared: the cache is never changed in place
        else:
            trump = self._trump
            trumps = hand >> (trump * 6) & 63 if trump >= 0 else 0
            legal = _SUIT_CARDS[trump][trumps] if trumps else _LOW[hand & 4095] + _HIGH[hand >> 12]
        if self._must_beat:  # rule G12
            target = trick[0] if self.options.must_beat == "led" else self._winning(trick)
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

    def apply(self, action: int, seat: int | None = None) -> None:
        """Play an action (of ``seat``, when given, checked to be the seat to act).

        An illegal action raises IllegalActionError saying why and changes nothing."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal or type(action) is not int or (seat is not None and seat != self._to_move):
            raise IllegalActionError(self._why(action, seat))
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
            card = suit * 6 + _QUEEN + k
            self._trump = suit
            self._marriages[seat].append(MARRIAGE_VALUES[suit])
        else:  # rule G10: the ace marriage scores and leaves the trump as it was
            card = (action - ACES) * 6 + _ACE
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
        if self._scope == "deal" or self._book.is_over:
            self._phase = OVER
            self._to_move = None
        else:
            self._start_deal((self._dealer + 1) % n, None)

    def _sitting_points(self) -> int:
        """Rule G2: what the sitting-out dealer scores from the talon."""
        rule = self.options.sitting_scores
        talon = self._talon
        if rule == "talon":
            return mask_points(talon)
        if rule == "aces_marriage":
            return 50 * (talon & _ACES).bit_count() + _marriages_held(talon, False)
        return 0

    # -- errors ----------------------------------------------------------------------------------------------

    def _why(self, action: object, seat: int | None = None) -> str:
        """The reason an action is refused (the slow path only)."""
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            return f"bad action {action!r}: Thousand actions are ids 0-{NUM_ACTIONS - 1}"
        text = f"{ACTION_TEXTS[action]!r} (action {action})"
        if self._phase == OVER:
            return f"{text} is refused: the game is over"
        to_move = self._to_move
        assert to_move is not None
        if seat is not None and seat != to_move:
            return f"{text} is refused: it is seat {to_move}'s turn, not seat {seat}'s"
        phase = self._phase
        fits = (
            action == PASS or BID <= action < GIVE,
            GIVE <= action < BOMB,
            BID <= action < GIVE or action == BOMB,
            action < PASS,
        )[phase]
        if not fits:
            wanted = ("a bid or a pass", "a card to give", "a contract or a bomb", "a card to play")[phase]
            return f"{text} is refused: seat {to_move} must now make {wanted} ({PHASES[phase]})"
        hand = self._hands[to_move]
        step = self.options.bid_step
        if phase == GIVING:
            card, k = divmod(action - GIVE, 2)
            if not hand >> card & 1:
                return f"{text} is refused: the declarer does not hold {_card_text(card)}"
            return f"{text} is refused: opponent {k + 1} already has his card (rule G7)"
        if action == BOMB:
            return f"{text} is refused: seat {to_move} has no bomb left in this game (rule G8)"
        if phase in (BIDDING, CONTRACT):
            bid = action_bid(action)
            low = self._high_bid + step if phase == BIDDING else self._high_bid
            if bid < low:
                return f"{text} is refused: the bid must be at least {low} (rule G5)"
            if bid % step:
                return f"{text} is refused: bids go in steps of {step} (rule G5)"
            cap = self._cap(hand)
            return f"{text} is refused: this hand may bid at most {cap} (rule G6, option bid_cap)"
        return self._why_play(text, action, to_move, hand)

    def _why_play(self, text: str, action: int, seat: int, hand: int) -> str:
        if action < MARRY:
            card = action
        elif action < ACES:
            card = (action - MARRY) // 2 * 6 + _QUEEN + (action - MARRY) % 2
        else:
            card = (action - ACES) * 6 + _ACE
        if not hand >> card & 1:
            return f"{text} is refused: seat {seat} does not hold {_card_text(card)}"
        trick = self._trick
        if action >= MARRY:
            if trick:
                return f"{text} is refused: a marriage is declared only when leading (rule G9)"
            if action >= ACES:
                if not self.options.ace_marriage:
                    return f"{text} is refused: the ace marriage is off (option ace_marriage)"
                if hand & _ACES != _ACES:
                    return f"{text} is refused: the ace marriage needs all four aces in hand (rule G10)"
            elif not hand >> (card // 6 * 6 + _QUEEN) & 1 or not hand >> (card // 6 * 6 + _KING) & 1:
                return f"{text} is refused: seat {seat} does not hold both the king and the queen (rule G9)"
            return f"{text} is refused: a marriage needs a trick taken first (rule G9, marriage_needs_trick)"
        if not trick:
            return f"{text} is refused: a held marriage must be declared (rule G9, marriage_optional=false)"
        lead = trick[0] // 6
        if hand >> (lead * 6) & 63:
            if card // 6 != lead:
                return f"{text} is refused: seat {seat} must follow suit {Suit(lead).symbol} (rule G11)"
        elif self._trump >= 0 and hand >> (self._trump * 6) & 63 and card // 6 != self._trump:
            return f"{text} is refused: seat {seat} has no {Suit(lead).symbol} and must trump (rule G11)"
        return f"{text} is refused: seat {seat} must beat the trick when he can (rule G12, must_beat)"

    # -- notation, copies, records ---------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        """The canonical text of an action (see :func:`action_text`)."""
        return action_text(action)

    def parse_action(self, text: str) -> int:
        """Text to an action id (see :func:`parse_action`)."""
        return parse_action(text)

    def copy(self) -> Self:
        """An independent copy (the score book included)."""
        new = object.__new__(type(self))
        for name in ThousandState.__slots__:
            setattr(new, name, getattr(self, name))
        new._history = self._history.copy()
        new._actors = self._actors.copy()
        new._results = self._results.copy()
        new._winners = self._winners.copy()
        new._hands = self._hands.copy()
        new._gifts = self._gifts.copy()
        new._trick = self._trick.copy()
        new._taken = self._taken.copy()
        new._won = self._won.copy()
        new._marriages = [m.copy() for m in self._marriages]
        new._book = self._book.copy()
        new._legal = None
        return new

    def _key(self) -> tuple[Any, ...]:
        return tuple(
            getattr(self, name) for name in ThousandState.__slots__ if name not in ("_legal", "_book")
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThousandState):
            return NotImplemented
        return self._key() == other._key() and self._book.totals == other._book.totals

    __hash__ = None  # type: ignore[assignment]  # mutable

    def record(self, meta: dict[str, Any] | None = None) -> GameRecord:
        """The :class:`GameRecord` of everything played so far; :func:`replay` rebuilds this state."""
        defaults = ThousandOptions().to_dict()
        options = {k: v for k, v in self.options.to_dict().items() if defaults[k] != v}
        return GameRecord(
            game="thousand",
            players=self._players,
            options=options,
            actions=tuple(ACTION_TEXTS[a] for a in self._history),
            seed=self._seed,
            deal=None if self._deal0 is None else deal_to_json(self._deal0),
            scope=self._scope,
            meta=meta or {},
        )

    def __repr__(self) -> str:
        return (
            f"<ThousandState deal {self._deal_no + 1} {PHASES[self._phase]} to_move={self._to_move}"
            f" totals={list(self._book.totals)}>"
        )


# --- construction ------------------------------------------------------------------------------------------


def new_game(
    options: ThousandOptions | None = None, *, players: int = 3, seed: int, scope: Scope = "match"
) -> ThousandState:
    """A new game; every deal is shuffled from ``seed`` (rule G3). Seat 0 deals first."""
    if type(seed) is not int or seed < 0:
        raise KolodaError(f"the seed must be a non-negative integer, not {seed!r}")
    return ThousandState(options or ThousandOptions(), players, scope, seed, None)


def from_deal(
    deal: dict[str, Any], options: ThousandOptions | None = None, *, scope: Scope = "deal"
) -> ThousandState:
    """A game from an explicit first deal: ``{"dealer": 0, "hands": ["AH KH ...", ...], "talon": "..."}``.

    One hand per seat (7 cards; with 4 players the dealer's hand is empty) and a talon of 3, the 24 cards
    once each. An optional ``"seed"`` shuffles the later deals (scope "match") and any redeal (rule G4).
    """
    options = options or ThousandOptions()
    return ThousandState(options, _deal_players(deal), scope, None, parse_deal(deal))


def _deal_players(deal: Any) -> int:
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise RecordError("a deal must be a JSON object with 'dealer', 'hands' (a list) and 'talon'")
    return len(deal["hands"])


def parse_deal(deal: Any) -> dict[str, Any]:
    """Validate an explicit deal; return it with hands and talon as bitmasks."""
    players = _deal_players(deal)
    unknown = sorted(set(deal) - {"dealer", "hands", "talon", "seed"})
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r} in the deal; known keys: dealer, hands, talon, seed")
    if players not in (3, 4):
        raise RecordError(f"a deal needs 3 or 4 hands, not {players}")
    dealer = deal.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordError(f"the deal's 'dealer' must be a seat from 0 to {players - 1}, not {dealer!r}")
    seed = deal.get("seed", 0)
    if type(seed) is not int or seed < 0:
        raise RecordError(f"the deal's 'seed' must be a non-negative integer, not {seed!r}")
    seen: dict[int, str] = {}
    masks = []
    for where, text in [
        *((f"hand {i}", h) for i, h in enumerate(deal["hands"])),
        ("talon", deal.get("talon")),
    ]:
        if not isinstance(text, str):
            raise RecordError(f"the deal's {where} must be a string of cards, not {text!r}")
        mask = 0
        for card in parse_cards(text):
            if card.rank < Rank.NINE:
                raise RecordError(f"{card} in the deal's {where} is not in the 24-card deck (9 to ace)")
            c = CARD_IDS[card]
            if c in seen:
                raise RecordError(f"{card} is dealt twice: in the {seen[c]} and the {where}")
            seen[c] = where
            mask |= 1 << c
        masks.append(mask)
    for i, mask in enumerate(masks[:-1]):
        want = 0 if players == 4 and i == dealer else 7
        if mask.bit_count() != want:
            raise RecordError(f"hand {i} of the deal has {mask.bit_count()} cards, not {want}")
    if masks[-1].bit_count() != 3:
        raise RecordError(f"the deal's talon has {masks[-1].bit_count()} cards, not 3")
    return {"dealer": dealer, "hands": masks[:-1], "talon": masks[-1], "seed": seed}


def deal_to_json(deal: dict[str, Any]) -> dict[str, Any]:
    """The JSON layout of a parsed deal (cards in canonical notation)."""
    return {
        "dealer": deal["dealer"],
        "hands": [" ".join(map(str, mask_cards(m))) for m in deal["hands"]],
        "talon": " ".join(map(str, mask_cards(deal["talon"]))),
        "seed": deal["seed"],
    }


def replay(record: GameRecord) -> ThousandState:
    """Rebuild the state of a record; RecordError names the first action that does not replay."""
    if record.game != "thousand":
        raise RecordError(f"this is a record of {record.game!r}, not of 'thousand'")
    try:
        options = ThousandOptions.from_mapping(record.options)
    except KolodaError as exc:
        raise RecordError(f"bad options in the record: {exc}") from None
    if record.deal is not None:
        state = from_deal(record.deal, options, scope=record.scope)
        if state.players != record.players:
            raise RecordError(
                f"the record says {record.players} players but its deal has {state.players} hands"
            )
    else:
        assert record.seed is not None
        try:
            state = new_game(options, players=record.players, seed=record.seed, scope=record.scope)
        except KolodaError as exc:
            raise RecordError(str(exc)) from None
    replay_actions(state, record.actions)
    return state


# --- what a seat may see (rule G15) ------------------------------------------------------------------------


@dataclass(frozen=True)
class Trick:
    """A trick: who led, the cards in playing order with their seats, and (when complete) the winner."""

    leader: int
    cards: tuple[tuple[int, Card], ...]
    winner: int | None = None


@dataclass(frozen=True)
class Marriage:
    """A declared marriage: the seat, the suit (``None`` for the ace marriage) and its value."""

    seat: int
    suit: Suit | None
    value: int


@dataclass(frozen=True)
class ThousandView:
    """Everything one seat may see of a game, and nothing else (rule G15)."""

    seat: int
    players: int
    dealer: int
    deal_number: int
    phase: str
    current_player: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    bids: tuple[tuple[int, str], ...]  # (seat, "100" or "pass") in order, the compulsory bid first
    high_bid: int
    declarer: int | None
    talon: tuple[Card, ...] | None  # None while hidden
    gifts: tuple[tuple[int, Card], ...]  # (recipient, card): the declarer sees both, an opponent his own
    contract: int | None  # the declarer's contract once named (rule G8)
    bomb: bool  # the declarer called a bomb (rule G8)
    trump: Suit | None
    marriages: tuple[Marriage, ...]
    trick: Trick | None  # the trick being played
    tricks: tuple[Trick, ...]  # finished tricks: all, or only the last one (option show_past_tricks)
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    target: int  # the score that wins (S8): public, like every option
    legal_actions: tuple[int, ...]  # the seat's own legal actions (empty when it is not his turn)


def observe(state: ThousandState, seat: int) -> ThousandView:
    """What ``seat`` may see: its own hand, the public bidding and play, the talon once shown (rule G7),
    and of the gifts only those it gave or received."""
    s = state
    n = s._players
    if type(seat) is not int or not 0 <= seat < n:
        raise KolodaError(f"bad seat {seat!r}: seats are 0-{n - 1}")
    bids: list[tuple[int, str]] = [(s._first, str(s.options.min_bid))]  # rule G5: the compulsory bid
    gifts: list[tuple[int, Card]] = []
    tricks: list[Trick] = []
    marriages: list[Marriage] = []
    current: list[tuple[int, Card]] = []
    leader = -1
    given = 0
    contract: int | None = None
    bomb = False
    decl = s._declarer
    for action, actor in zip(s._history[s._deal_start :], s._actors[s._deal_start :], strict=True):
        if action == PASS or (BID <= action < GIVE and given < 2):
            bids.append((actor, ACTION_TEXTS[action]))
        elif BID <= action < GIVE:
            contract = action_bid(action)
        elif action == BOMB:
            bomb = True
        elif action >= GIVE:
            given += 1
            card, k = divmod(action - GIVE, 2)
            recipient = s._nxt[decl] if k == 0 else s._nxt[s._nxt[decl]]
            if seat in (decl, recipient):  # rule G7: a gift is seen by its giver and its receiver only
                gifts.append((recipient, CARDS[card]))
        else:
            if action < MARRY:
                card = action
            elif action < ACES:
                suit, k = divmod(action - MARRY, 2)
                card = suit * 6 + _QUEEN + k
                marriages.append(Marriage(actor, Suit(suit), MARRIAGE_VALUES[suit]))
            else:
                card = (action - ACES) * 6 + _ACE
                marriages.append(Marriage(actor, None, ACE_MARRIAGE_VALUE))
            if not current:
                leader = actor
            current.append((actor, CARDS[card]))
            if len(current) == 3:
                tricks.append(Trick(leader, tuple(current), s._winners[len(tricks)]))
                current = []
    shown = s._phase != BIDDING and not (
        s.options.talon_hidden_at_100 and s._high_bid == s.options.min_bid and seat != decl
    )
    if not s.options.show_past_tricks:
        tricks = tricks[-1:]
    mine = s._to_move == seat
    return ThousandView(
        seat=seat,
        players=n,
        dealer=s._dealer,
        deal_number=s._deal_no + (0 if s._phase == OVER else 1),
        phase=PHASES[s._phase],
        current_player=s._to_move,
        hand=mask_cards(s._hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in s._hands),
        bids=tuple(bids),
        high_bid=s._high_bid,
        declarer=None if s._phase == BIDDING else decl,
        talon=mask_cards(s._talon) if shown else None,
        gifts=tuple(gifts),
        contract=contract,
        bomb=bomb,
        trump=None if s._trump < 0 else Suit(s._trump),
        marriages=tuple(marriages),
        trick=Trick(leader, tuple(current)) if current else None,
        tricks=tuple(tricks),
        tricks_won=tuple(s._won),
        totals=tuple(s._book.totals),
        target=s.options.target,
        legal_actions=tuple(s.legal_actions()) if mine else (),
    )

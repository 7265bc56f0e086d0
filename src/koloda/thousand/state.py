"""Thousand (Тысяча), the game: the state of a deal or a whole game, and its constructors.

The rules are those of docs/rules/thousand.md, Part II: the deal in :mod:`koloda.thousand.deal`, the
legal actions and their effects in :mod:`koloda.thousand.rules`, the score book in
:mod:`koloda.thousand.scoring`, the cards, action space and notation in :mod:`koloda.thousand.actions`,
what a seat sees in :mod:`koloda.thousand.observe`. The state's fields are private; its properties are
the documented, read-only view of it (full information: bots, interfaces and the network see only
``observe(state, seat)``).

>>> from koloda.thousand.observe import observe
>>> state = from_deal({"dealer": 0, "hands": ["AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC",
...     "QC 10C JC 9C AD KD QD"], "talon": "10D JD 9D"})
>>> state.current_player, state.action_text(state.legal_actions()[0])
(2, 'pass')
>>> state.apply(state.parse_action("пас")); state.apply(state.parse_action("pass"))
>>> state.declarer, observe(state, 2).talon
(1, (Card.parse('9D'), Card.parse('10D'), Card.parse('JD')))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from koloda.cards import Card, Suit
from koloda.errors import KolodaError, OptionsError, RecordError
from koloda.game import GameRecord, Scope, replay_actions
from koloda.i18n import Msg
from koloda.seeds import Seed, check
from koloda.thousand import deal as D
from koloda.thousand.actions import (
    ACE_MARRIAGE_VALUE,
    ACTION_TEXTS,
    DECK_POINTS,
    MARRIAGE_VALUES,
    PASS,
    POINTS,
    action_text,
    card_played,
    mask_cards,
    parse_action,
)
from koloda.thousand.options import ThousandOptions
from koloda.thousand.rules import BIDDING, OVER, PHASES, PLAYING, ThousandRules
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook


class ThousandState(ThousandRules):
    """A game of Thousand in progress: one deal (``scope="deal"``) or a whole game to 1000."""

    __slots__ = ()

    def __init__(
        self,
        options: ThousandOptions,
        players: int,
        scope: Scope,
        seed: Seed | None,
        deal: dict[str, Any] | None,
    ) -> None:
        """A game at the start of its first deal: shuffled from ``seed``, or the explicit ``deal`` (parsed by
        :func:`koloda.thousand.deal.parse_deal`: hands and talon as bitmasks)."""
        if type(players) is not int or players not in (3, 4):
            raise OptionsError(Msg("thousand.options.players", players=repr(players)), field="players")
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        self._options = options
        self._players = players
        self._scope = scope
        self._seed = seed
        self._deal0 = deal
        self._book = ScoreBook(options, players, None if deal is None else deal.get("totals"))
        self._top = DECK_POINTS + sum(MARRIAGE_VALUES) + (ACE_MARRIAGE_VALUE if options.ace_marriage else 0)
        self._must_beat = options.must_beat != "no"
        self._history = []
        self._actors = []
        self._results = []
        self._shuffle = 0
        self._deal_no = 0
        self._legal = None
        self._winners = []
        if deal is None:
            self._start_deal(0, None)
        else:
            self._start_deal(deal["dealer"], (tuple(deal["hands"]), deal["talon"]))

    # -- the protocol and read-only properties ---------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to act, ``None`` when the game is over."""
        return self._to_move

    @property
    def version(self) -> int:
        """The number of actions applied so far."""
        return len(self._history)

    @property
    def players(self) -> int:
        return self._players

    @property
    def options(self) -> ThousandOptions:
        return self._options

    @property
    def seed(self) -> Seed | None:
        """The seed every shuffle comes from; None for an explicit first deal (see :attr:`explicit_deal`)."""
        return self._seed

    @property
    def explicit_deal(self) -> dict[str, Any] | None:
        """The explicit first deal in its JSON layout (``from_deal``), or None for a shuffled game."""
        return None if self._deal0 is None else D.deal_to_json(self._deal0)

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
        """Every action of the game, in order (the seats are in :attr:`actors`)."""
        return tuple(self._history)

    @property
    def actors(self) -> tuple[int, ...]:
        """The seat of every action of :attr:`history`."""
        return tuple(self._actors)

    @property
    def deal_start(self) -> int:
        """The index in :attr:`history` where the current deal's actions begin."""
        return self._deal_start

    @property
    def dealt_from(self) -> int | None:
        """The number of the seed's shuffle that dealt this deal (void deals dealt again count, rule G4);
        None for the explicit first deal played as given."""
        if self._deal0 is not None and len(self._results) == 0 and self._shuffle == 1:
            return None
        return self._shuffle - 1

    @property
    def deal_number(self) -> int:
        """The number of the deal being played, from 1 (the last one's once the game is over)."""
        return self._deal_no + (0 if self._phase == OVER else 1)

    @property
    def high_bid(self) -> int:
        """The highest bid so far (the compulsory bid until someone raises, rule G5)."""
        return self._high_bid

    @property
    def contract(self) -> int | None:
        """The contract once named (rule G8)."""
        return self._bid if self._phase == PLAYING else None

    @property
    def trick(self) -> tuple[int, ...]:
        """The card ids of the trick being played, in playing order."""
        return tuple(self._trick)

    @property
    def winner(self) -> int | None:
        """The seat that won the game (rule S8), once it is over; ended by the deal limit (G16), the one
        highest total (None for a tie at the top)."""
        if self._book.winner is not None or not self.is_over() or self._scope != "match":
            return self._book.winner
        totals = list(self._book.totals)
        best = max(totals)
        return totals.index(best) if totals.count(best) == 1 else None

    @property
    def last_result(self) -> tuple[DealInput, DealScore] | None:
        """The last finished deal and its score (None before the first), without copying :attr:`results`."""
        return self._results[-1] if self._results else None

    @property
    def deals_played(self) -> int:
        """The number of deals finished so far (the length of :attr:`results`, without copying it)."""
        return len(self._results)

    @property
    def hands(self) -> tuple[int, ...]:
        """Every seat's hand as a bitmask of card ids (full information: bots and views use observe)."""
        return tuple(self._hands)

    @property
    def talon(self) -> int:
        """The talon dealt this deal as a bitmask of card ids (full information; hidden until rule G7)."""
        return self._talon

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards a seat holds (full information: bots and interfaces use :func:`observe`)."""
        return mask_cards(self._hands[seat])

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
        for name in ThousandRules.__slots__:
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
            getattr(self, name) for name in ThousandRules.__slots__ if name not in ("_legal", "_book")
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ThousandState):
            return NotImplemented
        return self._key() == other._key() and self._book.totals == other._book.totals

    __hash__ = None  # type: ignore[assignment]  # mutable

    def record(self, meta: Mapping[str, Any] | None = None) -> GameRecord:
        """The :class:`GameRecord` of everything played so far; :func:`replay` rebuilds this state."""
        defaults = ThousandOptions().to_dict()
        options = {k: v for k, v in self._options.to_dict().items() if defaults[k] != v}
        return GameRecord(
            game="thousand",
            players=self._players,
            options=options,
            actions=tuple(ACTION_TEXTS[a] for a in self._history),
            seed=self._seed,
            deal=None if self._deal0 is None else D.deal_to_json(self._deal0),
            scope=self._scope,
            meta=dict(meta or {}),
        )

    def __repr__(self) -> str:
        return (
            f"<ThousandState deal {self._deal_no + 1} {PHASES[self._phase]} to_move={self._to_move}"
            f" totals={list(self._book.totals)}>"
        )


# -- building states -----------------------------------------------------------------------------------


def new_game(
    options: ThousandOptions | None = None, *, players: int = 3, seed: Seed, scope: Scope = "match"
) -> ThousandState:
    """A new game; every deal is shuffled from ``seed`` (rule G3). Seat 0 deals first."""
    return ThousandState(options or ThousandOptions(), players, scope, check(seed), None)


def from_deal(
    deal: dict[str, Any], options: ThousandOptions | None = None, *, scope: Scope = "deal"
) -> ThousandState:
    """A game from an explicit first deal: ``{"dealer": 0, "hands": ["AH KH ...", ...], "talon": "..."}``.

    One hand per seat (7 cards; with 4 players the dealer's hand is empty) and a talon of 3, the 24 cards
    once each. An optional ``"seed"`` shuffles the later deals (scope "match") and any redeal (rule G4).
    """
    options = options or ThousandOptions()
    return ThousandState(options, D.deal_players(deal), scope, None, D.parse_deal(deal))


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


def audit(state: ThousandState) -> list[str]:
    """What is wrong with a position (empty when nothing): the 24 cards each in exactly one place (a
    hand, the talon until the declarer takes it, or played this deal), tricks and their points adding up
    (rule G1: 120 in a deal). Random playouts check it after every action."""
    s = state
    problems: list[str] = []
    if s._phase == OVER:
        return problems  # the last deal's cards are all played and scored
    places = list(s._hands)
    if s._phase == BIDDING:
        places.append(s._talon)
    played = [card_played(a) for a in s._history[s._deal_start :] if a < PASS]
    places += [1 << c for c in played]
    seen = 0
    for mask in places:
        if seen & mask:
            problems.append(f"cards in two places: {' '.join(map(str, mask_cards(seen & mask)))}")
        seen |= mask
    if seen != (1 << 24) - 1:
        problems.append(f"cards in no place: {' '.join(map(str, mask_cards(((1 << 24) - 1) & ~seen)))}")
    finished = len(played) // 3
    if sum(s._won) != finished:
        problems.append(f"{sum(s._won)} tricks won but {finished} played")
    if sum(s._taken) != sum(POINTS[c] for c in played[: finished * 3]):
        problems.append(f"{sum(s._taken)} card points taken in tricks, not those of the cards played")
    return problems

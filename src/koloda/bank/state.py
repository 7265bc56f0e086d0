"""The Bank engine: the state of a deal or a match, its legal actions and their effects.

The rules are those of docs/rules/bank.md. The deal (rules 2-3, 4.1) is in :mod:`koloda.bank.deal`, the
legal actions and their effects in :mod:`koloda.bank.rules`, the scoring at the end of a deal (rules 6-8)
in :mod:`koloda.bank.scoring`, the notation in :mod:`koloda.bank.actions`, what a seat sees in
:mod:`koloda.bank.observe`. The state's fields are private; its properties are the documented, read-only
view of it (list-valued ones are copies; full information: bots, interfaces and the network see only
``observe(state, seat)``).

>>> state = new_game(players=3, seed=7)
>>> state.current_player in (0, 1, 2), len(state.stock), sum(h.bit_count() for h in state.hands)
(True, 23, 12)
>>> while not state.is_over():
...     state.apply(state.legal_actions()[0])
>>> state.winner is not None and max(state.totals) >= 248
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from koloda.bank import deal as D
from koloda.bank import tables as T
from koloda.bank.actions import action_text, parse_action
from koloda.bank.options import BankOptions
from koloda.bank.rules import PHASE_NAMES, BankRules
from koloda.bank.scoring import DealResult
from koloda.cards import DECK_36, Card
from koloda.errors import OptionsError, RecordError
from koloda.game import GameRecord, Scope, replay_actions
from koloda.i18n import Msg
from koloda.seeds import Seed, check

_DEFAULTS = BankOptions()  # frozen: built (and validated) once, not per game


class BankState(BankRules):
    """A Bank deal or match in progress. Mutable for speed; :meth:`copy` is cheap; ``==`` compares all."""

    __slots__ = ()

    def __init__(
        self,
        options: BankOptions,
        players: int,
        scope: Scope,
        seed: Seed,
        *,
        dealer: int,
        trump_suits: Sequence[int] | None,
        layout: tuple[Sequence[Sequence[int]], int, Sequence[int]] | None = None,
        totals: Sequence[int] | None = None,
    ) -> None:
        """A state at the start of its first deal (or of the choice of trumps when ``trump_suits`` is
        None); ``layout`` deals explicit cards (hands, the open card, the stock with its top last)."""
        options.check_players(players)
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        self._opts, self._n, self._scope, self._seed = options, players, scope, seed
        self._deal = None
        self._totals = [0] * players if totals is None else list(totals)
        self._results, self._hist, self._deal_starts = [], [], []
        self._winner = None
        self._deal_no = 0
        self._after_free = options.after_capture == "free-lead"
        self._kings_any = options.four_kings == "anyone"
        self._seven_mode = ("none", "skip", "draw-and-move", "skip-and-draw").index(options.seven)
        self._chosen = []
        self._legal = None
        self._kings_pending = self._seven_taken = False
        cards = None if layout is None else D.laid_out(*layout, players)
        if trump_suits is None and options.trump_choice == "in-turn-after-deal":
            self._trump_suits, self._cov, self._trump_kings = (), [], [0] * players  # rule 3.2: chosen below
            self._start_deal(dealer, tuple(range(players)), cards)
            self._begin_choice_after_deal()
            return
        if trump_suits is None:
            self._begin_choice(dealer)  # an explicit deal is laid out once all have chosen (_choose)
            return
        self._set_trumps(trump_suits)
        self._start_deal(dealer, tuple(range(players)), cards)

    # -- results and read-only properties ------------------------------------------------------------

    @property
    def players(self) -> int:
        """The number of seats (2-4)."""
        return self._n

    @property
    def options(self) -> BankOptions:
        return self._opts

    @property
    def scope(self) -> Scope:
        return self._scope

    @property
    def seed(self) -> Seed:
        """The seed every shuffle of the match comes from (for an explicit deal: its ``seed``)."""
        return self._seed

    @property
    def phase(self) -> str:
        """``move``, ``after-draw``, ``extra-move``, ``over`` or ``choose-trump`` (:data:`PHASE_NAMES`)."""
        return PHASE_NAMES[self._phase]

    @property
    def deal_no(self) -> int:
        """The number of the deal being played, from 1 (0 while trumps are chosen before it, rule 3.2)."""
        return self._deal_no

    @property
    def dealer(self) -> int:
        return self._dealer

    @property
    def starter(self) -> int:
        """The seat that moved first in this deal (rule 4.1)."""
        return self._starter

    @property
    def active(self) -> tuple[int, ...]:
        """The seats dealt into this deal (all, except a tie's deal under ``tie=tied-only``, rule 8.2)."""
        return self._active

    @property
    def hands(self) -> list[int]:
        """Every seat's hand as a bitmask of card ids (full information: bots and views use observe)."""
        return list(self._hands)

    def hand(self, seat: int) -> list[Card]:
        """The cards in a seat's hand (full information: bots and views use observe)."""
        return [DECK_36[c] for c in T.cards_of(self._hands[seat])]

    @property
    def stock(self) -> list[int]:
        """The stock's card ids, its top last (hidden information)."""
        return list(self._stock)

    @property
    def bank(self) -> list[int]:
        """The bank's card ids, bottom first (face up)."""
        return list(self._bank)

    @property
    def target(self) -> int:
        """The card id the next move must cover; -1 for a free lead (rule 5.3)."""
        return self._target

    @property
    def top_owner(self) -> int:
        """The seat that laid the bank's top card; -1 for the open card or an empty bank."""
        return self._top_owner

    @property
    def opening(self) -> bool:
        """Whether the open card is still to be covered (rule 4.2)."""
        return self._opening

    @property
    def four_kings(self) -> bool:
        """Whether four kings lie on top (rule 5.4)."""
        return self._four_kings

    @property
    def captured(self) -> list[int]:
        """Each seat's captured cards this deal, as bitmasks (public: they lie face up)."""
        return list(self._captured)

    @property
    def captured_pts(self) -> list[int]:
        """Each seat's captured points this deal."""
        return list(self._captured_pts)

    @property
    def out(self) -> list[bool]:
        """Which seats have gone out (or sit out this deal)."""
        return list(self._out)

    @property
    def places(self) -> list[int]:
        """The seats in the order they went out this deal."""
        return list(self._places)

    @property
    def trump_suits(self) -> tuple[int, ...]:
        """The trump suits (per seat for set-up "own", senior first for "senior-junior"); empty while
        chosen in turn."""
        return self._trump_suits

    @property
    def chosen(self) -> list[int]:
        """While trumps are chosen in turn (rule 3.2): each seat's suit so far, -1 for none."""
        return list(self._chosen)

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    @property
    def results(self) -> list[DealResult]:
        """Every finished deal's score sheet."""
        return list(self._results)

    @property
    def winner(self) -> int | None:
        return self._winner

    @property
    def deals_played(self) -> int:
        """The number of deals finished so far (the length of :attr:`results`, without copying it)."""
        return len(self._results)

    @property
    def actions(self) -> list[int]:
        """Every action played so far, in order."""
        return [h >> 2 for h in self._hist]

    @property
    def history(self) -> tuple[tuple[int, int], ...]:
        """Every action played so far with its seat: ``(seat, action)``."""
        return tuple((h & 3, h >> 2) for h in self._hist)

    @property
    def deal_start(self) -> int:
        """The index in :attr:`history` where the current deal's actions begin."""
        return self._deal_starts[-1] if self._deal_starts else len(self._hist)

    @property
    def explicit_deal(self) -> dict[str, Any] | None:
        """The explicit first deal this state was made from (``from_deal``), or None for a shuffled one."""
        return None if self._deal is None else dict(self._deal)

    # -- notation ------------------------------------------------------------------------------------

    def action_text(self, action: int) -> str:
        """Canonical notation: ``7H``; four of a kind and runs as cards joined by ``+`` in the order laid
        (the last on top); ``draw``; ``pass``."""
        return action_text(action)

    def parse_action(self, text: str) -> int:
        """Canonical or friendly notation to an action id (see :func:`koloda.bank.actions.parse_action`)."""
        return parse_action(text)

    # -- copying, equality, records --------------------------------------------------------------------

    def copy(self) -> Self:
        """An independent copy (lists copied, immutable tables shared)."""
        new = object.__new__(type(self))
        for name in BankRules.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = list(value)
            setattr(new, name, value)
        return new

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in BankRules.__slots__ if name not in ("_legal", "_cov"))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BankState):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<BankState players={self._n} deal={self._deal_no} turn={self.current_player} "
            f"phase={PHASE_NAMES[self._phase]} bank={len(self._bank)} stock={len(self._stock)}>"
        )

    def record(self, meta: Mapping[str, Any] | None = None) -> GameRecord:
        """The record of everything played so far (game "bank"): options, seed or deal, actions."""
        defaults = _DEFAULTS.to_dict()
        options = {k: v for k, v in self._opts.to_dict().items() if defaults[k] != v}
        texts = tuple(action_text(h >> 2) for h in self._hist)
        origin: dict[str, Any] = {"seed": self._seed} if self._deal is None else {"deal": self._deal}
        return GameRecord("bank", self._n, options, texts, scope=self._scope, meta=dict(meta or {}), **origin)


# -- building states -------------------------------------------------------------------------------------


def new_game(
    options: BankOptions | None = None, *, players: int, seed: Seed, scope: Scope = "match"
) -> BankState:
    """A new deal or match; the first dealer (by lot), random trumps and every shuffle come from ``seed``.

    >>> new_game(players=5, seed=1)
    Traceback (most recent call last):
    ...
    koloda.errors.OptionsError: Bank is for 2-4 players, not 5
    """
    opts = options if options is not None else _DEFAULTS
    seed = check(seed)
    if type(players) is not int:
        raise OptionsError(Msg("bank.options.players", players=repr(players)))
    opts.check_players(players)
    rng = D.setup_rng(seed)
    dealer = opts.first_dealer if opts.first_dealer is not None else rng.randrange(players)  # rule 2.1
    suits = None if opts.trump_choice != "random" else D.trump_suits(opts, players, rng)
    return BankState(opts, players, scope, seed, dealer=dealer, trump_suits=suits)


def from_deal(
    deal: Mapping[str, Any], options: BankOptions | None = None, *, scope: Scope = "deal"
) -> BankState:
    """A state from an explicit deal, to set up any position.

    ``deal`` has ``hands`` (a list of card lists, one per seat), ``open`` (the open card), ``stock`` (top
    first), ``dealer`` (a seat), and optionally ``trump_suits`` (suit letters, as the option), ``totals``
    (match scores so far) and ``seed`` (for the later deals of a match, and the trump suits when neither
    the deal nor the options name them). Cards not named are out of play. Under a choice of trumps in
    turn (rule 3.2) a deal that names no suits leaves them to be chosen: the choosing is played (before the
    cards are laid out, or after, as the option says); suits it names are taken as already chosen.

    >>> s = from_deal({"hands": [["7H", "KS"], ["9H"]], "open": "8H", "stock": ["AS"], "dealer": 1,
    ...                "trump_suits": ["C", "D"]})
    >>> s.current_player, s.legal_actions() == [s.parse_action("7H")]
    (0, True)
    >>> open_suits = {"hands": [["7H", "KS"], ["9H"]], "open": "8H", "stock": ["AS"], "dealer": 1}
    >>> s = from_deal(open_suits, BankOptions(trump_choice="in-turn"))
    >>> s.phase, s.current_player, s.hands
    ('choose-trump', 0, [0, 0])
    """
    opts = options if options is not None else _DEFAULTS
    parsed = D.parse_deal(deal)
    players = len(parsed.hands)
    suits: tuple[int, ...] | None = None
    if opts.trump_choice == "random" or parsed.trump_suits:
        # rule 3.2: suits the deal names are the suits chosen, whatever the options say of choosing them
        named = opts
        if parsed.trump_suits is not None:
            named = opts.replace(trump_suits=parsed.trump_suits, trump_choice="random")
        named.check_players(players)
        suits = D.trump_suits(named, players, D.setup_rng(parsed.seed))
    state = BankState(
        opts,
        players,
        scope,
        parsed.seed,
        dealer=parsed.dealer,
        trump_suits=suits,
        layout=(parsed.hands, parsed.open_card, parsed.stock),
        totals=parsed.totals,
    )
    state._deal = dict(deal)
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
    if state.players != record.players:
        raise RecordError(f"record says {record.players} players but its deal has {state.players}")
    replay_actions(state, record.actions)
    return state


def audit(state: BankState) -> list[str]:
    """What is wrong with a position (empty when nothing): every card in exactly one place (a hand, the
    stock, the bank, a captured pile, or out of play in an explicit deal) and the captured points adding
    up (rule 7.1). Random playouts check it after every action."""
    problems: list[str] = []
    places = [
        *state._hands,
        *state._captured,
        sum(1 << c for c in state._bank),
        sum(1 << c for c in state._stock),
    ]
    seen = 0
    for mask in places:
        if seen & mask:
            problems.append(f"cards in two places: {[str(DECK_36[c]) for c in T.cards_of(seen & mask)]}")
        seen |= mask
    if state.explicit_deal is None and seen != T.FULL_DECK:
        problems.append(f"cards in no place: {[str(DECK_36[c]) for c in T.cards_of(T.FULL_DECK & ~seen)]}")
    if len(state._bank) != len(set(state._bank)):
        problems.append("a card twice in the bank")
    if len(state._stock) != len(set(state._stock)):
        problems.append("a card twice in the stock")
    for p, mask in enumerate(state._captured):
        if state._captured_pts[p] != T.points_of(mask):
            problems.append(
                f"seat {p} captured {T.points_of(mask)} points but is credited {state._captured_pts[p]}"
            )
    return problems

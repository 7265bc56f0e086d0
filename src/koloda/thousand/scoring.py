"""The scoring of Thousand: one deal's result in, every player's new score out (rules S1-S14).

The game engine and the score keepers hand each deal's result to a :class:`ScoreBook` as a
:class:`DealInput`; the book checks it, applies every option of :class:`ThousandOptions` and returns a
:class:`DealScore` saying what each player got and why. Rule numbers refer to docs/rules/thousand.md.

The seed's three-deal table (home rules):

>>> book = ScoreBook(ThousandOptions(), players=3)
>>> book.apply(DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ()))).delta
(120, 30, 10)
>>> book.apply(DealInput(declarer=1, bid=100, points=(34, 70, 16))).total
(150, -70, 30)
>>> book.apply(DealInput(declarer=2, bid=110, bomb=True)).total
(210, -10, 30)
>>> book.deals[0].explain(("Аня", "Боря", "Вера"))
'Аня 120 — выполнила (85 + марьяж 60)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Literal

from koloda.errors import RecordError
from koloda.i18n import N_, Lang, Msg, say
from koloda.thousand.options import ThousandOptions

Gender = Literal["f", "m"]

DECK_POINTS = 120  # S3: the card points of one deal (A 11, 10 10, K 4, Q 3, J 2, 9 0; 24 cards)
MARRIAGE_VALUES = (40, 60, 80, 100)  # S3: ♠ 40, ♣ 60, ♦ 80, ♥ 100
ACE_MARRIAGE = 200  # S3: the four aces, only with the game's ace_marriage option
MINUS = "\u2212"  # the seed writes negative numbers with the minus sign, not a hyphen


class ScoringError(RecordError):
    """A deal result that cannot be scored (the book is left unchanged); ``text(lang)`` says why."""


class Note(StrEnum):
    """What happened to one player in one deal, besides the plain points."""

    MADE = "made"  # S1: the declarer made his contract
    FAILED = "failed"  # S1: the declarer was short
    BOMB = "bomb"  # S7: the declarer called a bomb
    ROUNDED = "rounded"  # S4: rounding changed the defender's points
    LINE_800 = "line_800"  # S5: the 800 rule cut the defence
    CAP = "cap"  # S9: the defender stopped at the defender cap
    SITTING = "sitting"  # S10: the dealer sat out (4 players)
    BARREL_ON = "barrel_on"  # S6: climbed on the barrel this deal (score frozen at the barrel)
    BARREL = "barrel"  # S6: on the barrel after this deal
    BARREL_FALL = "barrel_fall"  # S6: fell off the barrel
    BARREL_RESET = "barrel_reset"  # S13: the falls reset the score to 0
    BOLT = "bolt"  # S11: a scoreless deal
    BOLT_PENALTY = "bolt_penalty"  # S11: the bolts cost points
    DUMP = "dump"  # S12: 555 fell to 0
    WINNER = "winner"  # S8: reached the target with a made contract


@dataclass(frozen=True)
class DealInput:
    """One deal's result as the game (or a person) reports it.

    ``points`` are the card points each seat took in tricks (empty for a bomb); ``marriages`` the values
    each seat declared (empty: none). With 4 players ``sitting`` is the dealer who sat out; his entry in
    ``points`` is what the game awarded him (not part of the 120).
    """

    declarer: int
    bid: int
    bomb: bool = False
    points: tuple[int, ...] = ()
    marriages: tuple[tuple[int, ...], ...] = ()
    sitting: int | None = None

    def marriages_of(self, seat: int) -> tuple[int, ...]:
        """The marriage values that seat declared."""
        return self.marriages[seat] if self.marriages else ()

    def own_points(self, seat: int) -> int:
        """Card points plus marriages of one seat (S1, S4)."""
        return (self.points[seat] if self.points else 0) + sum(self.marriages_of(seat))


@dataclass(frozen=True)
class SeatState:
    """One player's standing between deals."""

    total: int = 0
    barrel: int | None = None  # S6: deals already played on the barrel; None when not on it
    falls: int = 0  # S13: falls from the barrel so far
    bolts: int = 0  # S11: bolts since the last bolt penalty
    bombs: int = 0  # S7: bombs called in this game


@dataclass(frozen=True)
class DealScore:
    """What each seat got in one deal: per-seat tuples, indexed by seat."""

    deal: DealInput
    made: bool | None  # None for a bomb
    delta: tuple[int, ...]  # the change of each total
    raw: tuple[int, ...]  # own points before rounding (declarer: cards + marriages; bomb: bomb points)
    rounded: tuple[int, ...]  # raw after rounding (the declarer's is not rounded)
    total: tuple[int, ...]  # the totals after the deal
    notes: tuple[tuple[Note, ...], ...]
    barrel: tuple[int | None, ...]  # deals left on the barrel after it (None: off it or no limit; see notes)
    winner: int | None

    def explain(
        self, names: Sequence[str] | None = None, lang: Lang = "ru", genders: Sequence[Gender] | None = None
    ) -> str:
        """The game column of the seed's table: 'Аня 120 — выполнила (85 + марьяж 60)'."""
        deal = self.deal
        names = list(names) if names is not None else default_names(len(self.delta), lang)
        name = names[deal.declarer]
        gender = genders[deal.declarer] if genders is not None else guess_gender(name)
        if deal.bomb:
            return say(lang, "thousand.scoring.bomb", name=name, bid=deal.bid)
        parts = [str(deal.points[deal.declarer])]
        parts += [
            say(lang, "thousand.scoring.marriage", value=value) for value in deal.marriages_of(deal.declarer)
        ]
        verb = say(lang, VERBS[bool(self.made), gender])
        return say(
            lang, "thousand.scoring.explain", name=name, bid=deal.bid, verb=verb, parts=" + ".join(parts)
        )

    def cell(self, seat: int, lang: Lang = "ru", options: ThousandOptions | None = None) -> str:
        """One player's cell: '+30 (25) → 30', the raw points shown where rounding or a rule changed them.

        With ``options`` the cell also marks the barrel, the 800 line and the house rules.
        """
        delta, raw, total = self.delta[seat], self.raw[seat], self.total[seat]
        text = signed(delta)
        if seat != self.deal.declarer and raw != delta:
            text += f" ({raw})"
        text += f" → {number(total)}"
        marks = _marks(self, seat, lang, options) if options is not None else []
        return text + "".join(f" [{mark}]" for mark in marks)


#: The declarer's result in the game column, by (made, gender): Russian says 'выполнила' of a woman.
VERBS = {
    (True, "m"): N_("thousand.scoring.made"),
    (True, "f"): N_("thousand.scoring.made_f"),
    (False, "m"): N_("thousand.scoring.failed"),
    (False, "f"): N_("thousand.scoring.failed_f"),
}


def _marks(score: DealScore, seat: int, lang: Lang, options: ThousandOptions) -> list[str]:
    notes = score.notes[seat]
    marks = []
    if Note.BARREL_FALL in notes:
        marks.append(say(lang, "thousand.mark.barrel_fall"))
    if Note.BARREL_RESET in notes:
        marks.append(say(lang, "thousand.mark.barrel_reset"))
    left = score.barrel[seat]
    if Note.BARREL in notes:
        if left is None:
            marks.append(say(lang, "thousand.mark.barrel"))
        else:
            marks.append(say(lang, "thousand.mark.barrel_left", n=left))
    elif options.rule_800 != "off" and score.total[seat] >= options.threshold_800 and score.winner is None:
        marks.append(f"{options.threshold_800}+")
    if Note.BOLT in notes:
        marks.append(say(lang, "thousand.mark.bolt"))
    if Note.BOLT_PENALTY in notes:
        marks.append(say(lang, "thousand.mark.bolt_penalty", points=signed(-options.bolt_penalty)))
    if Note.DUMP in notes:
        marks.append(say(lang, "thousand.mark.dump"))
    return marks


def signed(value: int) -> str:
    """'+30', '0', '−100' (the seed's minus sign)."""
    return f"+{value}" if value > 0 else number(value)


def number(value: int) -> str:
    """'120', '−70' (the seed's minus sign)."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def default_names(players: int, lang: Lang = "ru") -> list[str]:
    """'Игрок 1', ... when no names are given."""
    return [say(lang, "thousand.player", number=seat + 1) for seat in range(players)]


# Male names that end in -а/-я, the usual ending of female names (Russian diminutives mostly).
_MALE_NAMES = (
    "боря ваня вася витя вова гоша гриша дима женя илья кузьма коля костя лёва лева лёня леня лёша леша "
    "миша митя никита паша петя санёк саня серёжа сережа слава стёпа степа толя федя фома юра яша"
)
MALE_IN_A = frozenset(_MALE_NAMES.split())
FEMALE_ENDINGS = ("а", "я")  # the usual ending of a Russian female name


def guess_gender(name: str) -> Gender:
    """The grammatical gender for the Russian verb ('выполнил'/'выполнила'), guessed from the name.

    A name ending in -а/-я is taken as female unless it is a known male name (Боря, Илья, Никита...);
    score files and the sheet may state the gender where the guess is wrong.

    >>> guess_gender("Аня"), guess_gender("Боря"), guess_gender("Глеб")
    ('f', 'm', 'm')
    """
    first = name.strip().split(" ")[0].lower()
    return "f" if first.endswith(FEMALE_ENDINGS) and first not in MALE_IN_A else "m"


def round_defence(points: int, rounding: str) -> int:
    """S4: a defender's points rounded: home 5 and up to the ten above, tournament 6 and up, russian to 5.

    >>> [round_defence(p, "home") for p in (25, 34, 35, 36)]
    [30, 30, 40, 40]
    >>> [round_defence(p, "tournament") for p in (25, 34, 35, 36)]
    [20, 30, 30, 40]
    >>> round_defence(17, "russian"), round_defence(18, "russian")
    (15, 20)
    """
    if rounding == "home":
        return (points + 5) // 10 * 10
    if rounding == "tournament":
        return (points + 4) // 10 * 10
    return (points + 2) // 5 * 5


def marriage_values(options: ThousandOptions) -> tuple[int, ...]:
    """S3: the marriage values a deal may contain (200 only when the game's ace_marriage option is on)."""
    return (*MARRIAGE_VALUES, ACE_MARRIAGE) if getattr(options, "ace_marriage", False) else MARRIAGE_VALUES


def check_bid(options: ThousandOptions, bid: object) -> int:
    """S2: a bid is an int from ``min_bid`` up to what a declarer could take, in steps of ``bid_step``."""
    if type(bid) is not int:
        raise ScoringError(Msg("thousand.scoring.bid_type", bid=repr(bid)))
    if bid < options.min_bid:
        raise ScoringError(Msg("thousand.scoring.bid_low", bid=bid, low=options.min_bid))
    if bid % options.bid_step:
        raise ScoringError(Msg("thousand.scoring.bid_step", bid=bid, step=options.bid_step))
    top = DECK_POINTS + sum(marriage_values(options))
    if bid > top:
        raise ScoringError(Msg("thousand.scoring.bid_high", bid=bid, top=top))
    return bid


class ScoreBook:
    """The running score of one game of Thousand; :meth:`apply` one deal at a time, :meth:`undo` the last."""

    def __init__(
        self, options: ThousandOptions | None = None, players: int = 3, start: Sequence[int] | None = None
    ) -> None:
        """``start``: totals carried over (a game moved from paper); a total at the barrel sits on it."""
        if type(players) is not int or not 2 <= players <= 4:
            raise ScoringError(Msg("thousand.scoring.players", players=repr(players)))
        self.options = options if options is not None else ThousandOptions()
        self.players = players
        self._states: list[tuple[SeatState, ...]] = [_start_states(self.options, players, start)]
        self._deals: list[DealScore] = []

    # -- reading ---------------------------------------------------------------------------------------

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's score now."""
        return tuple(seat.total for seat in self._states[-1])

    @property
    def deals(self) -> tuple[DealScore, ...]:
        """The scored deals, first to last."""
        return tuple(self._deals)

    @property
    def seats(self) -> tuple[SeatState, ...]:
        """Each seat's standing now (total, barrel, falls, bolts, bombs)."""
        return self._states[-1]

    @property
    def winner(self) -> int | None:
        """S8: the seat that won, or None while the game goes on."""
        return self._deals[-1].winner if self._deals else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def on_barrel(self, seat: int) -> bool:
        """S6: whether that seat sits on the barrel."""
        return self._states[-1][seat].barrel is not None

    def bomb_allowed(self, seat: int) -> bool:
        """S7: whether that seat may still call a bomb in this game."""
        limit = self.options.bombs_per_game
        return limit is None or self._states[-1][seat].bombs < limit

    # -- changing ------------------------------------------------------------------------------------

    def check(self, deal: DealInput) -> None:
        """Raise :class:`ScoringError` naming the problem if the deal cannot be scored now."""
        _check_deal(self, deal)

    def apply(self, deal: DealInput) -> DealScore:
        """Score one deal; a bad deal raises :class:`ScoringError` and changes nothing."""
        _check_deal(self, deal)
        score, states = _score(self.options, self._states[-1], deal)
        self._states.append(states)
        self._deals.append(score)
        return score

    def undo(self) -> DealScore:
        """Take back the last deal and return it."""
        if not self._deals:
            raise ScoringError(Msg("thousand.scoring.no_undo"))
        self._states.pop()
        return self._deals.pop()

    def copy(self) -> ScoreBook:
        other = ScoreBook(self.options, self.players)
        other._states = list(self._states)
        other._deals = list(self._deals)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ScoreBook):
            return NotImplemented
        mine = (self.options, self.players, self._states[0], self._deals)
        return mine == (other.options, other.players, other._states[0], other._deals)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"ScoreBook(players={self.players}, deals={len(self._deals)}, totals={self.totals})"


@lru_cache(maxsize=65536)
def deal_delta(
    options: ThousandOptions,
    seat: SeatState,
    *,
    declarer: bool,
    bid: int,
    points: int = 0,
    bomb: bool = False,
) -> int:
    """What one seat's total changes by in a deal at ``bid`` in which it took ``points`` (cards and
    marriages), as the declarer or as a defender, or in a deal the declarer bombed (``bomb``; ``points``
    unused): every rule of :func:`_score` for that seat (S1, S4-S9, S11-S13). A seat's change depends only
    on its own standing, role and points, which is what lets the bots value a deal seat by seat
    (koloda.thousand.solver, koloda.bots.thousand_eval).

    >>> opts = ThousandOptions()
    >>> deal_delta(opts, SeatState(total=0), declarer=True, bid=120, points=119)
    -120
    >>> [deal_delta(opts, SeatState(total=t), declarer=False, bid=100, points=34) for t in (0, 800)]
    [30, 0]
    >>> deal_delta(opts, SeatState(total=0), declarer=False, bid=100, bomb=True)
    60
    """
    other = SeatState()
    # seat 0 is the seat asked about; the declarer is seat 0 or seat 1
    if bomb:
        deal = DealInput(declarer=0 if declarer else 1, bid=bid, bomb=True)
    else:
        deal = DealInput(declarer=0 if declarer else 1, bid=bid, points=(points, points, points))
    score, _ = _score(options, (seat, other, other), deal)
    return score.delta[0]


def _start_states(
    options: ThousandOptions, players: int, start: Sequence[int] | None
) -> tuple[SeatState, ...]:
    totals = tuple(start) if start is not None else (0,) * players
    if len(totals) != players or any(type(total) is not int for total in totals):
        raise ScoringError(Msg("thousand.scoring.start", players=players, start=str(start)))
    top = options.barrel_threshold if options.barrel else options.target - 1
    for total in totals:
        if total > top:
            raise ScoringError(Msg("thousand.scoring.start_high", total=total, top=top))
    return tuple(
        SeatState(total=total, barrel=0 if options.barrel and total == options.barrel_threshold else None)
        for total in totals
    )


def _check_deal(book: ScoreBook, deal: DealInput) -> None:
    if not isinstance(deal, DealInput):
        raise ScoringError(Msg("thousand.scoring.deal_type", type=type(deal).__name__))
    options, players = book.options, book.players
    if book.winner is not None:
        raise ScoringError(Msg("thousand.scoring.over", seat=book.winner))
    seats = range(players)
    if type(deal.declarer) is not int or deal.declarer not in seats:
        raise ScoringError(Msg("thousand.scoring.declarer", declarer=repr(deal.declarer), last=players - 1))
    if players == 4:
        if type(deal.sitting) is not int or deal.sitting not in seats:
            raise ScoringError(Msg("thousand.scoring.sitting_seat", sitting=repr(deal.sitting)))
        if deal.sitting == deal.declarer:
            raise ScoringError(Msg("thousand.scoring.sitting_declares", seat=deal.sitting))
    elif deal.sitting is not None:
        raise ScoringError(Msg("thousand.scoring.sitting_only_4", players=players, sitting=deal.sitting))
    check_bid(options, deal.bid)
    if type(deal.bomb) is not bool:
        raise ScoringError(Msg("thousand.scoring.bomb_type", bomb=repr(deal.bomb)))
    if deal.bomb:
        if deal.points or any(deal.marriages):
            raise ScoringError(Msg("thousand.scoring.bomb_played"))
        if not book.bomb_allowed(deal.declarer):
            raise ScoringError(
                Msg("thousand.scoring.bombs_used", seat=deal.declarer, allowed=options.bombs_per_game)
            )
        return
    if len(deal.points) != players or any(type(p) is not int for p in deal.points):
        raise ScoringError(Msg("thousand.scoring.points", players=players, points=str(deal.points)))
    if any(p < 0 for p in deal.points):
        raise ScoringError(Msg("thousand.scoring.negative", points=str(deal.points)))
    played = sum(p for seat, p in enumerate(deal.points) if seat != deal.sitting)
    if played != DECK_POINTS:
        raise ScoringError(
            Msg("thousand.scoring.sum", played=played, deck=DECK_POINTS, points=str(deal.points))
        )
    if deal.marriages and len(deal.marriages) != players:
        raise ScoringError(Msg("thousand.scoring.marriages", players=players, marriages=str(deal.marriages)))
    allowed = marriage_values(options)
    seen: set[int] = set()
    for seat in seats:
        values = deal.marriages_of(seat)
        if values and seat == deal.sitting:
            raise ScoringError(Msg("thousand.scoring.sitting_marriage", seat=seat))
        for value in values:
            if type(value) is not int or value not in allowed:
                raise ScoringError(
                    Msg(
                        "thousand.scoring.marriage_value",
                        value=repr(value),
                        allowed=", ".join(map(str, allowed)),
                    )
                )
            if value in seen:
                raise ScoringError(Msg("thousand.scoring.marriage_twice", value=value))
            seen.add(value)


def _score(
    options: ThousandOptions, before: tuple[SeatState, ...], deal: DealInput
) -> tuple[DealScore, tuple[SeatState, ...]]:
    """Pure: the deal's score and every seat's new standing, rule by rule."""
    raws: list[int] = []
    roundeds: list[int] = []
    deltas: list[int] = []
    notes: list[list[Note]] = []
    states: list[SeatState] = []
    made: bool | None = None
    winner: int | None = None
    for seat, state in enumerate(before):
        marks: list[Note] = []
        on_barrel = state.barrel is not None
        fell = False
        bolts, bombs = state.bolts, state.bombs
        if seat == deal.declarer:
            if deal.bomb:  # S7
                raw = rounded = delta = 0
                bombs += 1
                marks.append(Note.BOMB)
            else:  # S1: the surplus is lost, short by one point costs the whole bid, no rounding
                raw = rounded = deal.own_points(seat)
                made = raw >= deal.bid
                delta = deal.bid if made else -deal.bid
                marks.append(Note.MADE if made else Note.FAILED)
                if made and state.total + deal.bid >= options.target:  # S8
                    winner = seat
                    marks.append(Note.WINNER)
                elif made and on_barrel:  # S6: a made contract short of the target leaves the score frozen
                    delta = 0
                elif not made and on_barrel:  # S6: a failed contract on the barrel
                    fell = True
                    delta = {
                        "minus_bid": -deal.bid,
                        "fall": -options.barrel_fall,
                        "both": -deal.bid - options.barrel_fall,
                    }[options.barrel_failed]
        else:
            sitting = seat == deal.sitting
            if sitting:  # S10
                marks.append(Note.SITTING)
                raw = deal.points[seat] if deal.points else 0
                defence = options.sitting_as_defender
            else:
                raw = options.bomb_points if deal.bomb else deal.own_points(seat)
                defence = True
            rounded = round_defence(raw, options.rounding) if defence and not deal.bomb else raw
            if rounded != raw:
                marks.append(Note.ROUNDED)
            delta = _defence(options, state.total, rounded, on_barrel, marks) if defence else rounded
            if delta > 0 and state.total + delta > options.defender_cap:  # S9
                delta = max(0, options.defender_cap - state.total)
                marks.append(Note.CAP)
            if options.bolts is not None and not on_barrel and not sitting and raw == 0:  # S11
                bolts += 1
        if seat == deal.declarer and deal.bomb and options.bolts is not None and not on_barrel:
            bolts += 1  # S11: the bomb gives its declarer nothing: a bolt
        if options.bolts is not None and bolts > state.bolts:
            marks.append(Note.BOLT)
            if bolts >= options.bolts:
                delta -= options.bolt_penalty
                bolts = 0
                marks.append(Note.BOLT_PENALTY)
        barrel = state.barrel
        if on_barrel and winner != seat and not fell:  # S6: the deals on the barrel run out
            barrel = (state.barrel or 0) + 1
            if options.barrel_deals is not None and barrel >= options.barrel_deals:
                fell = True
                delta -= options.barrel_fall
        if fell:
            barrel = None
            marks.append(Note.BARREL_FALL)
        if winner == seat:
            barrel = None
        total = state.total + delta
        # S6: a total reaching the barrel stops there (only a win passes it)
        if options.barrel and winner != seat and total >= options.barrel_threshold:
            total = options.barrel_threshold
            if barrel is None and not fell:
                barrel = 0
                marks.append(Note.BARREL_ON)
        falls = state.falls + fell
        if fell and options.barrel_fall_reset is not None and falls >= options.barrel_fall_reset:  # S13
            total, falls = 0, 0
            marks.append(Note.BARREL_RESET)
        if options.dump and winner != seat and abs(total) == 555:  # S12
            total = 0
            marks.append(Note.DUMP)
        if barrel is not None:
            marks.append(Note.BARREL)
        raws.append(raw)
        roundeds.append(rounded)
        deltas.append(total - state.total)
        notes.append(marks)
        states.append(SeatState(total=total, barrel=barrel, falls=falls, bolts=bolts, bombs=bombs))
    left = tuple(
        None
        if s.barrel is None
        else (None if options.barrel_deals is None else options.barrel_deals - s.barrel)
        for s in states
    )
    score = DealScore(
        deal=deal,
        made=made,
        delta=tuple(deltas),
        raw=tuple(raws),
        rounded=tuple(roundeds),
        total=tuple(s.total for s in states),
        notes=tuple(tuple(m) for m in notes),
        barrel=left,
        winner=winner,
    )
    return score, tuple(states)


def _defence(options: ThousandOptions, total: int, points: int, on_barrel: bool, marks: list[Note]) -> int:
    """S5, S6: what the defence adds, after the 800 rule and the barrel."""
    if on_barrel:  # S6: the score stands still on the barrel
        return 0
    line = options.threshold_800
    if options.rule_800 == "home" and total >= line and points > 0:  # S5: nothing from the line on
        marks.append(Note.LINE_800)
        return 0
    if options.rule_800 == "tournament" and total + points > line and points > 0:  # S5: capped at the line
        marks.append(Note.LINE_800)
        return max(0, line - total)
    return points

"""The coach: after a game, every decision of one seat rated and the better move shown (docs/analysis.md).

A game record is replayed action by action. At each decision of the chosen seat (a turn with more than
one legal action) the game's :class:`Rater` is shown that seat's observation, ``observe(state, seat)``,
and nothing else: it estimates the value of every legal action from worlds consistent with the
observation (or, for Thousand's bidding and talon, from the bots' estimator). The move played and the
best move are compared; a loss of at least the game's :class:`Thresholds` is a mistake (``?``) or a
blunder (``??``). Each decision draws its worlds from its own stream, seeded by the analysis's seed and
the action's index, so a decision's rating depends on nothing but the observation, the seed and the index.

>>> mark(Thresholds(10, 30), 12.5), mark(Thresholds(10, 30), 30.0), mark(Thresholds(10, 30), 3.0)
('?', '??', '')
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameRecord, GameSpec, GameState
from koloda.i18n import Lang, say
from koloda.options import Options
from koloda.term import Progress


@dataclass(frozen=True)
class Thresholds:
    """The loss (game points) from which a move is a mistake (``?``) and a blunder (``??``)."""

    mistake: float
    blunder: float


class Rater(Protocol):
    """A game's judge of one seat's decisions; it sees only that seat's observations, in order."""

    thresholds: Thresholds

    def values(
        self, observation: Any, legal: Sequence[int], rng: random.Random
    ) -> Mapping[int, float] | None:
        """The estimated value (game points, for the observing seat) of each legal action, or None when
        the decision is not rated. Called at every turn of the seat, forced ones too (a rater with memory
        keeps it current)."""
        ...


#: Makes a game's rater for a game's options.
RaterFactory = Callable[[Options], Rater]


@dataclass(frozen=True)
class Rated:
    """One rated decision: ``index`` of the action in the record's actions (from 0), the move played and
    the best move (notation), their values (``value_best`` >= ``value_played``) and the mark."""

    index: int
    action: str
    best: str
    value_played: float
    value_best: float
    mark: str

    @property
    def loss(self) -> float:
        return self.value_best - self.value_played

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "action": self.action,
            "best": self.best,
            "value_played": round(self.value_played, 2),
            "value_best": round(self.value_best, 2),
            "mark": self.mark,
        }


@dataclass(frozen=True)
class Analysis:
    """One seat's analysis of a record: every rated decision, and the decisions not rated (no world)."""

    game: str
    seat: int
    seed: int
    thresholds: Thresholds
    moves: tuple[Rated, ...]
    unrated: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "seed": self.seed,
            "thresholds": dataclasses.asdict(self.thresholds),
            "moves": [m.to_json() for m in self.moves],
            "unrated": self.unrated,
        }

    def lines(self, lang: Lang, words: Callable[[str], str] | None = None) -> list[str]:
        """The analysis for people: one line per decision, then the marks counted; ``words`` says a move's
        canonical text as people read it in ``lang`` (the game's ``action_words``: no Latin card codes or
        English words in Russian)."""
        said = words or (lambda text: text)
        out = [say(lang, "coach.header", seat=self.seat, seed=self.seed, n=len(self.moves))]
        for m in self.moves:
            if m.action == m.best:
                action = said(m.action)
                out.append(say(lang, "coach.move_best", index=m.index, action=action, value=m.value_played))
            else:
                out.append(
                    say(
                        lang,
                        "coach.move",
                        index=m.index,
                        action=said(m.action),
                        mark=(" " + m.mark) if m.mark else "",
                        value=m.value_played,
                        best=said(m.best),
                        best_value=m.value_best,
                    )
                )
        mistakes = sum(m.mark == "?" for m in self.moves)
        blunders = sum(m.mark == "??" for m in self.moves)
        out.append(
            say(
                lang,
                "coach.summary",
                mistakes=mistakes,
                blunders=blunders,
                mistake=self.thresholds.mistake,
                blunder=self.thresholds.blunder,
            )
        )
        if self.unrated:
            out.append(say(lang, "coach.unrated", n=self.unrated))
        return out


def mark(thresholds: Thresholds, loss: float) -> str:
    """The mark of a move that loses ``loss`` points against the best."""
    if loss >= thresholds.blunder:
        return "??"
    if loss >= thresholds.mistake:
        return "?"
    return ""


#: One step of a game: the action's index in the record, the state before it, and the action.
Step = tuple[int, GameState, int]


def record_steps(spec: GameSpec, record: GameRecord) -> Iterator[Step]:
    """The record replayed: each action with the state it was taken in (RecordError for a bad action)."""
    state = spec.replay(dataclasses.replace(record, actions=()))
    for index, text in enumerate(record.actions):
        try:
            action = state.parse_action(text)
            before = state.copy()
            state.apply(action)
        except KolodaError as exc:
            raise RecordError(f"action {index + 1} {text!r} does not replay: {exc}") from None
        yield index, before, action


def decision_rng(seed: int, index: int) -> random.Random:
    """The stream of one decision: from the analysis's seed and the action's index only."""
    return random.Random(seed * 1_000_003 + index)


def analyse(
    spec: GameSpec,
    steps: Iterable[Step],
    seat: int,
    rater: Rater,
    *,
    seed: int = 0,
    total: int = 0,
    progress: bool = False,
    label: str = "",
) -> Analysis:
    """Rate every decision of ``seat`` among ``steps`` (``total`` of them, for the progress bar)."""
    moves: list[Rated] = []
    unrated = 0
    with Progress(total, label) if progress else _NoProgress() as bar:
        for index, state, action in steps:
            bar.advance()
            if state.current_player != seat:
                continue
            legal = state.legal_actions()
            values = rater.values(spec.observe(state, seat), legal, decision_rng(seed, index))
            if len(legal) < 2:
                continue
            if values is None or action not in values:
                unrated += 1
                continue
            best = max(values, key=lambda a: (values[a], a == action, -a))
            played, top = values[action], values[best]
            moves.append(
                Rated(
                    index,
                    spec.action_text(action),
                    spec.action_text(best),
                    played,
                    top,
                    mark(rater.thresholds, top - played),
                )
            )
    return Analysis(spec.name, seat, seed, rater.thresholds, tuple(moves), unrated)


def analyse_record(
    spec: GameSpec,
    record: GameRecord,
    seat: int,
    rater: Rater,
    *,
    seed: int = 0,
    progress: bool = False,
    lang: Lang = "en",
) -> Analysis:
    """:func:`analyse` over a whole record; a seat the record has not is a RequestError."""
    if type(seat) is not int or not 0 <= seat < record.players:
        raise RequestError(f"bad seat {seat!r}: the record's seats are 0-{record.players - 1}", field="seat")
    return analyse(
        spec,
        record_steps(spec, record),
        seat,
        rater,
        seed=seed,
        total=len(record.actions),
        progress=progress,
        label=say(lang, "coach.progress"),
    )


class _NoProgress:
    def advance(self, count: int = 1) -> None:
        pass

    def __enter__(self) -> _NoProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

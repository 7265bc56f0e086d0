"""Lessons that play (issue 31): short lessons on prepared deals, each teaching one thing, in both languages.

A game's lessons are data: ``koloda/lessons/<game>.toml`` holds the lessons (their deals, the learner's
seat, the moves), ``<game>.<lang>.toml`` their words. A lesson is one or more *parts*, each an explicit
deal (the engine's own ``from_deal``, through the registry: a game record with a ``deal``) with the
table's options; the other seats' moves are scripted (``before`` the first step, ``then`` after each of
the learner's moves). At each *step* the learner makes the move: the right one (``play``) moves the lesson
on; any other is refused, with the engine's own reason when the engine refuses it (the reason names the
rule: ``bank.why.*``, ``thousand.why.*``), or with the lesson's word for a legal move that is not the one
taught (``other``, which names the rule too). The lessons are checked when they are loaded
(:func:`lessons`): every deal sets up, every scripted move is legal, the learner is to move at each step,
each step's ``tries`` are refused, every word is there in both languages, and a step whose position
offers another legal move says why that one is not it.

>>> bank = lessons("bank")
>>> run = Run(bank[0])
>>> run.answer(run.parse("9H")).why("en")
'illegal action 9H: 9H does not cover KS (rule 4.3)'
>>> run.move(run.parse("QS")).ok, run.step_no
(True, 1)
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from koloda import registry, rules
from koloda.errors import KolodaError, NotFoundError, RecordError
from koloda.game import GameRecord, GameSpec, GameState, Observation
from koloda.i18n import LANGS, Lang, Msg, addressed

#: The games that have lessons.
GAMES = ("bank", "thousand")
#: The words a lesson says (its language files give each of them, in every language).
_LESSON_WORDS = ("title", "goal", "done")
#: The rule an engine's reason names ("... (rule 4.3)", "(rule G11, must_beat)").
_RULE_SAID = re.compile(r"\(rule ([A-Z]?\d+(?:\.\d+)?)\b")


@dataclass(frozen=True)
class Step:
    """One move of the learner: the right one, the wrong ones a test tries, the moves the page offers
    besides the legal ones (a bid above the cap, to be refused), the other seats' moves after it, and the
    rule it teaches."""

    play: str
    rule: str
    tries: tuple[str, ...] = ()
    offer: tuple[str, ...] = ()
    then: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """A deal of a lesson: the table's options, the explicit deal, the moves before the first step."""

    options: Mapping[str, Any]
    deal: Mapping[str, Any]
    steps: tuple[Step, ...]
    before: tuple[str, ...] = ()


@dataclass(frozen=True)
class Words:
    """A lesson's words in one language: its title, its one-line goal, what each step says (in order,
    over every part), what is said of another legal move at a step (by step, from 0), and the end."""

    title: str
    goal: str
    done: str
    steps: tuple[str, ...]
    other: Mapping[int, str]


@dataclass(frozen=True)
class Lesson:
    game: str
    id: str
    rule: str
    seat: int
    parts: tuple[Part, ...]
    words: Mapping[Lang, Words]
    names: Mapping[Lang, tuple[str, ...]] = field(default_factory=dict)

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every step, over every part, in order."""
        return tuple(step for part in self.parts for step in part.steps)


@dataclass(frozen=True)
class Answer:
    """What the lesson says to a move: right (``ok``), or why not (the engine's reason or the lesson's
    word, in every language) and the rule to read."""

    ok: bool
    rule: str
    reason: Mapping[Lang, str] = field(default_factory=dict)

    def why(self, lang: Lang) -> str:
        return self.reason.get(lang, "")

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "rule": self.rule, "why": dict(self.reason)}


class Run:
    """A lesson being played: the position of the current step, and the learner's moves judged."""

    def __init__(self, lesson: Lesson) -> None:
        self.lesson = lesson
        self.spec = registry.get(lesson.game)
        self.step_no = 0  # over every part
        self.part_no = 0
        self.before: list[tuple[int, str]] = []  # the other seats' moves before this part's first step
        self.after: list[tuple[int, str]] = []  # their moves after the learner's last one
        self.state = self._start(0)

    def _start(self, part_no: int) -> GameState:
        part = self.lesson.parts[part_no]
        deal = dict(part.deal)
        record = GameRecord(
            self.lesson.game, len(deal["hands"]), dict(part.options), (), deal=deal, scope="deal"
        )
        state = self.spec.replay(record)
        self.before = _others(state, part.before)
        return state

    @property
    def done(self) -> bool:
        return self.step_no >= len(self.lesson.steps)

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.step_no]

    @property
    def view(self) -> Observation:
        """What the learner sees now."""
        return self.spec.observe(self.state, self.lesson.seat)

    def parse(self, text: str) -> int:
        """A move as typed or as notation (NotationError when it is not one)."""
        return self.state.parse_action(text)

    def answer(self, action: int) -> Answer:
        """What the lesson says to ``action`` now, changing nothing."""
        step = self.step
        if action == self.state.parse_action(step.play):
            return Answer(True, step.rule)
        try:
            self.state.copy().apply(action)
        except KolodaError as exc:
            reason = addressed(exc.detail)
            said = {lang: reason.text(lang) if isinstance(reason, Msg) else str(reason) for lang in LANGS}
            found = _RULE_SAID.search(said["en"])
            return Answer(False, found.group(1) if found else step.rule, said)
        other = {lang: words.other.get(self.step_no, "") for lang, words in self.lesson.words.items()}
        return Answer(False, step.rule, other)

    def move(self, action: int) -> Answer:
        """Judge ``action``; the right one is played, then the other seats' moves, and the lesson goes on."""
        said = self.answer(action)
        if not said.ok:
            return said
        step = self.step
        self.state.apply(action)
        self.after = _others(self.state, step.then)
        self.step_no += 1
        if not self.done and self.step_no == sum(len(p.steps) for p in self.lesson.parts[: self.part_no + 1]):
            self.part_no += 1
            self.state = self._start(self.part_no)
        return said


def _others(state: GameState, moves: Sequence[str]) -> list[tuple[int, str]]:
    """Play the other seats' scripted moves; each with its seat."""
    played = []
    for text in moves:
        seat = state.current_player
        state.apply(state.parse_action(text))
        played.append((-1 if seat is None else seat, text))
    return played


# -- loading and checking ------------------------------------------------------------------------------


def _read(name: str) -> dict[str, Any]:
    try:
        text = resources.files(__name__).joinpath(name).read_text(encoding="utf-8")
        return tomllib.loads(text)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise RecordError(f"lessons: {name}: {exc}") from None


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise RecordError(f"{where} must be a list of moves (strings), not {value!r}")
    return tuple(value)


def _table(value: object, where: str, keys: set[str], required: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be a table, not {value!r}")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise RecordError(f"{where}: unknown key {unknown[0]!r}; known keys: {', '.join(sorted(keys))}")
    missing = sorted(required - set(value))
    if missing:
        raise RecordError(f"{where}: {missing[0]!r} is missing")
    return value


def _step(data: object, where: str) -> Step:
    table = _table(data, where, {"play", "rule", "try", "offer", "then"}, {"play", "rule"})
    if not isinstance(table["play"], str) or not isinstance(table["rule"], str):
        raise RecordError(f"{where}: 'play' and 'rule' must be strings")
    return Step(
        table["play"],
        table["rule"],
        _strings(table.get("try", []), f"{where}.try"),
        _strings(table.get("offer", []), f"{where}.offer"),
        _strings(table.get("then", []), f"{where}.then"),
    )


def _part(data: object, where: str) -> Part:
    table = _table(data, where, {"options", "deal", "before", "step"}, {"deal", "step"})
    steps = table["step"]
    if not isinstance(steps, list) or not steps:
        raise RecordError(f"{where}: a part has one step or more")
    options = table.get("options", {})
    if not isinstance(options, dict) or not isinstance(table["deal"], dict):
        raise RecordError(f"{where}: 'options' and 'deal' must be tables")
    return Part(
        options,
        table["deal"],
        tuple(_step(step, f"{where}.step[{i}]") for i, step in enumerate(steps)),
        _strings(table.get("before", []), f"{where}.before"),
    )


def _words(data: object, lesson: str, steps: int, where: str) -> Words:
    table = _table(data, where, {*_LESSON_WORDS, "steps", "other"}, {*_LESSON_WORDS, "steps"})
    said = table["steps"]
    if not isinstance(said, list) or len(said) != steps or not all(isinstance(s, str) and s for s in said):
        raise RecordError(f"{where}: 'steps' must say each of the lesson's {steps} steps")
    other: dict[int, str] = {}
    for key, text in _table(
        table.get("other", {}), f"{where}.other", set(map(str, range(1, steps + 1))), set()
    ).items():
        if not isinstance(text, str) or not text:
            raise RecordError(f"{where}.other.{key} must be a text")
        other[int(key) - 1] = text
    for key in _LESSON_WORDS:
        if not isinstance(table[key], str) or not table[key]:
            raise RecordError(f"{where}: {key!r} must be a text")
    return Words(table["title"], table["goal"], table["done"], tuple(said), other)


def _names(data: object, where: str) -> tuple[str, ...]:
    if not isinstance(data, list) or not all(isinstance(name, str) and name for name in data):
        raise RecordError(f"{where} must be a list of names")
    return tuple(data)


@functools.cache
def lessons(game: str) -> tuple[Lesson, ...]:
    """The lessons of ``game``, read and checked (RecordError says what is wrong, and where)."""
    if game not in GAMES:
        raise NotFoundError(f"no lessons of {game!r}: there are lessons of {', '.join(GAMES)}")
    data = _table(_read(f"{game}.toml"), f"{game}.toml", {"lesson"}, {"lesson"})
    words = {lang: _read(f"{game}.{lang}.toml") for lang in LANGS}
    names = {lang: _names(words[lang].pop("names", None), f"{game}.{lang}.toml: names") for lang in LANGS}
    out = []
    seen: set[str] = set()
    for i, raw in enumerate(data["lesson"]):
        table = _table(
            raw, f"{game}.toml: lesson[{i}]", {"id", "rule", "seat", "part"}, {"id", "rule", "seat", "part"}
        )
        lesson_id, where = table["id"], f"{game}.toml: lesson {table['id']!r}"
        if (
            not isinstance(lesson_id, str)
            or not re.fullmatch(r"[a-z][a-z0-9-]*", lesson_id)
            or lesson_id in seen
        ):
            raise RecordError(
                f"{game}.toml: lesson[{i}]: 'id' must be a new word of a-z, 0-9 and -, not {lesson_id!r}"
            )
        seen.add(lesson_id)
        if not isinstance(table["part"], list) or not table["part"]:
            raise RecordError(f"{where}: a lesson has one part or more")
        parts = tuple(_part(part, f"{where}.part[{j}]") for j, part in enumerate(table["part"]))
        count = sum(len(part.steps) for part in parts)
        said = {
            lang: _words(words[lang].get(lesson_id), lesson_id, count, f"{game}.{lang}.toml: [{lesson_id}]")
            for lang in LANGS
        }
        lesson = Lesson(game, lesson_id, table["rule"], table["seat"], parts, said, names)
        check(lesson)
        out.append(lesson)
    for lang in LANGS:
        extra = sorted(set(words[lang]) - seen)
        if extra:
            raise RecordError(f"{game}.{lang}.toml: [{extra[0]}] is no lesson's")
    return tuple(out)


def check(lesson: Lesson) -> None:
    """Play ``lesson`` through (RecordError names the step where it goes wrong): the learner is to move at
    each step, the right move and the scripted ones are legal, each try is refused with a reason that
    names a rule, and another legal move has the lesson's word."""
    spec = registry.get(lesson.game)
    where = f"lesson {lesson.game}/{lesson.id}"
    if type(lesson.seat) is not int:
        raise RecordError(f"{where}: 'seat' must be a seat number")
    for part in lesson.parts:
        spec.options_class.from_mapping(part.options)  # the options' own message when they are wrong
    known = set(rules.page(lesson.game, "en").rules)
    for rule in (lesson.rule, *(step.rule for step in lesson.steps)):
        if rule not in known:
            raise RecordError(f"{where}: rule {rule!r} is not a rule of the {lesson.game} rules")
    names = {lang: len(found) for lang, found in lesson.names.items()}
    if len(set(names.values())) > 1:
        raise RecordError(f"lesson {lesson.game}: the names differ in number between languages: {names}")
    try:
        run = Run(lesson)
    except KolodaError as exc:
        raise RecordError(f"{where}: the first part does not set up: {exc}") from None
    while not run.done:
        at = f"{where}, step {run.step_no + 1}"
        if run.state.current_player != lesson.seat:
            raise RecordError(
                f"{at}: seat {run.state.current_player} is to move, not the learner's {lesson.seat}"
            )
        legal = run.state.legal_actions()
        try:
            right = run.parse(run.step.play)
            tries = [run.parse(text) for text in (*run.step.tries, *run.step.offer)]
        except KolodaError as exc:
            raise RecordError(f"{at}: {exc}") from None
        if right not in legal:
            raise RecordError(f"{at}: the right move {run.step.play!r} is not legal here")
        for text, action in zip((*run.step.tries, *run.step.offer), tries, strict=True):
            said = run.answer(action)
            if said.ok or not all(said.why(lang) for lang in LANGS):
                raise RecordError(f"{at}: {text!r} is not refused with a reason in every language")
        if len(legal) > 1 and not all(words.other.get(run.step_no) for words in lesson.words.values()):
            raise RecordError(
                f"{at}: other moves are legal here, so the lesson must say why not them ('other')"
            )
        try:
            run.move(right)
        except KolodaError as exc:
            raise RecordError(f"{at}: a scripted move is not legal: {exc}") from None


def lesson(game: str, lesson_id: str) -> Lesson:
    """One lesson by its id (NotFoundError names the lessons there are)."""
    found = {item.id: item for item in lessons(game)}
    if lesson_id not in found:
        raise NotFoundError(f"no lesson {lesson_id!r} of {game}; the lessons: {', '.join(found)}")
    return found[lesson_id]


def specs() -> list[GameSpec]:
    """The registered games that have lessons."""
    return [spec for spec in registry.games() if spec.name in GAMES]

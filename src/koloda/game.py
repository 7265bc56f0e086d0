"""The game protocol every koloda card game follows, and the game record that replays a game.

See ``docs/api.md`` for the prose version and ``docs/architecture.md`` for where it sits. A game is a
package (``koloda.bank``, ``koloda.thousand``) whose state follows :class:`GameState`, whose
observations derive from :class:`Observation`, and which is registered in :mod:`koloda.registry` by a
:class:`koloda.registry.GameSpec`: construction, replay, observation, notation and bots.

Actions are ints in a fixed, documented action space of the game (fast to generate and compare, and the
same ids the research interfaces use); ``state.action_text(a)`` and ``state.parse_action(text)`` give the
canonical text notation, which parses back to the same action.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self, TypeVar

from koloda.bots.base import LEVELS, Bot, BotSpec, Fault, GuardedBot, RandomBot, parse_spec
from koloda.cards import Card, Suit
from koloda.errors import IllegalActionError, KolodaError, OptionsError, RecordError, RequestError
from koloda.i18n import Lang
from koloda.options import Options
from koloda.records import RECORD_VERSION, upgrade
from koloda.seeds import Seed, check
from koloda.term import track

if TYPE_CHECKING:
    from koloda.tensor import TensorEncoder

Scope = Literal["deal", "match"]


class GameState(Protocol):
    """What every game state offers. States are mutable for speed; :meth:`copy` is cheap.

    What a seat may see is not here: ``observe(state, seat)`` of the game (through its
    :class:`koloda.registry.GameSpec`) is the only view of a state that crosses to bots, interfaces and
    the network.
    """

    @property
    def players(self) -> int:
        """The number of seats."""
        ...

    @property
    def current_player(self) -> int | None:
        """The seat to act, or ``None`` when the game is over."""
        ...

    @property
    def version(self) -> int:
        """The number of actions applied so far (the web's table version)."""
        ...

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act, in ascending id order (empty when over)."""
        ...

    def apply(self, action: int) -> None:
        """Play an action; an illegal one raises IllegalActionError saying why and changes nothing."""
        ...

    def is_over(self) -> bool: ...

    def returns(self) -> list[int]:
        """Points per seat so far: this deal's for scope "deal", the match totals for scope "match"."""
        ...

    def action_text(self, action: int) -> str: ...

    def parse_action(self, text: str) -> int:
        """Canonical text (or a friendly alias) to an action id; NotationError when malformed."""
        ...

    def copy(self) -> Self: ...

    def record(self, meta: Mapping[str, Any] | None = None) -> GameRecord:
        """Everything played so far as a record (``meta``: names, dates; never affects play)."""
        ...


@dataclass(frozen=True, kw_only=True)
class Observation:
    """The header of every game's observation: who looks, and where the game stands.

    ``seat`` is ``None`` for a spectator's view (only public facts). A game's observation class derives
    from this one and adds its own fields; :meth:`to_json` serialises any of them.
    """

    seat: int | None
    players: int
    deal: int  # the number of the deal being played (from 1), or of the last one once over
    phase: str
    current_player: int | None
    version: int  # actions applied so far
    legal_actions: tuple[int, ...]  # the seat's own legal actions; empty when it is not its turn

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: cards as canonical text, suits as letters, tuples as lists."""
        data: dict[str, Any] = jsonable(self)
        return data


def jsonable(value: Any) -> Any:
    """Observation values to JSON values: cards as canonical text, suits as letters, dataclasses as dicts.

    >>> jsonable((Card.parse("10H"), Suit.SPADES, {"a": (1, 2)}))
    ['10H', 'S', {'a': [1, 2]}]
    """
    # Dispatch on the exact type first: the web app turns every observation it sends into JSON, and a
    # chain of isinstance and is_dataclass tests cost 1 us a value (270 us a Bank observation).
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple or kind is list:
        return [item if type(item) in _PLAIN else jsonable(item) for item in value]
    names = _FIELDS.get(kind)
    if names is not None:
        return {name: jsonable(getattr(value, name)) for name in names}
    if kind is Card:
        return str(value)
    if isinstance(value, Suit):
        return value.letter
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        _FIELDS[kind] = tuple(field.name for field in dataclasses.fields(value))
        return jsonable(value)
    if isinstance(value, (tuple, list)):
        return [jsonable(item) for item in value]
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    return value


_PLAIN = frozenset({int, str, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass's field names, read once


@dataclass(frozen=True)
class Dealt:
    """How a deal was dealt, in public facts: the label of its stream of the seed (koloda.seeds), the
    dealer, and the seats dealt to (in seat order). With the seed, the game's deal function gives every
    hand: ``koloda verify`` and the page's check (``static/fair.js``) recompute them so."""

    label: str
    dealer: int
    seats: tuple[int, ...]


@dataclass(frozen=True)
class GameRecord:
    """Options, the deal's origin (a seed or an explicit deal) and the actions: enough to replay.

    The JSON form is ``{"game", "version", "players", "scope", "options", "seed" | "deal", "actions"}``
    with actions in canonical text notation; ``meta`` is free-form (names, dates) and never affects play.
    A record of an older version is read in the current version's terms (:mod:`koloda.records`), so it
    replays as it did when it was made.
    """

    game: str
    players: int
    options: dict[str, Any]
    actions: tuple[str, ...]
    seed: Seed | None = None  # a secret or a number (koloda.seeds)
    deal: dict[str, Any] | None = None
    scope: Scope = "match"
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "version": RECORD_VERSION,
            "players": self.players,
            "scope": self.scope,
            "options": self.options,
        }
        if self.seed is not None:
            data["seed"] = self.seed
        if self.deal is not None:
            data["deal"] = self.deal
        data["actions"] = list(self.actions)
        if self.meta:
            data["meta"] = self.meta
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps() + "\n", encoding="utf-8")

    @classmethod
    def from_json(cls, data: Any, *, game: str | None = None) -> GameRecord:
        """Validate the shape of a record (not its moves: replaying does that)."""
        if not isinstance(data, dict):
            raise RecordError("a game record must be a JSON object")
        known = {"game", "version", "players", "scope", "options", "seed", "deal", "actions", "meta"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RecordError(
                f"unknown key {unknown[0]!r} in game record; known keys: {', '.join(sorted(known))}"
            )
        name = _get(data, "game", str)
        if game is not None and name != game:
            raise RecordError(f"this is a record of {name!r}, not of {game!r}")
        version = data.get("version", RECORD_VERSION)
        if type(version) is not int or not 1 <= version <= RECORD_VERSION:
            raise RecordError(
                f"unsupported record version {version!r} (this koloda reads 1-{RECORD_VERSION})"
            )
        data = upgrade(data)  # an older record in this version's terms (koloda.records)
        players = _get(data, "players", int)
        scope = data.get("scope", "match")
        if scope not in ("deal", "match"):
            raise RecordError(f"bad scope {scope!r}: expected 'deal' or 'match'")
        options = data.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("'options' must be a JSON object")
        actions = _get(data, "actions", list)
        bad = [a for a in actions if not isinstance(a, str)]
        if bad:
            raise RecordError(f"every action must be a string of notation, not {bad[0]!r}")
        seed, deal = data.get("seed"), data.get("deal")
        if (seed is None) == (deal is None):
            raise RecordError("a game record needs exactly one of 'seed' and 'deal'")
        if seed is not None:
            seed = check(seed, "'seed'")
        if deal is not None and not isinstance(deal, dict):
            raise RecordError("'deal' must be a JSON object")
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("'meta' must be a JSON object")
        return cls(name, players, options, tuple(actions), seed, deal, scope, meta)

    @classmethod
    def loads(cls, text: str, *, game: str | None = None) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
        return cls.from_json(data, game=game)

    @classmethod
    def load(cls, path: str | Path, *, game: str | None = None) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {str(path)!r}: {exc}") from None
        try:
            return cls.loads(text, game=game)
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None


def _get(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise RecordError(f"game record has no {key!r}")
    value = data[key]
    wrong = type(value) is not int if kind is int else not isinstance(value, kind)  # bool is not an int here
    if wrong:
        raise RecordError(f"{key!r} must be {kind.__name__}, not {value!r}")
    return value


def check_seat(state: GameState, seat: object) -> int | None:
    """``seat`` as a seat of this table, or None for a spectator; RequestError for anything else."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < state.players):
        raise RequestError(f"bad seat {seat!r}: seats are 0-{state.players - 1}", field="seat")
    return seat


def apply_as(state: GameState, seat: int | None, action: int) -> None:
    """Play ``action`` on behalf of ``seat``: IllegalActionError, and nothing changed, when it is not that
    seat's turn (or not a legal action; the engine says why)."""
    turn = state.current_player
    if seat != turn:
        try:
            shown = repr(state.action_text(action))
        except KolodaError:
            shown = repr(action)
        where = "the game is over" if turn is None else f"it is seat {turn}'s turn"
        raise IllegalActionError(f"{shown} (action {action!r}) is refused: {where}, not seat {seat}'s")
    state.apply(action)


def replay_actions(state: GameState, actions: Sequence[str]) -> None:
    """Apply recorded actions in order; a bad one raises RecordError naming its number and text."""
    for number, text in enumerate(actions, start=1):
        try:
            state.apply(state.parse_action(text))
        except KolodaError as exc:
            raise RecordError(f"action {number} {text!r} does not replay: {exc}") from None


# -- the spec of a game ------------------------------------------------------------------------------

OptionsT = TypeVar("OptionsT", bound=Options)
StateT = TypeVar("StateT")


class GameSpec(ABC):
    """Everything a front end needs to offer one game.

    Subclasses set the class attributes and implement the abstract methods; the other methods have
    defaults that any game can keep (the toy game of the tests keeps them all).
    """

    name: ClassVar[str]  # the id in records, URLs and commands: lowercase ASCII
    titles: ClassVar[Mapping[Lang, str]]  # the game's name for people, per language
    player_counts: ClassVar[tuple[int, ...]]  # the numbers of seats it is played by
    default_players: ClassVar[int]
    options_class: ClassVar[type[Options]]
    #: Level name (:data:`koloda.bots.LEVELS`) -> bot spec (docs/bots.md): "random", "heuristic", "search"...
    levels: ClassVar[Mapping[str, str]] = {"easy": "random", "medium": "random", "hard": "random"}

    # -- construction --------------------------------------------------------------------------------

    @abstractmethod
    def new_game(
        self, options: Options | None = None, *, players: int, seed: Seed, scope: Scope = "match"
    ) -> GameState:
        """A new game; every shuffle comes from ``seed`` (a secret or a number: koloda.seeds)."""

    @abstractmethod
    def replay(self, record: GameRecord) -> GameState:
        """The state a record describes (RecordError naming the first action that does not replay)."""

    def options(self, preset: str | None = "default", assignments: Iterable[str] = ()) -> Options:
        """Options from a preset name and ``key=value`` strings (the command line's and the web's form)."""
        return self.options_class.preset(preset or "default").with_assignments(assignments)

    @property
    def counts_text(self) -> str:
        """The player counts for people: ``2-4``, or ``3, 5`` when they are not a range."""
        low, high = min(self.player_counts), max(self.player_counts)
        if self.player_counts == tuple(range(low, high + 1)):
            return f"{low}-{high}" if high > low else str(low)
        return ", ".join(map(str, self.player_counts))

    def check_players(self, players: object) -> int:
        """``players`` if the game is played by that many, else OptionsError saying who plays it."""
        if type(players) is not int or players not in self.player_counts:
            counts = ", ".join(map(str, self.player_counts))
            raise OptionsError(f"{self.name} is played by {counts} players, not {players!r}", field="players")
        return players

    # -- what a seat sees, and notation --------------------------------------------------------------

    @abstractmethod
    def observe(self, state: GameState, seat: int | None) -> Observation:
        """What ``seat`` may see of ``state`` and nothing else; ``None``: a spectator (public facts)."""

    def public_view(self, state: GameState) -> Observation:
        """What a spectator may see: the observation of no seat (public facts only)."""
        return self.observe(state, None)

    @abstractmethod
    def redeal_hidden(self, state: GameState, seat: int | None, rng: random.Random) -> GameState:
        """A copy of ``state`` whose cards hidden from ``seat`` are dealt again at random among the places
        ``seat`` cannot see: ``seat``'s observation must not change (the conformance suite's leak test)."""

    def dealt(self, state: GameState) -> Dealt | None:
        """How the deal being played was dealt, in public facts (koloda.verify recomputes it from a
        revealed secret): None while nothing is dealt, or for a deal laid out explicitly."""
        return None

    @abstractmethod
    def audit(self, state: GameState) -> list[str]:
        """What is wrong with a position, in words (empty when nothing): the game's conservation laws,
        such as every card in exactly one place. Random playouts check it after every action."""

    @abstractmethod
    def action_text(self, action: int) -> str:
        """The canonical text of an action id (the same in every position)."""

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """Text to an action id; NotationError when malformed."""

    def action_words(self, action: int, lang: Lang) -> str:
        """An action as a person reads and types it in ``lang`` (what the terminal and the coach print: in
        Russian no Latin card codes or English words); by default its canonical text."""
        return self.action_text(action)

    # -- bots ------------------------------------------------------------------------------------------

    def bot(self, spec: str | BotSpec, seed: int, options: Options | None = None) -> Bot:
        """A bot from a level (:attr:`levels`) or a spec such as ``search:iters=200``, seeded; ``options``
        are the game's (public agreements a search needs to simulate the rest of the deal)."""
        parsed = spec if isinstance(spec, BotSpec) else parse_spec(spec, self.levels)
        if parsed.kind == "random":
            return RandomBot(seed)
        return self.make_bot(parsed, seed, options)

    def guarded_bot(
        self,
        level: str,
        seed: int,
        options: Options | None = None,
        *,
        seconds: float | None = None,
        on_fault: Callable[[Fault], None] | None = None,
    ) -> GuardedBot:
        """The bot of ``level`` guarded by the levels below it and then a random legal move: a bot that
        raises, returns an illegal action or takes more than ``seconds`` is recorded (``on_fault``) and the
        next one plays that move (docs/bots.md, "Bots that misbehave")."""
        names = tuple(LEVELS)
        below = names[: names.index(level)] if level in names else names
        chain = [(name, self.bot(name, seed, options)) for name in (level, *reversed(below))]
        return GuardedBot(chain, seed=seed, seconds=seconds, on_fault=on_fault)

    def make_bot(self, spec: BotSpec, seed: int, options: Options | None) -> Bot:
        """The game's own bots (``heuristic``, ``search``); a game without them refuses the spec."""
        raise OptionsError(f"bad bot spec {str(spec)!r}: {self.name} has only the random bot")

    # -- what front ends print ----------------------------------------------------------------------

    def simulate(
        self, options: Options, *, players: int, deals: int, seed: int, progress: bool = False
    ) -> dict[str, Any]:
        """Random bots play ``deals`` single deals (deal ``i`` shuffled from ``seed + i``): figures."""
        if type(deals) is not int or deals < 1:
            raise RequestError(f"--deals must be at least 1, not {deals!r}", field="deals")
        self.check_players(players)
        rng = random.Random(seed)
        sums = [0] * players
        actions = 0
        start = time.perf_counter()
        items = range(deals)
        for i in track(items, deals, "deals") if progress else items:
            state = self.new_game(options, players=players, seed=seed + i, scope="deal")
            while not state.is_over():
                legal = state.legal_actions()
                state.apply(legal[rng.randrange(len(legal))])
                actions += 1
            for p, points in enumerate(state.returns()):
                sums[p] += points
        return {
            "game": self.name,
            "players": players,
            "seed": seed,
            "deals": deals,
            "actions": actions,
            "actions_per_deal": actions / deals,
            "mean_points": [s / deals for s in sums],
            "seconds": time.perf_counter() - start,
        }

    def simulate_lines(self, figures: Mapping[str, Any]) -> list[str]:
        """The figures of :meth:`simulate` for people."""
        means = ", ".join(f"{m:.1f}" for m in figures["mean_points"])
        return [
            f"deals played: {figures['deals']}",
            f"actions taken: {figures['actions']} ({figures['actions_per_deal']:.1f} a deal)",
            f"mean points per seat: {means}",
        ]

    #: What ``koloda <game> simulate`` calls a whole game: ``games`` (``--games N``) or ``matches``.
    match_name: ClassVar[str] = "games"

    def match_figures(self, state: GameState) -> dict[str, Any]:
        """The game's own counts of one simulated game (``koloda.simulate``), summed over the games: ints,
        or dicts of ints; none by default."""
        return {}

    def match_lines(self, figures: Mapping[str, Any], lang: Lang) -> list[str]:
        """The game's own figures of simulated games (:meth:`match_figures`, summed) for people."""
        return []

    def replay_summary(self, state: GameState, lang: Lang) -> str:
        """What ``koloda <game> replay`` prints: the result of a replayed record."""
        returns = " ".join(map(str, state.returns()))
        if state.is_over():
            return f"{self.titles[lang]}: {returns}"
        return f"{self.titles[lang]}: {returns} (seat {state.current_player} to move)"

    def scores(self, state: GameState, names: Sequence[str]) -> dict[str, Any]:
        """The score table the web shows beside a table (public facts only): by default the returns."""
        return {"names": list(names), "returns": state.returns()}

    # -- research interfaces (docs/rl.md) --------------------------------------------------------------

    num_actions: ClassVar[int] = 0  # the size of the fixed action space (0: the game declares none)

    def encoder(self) -> TensorEncoder:
        """The game's observation tensor (needs NumPy); a game without one offers no research interface."""
        raise OptionsError(f"{self.name} has no observation tensor for the research interfaces")

    def deals_played(self, state: GameState) -> int:
        """How many deals have ended (a research episode's rewards come deal by deal)."""
        return int(state.is_over())

    def deal_scores(self, state: GameState, index: int) -> Sequence[int]:
        """The points per seat of deal ``index`` (from 0)."""
        return state.returns()

    def deal_declarer(self, state: GameState, index: int) -> tuple[int, bool | None] | None:
        """Who declared deal ``index`` (from 0) and whether his contract was made (None: not played, a
        bomb); None for a game without declarers (koloda.bots.matches counts every deal as defence)."""
        return None

    def names_contract(self, state: GameState, action: int) -> bool:
        """Whether ``action``, at this state, names the contract the declarer will play (not a bomb)."""
        return False

    def winner(self, state: GameState) -> int | None:
        """The seat that won a finished game: by default the one with the most points, if only one."""
        if not state.is_over():
            return None
        points = state.returns()
        best = max(points)
        return points.index(best) if points.count(best) == 1 else None

    def add_commands(self, commands: Any) -> None:  # noqa: B027 (a hook: most games add nothing)
        """Add the game's own terminal commands (``play``...) to ``koloda <game>``; none by default."""

    def rater(self, options: Options, **settings: Any) -> Any:
        """The coach's rater of this game (a ``koloda.coach.Rater``: docs/analysis.md) under ``options``, its
        settings (how many worlds...) as given; None when the game has no coach (the default)."""
        return None

    # -- helpers for subclasses -----------------------------------------------------------------------

    def own_state(self, state: GameState, cls: type[StateT]) -> StateT:
        """``state`` as this game's state class; RequestError for another game's state."""
        if not isinstance(state, cls):
            raise RequestError(f"a {type(state).__name__} is not a state of {self.name}")
        return state

    def own_options(self, options: Options | None, cls: type[OptionsT]) -> OptionsT | None:
        """``options`` as this game's options class (None stays None); OptionsError for another game's."""
        if options is not None and not isinstance(options, cls):
            raise OptionsError(f"{type(options).__name__} are not options of {self.name}")
        return options

    def load_record(self, text: str) -> GameState:
        """A JSON record of this game, replayed (RecordError for anything wrong with it)."""
        try:
            record = GameRecord.from_json(json.loads(text), game=self.name)
        except json.JSONDecodeError as exc:
            raise RecordError(f"not valid JSON: {exc.msg}") from None
        return self.replay(record)

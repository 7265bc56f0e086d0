"""Bots: a bot sees only ``observe(state, seat)`` and the legal actions, and returns one of them.

This module is the game-independent part: the :class:`Bot` interface, the random bot, and bot specs.
A spec is a name with optional ``:key=value`` settings: ``random``, ``heuristic``, ``search``,
``search:iters=200``, ``search:ms=50``, ``heuristic:noise=0.2``, or a level (``easy`` / ``medium`` /
``hard``) that a game maps to a spec (``GameSpec.levels``, docs/bots.md). Bad specs raise
:class:`koloda.errors.OptionsError` naming the spec and what is wrong.

>>> bot = RandomBot(seed=1)
>>> bot.choose(None, [3, 5, 8]) in (3, 5, 8)
True
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from koloda.errors import IllegalActionError, OptionsError

KINDS = ("random", "heuristic", "search")
#: The levels people choose from, weakest first, as specs where a game does not say otherwise (a game's
#: spec may map them to other specs: ``GameSpec.levels``; docs/bots.md, "Levels").
LEVELS: Mapping[str, str] = {"easy": "heuristic:noise=0.3", "medium": "heuristic", "hard": "search:iters=50"}


class Bot(Protocol):
    """The one bot interface: deterministic for a given seed, never shown hidden cards."""

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int: ...


class RandomBot:
    """Picks uniformly among the legal actions from its own seeded random stream."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise IllegalActionError("no legal action to choose from: the game is over")
        return legal_actions[self._rng.randrange(len(legal_actions))]


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: the kind of bot and its budget.

    ``iters`` is the number of sampled-world playouts per decision of a search bot (deterministic);
    ``ms`` is a time budget per decision instead (faster or slower machines then play differently, so
    results are reproducible only with ``iters``); ``noise`` is the share of uniformly random moves of a
    heuristic bot; ``endgame`` is the number of cards per hand from which Thousand's trick play is solved
    exactly in every sampled world; ``margin`` is how many standard errors the search's best move must
    beat the heuristic's move by to be played (``None``: the game's default, see docs/bots.md);
    ``samples`` is the number of talons Thousand's bots draw to value a bid, ``talon`` the number of
    worlds per candidate in which they play the deal out to choose the gifts and the contract (0: by the
    estimator alone); ``version`` names an older generation of a game's bots kept for tournaments
    (Thousand: ``2026-11``).
    """

    kind: str
    iters: int = 100
    ms: int | None = None
    noise: float = 0.0
    endgame: int = 3
    margin: float | None = None
    samples: int = 24
    talon: int = 0
    version: str | None = None

    def __str__(self) -> str:
        defaults = BotSpec(self.kind)
        parts = [self.kind]
        for field in dataclasses.fields(self)[1:]:
            value = getattr(self, field.name)
            if value != getattr(defaults, field.name):
                parts.append(f"{field.name}={value}")
        return ":".join(parts)


_TYPE_NAMES = defaultdict(lambda: "int", {"noise": "float", "margin": "float", "version": "str"})


def parse_spec(spec: str, levels: Mapping[str, str] = LEVELS) -> BotSpec:
    """Read a spec string, or a level name of ``levels`` (a game's level -> spec table), into a
    :class:`BotSpec`.

    >>> parse_spec("search:iters=200")  # doctest: +ELLIPSIS
    BotSpec(kind='search', iters=200, ms=None, noise=0.0, endgame=3, margin=None, samples=24, talon=0, ...)
    >>> parse_spec("hard", {"hard": "search:iters=100"}).iters
    100
    >>> parse_spec("search:iterz=3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    koloda.errors.OptionsError: bad bot spec 'search:iterz=3': unknown setting 'iterz' (known: endgame, ...)
    """
    if not isinstance(spec, str) or not spec.strip():
        raise OptionsError(f"bad bot spec {spec!r}: expected a name such as random, heuristic, search, hard")
    name = spec.strip()
    text = levels.get(name, name)
    name, *settings = text.split(":")
    if name not in KINDS:
        names = ", ".join((*KINDS, *levels))
        raise OptionsError(f"bad bot spec {spec!r}: unknown bot {name!r} (known: {names})")
    values: dict[str, Any] = {}
    known: dict[str, Callable[[str], Any]] = {
        "iters": int,
        "ms": int,
        "noise": float,
        "endgame": int,
        "margin": float,
        "samples": int,
        "talon": int,
        "version": str,
    }
    for setting in settings:
        key, eq, raw = setting.partition("=")
        if not eq:
            raise OptionsError(f"bad bot spec {spec!r}: setting {setting!r} is not key=value")
        if key not in known:
            raise OptionsError(
                f"bad bot spec {spec!r}: unknown setting {key!r} (known: {', '.join(sorted(known))})"
            )
        try:
            values[key] = known[key](raw)
        except ValueError:
            raise OptionsError(
                f"bad bot spec {spec!r}: {key} must be a number ({_TYPE_NAMES[key]}), not {raw!r}"
            ) from None
    parsed = BotSpec(name, **values)
    if parsed.iters < 1 or (parsed.ms is not None and parsed.ms < 1):
        raise OptionsError(f"bad bot spec {spec!r}: iters and ms must be at least 1")
    if not 0.0 <= parsed.noise <= 1.0:
        raise OptionsError(f"bad bot spec {spec!r}: noise is a share from 0 to 1, not {parsed.noise}")
    if not 0 <= parsed.endgame <= 8:
        raise OptionsError(f"bad bot spec {spec!r}: endgame is 0 (off) to 8 cards, not {parsed.endgame}")
    if parsed.samples < 1 or parsed.talon < 0:
        raise OptionsError(f"bad bot spec {spec!r}: samples must be at least 1 and talon at least 0")
    if parsed.margin is not None and parsed.margin < 0:
        raise OptionsError(f"bad bot spec {spec!r}: margin must not be negative, not {parsed.margin}")
    if name != "search" and (parsed.iters != 100 or parsed.ms is not None):
        raise OptionsError(f"bad bot spec {spec!r}: only a search bot has a budget (iters, ms)")
    return parsed


# -- bots that misbehave -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    """One misbehaviour of a bot: which bot, what it did (``raised``, ``illegal``, ``overran``), and the
    detail (the exception, the action returned, the seconds taken)."""

    bot: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"bot {self.bot} {self.kind}: {self.detail}"


class GuardedBot:
    """A bot with fallbacks, so that a table always gets a legal move and never waits for ever.

    ``chain`` is (name, bot) pairs, the preferred bot first (a game's level, then the levels below it).
    Each bot is asked in turn; one that raises, returns an action that is not legal, or takes more than
    ``seconds`` (of ``clock``) is recorded in :attr:`faults` (and handed to ``on_fault``), and the next one
    is asked.
    When every bot has failed, a random legal action from the guard's own seeded stream is played.

    >>> class Broken:
    ...     def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
    ...         return 99
    >>> guard = GuardedBot([("broken", Broken())], seed=1)
    >>> guard.choose(None, [3, 5]) in (3, 5), [f.kind for f in guard.faults]
    (True, ['illegal'])
    """

    def __init__(
        self,
        chain: Sequence[tuple[str, Bot]],
        *,
        seed: int = 0,
        seconds: float | None = None,
        on_fault: Callable[[Fault], None] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self._chain = list(chain)
        self._last = RandomBot(seed)
        self._seconds = seconds
        self._clock = clock
        self._on_fault = on_fault
        self.faults: list[Fault] = []

    @property
    def names(self) -> tuple[str, ...]:
        """The bots asked in turn, preferred first (a random legal action comes after the last)."""
        return tuple(name for name, _ in self._chain)

    def _fault(self, name: str, kind: str, detail: str) -> None:
        fault = Fault(name, kind, detail)
        self.faults.append(fault)
        if self._on_fault is not None:
            self._on_fault(fault)

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        legal = list(legal_actions)
        if not legal:
            raise IllegalActionError("no legal action to choose from: the game is over")
        for name, bot in self._chain:
            start = self._clock()
            try:
                action = bot.choose(observation, list(legal))
            except Exception as exc:  # any bug of a bot: recorded, and the next bot moves
                self._fault(name, "raised", f"{type(exc).__name__}: {exc}")
                continue
            took = self._clock() - start
            if self._seconds is not None and took > self._seconds:
                self._fault(name, "overran", f"{took:.2f} s for a move (the limit is {self._seconds:g} s)")
            elif type(action) is not int or action not in legal:
                self._fault(
                    name, "illegal", f"returned {action!r}, not one of the {len(legal)} legal actions"
                )
            else:
                return action
        return self._last.choose(observation, legal)

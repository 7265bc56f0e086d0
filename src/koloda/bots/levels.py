"""Bot specs, levels and the factory ``make_bot(game, spec, seed)``.

A spec is a name with optional ``:key=value`` settings: ``random``, ``heuristic``, ``search``,
``search:iters=200``, ``search:ms=50``, ``heuristic:noise=0.2``, or a level ``easy`` / ``medium`` /
``hard``. Bad specs raise :class:`koloda.errors.OptionsError` naming the spec and what is wrong.

>>> parse_spec("search:iters=200")
BotSpec(kind='search', iters=200, ms=None, noise=0.0, endgame=3, margin=None)
>>> parse_spec("hard").kind, parse_spec("easy").noise
('search', 0.3)
>>> parse_spec("search:iterz=3")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
koloda.errors.OptionsError: bad bot spec 'search:iterz=3': unknown setting 'iterz' (known: endgame, ...)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from koloda.bots.base import Bot, RandomBot
from koloda.errors import OptionsError

GAMES = ("bank", "thousand")
KINDS = ("random", "heuristic", "search")

#: The levels the terminal and the web offer, as specs (docs/bots.md: "Levels").
LEVELS: dict[str, str] = {
    "easy": "heuristic:noise=0.3",
    "medium": "heuristic",
    "hard": "search:iters=50",
}
#: Where a game's level differs: Bank's search needs more playouts to beat its heuristic (performance.md).
GAME_LEVELS: dict[str, dict[str, str]] = {"bank": {"hard": "search:iters=100"}}


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec: the kind of bot and its budget.

    ``iters`` is the number of sampled-world playouts per decision of a search bot (deterministic);
    ``ms`` is a time budget per decision instead (faster or slower machines then play differently, so
    results are reproducible only with ``iters``); ``noise`` is the share of uniformly random moves of a
    heuristic bot; ``endgame`` is the number of cards per hand from which Thousand's trick play is solved
    exactly in every sampled world; ``margin`` is how many standard errors the search's best move must
    beat the heuristic's move by to be played (``None``: the game's default, see docs/bots.md).
    """

    kind: str
    iters: int = 100
    ms: int | None = None
    noise: float = 0.0
    endgame: int = 3
    margin: float | None = None

    def __str__(self) -> str:
        defaults = BotSpec(self.kind)
        parts = [self.kind]
        for field in dataclasses.fields(self)[1:]:
            value = getattr(self, field.name)
            if value != getattr(defaults, field.name):
                parts.append(f"{field.name}={value}")
        return ":".join(parts)


def parse_spec(spec: str, game: str | None = None) -> BotSpec:
    """Read a spec string (or a level name, resolved for ``game`` when given) into a :class:`BotSpec`.

    >>> parse_spec("hard", "bank").iters, parse_spec("hard", "thousand").iters
    (100, 50)
    """
    if not isinstance(spec, str) or not spec.strip():
        raise OptionsError(f"bad bot spec {spec!r}: expected a name such as random, heuristic, search, hard")
    name = spec.strip()
    text = GAME_LEVELS.get(game or "", {}).get(name) or LEVELS.get(name, name)
    name, *settings = text.split(":")
    if name not in KINDS:
        raise OptionsError(
            f"bad bot spec {spec!r}: unknown bot {name!r} (known: {', '.join(KINDS)}, {', '.join(LEVELS)})"
        )
    values: dict[str, Any] = {}
    known = {"iters": int, "ms": int, "noise": float, "endgame": int, "margin": float}
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
                f"bad bot spec {spec!r}: {key} must be a number ({known[key].__name__}), not {raw!r}"
            ) from None
    parsed = BotSpec(name, **values)
    if parsed.iters < 1 or (parsed.ms is not None and parsed.ms < 1):
        raise OptionsError(f"bad bot spec {spec!r}: iters and ms must be at least 1")
    if not 0.0 <= parsed.noise <= 1.0:
        raise OptionsError(f"bad bot spec {spec!r}: noise is a share from 0 to 1, not {parsed.noise}")
    if not 0 <= parsed.endgame <= 4:
        raise OptionsError(f"bad bot spec {spec!r}: endgame is 0 (off) to 4 cards, not {parsed.endgame}")
    if parsed.margin is not None and parsed.margin < 0:
        raise OptionsError(f"bad bot spec {spec!r}: margin must not be negative, not {parsed.margin}")
    if name != "search" and (parsed.iters != 100 or parsed.ms is not None):
        raise OptionsError(f"bad bot spec {spec!r}: only a search bot has a budget (iters, ms)")
    return parsed


def make_bot(game: str, spec: str | BotSpec, seed: int, options: Any = None) -> Bot:
    """A bot of ``game`` ("bank" or "thousand") from a spec or level, seeded; ``options`` are the game's
    options (public agreements the search needs to simulate the rest of the deal; defaults when None).

    >>> type(make_bot("thousand", "hard", seed=3)).__name__
    'SearchBot'
    """
    if game not in GAMES:
        raise OptionsError(f"unknown game {game!r} for a bot (known: {', '.join(GAMES)})")
    parsed = spec if isinstance(spec, BotSpec) else parse_spec(spec, game)
    if parsed.kind == "random":
        return RandomBot(seed)
    if game == "bank":
        from koloda.bots import bank

        if parsed.kind == "heuristic":
            return bank.BankHeuristicBot(seed, noise=parsed.noise, options=options)
        return bank.make_search_bot(parsed, seed, options)
    from koloda.bots import thousand

    if parsed.kind == "heuristic":
        return thousand.ThousandHeuristicBot(seed, noise=parsed.noise, options=options)
    return thousand.make_search_bot(parsed, seed, options)

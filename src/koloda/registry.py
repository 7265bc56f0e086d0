"""The game registry: one typed :class:`GameSpec` per game, and the one place front ends find games.

The terminal (``koloda <game> ...``), the web app (lobby, tables, views, bots), the research interfaces
and tournaments look games up here and drive them only through the spec and the :class:`GameState`
protocol. Adding a game means writing its rules (a state that follows the protocol, an observation that
derives from :class:`koloda.game.Observation`, an options class) and registering a spec; every front end
then offers it (docs/architecture.md walks through a toy game).

>>> [spec.name for spec in games()]
['bank', 'thousand']
>>> bank = get("bank")
>>> state = bank.new_game(players=2, seed=1)
>>> bank.observe(state, 0).seat, bank.observe(state, None).seat
(0, None)
>>> get("chess")
Traceback (most recent call last):
...
koloda.errors.NotFoundError: unknown game 'chess'; games: bank, thousand
"""

from __future__ import annotations

from koloda.errors import NotFoundError, OptionsError
from koloda.game import GameSpec

_GAMES: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add a game; every front end offers it from then on. A name already taken is refused."""
    name = getattr(spec, "name", None)
    if not isinstance(name, str) or not name.isascii() or not name.isidentifier() or name != name.lower():
        raise OptionsError(f"a game's name must be a lowercase ASCII identifier, not {name!r}")
    if name in _GAMES and _GAMES[name] is not spec:
        raise OptionsError(f"a game called {name!r} is registered already")
    _GAMES[name] = spec
    return spec


def unregister(name: str) -> None:
    """Remove a game (tests register toy games and take them away again)."""
    _GAMES.pop(name, None)


def find(name: object) -> GameSpec | None:
    """The game called ``name``, or None."""
    return _GAMES.get(name) if isinstance(name, str) else None


def get(name: object) -> GameSpec:
    """The game called ``name``; NotFoundError naming the games there are."""
    spec = find(name)
    if spec is None:
        raise NotFoundError(f"unknown game {name!r}; games: {', '.join(_GAMES)}", field="game")
    return spec


def games() -> tuple[GameSpec, ...]:
    """Every registered game, in the order registered."""
    return tuple(_GAMES.values())


def _register_builtins() -> None:
    from koloda.bank.spec import BankSpec
    from koloda.thousand.spec import ThousandSpec

    for spec in (BankSpec(), ThousandSpec()):
        register(spec)


_register_builtins()

__all__ = ["GameSpec", "find", "games", "get", "register", "unregister"]

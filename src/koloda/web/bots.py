"""The bots that take seats at web tables: a level name to a seeded bot of the game.

>>> bot = bot_for("bank", "easy", seed=3)
>>> bot.choose(None, [5, 9]) in (5, 9)
True
"""

from __future__ import annotations

import importlib
from typing import Any

from koloda.errors import OptionsError

#: The levels a lobby offers, weakest first.
LEVELS: tuple[str, ...] = ("easy", "medium", "hard")


def bot_for(game: str, level: str, seed: int, options: Any = None) -> Any:
    """A bot of ``level`` for ``game``: the bots package's factory when it has one, else a random bot."""
    if level not in LEVELS:
        raise OptionsError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
    bots = importlib.import_module("koloda.bots")
    make_bot = getattr(bots, "make_bot", None)
    if make_bot is None:
        return bots.RandomBot(seed)
    return make_bot(game, level, seed=seed, options=options)

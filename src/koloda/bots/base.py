"""Bots: a bot sees only ``observe(state, seat)`` and the legal actions, and returns one of them.

>>> bot = RandomBot(seed=1)
>>> bot.choose(None, [3, 5, 8]) in (3, 5, 8)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol


class Bot(Protocol):
    """The one bot interface: deterministic for a given seed, never shown hidden cards."""

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int: ...


class RandomBot:
    """Picks uniformly among the legal actions from its own seeded random stream."""

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, observation: object, legal_actions: Sequence[int]) -> int:
        if not legal_actions:
            raise ValueError("no legal action to choose from")
        return legal_actions[self._rng.randrange(len(legal_actions))]

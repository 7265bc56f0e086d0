"""banki (sticks and cans): a referee for the yard game, in its Moscow and Chelyabinsk variants.

Players enter what happened (``hit Аня``, ``tag Боря hand heel``); the state applies the rules of
``docs/rules/banki.md`` and says what happens next. See :mod:`koloda.banki.state`.
"""

from koloda.banki.events import Event, Phase, Stick
from koloda.banki.options import BankiOptions
from koloda.banki.state import BankiState, new_game, replay
from koloda.banki.text import RefereeError
from koloda.banki.view import legal_events, observe

__all__ = [
    "BankiOptions",
    "BankiState",
    "Event",
    "Phase",
    "RefereeError",
    "Stick",
    "legal_events",
    "new_game",
    "observe",
    "replay",
]

"""Thousand (Тысяча): the score engine with every variant, the score file and sheet, and the card game.

The card game is split as every game is (docs/architecture.md): :mod:`~koloda.thousand.options`,
:mod:`~koloda.thousand.deal`, :mod:`~koloda.thousand.rules` (legal actions and apply),
:mod:`~koloda.thousand.scoring` (the score engine, also behind the score sheet),
:mod:`~koloda.thousand.observe`, :mod:`~koloda.thousand.state` (the state and its constructors),
:mod:`~koloda.thousand.actions` (cards, action space, notation), :mod:`~koloda.thousand.knowledge` and
:mod:`~koloda.thousand.worlds` (what a seat knows, and worlds consistent with it),
:mod:`~koloda.thousand.tensor`, the terminal in :mod:`~koloda.thousand.cli`, and
:mod:`~koloda.thousand.spec`, which registers the game. The score sheet for games played with real cards
is the subpackage :mod:`koloda.thousand.sheet`, apart from the card game.
"""

from koloda.thousand.actions import action_text, parse_action
from koloda.thousand.observe import Marriage, ThousandObservation, Trick, observe, visible
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook, ScoringError
from koloda.thousand.state import ThousandState, from_deal, new_game, replay

__all__ = [
    "DealInput",
    "DealScore",
    "Marriage",
    "ScoreBook",
    "ScoringError",
    "ThousandObservation",
    "ThousandOptions",
    "ThousandState",
    "Trick",
    "action_text",
    "from_deal",
    "new_game",
    "observe",
    "parse_action",
    "replay",
    "visible",
]

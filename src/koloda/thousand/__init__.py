"""Thousand (Тысяча): scoring with every variant, the score file and sheet, and the game."""

from koloda.thousand.game import ThousandState, ThousandView, from_deal, new_game, observe, replay
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook, ScoringError

__all__ = [
    "DealInput",
    "DealScore",
    "ScoreBook",
    "ScoringError",
    "ThousandOptions",
    "ThousandState",
    "ThousandView",
    "from_deal",
    "new_game",
    "observe",
    "replay",
]

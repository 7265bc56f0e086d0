"""Thousand (Тысяча): scoring with every variant, the score file and sheet, and the game."""

from koloda.thousand.options import ThousandOptions

__all__ = ["ThousandOptions"]

"""Bots for Bank and Thousand: one interface, named levels, and a factory (docs/bots.md).

A bot is given only ``observe(state, seat)`` and the legal actions, and returns one of the actions; with
the same seed it makes the same choices.

>>> from koloda.bank import new_game, observe
>>> state = new_game(players=2, seed=4, scope="deal")
>>> bot = make_bot("bank", "heuristic", seed=1)
>>> seat = state.current_player
>>> bot.choose(observe(state, seat), state.legal_actions()) in state.legal_actions()
True
"""

from koloda.bots.base import Bot, RandomBot
from koloda.bots.levels import GAME_LEVELS, GAMES, LEVELS, BotSpec, make_bot, parse_spec

__all__ = ["GAMES", "GAME_LEVELS", "LEVELS", "Bot", "BotSpec", "RandomBot", "make_bot", "parse_spec"]

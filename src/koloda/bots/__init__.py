"""Bots for koloda's games: one interface, named levels per game, specs (docs/bots.md).

A bot is given only ``observe(state, seat)`` and the legal actions, and returns one of the actions; with
the same seed it makes the same choices. A game makes its bots through its spec in the registry
(``koloda.registry.get("bank").bot("hard", seed=1)``); the game-specific bots live in
:mod:`koloda.bots.bank` and :mod:`koloda.bots.thousand`, duplicate tournaments in
:mod:`koloda.bots.tournament`.

>>> from koloda.registry import get
>>> bank = get("bank")
>>> state = bank.new_game(players=2, seed=4, scope="deal")
>>> bot = bank.bot("heuristic", seed=1)
>>> seat = state.current_player
>>> bot.choose(bank.observe(state, seat), state.legal_actions()) in state.legal_actions()
True
"""

from koloda.bots.base import KINDS, LEVELS, Bot, BotSpec, Fault, GuardedBot, RandomBot, parse_spec

__all__ = ["KINDS", "LEVELS", "Bot", "BotSpec", "Fault", "GuardedBot", "RandomBot", "parse_spec"]

"""Bank (Банк): the engine, its options and the protocol of docs/api.md. Rules: docs/rules/bank.md.

The package is split as every game is (docs/architecture.md): :mod:`~koloda.bank.options`,
:mod:`~koloda.bank.deal`, :mod:`~koloda.bank.rules` (legal actions and apply), :mod:`~koloda.bank.scoring`,
:mod:`~koloda.bank.observe`, :mod:`~koloda.bank.state` (the state and its constructors),
:mod:`~koloda.bank.actions` (notation), :mod:`~koloda.bank.worlds` (sampling what a seat cannot see),
:mod:`~koloda.bank.cli`, and :mod:`~koloda.bank.spec`, which registers the game.

>>> from koloda.bank import new_game, observe
>>> state = new_game(players=2, seed=1, scope="deal")
>>> state.apply(state.legal_actions()[0])
>>> observe(state, 0).stock_size <= 27
True
"""

from koloda.bank.actions import action_text, parse_action
from koloda.bank.explain import Hint, Way, explain
from koloda.bank.observe import BankObservation, observe, visible_hand
from koloda.bank.options import BankOptions
from koloda.bank.scoring import DealResult, Finish
from koloda.bank.state import BankState, from_deal, new_game, replay
from koloda.bank.tables import DRAW, FOUR0, NUM_ACTIONS, PASS, RUN0, run_id

__all__ = [
    "DRAW",
    "FOUR0",
    "NUM_ACTIONS",
    "PASS",
    "RUN0",
    "BankObservation",
    "BankOptions",
    "BankState",
    "DealResult",
    "Finish",
    "Hint",
    "Way",
    "action_text",
    "explain",
    "from_deal",
    "new_game",
    "observe",
    "parse_action",
    "replay",
    "run_id",
    "visible_hand",
]

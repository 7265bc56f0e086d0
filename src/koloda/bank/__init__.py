"""Bank (Банк): the engine, its options and the protocol of docs/api.md. Rules: docs/rules/bank.md.

>>> from koloda.bank import new_game, observe
>>> state = new_game(players=2, seed=1, scope="deal")
>>> state.apply(state.legal_actions()[0])
>>> observe(state, 0).stock_size <= 27
True
"""

from koloda.bank.observe import BankObservation, observe
from koloda.bank.options import BankOptions
from koloda.bank.state import (
    BankState,
    DealResult,
    Finish,
    action_text,
    from_deal,
    new_game,
    parse_action,
    replay,
)
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
    "action_text",
    "from_deal",
    "new_game",
    "observe",
    "parse_action",
    "replay",
    "run_id",
]

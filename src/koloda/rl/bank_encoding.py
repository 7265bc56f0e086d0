"""Bank for the research interfaces: options, rewards, the observation tensor and the text view (docs/rl.md).

The observation tensor is the engine's own (:mod:`koloda.bank.tensor`, built from what the seat may see).

>>> adapter = BankAdapter(players=2)
>>> state = adapter.new_state(seed=3)
>>> vector = adapter.encode(state, 0)
>>> vector.shape, int(vector[:36].sum())  # the first 36 entries are the seat's hand
((322,), 4)
"""

from __future__ import annotations

from typing import Any, Literal

from koloda.bank.observe import observe
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState
from koloda.game import GameState
from koloda.rl.core import GameAdapter, Rewards


class BankAdapter(GameAdapter):
    """Bank with fixed options for PettingZoo, Gymnasium and OpenSpiel.

    ``players`` 2-4; ``preset`` one of :attr:`BankOptions.PRESETS`; ``scope`` "deal" (an episode is one
    deal) or "match" (to 248, rule 8.1); ``rewards`` "deal" (each deal's points when it ends) or
    "game" (match scope only: 1 to the winner, -1/(n-1) to the others); any other keyword is an option of
    :class:`BankOptions` overriding the preset.
    """

    def __init__(
        self,
        players: int = 3,
        preset: str = "default",
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        super().__init__("bank", players, preset, scope, rewards, **options)
        assert isinstance(self.options, BankOptions)
        self.options.check_players(players)

    def render(self, state: GameState, seat: int | None) -> str:
        """The table as text: deal, trumps, bank, stock, hand sizes, scores; ``seat``'s hand if given."""
        view = observe(self.spec.own_state(state, BankState), seat)
        lines = [
            f"Bank, deal {view.deal}, dealer {view.dealer}, phase {view.phase}, "
            f"trumps {view.trumps} {' '.join(view.trump_suits) or '-'}",
            f"bank: {' '.join(view.bank) or '(empty)'}"
            + (f"  (to cover: {view.to_cover})" if view.to_cover else "  (free lead)"),
            f"stock: {view.stock_size}  hands: {' '.join(map(str, view.hand_counts))}  "
            f"captured: {' '.join(map(str, view.captured_points))}  "
            f"totals: {' '.join(map(str, view.totals))}",
        ]
        if seat is not None:
            lines.append(f"seat {seat} holds: {' '.join(view.hand)}")
        if state.is_over():
            lines.append("over" + (f", winner seat {view.winner}" if view.winner is not None else ""))
        else:
            lines.append(f"to act: seat {state.current_player}")
        return "\n".join(lines)

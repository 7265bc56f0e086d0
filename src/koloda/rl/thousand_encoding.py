"""Thousand for the research interfaces: options, rewards, the observation tensor and the text view
(docs/rl.md).

The observation tensor is the engine's own (:mod:`koloda.thousand.tensor`, built from what the seat may
see, rule G15).

>>> adapter = ThousandAdapter(players=3)
>>> vector = adapter.encode(adapter.new_state(seed=3), 1)
>>> vector.shape, int(vector[:24].sum())  # the first 24 entries are the seat's hand
((260,), 7)
"""

from __future__ import annotations

from typing import Any, Literal

from koloda.game import GameState
from koloda.rl.core import GameAdapter, Rewards
from koloda.thousand.observe import observe
from koloda.thousand.state import ThousandState


class ThousandAdapter(GameAdapter):
    """Thousand with fixed options for PettingZoo, Gymnasium and OpenSpiel.

    ``players`` 3 or 4 (the dealer sits out, rule G2); ``preset`` one of :attr:`ThousandOptions.PRESETS`;
    ``scope`` "deal" or "match" (to 1000; random players may never get there, rule G14); ``rewards``
    "deal" (each deal's score changes) or "game" (match scope: 1 to the winner, -1/(n-1) to the others);
    any other keyword is an option of :class:`ThousandOptions` overriding the preset.
    """

    default_preset = "home"

    def __init__(
        self,
        players: int = 3,
        preset: str = "home",
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        super().__init__("thousand", players, preset, scope, rewards, **options)

    def render(self, state: GameState, seat: int | None) -> str:
        """The table as text: bidding, declarer, trump, trick, scores; ``seat``'s hand if given."""
        view = observe(self.spec.own_state(state, ThousandState), seat)
        trick = " ".join(f"{q}:{c}" for q, c in view.trick.cards) if view.trick else "-"
        lines = [
            f"Thousand, deal {view.deal}, dealer {view.dealer}, phase {view.phase}, "
            f"high bid {view.high_bid}, declarer {view.declarer}, contract {view.contract}, "
            f"trump {view.trump.letter if view.trump is not None else '-'}",
            f"bids: {' '.join(f'{q}:{b}' for q, b in view.bids)}",
            f"talon: {' '.join(map(str, view.talon)) if view.talon is not None else '(hidden)'}  "
            f"trick: {trick}",
            f"hands: {' '.join(map(str, view.hand_sizes))}  "
            f"tricks won: {' '.join(map(str, view.tricks_won))}  totals: {' '.join(map(str, view.totals))}",
        ]
        if seat is not None:
            lines.append(f"seat {seat} holds: {' '.join(map(str, view.hand))}")
        lines.append("over" if state.is_over() else f"to act: seat {state.current_player}")
        return "\n".join(lines)

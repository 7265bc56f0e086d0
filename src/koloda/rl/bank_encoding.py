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

from koloda.bank import tables as T
from koloda.bank.observe import observe
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState, new_game
from koloda.bank.tensor import HIGH, LOW, OBS_SIZE, BankEncoder
from koloda.rl.core import Rewards, check_players, check_rewards


class BankAdapter:
    """Bank with fixed options for PettingZoo, Gymnasium and OpenSpiel.

    ``players`` 2-4; ``preset`` one of :attr:`BankOptions.PRESETS`; ``scope`` "deal" (an episode is one
    deal) or "match" (to 248, rule 8.1); ``rewards`` "deal" (each deal's points when it ends) or
    "game" (match scope only: 1 to the winner, -1/(n-1) to the others); any other keyword is an option of
    :class:`BankOptions` overriding the preset.
    """

    game = "bank"
    num_actions = T.NUM_ACTIONS
    obs_size = OBS_SIZE
    obs_low = LOW
    obs_high = HIGH

    def __init__(
        self,
        players: int = 3,
        preset: str = "default",
        scope: Literal["deal", "match"] = "deal",
        rewards: Rewards = "deal",
        **options: Any,
    ) -> None:
        self.players = check_players(players, 2, 4, "Bank")
        self.rewards = check_rewards(rewards, scope)
        self.scope = scope
        self.options = BankOptions.preset(preset).replace(**options)
        self.options.check_players(players)
        self.encoder = BankEncoder()
        self.encode = self.encoder.encode  # the engine's tensor itself: no call in between on the hot path

    def new_state(self, seed: int) -> BankState:
        return new_game(self.options, players=self.players, seed=seed, scope=self.scope)

    def deals_done(self, state: BankState) -> int:
        return state.deals_played

    def deal_scores(self, state: BankState, index: int) -> tuple[int, ...]:
        return state.results[index].scores

    def winner(self, state: BankState) -> int | None:
        return state.winner

    def render(self, state: BankState, seat: int | None) -> str:
        """The table as text: deal, trumps, bank, stock, hand sizes, scores; ``seat``'s hand if given."""
        view = observe(state, seat)
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
            lines.append("over" + (f", winner seat {state.winner}" if state.winner is not None else ""))
        else:
            lines.append(f"to act: seat {state.current_player}")
        return "\n".join(lines)

"""The JSON views the web app sends: built only from the game's ``observe(state, seat)``.

A seat's view is its observation plus the text of its own legal actions; a spectator's view is the
observation of seat ``None`` (public facts only). No message to a client is built from the state itself.

>>> from koloda.registry import get
>>> bank = get("bank")
>>> state = bank.new_game(players=2, seed=1)
>>> view = seat_view(bank, state, 0)
>>> len(view["hand"]), view["seat"]
(4, 0)
>>> public_view(bank, state)["hand"], public_view(bank, state)["seat"]
([], None)
"""

from __future__ import annotations

from typing import Any

from koloda.game import GameSpec, GameState


def seat_view(spec: GameSpec, state: GameState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see, as JSON: its observation and the text of its own legal actions."""
    view = spec.observe(state, seat).to_json()
    view["actions"] = [[action, spec.action_text(action)] for action in view["legal_actions"]]
    return view


def public_view(spec: GameSpec, state: GameState) -> dict[str, Any]:
    """What a spectator may see: the game's public view (no hand, no legal actions)."""
    return spec.public_view(state).to_json() | {"actions": []}

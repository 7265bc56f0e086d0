"""Shared set-ups for the banki tests: games in a known position, and checks of refused events."""

from __future__ import annotations

from typing import Any

import pytest

from koloda.banki import BankiOptions, BankiState, RefereeError, new_game

NAMES = ["Ann", "Bob", "Cat", "Dan"]


def game(
    variant: str = "moscow", names: list[str] | None = None, seed: int = 0, **changes: Any
) -> BankiState:
    options = BankiOptions.preset(variant)
    if changes:
        options = options.replace(**changes)
    return new_game(names or NAMES, options, seed=seed)


def run(state: BankiState, *lines: str) -> BankiState:
    for line in lines:
        state.apply(state.parse_event(line))
    return state


def refused(state: BankiState, line: str, key: str) -> RefereeError:
    """The event is refused for the reason ``key`` and the state is exactly as before."""
    before = state.copy()
    with pytest.raises(RefereeError) as caught:
        state.apply(state.parse_event(line))
    assert caught.value.key == key, caught.value
    assert state == before
    return caught.value


def moscow(**changes: Any) -> BankiState:
    """A Moscow game after the kicks: Cat drives (shortest kick), order Bob, Ann, Dan (rule M3)."""
    return run(game("moscow", **changes), "kick Ann 9", "kick Bob 12", "kick Cat 4", "kick Dan 7")


def chelyabinsk(**changes: Any) -> BankiState:
    """A Chelyabinsk game: Cat counted out to drive (C1), kicks order Bob, Ann, Dan (C3)."""
    return run(game("chelyabinsk", **changes), "counted Cat", "kick Ann 9", "kick Bob 12", "kick Dan 7")


def seat(state: BankiState, name: str) -> int:
    return state.seat(name)


def set_rank(state: BankiState, name: str, rank: str) -> None:
    """Put a player on a rank, to set up a position (as from_deal does for card games)."""
    state.rank[state.seat(name)] = state.options.ranks.index(rank)


def rank(state: BankiState, name: str) -> str:
    return state.rank_id(state.seat(name))

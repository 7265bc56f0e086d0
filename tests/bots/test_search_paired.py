"""The Bank search's shortlist and paired playouts (docs/bots.md "Bank search"): only the heuristic's best
moves are searched, each in the same worlds with the same playout randomness."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from koloda.bank import new_game, observe
from koloda.bank.observe import BankObservation
from koloda.bots.bank import BankHeuristicBot
from koloda.bots.search import SearchBot
from koloda.registry import get


def _views(count: int, seed: int, wide: int = 4) -> list[BankObservation]:
    """Views of heuristic play where the seat to act has at least ``wide`` moves to choose from."""
    out: list[BankObservation] = []
    bot = BankHeuristicBot(seed)
    game = seed
    while len(out) < count:
        state = new_game(players=2, seed=game, scope="deal")
        while not state.is_over() and len(out) < count:
            seat = state.current_player
            assert seat is not None
            view = observe(state, seat)
            if len(view.legal_actions) >= wide:
                out.append(view)
            state.apply(bot.choose(view, state.legal_actions()))
        game += 1
    return out


def test_only_the_heuristic_top_two_are_searched() -> None:
    heuristic = BankHeuristicBot(0)
    for i, view in enumerate(_views(12, 5)):
        bot = get("bank").bot("search:iters=30", 100 + i)
        assert isinstance(bot, SearchBot)
        chosen = bot.choose(view, view.legal_actions)
        assert chosen in heuristic.ranked(view, view.legal_actions)[:2]
        assert bot.last_iterations == 30


class _World:
    """A toy world: the root action decides nothing but is logged with the world's id and the first
    playout draw; the value is the action plus noise from the playout randomness."""

    def __init__(self, ident: int, log: list[tuple[int, int, float]]) -> None:
        self.ident, self.log = ident, log
        self.root: int | None = None
        self.value = 0.0
        self.over = False

    @property
    def current_player(self) -> int | None:
        return None if self.over else 0

    def legal_actions(self) -> list[int]:
        return [0]

    def apply(self, action: int) -> None:
        if self.root is None:
            self.root = action
        else:
            self.over = True

    def is_over(self) -> bool:
        return self.over

    def copy(self) -> _World:
        return _World(self.ident, self.log)


def _paired_bot(log: list[tuple[int, int, float]], iters: int, default: int) -> SearchBot:
    worlds = iter(range(1000))

    def rollout(state: Any, rng: random.Random) -> int:
        noise = rng.random()
        state.value = state.root + noise
        log.append((state.ident, state.root, noise))
        return 0

    class First:
        def choose(self, observation: Any, legal_actions: Sequence[int]) -> int:
            return default

    return SearchBot(
        1,
        sampler=lambda obs, rng: _World(next(worlds), log),
        utility=lambda state, seat: float(state.value),
        fallback=First(),
        searchable=lambda obs, legal: True,
        scale=1.0,
        iters=iters,
        worlds=4,
        rollout=rollout,
        shortlist=lambda obs, legal: sorted(legal, reverse=True),
        width=3,
        paired=True,
    )


def test_paired_rounds_share_worlds_and_playout_randomness() -> None:
    log: list[tuple[int, int, float]] = []
    bot = _paired_bot(log, 3 * 6 + 1, default=8)
    # the shortlist keeps 9, 8, 7; the value is the action, so the best (9) wins
    assert bot.choose(SimpleNamespace(seat=0), list(range(10))) == 9
    assert len(log) == 19
    rounds = [log[i : i + 3] for i in range(0, 18, 3)]
    for r, rnd in enumerate(rounds):
        assert [action for _, action, _ in rnd] == [8, 9, 7]  # the default first, then the shortlist
        assert len({world for world, _, _ in rnd}) == 1  # one world a round
        assert rnd[0][0] == r % 4  # worlds are reused in turn (worlds=4)
        assert len({noise for _, _, noise in rnd}) == 1  # the same playout randomness
    assert len({rnd[0][2] for rnd in rounds}) == len(rounds)  # a fresh stream each round
    assert log[18][1] == 8  # a partial last round starts with the default


def test_unpaired_search_is_unchanged_without_a_shortlist() -> None:
    log: list[tuple[int, int, float]] = []
    bot = _paired_bot(log, 20, default=0)
    bot._paired, bot._shortlist = False, None
    assert bot.choose(SimpleNamespace(seat=0), [0, 1, 2, 3, 4]) == 4
    assert {action for _, action, _ in log} == {0, 1, 2, 3, 4}  # UCB1 over every legal action

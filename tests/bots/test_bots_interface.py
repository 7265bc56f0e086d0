"""The bot interface: specs and levels, determinism, and that bots act only on what a seat may see."""

from __future__ import annotations

import pytest

from koloda.bank import from_deal as bank_from_deal
from koloda.bank import new_game as bank_new_game
from koloda.bank import observe as bank_observe
from koloda.bots import LEVELS, Bot, BotSpec, RandomBot, parse_spec
from koloda.errors import NotFoundError, OptionsError
from koloda.registry import get
from koloda.thousand.observe import observe as thousand_observe
from koloda.thousand.state import from_deal as thousand_from_deal
from koloda.thousand.state import new_game as thousand_new_game


def test_specs_and_levels() -> None:
    assert parse_spec("random") == BotSpec("random")
    assert parse_spec("search:iters=250:endgame=2") == BotSpec("search", iters=250, endgame=2)
    assert parse_spec("search:ms=40").ms == 40
    assert parse_spec("search:margin=1.5").margin == 1.5
    assert parse_spec("heuristic:noise=0.5").noise == 0.5
    assert set(LEVELS) == {"easy", "medium", "hard"}
    assert parse_spec("hard").kind == "search" and parse_spec("medium") == BotSpec("heuristic")
    assert str(parse_spec("search:iters=250")) == "search:iters=250"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("", "expected a name"),
        ("clever", "unknown bot 'clever'"),
        ("search:iters", "not key=value"),
        ("search:iters=many", "iters must be a number"),
        ("search:depth=3", "unknown setting 'depth'"),
        ("search:iters=0", "at least 1"),
        ("heuristic:noise=2", "noise is a share"),
        ("heuristic:iters=50", "only a search bot has a budget"),
        ("search:endgame=9", "endgame is 0 (off) to 8"),
        ("search:margin=-1", "margin must not be negative"),
    ],
)
def test_bad_specs_say_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(OptionsError, match=r"bad bot spec|expected a name") as info:
        parse_spec(spec)
    assert words in str(info.value)


def test_make_bot_kinds_and_bad_game() -> None:
    assert isinstance(get("bank").bot("random", 1), RandomBot)
    assert type(get("bank").bot("heuristic", 1)).__name__ == "BankHeuristicBot"
    assert type(get("thousand").bot("easy", 1)).__name__ == "ThousandBot"
    assert type(get("thousand").bot("hard", 1)).__name__ == "ThousandBot"
    assert type(get("thousand").bot("hard-2026-11", 1)).__name__ == "SearchBot"  # kept for tournaments
    assert type(get("thousand").bot("medium-2026-11", 1)).__name__ == "ThousandHeuristicBot"
    with pytest.raises(NotFoundError, match="unknown game 'chess'"):
        get("chess").bot("random", 1)


def _play(game: str, spec: str, seed: int, deal_seed: int) -> list[int]:
    """The actions of one deal played by three copies of one spec seeded from ``seed``."""
    if game == "bank":
        state = bank_new_game(players=3, seed=deal_seed, scope="deal")
        observe = bank_observe
    else:
        state = thousand_new_game(players=3, seed=deal_seed, scope="deal")  # type: ignore[assignment]
        observe = thousand_observe  # type: ignore[assignment]
    bots: list[Bot] = [get(game).bot(spec, seed * 10 + p) for p in range(3)]
    actions = []
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(observe(state, seat), state.legal_actions())  # type: ignore[arg-type]
        state.apply(action)
        actions.append(action)
    return actions


@pytest.mark.parametrize("game", ["bank", "thousand"])
@pytest.mark.parametrize("spec", ["random", "easy", "heuristic", "search:iters=12"])
def test_same_seed_same_moves(game: str, spec: str) -> None:
    first = _play(game, spec, seed=5, deal_seed=11)
    assert _play(game, spec, seed=5, deal_seed=11) == first
    # these draw from their seed: another seed differs (Thousand's easy differs from its other levels in
    # what it computes, not by random moves: docs/bots.md)
    if spec in ("random", "search:iters=12") or (game, spec) == ("bank", "easy"):
        assert any(_play(game, spec, seed=s, deal_seed=11) != first for s in (6, 7, 8))


def _thousand_pair() -> tuple[object, object, int]:
    """Two Thousand deals that seat 0 cannot tell apart: seats 1 and 2 swap the 9♣ and the 9♦."""
    base = {"dealer": 2, "talon": "10D JD 9S"}
    one = dict(base, hands=["AH KH QH 10H AS KS QS", "AC 10C KC QC JC 9C JH", "AD KD QD 9D 9H JS 10S"])
    two = dict(base, hands=["AH KH QH 10H AS KS QS", "AC 10C KC QC JC 9D JH", "AD KD QD 9C 9H JS 10S"])
    states = []
    for deal in (one, two):
        state = thousand_from_deal(deal)
        for text in ("pass", "pass", "JD>1", "9S>2", "120"):  # seat 0 declares, gives, names 120
            state.apply(state.parse_action(text))
        states.append(state)
    return states[0], states[1], 0


def _bank_pair() -> tuple[object, object, int]:
    """Two Bank deals that seat 0 cannot tell apart: seat 1's and the stock's hidden cards swapped."""
    common = {"open": "9H", "dealer": 1, "trump_suits": ["S", "C"]}
    one = dict(common, hands=[["8H", "KD", "AS", "7C"], ["6D", "QS", "10C", "JD"]], stock=["AC", "7D", "8S"])
    two = dict(common, hands=[["8H", "KD", "AS", "7C"], ["AC", "QS", "10C", "JD"]], stock=["6D", "7D", "8S"])
    return bank_from_deal(one), bank_from_deal(two), 0


@pytest.mark.parametrize("spec", ["heuristic", "search:iters=60", "random"])
def test_hidden_cards_do_not_change_a_choice(spec: str) -> None:
    for game, (first, second, seat) in (("thousand", _thousand_pair()), ("bank", _bank_pair())):
        observe = thousand_observe if game == "thousand" else bank_observe
        assert first != second  # the worlds differ ...
        view = observe(first, seat)  # type: ignore[arg-type]
        assert view == observe(second, seat)  # type: ignore[arg-type]  # ... but not to this seat
        assert first.current_player == seat  # type: ignore[attr-defined]
        legal = first.legal_actions()  # type: ignore[attr-defined]
        assert len(legal) > 1
        choices = set()
        for state in (first, second):
            bot = get(game).bot(spec, 9)
            choices.add(bot.choose(observe(state, seat), legal))  # type: ignore[arg-type]
            if spec.startswith("search"):  # the search ran on sampled worlds, not the fallback
                assert bot.last_iterations >= 60  # type: ignore[attr-defined]
        assert len(choices) == 1, (game, spec)


def test_a_time_budget_stops_the_search() -> None:
    first, _, seat = _thousand_pair()
    view = thousand_observe(first, seat)  # type: ignore[arg-type]
    legal = first.legal_actions()  # type: ignore[attr-defined]
    bot = get("thousand").bot("search:ms=30:iters=100000", 1)
    assert type(bot).__name__ == "ThousandBot"
    assert bot.choose(view, legal) in legal
    assert 0 < bot.last_iterations < 100000  # the clock, not the playout count, ended it

"""bench/thousand_bots.py's double dummy verdict: whether a contract played could have been made with every
hand seen and both sides playing perfectly (what tells the auction's failures from the play's)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from koloda.bots.thousand import ThousandBot
from koloda.thousand.actions import bid_action
from koloda.thousand.knowledge import knowledge
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import from_deal


def _bench(name: str = "thousand_bots") -> ModuleType:
    """A script of bench/ as a module."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"koloda_bench_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("forced", "makeable"),
    [
        ("9S JS 9C JC 9D QS JD", False),  # nines and jacks, the talon no help: 100 cannot be made
        (
            "AH 10H AD 10D AC 10C AS",
            True,
        ),  # every ace and ten but one, and the hearts marriage from the talon
    ],
)
def test_double_dummy_tells_a_makeable_contract_from_a_hopeless_one(forced: str, makeable: bool) -> None:
    cards = {face + suit for face in ("9", "J", "Q", "K", "10", "A") for suit in "SCDH"}
    talon = ["QH", "KH", "9H"] if makeable else ["QD", "JH", "9H"]
    rest = sorted(cards - set(forced.split()) - set(talon))
    others = [" ".join(rest[:7]), " ".join(rest[7:])]
    # dealer 2: seat 0 holds the compulsory 100, the others pass; no bomb, so the contract is played
    state = from_deal(
        {"dealer": 2, "hands": [forced, *others], "talon": " ".join(talon)}, ThousandOptions(bombs_per_game=0)
    )
    bots = [ThousandBot(seat, samples=4) for seat in range(3)]
    state.apply(state.parse_action("pass"))
    state.apply(state.parse_action("pass"))
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        legal = state.legal_actions()
        action = (
            bid_action(100) if state.phase == "contract" else bots[seat].choose(observe(state, seat), legal)
        )
        state.apply(action)
    assert _bench().double_dummy(state) == [makeable]
    figures = _bench().kinds(state)  # the game allows no bomb (rule S7): the contract was played without one
    assert figures["no bomb"]["played"] == figures["kept"]["played"] == 1
    assert figures["makeable" if makeable else "unmakeable"]["played"] == 1


@pytest.mark.parametrize(
    ("opening", "how", "hope"),
    [
        (None, "forced", "-"),  # both others pass: the first hand's compulsory 100
        (105, "opened alone", "marriage"),  # seat 1 bids over it with the spades marriage, alone
    ],
)
def test_failures_tell_how_the_declarer_got_the_contract(opening: int | None, how: str, hope: str) -> None:
    hands = ["9S JS 9C JC 9D JD 9H", "QS KS AH 10H AD 10D AC", "QC KC QD KD QH KH JH"]
    state = from_deal({"dealer": 2, "hands": hands, "talon": "10C AS 10S"}, ThousandOptions(bombs_per_game=0))
    bots = [ThousandBot(seat, samples=4) for seat in range(3)]
    for text in ("pass", "pass") if opening is None else (str(opening), "pass", "pass"):
        state.apply(state.parse_action(text))
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(observe(state, seat), state.legal_actions()))
    (row,) = _bench("thousand_failures").deals(state)
    (deal, score) = state.results[0]
    assert (row["how"], row["hope"], row["bomb left"], row["bomb"]) == (how, hope, False, False)
    assert row["made"] == score.made and deal.declarer == (0 if opening is None else 1)
    groups = _bench("thousand_failures").table([row])
    assert groups["all"]["played"] == groups[how]["played"] == 1
    assert groups[f"{how}, no bomb left"]["made"] == int(score.made)


@pytest.mark.parametrize("seen", [1, 2, 3])
def test_talon_seen_deals_the_seen_cards_into_every_sampled_talon(seen: int) -> None:
    """bench/thousand_talon_seen.py: its spec keeps the talon and still shows the seat only its view; its
    sampler puts the same ``seen`` cards of that talon into every talon the bot draws, never a card the
    bot holds."""
    module = _bench("thousand_talon_seen")
    state = from_deal(
        {
            "dealer": 2,
            "hands": ["9S JS 9C JC 9D JD 9H", "QS KS AH 10H AD 10D AC", "QC KC QD KD QH KH JH"],
            "talon": "10C AS 10S",
        },
        ThousandOptions(),
    )
    view = module.TalonKeepingSpec().observe(state, 0)
    assert view == observe(state, 0) and module._TALON[0] == state.talon
    bot = ThousandBot(0, samples=12)
    know = knowledge(view)
    talons = module.talon_sampler(seen)(bot, view, know)
    assert len(talons) == 12
    common = talons[0]
    for talon in talons:
        assert talon.bit_count() == 3 and not talon & know.hand
        common &= talon
    assert common & state.talon == common and (common & state.talon).bit_count() >= seen

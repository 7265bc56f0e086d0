"""Golden game records of Thousand (tests/thousand/golden/*.json), replayed and compared.

Each file is a game record whose ``meta.expected`` holds what the game came to when the file was made:
every deal's result as handed to the score book, the totals, the winner, the state's returns and seat 0's
final hand. A change of the engine that changes any of it fails here. Regenerate (only for a deliberate
rule change, and say so in the commit): ``.venv/bin/python tests/thousand/test_game_golden.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from koloda.bots import RandomBot
from koloda.bots.thousand import CautiousRandomBot
from koloda.game import GameRecord
from koloda.thousand.observe import observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState, from_deal, new_game, replay

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def outcome(state: ThousandState) -> dict[str, Any]:
    deals = [
        {
            "declarer": deal.declarer,
            "bid": deal.bid,
            "bomb": deal.bomb,
            "points": list(deal.points),
            "marriages": [list(m) for m in deal.marriages],
            "delta": list(score.delta),
        }
        for deal, score in state.results
    ]
    return {
        "deals": deals,
        "totals": list(state.book.totals),
        "winner": state.book.winner,
        "returns": state.returns(),
        "over": state.is_over(),
        "hand0": " ".join(str(c) for c in observe(state, 0).hand),
    }


def test_there_are_golden_records() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_record_replays_exactly(path: Path) -> None:
    record = GameRecord.load(path, game="thousand")
    state = replay(record)
    assert outcome(state) == record.meta["expected"]
    again = state.record(meta=record.meta)
    assert again.to_json() == record.to_json()  # canonical actions, same options, same origin


# --- making the files --------------------------------------------------------------------------------


def _cautious(state: ThousandState, seed: int, limit: int | None = None) -> ThousandState:
    bots = [CautiousRandomBot(seed * 10 + seat) for seat in range(state.players)]
    while not state.is_over() and (limit is None or len(state.results) < limit):
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(observe(state, seat), state.legal_actions()))
    return state


def _random(state: ThousandState, seed: int) -> ThousandState:
    bots = [RandomBot(seed * 10 + seat) for seat in range(state.players)]
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        state.apply(bots[seat].choose(observe(state, seat), state.legal_actions()))
    return state


def _games() -> dict[str, ThousandState]:
    deal = {
        "dealer": 0,
        "hands": ["QC 10C JC 9C AD KD QD", "AH KH QH 10H JH 9H AS", "KS QS 10S JS 9S AC KC"],
        "talon": "10D JD 9D",
    }
    return {
        "deal_explicit_random": _random(from_deal(deal, ThousandOptions(marriage_needs_trick=False)), 1),
        "deal_must_beat_aces": _cautious(
            from_deal(
                deal
                | {
                    "hands": ["QC 10C JC 9C 10D KD QD", "AH KH QH 10H AD AC AS", "KS QS 10S JS 9S JH KC"],
                    "talon": "9H JD 9D",
                },
                ThousandOptions(must_beat="winning", ace_marriage=True, bid_cap="marriages_held"),
            ),
            2,
        ),
        "game_default_3p": _cautious(new_game(seed=7), 7),
        "game_russian_4p": _cautious(new_game(ThousandOptions.preset("russian"), players=4, seed=11), 11),
        "game_tournament_part": _cautious(
            new_game(ThousandOptions.preset("tournament"), seed=5), 5, limit=12
        ),
    }


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, state in _games().items():
        state.record(meta={"expected": outcome(state)}).save(GOLDEN / f"{name}.json")
        print(name, len(state.history), "actions", len(state.results), "deals")


if __name__ == "__main__":
    if sys.argv[1:] != []:
        raise SystemExit("usage: python tests/thousand/test_game_golden.py")
    regenerate()

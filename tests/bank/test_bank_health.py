"""Game health under the default readings stays at the gaps document's figures (docs/bank-health.md)."""

from __future__ import annotations

import pytest

from koloda.bank import BankOptions
from koloda.bank.health import measure

# shared/bank-rules-gaps.md: actions per deal, share stuck, cards left, points per seat, deals per match
REFERENCE = {
    2: (24, 0.02, 3.3, 23, 8.4),
    3: (46, 0.12, 3.5, 30, 6.5),
    4: (59, 0.40, 4.0, 29, 6.8),
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_default_readings_match_the_reference_figures(players: int) -> None:
    actions, stuck, cards, points, deals = REFERENCE[players]
    f = measure(players, deals=400, matches=60, seed=1)
    assert abs(f.actions_per_deal - actions) <= 0.12 * actions
    assert abs(f.stuck_share - stuck) <= 0.08
    assert abs(f.cards_left - cards) <= 0.6
    assert abs(f.points_per_seat - points) <= 4
    assert abs(f.deals_per_match - deals) <= 1.5 and f.unfinished_matches == 0
    assert f.seat_bias <= 6  # 400 deals: the noise alone is a few points


def test_the_literal_after_capture_reading_breaks_the_game() -> None:
    # the reason rule 5.3 defaults to a free lead: most deals end with everyone stuck
    f = measure(3, deals=200, matches=0, seed=2, options=BankOptions.preset("literal"))
    assert f.stuck_share > 0.8 and f.cards_left > 8

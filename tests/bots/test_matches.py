"""Paired whole games against fixed players (koloda.bots.matches, issue 35)."""

from __future__ import annotations

import pytest

from koloda.bots.matches import REPORTING_SEEDS, TUNING_SEEDS, clustered_mean, play_pairs, summarise


def test_a_player_against_itself_differs_by_nothing_and_its_games_are_the_same() -> None:
    pairs = play_pairs("thousand", "easy", "easy", "easy", seeds=range(2), max_deals=30)
    assert len(pairs) == 6 and {p.seat for p in pairs} == {0, 1, 2}
    assert all(p.candidate == p.baseline for p in pairs)  # the same deals, the same bots: the same game


def test_a_weaker_seat_is_seen_weaker_in_wins_margin_and_its_own_contracts() -> None:
    result = summarise(play_pairs("thousand", "random", "easy", "easy", seeds=range(3), max_deals=25))
    assert result.margin.high < 0 and result.declarer.high < 0  # random bids and loses what it bids
    assert result.a_made[0] / result.a_made[1] < result.b_made[0] / result.b_made[1]
    assert result.a_wins <= result.b_wins


def test_bank_has_no_declarer_so_every_deal_counts_as_the_seat_s_defence() -> None:
    pairs = play_pairs("bank", "easy", "medium", "medium", seeds=range(1), max_deals=10)
    assert all(p.candidate.declarer == () and len(p.candidate.defender) == p.candidate.deals for p in pairs)


def test_the_interval_is_clustered_by_seed() -> None:
    # four values, two clusters each all alike: as wide as two values, not four
    clustered = clustered_mean([(1, 1.0), (1, 1.0), (2, 0.0), (2, 0.0)])
    plain = clustered_mean([(1, 1.0), (2, 1.0), (3, 0.0), (4, 0.0)])
    assert clustered.mean == plain.mean == 0.5
    assert clustered.high - clustered.low > plain.high - plain.low
    assert clustered_mean([(1, 2.0)]).low == 2.0


def test_tuning_and_reporting_seeds_are_apart() -> None:
    assert not set(TUNING_SEEDS) & set(REPORTING_SEEDS)
    assert not set(range(500, 640)) & (set(TUNING_SEEDS) | set(REPORTING_SEEDS))  # the outside test's


def test_a_bad_spec_is_refused_before_any_game() -> None:
    with pytest.raises(Exception, match="iterz"):
        play_pairs("thousand", "search:iterz=3", "easy", "easy", seeds=range(1))

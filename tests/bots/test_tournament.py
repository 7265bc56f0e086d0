"""The tournament: duplicate seating, statistics, determinism across workers, the command, and Ray."""

from __future__ import annotations

import json
import math

import pytest

from koloda.bots.tournament import TournamentResult, lineup, mean_ci, run_tournament
from koloda.cli import main
from koloda.errors import OptionsError


def test_mean_ci_arithmetic() -> None:
    mean, (low, high) = mean_ci([1.0, 2.0, 3.0, 4.0])
    half = 1.959963984540054 * math.sqrt((1.5**2 + 0.5**2 + 0.5**2 + 1.5**2) / 3 / 4)
    assert mean == 2.5 and low == pytest.approx(2.5 - half) and high == pytest.approx(2.5 + half)
    assert half == pytest.approx(1.2652, abs=1e-4)
    assert mean_ci([7.0]) == (7.0, (7.0, 7.0))
    assert mean_ci([3.0, 3.0, 3.0]) == (3.0, (3.0, 3.0))


def test_lineups_rotate_every_entry_through_every_seat() -> None:
    for players, entries in ((2, 2), (3, 2), (4, 2), (3, 3), (4, 3)):
        lineups = [lineup(players, entries, r) for r in range(players)]
        for seat in range(players):
            held = sorted(lineups[r][seat] for r in range(players))
            assert held == sorted(i % entries for i in range(players))  # each seat: the whole line-up once


def test_summary_of_a_tiny_synthetic_tournament() -> None:
    # two players, entries a and b; rotation 0: a in seat 0, rotation 1: b in seat 0
    points = (
        ((10.0, 0.0), (4.0, 6.0)),  # a: 10 and 6 -> 8; b: 0 and 4 -> 2
        ((2.0, 2.0), (2.0, 2.0)),  # a 2, b 2: a tie, half a win each
        ((0.0, 20.0), (0.0, 0.0)),  # a: 0, 0 -> 0; b: 20, 0 -> 10
    )
    result = TournamentResult("bank", 2, ("a", "b"), 0, {}, points, 1.0)
    assert result.per_deal_means() == [[8.0, 2.0], [2.0, 2.0], [0.0, 10.0]]
    summary = result.summary()
    a, b = summary["bots"]["a"], summary["bots"]["b"]
    assert a["mean_points_per_deal"] == pytest.approx(10 / 3)
    assert b["mean_points_per_deal"] == pytest.approx(14 / 3)
    assert a["win_rate"] == pytest.approx(0.5) and b["win_rate"] == pytest.approx(0.5)
    mean, ci = mean_ci([6.0, 0.0, -10.0])
    (pair,) = summary["pairs"]
    assert (pair["a"], pair["b"]) == ("a", "b")
    assert pair["difference"] == pytest.approx(mean) and pair["ci95"] == pytest.approx(list(ci))
    assert a["ci95"] == pytest.approx(list(mean_ci([8.0, 2.0, 0.0])[1]))
    assert summary["deals"] == 3 and summary["games_played"] == 6


def test_a_spec_entered_twice_is_two_entries() -> None:
    result = TournamentResult("bank", 2, ("random", "random"), 0, {}, (((1.0, 2.0), (3.0, 4.0)),), 0.0)
    assert result.labels() == ["random", "random#2"]


@pytest.mark.parametrize(
    ("game", "players", "bots"),
    [("bank", 3, ["heuristic", "random"]), ("thousand", 3, ["heuristic", "random", "easy"])],
)
def test_same_seed_same_results_with_any_workers(game: str, players: int, bots: list[str]) -> None:
    one = run_tournament(game, bots, players=players, deals=6, seed=3, workers=1)
    two = run_tournament(game, bots, players=players, deals=6, seed=3, workers=2, chunk=1)
    assert one.points == two.points
    assert len(one.points) == 6 and all(len(deal) == players for deal in one.points)
    other = run_tournament(game, bots, players=players, deals=6, seed=4, workers=1)
    assert other.points != one.points


def test_heuristic_beats_random_on_a_small_fixed_run() -> None:
    summary = run_tournament("thousand", ["heuristic", "random"], players=3, deals=30, seed=0).summary()
    (pair,) = summary["pairs"]
    assert pair["ci95"][0] > 0  # a gap this wide shows on 30 deals (about 170 points a deal)


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"specs": []}, "at least one bot"),
        ({"specs": ["wizard"]}, "unknown bot"),
        ({"deals": 0}, "--deals must be at least 1"),
        ({"workers": 0}, "--workers must be at least 1"),
        ({"players": 2, "game": "thousand"}, "thousand is played by 3, 4 players"),
        ({"backend": "mpi"}, "unknown backend"),
        ({"options": {"trumps": "many"}}, "trumps"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict[str, object], words: str) -> None:
    args: dict[str, object] = {"game": "bank", "specs": ["random"], "players": 2, "deals": 2, "seed": 0}
    args.update(kwargs)
    game, specs = args.pop("game"), args.pop("specs")
    with pytest.raises(OptionsError, match=words):
        run_tournament(game, specs, **args)  # type: ignore[arg-type]


def test_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "tournament",
            "--game",
            "bank",
            "--bots",
            "heuristic,random",
            "--deals",
            "4",
            "--seed",
            "2",
            "--json",
        ]
    )
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["bots"]) == {"heuristic", "random"}
    for row in data["bots"].values():
        low, high = row["ci95"]
        assert low <= row["mean_points_per_deal"] <= high
    (pair,) = data["pairs"]
    direct = run_tournament("bank", ["heuristic", "random"], players=2, deals=4, seed=2).summary()
    assert pair["difference"] == pytest.approx(direct["pairs"][0]["difference"])


def test_command_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--game", "thousand", "--bots", "heuristic,random", "--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "heuristic - random" in out and "points/deal" in out
    assert main(["tournament", "--game", "bank", "--bots", "heuristic,genius", "--deals", "2"]) == 2
    err = capsys.readouterr().err
    assert "koloda: error: bad bot spec 'genius'" in err and "Traceback" not in err
    assert main(["tournament", "--game", "bank", "--bots", "random", "--option", "seven=never"]) == 2
    assert "seven" in capsys.readouterr().err


def test_ray_backend_gives_the_same_results() -> None:
    pytest.importorskip("ray")
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = run_tournament(
            "bank", ["heuristic", "random"], players=2, deals=4, seed=9, workers=2, backend="ray"
        )
    finally:
        ray.shutdown()
    local = run_tournament("bank", ["heuristic", "random"], players=2, deals=4, seed=9)
    assert on_ray.points == local.points

"""Bad input to any command is one line on stderr and exit status 2: no ValueError, KeyError or TypeError
escapes a command, and no traceback is printed (issue 13, point 5).

Property-based: hypothesis builds command lines from every command's templates with one value replaced by
junk (out-of-range numbers, odd text, option assignments of every type, missing or malformed files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from koloda.cli import main

JUNK_TEXT = st.one_of(
    st.sampled_from(
        ["", "-1", "0", "99999999999999999999", "1e9", "nan", "x=y", "=", "trumps=", "ß", "☃", "💥"]
    ),
    st.text(min_size=0, max_size=12),
)
JUNK_OPTION = st.one_of(
    st.sampled_from(
        ["target=-5", "target=abc", "trumps=purple", "nope=1", "seven=", "rule_800=maybe", "bid_step=7", "k"]
    ),
    st.builds(
        lambda k, v: f"{k}={v}", st.sampled_from(["target", "trumps", "seven", "bid_step", "zzz"]), JUNK_TEXT
    ),
)
RECORDS = st.one_of(
    st.sampled_from(
        [
            "",
            "{",
            "[]",
            "null",
            '{"game": "bank"}',
            '{"game": "bank", "players": "3", "seed": 1, "actions": []}',
            '{"game": "bank", "players": 3, "seed": 1.5, "actions": []}',
            '{"game": "bank", "players": 3, "seed": 1, "actions": [1, 2]}',
            '{"game": "bank", "players": 3, "seed": 1, "actions": ["AS+AS+AS"]}',
            '{"game": "bank", "players": 3, "deal": {"hands": 5}, "actions": []}',
            '{"game": "bank", "players": 3, "deal": {"hands": [[1]], "open": 2, "stock": [], "dealer": 0},'
            ' "actions": []}',
            '{"game": "thousand", "players": 3, "seed": 1, "options": {"bid_step": "x"}, "actions": []}',
            '{"game": "thousand", "players": 3, "deal": {"hands": ["AS"], "talon": 7}, "actions": []}',
            '{"game": "thousand", "players": 9, "seed": 1, "actions": []}',
            '{"game": "thousand", "players": 3, "seed": 1, "scope": "forever", "actions": []}',
            '{"game": "thousand", "players": 3, "seed": 1, "actions": ["120", "120", "120"], "meta": []}',
        ]
    ),
    st.builds(
        json.dumps,
        st.recursive(
            st.none() | st.integers() | st.text(max_size=5),
            lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
            max_leaves=8,
        ),
    ),
)


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own refusal of a malformed command line: status 2
        status = exc.code if isinstance(exc.code, int) else 2
    err = capsys.readouterr().err
    assert status in (0, 1, 2), (argv, status)
    assert "Traceback" not in err, (argv, err)
    if status == 2:
        lines = err.strip().splitlines()
        if lines and lines[0].startswith("usage:"):  # argparse's: the usage, then its one error line
            assert "error:" in lines[-1], (argv, err)
        else:
            assert len(lines) == 1 and lines[0].startswith("koloda: error: "), (argv, err)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(["bank", "thousand"]),
    players=JUNK_TEXT,
    deals=st.sampled_from(["0", "-3", "2", "abc", ""]),
    seed=st.sampled_from(["-1", "0", "x", "18446744073709551616"]),
    option=JUNK_OPTION,
    preset=st.sampled_from(["default", "nope", "", "home"]),
)
def test_simulate_refuses_bad_arguments_in_one_line(
    capsys: pytest.CaptureFixture[str],
    game: str,
    players: str,
    deals: str,
    seed: str,
    option: str,
    preset: str,
) -> None:
    argv = [game, "simulate", "--players", players, "--deals", deals, "--seed", seed, "--json"]
    _run([*argv, "--option", option, "--preset", preset], capsys)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.sampled_from(["bank", "thousand"]), content=RECORDS, lang=st.sampled_from(["ru", "en"]))
def test_replay_refuses_bad_records_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, content: str, lang: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    _run([game, "replay", str(path), "--lang", lang], capsys)
    _run([game, "replay", str(tmp_path / "missing.json")], capsys)
    _run([game, "replay", str(tmp_path)], capsys)  # a folder


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=RECORDS, option=JUNK_OPTION)
def test_score_files_and_tournaments_refuse_bad_input_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, option: str
) -> None:
    path = tmp_path / "score.jsonl"
    path.write_text(content + "\n" + content, encoding="utf-8")
    _run(["thousand", "score", str(path)], capsys)
    _run(["thousand", "score", str(path), "--option", option], capsys)
    _run(["tournament", "--game", "bank", "--bots", "random,clever", "--deals", "1"], capsys)
    _run(["tournament", "--game", "thousand", "--bots", "random", "--deals", "1", "--option", option], capsys)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(["bank", "thousand"]),
    content=RECORDS,
    seat=st.sampled_from(["0", "2", "-1", "9", "x", ""]),
    seed=st.sampled_from(["0", "-1", "x"]),
)
def test_analyse_refuses_bad_records_and_seats_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, content: str, seat: str, seed: str
) -> None:
    path = tmp_path / "record.json"
    path.write_text(content, encoding="utf-8")
    _run([game, "analyse", str(path), "--seat", seat, "--seed", seed, "--json"], capsys)
    _run([game, "analyse", str(tmp_path / "missing.json"), "--seat", "0"], capsys)

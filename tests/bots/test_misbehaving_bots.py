"""A bot that misbehaves (raises, returns an illegal action, overruns its time) is recorded and a fallback
plays the move: the next level down, then a random legal action. Nothing ever waits or retries for ever
(issue 13; docs/bots.md, "Bots that misbehave")."""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from koloda.bots import Bot, Fault, GuardedBot
from koloda.bots.tournament import run_tournament
from koloda.errors import IllegalActionError
from koloda.game import GameSpec
from koloda.options import Options
from koloda.registry import get
from koloda.store.sql import SqlStore
from koloda.web.app import create_app


class Raises:
    def choose(self, observation: object, legal: Sequence[int]) -> int:
        raise RuntimeError("this bot is broken")


class Illegal:
    def __init__(self) -> None:
        self.calls = 0

    def choose(self, observation: object, legal: Sequence[int]) -> int:
        self.calls += 1
        return max(legal) + 1000


class Slow:
    """A bot that takes a second of the guard's clock (the test's) for a move."""

    def __init__(self, clock: list[float]) -> None:
        self.clock = clock

    def choose(self, observation: object, legal: Sequence[int]) -> int:
        self.clock[0] += 1.0
        return legal[0]


class Fixed:
    def __init__(self, action: int) -> None:
        self.action = action

    def choose(self, observation: object, legal: Sequence[int]) -> int:
        return self.action


def test_each_misbehaviour_is_recorded_and_the_next_bot_moves() -> None:
    seen: list[Fault] = []
    now = [0.0]
    chain: list[tuple[str, Bot]] = [
        ("raises", Raises()),
        ("illegal", Illegal()),
        ("slow", Slow(now)),
        ("ok", Fixed(7)),
    ]
    guard = GuardedBot(chain, seconds=0.5, on_fault=seen.append, clock=lambda: now[0])
    assert guard.choose(None, [3, 7, 9]) == 7
    assert [(f.bot, f.kind) for f in guard.faults] == [
        ("raises", "raised"),
        ("illegal", "illegal"),
        ("slow", "overran"),
    ]
    assert seen == guard.faults
    assert "RuntimeError: this bot is broken" in str(guard.faults[0])


def test_when_every_bot_fails_a_random_legal_action_is_played_at_once() -> None:
    bad = Illegal()
    guard = GuardedBot([("bad", bad)], seed=4)
    picks = {guard.choose(None, [2, 5, 6]) for _ in range(30)}
    assert picks <= {2, 5, 6} and len(picks) > 1
    assert bad.calls == 30 and len(guard.faults) == 30  # asked once a move: never retried in a loop
    with pytest.raises(IllegalActionError):
        guard.choose(None, [])


def test_a_level_falls_back_to_the_levels_below_it() -> None:
    bank = get("bank")
    guard = bank.guarded_bot("hard", seed=1)
    assert guard.names == ("hard", "medium", "easy")  # then a random legal action
    assert bank.guarded_bot("easy", seed=1).names == ("easy",)
    assert bank.guarded_bot("search:iters=5", seed=1).names == ("search:iters=5", "hard", "medium", "easy")


def _broken_heuristics(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game's heuristic bot returns an illegal action; the others are left as they are."""
    original = GameSpec.bot

    def bot(self: GameSpec, spec: str, seed: int, options: Options | None = None) -> Bot:
        return Illegal() if spec in ("heuristic", "medium") else original(self, spec, seed, options)

    monkeypatch.setattr(GameSpec, "bot", bot)


def test_a_tournament_counts_the_faults_and_finishes(monkeypatch: pytest.MonkeyPatch) -> None:
    _broken_heuristics(monkeypatch)
    summary = run_tournament("bank", ["medium", "random"], players=2, deals=4, seed=3).summary()
    assert summary["deals"] == 4
    assert summary["bots"]["medium"]["faults"] > 0 and summary["bots"]["random"]["faults"] == 0


def test_a_web_table_with_an_illegal_bot_plays_on_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _broken_heuristics(monkeypatch)
    caplog.set_level(logging.WARNING, logger="koloda.web")
    app = create_app(SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"), bot_delay=0, bot_workers=0)
    with TestClient(app) as client:
        seats = [{"kind": "bot", "level": "medium"}] * 2
        made = client.post(
            "/api/tables", json={"game": "bank", "players": 2, "seed": 5, "seats": seats}
        ).json()
        with client.websocket_connect(f"/ws/{made['id']}") as ws:
            ws.send_json({"type": "hello", "token": None, "v": -1})
            frame = ws.receive_json()
            for _ in range(200):
                if frame["v"] >= 6:
                    break
                frame = ws.receive_json()
        assert frame["v"] >= 6
        room = client.app.state.hub.rooms[made["id"]]  # type: ignore[attr-defined]
        assert room.faults and all(f.kind == "illegal" for f in room.faults)
    assert "bot medium illegal" in caplog.text and "a fallback bot plays the move" in caplog.text


def test_a_web_bot_that_never_answers_is_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots that never answer (each blocks its thread until the test ends) are not waited for: past twice
    their time limit, on the app's clock, each move is played by the fallback and recorded as overran.
    The clock moves a second each time it is read, so the limit passes whatever the machine's speed, and
    nothing here measures the time it took."""
    release = threading.Event()

    class Stuck:
        def choose(self, observation: object, legal: Sequence[int]) -> int:
            release.wait()
            return legal[0]

    monkeypatch.setattr(GameSpec, "guarded_bot", lambda self, *a, **k: Stuck())
    ticks = itertools.count()
    app = create_app(
        SqlStore(f"sqlite:///{tmp_path / 'web.sqlite3'}"),
        bot_delay=0,
        bot_seconds=0.05,
        bot_workers=0,
        clock=lambda: float(next(ticks)),
    )
    try:
        with TestClient(app) as client:
            seats = [{"kind": "bot", "level": "easy"}] * 2
            made = client.post(
                "/api/tables", json={"game": "bank", "players": 2, "seed": 5, "seats": seats}
            ).json()
            with client.websocket_connect(f"/ws/{made['id']}") as ws:
                ws.send_json({"type": "hello", "token": None, "v": -1})
                frame = ws.receive_json()
                while frame["v"] < 2:
                    frame = ws.receive_json()
            room = client.app.state.hub.rooms[made["id"]]  # type: ignore[attr-defined]
            assert [f.kind for f in room.faults][:2] == ["overran", "overran"]
    finally:
        release.set()  # the stuck threads end

"""The cases of the project's scoring and referee tests, and the Python engines' answers to them, for the
browser's copy of the rules to be held to (tests/web/test_web_rules.py).

:func:`collect` runs those tests with the recording plugin (``rules_recorder``) and returns what they put to
the engines; :func:`answers` asks the Python engines again, case by case, in the shape ``rules_runner.js``
gives the browser's answers: the two lists must be equal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koloda.banki import BankiOptions, BankiState, Event, Phase, Stick
from koloda.errors import KolodaError
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealInput, DealScore, ScoreBook
from koloda.thousand.sheet.scorefile import Player, ScoredGame, deal_from_json
from koloda.thousand.sheet.table import scored
from koloda.web import banki as web_banki
from koloda.web import refusals
from koloda.web import sheets as web_sheets

HERE = Path(__file__).parent
TESTS = HERE.parent
#: The tests whose cases the browser's rules are held to: every test of Thousand's scoring and score sheet,
#: the golden games' scoring, every test of the banki referee, and the web's sheet and referee APIs (the
#: card game's random playouts score deals too, but only random ones, and would double the time).
SOURCES = (
    "thousand/test_scoring.py",
    "thousand/test_scoring_golden.py",
    "thousand/test_scoring_properties.py",
    "thousand/test_sheet.py",
    "thousand/test_score_cli.py",
    "thousand/test_game_golden.py",
    "banki",
    "web/test_web_sheet.py",
    "web/test_web_banki.py",
    "store/test_store_upgrade.py",
    "store/test_store_legacy.py",
    "store/test_store_both_ways.py",
)
NAMES = ("Аня", "Боря", "Вера", "Гоша")  # the players of a book the tests left unnamed


def collect(out: Path) -> dict[str, Any]:
    """Run the tests of :data:`SOURCES` with the recorder; what they put to the engines."""
    env = {**os.environ, "KOLODA_RULES_CASES": str(out), "PYTHONPATH": str(HERE)}
    env.pop("PYTEST_XDIST_WORKER", None)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "rules_recorder", "-p", "no:cacheprovider"]
    command += ["-p", "no:randomly", "-o", "addopts=", *(str(TESTS / source) for source in SOURCES)]
    done = subprocess.run(command, cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def _plain(value: Any) -> Any:
    """A recorded value as the test had it (``$list``, ``$float`` and ``$type`` read back)."""
    if isinstance(value, list):
        return tuple(_plain(item) for item in value)
    if isinstance(value, dict):
        if "$list" in value:
            return [_plain(item) for item in value["$list"]]
        if "$float" in value:
            return float(value["$float"])
        if "$type" in value:
            return {"$type": value["$type"]}
        return {key: _plain(item) for key, item in value.items()}
    return value


def _deal(recorded: dict[str, Any]) -> Any:
    if "$type" in recorded:
        return object()  # a deal of another type: the scorer names its type
    return DealInput(**{name: _plain(value) for name, value in recorded.items()})


def _error(exc: KolodaError) -> dict[str, str]:
    return {"en": exc.text("en"), "ru": exc.text("ru")}


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value, ensure_ascii=False))


def score_json(score: DealScore, names: tuple[str, ...], options: ThousandOptions) -> dict[str, Any]:
    """A deal's score, and its words: the game column and every player's cell, in both languages."""
    seats = range(len(score.delta))
    return _json(
        {
            "made": score.made,
            "delta": score.delta,
            "raw": score.raw,
            "rounded": score.rounded,
            "total": score.total,
            "notes": [[str(note) for note in notes] for notes in score.notes],
            "barrel": score.barrel,
            "winner": score.winner,
            **{
                lang: {
                    "explain": score.explain(names, lang),
                    "cells": [score.cell(seat, lang, options) for seat in seats],
                }
                for lang in ("ru", "en")
            },
        }
    )


def _attempt(action: Callable[[], Any]) -> tuple[Any, dict[str, Any] | None]:
    try:
        return action(), None
    except KolodaError as exc:
        return None, {"error": _error(exc)}


def book_answers(session: dict[str, Any]) -> list[Any]:
    """A recorded book: its set-up, then every step; at the end its whole page (table, status, chart)."""
    options = ThousandOptions.from_mapping(session["options"])
    names = NAMES[: session["players"]]
    book, failed = _attempt(lambda: ScoreBook(options, session["players"], _plain(session["start"])))
    if failed:
        return [failed]
    for recorded in session["deals"]:
        book.apply(_deal(recorded))
    out: list[Any] = []
    for step in session["steps"]:
        if step["op"] == "undo":
            score, failed = _attempt(book.undo)
        else:
            score, failed = _attempt(lambda step=step: book.apply(_deal(step["deal"])))
        out.append(failed or score_json(score, names, options))
    out.append(_json(web_sheets.sheet_json(0, scored(list(names), book))))
    return out


def line_answer(case: dict[str, Any]) -> Any:
    """A deal line read for a sheet and scored, as ``POST /api/sheets/ID/deals`` does: the refusal, or the
    sheet after it."""
    options = ThousandOptions.from_mapping(case["book"]["options"])
    players = tuple(Player(p["name"], p["gender"]) for p in case["players"])
    book = ScoreBook(options, case["book"]["players"], _plain(case["book"]["start"]))
    for recorded in case["book"]["deals"]:
        book.apply(_deal(recorded))
    game = ScoredGame(players, book)
    try:
        book.apply(deal_from_json(case["line"], players, book))
    except KolodaError as exc:
        return {"refusal": refusals.body(refusals.wrap("bad_deal", exc))}
    except (TypeError, KeyError, ValueError) as exc:
        detail = f"{type(exc).__name__}: {exc}"
        return {"refusal": refusals.body(refusals.refuse("unreadable_deal", detail=detail))}
    return {"sheet": _json(web_sheets.sheet_json(0, game))}


def banki_state(snapshot: dict[str, Any]) -> BankiState:
    """A referee's position as the recorder wrote it."""
    fields = {key: value for key, value in snapshot.items() if key not in ("options", "seed")}
    options = BankiOptions.from_mapping(snapshot["options"])
    state = BankiState(options, tuple(fields.pop("names")), snapshot["seed"])
    state.phase = Phase(fields.pop("phase"))
    state.stick = [Stick(value) for value in fields.pop("stick")]
    state.kicks = [tuple(kicks) for kicks in fields.pop("kicks")]
    state.orders = [(seat, text) for seat, text in fields.pop("orders")]
    state.history = [Event.parse(text) for text in fields.pop("history")]
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def drawn(snapshot: dict[str, Any]) -> int:
    """Where the counting-out of the recorded game lands (what the server tells the page once it is made)."""
    return banki_state(snapshot).counting_out()


def game_answers(session: dict[str, Any]) -> list[Any]:
    """A recorded banki game: every step's answer (the page's JSON, a refusal, or a parsed event)."""
    state = banki_state(session["state"])
    out: list[Any] = []
    for step in session["steps"]:
        if "state" in step:
            state = banki_state(step["state"])
        if step["op"] == "parse":
            try:
                out.append({"parsed": str(state.parse_event(step["text"]))})
            except KolodaError as exc:
                out.append({"error": _error(exc)})
            continue
        try:
            if step["op"] == "undo":
                state.undo()
            else:
                state.apply(state.parse_event(step["text"]))
        except KolodaError as exc:
            out.append({"refusal": refusals.body(refusals.wrap("bad_event", exc, field="event"))})
            continue
        out.append(_json(web_banki.to_json(0, state)))
    return out


def answers(cases: dict[str, Any]) -> dict[str, Any]:
    """The Python engines' answers to every case, in the shape of ``rules_runner.js``'s."""
    return {
        "books": [book_answers(session) for session in cases["books"]],
        "lines": [line_answer(case) for case in cases["lines"]],
        "games": [game_answers(session) for session in cases["games"]],
    }

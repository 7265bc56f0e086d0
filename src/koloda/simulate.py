"""Whole games between bots, and what they show: ``koloda <game> simulate --bots ... --games N``.

Each game (a match of Bank, a game of Thousand to 1000) is shuffled from ``seed + i`` and played by one bot
per seat (a level such as ``hard`` or any spec, docs/bots.md), each seeded from the game's seed and its
seat, to its end or to ``max_deals`` deals. The figures are the game's own (:meth:`GameSpec.match_figures`
counts them per game; they are summed here) and, for every game, how many ended and how many deals each
took (median, 90th percentile, most).

>>> from koloda.registry import get
>>> figures = simulate_matches(get("thousand"), None, players=3, bots=["easy"], matches=1, seed=3)
>>> figures["games"], figures["finished"], figures["deals_median"] > 0
(1, 1, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from koloda.errors import OptionsError, RequestError
from koloda.game import GameSpec
from koloda.i18n import Lang, say
from koloda.options import Options
from koloda.term import track


def _percentile(values: Sequence[int], share: float) -> int:
    """The nearest-rank percentile (an element of ``values``)."""
    ordered = sorted(values)
    rank = max(1, -(-int(share * 100 * len(ordered)) // 100))
    return ordered[min(rank, len(ordered)) - 1]


def simulate_matches(
    spec: GameSpec,
    options: Options | None,
    *,
    players: int,
    bots: Sequence[str],
    matches: int,
    seed: int,
    max_deals: int = 500,
    records: Path | None = None,
    progress: bool = False,
    move_seconds: list[float] | None = None,
) -> dict[str, Any]:
    """Play ``matches`` whole games; the figures as one JSON-ready dict (module docstring).
    ``move_seconds``, when given, receives the seconds of every bot decision (bench/thousand_bots.py)."""
    noun = spec.match_name
    if type(matches) is not int or matches < 1:
        raise RequestError(f"--{noun} must be at least 1, not {matches!r}", field=noun)
    if type(max_deals) is not int or max_deals < 1:
        raise RequestError(f"--max-deals must be at least 1, not {max_deals!r}", field="max_deals")
    spec.check_players(players)
    names = list(bots) * players if len(bots) == 1 else list(bots)
    if len(names) != players:
        raise OptionsError(
            f"--bots names {len(bots)} bots for {players} seats: give one for every seat, or one for all",
            field="bots",
        )
    for name in names:
        spec.bot(name, 0, options)  # a bad spec is refused before any game is played
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    lengths: list[int] = []
    finished = 0
    totals: dict[str, Any] = {}
    items = range(matches)
    for i in track(items, matches, noun) if progress else items:
        game_seed = seed + i
        state = spec.new_game(options, players=players, seed=game_seed, scope="match")
        seats = [spec.bot(name, game_seed * 10 + p, options) for p, name in enumerate(names)]
        while not state.is_over() and spec.deals_played(state) < max_deals:
            seat = state.current_player
            assert seat is not None
            view, legal = spec.observe(state, seat), state.legal_actions()
            if move_seconds is None:
                state.apply(seats[seat].choose(view, legal))
                continue
            began = time.perf_counter()
            action = seats[seat].choose(view, legal)
            move_seconds.append(time.perf_counter() - began)
            state.apply(action)
        finished += state.is_over()
        lengths.append(spec.deals_played(state))
        _add(totals, spec.match_figures(state))
        if records is not None:
            meta = {"bots": names, "finished": state.is_over()}
            state.record(meta).save(records / f"{spec.name}-{game_seed}.json")
    return {
        "game": spec.name,
        "players": players,
        "bots": names,
        "seed": seed,
        "options": (options or spec.options_class()).to_dict(),
        noun: matches,
        "finished": finished,
        "max_deals": max_deals,
        "deals_median": _percentile(lengths, 0.5),
        "deals_p90": _percentile(lengths, 0.9),
        "deals_max": max(lengths),
        "deals": sum(lengths),
        **totals,
        "seconds": round(time.perf_counter() - start, 3),
    }


def _add(totals: dict[str, Any], figures: dict[str, Any]) -> None:
    """Sum counts, and dicts of counts key by key."""
    for key, value in figures.items():
        if isinstance(value, dict):
            _add(totals.setdefault(key, {}), value)
        else:
            totals[key] = totals.get(key, 0) + value


def match_lines(spec: GameSpec, figures: dict[str, Any], lang: Lang) -> list[str]:
    """The figures for people: the common ones, then the game's own (:meth:`GameSpec.match_lines`)."""
    return [
        say(lang, "simulate.bots", bots=", ".join(figures["bots"])),
        say(
            lang,
            "simulate.played",
            played=figures[spec.match_name],
            most=figures["max_deals"],
            finished=figures["finished"],
        ),
        say(
            lang,
            "simulate.deals",
            median=figures["deals_median"],
            p90=figures["deals_p90"],
            most=figures["deals_max"],
        ),
        *spec.match_lines(figures, lang),
        say(lang, "simulate.seconds", seconds=figures["seconds"]),
    ]

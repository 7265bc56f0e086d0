"""Score tables and chart series for the pages: Thousand in the seed's layout, Bank from its deal results.

Only public facts go in: the scores after finished deals.

>>> from koloda.thousand.scoring import DealInput, ScoreBook
>>> from koloda.thousand.options import ThousandOptions
>>> book = ScoreBook(ThousandOptions(), 3)
>>> _ = book.apply(DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())))
>>> table = thousand_table(scored(["Аня", "Боря", "Вера"], book))
>>> table["ru"]["rows"][0]
['1', 'Аня 120 — выполнила (85 + марьяж 60)', '+120 → 120', '+30 (25) → 30', '+10 → 10']
>>> table["chart"]["series"]
[[0, 120], [0, 30], [0, 10]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from koloda.term import Lang
from koloda.thousand.scorefile import Player, ScoredGame
from koloda.thousand.scoring import ScoreBook
from koloda.thousand.table import status_line, winner_line

LANGS: tuple[Lang, ...] = ("ru", "en")


def scored(names: Sequence[str], book: ScoreBook) -> ScoredGame:
    """A ScoreBook with player names, as the Thousand table functions take it."""
    return ScoredGame(tuple(Player.named(name) for name in names), book)


def thousand_table(game: ScoredGame) -> dict[str, Any]:
    """The seed's table (deal, game, 'delta (raw) → total' per player) in both languages, and the chart."""
    book = game.book
    out: dict[str, Any] = {}
    for lang in LANGS:
        head = ["Кон" if lang == "ru" else "Deal", "Игра" if lang == "ru" else "Game", *game.names]
        rows = [
            [
                str(index),
                score.explain(game.names, lang, game.genders),
                *(score.cell(seat, lang, book.options) for seat in range(book.players)),
            ]
            for index, score in enumerate(book.deals, start=1)
        ]
        out[lang] = {
            "head": head,
            "rows": rows,
            "status": status_line(game, lang),
            "winner": winner_line(game, lang),
        }
    options = book.options
    out["chart"] = chart(
        game.names,
        [list(score.total) for score in book.deals],
        start=[0] * book.players,
        target=options.target,
        line_800=options.threshold_800 if options.rule_800 != "off" else None,
        barrel=options.barrel_threshold if options.barrel else None,
    )
    out["winner"] = book.winner
    return out


def chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    *,
    start: Sequence[int],
    target: int,
    line_800: int | None = None,
    barrel: int | None = None,
) -> dict[str, Any]:
    """Every player's total over the deals (from ``start``), with the lines the chart draws."""
    series = [[start[seat], *(row[seat] for row in totals)] for seat in range(len(names))]
    return {"names": list(names), "series": series, "target": target, "line_800": line_800, "barrel": barrel}


def bank_chart(names: Sequence[str], results: Sequence[dict[str, Any]], target: int) -> dict[str, Any]:
    """The Bank totals after each finished deal (from the observation's public deal results)."""
    return chart(names, [result["totals"] for result in results], start=[0] * len(names), target=target)

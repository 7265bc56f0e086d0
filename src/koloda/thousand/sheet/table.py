"""The score table of a Thousand game in the seed's layout, as Markdown, CSV, JSON or for the web pages.

>>> from koloda.thousand.sheet.scorefile import parse_score_file
>>> lines = ['{"players": ["Аня", "Боря", "Вера"]}', '{"declarer": "Вера", "bid": 110, "bomb": true}']
>>> game = parse_score_file("\\n".join(lines))
>>> print(markdown_table(game, "en"))
| Deal | Game | Аня | Боря | Вера |
|---|---|---|---|---|
| 1 | Вера 110 — bomb | +60 → 60 | +60 → 60 | 0 → 0 |

>>> from koloda.thousand.scoring import DealInput, ScoreBook
>>> from koloda.thousand.options import ThousandOptions
>>> book = ScoreBook(ThousandOptions(), 3)
>>> _ = book.apply(DealInput(declarer=0, bid=120, points=(85, 25, 10), marriages=((60,), (), ())))
>>> table = page_table(scored(["Аня", "Боря", "Вера"], book))
>>> table["ru"]["rows"][0]
['1', 'Аня 120 — выполнила (85 + марьяж 60)', '+120 → 120', '+30 (25) → 30', '+10 → 10']
>>> table["chart"]["series"]
[[0, 120], [0, 30], [0, 10]]
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from koloda import screen
from koloda.charts import chart
from koloda.i18n import LANGS, Lang, say
from koloda.thousand.scoring import ScoreBook, number
from koloda.thousand.sheet.scorefile import Player, ScoredGame


def table_rows(game: ScoredGame, lang: Lang = "ru", marks: bool = False) -> tuple[list[str], list[list[str]]]:
    """The seed's table as its head and rows: deal, game, then per player 'delta (raw) → total'; ``marks``
    adds barrel, 800..."""
    options = game.book.options if marks else None
    head = [say(lang, "thousand.table.deal"), say(lang, "thousand.table.game"), *game.names]
    rows: list[list[str]] = []
    for index, score in enumerate(game.book.deals, start=1):
        cells = [score.cell(seat, lang, options) for seat in range(game.book.players)]
        rows.append([str(index), score.explain(game.names, lang, game.genders), *cells])
    return head, rows


def markdown_table(game: ScoredGame, lang: Lang = "ru", marks: bool = False) -> str:
    """The seed's table as Markdown (the exports, ``koloda thousand score``)."""
    head, rows = table_rows(game, lang, marks)
    lines = ["| " + " | ".join(row) + " |" for row in [head, *rows]]
    lines.insert(1, "|" + "---|" * len(head))
    return "\n".join(lines)


def screen_table(game: ScoredGame, lang: Lang = "ru", marks: bool = False, width: int | None = None) -> str:
    """The seed's table drawn for the terminal (the sheet, a game's deals): columns under a line, not the
    Markdown source."""
    head, rows = table_rows(game, lang, marks)
    drawn = screen.render(screen.table(head, rows, left=(1,)), colour=False, width=width)
    return "\n".join(line.rstrip() for line in drawn.splitlines())


def winner_line(game: ScoredGame, lang: Lang = "ru") -> str | None:
    """'Победила Аня: 1000.' when the game is won, else None."""
    seat = game.book.winner
    if seat is None:
        return None
    player = game.players[seat]
    total = number(game.book.totals[seat])
    if player.gender == "f":
        return say(lang, "thousand.table.winner_f", name=player.name, total=total)
    return say(lang, "thousand.table.winner", name=player.name, total=total)


def status_line(game: ScoredGame, lang: Lang = "ru") -> str:
    """Who sits on the barrel (and for how many more deals) and who is past the 800 line, for the sheet."""
    book, options = game.book, game.book.options
    parts = []
    barrel = []
    for seat, state in enumerate(book.seats):
        if state.barrel is not None:
            name = game.players[seat].name
            if options.barrel_deals is None:
                barrel.append(name)
            else:
                left = options.barrel_deals - state.barrel
                barrel.append(say(lang, "thousand.table.barrel_left", name=name, n=left))
    nobody = say(lang, "thousand.table.nobody")
    if options.barrel:
        who = ", ".join(barrel) or nobody
        parts.append(say(lang, "thousand.table.barrel", threshold=options.barrel_threshold, who=who))
    if options.rule_800 != "off":
        past = [
            game.players[seat].name
            for seat, state in enumerate(book.seats)
            if state.total >= options.threshold_800 and state.barrel is None
        ]
        line = options.threshold_800
        who = ", ".join(past) or nobody
        parts.append(say(lang, "thousand.table.line_800", line=line, who=who))
    if options.bombs_per_game is not None:
        left_bombs = ", ".join(
            f"{player.name} {options.bombs_per_game - state.bombs}"
            for player, state in zip(game.players, book.seats, strict=True)
        )
        parts.append(say(lang, "thousand.table.bombs_left", who=left_bombs))
    if options.bolts is not None:
        bolts = ", ".join(
            f"{player.name} {state.bolts}" for player, state in zip(game.players, book.seats, strict=True)
        )
        parts.append(say(lang, "thousand.table.bolts", who=bolts))
    return ". ".join(parts) + "." if parts else ""


def csv_table(game: ScoredGame, lang: Lang = "ru") -> str:
    """One row a deal, numbers only per player (points, points before rounding, total), for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = [say(lang, "thousand.csv.deal"), say(lang, "thousand.csv.game")]
    for name in game.names:
        head += [
            say(lang, "thousand.csv.points", name=name),
            say(lang, "thousand.csv.raw", name=name),
            say(lang, "thousand.csv.total", name=name),
        ]
    writer.writerow([csv_text(cell) for cell in head])
    for index, score in enumerate(game.book.deals, start=1):
        row: list[Any] = [index, csv_text(score.explain(game.names, lang, game.genders))]
        for seat in range(game.book.players):
            row += [score.delta[seat], score.raw[seat], score.total[seat]]
        writer.writerow(row)
    return out.getvalue()


#: What a spreadsheet reads as the start of a formula (or, for tab and carriage return, may turn into one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_text(text: str) -> str:
    """A text cell of a CSV export, made inert: one that a spreadsheet would run as a formula (a player
    named ``=HYPERLINK(...)``) gets a ``'`` in front, which spreadsheets show as text. Numbers are written
    as numbers and never pass here.

    >>> csv_text("=1+1"), csv_text("-Аня"), csv_text("Аня")
    ("'=1+1", "'-Аня", 'Аня')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def json_result(game: ScoredGame, lang: Lang = "ru") -> dict[str, Any]:
    """The whole table as one JSON-ready object (``koloda thousand score --json``)."""
    names = game.names

    def per_seat(values: tuple[Any, ...]) -> dict[str, Any]:
        return dict(zip(names, values, strict=True))

    deals = []
    for index, score in enumerate(game.book.deals, start=1):
        deals.append(
            {
                "deal": index,
                "game": score.explain(names, lang, game.genders),
                "declarer": names[score.deal.declarer],
                "bid": score.deal.bid,
                "bomb": score.deal.bomb,
                "made": score.made,
                "delta": per_seat(score.delta),
                "raw": per_seat(score.raw),
                "total": per_seat(score.total),
                "notes": per_seat(tuple([str(note) for note in notes] for notes in score.notes)),
                "barrel": per_seat(score.barrel),
            }
        )
    winner = game.book.winner
    return {
        "players": list(names),
        "options": game.book.options.to_dict(),
        "deals": deals,
        "totals": per_seat(game.book.totals),
        "winner": None if winner is None else names[winner],
    }


def scored(names: Sequence[str], book: ScoreBook) -> ScoredGame:
    """A ScoreBook with player names, as the Thousand table functions take it."""
    return ScoredGame(tuple(Player.named(name) for name in names), book)


def page_table(game: ScoredGame) -> dict[str, Any]:
    """The seed's table (deal, game, 'delta (raw) → total' per player) in both languages, and the chart."""
    book = game.book
    out: dict[str, Any] = {}
    for lang in LANGS:
        head = [say(lang, "thousand.table.deal"), say(lang, "thousand.table.game"), *game.names]
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

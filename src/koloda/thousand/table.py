"""The score table of a Thousand game in the seed's layout, as Markdown, CSV or JSON.

>>> from koloda.thousand.scorefile import parse_score_file
>>> lines = ['{"players": ["Аня", "Боря", "Вера"]}', '{"declarer": "Вера", "bid": 110, "bomb": true}']
>>> game = parse_score_file("\\n".join(lines))
>>> print(markdown_table(game, "en"))
| Deal | Game | Аня | Боря | Вера |
|---|---|---|---|---|
| 1 | Вера 110 — bomb | +60 → 60 | +60 → 60 | 0 → 0 |
"""

from __future__ import annotations

import csv
import io
from typing import Any

from koloda.term import Lang, say
from koloda.thousand.scorefile import ScoredGame
from koloda.thousand.scoring import number


def markdown_table(game: ScoredGame, lang: Lang = "ru", marks: bool = False) -> str:
    """The seed's table: deal, game, then per player 'delta (raw) → total'; ``marks`` adds barrel, 800..."""
    options = game.book.options if marks else None
    head = [say(lang, "Кон", "Deal"), say(lang, "Игра", "Game"), *game.names]
    rows: list[list[str]] = []
    for index, score in enumerate(game.book.deals, start=1):
        cells = [score.cell(seat, lang, options) for seat in range(game.book.players)]
        rows.append([str(index), score.explain(game.names, lang, game.genders), *cells])
    lines = ["| " + " | ".join(row) + " |" for row in [head, *rows]]
    lines.insert(1, "|" + "---|" * len(head))
    return "\n".join(lines)


def winner_line(game: ScoredGame, lang: Lang = "ru") -> str | None:
    """'Победила Аня: 1000.' when the game is won, else None."""
    seat = game.book.winner
    if seat is None:
        return None
    player = game.players[seat]
    total = number(game.book.totals[seat])
    verb = "Победила" if player.gender == "f" else "Победил"
    return say(lang, f"{verb} {player.name}: {total}.", f"Winner: {player.name} with {total}.")


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
                barrel.append(say(lang, f"{name} (осталось конов: {left})", f"{name} ({left} deals left)"))
    if options.barrel:
        who = ", ".join(barrel) or "—"
        parts.append(
            say(lang, f"Бочка {options.barrel_threshold}: {who}", f"Barrel {options.barrel_threshold}: {who}")
        )
    if options.rule_800 != "off":
        past = [
            game.players[seat].name
            for seat, state in enumerate(book.seats)
            if state.total >= options.threshold_800 and state.barrel is None
        ]
        line = options.threshold_800
        who = ", ".join(past) or "—"
        parts.append(
            say(lang, f"Линия {line} (защита не в счёт): {who}", f"{line} line (no defence points): {who}")
        )
    if options.bombs_per_game is not None:
        left_bombs = ", ".join(
            f"{player.name} {options.bombs_per_game - state.bombs}"
            for player, state in zip(game.players, book.seats, strict=True)
        )
        parts.append(say(lang, f"Бомб осталось: {left_bombs}", f"Bombs left: {left_bombs}"))
    if options.bolts is not None:
        bolts = ", ".join(
            f"{player.name} {state.bolts}" for player, state in zip(game.players, book.seats, strict=True)
        )
        parts.append(say(lang, f"Болты: {bolts}", f"Bolts: {bolts}"))
    return ". ".join(parts) + "." if parts else ""


def csv_table(game: ScoredGame, lang: Lang = "ru") -> str:
    """One row a deal, numbers only per player (points, points before rounding, total), for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = [say(lang, "кон", "deal"), say(lang, "игра", "game")]
    for name in game.names:
        head += [
            say(lang, f"{name}: очки", f"{name}: points"),
            say(lang, f"{name}: до округления", f"{name}: raw"),
            say(lang, f"{name}: счёт", f"{name}: total"),
        ]
    writer.writerow(head)
    for index, score in enumerate(game.book.deals, start=1):
        row: list[Any] = [index, score.explain(game.names, lang, game.genders)]
        for seat in range(game.book.players):
            row += [score.delta[seat], score.raw[seat], score.total[seat]]
        writer.writerow(row)
    return out.getvalue()


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

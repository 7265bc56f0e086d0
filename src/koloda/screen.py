"""The terminal's table view: what a player sees before each move, drawn with rich into plain text.

The interactive loops write text through a ``write`` function (tests feed and read them), so a view is
rendered into a string here and written like any line. Colour only where :func:`koloda.term.colour_enabled`
says so; without it the text has no escape codes at all. Box-drawing characters are always Unicode: a
terminal that cannot show them gets ASCII stand-ins from :mod:`koloda.console`, like the suits.

>>> print(render(seats_table(["Player", "Cards"], [["You", "6"], ["Bot 1", "5"]], turn=0), colour=False))
    Player   Cards
──────────────────
▶   You          6
    Bot 1        5
"""

from __future__ import annotations

import io
import shutil
from collections.abc import Sequence

from rich import box
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

#: The mark of the seat to act.
TURN = "▶"


def width() -> int:
    """The terminal's width, at most 100 columns (80 where it cannot be told)."""
    return min(shutil.get_terminal_size((80, 24)).columns, 100)


def render(*parts: RenderableType | str, colour: bool, width: int | None = None) -> str:
    """``parts`` one under the other, as text (with colour codes only when ``colour``)."""
    out = io.StringIO()
    console = Console(
        file=out,
        width=width or globals()["width"](),
        force_terminal=colour,
        color_system="standard" if colour else None,
        no_color=not colour,
        highlight=False,
        emoji=False,
        markup=False,
        safe_box=False,
        legacy_windows=False,
    )
    for part in parts:
        console.print(part)
    return out.getvalue().rstrip("\n")


def title(text: str) -> Rule:
    """A heading line across the screen."""
    return Rule(Text(text, style="bold"), align="left", characters="─")


def table(head: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int] = (0,)) -> Table:
    """A table drawn with a line under its head and no frame: the columns in ``left`` aligned left, the
    others (numbers) right; long cells wrap within their column.

    >>> print(render(table(["Deal", "Game", "Аня"], [["1", "Аня 120", "+120"]], left=(1,)), colour=False))
    Deal   Game       Аня
    ─────────────────────
       1   Аня 120   +120
    """
    out = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    for number, name in enumerate(head):
        out.add_column(name, justify="left" if number in left else "right")
    for row in rows:
        out.add_row(*row)
    return out


def seats_table(head: Sequence[str], rows: Sequence[Sequence[str]], turn: int | None) -> Table:
    """The players, one row each (the first column their names), the one to act marked ▶."""
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1))
    table.add_column("", no_wrap=True)
    for number, name in enumerate(head):
        table.add_column(name, justify="left" if number == 0 else "right")
    for seat, row in enumerate(rows):
        style = "bold" if seat == turn else ""
        table.add_row(TURN if seat == turn else "", *row, style=style)
    return table


def line(label: str, value: str | Text = "") -> Text:
    """``label value``, the label in bold."""
    text = Text(label, style="bold")
    if value:
        text.append(" ")
        text.append(value)
    return text


def cards(text: str, colour: bool) -> Text:
    """Cards written with suit symbols, the red suits red when there is colour."""
    out = Text(text)
    if colour:
        out.highlight_regex(r"\S*[♥♦]", "red")
    return out

"""What the terminal shows of a lesson's position: each game's own table view (the one ``koloda <game>
play`` shows), with the lesson's names for the other seats."""

from __future__ import annotations

from collections.abc import Sequence

from koloda.bank.cli import deal_report, table_view
from koloda.bank.observe import BankObservation
from koloda.game import Observation
from koloda.i18n import Lang, say
from koloda.thousand.cli import Narrator
from koloda.thousand.observe import ThousandObservation


def _named(text: str, names: Sequence[str], seat: int, lang: Lang) -> str:
    """Bank's view names the other seats "Bot N": the lesson's names instead."""
    for other, name in enumerate(names):
        if other != seat:
            text = text.replace(say(lang, "term.bot", seat=other), name)
    return text


def position(view: Observation, names: Sequence[str], lang: Lang, colour: bool) -> str:
    """The learner's table before his move (``view.seat``'s), with ``names`` for the seats (his own is
    "you")."""
    seat = view.seat
    assert seat is not None  # the learner's own view
    if isinstance(view, BankObservation):
        return _named(table_view(view, seat, lang, colour), names, seat, lang)
    assert isinstance(view, ThousandObservation)
    lines: list[str] = []
    people = [say(lang, "term.you") if i == seat else name for i, name in enumerate(names)]
    Narrator(seat, people, lang, lines.append).show_turn(view, list(view.legal_actions), colour)
    return "\n".join(lines)


def ending(view: Observation, names: Sequence[str], lang: Lang, colour: bool) -> str:
    """What the end of a lesson shows of its deal: Bank's score sheet when the deal is over, else nothing."""
    seat = view.seat
    if isinstance(view, BankObservation) and view.results and seat is not None:
        return _named(deal_report(view.results[-1], seat, lang, colour), names, seat, lang)
    return ""

"""What the referee shows: the state in words (``describe``) and what happens next (``what_next``).

Both read only the public view, so a terminal or a web page can show them to anyone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from koloda.banki.text import MEANS_TEXT, PARTS_TEXT, PHASE_NAMES, rank_name, say
from koloda.i18n import Lang

if TYPE_CHECKING:
    from koloda.banki.state import BankiState

_STICK_TEXT = {
    "hand": ("behind the line", "за линией"),
    "field": ("stick on the field", "палка на поле"),
    "pile": ("stick in the pile", "палка в куче"),
}
_EN, _RU = 0, 1


def _pick(pair: tuple[str, str], lang: Lang) -> str:
    return pair[_EN if lang == "en" else _RU]


def _metres(value: float) -> str:
    return f"{value:g}"


def describe(state: BankiState, lang: Lang = "en") -> str:
    """The whole situation in a few lines: stage, driver, can, and every player's rank, line and stick."""
    en = lang == "en"
    variant = state.options.style
    head = (
        f"banki ({variant}), round {state.round}: {_pick(PHASE_NAMES[state.phase.value], lang)}"
        if en
        else f"банки ({'московские' if variant == 'moscow' else 'челябинские'}), кон {state.round}: "
        f"{_pick(PHASE_NAMES[state.phase.value], lang)}"
    )
    lines = [head]
    if state.driver is not None:
        can = ("standing" if en else "стоит") if state.can_up else ("down" if en else "сбита")
        driver = f"{state.names[state.driver]} ({rank_name(state.rank_id(state.driver), lang)})"
        lines.append(f"{'driver' if en else 'водит'}: {driver}; {'can' if en else 'банка'}: {can}")
    seats = state.order if state.order else range(len(state.names))
    for place, seat in enumerate(seats, start=1):
        rank = rank_name(state.rank_id(seat), lang)
        parts = [
            f"{place}. {state.names[seat]}",
            f"{rank}, {_metres(state.line(seat))} m" if en else f"{rank}, {_metres(state.line(seat))} м",
        ]
        if state.phase.value in ("throw", "race", "driver-throw"):
            parts.append(_pick(_STICK_TEXT[state.stick[seat].value], lang))
        if state.steps[seat]:
            parts.append(f"+{state.steps[seat]} {'rank' if en else 'зв.'}")
        if state.tagged == seat:
            parts.append("TAGGED" if en else "ОСАЛЕН")
        if state.kicks[seat] and state.phase.value == "kick":
            parts.append(" / ".join(_metres(cm / 100) for cm in state.kicks[seat]))
        lines.append(" — ".join(parts))
    for seat, text in state.orders:
        lines.append(say("news_order_given", lang, name=state.names[seat], text=text))
    return "\n".join(lines)


def what_next(state: BankiState, lang: Lang = "en") -> list[str]:
    """What happens next, in sentences: whose throw, what the driver may do, who may be tagged."""
    names = state.names
    phase = state.phase.value
    driver = state.driver_name or "-"
    out: list[str] = []
    if phase == "count":
        return [say("next_count", lang)]
    if phase == "kick":
        out.append(say("next_kick", lang, names=", ".join(names[s] for s in state.pending_kickers())))
        if state.driver is None:
            out.append(say("next_kick_driver", lang))
        return out
    if phase == "over":
        winners = ", ".join(names[s] for s in state.winners)
        out.append(say("next_over", lang, names=winners))
        if state.options.winner_orders:
            out.append(say("next_orders", lang, names=winners))
        return out
    if phase == "driver-throw":
        return [say("next_driver_throw", lang, driver=driver)]
    if phase == "run":
        return [say("next_run", lang, driver=driver, rank=state.options.ranks[0])]
    just = state.just_threw
    if just is not None and state.options.crossed_sticks:
        out.append(say("next_cross", lang, name=names[just]))
    if not state.can_up:
        out.append(say("next_reset", lang) if phase == "throw" else say("next_can_down_race", lang))
    if phase == "throw":
        thrower = state.thrower()
        if thrower is not None:
            where = "" if state.options.style == "moscow" else " pile|field"
            out.append(
                say("next_throw", lang, name=names[thrower], rank=state.rank_id(thrower),
                    line=_metres(state.line(thrower)), where=where)
            )  # fmt: skip
            if state.rank_id(thrower) in state.options.spear_ranks:
                out.append(say("next_spear", lang, name=names[thrower]))
        if state.options.style == "chelyabinsk":
            _chelyabinsk_sticks(state, lang, out)
        return out
    # the Moscow race back
    out_there = [s for s in state.players() if state.stick[s].value != "hand"]
    out.append(say("next_race", lang, names=", ".join(names[s] for s in out_there)))
    if state.tagged is not None:
        out.append(say("next_tagged", lang, name=names[state.tagged], driver=driver))
    elif state.can_up:
        may = [s for s in out_there if state.taggable(s)]
        if may:
            out.append(
                say(
                    "next_may_tag",
                    lang,
                    driver=driver,
                    list="; ".join(_tag_terms(state, s, lang) for s in may),
                )
            )
        else:
            out.append(say("next_no_tag", lang))
        safe = [s for s in out_there if not state.taggable(s)]
        if safe:
            out.append(
                say(
                    "next_safe",
                    lang,
                    list=", ".join(f"{names[s]} ({rank_name(state.rank_id(s), lang)})" for s in safe),
                )
            )
        out.append(say("next_fouls", lang))
    fetchers = [names[s] for s in state.players() if state.rank_id(s) in state.options.fetch_others_ranks]
    if fetchers:
        out.append(say("next_bring", lang, names=", ".join(fetchers)))
    return out


def _tag_terms(state: BankiState, seat: int, lang: Lang) -> str:
    means, parts = state.options.privileges(state.rank_id(seat))
    return f"{state.names[seat]} ({_pick(MEANS_TEXT[means], lang)}, {_pick(PARTS_TEXT[parts], lang)})"


def _chelyabinsk_sticks(state: BankiState, lang: Lang, out: list[str]) -> None:
    names = state.names
    field = [names[s] for s in state.players() if state.stick[s].value == "field"]
    pile = [names[s] for s in state.players() if state.stick[s].value == "pile"]
    waiting = [names[s] for s in state.players() if state.hit_waiting[s]]
    if field:
        out.append(say("next_chel_back_field", lang, names=", ".join(field)))
    if pile:
        out.append(say("next_chel_pile", lang, names=", ".join(pile)))
    if waiting:
        out.append(say("next_chel_hitter", lang, names=", ".join(waiting)))

"""What the referee shows: the state in words (``describe``), what happens next (``what_next``), what the
last event did (``news_text``), the observation of the yard (``observe``), and the events that may come
next (``legal_events``, for random playouts and the page's suggestions).

All of it is public (the yard is open), so a terminal or a web page can show it to anyone.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from koloda import i18n
from koloda.banki.events import Event, Kind, in_words
from koloda.banki.state import BankiState
from koloda.banki.text import MEANS, PARTS, PHASES, RefereeError, rank_name, say
from koloda.i18n import N_, Lang

_STICKS = {
    "hand": N_("banki.stick.hand"),
    "field": N_("banki.stick.field"),
    "pile": N_("banki.stick.pile"),
    "carried": N_("banki.stick.carried"),
}
_VARIANTS = {"moscow": N_("banki.variant.moscow"), "chelyabinsk": N_("banki.variant.chelyabinsk")}


def _metres(value: float) -> str:
    return f"{value:g}"


def describe(state: BankiState, lang: Lang = "en") -> str:
    """The whole situation in a few lines: stage, driver, can, and every player's rank, line and stick."""
    variant = i18n.say(lang, _VARIANTS[state.options.style])
    phase = i18n.say(lang, PHASES[state.phase.value])
    lines = [i18n.say(lang, "banki.describe.head", variant=variant, round=state.round, phase=phase)]
    if state.driver is not None:
        can = (
            i18n.say(lang, "banki.describe.can_up")
            if state.can_up
            else i18n.say(lang, "banki.describe.can_down")
        )
        driver = f"{state.names[state.driver]} ({rank_name(state.rank_id(state.driver), lang)})"
        lines.append(i18n.say(lang, "banki.describe.driver", driver=driver, can=can))
    seats = state.order if state.order else range(len(state.names))
    for place, seat in enumerate(seats, start=1):
        rank = rank_name(state.rank_id(seat), lang)
        parts = [
            f"{place}. {state.names[seat]}",
            i18n.say(lang, "banki.describe.line", rank=rank, metres=_metres(state.line(seat))),
        ]
        if state.phase.value in ("throw", "race", "driver-throw"):
            parts.append(i18n.say(lang, _STICKS[state.stick[seat].value]))
        if state.steps[seat]:
            parts.append(i18n.say(lang, "banki.describe.steps", steps=state.steps[seat]))
        if state.tagged == seat:
            parts.append(i18n.say(lang, "banki.describe.tagged"))
        if state.kicks[seat] and state.phase.value == "kick":
            kicks = ", ".join(_metres(cm / 100) for cm in state.kicks[seat])
            parts.append(i18n.say(lang, "banki.describe.kicks", kicks=kicks))
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
            where = (
                ""
                if state.options.style == "moscow"
                else " " + in_words("pile", lang) + "|" + in_words("field", lang)
            )
            out.append(
                say("next_throw", lang, name=names[thrower], rank=state.rank_id(thrower),
                    line=_metres(state.line(thrower)), where=where)
            )  # fmt: skip
            if state.rank_id(thrower) in state.options.spear_ranks:
                out.append(say("next_spear", lang, name=names[thrower]))
        if state.options.style == "chelyabinsk":
            _chelyabinsk_sticks(state, lang, out)
        if state.fresh:
            out.append(say("next_roster", lang))
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
    holding = [s for s in out_there if state.options.privileges(state.rank_id(s))[0] == "holding"]
    if holding:
        out.append(say("next_pick", lang, names=", ".join(names[s] for s in holding)))
    fetchers = [names[s] for s in state.players() if state.rank_id(s) in state.options.fetch_others_ranks]
    if fetchers:
        out.append(say("next_bring", lang, names=", ".join(fetchers)))
    return out


def _tag_terms(state: BankiState, seat: int, lang: Lang) -> str:
    means, parts = state.options.privileges(state.rank_id(seat))
    return f"{state.names[seat]} ({i18n.say(lang, MEANS[means])}, {i18n.say(lang, PARTS[parts])})"


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


def news_text(state: BankiState, lang: Lang = "en") -> list[str]:
    """What the last event did (promotions, a new driver, the end), in words."""
    return [say(key, lang, **params) for key, params in state.news]


def observe(state: BankiState, seat: int | None = None) -> dict[str, Any]:
    """What a player (or a spectator, ``seat=None``) sees: everything in the open yard, but not the seed.

    The seed would tell in advance whom the counting-out picks (C1), so it never crosses this door.
    """
    return {
        "names": list(state.names),
        "you": seat,
        "options": state.options.to_dict(),
        "phase": state.phase.value,
        "round": state.round,
        "driver": state.driver,
        "order": list(state.order),
        "ranks": [state.rank_id(s) for s in range(len(state.names))],
        "sticks": [stick.value for stick in state.stick],
        "kicks": [list(k) for k in state.kicks],
        "can_up": state.can_up,
        "tagged": state.tagged,
        "thrower": state.thrower(),
        "pending_promotions": list(state.steps),
        "winners": list(state.winners),
        "present": list(state.present),
        "orders": [[seat, text] for seat, text in state.orders],
        "history": [str(event) for event in state.history],
    }


def _candidates(state: BankiState) -> Iterator[Event]:
    """Every event of the kinds this stage allows that could be legal (``apply`` judges): all tags but on
    the head (G4 refuses it always), crosses of the stick just thrown, and kicks at three distances."""
    names = state.names
    kinds = state.allowed_kinds()
    here = [names[s] for s in range(len(names)) if state.present[s]]
    for kind in ("count", "reset", "guarded"):
        if kind in kinds:
            yield Event(kind)
    if "counted" in kinds:
        yield from (Event("counted", player=name) for name in here)
    if "kick" in kinds:
        for seat in state.pending_kickers():
            yield from (Event("kick", player=names[seat], centimetres=m * 100) for m in (3, 7, 11))
    simple: tuple[Kind, ...] = ("hit", "back", "pick", "knock", "snatch", "last", "leave")
    for name in here:
        yield from (Event(kind, player=name) for kind in simple if kind in kinds)
        if "hit" in kinds:
            yield Event("hit", player=name, spear=True)
        if "miss" in kinds:
            yield Event("miss", player=name)
            yield Event("miss", player=name, spear=True)
            yield from (Event("miss", player=name, where=w) for w in ("pile", "field"))
        if "foul" in kinds:
            yield from (Event("foul", player=name, foul=f) for f in ("grab", "line"))
        if "tag" in kinds:
            for means in ("stick", "hand"):
                yield from (
                    Event("tag", player=name, means=means, part=p) for p in ("torso", "arm", "leg", "heel")
                )
        if "bring" in kinds and state.rank_id(state.seat(name)) in state.options.fetch_others_ranks:
            yield from (Event("bring", player=name, other=other) for other in here if other != name)
        if "order" in kinds and state.options.winner_orders:
            yield Event("order", player=name, text="whistle three times")
    if "cross" in kinds and state.just_threw is not None:
        thrower = names[state.just_threw]
        yield from (Event("cross", player=thrower, other=other) for other in here if other != thrower)
    if "join" in kinds:
        yield from (Event("join", player=names[s]) for s in range(len(names)) if not state.present[s])


def legal_events(state: BankiState) -> Iterator[Event]:
    """The events the rules allow now: every kind and player, every tag, three distances per kick.

    Used by the random playouts and the referee page's buttons; ``apply`` is the judge, this only lists.
    """
    for event in _candidates(state):
        trial = state.copy()
        try:
            trial.apply(event)
        except RefereeError:
            continue
        yield event


def templates(state: BankiState) -> list[str]:
    """Events the page cannot list in full, as their start: a kick needs its metres, a newcomer his name,
    the winner's order its words (the page asks for the rest)."""
    out = []
    if "kick" in state.allowed_kinds():
        out += [f"kick {state.names[seat]}" for seat in state.pending_kickers()]
    if "join" in state.allowed_kinds() and state.fresh and sum(state.present) < state.options.max_players:
        out.append("join")
    if state.phase.value == "over" and state.options.winner_orders:
        out += [f"order {state.names[s]}" for s in state.players() if s not in state.winners]
    return out

"""Every sentence the referee says, in English and Russian, and the errors that can be said in both.

Messages are keyed; parameters named ``rank``/``rank2`` hold rank ids and are shown in the chosen
language. The engine raises :class:`RefereeError`/:class:`EventNotationError` with a key, so that the
terminal (and later the web page) can show the reason in the player's language:

>>> say("cant_tag_rank", "ru", name="Аня", rank="marshal")
'Игрока Аня нельзя осалить: маршалов не салят вообще'
"""

from __future__ import annotations

from typing import Any

from koloda.errors import IllegalActionError
from koloda.i18n import Lang

_ORDER: tuple[Lang, ...] = ("en", "ru")  # the order of each entry's texts below

RANK_NAMES: dict[str, tuple[str, str, str]] = {
    # id: English, Russian (nominative), Russian (genitive)
    "private": ("private", "рядовой", "рядового"),
    "corporal": ("corporal", "ефрейтор", "ефрейтора"),
    "soldier": ("soldier", "солдат", "солдата"),
    "sergeant": ("sergeant", "сержант", "сержанта"),
    "lieutenant": ("lieutenant", "лейтенант", "лейтенанта"),
    "captain": ("captain", "капитан", "капитана"),
    "major": ("major", "майор", "майора"),
    "colonel": ("colonel", "полковник", "полковника"),
    "general": ("general", "генерал", "генерала"),
    "marshal": ("marshal", "маршал", "маршала"),
    "sunny": ("'sunny'", "«солнечный»", "«солнечного»"),
}

MESSAGES: dict[str, tuple[str, str]] = {
    # -- errors: the event is not allowed now -----------------------------------------------------------
    "over": ("the game is over: no more {what}", "игра окончена: событие «{what}» уже невозможно"),
    "wrong_phase": (
        "'{what}' is not an event of this stage ({phase}); now: {allowed}",
        "«{what}» — не событие этого этапа ({phase}); сейчас можно: {allowed}",
    ),
    "unknown_name": ("no player called {name!r}; players: {names}", "нет игрока «{name}»; игроки: {names}"),
    "not_kicking": ("{name} has no kick to make now", "{name} сейчас не бьёт палку с ноги"),
    "driver_no_kick": ("{name} is the driver and does not kick", "{name} водит и не бьёт палку с ноги"),
    "is_driver": ("{name} is the driver", "{name} водит"),
    "out_of_turn": (
        "{name} throws out of turn: it is {turn}'s throw",
        "{name} бросает не в очередь: бросает {turn}",
    ),
    "not_in_hand": (
        "{name} has no stick to throw: it is out on the field or in the pile",
        "{name} нечем бросать: палка на поле или в куче",
    ),
    "can_down": (
        "the can is down: the driver puts it back first ('reset')",
        "банка сбита: сначала водящий ставит её на место («reset»)",
    ),
    "can_up": ("the can is standing already", "банка и так стоит"),
    "no_spear": (
        "{name} ({rank}) may not throw spear-style",
        "{name} ({rank}) не может бросать «копьём»",
    ),
    "where_moscow": (
        "there is no pile in this variant: say just '{kind} NAME'",
        "в этом варианте нет кучи: просто «{kind} ИМЯ»",
    ),
    "where_needed": (
        "say where the stick lies: 'miss {name} pile' (at the can) or 'miss {name} field'",
        "скажите, где палка: «miss {name} pile» (у банки) или «miss {name} field»",
    ),
    "hit_no_where": (
        "a hit stick lies at the can: no place to name",
        "палка, сбившая банку, лежит у банки: место не указывается",
    ),
    "has_stick": ("{name} is already behind the line with the stick", "{name} уже за линией с палкой"),
    "stick_in_pile": (
        "{name}'s stick is in the driver's pile: it can be taken only while the can is down",
        "палка игрока {name} в куче водящего: её можно взять, только пока банка сбита",
    ),
    "is_tagged": (
        "{name} is tagged: only a knock of the can frees them",
        "{name} осален(а): освободить может только сбитая банка",
    ),
    "cant_fetch_others": (
        "{name} ({rank}) may not fetch other players' sticks",
        "{name} ({rank}) не может приносить чужие палки",
    ),
    "same_player": ("name two different players", "назовите двух разных игроков"),
    "tag_pending": (
        "{name} is tagged already: the driver must now knock the can ('knock {driver}')",
        "{name} уже осален(а): теперь водящий должен сбить банку («knock {driver}»)",
    ),
    "cant_tag_rank": (
        "{name} cannot be tagged: a {rank} is never tagged",
        "Игрока {name} нельзя осалить: {rank_gen_pl} не салят вообще",
    ),
    "cant_tag_head": ("a tag on the head never counts", "салить по голове нельзя никогда"),
    "cant_tag_means": (
        "{name} ({rank}) may be tagged only {allowed_means}",
        "{name} ({rank}): салить можно только {allowed_means}",
    ),
    "cant_tag_part": (
        "{name} ({rank}) may be tagged only: {allowed_parts}",
        "{name} ({rank}): салить можно только {allowed_parts}",
    ),
    "safe": ("{name} is back behind the line and cannot be tagged", "{name} уже за линией, его не салят"),
    "no_tag": (
        "the driver has tagged nobody: nothing to knock for",
        "водящий никого не осалил: сбивать банку незачем",
    ),
    "no_knock_rank": (
        "{name} ({rank}) may not knock the can in the race back",
        "{name} ({rank}) не может сбивать банку",
    ),
    "line_not_back": (
        "{name} has not come back yet, so cannot have stepped over the line",
        "{name} ещё не вернулся за линию, значит, не мог её переступить",
    ),
    "cross_not_last": (
        "only the stick just thrown can land across another: that was {last}",
        "крест бывает только у палки, брошенной последней: это {last}",
    ),
    "cross_nothing": ("no stick has just been thrown", "ещё никто не бросал"),
    "cross_off": ("crossed sticks do not count in this variant", "в этом варианте крест не считается"),
    "cross_not_field": ("{name}'s stick is not lying on the field", "палка игрока {name} не лежит на поле"),
    "not_in_pile": ("{name}'s stick is not in the pile", "палки игрока {name} нет в куче"),
    "no_orders": ("the winner gives no orders in this variant", "в этом варианте победитель не приказывает"),
    "order_winner": ("{name} won: the winner gives the orders", "{name} — победитель: приказывает он сам"),
    "foul_fetcher": ("{name} ({rank}) may fetch others' sticks", "{name} ({rank}) может брать чужие палки"),
    "hand_knock": (
        "only a stick knocks the can: a can knocked by hand or foot does not count (rule M11)",
        "сбивать банку можно только палкой: рукой или ногой не считается (правило M11)",
    ),
    "nothing_to_undo": ("nothing to undo", "отменять нечего"),
    # -- news: what an event did ----------------------------------------------------------------------
    "news_driver_first": ("{name} drives first", "первым водит {name}"),
    "news_order": ("throwing order: {order}", "очередь бросков: {order}"),
    "news_rekick": ("tie: {names} kick again", "ничья: {names} бьют ещё раз"),
    "news_promoted": ("{name} is now {rank}", "{name} теперь {rank}"),
    "news_new_driver": (
        "{name} drives now; {old} throws last",
        "теперь водит {name}; {old} бросает последним",
    ),
    "news_driver_stays": ("{name} drives again", "{name} водит снова"),
    "news_tag_void": (
        "the tag is void: the can was knocked first",
        "осаливание не считается: банку сбили раньше",
    ),
    "news_round": ("round {number}", "кон {number}"),
    "news_winner": ("{names} won the game!", "победа: {names}!"),
    "news_order_given": ("{name} must: {text}", "{name} должен: {text}"),
    # -- what next -------------------------------------------------------------------------------------
    "next_count": (
        "Count out the first driver: 'count' (the referee counts, from the game's seed) or 'counted NAME'.",
        "Выберите водящего считалкой: «count» (считает судья, по зерну игры) или «counted ИМЯ».",
    ),
    "next_kick": (
        "Kick your sticks off the toe, farthest first to throw: 'kick NAME METRES' for {names}.",
        "Бейте палки с ноги (дальше всех — бросает первым): «kick ИМЯ МЕТРЫ» для: {names}.",
    ),
    "next_kick_driver": (
        "The shortest kick drives.",
        "Чья палка упадёт ближе всех — тот водит.",
    ),
    "next_throw": (
        "{name} throws ({rank}, from the {line} m line): 'hit {name}' or 'miss {name}{where}'.",
        "Бросает {name} ({rank}, с линии {line} м): «hit {name}» или «miss {name}{where}».",
    ),
    "next_spear": (
        "{name} may throw spear-style: add 'spear'.",
        "{name} может бросить «копьём»: добавьте «spear».",
    ),
    "next_reset": (
        "The can is down: the driver puts it back ('reset').",
        "Банка сбита: водящий ставит её («reset»).",
    ),
    "next_cross": (
        "If {name}'s stick lies across another: 'cross {name} OTHER' ({name} then drives).",
        "Если палка игрока {name} легла крестом на другую: «cross {name} ДРУГОЙ» (тогда водит {name}).",
    ),
    "next_race": (
        "Fetch your sticks and get back behind the line ('back NAME'): {names}.",
        "Забирайте палки и возвращайтесь за линию («back ИМЯ»): {names}.",
    ),
    "next_can_down_race": (
        "The can is down: sticks may be fetched safely until the driver puts it back ('reset').",
        "Банка сбита: пока водящий её не поставит («reset»), палки можно забирать спокойно.",
    ),
    "next_may_tag": (
        "Driver {driver} may tag ('tag NAME stick|hand PART'): {list}.",
        "Водящий {driver} может осалить («tag ИМЯ stick|hand ЧАСТЬ»): {list}.",
    ),
    "next_no_tag": ("Nobody on the field can be tagged.", "На поле некого салить."),
    "next_safe": ("Cannot be tagged: {list}.", "Нельзя осалить: {list}."),
    "next_tagged": (
        "{name} is tagged: driver {driver} wins by knocking the standing can ('knock {driver}'); "
        "a player who knocks it first ('knock NAME') frees {name}.",
        "{name} осален(а): водящий {driver} выигрывает, если собьёт стоящую банку («knock {driver}»); "
        "кто собьёт её раньше («knock ИМЯ»), тот выручит.",
    ),
    "next_fouls": (
        "Fouls the driver may call with the can: 'foul NAME grab' (took another's stick), 'foul NAME line' "
        "(stepped back over the line).",
        "Нарушения (водящий сбивает банку и объявляет): «foul ИМЯ grab» (взял чужую палку), «foul ИМЯ line» "
        "(заступил за линию).",
    ),
    "next_bring": (
        "{names} may bring others' sticks: 'bring NAME OTHER'.",
        "{names} может приносить чужие палки: «bring ИМЯ ДРУГОЙ».",
    ),
    "next_chel_back_field": (
        "Sticks on the field, fetch when you like ('back NAME'): {names}.",
        "Палки на поле, забирайте когда угодно («back ИМЯ»): {names}.",
    ),
    "next_chel_pile": (
        "In the driver's pile: {names}; take yours only while the can is down ('back NAME').",
        "В куче у водящего: {names}; свою можно взять, только пока банка сбита («back ИМЯ»).",
    ),
    "next_chel_hitter": (
        "{names}: back with your stick before the can stands again and you go up a rank.",
        "{names}: вернитесь с палкой, пока банка не стоит, — и получите звание.",
    ),
    "next_driver_throw": (
        "Nobody is left to throw: driver {driver} throws at the can himself. 'snatch NAME' if someone "
        "grabbed a stick from the pile meanwhile, 'guarded' if nobody did.",
        "Бросать больше некому: водящий {driver} бьёт по банке сам. «snatch ИМЯ», если кто-то выхватил палку "
        "из кучи, «guarded», если никто.",
    ),
    "next_run": (
        "Driver {driver} is free: everyone runs to the {rank} line; 'last NAME' for the last to arrive.",
        "Водящий {driver} свободен: все бегут к линии «{rank}»; «last ИМЯ» — кто прибежал последним.",
    ),
    "next_over": ("The game is over: {names} won.", "Игра окончена, победа: {names}."),
    "next_orders": (
        "{names} may give orders: 'order NAME WHAT'.",
        "{names} может приказывать: «order ИМЯ ЧТО».",
    ),
}

PHASE_NAMES: dict[str, tuple[str, str]] = {
    "count": ("counting out", "считалка"),
    "kick": ("kicking sticks", "пинок палок"),
    "throw": ("throwing", "броски"),
    "race": ("race back", "за палками"),
    "driver-throw": ("the driver's throw", "бросок водящего"),
    "run": ("run to the line", "бег к линии"),
    "over": ("game over", "игра окончена"),
}
MEANS_TEXT = {
    "any": ("by stick or hand", "палкой или рукой"),
    "stick": ("with a stick", "палкой"),
    "hand": ("by hand", "рукой"),
}
PARTS_TEXT = {
    "any": ("anywhere but the head", "куда угодно, кроме головы"),
    "legs": ("legs", "по ногам"),
    "heels": ("heels", "по пяткам"),
}


def rank_name(rank: str, lang: Lang, case: int = 0) -> str:
    """A rank id in words; case 1 is the Russian genitive (ignored in English)."""
    names = RANK_NAMES.get(rank)
    if names is None:
        return rank
    return names[0] if lang == "en" else names[1 + case]


def say(key: str, lang: Lang, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its parameters filled in."""
    values = dict(params)
    for name, value in params.items():
        if name.startswith("rank") and isinstance(value, str):
            values[name] = rank_name(value, lang)
            values[name + "_gen_pl"] = _plural_genitive(value) if lang == "ru" else rank_name(value, lang)
    index = _ORDER.index(lang)
    if "phase" in params:
        values["phase"] = PHASE_NAMES[params["phase"]][index]
    if "allowed_means" in params:
        values["allowed_means"] = MEANS_TEXT[params["allowed_means"]][index]
    if "allowed_parts" in params:
        values["allowed_parts"] = PARTS_TEXT[params["allowed_parts"]][index]
    return MESSAGES[key][_ORDER.index(lang)].format(**values)


def _plural_genitive(rank: str) -> str:
    return {"marshal": "маршалов", "sunny": "«солнечных»"}.get(rank, rank_name(rank, "ru", 1))


class RefereeError(IllegalActionError):
    """An event the rules do not allow now; ``text(lang)`` gives the reason in either language."""

    def __init__(self, event: str, key: str, **params: Any) -> None:
        self.event, self.key, self.params = event, key, params
        super().__init__(self.text("en"))

    def text(self, lang: Lang) -> str:
        reason = say(self.key, lang, **self.params)
        return f"{self.event!r}: {reason}" if self.event else reason

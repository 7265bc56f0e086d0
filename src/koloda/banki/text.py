"""The referee's words: every sentence it says is a key of the translation catalog (koloda.i18n), and
the errors that can be said in both languages.

The engine names its messages by short keys (``"out_of_turn"``, ``"news_promoted"``) with parameters;
parameters named ``rank``/``rank2`` hold rank ids, ``phase`` a stage, ``allowed_means``/``allowed_parts``
a rank's tagging terms, all shown in words of the chosen language:

>>> say("cant_tag_rank", "ru", name="Аня", rank="marshal")
'Игрока Аня нельзя осалить: маршалов не салят вообще'
"""

from __future__ import annotations

from typing import Any

from koloda.errors import IllegalActionError
from koloda.i18n import N_, Lang, Msg

#: Every message of the referee: the engine's short key -> the catalog's key.
KEYS: dict[str, str] = {
    "over": N_("banki.over"),
    "wrong_phase": N_("banki.wrong_phase"),
    "unknown_name": N_("banki.unknown_name"),
    "not_kicking": N_("banki.not_kicking"),
    "driver_no_kick": N_("banki.driver_no_kick"),
    "is_driver": N_("banki.is_driver"),
    "out_of_turn": N_("banki.out_of_turn"),
    "not_in_hand": N_("banki.not_in_hand"),
    "can_down": N_("banki.can_down"),
    "can_up": N_("banki.can_up"),
    "no_spear": N_("banki.no_spear"),
    "where_moscow": N_("banki.where_moscow"),
    "where_needed": N_("banki.where_needed"),
    "hit_no_where": N_("banki.hit_no_where"),
    "has_stick": N_("banki.has_stick"),
    "stick_in_pile": N_("banki.stick_in_pile"),
    "is_tagged": N_("banki.is_tagged"),
    "cant_fetch_others": N_("banki.cant_fetch_others"),
    "same_player": N_("banki.same_player"),
    "tag_pending": N_("banki.tag_pending"),
    "cant_tag_rank": N_("banki.cant_tag_rank"),
    "cant_tag_head": N_("banki.cant_tag_head"),
    "cant_tag_means": N_("banki.cant_tag_means"),
    "cant_tag_part": N_("banki.cant_tag_part"),
    "safe": N_("banki.safe"),
    "no_tag": N_("banki.no_tag"),
    "no_knock_rank": N_("banki.no_knock_rank"),
    "line_not_back": N_("banki.line_not_back"),
    "cross_not_last": N_("banki.cross_not_last"),
    "cross_nothing": N_("banki.cross_nothing"),
    "cross_off": N_("banki.cross_off"),
    "cross_not_field": N_("banki.cross_not_field"),
    "not_in_pile": N_("banki.not_in_pile"),
    "no_orders": N_("banki.no_orders"),
    "order_winner": N_("banki.order_winner"),
    "foul_fetcher": N_("banki.foul_fetcher"),
    "hand_knock": N_("banki.hand_knock"),
    "never_drives": N_("banki.never_drives"),
    "pick_unused": N_("banki.pick_unused"),
    "pick_not_field": N_("banki.pick_not_field"),
    "cant_tag_unarmed": N_("banki.cant_tag_unarmed"),
    "not_between_rounds": N_("banki.not_between_rounds"),
    "has_left": N_("banki.has_left"),
    "already_playing": N_("banki.already_playing"),
    "too_many": N_("banki.too_many"),
    "too_few": N_("banki.too_few"),
    "news_joined": N_("banki.news_joined"),
    "news_left": N_("banki.news_left"),
    "news_left_driver": N_("banki.news_left_driver"),
    "next_roster": N_("banki.next_roster"),
    "next_pick": N_("banki.next_pick"),
    "nothing_to_undo": N_("banki.nothing_to_undo"),
    "news_driver_first": N_("banki.news_driver_first"),
    "news_order": N_("banki.news_order"),
    "news_rekick": N_("banki.news_rekick"),
    "news_promoted": N_("banki.news_promoted"),
    "news_new_driver": N_("banki.news_new_driver"),
    "news_driver_stays": N_("banki.news_driver_stays"),
    "news_tag_void": N_("banki.news_tag_void"),
    "news_round": N_("banki.news_round"),
    "news_winner": N_("banki.news_winner"),
    "news_order_given": N_("banki.news_order_given"),
    "next_count": N_("banki.next_count"),
    "next_kick": N_("banki.next_kick"),
    "next_kick_driver": N_("banki.next_kick_driver"),
    "next_throw": N_("banki.next_throw"),
    "next_spear": N_("banki.next_spear"),
    "next_reset": N_("banki.next_reset"),
    "next_cross": N_("banki.next_cross"),
    "next_race": N_("banki.next_race"),
    "next_can_down_race": N_("banki.next_can_down_race"),
    "next_may_tag": N_("banki.next_may_tag"),
    "next_no_tag": N_("banki.next_no_tag"),
    "next_safe": N_("banki.next_safe"),
    "next_tagged": N_("banki.next_tagged"),
    "next_fouls": N_("banki.next_fouls"),
    "next_bring": N_("banki.next_bring"),
    "next_chel_back_field": N_("banki.next_chel_back_field"),
    "next_chel_pile": N_("banki.next_chel_pile"),
    "next_chel_hitter": N_("banki.next_chel_hitter"),
    "next_driver_throw": N_("banki.next_driver_throw"),
    "next_run": N_("banki.next_run"),
    "next_over": N_("banki.next_over"),
    "next_orders": N_("banki.next_orders"),
}

#: The ranks the catalog has words for (any other rank id, from custom options, is shown as it is).
RANKS: dict[str, str] = {
    "private": N_("banki.rank.private"),
    "corporal": N_("banki.rank.corporal"),
    "soldier": N_("banki.rank.soldier"),
    "sergeant": N_("banki.rank.sergeant"),
    "lieutenant": N_("banki.rank.lieutenant"),
    "captain": N_("banki.rank.captain"),
    "major": N_("banki.rank.major"),
    "colonel": N_("banki.rank.colonel"),
    "general": N_("banki.rank.general"),
    "marshal": N_("banki.rank.marshal"),
    "sunny": N_("banki.rank.sunny"),
    "nine": N_("banki.rank.nine"),
    "ten": N_("banki.rank.ten"),
    "jack": N_("banki.rank.jack"),
    "queen": N_("banki.rank.queen"),
    "king": N_("banki.rank.king"),
    "ace": N_("banki.rank.ace"),
    "god": N_("banki.rank.god"),
}

#: The ranks' ``object`` forms, which a template asks for with ``{rank:object}`` (koloda.i18n).
OBJECT_FORMS: tuple[str, ...] = (
    N_("banki.rank.private.object"),
    N_("banki.rank.corporal.object"),
    N_("banki.rank.soldier.object"),
    N_("banki.rank.sergeant.object"),
    N_("banki.rank.lieutenant.object"),
    N_("banki.rank.captain.object"),
    N_("banki.rank.major.object"),
    N_("banki.rank.colonel.object"),
    N_("banki.rank.general.object"),
    N_("banki.rank.marshal.object"),
    N_("banki.rank.sunny.object"),
    N_("banki.rank.nine.object"),
    N_("banki.rank.ten.object"),
    N_("banki.rank.jack.object"),
    N_("banki.rank.queen.object"),
    N_("banki.rank.king.object"),
    N_("banki.rank.ace.object"),
    N_("banki.rank.god.object"),
)

PHASES: dict[str, str] = {
    "count": N_("banki.phase.count"),
    "kick": N_("banki.phase.kick"),
    "throw": N_("banki.phase.throw"),
    "race": N_("banki.phase.race"),
    "driver-throw": N_("banki.phase.driver-throw"),
    "run": N_("banki.phase.run"),
    "over": N_("banki.phase.over"),
}
MEANS: dict[str, str] = {
    "any": N_("banki.means.any"),
    "stick": N_("banki.means.stick"),
    "hand": N_("banki.means.hand"),
    "holding": N_("banki.means.holding"),
}
PARTS: dict[str, str] = {
    "any": N_("banki.parts.any"),
    "legs": N_("banki.parts.legs"),
    "heels": N_("banki.parts.heels"),
}


def rank_word(rank: str) -> Msg:
    """A rank id in words (its ``object`` form: the rank as the object of a verb, «маршалов не салят»)."""
    key = RANKS.get(rank)
    return Msg(key) if key is not None else Msg(N_("banki.rank.custom"), id=rank)


def rank_name(rank: str, lang: Lang) -> str:
    """A rank id in words of ``lang``."""
    return rank_word(rank).text(lang)


def message(key: str, **params: Any) -> Msg:
    """The referee's message ``key`` (a short key of :data:`KEYS`), its ids as words."""
    values = dict(params)
    for name, value in params.items():
        if name.startswith("rank") and isinstance(value, str):
            values[name] = rank_word(value)
    if "phase" in params:
        values["phase"] = Msg(PHASES[params["phase"]])
    if "allowed_means" in params:
        values["allowed_means"] = Msg(MEANS[params["allowed_means"]])
    if "allowed_parts" in params:
        values["allowed_parts"] = Msg(PARTS[params["allowed_parts"]])
    return Msg(KEYS[key], **values)


def say(key: str, lang: Lang, **params: Any) -> str:
    """The message ``key`` in ``lang`` with its parameters filled in."""
    return message(key, **params).text(lang)


class RefereeError(IllegalActionError):
    """An event the rules do not allow now; ``text(lang)`` gives the reason in either language."""

    def __init__(self, event: str, key: str, **params: Any) -> None:
        self.event, self.key, self.params = event, key, params
        reason = message(key, **params)
        super().__init__(Msg("banki.refused", event=event, reason=reason) if event else reason)

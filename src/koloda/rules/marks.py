"""A table's agreements beside the rules they change (issue 31): each option of the table that is not its
game's default, with its words, at the rules its ``OptionText`` names (``rule="2.2, 7.8"``).

>>> found = marks("bank", {"trumps": "none", "target": 248}, "en")
>>> [(m["rules"], m["label"], m["value"]) for m in found]
[(['3.1'], 'Trumps', 'no trumps')]
>>> marks("bank", {"trumps": "none"}, "ru")[0]["value"]
'без козырей'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from koloda import registry
from koloda.cards import Suit
from koloda.i18n import N_, Lang, say
from koloda.rules import rule_ids

#: The words of every value an option chooses from, by game and option.
VALUES: dict[str, dict[str, dict[str, str]]] = {
    "bank": {
        "next_dealer": {
            "loser": N_("rules.value.bank.next_dealer.loser"),
            "last-finisher": N_("rules.value.bank.next_dealer.last-finisher"),
            "starter": N_("rules.value.bank.next_dealer.starter"),
            "max-points": N_("rules.value.bank.next_dealer.max-points"),
            "min-points": N_("rules.value.bank.next_dealer.min-points"),
        },
        "trumps": {
            "own": N_("rules.value.bank.trumps.own"),
            "none": N_("rules.value.bank.trumps.none"),
            "one": N_("rules.value.bank.trumps.one"),
            "two": N_("rules.value.bank.trumps.two"),
            "senior-junior": N_("rules.value.bank.trumps.senior-junior"),
        },
        "trump_choice": {
            "random": N_("rules.value.bank.trump_choice.random"),
            "in-turn": N_("rules.value.bank.trump_choice.in-turn"),
            "in-turn-after-deal": N_("rules.value.bank.trump_choice.in-turn-after-deal"),
        },
        "two_trumps_cover": {
            "suit": N_("rules.value.bank.two_trumps_cover.suit"),
            "free": N_("rules.value.bank.two_trumps_cover.free"),
        },
        "opening": {
            "free": N_("rules.value.bank.opening.free"),
            "strict": N_("rules.value.bank.opening.strict"),
        },
        "eight_then": {
            "cover-eight": N_("rules.value.bank.eight_then.cover-eight"),
            "cover-beneath": N_("rules.value.bank.eight_then.cover-beneath"),
        },
        "eight_follow": {
            "card": N_("rules.value.bank.eight_follow.card"),
            "any": N_("rules.value.bank.eight_follow.any"),
        },
        "eight_opening": {
            "lenient": N_("rules.value.bank.eight_opening.lenient"),
            "strict": N_("rules.value.bank.eight_opening.strict"),
        },
        "four_extra_move": {
            "optional": N_("rules.value.bank.four_extra_move.optional"),
            "compulsory": N_("rules.value.bank.four_extra_move.compulsory"),
        },
        "runs": {
            "one-suit": N_("rules.value.bank.runs.one-suit"),
            "any-suits": N_("rules.value.bank.runs.any-suits"),
        },
        "run_extra": {
            "optional": N_("rules.value.bank.run_extra.optional"),
            "compulsory": N_("rules.value.bank.run_extra.compulsory"),
        },
        "seven": {
            "skip": N_("rules.value.bank.seven.skip"),
            "draw-and-move": N_("rules.value.bank.seven.draw-and-move"),
            "skip-and-draw": N_("rules.value.bank.seven.skip-and-draw"),
            "none": N_("rules.value.bank.seven.none"),
        },
        "seven_captured": {
            "void": N_("rules.value.bank.seven_captured.void"),
            "acts": N_("rules.value.bank.seven_captured.acts"),
        },
        "after_capture": {
            "free-lead": N_("rules.value.bank.after_capture.free-lead"),
            "last-top": N_("rules.value.bank.after_capture.last-top"),
        },
        "four_kings": {
            "other-player": N_("rules.value.bank.four_kings.other-player"),
            "anyone": N_("rules.value.bank.four_kings.anyone"),
        },
        "four_kings_capture": {
            "at-once": N_("rules.value.bank.four_kings_capture.at-once"),
            "after-move": N_("rules.value.bank.four_kings_capture.after-move"),
        },
        "trump_king_alone": {
            "stays": N_("rules.value.bank.trump_king_alone.stays"),
            "taken": N_("rules.value.bank.trump_king_alone.taken"),
        },
        "leftover_bank": {
            "top-owner": N_("rules.value.bank.leftover_bank.top-owner"),
            "set-aside": N_("rules.value.bank.leftover_bank.set-aside"),
        },
        "penalty": {
            "none": N_("rules.value.bank.penalty.none"),
            "hand-points": N_("rules.value.bank.penalty.hand-points"),
            "hand-points-and-fine": N_("rules.value.bank.penalty.hand-points-and-fine"),
            "flat-fine": N_("rules.value.bank.penalty.flat-fine"),
        },
        "fine": {
            "fixed": N_("rules.value.bank.fine.fixed"),
            "per-card": N_("rules.value.bank.fine.per-card"),
            "split": N_("rules.value.bank.fine.split"),
            "fixed-zero-only": N_("rules.value.bank.fine.fixed-zero-only"),
            "per-card-zero-only": N_("rules.value.bank.fine.per-card-zero-only"),
        },
        "penalty_who": {
            "holders": N_("rules.value.bank.penalty_who.holders"),
            "loser": N_("rules.value.bank.penalty_who.loser"),
        },
        "loser": {
            "last-holder": N_("rules.value.bank.loser.last-holder"),
            "lowest-score": N_("rules.value.bank.loser.lowest-score"),
        },
        "stuck_loser": {
            "most-points": N_("rules.value.bank.stuck_loser.most-points"),
            "nobody": N_("rules.value.bank.stuck_loser.nobody"),
        },
        "stuck_payer": {
            "most-points": N_("rules.value.bank.stuck_payer.most-points"),
            "nobody": N_("rules.value.bank.stuck_payer.nobody"),
        },
        "tie": {
            "everyone": N_("rules.value.bank.tie.everyone"),
            "tied-only": N_("rules.value.bank.tie.tied-only"),
        },
        "tie_dealer": {
            "agreed": N_("rules.value.bank.tie_dealer.agreed"),
            "tied": N_("rules.value.bank.tie_dealer.tied"),
        },
    },
    "thousand": {
        "rounding": {
            "home": N_("rules.value.thousand.rounding.home"),
            "tournament": N_("rules.value.thousand.rounding.tournament"),
            "russian": N_("rules.value.thousand.rounding.russian"),
        },
        "rule_800": {
            "home": N_("rules.value.thousand.rule_800.home"),
            "tournament": N_("rules.value.thousand.rule_800.tournament"),
            "off": N_("rules.value.thousand.rule_800.off"),
        },
        "barrel_failed": {
            "minus_bid": N_("rules.value.thousand.barrel_failed.minus_bid"),
            "fall": N_("rules.value.thousand.barrel_failed.fall"),
            "both": N_("rules.value.thousand.barrel_failed.both"),
        },
        "bid_cap": {
            "marriage": N_("rules.value.thousand.bid_cap.marriage"),
            "marriages_held": N_("rules.value.thousand.bid_cap.marriages_held"),
            "none": N_("rules.value.thousand.bid_cap.none"),
        },
        "must_beat": {
            "no": N_("rules.value.thousand.must_beat.no"),
            "led": N_("rules.value.thousand.must_beat.led"),
            "winning": N_("rules.value.thousand.must_beat.winning"),
        },
        "sitting_scores": {
            "talon": N_("rules.value.thousand.sitting_scores.talon"),
            "aces_marriage": N_("rules.value.thousand.sitting_scores.aces_marriage"),
            "nothing": N_("rules.value.thousand.sitting_scores.nothing"),
        },
    },
}
_YES, _NO, _NONE = N_("rules.value.yes"), N_("rules.value.no"), N_("rules.value.none")
_SEAT = N_("rules.value.seat")  # Bank's first dealer, a seat counted from 1 as people count


def value_words(game: str, name: str, value: Any, lang: Lang) -> str:
    """An option's value as a person reads it in ``lang``: a choice's words, yes or no, a number, suits."""
    if isinstance(value, bool):
        return say(lang, _YES if value else _NO)
    if value is None:
        return say(lang, _NONE)
    if name == "first_dealer" and isinstance(value, int):
        return say(lang, _SEAT, number=value + 1)
    if isinstance(value, str) and value in VALUES.get(game, {}).get(name, {}):
        return say(lang, VALUES[game][name][value])
    if isinstance(value, (list, tuple)):
        if name == "trump_suits":
            return " ".join(Suit.parse(letter).symbol for letter in value)
        return ", ".join(value_words(game, name, item, lang) for item in value)
    return str(value)


def marks(game: str, options: Mapping[str, Any], lang: Lang) -> list[dict[str, Any]]:
    """Each option of ``options`` (a table's, all of them or some) that differs from the game's default:
    the rules it changes, its label and its value in words, in the order of the game's options."""
    cls = registry.get(game).options_class
    defaults = cls().to_dict()
    table = cls.from_mapping(dict(options)).to_dict()
    out = []
    for name, text in cls.TEXTS.items():
        if table[name] == defaults[name]:
            continue
        out.append(
            {
                "option": name,
                "rules": rule_ids(text.rule),
                "label": say(lang, text.label),
                "value": value_words(game, name, table[name], lang),
            }
        )
    return out

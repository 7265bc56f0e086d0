"""The history of the game record's format: what each version changed and how an older record is read.

A record (``koloda.game.GameRecord``) stores only the options that differ from the defaults, so a default
that changes would change what an older record means. Each version that changes a default, a name or
the meaning of a field bumps :data:`RECORD_VERSION` and adds one step here that rewrites a record of the
version before it into its own terms, so that it replays exactly as it did. ``GameRecord.from_json``
runs the steps; the store's revision 0003 runs :func:`bank_options_v2` and :func:`banki_options_v2` over
the tables and banki games kept before it (:func:`bank_options_v3`, version 3's, has no revision yet).
The steps never change once released (a later version adds a step): they describe the past.

>>> old = {"game": "bank", "version": 1, "options": {"penalty": "variant2", "variant2": "split"}}
>>> upgrade(old)["options"]
{'penalty': 'hand-points-and-fine', 'fine': 'split', 'eight_follow': 'any', 'trump_king_alone': 'taken'}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

#: The version of the records this koloda writes.
RECORD_VERSION = 3


def bank_options_v2(options: Mapping[str, Any]) -> dict[str, Any]:
    """Bank's options of a version-1 record (or a table kept before revision 0003) in version 2's terms.

    Version 2 (issue 16): rule 4.5's added move after an 8 became one covering card by default
    (``eight_follow``: version 1 allowed any move); going out on a trump king laid alone onto an empty
    bank no longer takes that one-card bank (``trump_king_alone``: version 1 took it); under
    ``eight_then=cover-beneath`` the card added after an 8 laid on the open card covers it by the lenient
    opening (``eight_opening``: version 1 used rule 4.3 only); rule 7.6's penalties are named by what they
    do (``variant1`` → ``hand-points``, ``variant2`` → ``hand-points-and-fine``, the option ``variant2``
    → ``fine``).
    """
    out = dict(options)
    penalty = {"variant1": "hand-points", "variant2": "hand-points-and-fine"}
    if out.get("penalty") in penalty:
        out["penalty"] = penalty[out["penalty"]]
    if "variant2" in out:
        out["fine"] = out.pop("variant2")
    out.setdefault("eight_follow", "any")
    out.setdefault("trump_king_alone", "taken")
    if out.get("eight_then") == "cover-beneath" and out.get("opening", "free") == "free":
        out.setdefault("eight_opening", "strict")
    return out


def bank_options_v3(options: Mapping[str, Any]) -> dict[str, Any]:
    """Bank's options of a version-2 record (or a table kept before version 3) in version 3's terms.

    Version 3 (issue 28): after a stuck end, who pays under ``penalty_who=loser`` (rule 7.8) became an option
    of its own, ``stuck_payer``, apart from who lost the deal and so deals the next one (``stuck_loser``,
    rule 2.2); version 2's ``stuck_loser=nobody`` decided both, so under ``penalty_who=loser`` it now says
    ``stuck_payer=nobody`` too.

    >>> bank_options_v3({"stuck_loser": "nobody", "penalty_who": "loser"})["stuck_payer"]
    'nobody'
    """
    out = dict(options)
    if out.get("stuck_loser") == "nobody" and out.get("penalty_who") == "loser":
        out.setdefault("stuck_payer", "nobody")
    return out


def banki_options_v2(options: Mapping[str, Any]) -> dict[str, Any]:
    """banki's options of a version-1 record (or a game kept before revision 0003) in version 2's terms.

    Version 2 (issue 16): rule M18's marshal may not be made the driver by any path (``never_drive_ranks``,
    default ``["marshal"]``; version 1 refused only a tag, so a line foul or a crossed stick made him drive);
    and a game takes up to 30 players unless it says otherwise (``max_players``: version 1's default was 10).
    """
    return {"never_drive_ranks": [], "max_players": 10, **options}


def _thousand_deal_v2(deal: Mapping[str, Any]) -> dict[str, Any]:
    """Version 2 (issue 16): an explicit deal is played as given; version 1 dealt it again when rule G4
    voided it (four nines in a hand by default), which ``"redeal": true`` keeps doing."""
    return {**deal, "redeal": True}


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    game = data.get("game")
    options = data.get("options")
    if game == "bank" and isinstance(options, dict):
        data = {**data, "options": bank_options_v2(options)}
    if game == "banki" and isinstance(options, dict):
        data = {**data, "options": banki_options_v2(options)}
    deal = data.get("deal")
    if game == "thousand" and isinstance(deal, dict):
        data = {**data, "deal": _thousand_deal_v2(deal)}
    return {**data, "version": 2}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    options = data.get("options")
    if data.get("game") == "bank" and isinstance(options, dict):
        data = {**data, "options": bank_options_v3(options)}
    return {**data, "version": 3}


#: version -> the step that rewrites a record of that version into the next one.
STEPS: Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2, 2: _v2_to_v3}


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A record's JSON of any known version rewritten into :data:`RECORD_VERSION`'s terms (a new dict; a
    record without a version is read as the current one). The caller refuses unknown versions."""
    version = data.get("version", RECORD_VERSION)
    while version in STEPS:
        data = STEPS[version](data)
        version = data["version"]
    return data

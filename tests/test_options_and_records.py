"""The shared options machinery and the game record format."""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Literal

import pytest

from koloda.bank import replay
from koloda.errors import OptionsError, RecordError
from koloda.game import GameRecord
from koloda.options import Options
from koloda.records import RECORD_VERSION


@dataclass(frozen=True)
class Demo(Options):
    target: int = 248
    mode: Literal["on", "off", "auto"] = "auto"
    strict: bool = False
    fines: tuple[int, ...] = (3, 6)
    PRESETS: ClassVar = {"short": {"target": 100}}

    def validate(self) -> None:
        if self.strict and self.mode == "off":
            raise OptionsError("strict needs mode 'on' or 'auto'")


def test_defaults_and_presets() -> None:
    assert Demo.preset("default") == Demo()
    assert Demo.preset("short").target == 100
    assert Demo.preset_names() == ["default", "short"]
    with pytest.raises(OptionsError, match="unknown preset 'long'"):
        Demo.preset("long")


def test_frozen() -> None:
    with pytest.raises(AttributeError):
        Demo().target = 3  # type: ignore[misc]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"targt": 1}, "unknown option 'targt' \\(did you mean 'target'\\?\\)"),
        ({"target": "248"}, "option 'target' must be int, not '248'"),
        ({"target": True}, "option 'target' must be int"),
        ({"mode": "maybe"}, "option 'mode' must be 'on' \\| 'off' \\| 'auto'"),
        ({"strict": 1}, "option 'strict' must be bool"),
        ({"fines": [3, "x"]}, "option 'fines' must be list of int"),
        ({"strict": True, "mode": "off"}, "strict needs mode"),
    ],
)
def test_bad_options_are_named(data: dict[str, object], message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        Demo.from_mapping(data)


def test_assignments_parse_by_type() -> None:
    options = Demo().with_assignments(["target=300", "mode=off", "fines=1,2", "strict=false"])
    assert options == Demo(target=300, mode="off", fines=(1, 2))
    with pytest.raises(OptionsError, match="expected key=value"):
        Demo().with_assignments(["target"])
    with pytest.raises(OptionsError, match="unknown option 'nope'"):
        Demo().with_assignments(["nope=1"])


def test_to_dict_round_trips_through_json() -> None:
    options = Demo(fines=(1, 2, 3))
    assert Demo.from_mapping(json.loads(json.dumps(options.to_dict()))) == options


def test_record_round_trip(tmp_path: Path) -> None:
    record = GameRecord("bank", 3, {"target": 100}, ("7H", "draw"), seed=5, meta={"names": ["Аня"]})
    path = tmp_path / "game.json"
    record.save(path)
    assert GameRecord.load(path, game="bank") == record


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "bank", "players": 3, "actions": []}', "exactly one of 'seed' and 'deal'"),
        ('{"game": "bank", "players": 3, "seed": 1, "deal": {}, "actions": []}', "exactly one"),
        ('{"game": "bank", "players": "3", "seed": 1, "actions": []}', "'players' must be int"),
        ('{"game": "bank", "players": 3, "seed": -1, "actions": []}', "'seed' must be a non-negative"),
        ('{"game": "bank", "players": 3, "seed": 1, "actions": [1]}', "must be a string"),
        ('{"game": "bank", "players": 3, "seed": 1, "actions": [], "x": 1}', "unknown key 'x'"),
        ('{"game": "thousand", "players": 3, "seed": 1, "actions": []}', "not of 'bank'"),
        (
            '{"game": "bank", "version": 9, "players": 3, "seed": 1, "actions": []}',
            "unsupported record version",
        ),
    ],
)
def test_bad_records_are_named(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        GameRecord.loads(text, game="bank")


def test_unreadable_record_file(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "missing.json")


# -- record versions (koloda.records) ---------------------------------------------------------------------


def test_a_version_1_bank_record_is_read_with_the_readings_it_was_played_by() -> None:
    """Record version 2 changed two of Bank's defaults and renamed rule 7.6's penalties: a version-1 record,
    which stored only what differed from version 1's defaults, says so in version 2's terms."""
    old = {"game": "bank", "version": 1, "players": 3, "seed": 4, "actions": [], "options": {}}
    assert GameRecord.from_json(old).options == {"eight_follow": "any", "trump_king_alone": "taken"}
    named = {**old, "options": {"penalty": "variant2", "variant2": "per-card", "eight_then": "cover-beneath"}}
    assert GameRecord.from_json(named).options == {
        "penalty": "hand-points-and-fine",
        "fine": "per-card",
        "eight_then": "cover-beneath",
        "eight_follow": "any",
        "trump_king_alone": "taken",
        "eight_opening": "strict",
    }
    record = GameRecord.from_json({**old, "version": 2})
    assert record.options == {} and record.to_json()["version"] == RECORD_VERSION
    assert GameRecord.from_json({**old, "game": "toy"}).options == {}  # other games: as they were


def test_a_version_2_bank_record_with_no_loser_after_a_stuck_end_still_fines_nobody() -> None:
    """Record version 3 split rule 7.8's ``stuck_loser``: who pays after a stuck end is ``stuck_payer``. A
    version-2 record's ``stuck_loser=nobody`` decided both, so under ``penalty_who=loser`` it says both."""
    old = {"game": "bank", "version": 2, "players": 3, "seed": 4, "actions": []}
    both = {"penalty_who": "loser", "stuck_loser": "nobody"}
    assert GameRecord.from_json({**old, "options": both}).options == {**both, "stuck_payer": "nobody"}
    alone = {"stuck_loser": "nobody"}  # everyone holding cards pays: nothing to say of a single payer
    assert GameRecord.from_json({**old, "options": alone}).options == alone
    state = replay(GameRecord.from_json({**old, "options": both}))
    assert (state.options.stuck_loser, state.options.stuck_payer) == ("nobody", "nobody")


def test_a_version_1_thousand_deal_is_dealt_again_as_it_was() -> None:
    """Version 1 dealt an explicit deal again when rule G4 voided it; version 2 plays it as given, so a
    version-1 record's deal keeps its redeal (``"redeal": true``) and replays to the same game."""
    from koloda.thousand import from_deal, replay

    hands = ["9S 9C 9D 9H AD KD QD", "AH KH QH 10H JH 10C AS", "KS QS 10S JS QC AC KC"]
    nines = {"dealer": 0, "hands": hands, "talon": "10D JD JC"}
    redealt = from_deal({**nines, "redeal": True})
    bid = redealt.action_text(redealt.legal_actions()[0])
    old = {"game": "thousand", "version": 1, "players": 3, "scope": "deal", "deal": nines, "actions": [bid]}
    record = GameRecord.from_json(old)
    assert record.deal == {**nines, "redeal": True}
    state = replay(record)
    again = state.record()
    assert state.hand(0) == redealt.hand(0) and again.deal is not None and again.deal["redeal"] is True
    assert replay(again) == state

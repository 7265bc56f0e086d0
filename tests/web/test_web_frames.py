"""Frames as patches (koloda.web.frames): over whole random games of every card game, the patch of each
action turns the message the client holds into the new one, through JSON as on the wire; and the new
message keeps the held one's objects where nothing changed, so that a client holding it keeps alive only
what changed (the garbage collector's work at 1,000 tables, docs/performance.md)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from koloda import registry
from koloda.web.frames import diff, patched
from koloda.web.views import public_view, seat_view


def containers(value: Any, out: dict[int, Any] | None = None) -> dict[int, Any]:
    """Every list and dict in a JSON object, by id (kept alive by the mapping)."""
    out = {} if out is None else out
    if isinstance(value, (list, dict)):
        out[id(value)] = value
        for item in value.values() if isinstance(value, dict) else value:
            containers(item, out)
    return out


@pytest.mark.parametrize("game", ["bank", "thousand"])
def test_patches_rebuild_every_message_and_share_what_did_not_change(game: str) -> None:
    spec = registry.get(game)
    rng = random.Random(11)
    state = spec.new_game(players=3, seed=11)
    names = ["A", "B", "C"]

    def message(version: int, seat: int | None) -> dict[str, Any]:
        view = public_view(spec, state) if seat is None else seat_view(spec, state, seat)
        return {"v": version, "seat": seat, "view": view, "scores": spec.scores(state, names)}

    held = {seat: message(0, seat) for seat in (None, 0)}
    new_objects, actions, appended = 0, 0, 0
    while not state.is_over() and actions < 600:
        state.apply(rng.choice(state.legal_actions()))
        actions += 1
        for seat in (None, 0):
            new = message(actions, seat)
            expected = copy.deepcopy(new)
            patch = diff(held[seat], new)
            assert new == expected  # only objects were swapped for equal ones
            assert patched(held[seat], json.loads(json.dumps(patch))) == expected
            for key, op in patch.get("view", {}).get("patch", {}).items():
                if "append" in op:  # a list that grew: its old items are the held message's objects
                    appended += 1
                    old = held[seat]["view"][key]
                    assert all(a is b for a, b in zip(old, new["view"][key], strict=False))
            before = containers(held[seat])
            new_objects += sum(key not in before for key in containers(new))
            held[seat] = new
    assert actions >= 100 and appended > actions // 4
    # a full message is dozens to hundreds of lists and dicts; what changed is a handful
    assert new_objects / (2 * actions) < 15

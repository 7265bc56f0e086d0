"""Frames stay small at any length of game: after the first full frame, a client gets only what changed.

A table's message (``sync``: the table, the seat's view, the scores) grows with the game: the public
history and the finished deals are lists that only ever get longer. So each client's first frame is the
whole message, and every later ``event`` is a patch against the message that client holds: ``base`` is
the version it applies to, and ``patch`` maps each key that changed to one operation:

- ``{"set": value}``: the key's new value (also for a key that is new);
- ``{"append": [items]}``: the list got these items at its end;
- ``{"patch": {...}}``: a nested object, patched the same way;
- ``{"del": true}``: the key is gone.

A key that did not change is not sent. The browser applies it (``applyPatch`` in ``static/table.js``)
and asks for a ``sync`` when ``base`` is not the version it holds; docs/api.md, "Frames".

>>> old = {"v": 1, "view": {"history": ["7H"], "phase": "play"}, "seat": 0}
>>> new = {"v": 2, "view": {"history": ["7H", "draw"], "phase": "play"}, "seat": 0}
>>> diff(old, new)
{'v': {'set': 2}, 'view': {'patch': {'history': {'append': ['draw']}}}}
>>> patched(old, diff(old, new)) == new
True
>>> old = {"v": 1, "view": {"history": [["7H", 0]]}, "seats": [["Аня", 1]]}
>>> new = {"v": 2, "view": {"history": [["7H", 0], ["8S", 1]]}, "seats": [["Аня", 1]]}
>>> diff(old, new)
{'v': {'set': 2}, 'view': {'patch': {'history': {'append': [['8S', 1]]}}}}
>>> new["view"]["history"][0] is old["view"]["history"][0], new["seats"] is old["seats"]
(True, True)
"""

from __future__ import annotations

from typing import Any

#: How deep objects are patched key by key (the message, then the view, the scores, the table); below
#: that a changed object is sent whole.
DEPTH = 3


def diff(old: dict[str, Any], new: dict[str, Any], depth: int = DEPTH) -> dict[str, Any]:
    """The patch that turns ``old`` into ``new`` (both JSON objects).

    ``new`` takes ``old``'s objects where they are equal (a value, the start of a list that grew), so
    that a client holding ``new`` keeps alive only what changed: the garbage collector would otherwise
    go through the whole message of every table at every action (docs/performance.md)."""
    patch: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            patch[key] = {"set": value}
            continue
        before = old[key]
        if before == value:
            new[key] = before
            continue
        if isinstance(value, list) and isinstance(before, list) and _extends(before, value):
            patch[key] = {"append": value[len(before) :]}
            value[: len(before)] = before
        elif isinstance(value, dict) and isinstance(before, dict) and depth > 1:
            patch[key] = {"patch": diff(before, value, depth - 1)}
        else:
            patch[key] = {"set": value}
    for key in old:
        if key not in new:
            patch[key] = {"del": True}
    return patch


def _extends(before: list[Any], after: list[Any]) -> bool:
    return len(after) > len(before) and after[: len(before)] == before


def patched(old: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``old`` with ``patch`` applied (what the browser does; the tests check the two agree)."""
    out = dict(old)
    for key, op in patch.items():
        if "set" in op:
            out[key] = op["set"]
        elif "append" in op:
            out[key] = [*old[key], *op["append"]]
        elif "patch" in op:
            out[key] = patched(old[key], op["patch"])
        else:
            del out[key]
    return out

"""Variants are data: one frozen, validated options dataclass per game, with named presets.

A game declares its options as a frozen dataclass deriving from :class:`Options`, one field per rule
choice with the source text's default, a one-line comment per field, ``PRESETS``, and ``TEXTS``: what
a person reads about each field (its rule, the catalog keys of a label and a help: :class:`OptionText`).
Values are checked against the field's annotation (``bool``, ``int``, ``str``, a ``Literal[...]`` of
choices, a tuple of those); combinations are checked in the game's ``validate``. Nothing is ever silently
dropped or reset: an unknown key, a wrong type or an impossible combination raises :class:`OptionsError`
with a message that says what is wrong.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Demo(Options):
...     target: int = 248
...     mode: Literal["a", "b"] = "a"
>>> Demo.from_mapping({"target": 300}).target
300
>>> Demo.from_mapping({"targt": 300})
Traceback (most recent call last):
...
koloda.errors.OptionsError: unknown option 'targt' (did you mean 'target'?); known options: mode, target
>>> Demo().with_assignments(["mode=b"]).mode
'b'
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import types
import typing
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Literal, Self, get_args, get_origin

from koloda.errors import OptionsError
from koloda.i18n import Msg


@dataclasses.dataclass(frozen=True)
class OptionText:
    """What a person reads about one option: ``rule``, the ids of the rules in docs/rules/<game>.md it
    belongs to (``"S7"``, ``"2.2, 7.8"``, ``"M16-M18"``), and the catalog keys of a short ``label`` and a
    one-line ``help`` (under ``option.``, which the browser gets: koloda.i18n.BROWSER)."""

    rule: str
    label: str
    help: str


@dataclasses.dataclass(frozen=True)
class Options:
    """Base class of every game's options; subclasses are frozen dataclasses."""

    #: Named presets: name -> overrides of the defaults. ``"default"`` is always the defaults.
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    #: Each field's rule and words (a game's table names every field: tests/test_option_texts.py). The keys
    #: are written out with ``N_`` so that the catalog's tools find them.
    TEXTS: ClassVar[Mapping[str, OptionText]] = {}

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for field in dataclasses.fields(self):
            _check_value(field.name, getattr(self, field.name), hints[field.name])
        self.validate()

    def validate(self) -> None:
        """Reject impossible combinations; subclasses override and raise :class:`OptionsError`."""

    # -- construction --------------------------------------------------------------------------------

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Self:
        """Build options from a mapping (for example a game record's ``options``), strictly."""
        if not isinstance(data, Mapping):
            raise OptionsError(Msg("options.not_object", type=type(data).__name__))
        names = [field.name for field in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                close = difflib.get_close_matches(str(key), names, n=1)
                known = ", ".join(sorted(names))
                if close:
                    raise OptionsError(
                        Msg("options.unknown_close", key=repr(key), close=repr(close[0]), known=known)
                    )
                raise OptionsError(Msg("options.unknown", key=repr(key), known=known))
        hints = _hints(cls)
        values = {key: _from_json(key, value, hints[key]) for key, value in data.items()}
        return cls(**values)

    @classmethod
    def preset(cls, name: str) -> Self:
        """The named preset; ``"default"`` is the source text's defaults."""
        presets = cls.preset_names()
        if name not in presets:
            raise OptionsError(Msg("options.unknown_preset", name=repr(name), presets=", ".join(presets)))
        return cls.from_mapping(cls.PRESETS.get(name, {}))

    @classmethod
    def preset_names(cls) -> list[str]:
        return ["default", *(name for name in cls.PRESETS if name != "default")]

    @classmethod
    def preset_values(cls) -> dict[str, dict[str, Any]]:
        """Every preset's options as JSON (what a form shows when a preset is chosen)."""
        return {name: cls.preset(name).to_dict() for name in cls.preset_names()}

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed, validated like :meth:`from_mapping`."""
        return type(self).from_mapping({**self.to_dict(), **changes})

    def with_assignments(self, assignments: Iterable[str]) -> Self:
        """Apply command-line ``key=value`` strings; values are parsed by the field's type."""
        hints = _hints(type(self))
        names = {field.name for field in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for assignment in assignments:
            key, sep, text = assignment.partition("=")
            key = key.strip()
            if not sep:
                raise OptionsError(Msg("options.assignment", assignment=repr(assignment)))
            # Unknown keys pass through so that from_mapping names them with its usual message.
            changes[key] = _from_text(text.strip(), hints[key]) if key in names else text
        return self.replace(**changes)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping that :meth:`from_mapping` reads back to an equal object."""
        return {field.name: _to_json(getattr(self, field.name)) for field in dataclasses.fields(self)}

    @classmethod
    def schema(cls) -> list[dict[str, Any]]:
        """Every option as data for a form (the web pages build their controls from it): ``name``, ``kind``
        (``choice``, ``bool``, ``int``, ``float``, ``text``, ``list``), ``choices`` of a choice, ``item`` (the
        kind and choices of a list's items), ``nullable`` and ``default`` (as JSON); and, where ``TEXTS``
        names the field, its ``rule`` and the catalog keys of its ``label`` and ``help``.

        >>> @dataclasses.dataclass(frozen=True)
        ... class Demo(Options):
        ...     mode: Literal["a", "b"] = "a"
        ...     fines: tuple[int, ...] = (3,)
        ...     TEXTS: ClassVar = {"mode": OptionText("S1", "option.demo.mode", "option.demo.mode.help")}
        >>> [(row["name"], row["kind"], row.get("choices"), row.get("item")) for row in Demo.schema()]
        [('mode', 'choice', ['a', 'b'], None), ('fines', 'list', None, {'kind': 'int'})]
        >>> {key: Demo.schema()[0][key] for key in ("rule", "label", "help")}
        {'rule': 'S1', 'label': 'option.demo.mode', 'help': 'option.demo.mode.help'}
        """
        hints = _hints(cls)
        rows = []
        for field in dataclasses.fields(cls):
            row: dict[str, Any] = {"name": field.name, **_kind(hints[field.name])}
            row["default"] = _to_json(field.default if field.default is not dataclasses.MISSING else None)
            text = cls.TEXTS.get(field.name)
            if text is not None:
                row.update(rule=text.rule, label=text.label, help=text.help)
            rows.append(row)
        return rows

    @classmethod
    def describe(cls) -> list[tuple[str, str, str]]:
        """(name, allowed values, default) for every option, for help texts."""
        hints = _hints(cls)
        rows = []
        for field in dataclasses.fields(cls):
            default = field.default if field.default is not dataclasses.MISSING else None
            rows.append((field.name, _type_text(hints[field.name]), repr(_to_json(default))))
        return rows


def add_option_arguments(
    parser: argparse.ArgumentParser, options: type[Options], *, preset: str | None = "default"
) -> None:
    """``--preset NAME`` and repeatable ``--option KEY=VALUE``: how every command takes a game's options.

    Read them back with ``Options.preset(args.preset or "default").with_assignments(args.option)``; a bad
    preset or option is then refused with the options' own message (argparse's "invalid choice" would not
    say which presets exist)."""
    names = ", ".join(options.preset_names())
    parser.add_argument("--preset", default=preset, help=f"named rule set: {names}")
    parser.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="change one rule (repeatable)"
    )


# -- type checking of values -------------------------------------------------------------------------

_HINT_CACHE: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    hints = _HINT_CACHE.get(cls)
    if hints is None:
        hints = typing.get_type_hints(cls)
        _HINT_CACHE[cls] = hints
    return hints


def _type_text(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is Literal:
        return " | ".join(repr(arg) for arg in get_args(hint))
    if origin in (types.UnionType, typing.Union):
        return " | ".join(_type_text(arg) for arg in get_args(hint))
    if origin is tuple:
        return f"list of {_type_text(get_args(hint)[0])}"
    if hint is type(None):
        return "null"
    return getattr(hint, "__name__", str(hint))


def _kind(hint: Any) -> dict[str, Any]:
    """The form kind of a field's annotation (see :meth:`Options.schema`)."""
    origin = get_origin(hint)
    if origin is Literal:
        return {"kind": "choice", "choices": list(get_args(hint))}
    if origin in (types.UnionType, typing.Union):
        args = [arg for arg in get_args(hint) if arg is not type(None)]
        return {**_kind(args[0]), "nullable": True} if len(args) == 1 else {"kind": "text", "nullable": True}
    if origin is tuple:
        return {"kind": "list", "item": _kind(get_args(hint)[0])}
    names = {bool: "bool", int: "int", float: "float"}
    return {"kind": names.get(hint, "text")}


def _matches(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if origin is Literal:
        return any(value == arg and type(value) is type(arg) for arg in get_args(hint))
    if origin in (types.UnionType, typing.Union):
        return any(_matches(value, arg) for arg in get_args(hint))
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_matches(item, args[0]) for item in value)
        return len(args) == len(value) and all(_matches(v, a) for v, a in zip(value, args, strict=True))
    if hint is type(None):
        return value is None
    if hint is int:
        return type(value) is int
    if hint is float:
        return type(value) in (int, float)
    return isinstance(value, hint)


def _check_value(name: str, value: Any, hint: Any) -> None:
    if not _matches(value, hint):
        raise OptionsError(Msg("options.type", name=repr(name), type=_type_text(hint), value=repr(value)))


def _from_json(name: str, value: Any, hint: Any) -> Any:
    """JSON has lists where options hold tuples; everything else must already have the right type."""
    if isinstance(value, list):
        value = tuple(tuple(item) if isinstance(item, list) else item for item in value)
    _check_value(name, value, hint)
    return value


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(item) for item in value]
    return value


def _from_text(text: str, hint: Any) -> Any:
    """Parse a command-line value: true/false, integers, null, comma lists, else the string."""
    if get_origin(hint) is tuple:
        items = [item.strip() for item in text.split(",") if item.strip()]
        return tuple(_scalar(item) for item in items)
    value = _scalar(text)
    if not _matches(value, hint):
        # a string option whose value looks like a number or a boolean; or a bad value, which the
        # check then quotes as it was typed ('yes', not True)
        return text
    return value


def _scalar(text: str) -> Any:
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered in ("null", "none"):
        return None
    try:
        return int(text)
    except ValueError:
        return text

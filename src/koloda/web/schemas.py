"""The shapes of what clients send: request bodies, query strings and websocket messages (pydantic v2).

Every model is strict (``3`` is a number and ``"3"`` is not; ``true`` is not ``1``), refuses unknown
keys, and bounds lengths and ranges. Only the envelope is checked here: a game's options are a JSON
object that the game's own Options class checks, a score sheet's deal line goes to the score file's
reader, a banki event line to the referee. A mistake becomes a refusal
(:mod:`koloda.web.refusals`) naming the dotted path of the bad key and the reason in both languages:

>>> validated(NewTable, {"game": "bank", "players": 2, "seats": [{}, {"level": "god", "kind": "bot"}]})
Traceback (most recent call last):
...
koloda.web.refusals.RequestRefusal: seats.1.level must be one of easy, medium, hard, not 'god'
>>> from koloda.web.refusals import Refusal
>>> try:
...     validated(NewTable, {"game": "bank", "players": 5})
... except Refusal as exc:
...     print(exc.code, exc.field, exc, exc.message_ru, sep=" | ")
bad_request | players | players must be 2-4 for bank, not 5 | players: в bank играют 2-4, а не 5
>>> message(b'{"type": "act", "v": 3, "action": "7H"}')
Act(type='act', v=3, action='7H')
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError, from_json

from koloda import names, registry
from koloda.bots.base import LEVELS
from koloda.errors import KolodaError
from koloda.options import Options as GameOptions
from koloda.web.limits import Limits
from koloda.web.refusals import invalid, mistake, refuse, shown, wrap

DEFAULT_LIMITS = Limits()

# The sizes an operator may change (a body, a message, JSON's nesting, a name) are koloda.web.limits.Limits;
# these are facts of the games, the store and the browsers.
MAX_NAMES = 30  # names in one request: no game koloda referees seats more (banki's max_players)
MAX_SEED = 2**62 - 1
MAX_TEXT = 80  # characters of an action's notation (the store's column) or a preset's name
MAX_EVENT = 200  # characters of a banki event line
MAX_VERSION = 2**53  # the largest integer a browser's JSON keeps exactly
MAX_ACTION_ID = 2**31 - 1
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # a seat's secret: secrets.token_urlsafe(24) is 32 of these

M = TypeVar("M", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=GameOptions)


class Strict(BaseModel):
    """Strict types, no unknown keys, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


def _fail(kind: str, **context: object) -> PydanticCustomError:
    """A schema mistake of one of our kinds (its texts are in refusals.REASONS)."""
    return PydanticCustomError(kind, kind, dict(context))


def _limits(info: ValidationInfo) -> Limits:
    """The limits a validation runs under (its context's, else the defaults)."""
    found = info.context.get("limits") if isinstance(info.context, dict) else None
    return found if isinstance(found, Limits) else DEFAULT_LIMITS


def _name(value: str, info: ValidationInfo) -> str:
    """A person's name as koloda.names keeps it (composed, its ends stripped), or why it cannot be one."""
    most = _limits(info).name
    try:
        return names.person_name(value, most=most)
    except names.BadName as exc:
        refused = exc.msg.params.get("char") if exc.msg is not None else None
        raise (_fail("name_char", char=refused) if refused else _fail("name", max=most)) from None


def _choice(choices: Iterable[str]) -> AfterValidator:
    allowed = tuple(choices)

    def check(value: str) -> str:
        if value not in allowed:
            raise _fail("choice", choices=", ".join(allowed))
        return value

    return AfterValidator(check)


def _event(value: str) -> str:
    if not value.strip() or len(value) > MAX_EVENT:
        raise _fail("event", max=MAX_EVENT)
    return value


#: A player's name: 1-40 characters (Limits.name) once the spaces at its ends are taken off, in the composed
#: form, no character that does not show or turns the text (koloda.names).
Name = Annotated[str, AfterValidator(_name)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]
Preset = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
#: Options are a JSON object; the game's Options class checks the keys and values.
Options = dict[str, Any]
Version = Annotated[int, Field(ge=-MAX_VERSION, le=MAX_VERSION)]
Token = Annotated[str, Field(pattern=TOKEN.pattern, max_length=64)]


# -- request bodies ----------------------------------------------------------------------------------


class SeatRequest(Strict):
    """One seat of a new table: a human or a bot of a level, a name (a default when absent), and whether
    the seat is open to the lobby."""

    kind: Annotated[str, _choice(("human", "bot"))] = "human"
    level: Annotated[str, _choice(tuple(LEVELS))] = "medium"  # a bot's; a human seat ignores it
    name: Name | None = None
    open: bool = False  # a human seat anyone in the lobby may take; else only its link takes it


class NewTable(Strict):
    """``POST /api/tables``."""

    game: str
    players: int
    preset: Preset = "default"
    options: Options = Field(default_factory=dict)
    seats: Annotated[list[SeatRequest], Field(max_length=MAX_NAMES)] | None = None
    seed: Seed | None = None

    @field_validator("game")
    @classmethod
    def _known_game(cls, value: str) -> str:
        if registry.find(value) is None:
            raise _fail("game", choices=", ".join(game.name for game in registry.games()))
        return value

    @field_validator("players")
    @classmethod
    def _players_of_game(cls, value: int, info: ValidationInfo) -> int:
        game = registry.find(info.data.get("game"))
        if game is not None and value not in game.player_counts:
            raise _fail("players_range", counts=game.counts_text, game=game.name)
        return value

    @field_validator("seats")
    @classmethod
    def _one_per_player(
        cls, value: list[SeatRequest] | None, info: ValidationInfo
    ) -> list[SeatRequest] | None:
        players = info.data.get("players")
        if value is not None and players is not None and len(value) != players:
            raise _fail("seat_count", players=players, count=len(value))
        return value


class Join(Strict):
    """``POST /api/tables/ID/join``: the seat (from 0) and the name to sit under."""

    seat: Annotated[int, Field(ge=0, le=MAX_NAMES)]
    name: Name | None = None


class Analyse(Strict):
    """``POST /api/tables/ID/analysis``: the seat analysed (from 0) and its token (none: a public table)."""

    seat: Annotated[int, Field(ge=0, le=MAX_NAMES)]
    token: Token | None = None


class CloseTable(Strict):
    """``POST /api/tables/ID/close``: the link of the seat of the person who closes his own game."""

    token: Token


class NewSheet(Strict):
    """``POST /api/sheets``: the players' names (the score book checks how many), a preset, options."""

    players: Annotated[list[Name], Field(max_length=MAX_NAMES)]
    preset: Preset = "home"
    options: Options = Field(default_factory=dict)


class NewBanki(Strict):
    """``POST /api/banki``: the names (the referee checks how many and their form), preset, options."""

    names: Annotated[list[Name], Field(max_length=MAX_NAMES)]
    preset: Preset = "moscow"
    options: Options = Field(default_factory=dict)
    seed: Seed | None = None


class BankiEvent(Strict):
    """``POST /api/banki/ID/events``: one event line, for the referee to parse."""

    event: Annotated[str, AfterValidator(_event)]


class NoBody(Strict):
    """The undo requests: nothing to say (an empty body or ``{}``)."""


class ExportQuery(Strict):
    """``GET /api/sheets/ID/export/FORMAT?lang=ru|en``."""

    lang: Annotated[str, _choice(("ru", "en"))] = "ru"


class NoQuery(Strict):
    """Every other API request: no query parameters."""


MAX_PAGE = 100  # sheets or banki games in one page of their list
_DIGITS = re.compile(r"[0-9]{1,18}")  # as an id in a path


def _page_size(value: str) -> str:
    if not _DIGITS.fullmatch(value) or not 1 <= int(value) <= MAX_PAGE:
        raise _fail("page_size", max=MAX_PAGE)
    return value


def _page_id(value: str) -> str:
    if not _DIGITS.fullmatch(value):
        raise _fail("page_id")
    return value


class PageQuery(Strict):
    """``GET /api/sheets``, ``GET /api/banki``: at most ``limit`` of them (1-100, default 50), newest first,
    of the ids below ``before`` (none: from the newest; the last id of a page: the next page)."""

    limit: Annotated[str, AfterValidator(_page_size)] = "50"
    before: Annotated[str, AfterValidator(_page_id)] | None = None

    @property
    def size(self) -> int:
        return int(self.limit)

    @property
    def below(self) -> int | None:
        return None if self.before is None else int(self.before)


# -- issue 31: the rules, the lessons, the hint ----------------------------------------------------------


class RulesQuery(Strict):
    """``/rules/GAME?lang=ru|en&table=ID``: the page's language (none: the browser's own), and the table
    whose agreements it marks."""

    lang: Annotated[str, _choice(("ru", "en"))] | None = None
    table: Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | None = None


class TableQuery(Strict):
    """``GET /api/rules/GAME?table=ID``: the table whose agreements are marked (none: no marks)."""

    table: Annotated[str, Field(pattern=r"^[0-9]{1,18}$")] | None = None


class AskHint(Strict):
    """``POST /api/tables/ID/hint``: the seat's link, and the version its client shows (a hint for a
    table that moved on since is refused ``stale``)."""

    token: Token
    v: Annotated[int, Field(ge=0, le=MAX_VERSION)] | None = None


# -- websocket messages ------------------------------------------------------------------------------


class Hello(Strict):
    """The first message: a seat's token (none: watch), the last version this client saw, and whether it
    applies patches (then every event after its first full frame is a patch: koloda.web.frames)."""

    type: Literal["hello"]
    token: Token | None = None
    v: Version | None = None
    patch: bool = False


class Act(Strict):
    """Play an action (its id, or its notation) chosen at version ``v``."""

    type: Literal["act"]
    v: Version
    action: int | str

    @field_validator("action", mode="plain")
    @classmethod
    def _id_or_text(cls, value: object) -> int | str:
        if type(value) is int and 0 <= value <= MAX_ACTION_ID:
            return value
        if isinstance(value, str) and 1 <= len(value) <= MAX_TEXT:
            return value
        raise _fail("action")


class Sync(Strict):
    """Ask for the table if it moved past ``v``."""

    type: Literal["sync"]
    v: Version


class Ping(Strict):
    """Keep-alive."""

    type: Literal["ping"]


ClientMessage = Annotated[Hello | Act | Sync | Ping, Field(discriminator="type")]
_CLIENT_MESSAGE: TypeAdapter[Hello | Act | Sync | Ping] = TypeAdapter(ClientMessage)
_MESSAGE_TYPES: dict[str, type[Strict]] = {"hello": Hello, "act": Act, "sync": Sync, "ping": Ping}


# -- parsing -----------------------------------------------------------------------------------------


def parse_json(raw: bytes | str, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Strict JSON: UTF-8, no NaN or Infinity, no number too large for a float or too long for an int,
    nested at most ``limits.depth`` deep (bad_json otherwise)."""
    try:
        data = from_json(raw, allow_inf_nan=False)
    except (ValueError, TypeError) as exc:  # TypeError: text that is not valid Unicode
        detail = str(exc)
        if "recursion limit" in detail:  # the parser's own ceiling (200) is past any depth allowed
            raise refuse("too_deep", limit=limits.depth) from None
        raise refuse("bad_json", detail=detail) from None
    _check_json(data, limits.depth)
    if isinstance(data, (dict, list)):
        _unique_keys(raw)
    return data


class _Repeated(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Repeated(key)
        out[key] = value
    return out


def _unique_keys(raw: bytes | str) -> None:
    """Refuse an object that gives a key twice: JSON parsers keep one of the two (pydantic's the last), so
    a client and the server could read one request two ways (duplicate_key). The standard library's
    parser is asked again, with a hook that sees every object's pairs; the text is already known to be
    strict JSON."""
    try:
        json.loads(raw, object_pairs_hook=_unique_pairs)
    except _Repeated as exc:
        raise refuse("duplicate_key", name=shown(exc.key)) from None
    except ValueError as exc:  # what pydantic read and this parser cannot (a number of 4300 digits)
        raise refuse("bad_json", detail=str(exc)) from None


def _check_json(data: Any, limit: int) -> None:
    """Refuse a float out of range, and nesting deeper than ``limit`` (a list in a list is 2 deep)."""

    def check(value: Any, depth: int) -> None:
        if isinstance(value, float):
            if not math.isfinite(value):
                raise refuse("bad_json", detail="a number is too large")
        elif isinstance(value, (list, dict)):
            if depth == limit:
                raise refuse("too_deep", limit=limit)
            for item in value if isinstance(value, list) else value.values():
                check(item, depth + 1)

    check(data, 0)


def validated(
    model: type[M],
    data: object,
    *,
    key: str = "bad_request",
    keys: Mapping[str, str] | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> M:
    """``data`` as ``model``, or the refusal ``key`` naming the first mistake (``keys`` gives other
    refusals for mistakes under some top-level keys, e.g. ``{"options": "options_shape"}``)."""
    try:
        return model.model_validate(data, context={"limits": limits})
    except ValidationError as exc:
        raise invalid(exc, model, key=key, whole="body", keys=keys) from None


def body(
    raw: bytes, model: type[M], limits: Limits = DEFAULT_LIMITS, *, keys: Mapping[str, str] | None = None
) -> M:
    """A request body as ``model``."""
    return validated(model, parse_json(raw, limits), keys=keys, limits=limits)


def options_offer(cls: type[GameOptions], asked: Iterable[str] | None = None) -> dict[str, Any]:
    """What a new-game form offers (``GET /api/banki/options``, ``GET /api/sheets/options``): the presets
    but ``default`` (the same as one of them), each preset's values, and the schema of the options it asks
    (``asked``; None: every one)."""
    names = None if asked is None else set(asked)
    return {
        "presets": [name for name in cls.preset_names() if name != "default"],
        "preset_values": cls.preset_values(),
        "schema": [row for row in cls.schema() if names is None or row["name"] in names],
    }


def game_options(cls: type[OptionsT], preset: str, options: Mapping[str, Any]) -> OptionsT:
    """A request's ``preset`` changed by its ``options`` object, both checked by the game's Options
    class; refused as bad_options naming ``preset`` or ``options``."""
    try:
        base = cls.preset(preset)
    except KolodaError as exc:
        raise wrap("bad_options", exc, field="preset") from None
    try:
        return base.replace(**options)
    except KolodaError as exc:
        raise wrap("bad_options", exc, field="options") from None


def no_body(raw: bytes) -> NoBody:
    """The body of a request that takes none: empty, or ``{}``."""
    return body(raw, NoBody) if raw.strip() else NoBody()


def query(items: Iterable[tuple[str, str]], model: type[M]) -> M:
    """A query string (its ``key=value`` pairs) as ``model``; a key given twice is refused."""
    data: dict[str, str] = {}
    for name, value in items:
        if name in data:
            raise mistake("bad_request", "repeated", name, key=shown(name))
        data[name] = value
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise invalid(exc, model, key="bad_request", whole="query") from None


def message(raw: bytes | str, limits: Limits = DEFAULT_LIMITS) -> Hello | Act | Sync | Ping:
    """A websocket message: at most ``limits.message`` bytes of JSON, one of the four kinds."""
    size = len(raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw)
    if size > limits.message:
        raise refuse("message_too_long", limit=limits.message)
    data = parse_json(raw, limits)
    try:
        return _CLIENT_MESSAGE.validate_python(data, context={"limits": limits})
    except ValidationError as exc:
        # The path of a mistake inside a message starts with the message's type: drop it.
        kind = data.get("type") if isinstance(data, dict) else None
        model = _MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
        tagged = bool(exc.errors()[0]["loc"]) and model is not None
        raise invalid(
            exc, model, key="bad_message", whole="message", keys={"token": "token_shape"}, skip=int(tagged)
        ) from None

"""Every refusal of the web app: its machine code, HTTP status, kind in koloda's error family, and its
message in English and Russian.

The words are the translation catalog's (koloda.i18n): ``refusal.<key>`` for each reason the web
refuses something (:data:`TEXTS` names its code, kind and status), ``refusal.reason.<kind>`` for why a
request or message failed its schema (:data:`REASONS`). A refusal is an instance of one of the family's
kinds (:class:`koloda.errors.RequestError`, ``NotFoundError``, ``IllegalActionError``, ``NotationError``,
``OptionsError``, ``RecordError``) with the code and status of its entry and a message in both languages;
an engine's error it wraps is said in Russian too where the engine's message has a translation:

>>> err = refuse("stale", current=5, yours=3)
>>> isinstance(err, IllegalActionError), err.code, err.status
(True, 'stale', 409)
>>> print(err.message_ru)
стол уже изменился: версия 5, у вас 3; вот как он сейчас
>>> body(refuse("unknown_table", id="7"))["message"]
'no table 7'

The JSON a client gets is :func:`body` (HTTP) or :func:`frame` (websocket): the code, the field the
refusal is about (a dotted path such as ``seats.1.level``, or None), and both messages.
"""

from __future__ import annotations

import re
import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from koloda.errors import (
    IllegalActionError,
    KolodaError,
    NotationError,
    NotFoundError,
    OptionsError,
    RecordError,
    RequestError,
)
from koloda.i18n import N_, Msg, say


@dataclass(frozen=True)
class Text:
    """One reason to refuse: the code programs read, the family kind, the HTTP status; its words are the
    catalog's ``refusal.<key>``. A ``passthrough`` refusal says an engine's error as it is (its English
    template is ``{detail}``): in Russian, the engine's own Russian, or a Russian wrapper around the English
    where the engine's message has no translation."""

    code: str
    kind: type[KolodaError]
    status: int
    passthrough: bool = False


#: Every reason the web refuses a request or a message, by key (mostly the code itself); the words of
#: ``key`` are the catalog's ``refusal.<key>``.
TEXTS: dict[str, Text] = {
    # the request or message as a whole
    "bad_json": Text("bad_json", RequestError, 400),
    "duplicate_key": Text("duplicate_key", RequestError, 400),
    "too_large": Text("too_large", RequestError, 413),
    "too_deep": Text("bad_json", RequestError, 400),
    "bad_request": Text("bad_request", RequestError, 400),
    "bad_message": Text("bad_message", RequestError, 400),
    # a schema mistake under a key whose refusals have their own code
    "options_shape": Text("bad_options", OptionsError, 400),
    "event_shape": Text("bad_event", NotationError, 400),
    "token_shape": Text("bad_token", RequestError, 403),
    "message_too_long": Text("bad_message", RequestError, 400),
    "first_hello": Text("bad_message", RequestError, 400),
    "hello_again": Text("bad_message", RequestError, 400),
    "not_found": Text("not_found", NotFoundError, 404),
    "method_not_allowed": Text("method_not_allowed", RequestError, 405),
    # the guard (koloda.web.guard): rates, origins, content types
    "rate_limited": Text("rate_limited", RequestError, 429),
    "messages_limited": Text("rate_limited", RequestError, 429),
    "address_messages_limited": Text("rate_limited", RequestError, 429),
    "creations_limited": Text("rate_limited", RequestError, 429),
    "too_many_connections": Text("too_many_connections", RequestError, 429),
    "cross_origin": Text("cross_origin", RequestError, 403),
    "not_json": Text("not_json", RequestError, 415),
    "no_content_type": Text("not_json", RequestError, 415),
    # ids
    "unknown_table": Text("unknown_table", NotFoundError, 404),
    "unknown_sheet": Text("unknown_sheet", NotFoundError, 404),
    "unknown_game": Text("unknown_game", NotFoundError, 404),
    "bad_token": Text("bad_token", RequestError, 403),
    "revoked": Text("bad_token", RequestError, 403),
    # the idempotency key of an entry sent from a phone (docs/web.md, "Offline")
    "bad_key": Text("bad_key", RequestError, 400),
    "key_reused": Text("key_reused", IllegalActionError, 409),
    # the edit key of a score sheet or a banki game (koloda.web.editkeys)
    "sheet_key_missing": Text("bad_edit_key", RequestError, 403),
    "sheet_key_wrong": Text("bad_edit_key", RequestError, 403),
    "banki_key_missing": Text("bad_edit_key", RequestError, 403),
    "banki_key_wrong": Text("bad_edit_key", RequestError, 403),
    # seats
    "bad_seat": Text("bad_seat", RequestError, 400),
    "seat_taken": Text("seat_taken", IllegalActionError, 409),
    "seat_by_link": Text("seat_by_link", RequestError, 403),
    # play
    "spectator": Text("spectator", RequestError, 403),
    "game_over": Text("game_over", IllegalActionError, 409),
    "table_closed": Text("game_over", IllegalActionError, 409),
    "close_with_people": Text("close_refused", IllegalActionError, 409),
    # fair shuffles (koloda.seeds, docs/web.md "Fair shuffles")
    "seed_not_private": Text("seed_not_private", RequestError, 400),
    "not_revealed": Text("not_revealed", IllegalActionError, 409),
    "stale": Text("stale", IllegalActionError, 409),
    "not_your_turn": Text("not_your_turn", IllegalActionError, 409),
    "illegal_id": Text("illegal", IllegalActionError, 409),
    "illegal": Text("illegal", IllegalActionError, 409, passthrough=True),
    "bad_action": Text("bad_action", NotationError, 400, passthrough=True),
    # options, players, names
    "bad_options": Text("bad_options", OptionsError, 400, passthrough=True),
    "bad_players": Text("bad_request", RequestError, 400, passthrough=True),
    "bad_names": Text("bad_request", RequestError, 400, passthrough=True),
    # score sheets
    "bad_deal": Text("bad_deal", RecordError, 400, passthrough=True),
    "unreadable_deal": Text("bad_deal", RecordError, 400),
    "no_deal_to_undo": Text("nothing_to_undo", IllegalActionError, 409),
    "bad_format": Text("bad_format", RequestError, 400),
    # banki
    "bad_event": Text("bad_event", NotationError, 400, passthrough=True),
    "no_event_to_undo": Text("nothing_to_undo", IllegalActionError, 409),
    # the coach (koloda.web.coach)
    "game_not_over": Text("game_not_over", IllegalActionError, 409),
    "analysis_private": Text("analysis_private", RequestError, 403),
    "analysis_failed": Text("analysis_failed", RecordError, 500),
    # issue 31: the hint (koloda.web.hints)
    "hints_rated": Text("hints_rated", RequestError, 403),
    "hint_failed": Text("hint_failed", RecordError, 500),
    # the server's own fault: a stored table that no longer replays
    "bad_record": Text("bad_record", RecordError, 500),
    # the database or the other nodes cannot be reached now (nothing changed; try again)
    "store_unavailable": Text("unavailable", RecordError, 503),
    "bus_unavailable": Text("unavailable", RecordError, 503),
    # another writer (a node, a program) changed it first: read it again
    "changed": Text("conflict", IllegalActionError, 409),
    "busy_table": Text("conflict", IllegalActionError, 409),
}

#: The catalog key of every refusal's words.
WORDS: dict[str, str] = {
    "bad_json": N_("refusal.bad_json"),
    "duplicate_key": N_("refusal.duplicate_key"),
    "too_large": N_("refusal.too_large"),
    "too_deep": N_("refusal.too_deep"),
    "rate_limited": N_("refusal.rate_limited"),
    "messages_limited": N_("refusal.messages_limited"),
    "address_messages_limited": N_("refusal.address_messages_limited"),
    "creations_limited": N_("refusal.creations_limited"),
    "too_many_connections": N_("refusal.too_many_connections"),
    "cross_origin": N_("refusal.cross_origin"),
    "not_json": N_("refusal.not_json"),
    "no_content_type": N_("refusal.no_content_type"),
    "bad_request": N_("refusal.bad_request"),
    "bad_message": N_("refusal.bad_message"),
    "options_shape": N_("refusal.options_shape"),
    "event_shape": N_("refusal.event_shape"),
    "token_shape": N_("refusal.token_shape"),
    "message_too_long": N_("refusal.message_too_long"),
    "first_hello": N_("refusal.first_hello"),
    "hello_again": N_("refusal.hello_again"),
    "not_found": N_("refusal.not_found"),
    "method_not_allowed": N_("refusal.method_not_allowed"),
    "unknown_table": N_("refusal.unknown_table"),
    "unknown_sheet": N_("refusal.unknown_sheet"),
    "unknown_game": N_("refusal.unknown_game"),
    "bad_token": N_("refusal.bad_token"),
    "revoked": N_("refusal.revoked"),
    "bad_key": N_("refusal.bad_key"),
    "key_reused": N_("refusal.key_reused"),
    "sheet_key_missing": N_("refusal.sheet_key_missing"),
    "sheet_key_wrong": N_("refusal.sheet_key_wrong"),
    "banki_key_missing": N_("refusal.banki_key_missing"),
    "banki_key_wrong": N_("refusal.banki_key_wrong"),
    "bad_seat": N_("refusal.bad_seat"),
    "seat_taken": N_("refusal.seat_taken"),
    "seat_by_link": N_("refusal.seat_by_link"),
    "spectator": N_("refusal.spectator"),
    "game_over": N_("refusal.game_over"),
    "table_closed": N_("refusal.table_closed"),
    "close_with_people": N_("refusal.close_with_people"),
    "seed_not_private": N_("refusal.seed_not_private"),
    "not_revealed": N_("refusal.not_revealed"),
    "stale": N_("refusal.stale"),
    "not_your_turn": N_("refusal.not_your_turn"),
    "illegal_id": N_("refusal.illegal_id"),
    "illegal": N_("refusal.illegal"),
    "bad_action": N_("refusal.bad_action"),
    "bad_options": N_("refusal.bad_options"),
    "bad_players": N_("refusal.bad_players"),
    "bad_names": N_("refusal.bad_names"),
    "bad_deal": N_("refusal.bad_deal"),
    "unreadable_deal": N_("refusal.unreadable_deal"),
    "no_deal_to_undo": N_("refusal.no_deal_to_undo"),
    "bad_format": N_("refusal.bad_format"),
    "bad_event": N_("refusal.bad_event"),
    "no_event_to_undo": N_("refusal.no_event_to_undo"),
    "game_not_over": N_("refusal.game_not_over"),
    "analysis_private": N_("refusal.analysis_private"),
    "analysis_failed": N_("refusal.analysis_failed"),
    # issue 31
    "hints_rated": N_("refusal.hints_rated"),
    "hint_failed": N_("refusal.hint_failed"),
    "bad_record": N_("refusal.bad_record"),
    "store_unavailable": N_("refusal.store_unavailable"),
    "bus_unavailable": N_("refusal.bus_unavailable"),
    "changed": N_("refusal.changed"),
    "busy_table": N_("refusal.busy_table"),
}

#: The Russian wrapper of an error of the family that reaches the web unwrapped and untranslated, by its
#: code (its English is the error's message as it is).
FAMILY: dict[str, str] = {
    "bad_notation": N_("refusal.family.bad_notation"),
    "illegal_action": N_("refusal.family.illegal_action"),
    "bad_options": N_("refusal.family.bad_options"),
    "bad_record": N_("refusal.family.bad_record"),
    "bad_request": N_("refusal.family.bad_request"),
    "not_found": N_("refusal.family.not_found"),
}

_FAMILY_OTHER = N_("refusal.family.error")

#: Why a body, query or message failed its schema: pydantic's error type (or one of ours) to the catalog
#: key of the reason. ``{field}`` is the dotted path of the bad key, ``{input}`` the value sent.
REASONS: dict[str, str] = {
    "missing": N_("refusal.reason.missing"),
    "extra_forbidden": N_("refusal.reason.extra_forbidden"),
    "extra_forbidden_in": N_("refusal.reason.extra_forbidden_in"),
    "extra_forbidden_none": N_("refusal.reason.extra_forbidden_none"),
    "int_type": N_("refusal.reason.int_type"),
    "string_type": N_("refusal.reason.string_type"),
    "bool_type": N_("refusal.reason.bool_type"),
    "dict_type": N_("refusal.reason.dict_type"),
    "model_type": N_("refusal.reason.model_type"),
    "model_attributes_type": N_("refusal.reason.model_attributes_type"),
    "list_type": N_("refusal.reason.list_type"),
    "too_short": N_("refusal.reason.too_short"),
    "too_long": N_("refusal.reason.too_long"),
    "string_too_short": N_("refusal.reason.string_too_short"),
    "string_too_long": N_("refusal.reason.string_too_long"),
    "string_pattern_mismatch": N_("refusal.reason.string_pattern_mismatch"),
    "greater_than_equal": N_("refusal.reason.greater_than_equal"),
    "less_than_equal": N_("refusal.reason.less_than_equal"),
    "union_tag_invalid": N_("refusal.reason.union_tag_invalid"),
    "union_tag_not_found": N_("refusal.reason.union_tag_not_found"),
    "literal_error": N_("refusal.reason.literal_error"),
    "choice": N_("refusal.reason.choice"),
    "name": N_("refusal.reason.name"),
    "name_char": N_("refusal.reason.name_char"),
    "page_size": N_("refusal.reason.page_size"),
    "page_id": N_("refusal.reason.page_id"),
    "game": N_("refusal.reason.game"),
    "players_range": N_("refusal.reason.players_range"),
    "seat_count": N_("refusal.reason.seat_count"),
    "action": N_("refusal.reason.action"),
    "event": N_("refusal.reason.event"),
    "repeated": N_("refusal.reason.repeated"),
    "other": N_("refusal.reason.other"),
}

#: What ``{field}`` says when the whole body, query or message is wrong.
WHOLE = {
    "body": N_("refusal.whole.body"),
    "message": N_("refusal.whole.message"),
    "query": N_("refusal.whole.query"),
}


class Refusal(KolodaError):
    """A refusal of the web: a member of the error family with its code, status and Russian message."""

    def __init__(self, text: Text, message: Msg, field: str | None) -> None:
        super().__init__(message, field=field)
        self.code = text.code
        self.status = text.status

    @property
    def message_ru(self) -> str:
        return self.text("ru")


class RequestRefusal(Refusal, RequestError):
    """A malformed request or message."""


class NotFoundRefusal(Refusal, NotFoundError):
    """An id that names nothing."""


class IllegalRefusal(Refusal, IllegalActionError):
    """Something well formed that the table, sheet or game does not allow now."""


class NotationRefusal(Refusal, NotationError):
    """Text that does not parse: an action, an event."""


class OptionsRefusal(Refusal, OptionsError):
    """Options or a preset the game's Options class refused."""


class RecordRefusal(Refusal, RecordError):
    """A deal line or a stored record that cannot be read or scored."""


_CLASSES: dict[type[KolodaError], type[Refusal]] = {
    RequestError: RequestRefusal,
    NotFoundError: NotFoundRefusal,
    IllegalActionError: IllegalRefusal,
    NotationError: NotationRefusal,
    OptionsError: OptionsRefusal,
    RecordError: RecordRefusal,
}


def refuse(key: str, *, field: str | None = None, **params: object) -> Refusal:
    """The refusal ``TEXTS[key]``, its words filled from ``params``."""
    text = TEXTS[key]
    return _CLASSES[text.kind](text, Msg(WORDS[key], **params), field)


def mistake(
    refusal: str, reason: str, field: str | None, *, whole: str = "body", **params: object
) -> Refusal:
    """The refusal ``TEXTS[refusal]`` (bad_request, bad_message, ...) about ``field`` (None: the whole
    body, query or message) for the reason ``REASONS[reason]``."""
    named = Msg(WHOLE[whole]) if field is None else field
    return refuse(refusal, field=field, reason=Msg(REASONS[reason], field=named, **params))


def wrap(key: str, exc: KolodaError, *, field: str | None = None, **params: object) -> Refusal:
    """An engine's error (options, an illegal action, a deal the scorer refuses) as the refusal
    ``TEXTS[key]``: its words say the engine's message as ``{detail}``, in each language where the engine's
    message has a translation; a passthrough refusal of a translated error is the engine's message itself.
    ``exc.field`` is appended to ``field``."""
    text = TEXTS[key]
    kind = next((k for k in _CLASSES if isinstance(exc, k)), None)
    cls = _CLASSES[kind] if kind is not None else _CLASSES[text.kind]
    path = ".".join(part for part in (field, exc.field) if part) or None
    if text.passthrough and exc.msg is not None:
        return cls(text, exc.msg, path)
    return cls(text, Msg(WORDS[key], detail=exc.detail, **params), path)


def russian(exc: KolodaError) -> str:
    """The Russian message of any error of the family (its own, or a wrapper around the English)."""
    if exc.msg is not None:
        return exc.text("ru")
    wrapper = FAMILY.get(exc.code, _FAMILY_OTHER)
    return say("ru", wrapper, detail=str(exc))


def body(exc: KolodaError) -> dict[str, Any]:
    """The JSON body of an HTTP refusal."""
    return {"error": exc.code, "field": exc.field, "message": str(exc), "message_ru": russian(exc)}


def frame(exc: KolodaError) -> dict[str, Any]:
    """The websocket frame of a refused message: the same, its code under "code"."""
    data = body(exc)
    return {"type": "error", "code": data.pop("error"), **data}


# -- schema failures ---------------------------------------------------------------------------------


def shown(value: object, limit: int = 40) -> str:
    """A value as quoted in a message: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def invalid(
    exc: ValidationError,
    model: object,
    *,
    key: str,
    whole: str,
    keys: Mapping[str, str] | None = None,
    skip: int = 0,
) -> Refusal:
    """The first mistake a schema found, as the refusal ``TEXTS[key]`` (or ``TEXTS[keys[top]]`` when
    the mistake is under the top-level key ``top``): the field is its dotted path, and both messages
    name the field and say why. ``skip`` leading parts of each path are dropped (a union's tag)."""
    error = exc.errors(include_url=False)[0]
    loc = tuple(error["loc"])[skip:]
    if keys and loc and str(loc[0]) in keys:
        key = keys[str(loc[0])]
    field = ".".join(str(part) for part in loc) if loc else None
    kind, params = _reason(error, loc, model)
    return mistake(key, kind, field, whole=whole, **params)


def _reason(error: ErrorDetails, loc: tuple[int | str, ...], model: object) -> tuple[str, dict[str, object]]:
    """The kind of mistake (a key of REASONS) and the values its texts quote."""
    kind = error["type"]
    ctx = {name: _ctx(value) for name, value in (error.get("ctx") or {}).items()}
    params: dict[str, object] = {"input": shown(error["input"]), "message": error["msg"], **ctx}
    if kind == "extra_forbidden":
        known = _known_keys(model, loc[:-1])
        params |= {"key": shown(loc[-1]), "known": ", ".join(known or ())}
        if known == []:
            kind = "extra_forbidden_none"
        elif len(loc) > 1:
            kind = "extra_forbidden_in"
    elif kind == "union_tag_invalid":
        tags = str(ctx.get("expected_tags", "")).split(",")
        params |= {"tag": shown(ctx.get("tag")), "expected_tags": ", ".join(tag.strip(" '") for tag in tags)}
    if kind not in REASONS:
        kind = "other"
    return kind, params


def _ctx(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(item) for item in value)
    return value


def _known_keys(model: object, loc: Sequence[int | str]) -> list[str] | None:
    """The keys a schema allows at ``loc`` (for 'unknown key' messages), when it is a model there."""
    current: object = model
    for part in (*loc, None):
        current = _unwrap(current)
        if part is None:
            break
        if isinstance(current, type) and issubclass(current, BaseModel) and isinstance(part, str):
            info = current.model_fields.get(part)
            current = info.annotation if info is not None else None
        elif get_origin(current) is list and isinstance(part, int):
            current = get_args(current)[0]
        else:
            return None
    if isinstance(current, type) and issubclass(current, BaseModel):
        return sorted(current.model_fields)
    return None


def _unwrap(annotation: object) -> object:
    """``X | None`` and ``Annotated[X, ...]`` to ``X``."""
    while True:
        origin = get_origin(annotation)
        if origin is typing.Annotated:
            annotation = get_args(annotation)[0]
        elif origin in (types.UnionType, typing.Union):
            options = [arg for arg in get_args(annotation) if arg is not type(None)]
            if len(options) != 1:
                return annotation
            annotation = options[0]
        else:
            return annotation


_ID = re.compile(r"[0-9]{1,18}")  # the store's ids are 64-bit integers


def path_id(text: str, unknown: str) -> int:
    """A table's, sheet's or game's id from its path; anything else names nothing (404, ``unknown``)."""
    if not _ID.fullmatch(text):
        raise refuse(unknown, id=shown(text))
    return int(text)

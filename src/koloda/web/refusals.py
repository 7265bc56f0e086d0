"""Every refusal of the web app: its machine code, HTTP status, kind in koloda's error family, and its
message in English and Russian.

All the web's texts for people are here, in two tables the translation catalog can take over as they
are: :data:`TEXTS` (one entry per reason the web refuses something, each naming its code) and
:data:`REASONS` (why a request or message failed its schema, one entry per kind of mistake). A refusal is
an instance of one of the family's kinds (:class:`koloda.errors.RequestError`, ``NotFoundError``,
``IllegalActionError``, ``NotationError``, ``OptionsError``, ``RecordError``) with the code, status
and Russian message of its entry:

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

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from koloda.banki import RefereeError
from koloda.errors import (
    IllegalActionError,
    KolodaError,
    NotationError,
    NotFoundError,
    OptionsError,
    RecordError,
    RequestError,
)
from koloda.thousand.scoring import ScoringError


@dataclass(frozen=True)
class Text:
    """One reason to refuse: the code programs read, the family kind, the HTTP status, both messages
    (``str.format`` templates; ``{detail}`` is the English text of the error being wrapped)."""

    code: str
    kind: type[KolodaError]
    status: int
    en: str
    ru: str


#: Every reason the web refuses a request or a message, by key (mostly the code itself).
TEXTS: dict[str, Text] = {
    # the request or message as a whole
    "bad_json": Text(
        "bad_json", RequestError, 400, "not valid JSON: {detail}", "не читается как JSON: {detail}"
    ),
    "too_large": Text(
        "too_large",
        RequestError,
        413,
        "the body is larger than {limit} bytes",
        "тело запроса больше {limit} байт",
    ),
    "bad_request": Text("bad_request", RequestError, 400, "{reason}", "{reason_ru}"),
    "bad_message": Text("bad_message", RequestError, 400, "{reason}", "{reason_ru}"),
    # a schema mistake under a key whose refusals have their own code
    "options_shape": Text("bad_options", OptionsError, 400, "{reason}", "{reason_ru}"),
    "event_shape": Text("bad_event", NotationError, 400, "{reason}", "{reason_ru}"),
    "token_shape": Text("bad_token", RequestError, 403, "{reason}", "{reason_ru}"),
    "message_too_long": Text(
        "bad_message",
        RequestError,
        400,
        "a message may be at most {limit} bytes",
        "сообщение длиннее {limit} байт",
    ),
    "first_hello": Text(
        "bad_message",
        RequestError,
        400,
        'the first message must be {{"type": "hello", "token": ..., "v": ...}}',
        'первое сообщение должно быть {{"type": "hello", "token": ..., "v": ...}}',
    ),
    "hello_again": Text(
        "bad_message",
        RequestError,
        400,
        "a connection says hello once; then: act, sync, ping",
        "hello посылают один раз; дальше: act, sync, ping",
    ),
    "not_found": Text("not_found", NotFoundError, 404, "nothing at {path}", "по адресу {path} ничего нет"),
    "method_not_allowed": Text(
        "method_not_allowed",
        RequestError,
        405,
        "{method} is not accepted at {path}",
        "{path} не принимает {method}",
    ),
    # ids
    "unknown_table": Text("unknown_table", NotFoundError, 404, "no table {id}", "нет стола {id}"),
    "unknown_sheet": Text("unknown_sheet", NotFoundError, 404, "no score sheet {id}", "нет записи {id}"),
    "unknown_game": Text("unknown_game", NotFoundError, 404, "no banki game {id}", "нет игры в банки {id}"),
    "bad_token": Text(
        "bad_token",
        RequestError,
        403,
        "that link is not a seat of table {id}",
        "эта ссылка — не место за столом {id}",
    ),
    # seats
    "bad_seat": Text(
        "bad_seat",
        RequestError,
        400,
        "table {id} has seats 0-{last}, not {seat}",
        "за столом {id} места 0–{last}, а не {seat}",
    ),
    "seat_taken": Text(
        "seat_taken",
        IllegalActionError,
        409,
        "seat {number} of table {id} is not free",
        "место {number} за столом {id} занято",
    ),
    # play
    "spectator": Text(
        "spectator",
        RequestError,
        403,
        "spectators watch; only a seat's link can play",
        "зрители только смотрят; ходят по ссылке места",
    ),
    "game_over": Text(
        "game_over",
        IllegalActionError,
        409,
        "the game is over; no action may follow",
        "партия окончена; ходов больше нет",
    ),
    "stale": Text(
        "stale",
        IllegalActionError,
        409,
        "the table has moved on: version {current}, yours {yours}; here it is now",
        "стол уже изменился: версия {current}, у вас {yours}; вот как он сейчас",
    ),
    "not_your_turn": Text(
        "not_your_turn",
        IllegalActionError,
        409,
        "it is not your turn: seat {seat} moves",
        "сейчас не ваш ход: ходит место {seat}",
    ),
    "illegal_id": Text(
        "illegal",
        IllegalActionError,
        409,
        "action {action} is not legal now",
        "ход {action} сейчас невозможен",
    ),
    "illegal": Text("illegal", IllegalActionError, 409, "{detail}", "ход не принят: {detail}"),
    "bad_action": Text("bad_action", NotationError, 400, "{detail}", "ход не понят: {detail}"),
    # options, players, names
    "bad_options": Text("bad_options", OptionsError, 400, "{detail}", "правила заданы неверно: {detail}"),
    "bad_players": Text("bad_request", RequestError, 400, "{detail}", "игроки заданы неверно: {detail}"),
    "bad_names": Text("bad_request", RequestError, 400, "{detail}", "имена заданы неверно: {detail}"),
    # score sheets
    "bad_deal": Text("bad_deal", RecordError, 400, "{detail}", "кон не записан: {detail}"),
    "unreadable_deal": Text(
        "bad_deal",
        RecordError,
        400,
        "the deal line cannot be read: {detail}",
        "запись кона не читается: {detail}",
    ),
    "no_deal_to_undo": Text(
        "nothing_to_undo",
        IllegalActionError,
        409,
        "the sheet has no deal to take back",
        "в записи нет кона, который можно отменить",
    ),
    "bad_format": Text(
        "bad_format",
        RequestError,
        400,
        "unknown export format {format}; formats: {formats}",
        "неизвестный формат {format}; форматы: {formats}",
    ),
    # banki
    "bad_event": Text("bad_event", NotationError, 400, "{detail}", "событие не принято: {detail}"),
    "no_event_to_undo": Text(
        "nothing_to_undo", IllegalActionError, 409, "no event to take back", "нечего отменять"
    ),
    # the server's own fault: a stored table that no longer replays
    "bad_record": Text(
        "bad_record",
        RecordError,
        500,
        "table {id} does not replay: {detail}",
        "стол {id} не восстанавливается из записи: {detail}",
    ),
}

#: The Russian wrapper of an error of the family that reaches the web unwrapped, by its code.
FAMILY_RU: dict[str, str] = {
    "bad_notation": "запись не понята: {detail}",
    "illegal_action": "ход не принят: {detail}",
    "bad_options": "правила заданы неверно: {detail}",
    "bad_record": "запись не читается: {detail}",
    "bad_request": "неверный запрос: {detail}",
    "not_found": "не найдено: {detail}",
}

#: Why a body, query or message failed its schema: pydantic's error type (or one of ours) to the
#: English and Russian reason. ``{field}`` is the dotted path of the bad key, ``{input}`` the value sent.
REASONS: dict[str, tuple[str, str]] = {
    "missing": ("{field} is missing", "не хватает {field}"),
    "extra_forbidden": (
        "unknown key {key}; known keys: {known}",
        "неизвестный ключ {key}; известные ключи: {known}",
    ),
    "extra_forbidden_in": (
        "unknown key {key} at {field}; known keys there: {known}",
        "неизвестный ключ {key} ({field}); известные там ключи: {known}",
    ),
    "extra_forbidden_none": (
        "unknown key {key}: nothing is taken here",
        "неизвестный ключ {key}: здесь ничего не принимается",
    ),
    "int_type": (
        "{field} must be a whole number, not {input}",
        "{field} должно быть целым числом, а не {input}",
    ),
    "string_type": ("{field} must be text, not {input}", "{field} должно быть строкой, а не {input}"),
    "bool_type": (
        "{field} must be true or false, not {input}",
        "{field} должно быть true или false, а не {input}",
    ),
    "dict_type": (
        "{field} must be a JSON object, not {input}",
        "{field} должно быть JSON-объектом, а не {input}",
    ),
    "model_type": (
        "{field} must be a JSON object, not {input}",
        "{field} должно быть JSON-объектом, а не {input}",
    ),
    "model_attributes_type": (
        "{field} must be a JSON object, not {input}",
        "{field} должно быть JSON-объектом, а не {input}",
    ),
    "list_type": ("{field} must be a list, not {input}", "{field} должно быть списком, а не {input}"),
    "too_short": (
        "{field} must have at least {min_length} items, not {actual_length}",
        "в {field} должно быть не меньше {min_length} элементов, а не {actual_length}",
    ),
    "too_long": (
        "{field} may have at most {max_length} items",
        "в {field} может быть не больше {max_length} элементов",
    ),
    "string_too_short": (
        "{field} must be at least {min_length} characters long",
        "{field} должно быть не короче {min_length} символов",
    ),
    "string_too_long": (
        "{field} may be at most {max_length} characters long",
        "{field} может быть не длиннее {max_length} символов",
    ),
    "string_pattern_mismatch": (
        "{field} is not of the expected form: {input}",
        "{field} не в том виде: {input}",
    ),
    "greater_than_equal": (
        "{field} must be at least {ge}, not {input}",
        "{field} должно быть не меньше {ge}, а не {input}",
    ),
    "less_than_equal": (
        "{field} must be at most {le}, not {input}",
        "{field} должно быть не больше {le}, а не {input}",
    ),
    "union_tag_invalid": (
        "unknown message type {tag}; types: {expected_tags}",
        "неизвестный тип сообщения {tag}; типы: {expected_tags}",
    ),
    "union_tag_not_found": (
        'a message is a JSON object with a "type"',
        'сообщение — JSON-объект с полем "type"',
    ),
    "literal_error": (
        "{field} must be {expected}, not {input}",
        "{field} должно быть {expected}, а не {input}",
    ),
    # ours (koloda.web.schemas)
    "choice": ("{field} must be one of {choices}, not {input}", "{field} — одно из: {choices}; а не {input}"),
    "name": (
        "{field}: a name must be 1-{max} characters without control characters, not {input}",
        "{field}: имя — от 1 до {max} символов без управляющих, а не {input}",
    ),
    "game": (
        "{field}: unknown game {input}; games: {choices}",
        "{field}: неизвестная игра {input}; игры: {choices}",
    ),
    "players_range": (
        "{field} must be {counts} for {game}, not {input}",
        "{field}: в {game} играют {counts}, а не {input}",
    ),
    "seat_count": (
        "{field} must be a list of {players} seats, not {count}",
        "{field}: нужен список из {players} мест, а не {count}",
    ),
    "action": (
        "{field} must be an action's id (a whole number) or its notation (text), not {input}",
        "{field} — номер хода (целое число) или его запись (строка), а не {input}",
    ),
    "event": (
        "{field} must be a line of 1-{max} characters like 'hit Аня', not {input}",
        "{field} — строка от 1 до {max} символов вроде 'hit Аня', а не {input}",
    ),
    "repeated": ("{key} is given more than once", "{key} указано больше одного раза"),
    "other": ("{field}: {message}", "{field}: неверное значение ({message})"),
}

#: What ``{field}`` says when the whole body or message is wrong.
WHOLE = {
    "body": ("the body", "тело запроса"),
    "message": ("the message", "сообщение"),
    "query": ("the query", "запрос"),
}


class Refusal(KolodaError):
    """A refusal of the web: a member of the error family with its code, status and Russian message."""

    def __init__(self, text: Text, en: str, ru: str, field: str | None) -> None:
        super().__init__(en, field=field)
        self.code = text.code
        self.status = text.status
        self.message_ru = ru


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
    """The refusal ``TEXTS[key]``, its templates filled from ``params``."""
    text = TEXTS[key]
    return _CLASSES[text.kind](text, text.en.format(**params), text.ru.format(**params), field)


def mistake(
    refusal: str, reason: str, field: str | None, *, whole: str = "body", **params: object
) -> Refusal:
    """The refusal ``TEXTS[refusal]`` (bad_request, bad_message, ...) about ``field`` (None: the whole
    body, query or message) for the reason ``REASONS[reason]``."""
    en, ru = REASONS[reason]
    whole_en, whole_ru = WHOLE[whole]
    return refuse(
        refusal,
        field=field,
        reason=en.format(field=whole_en if field is None else field, **params),
        reason_ru=ru.format(field=whole_ru if field is None else field, **params),
    )


def wrap(key: str, exc: KolodaError, *, field: str | None = None, **params: object) -> Refusal:
    """An engine's error (options, an illegal action, a deal the scorer refuses) as the refusal
    ``TEXTS[key]``: the English detail is the engine's message; the Russian is the engine's own where it
    has one, else the entry's wrapper around the English. ``exc.field`` is appended to ``field``."""
    detail = str(exc)
    text = TEXTS[key]
    own_ru = _engine_ru(exc)
    ru = own_ru if own_ru is not None else text.ru.format(detail=detail, **params)
    kind = next((k for k in _CLASSES if isinstance(exc, k)), None)
    cls = _CLASSES[kind] if kind is not None else _CLASSES[text.kind]
    path = ".".join(part for part in (field, exc.field) if part) or None
    return cls(text, text.en.format(detail=detail, **params), ru, path)


def _engine_ru(exc: KolodaError) -> str | None:
    """The Russian message an engine error carries itself (the scorer's and the banki referee's), when
    it has one (a ScoringError made without one repeats the English)."""
    if isinstance(exc, (ScoringError, RefereeError)):
        ru = exc.text("ru")
        return ru if ru != exc.text("en") else None
    return None


def russian(exc: KolodaError) -> str:
    """The Russian message of any error of the family (a refusal's own, an engine's, or a wrapper)."""
    if isinstance(exc, Refusal):
        return exc.message_ru
    own = _engine_ru(exc)
    if own is not None:
        return own
    return FAMILY_RU.get(exc.code, "ошибка: {detail}").format(detail=str(exc))


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

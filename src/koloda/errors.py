"""The one family of errors koloda raises for bad input.

Every error is a ``ValueError`` so that callers that do not care about the kind catch one thing; each
kind is raised for one kind of input, and its message quotes the input and says why it was refused.
``KolodaError`` itself is the family's base and is never raised: raise the kind that fits.

| class | refuses | ``code`` | HTTP |
|---|---|---|---|
| :class:`NotationError` | text that does not parse: a card, an action, an event | ``bad_notation`` | 400 |
| :class:`IllegalActionError` | a parsed action the position does not allow | ``illegal_action`` | 409 |
| :class:`OptionsError` | options: unknown key, wrong type, impossible combination | ``bad_options`` | 400 |
| :class:`RecordError` | a record, score file or other file: unreadable, malformed | ``bad_record`` | 400 |
| :class:`ConflictError` | a numbered line the store holds: another writer was first | ``conflict`` | 409 |
| :class:`StoreError` | a database that cannot be used now: gone, locked, full | ``unavailable`` | 503 |
| :class:`RequestError` | a web body or query, a command-line value | ``bad_request`` | 400 |
| :class:`NotFoundError` | the id of something that does not exist (a table, a sheet) | ``not_found`` | 404 |

``field`` names the part of the input that is wrong, where there is one (a request's key, an option's
name), for programs; people read the message. A message made from a :class:`koloda.i18n.Msg` (a key of
the translation catalog and its parameters) can be said in either language: ``str(err)`` is English,
``err.text("ru")`` Russian. A plain-text message has no translation; ``text`` gives it as it is.

>>> err = IllegalActionError("illegal action 7H for seat 0: 7H does not cover QS (rule 4.3)")
>>> isinstance(err, ValueError), err.code, err.status
(True, 'illegal_action', 409)
>>> err = OptionsError(Msg("options.unknown_preset", name="'x'", presets="default"))
>>> str(err), err.text("ru")
("unknown preset 'x'; presets: default", "неизвестный вариант правил 'x'; варианты: default")
"""

from __future__ import annotations

from koloda.i18n import Lang, Msg


class KolodaError(ValueError):
    """Base class of every input error koloda raises (never raised itself)."""

    code: str = "error"  # for programs (the web's JSON "error"); subclasses set their own
    status: int = 400  # the HTTP status the web answers with

    def __init__(self, message: str | Msg, *, field: str | None = None) -> None:
        super().__init__(str(message))
        self.msg = message if isinstance(message, Msg) else None
        self.field = field

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    @property
    def translated(self) -> bool:
        """Whether the message comes from the catalog (and so can be said in every language)."""
        return self.msg is not None

    @property
    def detail(self) -> Msg | str:
        """The message as a parameter of another message: the catalog's Msg, else the plain text."""
        return self.msg if self.msg is not None else self.message

    def text(self, lang: Lang) -> str:
        """The message in ``lang``: the catalog's, or the plain message where it has no translation."""
        return self.msg.text(lang) if self.msg is not None else self.message


class NotationError(KolodaError):
    """A card, action, event or other token could not be parsed."""

    code = "bad_notation"


class IllegalActionError(KolodaError):
    """An action is well formed but not allowed in this position (the state is left unchanged)."""

    code = "illegal_action"
    status = 409


class OptionsError(KolodaError):
    """An options mapping has an unknown key, a wrong type, a bad value or an impossible combination."""

    code = "bad_options"


class RecordError(KolodaError):
    """A game record, score file or other file is unreadable, malformed or does not replay."""

    code = "bad_record"


class ConflictError(RecordError):
    """A line (a table's action, a sheet's deal, a banki event) with a number the store already holds:
    another writer, another node or program on the same database, wrote it first; nothing was written."""

    code = "conflict"
    status = 409


class StoreError(RecordError):
    """The database cannot be read or written now: the server is gone or locked, its disk full; nothing was
    written, and the same request may succeed later (the web answers 503)."""

    code = "unavailable"
    status = 503


class RequestError(KolodaError):
    """A request (web body or query) or a command-line value is malformed or out of range."""

    code = "bad_request"


class NotFoundError(KolodaError):
    """What an id names does not exist: a table, a score sheet, a banki game, a seat."""

    code = "not_found"
    status = 404

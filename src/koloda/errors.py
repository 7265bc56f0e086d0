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
| :class:`RequestError` | a web body or query, a command-line value | ``bad_request`` | 400 |
| :class:`NotFoundError` | the id of something that does not exist (a table, a sheet) | ``not_found`` | 404 |

``field`` names the part of the input that is wrong, where there is one (a request's key, an option's
name), for programs; people read the message.

>>> err = IllegalActionError("illegal action 7H for seat 0: 7H does not cover QS (rule 4.3)")
>>> isinstance(err, ValueError), err.code, err.status
(True, 'illegal_action', 409)
"""

from __future__ import annotations


class KolodaError(ValueError):
    """Base class of every input error koloda raises (never raised itself)."""

    code: str = "error"  # for programs (the web's JSON "error"); subclasses set their own
    status: int = 400  # the HTTP status the web answers with

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""


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


class RequestError(KolodaError):
    """A request (web body or query) or a command-line value is malformed or out of range."""

    code = "bad_request"


class NotFoundError(KolodaError):
    """What an id names does not exist: a table, a score sheet, a banki game, a seat."""

    code = "not_found"
    status = 404

"""The one family of errors koloda raises for bad input.

Every error is a ``ValueError`` so that callers that do not care about the kind can catch one thing;
the message always quotes the offending input and says why it was refused.
"""

from __future__ import annotations


class KolodaError(ValueError):
    """Base class of every input error koloda raises."""


class NotationError(KolodaError):
    """A card, action or other token could not be parsed."""


class IllegalActionError(KolodaError):
    """An action is well formed but not allowed in this position (the state is left unchanged)."""


class OptionsError(KolodaError):
    """An options mapping has an unknown key, a wrong type, a bad value or an impossible combination."""


class RecordError(KolodaError):
    """A game record (file or JSON) is malformed or does not replay."""

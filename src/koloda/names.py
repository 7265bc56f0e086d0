r"""A person's name, as every front end takes it: the seats of a web table and the lobby's join, the players
of a score sheet (web and terminal), the players of a banki game (web and terminal, and a newcomer's
``join``).

A name is kept in Unicode's composed form (NFC), so that "é" typed as one character or as "e" and an accent
is one name, and :func:`key` is what names are compared by as a person reads them (composed, case folded).
A name may not hold a character that does not show or that turns the text around it: a control character,
a format character (the zero-width space and joiners, the marks and overrides that change the direction of the
text), a surrogate, a private-use or unassigned code point, a line or paragraph separator. The refusal
names the character by its code point (``U+200B``), since the character itself would not show.

>>> person_name("  Jose\u0301 ") == "José"
True
>>> try:
...     person_name("A\u200bnn")
... except BadName as exc:
...     print(exc.msg.params)
{'char': 'U+200B'}
>>> key("JOSÉ") == key("Jose\u0301")
True
"""

from __future__ import annotations

import unicodedata

from koloda.errors import RequestError
from koloda.i18n import Msg

#: The Unicode categories no name may hold (see the module's docstring).
REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: The longest name, in characters, where the caller sets no other limit (the web's is Limits.name).
LONGEST = 40


class BadName(RequestError):
    """A name that cannot be a person's: empty, too long, or holding a character of :data:`REFUSED`."""

    code = "bad_name"


def clean(text: str) -> str:
    """``text`` in the composed form (NFC); BadName names the first character of :data:`REFUSED`."""
    name = unicodedata.normalize("NFC", text)
    for char in name:
        if unicodedata.category(char) in REFUSED:
            raise BadName(Msg("names.refused", char=code_point(char)))
    return name


def person_name(text: str, *, most: int = LONGEST) -> str:
    """A name as kept: :func:`clean`, without the spaces at its ends, 1 to ``most`` characters."""
    name = clean(text).strip()
    if not name:
        raise BadName(Msg("names.empty"))
    if len(name) > most:
        raise BadName(Msg("names.long", most=most, length=len(name)))
    return name


def key(name: str) -> str:
    """What names are compared by, as a person reads them: composed and case folded (names that must be
    unique, such as accounts', are unique by this)."""
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())


def code_point(char: str) -> str:
    """``U+200B``: how a message names a character that would not show."""
    return f"U+{ord(char):04X}"

"""Edit keys: the secret without which nobody changes a score sheet or a banki game on the web (issue 28).

Sheets and games are listed publicly and their ids are sequential, so an id is no secret. Each sheet and
game gets an edit key when it is created (:func:`koloda.store.new_key`, 192 random bits), returned once,
in the answer that creates it; the creator's browser keeps it (``localStorage``) and every request that
changes the sheet or game (a deal, an event, an undo) carries it in the header :data:`HEADER`, never in
the address (addresses end up in logs and histories). A request without it, or with another, is refused
(403 ``bad_edit_key``) and changes nothing; reading stays public. Another phone, or a browser for a sheet
started in the terminal, gets the key from the edit link, ``/sheet/ID#key=KEY``: the part after ``#`` never
leaves the browser, and the page keeps the key and takes it out of the address (docs/web.md, "Edit keys").

>>> from koloda.errors import KolodaError
>>> check("banki", 3, "k" * 32, "k" * 32)
>>> try:
...     check("sheet", 3, "k" * 32, "not-it")
... except KolodaError as exc:
...     print(exc.status, exc.code, exc.field)
403 bad_edit_key Koloda-Edit-Key
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable

from koloda.errors import NotFoundError
from koloda.store import edit_link
from koloda.web.refusals import refuse

HEADER = "Koloda-Edit-Key"
#: What an edit key may be: ``secrets.token_urlsafe(24)`` is 32 of these.
KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check(kind: str, target_id: int, stored: str, given: str | None) -> None:
    """Refuse a change of the ``kind`` (``sheet`` or ``banki``) ``target_id`` whose key ``given`` (the
    request's :data:`HEADER`, None without one) is not ``stored``."""
    if given is None:
        raise refuse(f"{kind}_key_missing", field=HEADER, id=target_id)
    if not KEY.fullmatch(given) or not secrets.compare_digest(stored.encode(), given.encode()):
        raise refuse(f"{kind}_key_wrong", field=HEADER, id=target_id)


def require(kind: str, target_id: int, given: str | None, stored: Callable[[int], str], unknown: str) -> None:
    """:func:`check` ``given`` against the key ``stored`` returns for ``target_id`` (NotFoundError: the
    refusal ``unknown``, 404)."""
    try:
        key = stored(target_id)
    except NotFoundError:
        raise refuse(unknown, id=target_id) from None
    check(kind, target_id, key, given)


def link(kind: str, target_id: int, key: str) -> str:
    """The edit link of a sheet or game as the creation answers it: its page's path, the key after ``#``.

    >>> link("banki", 5, "abc")
    '/banki/5#key=abc'
    """
    return edit_link(kind, target_id, key, base="")

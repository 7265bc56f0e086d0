"""Entries sent once: the idempotency keys of what the score sheet and the banki referee send.

A page keeps every entry made while the phone is offline and sends it when the network is back (docs/web.md,
"Offline"), each with the ``Idempotency-Key`` header: a key the phone made for that entry. The store keeps
the key with the line the entry became, in the same transaction (revision 0004). An entry whose key is
stored already is not stored again: the answer is the sheet or game as it is, with the number the entry
got the first time (also when the same entry, sent twice at once, lost the race to store it: the store
refuses the second key, and :func:`stored` then finds the first). A key of another sheet's or game's
entry is refused (``key_reused``), as is a key of the wrong shape (``bad_key``).

>>> from koloda.store.sql import SqlStore
>>> store = SqlStore("sqlite://")
>>> sheet_id = store.create_sheet(["Аня", "Боря", "Вера"], {})
>>> store.add_sheet_deal(sheet_id, 1, {"declarer": "Аня", "bid": 100, "bomb": True}, "k-0001")
>>> stored(store, "sheet-deal", sheet_id, "k-0001"), stored(store, "sheet-deal", sheet_id, "k-0002")
(1, None)
>>> stored(store, "banki-event", 1, "k-0001")
Traceback (most recent call last):
...
koloda.web.refusals.IllegalRefusal: the key k-0001 was already sent with another entry
"""

from __future__ import annotations

import re

from koloda.store import Store
from koloda.web.refusals import refuse, shown

HEADER = "Idempotency-Key"
#: A key: what ``crypto.randomUUID()`` makes, and any other 8 to 64 letters, digits, dashes, underscores.
KEY = re.compile(r"[A-Za-z0-9_-]{8,64}")


def key_of(value: str | None) -> str | None:
    """The request's idempotency key (its ``Idempotency-Key`` header), checked; None without one."""
    if value is None:
        return None
    if not KEY.fullmatch(value):
        raise refuse("bad_key", field=HEADER, value=shown(value))
    return value


def stored(store: Store, kind: str, target_id: int, key: str) -> int | None:
    """The number of the line that the entry with ``key`` became in ``target_id``, or None if it is new."""
    found = store.entry(key)
    if found is None:
        return None
    if found[:2] != (kind, target_id):
        raise refuse("key_reused", field=HEADER, value=key)
    return found[2]

"""Languages of the interfaces: the one definition of :data:`Lang`.

Every text a person reads is in Russian (the default: the games come from Russian texts) or English.
"""

from __future__ import annotations

from typing import Literal

Lang = Literal["ru", "en"]
LANGS: tuple[Lang, ...] = ("ru", "en")

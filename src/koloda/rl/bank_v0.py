"""Bank as a PettingZoo AEC environment: ``env()`` (with PettingZoo's order checks) and ``raw_env()``.

>>> from koloda.rl import bank_v0
>>> e = bank_v0.env(players=2, preset="no-trumps")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, terminated
((322,), (3150,), False)

Keyword arguments: ``players`` (2-4), ``preset`` (a :class:`koloda.bank.BankOptions` preset),
``scope`` ("deal" or "match"), ``rewards`` ("deal" or "game"), ``render_mode`` ("ansi", "human" or
None), and any Bank option (``seven="none"``, ``target=124``...) on top of the preset.
"""

from __future__ import annotations

from typing import Any, ClassVar

from koloda.rl.aec import KolodaAEC, OrderEnforcing
from koloda.rl.bank_encoding import BankAdapter


class BankAEC(KolodaAEC):
    """Bank's AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {**KolodaAEC.metadata, "name": "koloda_bank_v0"}


def raw_env(render_mode: str | None = None, **kwargs: Any) -> BankAEC:
    """The Bank AEC environment without wrappers."""
    return BankAEC(BankAdapter(**kwargs), render_mode=render_mode)


def env(render_mode: str | None = None, **kwargs: Any) -> Any:
    """The Bank AEC environment wrapped in PettingZoo's order-enforcing wrapper."""
    return OrderEnforcing(raw_env(render_mode=render_mode, **kwargs))

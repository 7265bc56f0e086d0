"""Thousand as a PettingZoo AEC environment: ``env()`` (with PettingZoo's order checks) and ``raw_env()``.

>>> from koloda.rl import thousand_v0
>>> e = thousand_v0.env(players=4, preset="tournament")
>>> e.reset(seed=1)
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape, terminated
((260,), (206,), False)

Keyword arguments: ``players`` (3, or 4 with the dealer sitting out), ``preset`` (a
:class:`koloda.thousand.ThousandOptions` preset), ``scope`` ("deal" or "match"), ``rewards`` ("deal" or
"game"), ``render_mode`` ("ansi", "human" or None), and any Thousand option (``must_beat="led"``...) on
top of the preset.
"""

from __future__ import annotations

from typing import Any, ClassVar

from koloda.rl.aec import KolodaAEC, OrderEnforcing
from koloda.rl.thousand_encoding import ThousandAdapter


class ThousandAEC(KolodaAEC):
    """Thousand's AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {**KolodaAEC.metadata, "name": "koloda_thousand_v0"}


def raw_env(render_mode: str | None = None, **kwargs: Any) -> ThousandAEC:
    """The Thousand AEC environment without wrappers."""
    return ThousandAEC(ThousandAdapter(**kwargs), render_mode=render_mode)


def env(render_mode: str | None = None, **kwargs: Any) -> Any:
    """The Thousand AEC environment wrapped in PettingZoo's order-enforcing wrapper."""
    return OrderEnforcing(raw_env(render_mode=render_mode, **kwargs))

"""The chart of the totals over the deals, as every page draws it (the web's score charts).

>>> chart(["Аня", "Боря"], [[20, -5], [35, 10]], target=248)["series"]
[[0, 20, 35], [0, -5, 10]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def chart(
    names: Sequence[str],
    totals: Sequence[Sequence[int]],
    *,
    start: Sequence[int] | None = None,
    target: int,
    line_800: int | None = None,
    barrel: int | None = None,
) -> dict[str, Any]:
    """Every player's total after each deal (from ``start``, zeros by default), with the lines drawn."""
    first = [0] * len(names) if start is None else list(start)
    series = [[first[seat], *(row[seat] for row in totals)] for seat in range(len(names))]
    return {"names": list(names), "series": series, "target": target, "line_800": line_800, "barrel": barrel}

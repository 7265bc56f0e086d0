"""A flood from one client leaves the other tables as they were (issue 15, point 6): bench/web_flood.py run
small, on 127.0.0.1 only — a real ``koloda serve`` with its default limits, people at six tables (each
table from its own loopback address), and another process sending thousands of messages a second from
one more address.

The flood's latency is compared with the quiet phase of the same run, taken in turn with it in slices of
a second, so that the load the machine carries anyway counts in both alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).parents[2] / "bench" / "web_flood.py"


def run_flood(*extra: str) -> dict[str, Any]:
    small = ["--tables", "6", "--seconds", "3", "--rounds", "3", "--pace", "0.1", "--json"]
    command = [sys.executable, str(BENCH), *small, *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def flood_holds(result: dict[str, Any]) -> bool:
    """Checks one run; says whether the people kept their latency (the one figure the machine's other
    load can spoil: the flooder itself takes a core of the two, and the suite's other worker may take the
    other)."""
    quiet, flood, flooder = result["quiet"], result["flood"], result["flooder"]
    assert flooder["rate"] >= 1000, flooder  # thousands of messages a second
    assert flooder["closes"].get("4429", 0) >= 1, flooder  # throttled, then closed
    assert quiet["errors"] == flood["errors"] == {}, result  # no person was refused anything
    assert quiet["actions"] >= 40 and flood["actions"] >= 20, result  # enough for a p99
    # the log: a line per table event, and a few of the rest (throttled: Limits.log_lines per 10 s a kind)
    assert flood["other_lines"] <= 60, result
    # the people keep their latency: without the limits (``--limit messages=0`` and the rest at 0) the same
    # run gave a p99 of 1.4 s or more; the margin is for the machine's other load
    return bool(flood["p99_ms"] <= 2 * quiet["p99_ms"] + 100)


def test_a_flood_from_one_client_leaves_the_other_tables_p99_unchanged() -> None:
    # A p99 of some 50 samples is one slow sample; a busy machine (the suite's other worker starting a
    # browser) can give one to the flood's slices by chance, so the run is made up to three times. Without
    # the limits every run fails by an order of magnitude, so the test still fails when they break.
    results = []
    for _ in range(3):
        results.append(run_flood())
        if flood_holds(results[-1]):
            return
    raise AssertionError(f"the flood slowed the people in three runs of three: {results}")

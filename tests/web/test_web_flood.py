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


def test_a_flood_from_one_client_leaves_the_other_tables_p99_unchanged() -> None:
    result = run_flood()
    quiet, flood, flooder = result["quiet"], result["flood"], result["flooder"]
    assert flooder["rate"] >= 1000, flooder  # thousands of messages a second
    assert flooder["closes"].get("4429", 0) >= 1, flooder  # throttled, then closed
    assert quiet["errors"] == flood["errors"] == {}, result  # no person was refused anything
    # the people keep their latency: without the limits (``--limit messages=0`` and the rest at 0) the same
    # run gave a p99 of 1.4 s or more; the margin is for the machine's other load
    assert quiet["actions"] >= 40 and flood["actions"] >= 20, result  # enough for a p99
    assert flood["p99_ms"] <= 2 * quiet["p99_ms"] + 100, result
    # the log: a line per table event, and a few of the rest (throttled: Limits.log_lines per 10 s a kind)
    assert flood["other_lines"] <= 60, result

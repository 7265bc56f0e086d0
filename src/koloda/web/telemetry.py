"""What the web app says about itself: one structured log line per table event, the counters of
``/metrics`` (Prometheus' text format) and ``/healthz``.

Every table event (a table created, a seat taken, an action accepted, a game over) is one line of the logger
``koloda.web.events`` with its fields (``event``, ``table``, ``seat``, ``version``, ``latency_ms``...);
``koloda serve`` writes it as one JSON object a line (:mod:`koloda.web.logs`). The metrics are kept here
and written by :meth:`Telemetry.metrics`:

>>> telemetry = Telemetry(clock=lambda: 100.0)
>>> telemetry.acted(table=1, seat=0, version=1, latency=0.004, commit=0.002, bot=False)
>>> telemetry.refused("ws", "rate_limited")
>>> text = telemetry.metrics()
>>> "koloda_actions_total 1" in text, 'koloda_refusals_total{channel="ws",code="rate_limited"} 1' in text
(True, True)
>>> 'koloda_commit_seconds_bucket{le="0.0025"} 1' in text, "koloda_commit_seconds_count 1" in text
(True, True)
"""

from __future__ import annotations

import gc
import logging
import math
import os
import time
from collections.abc import Callable, Iterable
from typing import Any

from koloda.web.limits import Clock

EVENTS = logging.getLogger("koloda.web.events")
#: Seconds: from a commit of a quarter millisecond to one of ten seconds.
SECONDS = (0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def _number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return repr(float(value)) if not float(value).is_integer() else str(int(value))


def _labels(names: tuple[str, ...], values: tuple[str, ...], extra: str = "") -> str:
    parts = [f'{name}="{_escape(value)}"' for name, value in zip(names, values, strict=True)]
    if extra:
        parts.append(extra)
    return "{" + ",".join(parts) + "}" if parts else ""


class Metric:
    """One metric family: its name, help, type and labels."""

    kind = "untyped"

    def __init__(self, name: str, help_text: str, labels: tuple[str, ...] = ()) -> None:
        self.name = name
        self.help = help_text
        self.labels = labels

    def lines(self) -> Iterable[str]:
        yield f"# HELP {self.name} {_escape(self.help)}"
        yield f"# TYPE {self.name} {self.kind}"
        yield from self.samples()

    def samples(self) -> Iterable[str]:
        return ()


class Counter(Metric):
    """A count that only grows, per combination of label values."""

    kind = "counter"

    def __init__(self, name: str, help_text: str, labels: tuple[str, ...] = ()) -> None:
        super().__init__(name, help_text, labels)
        self.values: dict[tuple[str, ...], float] = {} if labels else {(): 0.0}

    def inc(self, *labels: str, by: float = 1.0) -> None:
        self.values[labels] = self.values.get(labels, 0.0) + by

    def get(self, *labels: str) -> float:
        return self.values.get(labels, 0.0)

    def samples(self) -> Iterable[str]:
        for labels, value in sorted(self.values.items()):
            yield f"{self.name}{_labels(self.labels, labels)} {_number(value)}"


class Gauge(Metric):
    """A value that goes up and down, kept here or read when the metrics are written."""

    kind = "gauge"

    def __init__(self, name: str, help_text: str, read: Callable[[], float] | None = None) -> None:
        super().__init__(name, help_text)
        self.value = 0.0
        self.read = read

    def add(self, by: float) -> None:
        self.value += by

    def samples(self) -> Iterable[str]:
        yield f"{self.name} {_number(self.read() if self.read is not None else self.value)}"


class Histogram(Metric):
    """How many observations fell at or under each bound, their count and their sum."""

    kind = "histogram"

    def __init__(self, name: str, help_text: str, bounds: tuple[float, ...] = SECONDS) -> None:
        super().__init__(name, help_text)
        self.bounds = bounds
        self.counts = [0] * len(bounds)
        self.count = 0
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.count += 1
        self.sum += value
        for index, bound in enumerate(self.bounds):
            if value <= bound:
                self.counts[index] += 1

    def samples(self) -> Iterable[str]:
        for bound, count in zip(self.bounds, self.counts, strict=True):
            yield f'{self.name}_bucket{{le="{_number(bound)}"}} {count}'
        yield f'{self.name}_bucket{{le="+Inf"}} {self.count}'
        yield f"{self.name}_sum {_number(self.sum)}"
        yield f"{self.name}_count {self.count}"


class Rate:
    """Events per second over the last ``seconds`` seconds (one slot a second)."""

    def __init__(self, clock: Clock, seconds: int = 60) -> None:
        self._clock = clock
        self._slots = [0] * seconds
        self._stamps = [-1] * seconds

    def add(self) -> None:
        second = int(self._clock())
        slot = second % len(self._slots)
        if self._stamps[slot] != second:
            self._stamps[slot], self._slots[slot] = second, 0
        self._slots[slot] += 1

    def per_second(self) -> float:
        now = int(self._clock())
        span = len(self._slots)
        recent = sum(n for n, stamp in zip(self._slots, self._stamps, strict=True) if now - stamp < span)
        return recent / span


class Telemetry:
    """The web app's metrics and its table events' log lines."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.started = clock()
        self._clock = clock
        self._rate = Rate(clock)
        self.tables = Gauge("koloda_tables", "Tables live in memory (loaded or created since the start)")
        self.connections = Gauge("koloda_connections", "Open websockets (seats and spectators)")
        self.actions = Counter("koloda_actions_total", "Actions accepted (people's and bots')")
        self.per_second = Gauge(
            "koloda_actions_per_second", "Actions accepted a second (the last minute)", self._rate.per_second
        )
        self.commit = Histogram("koloda_commit_seconds", "Seconds to store one accepted action (the commit)")
        self.latency = Histogram(
            "koloda_action_seconds", "Seconds from an action's checks to its broadcast to every client"
        )
        self.loop_lag = Histogram(
            "koloda_loop_lag_seconds",
            "How late the event loop woke a timer (sampled every 50 ms): its busy spells",
        )
        self.collections = Histogram(
            "koloda_gc_pause_seconds", "How long the garbage collector stopped everything (koloda serve)"
        )
        self.refusals = Counter(
            "koloda_refusals_total", "Requests and websocket messages refused", ("channel", "code")
        )
        self.uptime = Gauge("koloda_uptime_seconds", "Seconds since the server started", self.up)
        self.memory = Gauge("process_resident_memory_bytes", "Resident memory of the server's process", _rss)

    def watch_collector(self) -> None:
        """Time every pause of the garbage collector (once a process: its callbacks are global)."""
        started = [0.0]

        def timed(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                started[0] = time.perf_counter()
            else:
                self.collections.observe(time.perf_counter() - started[0])

        gc.callbacks.append(timed)

    def up(self) -> float:
        return self._clock() - self.started

    def families(self) -> list[Metric]:
        return [
            self.tables,
            self.connections,
            self.actions,
            self.per_second,
            self.commit,
            self.latency,
            self.loop_lag,
            self.collections,
            self.refusals,
            self.uptime,
            self.memory,
        ]

    def metrics(self) -> str:
        """Every metric in Prometheus' text exposition format (version 0.0.4)."""
        return "\n".join(line for family in self.families() for line in family.lines()) + "\n"

    # -- what happens --------------------------------------------------------------------------------------

    def refused(self, channel: str, code: str) -> None:
        """A request (``http``) or a websocket message (``ws``) was refused with ``code``."""
        self.refusals.inc(channel, code)

    def acted(
        self,
        *,
        table: int,
        seat: int,
        version: int,
        latency: float,
        commit: float,
        bot: bool,
        over: bool = False,
    ) -> None:
        """An action was accepted, stored (``commit`` seconds) and announced (``latency`` seconds in all);
        ``over``: it ended the game (a second line, ``over``, says so)."""
        self.actions.inc()
        self._rate.add()
        self.commit.observe(commit)
        self.latency.observe(latency)
        event(
            "act",
            table=table,
            seat=seat,
            version=version,
            by="bot" if bot else "person",
            latency_ms=round(latency * 1000, 3),
            commit_ms=round(commit * 1000, 3),
        )
        if over:
            event("over", table=table, version=version)


def _rss() -> float:
    """This process's resident bytes (Linux; 0 where /proc is not)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            return float(int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError, IndexError):
        return 0.0


def event(kind: str, **fields: Any) -> None:
    """One table event as one structured log line (its fields under ``fields``; koloda.web.logs writes
    them as JSON)."""
    if EVENTS.isEnabledFor(logging.INFO):
        EVENTS.info(kind, extra={"fields": {"event": kind, **fields}})

"""The server's log: one JSON object a line on stderr, and no more than ``Limits.log_lines`` lines of one
kind per ``Limits.log_window`` seconds, so that a flood of bad requests cannot fill the disk.

Lines are written in blocks (:class:`BlockHandler`): at 1,000 tables a line a move, one write a line cost
the event loop 4% of its time. A warning or an error is written at once; the rest within
:data:`FLUSH_SECONDS`.

A *kind* is a logger and the unformatted message (``"table %d, seat %d: %s"`` is one kind whatever the
table). Lines over the allowance are counted, not written; the next line of that kind written says how
many were left out (``"suppressed": 1234``). Table events (koloda.web.telemetry: one per accepted action,
created table, taken seat) are not counted: the message limits already bound them, and each one matters.

>>> throttle = LogThrottle(lines=2, window=10, clock=lambda: 0.0)
>>> records = [logging.makeLogRecord({"name": "x", "msg": "bad %s", "args": (n,)}) for n in range(5)]
>>> [throttle.filter(record) for record in records]
[True, True, False, False, False]
"""

from __future__ import annotations

import datetime
import json
import logging
import sys
import threading
import time
from typing import Any

from koloda.web.limits import Bucket, Clock, Limits

EVENTS = "koloda.web.events"
FLUSH_SECONDS = 0.25


class BlockHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A stream handler that writes its lines in blocks: at once from a warning up, else every
    :data:`FLUSH_SECONDS` (a daemon thread) or when 64 KiB are waiting."""

    def __init__(self) -> None:
        # the handler owns this buffered stream over stderr's descriptor; close() writes it out
        stream = open(sys.stderr.fileno(), "w", buffering=65_536, encoding="utf-8", closefd=False)  # noqa: SIM115
        super().__init__(stream)
        self._dirty = False
        self._flusher = threading.Thread(target=self._flush_often, name="koloda-log", daemon=True)
        self._flusher.start()

    def flush(self) -> None:  # StreamHandler.emit calls it after every line: only mark the block
        self._dirty = True

    def emit(self, record: logging.LogRecord) -> None:
        super().emit(record)
        if record.levelno >= logging.WARNING:
            self.write_out()

    def write_out(self) -> None:
        with self.lock:  # type: ignore[union-attr]
            if self._dirty:
                self._dirty = False
                self.stream.flush()

    def close(self) -> None:
        self.write_out()
        super().close()

    def _flush_often(self) -> None:
        while True:
            time.sleep(FLUSH_SECONDS)
            self.write_out()


class LogThrottle(logging.Filter):
    """At most ``lines`` records of one kind per ``window`` seconds; the rest counted."""

    def __init__(self, lines: int, window: int, clock: Clock = time.monotonic) -> None:
        super().__init__()
        self.lines = lines
        self.window = window
        self._clock = clock
        self._buckets: dict[tuple[str, str], Bucket] = {}
        self._dropped: dict[tuple[str, str], int] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == EVENTS or self.lines == 0:
            return True
        kind = (record.name, str(record.msg))
        bucket = self._buckets.get(kind)
        if bucket is None:
            if len(self._buckets) > 10_000:  # kinds are few (templates); a flood of new ones starts over
                self._buckets.clear()
            bucket = self._buckets[kind] = Bucket(self.lines, self.window, self._clock)
        if not bucket.take():
            self._dropped[kind] = self._dropped.get(kind, 0) + 1
            return False
        dropped = self._dropped.pop(kind, 0)
        if dropped:
            record.suppressed = dropped
        return True


class JsonFormatter(logging.Formatter):
    """A record as one JSON object: time (UTC), level, logger, message, and its structured fields."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.datetime.fromtimestamp(record.created, datetime.UTC)
        line: dict[str, Any] = {
            "time": when.isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        fields = record.__dict__.get("fields")
        if isinstance(fields, dict):
            line.update(fields)
        else:
            line["message"] = record.getMessage()
        suppressed = record.__dict__.get("suppressed")
        if suppressed:
            line["suppressed"] = suppressed
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def config(level: str, limits: Limits) -> dict[str, Any]:
    """The logging configuration of ``koloda serve`` (``logging.config.dictConfig``; uvicorn takes it as
    its ``log_config``): koloda's and uvicorn's lines as JSON on stderr, throttled; no access log (the
    table events say what happened)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"throttle": {"()": LogThrottle, "lines": limits.log_lines, "window": limits.log_window}},
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {
            "stderr": {
                "()": BlockHandler,
                "formatter": "json",
                "filters": ["throttle"],
            }
        },
        "loggers": {
            "koloda": {"handlers": ["stderr"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
            "uvicorn.error": {"level": "WARNING"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }

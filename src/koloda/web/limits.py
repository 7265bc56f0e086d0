"""What one client may ask of the web app: the limits (one frozen, validated settings object) and the
counters that enforce them per connection and per address.

The limits are data: :class:`Limits` holds every number, its default and a comment, and ``koloda serve
--limit KEY=VALUE`` changes one (docs/web.md, "Limits"). A rate is a token bucket: ``messages`` messages per
``messages_window`` seconds means a burst of up to ``messages`` at once, then one more every
``messages_window / messages`` seconds. A rate or count of 0 is no limit.

>>> Limits().messages, Limits().messages_window, Limits().body
(100, 20, 65536)
>>> Limits().with_assignments(["messages=0"]).messages
0
>>> Limits(body=0)
Traceback (most recent call last):
...
koloda.errors.OptionsError: limit 'body' must be 1 or more, not 0
>>> clock = [0.0]
>>> bucket = Bucket(2, 10, lambda: clock[0])  # two at once, then one every 5 s
>>> bucket.take(), bucket.take(), bucket.take(), round(bucket.wait(), 1)
(True, True, False, 5.0)
>>> clock[0] = 5.0
>>> bucket.take()
True
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from koloda.errors import OptionsError
from koloda.i18n import Msg
from koloda.options import Options

Clock = Callable[[], float]


@dataclass(frozen=True)
class Limits(Options):
    """Every limit the web app enforces, with its default (docs/web.md, "Limits"). 0 = no limit where the
    comment says so."""

    # websocket messages one connection may send per messages_window seconds (Lichess: 100 in 20 s); 0: none
    messages: int = 100
    messages_window: int = 20
    # websocket messages all the connections of one address may send per messages_window seconds; 0: none
    address_messages: int = 600
    # messages refused in a row (over a rate) before the socket is closed with 4429, or HTTP requests
    # refused in a row before the answer closes the connection; 0: never closed for it
    excess: int = 50
    # open websockets per address; 0: no limit
    connections: int = 30
    # HTTP requests (pages, files, the API, websocket handshakes) per address per requests_window s; 0: none
    requests: int = 600
    requests_window: int = 60
    # tables, score sheets and banki games created per address per creations_window seconds; 0: no limit
    creations: int = 60
    creations_window: int = 3600
    # bytes of an HTTP request body
    body: int = 65_536
    # seconds a client may take to send a request's headers (from its connection, or its first byte after
    # another request), and then its body; past them the connection is closed (koloda.web.protocol)
    header_seconds: int = 10
    body_seconds: int = 30
    # bytes of a websocket message
    message: int = 4096
    # how deep JSON may nest (a list or object in another); the deepest request koloda takes is 3
    depth: int = 32
    # characters of a player's name, once the spaces at its ends are taken off
    name: int = 40
    # an IPv6 client is counted by the first this many bits of its address (a home gets a /64)
    ipv6_prefix: int = 64
    # addresses remembered at once; beyond it the longest idle with no open websocket is forgotten
    addresses: int = 50_000
    # log lines of one kind per log_window seconds; the rest are counted and the count said once
    log_lines: int = 20
    log_window: int = 10
    # origins besides the server's own that may send requests that change something, e.g.
    # "https://cards.example.org" behind a proxy that rewrites the Host header
    origins: tuple[str, ...] = ()

    #: The least value of each number (the rest must be 0 or more: 0 is "no limit").
    LEAST: ClassVar[dict[str, int]] = {
        "messages_window": 1,
        "requests_window": 1,
        "creations_window": 1,
        "log_window": 1,
        "body": 1,
        "header_seconds": 1,
        "body_seconds": 1,
        "message": 1,
        "depth": 1,
        "name": 1,
        "addresses": 1,
        "ipv6_prefix": 1,
    }

    def validate(self) -> None:
        for name, value in self.to_dict().items():
            least = self.LEAST.get(name, 0)
            if isinstance(value, int) and value < least:
                raise OptionsError(Msg("limits.least", name=repr(name), least=least, value=value))
        if self.ipv6_prefix > 128:
            raise OptionsError(Msg("limits.most", name="'ipv6_prefix'", most=128, value=self.ipv6_prefix))
        for origin in self.origins:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise OptionsError(Msg("limits.origin", origin=repr(origin)))


class Bucket:
    """A token bucket: ``size`` at once, refilled at ``size`` per ``window`` seconds; size 0 never empties."""

    __slots__ = ("_clock", "_last", "_rate", "_tokens", "size")

    def __init__(self, size: int, window: float, clock: Clock = time.monotonic) -> None:
        self.size = size
        self._rate = size / window
        self._tokens = float(size)
        self._clock = clock
        self._last = clock()

    def _fill(self) -> float:
        now = self._clock()
        self._tokens = min(float(self.size), self._tokens + (now - self._last) * self._rate)
        self._last = now
        return self._tokens

    def take(self) -> bool:
        """Spend one token if there is one."""
        if self.size == 0:
            return True
        if self._fill() >= 1:
            self._tokens -= 1
            return True
        return False

    def give_back(self) -> None:
        """Return a token taken for something that did not happen after all."""
        if self.size:
            self._tokens = min(float(self.size), self._tokens + 1)

    def wait(self) -> float:
        """Seconds until the next token."""
        if self.size == 0:
            return 0.0
        return max(0.0, (1 - self._fill()) / self._rate)

    def spare(self) -> bool:
        """Whether a whole token is left (size 0: always)."""
        return self.size == 0 or self._fill() >= 1

    def full(self) -> bool:
        return self.size == 0 or self._fill() >= self.size

    def retry_after(self) -> int:
        """Whole seconds to wait, as a Retry-After header says them (at least 1)."""
        return max(1, math.ceil(self.wait()))


class Quota:
    """What one address has left: its HTTP requests, creations and websocket messages, its open
    websockets, and how many of its requests were refused in a row."""

    __slots__ = ("creations", "key", "messages", "open", "refused", "requests")

    def __init__(self, key: str, limits: Limits, clock: Clock) -> None:
        self.key = key
        self.requests = Bucket(limits.requests, limits.requests_window, clock)
        self.creations = Bucket(limits.creations, limits.creations_window, clock)
        self.messages = Bucket(limits.address_messages, limits.messages_window, clock)
        self.open = 0  # websockets open now
        self.refused = 0  # HTTP requests refused in a row

    def idle(self) -> bool:
        """Nothing to remember: no open socket and every allowance whole."""
        return self.open == 0 and self.requests.full() and self.creations.full() and self.messages.full()


class Quotas:
    """The quota of every address seen lately, at most ``limits.addresses`` of them."""

    SWEEP = 60.0  # seconds between two sweeps of the idle addresses

    def __init__(self, limits: Limits, clock: Clock = time.monotonic) -> None:
        self.limits = limits
        self._clock = clock
        self._quotas: OrderedDict[str, Quota] = OrderedDict()
        self._swept = clock()

    def __len__(self) -> int:
        return len(self._quotas)

    def of(self, host: str | None) -> Quota:
        """The quota of a client's address (IPv6 by its prefix); the least recently seen goes first."""
        key = address_key(host, self.limits.ipv6_prefix)
        quota = self._quotas.get(key)
        if quota is None:
            self._sweep()
            quota = self._quotas[key] = Quota(key, self.limits, self._clock)
        else:
            self._quotas.move_to_end(key)
        return quota

    def _sweep(self) -> None:
        now = self._clock()
        if now - self._swept >= self.SWEEP:
            self._swept = now
            for key in [key for key, quota in self._quotas.items() if quota.idle()]:
                del self._quotas[key]
        if len(self._quotas) >= self.limits.addresses:
            for key in [key for key, quota in self._quotas.items() if quota.open == 0]:
                del self._quotas[key]
                if len(self._quotas) < self.limits.addresses:
                    break


def address_key(host: str | None, ipv6_prefix: int = 64) -> str:
    """The address a client is counted by: IPv4 as it is, IPv6 by its first ``ipv6_prefix`` bits (an IPv4
    address written as IPv6 as the IPv4 one), anything else (a Unix socket, a test client) as it is.

    >>> address_key("2001:db8:1:2:3:4:5:6"), address_key("::ffff:10.0.0.1"), address_key("10.0.0.1")
    ('2001:db8:1:2::/64', '10.0.0.1', '10.0.0.1')
    """
    if host is None:
        return "-"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, ipv6_prefix), strict=False))
    return str(address)

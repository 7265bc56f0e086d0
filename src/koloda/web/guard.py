"""The web app's guard: what every request and websocket passes before the app sees it.

:class:`Guard` is ASGI middleware around the whole app. For each HTTP request it

1. counts the request against its address (``Limits.requests``): over the rate, ``429 rate_limited`` with
   ``Retry-After``; after ``Limits.excess`` refusals in a row the answer also closes the connection;
2. refuses a request that changes something (any method but GET, HEAD, OPTIONS) from another origin
   (``403 cross_origin``: the ``Origin`` header, else ``Sec-Fetch-Site``, must name this server or one of
   ``Limits.origins``) or without a JSON body (``415 not_json``: ``Content-Type: application/json``,
   even for a request with an empty body): a web page elsewhere cannot send that without the browser
   asking first, and the server never says yes;
3. refuses a body over ``Limits.body`` bytes (``413 too_large``): at once when ``Content-Length`` says so,
   else as soon as the bytes read pass it;
4. adds the security headers (:data:`HEADERS`) to every answer.

A websocket handshake counts as a request, must come from this origin (else closed with 4403) and may not
open more than ``Limits.connections`` sockets per address (else closed with 4429); its messages then pass a
:class:`Gate` (``Limits.messages`` per connection and ``Limits.address_messages`` per address). Refused
websockets are accepted, told why in the usual error frame, and closed with 4000 + the status.
"""

from __future__ import annotations

import enum
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from koloda.errors import KolodaError
from koloda.web import refusals
from koloda.web.limits import Bucket, Clock, Limits, Quota, Quotas
from koloda.web.refusals import refuse
from koloda.web.telemetry import Telemetry

#: The headers of every HTTP answer. The pages load only their own scripts, styles and sockets (no inline
#: script or style, no other site), cannot be framed, and send no Referer (a seat's link holds its secret);
#: their manifest and service worker are their own (docs/web.md, "Offline").
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "manifest-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
LOG = logging.getLogger("koloda.web.guard")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
QUOTA = "koloda.quota"  # where the scope keeps the address's quota for the app


class Guard:
    """The middleware (see the module's docstring)."""

    def __init__(
        self, app: ASGIApp, *, limits: Limits, telemetry: Telemetry, clock: Clock = time.monotonic
    ) -> None:
        self.app = app
        self.limits = limits
        self.quotas = Quotas(limits, clock)
        self.telemetry = telemetry
        self._origins = frozenset(_origin(origin) for origin in limits.origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    def _quota(self, scope: Scope) -> Quota:
        client = scope.get("client")
        quota = self.quotas.of(client[0] if client else None)
        scope[QUOTA] = quota
        return quota

    # -- HTTP ----------------------------------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        quota = self._quota(scope)
        headers = Headers(scope=scope)
        try:
            self._admit(quota)
            if scope["method"] not in SAFE_METHODS:
                self._same_origin(scope, headers, "request")
                _json_body(headers)
            length = headers.get("content-length", "")
            if length.isascii() and length.isdigit() and int(length) > self.limits.body:
                raise refuse("too_large", limit=self.limits.body)
        except KolodaError as exc:
            await self._refuse_http(exc, quota, secured)
            return
        await self.app(scope, self._capped(receive), secured)

    def _admit(self, quota: Quota) -> None:
        if quota.requests.take():
            quota.refused = 0
            return
        quota.refused += 1
        raise refuse(
            "rate_limited",
            limit=self.limits.requests,
            window=self.limits.requests_window,
            wait=quota.requests.retry_after(),
        )

    async def _refuse_http(self, exc: KolodaError, quota: Quota, send: Send) -> None:
        self.telemetry.refused("http", exc.code)
        headers = {}
        if exc.code == "rate_limited":
            headers["retry-after"] = str(quota.requests.retry_after())
            if self.limits.excess and quota.refused > self.limits.excess:
                headers["connection"] = "close"  # still at it: the connection goes too
        response = JSONResponse(refusals.body(exc), status_code=exc.status, headers=headers)
        await response({"type": "http"}, _nothing, send)

    def _capped(self, receive: Receive) -> Receive:
        """``receive`` that refuses the body once it passes ``Limits.body`` bytes."""
        limit = self.limits.body
        seen = 0

        async def capped() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise refuse("too_large", limit=limit)
            return message

        return capped

    def _same_origin(self, scope: Scope, headers: Headers, what: str) -> None:
        origin = headers.get("origin")
        if origin is None:
            site = headers.get("sec-fetch-site")
            if site is None or site in ("same-origin", "none"):
                return  # not a browser (curl, a script), or a browser saying it is this site
            raise refuse("cross_origin", origin=refusals.shown(site), what=what)
        seen = _origin(origin)
        if seen is not None and (seen == _own_origin(scope, headers) or seen in self._origins):
            return
        raise refuse("cross_origin", origin=refusals.shown(origin), what=what)

    # -- websockets ----------------------------------------------------------------------------------------

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        quota = self._quota(scope)
        try:
            self._admit(quota)
            self._same_origin(scope, Headers(scope=scope), "websocket")
            if self.limits.connections and quota.open >= self.limits.connections:
                raise refuse("too_many_connections", limit=self.limits.connections)
        except KolodaError as exc:
            self.telemetry.refused("ws", exc.code)
            await refuse_socket(exc, receive, send)
            return
        quota.open += 1
        self.telemetry.connections.add(1)
        try:
            await self.app(scope, receive, send)
        finally:
            quota.open -= 1
            self.telemetry.connections.add(-1)


async def refuse_socket(exc: KolodaError, receive: Receive, send: Send) -> None:
    """Accept a websocket only to say why it is refused, then close it with 4000 + the status."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": _frame_text(exc)})
    await send({"type": "websocket.close", "code": close_code(exc)})


def close_code(exc: KolodaError) -> int:
    """A refusal's websocket close code: 4000 + its HTTP status (4403, 4404, 4429, ...)."""
    return 4000 + exc.status


def _frame_text(exc: KolodaError) -> str:
    return json.dumps(refusals.frame(exc), ensure_ascii=False)


async def _nothing() -> Message:  # the receive of a response sent without reading the request
    return {"type": "http.disconnect"}


def _json_body(headers: Headers) -> None:
    kind = headers.get("content-type")
    if kind is None:
        raise refuse("no_content_type")
    if kind.partition(";")[0].strip().lower() != "application/json":
        raise refuse("not_json", type=refusals.shown(kind))


_DEFAULT_PORTS = {"http": ":80", "https": ":443"}
_WEB_SCHEMES = {"ws": "http", "wss": "https"}  # a websocket's page has the scheme of the page


def _origin(origin: str) -> str | None:
    """An origin as compared: its scheme and host, lower-cased, the scheme's default port left out (None:
    not an origin a page of this server could have, such as ``null`` or ``file://``)."""
    try:
        parts = urlsplit(origin.strip())
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.netloc or parts.path or parts.query or parts.fragment:
        return None
    return f"{scheme}://{parts.netloc.lower().removesuffix(_DEFAULT_PORTS[scheme])}"


def _own_origin(scope: Scope, headers: Headers) -> str | None:
    """The origin of this server as the client reached it: the request's scheme (``https`` behind a proxy
    that says ``X-Forwarded-Proto: https``, which uvicorn reads) and its ``Host``."""
    scheme = str(scope.get("scheme") or "http")
    return _origin(f"{_WEB_SCHEMES.get(scheme, scheme)}://{headers.get('host', '')}")


# -- a connection's messages ---------------------------------------------------------------------------


class Verdict(enum.Enum):
    """What to do with a websocket message: handle it, refuse it with a frame, drop it, close the socket."""

    HANDLE = "handle"
    REFUSE = "refuse"
    DROP = "drop"
    CLOSE = "close"


class Gate:
    """One connection's allowance of messages: its own (``Limits.messages``) and its address's
    (``Limits.address_messages``). The first message over either is refused with one ``rate_limited``
    frame, the next are dropped unread, and after ``Limits.excess`` of them in a run the socket is closed
    with 4429. The run ends when a message is let through with a token to spare: a client back within
    its rate. (A message let through on the one token a flood's pause refilled ends nothing: a flood of
    fewer than ``excess`` messages a token was never closed.)"""

    def __init__(self, scope: Scope, limits: Limits, clock: Clock = time.monotonic) -> None:
        found = scope.get(QUOTA)
        self.quota: Quota = found if isinstance(found, Quota) else Quota("-", limits, clock)
        self.own = Bucket(limits.messages, limits.messages_window, clock)
        self.limits = limits
        self.refused = 0

    def admit(self) -> Verdict:
        if self.own.take():
            if self.quota.messages.take():
                if self.own.spare() and self.quota.messages.spare():
                    self.refused = 0
                return Verdict.HANDLE
            self.own.give_back()
        self.refused += 1
        if self.limits.excess and self.refused > self.limits.excess:
            return Verdict.CLOSE
        return Verdict.REFUSE if self.refused == 1 else Verdict.DROP

    def refusal(self) -> KolodaError:
        """Why the message was refused: which allowance ran out, and how long to wait."""
        window = self.limits.messages_window
        if self.own.wait() > 0:
            wait = self.own.retry_after()
            return refuse("messages_limited", limit=self.limits.messages, window=window, wait=wait)
        wait = self.quota.messages.retry_after()
        limit = self.limits.address_messages
        return refuse("address_messages_limited", limit=limit, window=window, wait=wait)


@contextmanager
def creation(scope: Scope, limits: Limits) -> Iterator[None]:
    """Around creating a table, score sheet or banki game: one of the address's ``Limits.creations``,
    given back when the creation is refused."""
    found = scope.get(QUOTA)
    if not isinstance(found, Quota):
        yield
        return
    bucket = found.creations
    if not bucket.take():
        wait = bucket.retry_after()
        raise refuse("creations_limited", limit=limits.creations, window=limits.creations_window, wait=wait)
    try:
        yield
    except BaseException:
        bucket.give_back()
        raise

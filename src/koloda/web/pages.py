"""The pages as the server sends them: a page of ``static/`` with the words of both languages embedded
(:func:`page_html`), and the answer that serves a page with its ``ETag`` (:func:`etagged`).

Every page is built once per server and revalidated by its ``ETag`` (``Cache-Control: no-cache``): a
browser asks again and gets 304 until the page changes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from koloda import i18n
from koloda.i18n import LANGS
from koloda.web import offline

STATIC = Path(__file__).parent / "static"
WORDS_MARK = "<!--koloda-words-->"


def words_script() -> str:
    """The words of both languages as a JSON script element (never run: the CSP allows it)."""
    words = json.dumps({lang: i18n.words(lang) for lang in LANGS}, ensure_ascii=False, sort_keys=True)
    safe = words.replace("</", "<\\/")  # no word can close the script element
    return f'<script id="koloda-words" type="application/json">{safe}</script>'


def data_script(element: str, data: object) -> str:
    """Data for a page's script as a JSON script element with the id ``element``."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True).replace("</", "<\\/")
    return f'<script id="{element}" type="application/json">{text}</script>'


def page_html(name: str) -> str:
    """A page of ``static/`` with the words of both languages embedded where it marks them, from the
    translation catalog (koloda.i18n.words): the page's scripts read them, and hold no word themselves.

    >>> html = page_html("index.html")
    >>> '"web.newTable": "Новый стол"' in html and '"web.newTable": "New table"' in html
    True
    """
    html = (STATIC / name).read_text(encoding="utf-8").replace(WORDS_MARK, words_script())
    if name in offline.PREFIXES:  # the pages that keep score and referee offline: their rules' data
        html = html.replace(offline.RULES_MARK, offline.rules_script(name))
    return html


async def read_body(request: Request) -> bytes:
    """A request's body (at most Limits.body bytes: the guard refuses the chunk that passes it)."""
    raw = bytearray()
    async for chunk in request.stream():
        raw += chunk
    return bytes(raw)


Handler = Callable[[Request], Awaitable[Response]]


def etagged(body: bytes, media_type: str = "text/html; charset=utf-8") -> Handler:
    """The handler that serves ``body`` with its ETag, and 304 to a browser that holds it."""
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}  # kept, and asked again with If-None-Match

    async def handler(request: Request) -> Response:
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        return Response(body, media_type=media_type, headers=headers)

    return handler

"""The web app's room for learning (issue 31, docs/learn.md): the rules pages, the lessons page, and what
the table page's "Rules" button needs.

- ``/rules/GAME?lang=ru|en&table=ID`` (GAME: bank, thousand, banki): the game's rules in one language,
  rendered here from their one source (koloda.rules) into ``static/rules.html``; its script
  (``static/rules.js``) draws the card pictures with the table page's ``cardEl`` and, opened from a table,
  marks the table's agreements beside the rules they change (``GET /api/rules/GAME?table=ID``).
- ``/learn``: the lessons of Bank and Thousand (koloda.lessons) played in the browser. Every lesson is
  played through here once (:func:`lesson_json`), and its steps sent with the page: the learner's view at
  each step (``seat_view``, as a table's frame), the right move, and the engine's answer to every other
  move the page offers; so the page plays the lessons with no request at all (and offline), and every
  word of a refusal is the engine's.
- ``GET /api/rules/GAME``: the rule of each phase of play (koloda.rules.PHASE_RULES) and, with ``table``,
  the table's agreements in both languages (koloda.rules.marks).

The pages are built once per server and served with their ETag (koloda.web.pages).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from koloda import lessons, rules
from koloda.errors import KolodaError
from koloda.i18n import LANGS, Lang
from koloda.lessons import Lesson, Run
from koloda.rules import marks
from koloda.web import refusals, schemas
from koloda.web.pages import STATIC, WORDS_MARK, data_script, etagged, words_script
from koloda.web.views import seat_view

PAGE_MARK = "<!--koloda-page-->"
DATA_MARK = "<!--koloda-page-data-->"
#: The rules pages the service worker keeps (koloda.web.offline), by their address.
RULES_PAGES = {f"/rules/{game}?lang={lang}": (game, lang) for game in rules.GAMES for lang in LANGS}


def rules_html(game: str, lang: Lang) -> str:
    """The rules page of ``game`` in ``lang``: the rendered rules in the page's frame, with the words and
    the data its script needs (the game, the language, the rule of each phase)."""
    page = rules.page(game, lang)
    data = {"game": game, "lang": lang, "rules": list(page.rules), "phases": rules.PHASE_RULES.get(game, {})}
    html = (STATIC / "rules.html").read_text(encoding="utf-8")
    html = html.replace('<html lang="ru">', f'<html lang="{lang}">').replace(
        "<!--koloda-title-->", page.title
    )
    return (
        html.replace(WORDS_MARK, words_script())
        .replace(DATA_MARK, data_script("koloda-page-data", data))
        .replace(PAGE_MARK, page.html)
    )


def lesson_json(lesson: Lesson) -> dict[str, Any]:
    """A lesson played through for the page: at each step the learner's view (a table's frame's ``view``),
    the right move, the moves before it and after it, and the engine's (or the lesson's) answer to every
    other move the page lets the learner try: each card in the hand, each legal move, each offered one."""
    run = Run(lesson)
    spec = run.spec
    steps = []
    part = -1
    while not run.done:
        step = run.step
        view = seat_view(spec, run.state, lesson.seat)
        offered = [run.parse(text) for text in step.offer]
        tried = {*(a for a, _ in view["actions"]), *offered}
        cards = {}
        for card in view["hand"]:
            try:
                cards[str(card)] = run.parse(str(card))
            except KolodaError:  # a card that is no move of its own: nothing to answer
                continue
        tried |= set(cards.values())
        right = run.parse(step.play)
        answers = {str(a): run.answer(a).to_json() for a in sorted(tried) if a != right}
        before = [list(move) for move in run.before] if run.part_no != part else []
        part = run.part_no
        run.move(right)
        steps.append(
            {
                "part": part,
                "rule": step.rule,
                "view": view,
                "play": right,
                "offer": [[a, spec.action_text(a)] for a in offered],
                "cards": cards,
                "answers": answers,
                "before": before,
                "after": [list(move) for move in run.after],
            }
        )
    words = {
        lang: {
            "title": w.title,
            "goal": w.goal,
            "done": w.done,
            "steps": list(w.steps),
            "names": list(lesson.names[lang]),
        }
        for lang, w in lesson.words.items()
    }
    return {
        "game": lesson.game,
        "id": lesson.id,
        "rule": lesson.rule,
        "seat": lesson.seat,
        "words": words,
        "steps": steps,
        "end": seat_view(spec, run.state, lesson.seat),
    }


@functools.cache
def lessons_data() -> dict[str, Any]:
    """Every game's lessons for the page, with each game's title."""
    return {
        spec.name: {
            "title": dict(spec.titles),
            "lessons": [lesson_json(item) for item in lessons.lessons(spec.name)],
        }
        for spec in lessons.specs()
    }


def shell_pages() -> dict[str, str]:
    """The pages of this room the service worker keeps, by address: each rules page, and the lessons."""
    pages = {address: rules_html(game, lang) for address, (game, lang) in RULES_PAGES.items()}
    return pages | {"/learn": learn_html()}


def learn_html() -> str:
    html = (STATIC / "learn.html").read_text(encoding="utf-8").replace(WORDS_MARK, words_script())
    return html.replace(DATA_MARK, data_script("koloda-lessons", lessons_data()))


def _game(request: Request) -> str:
    """The game a rules address names (one that has no rules names nothing: 404)."""
    game: str = request.path_params["game"]
    if game not in rules.GAMES:
        raise refusals.refuse("not_found", method=request.method, path=refusals.shown(request.url.path, 80))
    return game


#: A table's game and options, by its id (NotFoundError when there is no such table).
TableOptions = Callable[[int], Awaitable[tuple[str, dict[str, Any]]]]


def routes(table_options: TableOptions) -> list[Route]:
    """The routes of this room; ``table_options(id)`` gives a table's game and options."""
    pages = {(game, lang): etagged(rules_html(game, lang).encode()) for game in rules.GAMES for lang in LANGS}
    learn_page = etagged(learn_html().encode())

    async def rules_page(request: Request) -> Response:
        query = schemas.query(request.query_params.multi_items(), schemas.RulesQuery)
        game = _game(request)
        return await pages[(game, "en" if query.lang == "en" else "ru")](request)

    async def learn(request: Request) -> Response:
        schemas.query(request.query_params.multi_items(), schemas.NoQuery)
        return await learn_page(request)

    async def rules_api(request: Request) -> Response:
        query = schemas.query(request.query_params.multi_items(), schemas.TableQuery)
        game = _game(request)
        found: dict[str, Any] = {
            "phases": rules.PHASE_RULES.get(game, {}),
            "marks": {lang: [] for lang in LANGS},
        }
        if query.table is not None:
            table_game, options = await table_options(int(query.table))
            if table_game == game and game in marks.VALUES:  # another game's table: nothing to mark
                found["marks"] = {lang: marks.marks(game, options, lang) for lang in LANGS}
        return JSONResponse(found)

    return [
        Route("/rules/{game}", rules_page, methods=["GET"]),
        Route("/learn", learn, methods=["GET"]),
        Route("/api/rules/{game}", rules_api, methods=["GET"]),
    ]

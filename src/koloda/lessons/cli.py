"""``koloda <game> learn``: the lessons in the terminal (issue 31, docs/learn.md).

The lessons run one after another from the first one not yet done (or ``--lesson ID``); each step says
what to do and shows the position as ``koloda <game> play`` does; a wrong move is refused with the
engine's reason and the rule it names, quoted from the rules (koloda.rules); ``?`` lists the legal moves.
What is done is kept in ``learn.json`` in the data directory (koloda.store.paths), ``{"bank": ["cover",
...], ...}``; ``--reset`` forgets a game's.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from koloda import rules
from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameSpec
from koloda.i18n import LANGS, Lang, say
from koloda.lessons import Lesson, Run, lesson, lessons
from koloda.lessons.screens import ending, position
from koloda.store.paths import data_dir
from koloda.term import Quit, Read, Write, ask, bold, colour_enabled, moves_asked

#: The file of what is done, in the data directory.
PROGRESS = "learn.json"


def add_command(commands: Any, spec: GameSpec) -> None:
    """Add ``koloda <game> learn``."""
    parser = commands.add_parser("learn", help="short lessons that play: the rules one move at a time")
    parser.add_argument("--lesson", metavar="ID", help="start with this lesson (default: the first not done)")
    parser.add_argument("--list", action="store_true", help="list the lessons and which are done")
    parser.add_argument("--reset", action="store_true", help="forget which lessons are done")
    parser.add_argument("--lang", choices=LANGS, default="ru", help="language (default ru)")
    parser.set_defaults(func=lambda args: _learn(args, spec))


def progress_path(environ: dict[str, str] | None = None) -> Path:
    return data_dir(environ) / PROGRESS


def load_progress(path: Path) -> dict[str, list[str]]:
    """What is done, by game (a file that is missing is nothing done; one that is not ours, an error)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read the lessons' progress in {path}: {exc}") from None
    if not isinstance(data, dict) or not all(
        isinstance(done, list) and all(isinstance(i, str) for i in done) for done in data.values()
    ):
        raise RecordError(f"{path} is not a record of lessons done: {{game: [lesson ids]}}")
    return data


def save_progress(path: Path, progress: dict[str, list[str]]) -> None:
    """Write what is done, whole or not at all (a temporary file renamed over the old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(progress, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def _learn(args: argparse.Namespace, spec: GameSpec) -> int:
    lang: Lang = args.lang
    path = progress_path()
    progress = load_progress(path)
    done = progress.get(spec.name, [])
    if args.reset:
        progress.pop(spec.name, None)
        save_progress(path, progress)
        print(say(lang, "learn.cli.reset", game=spec.titles[lang]))
        return 0
    every = lessons(spec.name)
    if args.list:
        for number, item in enumerate(every, start=1):
            mark = "✓" if item.id in done else "·"
            words = item.words[lang]
            print(
                say(
                    lang,
                    "learn.cli.item",
                    mark=mark,
                    number=number,
                    id=item.id,
                    title=words.title,
                    goal=words.goal,
                )
            )
        return 0
    first = (
        lesson(spec.name, args.lesson)
        if args.lesson
        else next((i for i in every if i.id not in done), every[0])
    )
    colour = colour_enabled()
    with contextlib.suppress(Quit):
        for item in every[every.index(first) :]:
            play(item, lang=lang, colour=colour)
            if item.id not in done:
                done.append(item.id)
                progress[spec.name] = done
                save_progress(path, progress)
            if item is every[-1]:
                print(bold(say(lang, "learn.cli.all_done", game=spec.titles[lang]), colour))
                break
            ask(say(lang, "learn.cli.next"), lambda text: text, lang=lang)
    return 0


def _names(item: Lesson, lang: Lang) -> list[str]:
    names = list(item.names[lang])
    names[item.seat] = say(lang, "term.you")
    return names


def play(item: Lesson, *, lang: Lang, colour: bool = False, read: Read = input, write: Write = print) -> Run:
    """Play one lesson at the prompt; returns it played through (Quit when the person leaves)."""
    run = Run(item)
    words = item.words[lang]
    names = _names(item, lang)
    spec = run.spec
    count = len(lessons(item.game))
    write("")
    write(
        bold(
            say(
                lang,
                "learn.cli.title",
                number=lessons(item.game).index(item) + 1,
                count=count,
                title=words.title,
            ),
            colour,
        )
    )
    write(words.goal)
    part = -1
    while not run.done:
        if run.part_no != part:
            part = run.part_no
            _moves(run.before, names, spec, lang, write)
        write("")
        write(bold(words.steps[run.step_no], colour))
        write(position(run.view, names, lang, colour))
        legal = [spec.action_words(a, lang) for a in run.state.legal_actions()]

        def judge(text: str, legal: Sequence[str] = legal) -> int:
            moves_asked(text, list(legal))
            action = run.parse(text)  # a move that is no move: the notation's own reason
            said = run.answer(action)
            if not said.ok:
                raise RequestError(_refused(item.game, lang, said.why(lang), said.rule))
            return action

        action = ask("> ", judge, read=read, write=write, lang=lang, complete=legal, blank_asks_again=True)
        run.move(action)
        _moves(run.after, names, spec, lang, write)
    end = ending(run.view, names, lang, colour)
    if end:
        write(end)
    write("")
    write(bold(words.done, colour))
    return run


def _refused(game: str, lang: Lang, why: str, rule: str) -> str:
    """The refusal at the prompt: the reason, then the rule it names, as the rules say it."""
    try:
        quoted = rules.rule_text(game, lang, rule)
    except KolodaError:
        quoted = ""
    return why + "\n" + say(lang, "learn.cli.rule", text=quoted) if quoted else why


def _moves(
    moves: Sequence[tuple[int, str]], names: Sequence[str], spec: GameSpec, lang: Lang, write: Write
) -> None:
    for seat, text in moves:
        write(f"  {names[seat]}: {spec.action_words(spec.parse_action(text), lang)}")

"""``koloda banki``: the interactive terminal referee (new, resume) and ``replay FILE``.

The loop reads one line at a time from ``input_fn`` and writes with ``output_fn`` (tests pass their own);
every accepted event is saved at once in the one store (:mod:`koloda.banki.saved`), so quitting, a crash
or a closed terminal loses nothing, and the web app's referee page shows the same games.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koloda.banki import saved
from koloda.banki.options import BankiOptions
from koloda.banki.state import BankiState, new_game, replay
from koloda.banki.text import RefereeError
from koloda.banki.view import describe, news_text, what_next
from koloda.errors import KolodaError, NotationError, NotFoundError, RecordError, RequestError
from koloda.game import GameRecord
from koloda.i18n import Lang, say
from koloda.seeds import Seed, new_secret
from koloda.store import Store, edit_link
from koloda.store.paths import add_db_argument

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

_COMMANDS = {
    "undo": "undo",
    "отмена": "undo",
    "show": "show",
    "состояние": "show",
    "help": "help",
    "помощь": "help",
    "quit": "quit",
    "выход": "quit",
}


def register(subparsers: Any) -> None:
    """Add ``koloda banki new|resume|replay``."""
    parser = subparsers.add_parser("banki", help="referee the yard game banki (sticks and cans)")
    commands = parser.add_subparsers(dest="banki_command", metavar="COMMAND", required=True)
    new = commands.add_parser("new", help="start a new game and referee it")
    new.add_argument("names", nargs="+", metavar="NAME", help="every player, the driver-to-be included")
    # the flags of every command (--preset, --option); --variant and --set, banki's own before, still work
    presets = ", ".join(name for name in BankiOptions.preset_names() if name != "default")
    new.add_argument(
        "--preset", "--variant", dest="preset", default="moscow", help=f"named rule set: {presets}"
    )
    new.add_argument(
        "--option",
        "--set",
        dest="option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change one rule (repeatable)",
    )
    new.add_argument(
        "--seed", type=int, help="a number to draw the counting-out from (default: a secret seed, recorded)"
    )
    new.add_argument(
        "--force", action="store_true", help="start even though a game is unfinished (it stays saved)"
    )
    resume = commands.add_parser("resume", help="go on with the last unfinished game (terminal or browser)")
    resume.add_argument("--game", type=int, metavar="ID", help="go on with this game (its number)")
    resume.add_argument(
        "--file", type=Path, help="go on with the game of this record file (imported into the store once)"
    )
    show = commands.add_parser("replay", help="replay a record file and show where it ended")
    show.add_argument("file", type=Path)
    for sub in (new, resume, show):
        sub.add_argument("--lang", choices=("en", "ru"), default="en", help="language of the referee")
    for sub in (new, resume):
        add_db_argument(sub)
    new.set_defaults(func=_new)
    resume.set_defaults(func=_resume)
    show.set_defaults(func=_replay)


def _new(args: argparse.Namespace) -> int:
    from koloda.store.open import open_store

    options = BankiOptions.preset(args.preset).with_assignments(args.option)
    seed: Seed = args.seed if args.seed is not None else new_secret()
    state = new_game(args.names, options, seed=seed)
    with open_store(args.db) as store:
        unfinished = saved.unfinished(store) if not args.force else None
        if unfinished is not None:
            names = ", ".join(saved.load(store, unfinished).names)
            raise RequestError(
                f"an unfinished game is saved in {store.location} (game {unfinished}: {names}): "
                f"'koloda banki resume' goes on with it; --force starts this one and keeps that one"
            )
        return play(state, store, saved.create(store, state), args.lang)


def _resume(args: argparse.Namespace) -> int:
    from koloda.store.legacy import import_banki_file
    from koloda.store.open import open_store

    if args.game is not None and args.file is not None:
        raise RequestError("--game and --file both name a game: give one")
    with open_store(args.db) as store:
        if args.file is not None:
            game_id: int | None = import_banki_file(store, args.file)
        else:
            game_id = args.game if args.game is not None else saved.unfinished(store)
        if game_id is None:
            raise NotFoundError(
                f"no saved game to go on with in {store.location} (none, or all over); "
                "start one with 'koloda banki new'"
            )
        return play(saved.load(store, game_id), store, game_id, args.lang)


def _replay(args: argparse.Namespace) -> int:
    state = replay(GameRecord.load(args.file, game="banki"))
    print(describe(state, args.lang))
    print("\n".join(what_next(state, args.lang)))
    return 0


def play(
    state: BankiState,
    store: Store,
    game_id: int,
    lang: Lang = "en",
    input_fn: InputFn | None = None,
    output_fn: OutputFn | None = None,
) -> int:
    """The referee loop: read an event, apply it, save it as game ``game_id`` of the store, say what it did
    and what comes next."""
    read = input_fn or input
    write = output_fn or print
    write(say(lang, "banki.cli.edit_link", link=edit_link("banki", game_id, store.banki_key(game_id))))
    write(describe(state, lang))
    write("\n".join(what_next(state, lang)))
    while True:
        try:
            line = read("> ").strip()
        except EOFError:
            break
        if not line:
            continue
        command = _COMMANDS.get(line.lower())
        if command == "quit":
            break
        if command == "help":
            write(say(lang, "banki.help"))
            continue
        if command == "show":
            write(describe(state, lang))
            write("\n".join(what_next(state, lang)))
            continue
        try:
            if command == "undo":
                undone = state.undo()
                _saved(saved.record_undo, store, game_id, state, functools.partial(state.apply, undone))
                write(say(lang, "banki.cli.undone", event=str(undone)))
            else:
                state.apply(state.parse_event(line))
                _saved(saved.record_event, store, game_id, state, state.undo)
        except RefereeError as exc:
            write(say(lang, "banki.cli.not_allowed", reason=exc.text(lang)))
            continue
        except RecordError:
            raise
        except (NotationError, KolodaError) as exc:
            write(say(lang, "banki.cli.not_understood", reason=exc.text(lang)))
            continue
        for sentence in news_text(state, lang):
            write(sentence)
        write("\n".join(what_next(state, lang)))
    write(say(lang, "banki.cli.saved", location=store.location, id=game_id))
    return 0


def _saved(
    save: Callable[[Store, int, BankiState], None],
    store: Store,
    game_id: int,
    state: BankiState,
    take_back: Callable[[], object],
) -> None:
    """Save the change just made to ``state``; if the store refuses, take it back and raise RecordError."""
    try:
        save(store, game_id, state)
    except RecordError:
        take_back()
        raise

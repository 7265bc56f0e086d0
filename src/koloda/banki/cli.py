"""``koloda banki``: the interactive terminal referee (new, resume) and ``replay FILE``.

The loop reads one line at a time from ``input_fn`` and writes with ``output_fn`` (tests pass their own);
every accepted event is saved at once, so quitting, a crash or a closed terminal loses nothing.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from koloda.banki import store
from koloda.banki.options import BankiOptions
from koloda.banki.state import BankiState, new_game, replay
from koloda.banki.text import RefereeError
from koloda.errors import KolodaError, NotationError, RecordError
from koloda.game import GameRecord
from koloda.i18n import Lang

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
_HELP = {
    "en": """Enter what happened, one event a line (names as at the start, metres with a dot or comma):
  count | counted NAME            the counting-out picks the first driver (Chelyabinsk)
  kick NAME METRES                a stick kicked off the toe: the farthest throws first
  hit NAME [spear]                a throw that knocked the can (spear: thrown spear-style)
  miss NAME [spear] [pile|field]  a throw that missed (Chelyabinsk: where the stick lies)
  reset                           the driver has put the can back
  back NAME                       NAME is back behind the line with the stick
  bring NAME OTHER                NAME (a marshal) brought OTHER's stick
  tag NAME stick|hand PART        the driver touched NAME (PART: torso, arm, leg, heel, head)
  knock NAME                      NAME knocked the can (the driver's name: the driver's knock)
  foul NAME grab|line             the driver knocked the can calling NAME's foul
  cross NAME OTHER                NAME's stick landed across OTHER's
  snatch NAME | guarded           during the driver's own throw (Chelyabinsk)
  last NAME                       NAME came last to the line (Chelyabinsk)
  order NAME WHAT                 the winner's order (Chelyabinsk)
Also: undo, show, help, quit. Russian words work too (попал, мимо, осалил, сбил, ...).""",
    "ru": """Вводите, что произошло, по одному событию в строке (имена — как при начале игры):
  count | counted ИМЯ             считалка выбирает водящего (Челябинск)
  kick ИМЯ МЕТРЫ                  пинок палки с ноги: кто дальше, тот бросает первым
  hit ИМЯ [spear]                 попал в банку (spear — бросок «копьём»)   = попал
  miss ИМЯ [spear] [pile|field]   мимо (Челябинск: где лежит палка)          = мимо
  reset                           водящий поставил банку                       = поставил
  back ИМЯ                        вернулся за линию с палкой                   = вернулся
  bring ИМЯ ДРУГОЙ                маршал принёс чужую палку                    = принёс
  tag ИМЯ stick|hand ЧАСТЬ        водящий осалил (torso, arm, leg, heel, head) = осалил ИМЯ палкой нога
  knock ИМЯ                       сбил банку (имя водящего — его удар)         = сбил
  foul ИМЯ grab|line              нарушение: чужая палка / заступ за линию     = нарушение
  cross ИМЯ ДРУГОЙ                палка легла крестом на чужую                 = крест
  snatch ИМЯ | guarded            при броске водящего (Челябинск)              = выхватил | уберёг
  last ИМЯ                        прибежал к линии последним (Челябинск)       = последний
  order ИМЯ ЧТО                   приказ маршала (Челябинск)                   = приказ
Ещё: undo (отмена), show (состояние), help (помощь), quit (выход).""",
}


def register(subparsers: Any) -> None:
    """Add ``koloda banki new|resume|replay``."""
    parser = subparsers.add_parser("banki", help="referee the yard game banki (sticks and cans)")
    commands = parser.add_subparsers(dest="banki_command", metavar="COMMAND", required=True)
    new = commands.add_parser("new", help="start a new game and referee it")
    new.add_argument("names", nargs="+", metavar="NAME", help="every player, the driver-to-be included")
    new.add_argument("--variant", default="moscow", help="moscow (default) or chelyabinsk")
    new.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="change one option")
    new.add_argument("--seed", type=int, help="seed of the counting-out (default: a random one, recorded)")
    new.add_argument("--force", action="store_true", help="replace an unfinished saved game")
    resume = commands.add_parser("resume", help="go on with the saved game")
    show = commands.add_parser("replay", help="replay a record file and show where it ended")
    show.add_argument("file", type=Path)
    for sub in (new, resume, show):
        sub.add_argument("--lang", choices=("en", "ru"), default="en", help="language of the referee")
    for sub in (new, resume):
        sub.add_argument("--file", type=Path, help="the game file (default: in the koloda data directory)")
    new.set_defaults(func=_new)
    resume.set_defaults(func=_resume)
    show.set_defaults(func=_replay)


def _new(args: argparse.Namespace) -> int:
    path: Path = args.file or store.default_path()
    if path.exists() and not args.force:
        try:
            unfinished = not store.load(path).is_over()
        except RecordError:
            unfinished = True
        if unfinished:
            raise RecordError(
                f"an unfinished game is saved in {str(path)!r}: 'koloda banki resume' goes on with it; "
                "--force replaces it, --file keeps both"
            )
    options = BankiOptions.preset(args.variant).with_assignments(args.set)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    state = new_game(args.names, options, seed=seed)
    store.save(state, path)
    return play(state, path, args.lang)


def _resume(args: argparse.Namespace) -> int:
    path: Path = args.file or store.default_path()
    return play(store.load(path), path, args.lang)


def _replay(args: argparse.Namespace) -> int:
    state = replay(GameRecord.load(args.file, game="banki"))
    print(state.describe(args.lang))
    print("\n".join(state.what_next(args.lang)))
    return 0


def play(
    state: BankiState,
    path: Path,
    lang: Lang = "en",
    input_fn: InputFn | None = None,
    output_fn: OutputFn | None = None,
) -> int:
    """The referee loop: read an event, apply it, save, say what it did and what comes next."""
    read = input_fn or input
    write = output_fn or print
    write(state.describe(lang))
    write("\n".join(state.what_next(lang)))
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
            write(_HELP[lang])
            continue
        if command == "show":
            write(state.describe(lang))
            write("\n".join(state.what_next(lang)))
            continue
        try:
            if command == "undo":
                undone = state.undo()
                write(("undone: " if lang == "en" else "отменено: ") + str(undone))
            else:
                state.apply(state.parse_event(line))
        except RefereeError as exc:
            write(("not allowed: " if lang == "en" else "нельзя: ") + exc.text(lang))
            continue
        except (NotationError, KolodaError) as exc:
            write(("not understood: " if lang == "en" else "не понял: ") + str(exc) + _hint(lang))
            continue
        store.save(state, path)
        for sentence in state.news_text(lang):
            write(sentence)
        write("\n".join(state.what_next(lang)))
    write(("saved in " if lang == "en" else "сохранено в ") + str(path))
    return 0


def _hint(lang: Lang) -> str:
    return " ('help' lists the events)" if lang == "en" else " («помощь» — список событий)"

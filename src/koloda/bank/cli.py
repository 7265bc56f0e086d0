"""``koloda bank``: a match in the terminal against bots, and what ``simulate`` and ``replay`` print.

The generic commands (``simulate``, ``replay``) are built for every game by :mod:`koloda.cli` from the
registry; :class:`koloda.bank.spec.BankSpec` hands them the functions here and adds ``play``.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from koloda import screen
from koloda.bank.actions import action_text, action_words, parse_action
from koloda.bank.observe import BankObservation, observe
from koloda.bank.options import BankOptions
from koloda.bank.scoring import DealResult, bonus_text
from koloda.bank.state import BankState, new_game
from koloda.bots.base import LEVELS, Bot, RandomBot
from koloda.cards import Card
from koloda.coach import cli as coach_cli
from koloda.coach.bank import BankRater
from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameSpec
from koloda.i18n import LANGS, N_, Lang, Msg, say
from koloda.options import add_option_arguments
from koloda.seeds import Seed, bot_seed, new_secret
from koloda.term import (
    Quit,
    Read,
    Write,
    ask,
    bold,
    card_text,
    colour_enabled,
    moves_asked,
    note_fault,
    refusal,
    track,
)


def add_commands(commands: Any, spec: GameSpec) -> None:
    """Add ``koloda bank play`` and ``koloda bank analyse`` (the coach, docs/analysis.md)."""
    play = commands.add_parser("play", help="a match in the terminal against bots")
    add_option_arguments(play, BankOptions)
    play.add_argument("--players", type=int, default=3, help="2-4 seats, you and bots (default 3)")
    play.add_argument(
        "--seed",
        type=int,
        default=None,
        help="a number to shuffle from, to play a match again (default: a secret seed)",
    )
    play.add_argument("--lang", choices=LANGS, default="ru", help="interface language (default ru)")
    play.add_argument(
        "--level", choices=tuple(LEVELS), default="medium", help="the bots' level (default medium)"
    )
    play.add_argument("--save", metavar="FILE", help="write the game record here when the match ends")
    play.set_defaults(func=lambda args: _play_command(args, spec))
    coach_cli.add_command(commands, spec, BankRater)


def options_from_args(args: argparse.Namespace) -> BankOptions:
    return BankOptions.preset(args.preset).with_assignments(args.option)


# -- play ----------------------------------------------------------------------------------------------


def _play_command(args: argparse.Namespace, spec: GameSpec) -> int:
    options = options_from_args(args)
    if args.seed is not None and args.seed < 0:
        raise RequestError(f"--seed must not be negative, not {args.seed}", field="seed")
    seed: Seed = args.seed if args.seed is not None else new_secret()  # a number only when asked for
    state = new_game(options, players=args.players, seed=seed)
    if args.save:
        _check_writable(args.save)  # before the match, so that a bad path loses no game
    colour = colour_enabled()
    bots = {
        p: spec.guarded_bot(args.level, bot_seed(seed, p), options, on_fault=note_fault)
        for p in range(state.players)
        if p != 0
    }
    try:
        play_match(state, seat=0, lang=args.lang, colour=colour, bots=bots)
    except Quit:
        print(say(args.lang, "term.abandoned"))
    if args.save:
        try:
            state.record().save(args.save)
        except OSError as exc:
            raise RecordError(f"cannot save the game record to {args.save!r}: {exc.strerror}") from None
    return 0


def _check_writable(path: str) -> None:
    """Refuse a --save path that cannot be written, naming it and the reason."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        reason = "it is a folder"
    elif not folder.is_dir():
        reason = f"there is no folder {str(folder)!r}"
    elif not os.access(target if target.exists() else folder, os.W_OK):
        reason = "permission denied"
    else:
        return
    raise RecordError(f"cannot save the game record to {path!r}: {reason}")


def seat_name(seat: int, human: int, lang: Lang) -> str:
    """ "You" for the human's seat, "Bot N" for the others; "Seat N" when nobody is human (human < 0)."""
    if human < 0:
        return say(lang, "bank.cli.seat", seat=seat)
    if seat == human:
        return say(lang, "term.you")
    return say(lang, "term.bot", seat=seat)


def play_match(
    state: BankState,
    *,
    seat: int,
    lang: Lang,
    bots: Mapping[int, Bot],
    colour: bool = False,
    read: Read = input,
    write: Write = print,
) -> None:
    """Play until the state is over: ``seat`` is asked for moves, every other seat by its bot."""
    write(bold(say(lang, "bank.title"), colour) + " · " + say(lang, "bank.cli.players", n=state.players))
    write(say(lang, "bank.cli.help"))
    reported = 0
    deal_shown = 0
    while not state.is_over() or reported < len(state.results):
        while reported < len(state.results):
            write(deal_report(state.results[reported], seat, lang, colour))
            reported += 1
        if state.is_over():
            break
        player = state.current_player
        assert player is not None
        view = observe(state, player)
        if view.deal != deal_shown and view.phase != "choose-trump":  # trumps chosen after the deal: then
            deal_shown = view.deal
            # the trumps once: the table view says them when this seat moves at once
            write(deal_header(observe(state, seat), seat, lang, trumps=player != seat))
        if player == seat:
            write(table_view(view, seat, lang, colour))
            action = ask(
                say(lang, "bank.cli.your_move"),
                lambda text: _legal_move(state, text, lang),
                read=read,
                write=write,
                lang=lang,
                complete=[typed_move(action_text(a), lang) for a in view.legal_actions],
                blank_asks_again=True,
            )
            state.apply(action)
        else:
            action = bots[player].choose(view, view.legal_actions)
            state.apply(action)
            write(f"  {seat_name(player, seat, lang)}: {move_text(state.action_text(action), lang, colour)}")
    if state.winner is not None:
        write(bold(say(lang, "bank.cli.winner", name=seat_name(state.winner, seat, lang)), colour))


def _legal_move(state: BankState, text: str, lang: Lang) -> int:
    """Parse a typed move and check it against the position; the error says why it is refused."""
    moves = [typed_move(state.action_text(a), lang) for a in state.legal_actions()]
    moves_asked(text, moves)
    try:
        action = state.parse_action(text)
        if action not in state.legal_actions():
            state.copy().apply(action)  # not legal: the engine's error says why
    except KolodaError as exc:
        raise refusal(exc, moves) from None
    return action


def move_text(text: str, lang: Lang, colour: bool) -> str:
    """An action's canonical text with Unicode suits (and Russian ranks and words in Russian), as the
    others' moves are told: "draws a card", "passes"."""
    if text == "draw":
        return say(lang, "bank.cli.draws")
    if text == "pass":
        return say(lang, "bank.cli.passes")
    if text.startswith("trump "):  # rule 3.2: choosing one's own trump
        return say(lang, "bank.cli.trump", suit=_suit(text[-1], lang))
    return "+".join(card_text(Card.parse(token), lang, colour) for token in text.split("+"))


def typed_move(text: str, lang: Lang) -> str:
    """An action as the person types it (``draw``/``взять``, ``pass``/``пас``, ``trump ♥``, ``10♥``,
    ``7♥+8♥+9♥``): what the move prompt lists and completes; it parses back to the same action.

    >>> typed_move("draw", "ru"), typed_move("trump H", "en"), typed_move("QS+QC+QD+QH", "ru")
    ('взять', 'trump ♥', 'Д♠+Д♣+Д♦+Д♥')
    """
    return action_words(parse_action(text), lang)


def _suit(letter: str, lang: Lang) -> str:
    return card_text(Card.parse("6" + letter), lang)[-1]


#: Option ``trumps`` (rule 3) as the deal's header says it.
_TRUMPS = {
    "own": N_("bank.trumps.own"),
    "none": N_("bank.trumps.none"),
    "one": N_("bank.trumps.one"),
    "two": N_("bank.trumps.two"),
    "senior-junior": N_("bank.trumps.senior-junior"),
}


def deal_header(view: BankObservation, seat: int, lang: Lang, *, trumps: bool = True) -> str:
    """The deal's first line: its number, the dealer and (``trumps``) the trumps in words."""
    dealer = seat_name(view.dealer, seat, lang)
    key = N_("bank.cli.deal_header.you") if view.dealer == seat else N_("bank.cli.deal_header")
    line = say(lang, key, deal=view.deal, dealer=dealer)
    return f"\n— {line}" + (f" · {trumps_line(view, seat, lang)}" if trumps else "")


def trumps_line(view: BankObservation, seat: int, lang: Lang) -> str:
    """The trumps in words: whose is which when each has his own (rule 3.2), else the deal's suits."""
    if view.trumps == "none" or not view.trump_suits:
        return say(lang, "bank.cli.trumps_none")
    suits = ["?" if s == "-" else _suit(s, lang) for s in view.trump_suits]
    if view.trumps == "own":
        others = ", ".join(f"{seat_name(p, seat, lang)} {s}" for p, s in enumerate(suits) if p != seat)
        return say(lang, "bank.cli.trumps_own", mine=suits[seat], others=others)
    return say(lang, "bank.cli.trumps_shared", setup=say(lang, _TRUMPS[view.trumps]), suits=" ".join(suits))


def sorted_hand(view: BankObservation, seat: int) -> list[Card]:
    """The hand by suit, the seat's trumps last, each suit from low to high."""
    trumps = set(view.trump_suits[seat : seat + 1] if view.trumps == "own" else view.trump_suits)
    cards = [Card.parse(c) for c in view.hand]
    return sorted(cards, key=lambda c: (c.suit.letter in trumps, c.suit, c.rank))


def table_view(view: BankObservation, seat: int, lang: Lang, colour: bool) -> str:
    """What the human sees before his move: the trumps, the bank and the card to cover, the stock, every
    player's cards and points (the one to move marked), his hand sorted and his moves as he types them;
    while trumps are chosen in turn (rule 3.2), his cards if they are dealt and the suits left."""
    moves = ", ".join(typed_move(action_text(a), lang) for a in view.legal_actions)
    hand = " ".join(card_text(c, lang, colour) for c in sorted_hand(view, seat))
    if view.phase == "choose-trump":
        lines = [bold(say(lang, "bank.cli.your_hand"), colour) + " " + hand] if hand else []
        return "\n".join([*lines, say(lang, "bank.cli.choose_trump", moves=moves)])
    if not view.bank:
        bank = say(lang, "bank.cli.bank_empty")
    else:
        laid = " ".join(card_text(Card.parse(c), lang) for c in view.bank)
        owner = view.bank_top_owner
        count = len(view.bank)
        if owner is None:
            bank = say(lang, "bank.cli.bank_open", count=count, cards=laid)
        else:
            key = (
                N_("bank.cli.bank_top.you") if owner == seat else N_("bank.cli.bank_top")
            )  # not "laid by You"
            bank = say(lang, key, count=count, cards=laid, name=seat_name(owner, seat, lang))
    cover = view.hint.msg().text(lang) if view.hint is not None else ""  # the engine's reasons (rules 3-5)
    head = [say(lang, "bank.cli.col.player"), say(lang, "bank.cli.col.cards")]
    head += [say(lang, "bank.cli.col.captured"), say(lang, "bank.cli.col.score")]
    rows = [
        [
            seat_name(p, seat, lang),
            str(view.hand_counts[p]),
            str(view.captured_points[p]),
            str(view.totals[p]),
        ]
        for p in range(view.players)
    ]
    return screen.render(
        screen.cards(trumps_line(view, seat, lang), colour),
        screen.cards(bank, colour),
        screen.cards(cover, colour),
        say(lang, "bank.cli.stock_left", stock=view.stock_size),
        screen.seats_table(head, rows, view.current_player),
        screen.line(say(lang, "bank.cli.your_hand"), screen.cards(hand, colour)),
        screen.cards(say(lang, "bank.cli.moves_typed", moves=moves), colour),
        colour=colour,
    )


def deal_report(result: DealResult, seat: int, lang: Lang, colour: bool) -> str:
    """The score sheet of one deal: captured points, bonuses, penalties, the deal's score and totals."""
    if result.stuck:
        title = say(lang, "bank.cli.deal_stuck", number=result.number)
    else:
        title = say(lang, "bank.cli.deal_result", number=result.number)
    lines = ["", bold(title, colour)]
    for p in result.active:
        place = result.places[p]
        parts = [say(lang, "bank.cli.captured", points=result.captured[p])]
        parts += [f"{bonus_text(rule, place, lang)} +{points}" for rule, _what, points in result.bonuses[p]]
        if result.penalties[p]:
            parts.append(say(lang, "bank.cli.penalty", points=result.penalties[p]))
        place_text = say(lang, "bank.cli.place", place=place) + ", " if place else ""
        lines.append(
            f"  {seat_name(p, seat, lang)}: {place_text}{', '.join(parts)} = {result.scores[p]:+d}"
            f" → {result.totals[p]}"
        )
    return "\n".join(lines)


# -- simulate ------------------------------------------------------------------------------------------


def simulate(
    options: BankOptions, players: int, deals: int, seed: int, progress: bool = False
) -> dict[str, Any]:
    """Random bots play ``deals`` single deals (deal ``i`` shuffled from ``seed + i``)."""
    if type(deals) is not int or deals < 1:
        raise RequestError(f"--deals must be at least 1, not {deals!r}", field="deals")
    options.check_players(players)
    sums = [0] * players
    actions = stuck = 0
    start = time.perf_counter()
    bots = [RandomBot(seed * 10 + p) for p in range(players)]
    items = range(deals)
    for i in track(items, deals, "deals") if progress else items:
        state = new_game(options, players=players, seed=seed + i, scope="deal")
        while not state.is_over():
            player = state.current_player
            assert player is not None
            state.apply(bots[player].choose(None, state.legal_actions()))  # a random bot needs no view
            actions += 1
        for p, points in enumerate(state.returns()):
            sums[p] += points
        stuck += state.results[-1].stuck
    seconds = time.perf_counter() - start
    return {
        "game": "bank",
        "players": players,
        "seed": seed,
        "options": options.to_dict(),
        "deals": deals,
        "actions": actions,
        "actions_per_deal": actions / deals,
        "mean_points": [s / deals for s in sums],
        "stuck_share": stuck / deals,
        "seconds": seconds,
    }


def simulate_lines(figures: Mapping[str, Any]) -> list[str]:
    """The figures of :func:`simulate` for people."""
    means = ", ".join(f"{m:.1f}" for m in figures["mean_points"])
    return [
        f"deals played: {figures['deals']}",
        f"actions taken: {figures['actions']} ({figures['actions_per_deal']:.1f} a deal)",
        f"mean points per seat: {means}",
        f"deals ending stuck: {figures['stuck_share']:.1%}",
    ]


# -- replay --------------------------------------------------------------------------------------------


def replay_summary(state: BankState, lang: Lang) -> str:
    players = Msg("bank.cli.players", n=state.players)
    lines = [
        say(lang, "bank.cli.replay", players=players, actions=Msg("bank.cli.actions", n=len(state.actions)))
    ]
    lines += [deal_report(result, -1, lang, False) for result in state.results]
    if state.is_over():
        if state.winner is not None:
            winner = seat_name(state.winner, -1, lang)
            lines.append(say(lang, "bank.cli.winner", name=winner))
        else:
            scores = ", ".join(str(s) for s in state.returns())
            lines.append(say(lang, "bank.cli.deal_over", scores=scores))
    else:
        lines.append(say(lang, "bank.cli.not_over", name=seat_name(state.current_player or 0, -1, lang)))
    return "\n".join(lines)

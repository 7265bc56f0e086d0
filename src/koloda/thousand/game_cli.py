"""``koloda thousand play | simulate | replay``: the game in the terminal, random-bot statistics, records.

The loops take ``read``/``write`` functions, so tests drive a whole game by feeding lines. The bots are
koloda's (:mod:`koloda.bots`): ``choose(view, legal)`` sees only :func:`koloda.thousand.game.observe`.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from koloda.bots import LEVELS, Bot, make_bot
from koloda.cards import Card
from koloda.errors import KolodaError, RecordError
from koloda.game import GameRecord
from koloda.options import add_option_arguments
from koloda.term import LANGS, Lang, Progress, Quit, Read, Write, ask, card_text, cards_line, refusal, say
from koloda.thousand.game import (
    ACES,
    BID,
    BOMB,
    CARDS,
    GIVE,
    MARRY,
    PASS,
    ThousandState,
    ThousandView,
    action_bid,
    new_game,
    observe,
    replay,
)
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scorefile import Player, ScoredGame
from koloda.thousand.scoring import DealScore
from koloda.thousand.table import markdown_table, winner_line

# --- text for people ---------------------------------------------------------------------------------------


def action_words(action: int, lang: Lang) -> str:
    """An action as the player may type it: cards with suit symbols, Russian ranks in Russian.

    >>> action_words(31, "ru"), action_words(PASS, "ru"), action_words(GIVE + 1, "en")
    ('К♥+', 'пас', '9♠>2')
    """
    if action == PASS:
        return say(lang, "пас", "pass")
    if action == BOMB:
        return say(lang, "бомба", "bomb")
    if BID <= action < GIVE:
        return str(action_bid(action))
    if action >= GIVE:
        card, k = divmod(action - GIVE, 2)
        return f"{card_text(CARDS[card], lang)}>{k + 1}"
    if action >= ACES:
        return card_text(CARDS[(action - ACES) * 6 + 5], lang) + "+"
    if action >= MARRY:
        suit, k = divmod(action - MARRY, 2)
        return card_text(CARDS[suit * 6 + 3 + k], lang) + "+"
    return card_text(CARDS[action], lang)


def _sorted_hand(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    strength = {9: 0, 11: 1, 12: 2, 13: 3, 10: 4, 14: 5}
    return tuple(sorted(cards, key=lambda c: (c.suit, -strength[c.rank])))


class Narrator:
    """Tells one seat what happens, from that seat's view only (what it may see, rule G15)."""

    def __init__(self, seat: int, names: list[str], lang: Lang, write: Write) -> None:
        self.seat, self.names, self.lang, self.write = seat, names, lang, write

    def deal_starts(self, state: ThousandState) -> None:
        """The dealer and the first hand's compulsory bid (rule G5)."""
        view = observe(state, self.seat)
        first, bid = view.bids[0]
        lang = self.lang
        self.write(say(lang, f"Сдаёт: {self.names[view.dealer]}.", f"Dealer: {self.names[view.dealer]}."))
        self.write(
            say(lang, f"{self.names[first]}: {bid} (обязательно)", f"{self.names[first]}: {bid} (compulsory)")
        )

    def before(self, state: ThousandState) -> ThousandView:
        return observe(state, self.seat)

    def after(self, old: ThousandView, state: ThousandState, actor: int, action: int) -> None:
        """Describe ``action`` of ``actor`` using only the seat's views before and after it."""
        lang, name = self.lang, self.names[actor]
        new = observe(state, self.seat)
        same_deal = new.deal_number == old.deal_number
        if old.phase == "giving":
            gift = next((g for g in new.gifts if g not in old.gifts), None) if same_deal else None
            if gift is not None:
                self.write(f"{name} → {self.names[gift[0]]}: {card_text(gift[1], lang)}")
            else:
                self.write(say(lang, f"{name} отдаёт карту", f"{name} gives a card away"))
        elif old.phase == "playing":
            self.write(f"{name}: {action_words(action, lang)}")
            if MARRY <= action < PASS:
                trump = new.trump if same_deal else None
                trump_text = f", {say(lang, 'козырь', 'trump')} {trump.symbol}" if trump else ""
                self.write(
                    say(lang, f"  {name} объявляет марьяж{trump_text}", f"  {name} declares{trump_text}")
                )
            if same_deal and sum(new.tricks_won) > sum(old.tricks_won) and new.tricks:
                winner = new.tricks[-1].winner
                if winner is not None:
                    self.write(
                        say(lang, f"  взятку берёт {self.names[winner]}", f"  {self.names[winner]} takes it")
                    )
        elif old.phase == "contract" and action != BOMB:
            bid = action_bid(action)
            self.write(say(lang, f"{name} играет на {bid}", f"{name} plays for {bid}"))
        else:
            self.write(f"{name}: {action_words(action, lang)}")
        if same_deal and old.talon is None and new.talon is not None:
            self.write(say(lang, "Прикуп: ", "Talon: ") + cards_line(new.talon, lang))
        if new.phase == "giving" and old.phase == "bidding":
            declarer = new.declarer if new.declarer is not None else actor
            self.write(say(lang, f"Играющий: {self.names[declarer]}", f"Declarer: {self.names[declarer]}"))

    def show_turn(self, view: ThousandView, legal: list[int]) -> None:
        lang = self.lang
        self.write("")
        if view.trump is not None:
            self.write(say(lang, f"Козырь: {view.trump.symbol}", f"Trump: {view.trump.symbol}"))
        if view.trick is not None:
            played = ", ".join(f"{self.names[s]} {card_text(c, lang)}" for s, c in view.trick.cards)
            self.write(say(lang, "На столе: ", "On the table: ") + played)
        self.write(say(lang, "Ваши карты: ", "Your cards: ") + cards_line(_sorted_hand(view.hand), lang))
        if view.phase == "giving":
            first, second = (
                self.names[(view.seat + 1) % view.players],
                self.names[(view.seat + 2) % view.players],
            )
            if view.players == 4:
                order = [s for s in range(1, 4) if (view.seat + s) % 4 != view.dealer]
                first, second = (self.names[(view.seat + s) % 4] for s in order)
            self.write(say(lang, f"Кому: 1 — {first}, 2 — {second}", f"To: 1 is {first}, 2 is {second}"))
        self.write(say(lang, "Можно: ", "You may: ") + ", ".join(action_words(a, lang) for a in legal))


def _opponents(view: ThousandView, names: list[str]) -> tuple[str, str]:
    """Rule G7: gift 1 goes to the next player after the declarer, gift 2 to the one after."""
    n = view.players
    seats = [(view.seat + s) % n for s in range(1, n) if n == 3 or (view.seat + s) % n != view.dealer]
    return names[seats[0]], names[seats[1]]


def deal_summary(score: DealScore, names: list[str], lang: Lang) -> str:
    return score.explain(names, lang)


# --- play --------------------------------------------------------------------------------------------------


def play_game(
    options: ThousandOptions,
    *,
    seed: int,
    players: int = 3,
    lang: Lang = "ru",
    level: str = "medium",
    read: Read = input,
    write: Write = print,
) -> ThousandState:
    """A whole game: seat 0 is the person at the keyboard, the other seats bots of ``level`` (seeded)."""
    state = new_game(options, players=players, seed=seed)
    you = say(lang, "Вы", "You")
    names = [you, *(say(lang, f"Бот {i}", f"Bot {i}") for i in range(1, players))]
    bots: dict[int, Bot] = {
        seat: make_bot("thousand", level, seed * 10 + seat, options) for seat in range(1, players)
    }
    narrator = Narrator(0, names, lang, write)
    help_text = say(
        lang,
        "Ходы: карта (Д♥, QH), марьяж (К♥+), пас, заявка (120), отдать карту (9♠>1), бомба; выход — quit.",
        "Moves: a card (QH, Д♥), a marriage (KH+), pass, a bid (120), a gift (9S>1), bomb; leave: quit.",
    )
    write(help_text)
    narrator.deal_starts(state)
    deals_shown = 0
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        old = narrator.before(state)
        legal = state.legal_actions()
        if seat == 0:
            narrator.show_turn(old, legal)

            def take(line: str) -> int:
                try:
                    action = state.parse_action(line)
                    state.apply(action, 0)  # an illegal move raises with the reason; the prompt repeats
                except KolodaError as exc:
                    raise refusal(
                        lang, line, exc, [state.action_text(a) for a in state.legal_actions()]
                    ) from None
                return action

            action = ask("> ", take, read=read, write=write)
        else:
            action = bots[seat].choose(observe(state, seat), legal)
            state.apply(action, seat)
        narrator.after(old, state, seat, action)
        results = state.results
        if len(results) > deals_shown:
            deals_shown = len(results)
            score = results[-1][1]
            write("")
            write(deal_summary(score, names, lang))
            scored = ScoredGame(tuple(Player(n, "m") for n in names), state.book)
            write(markdown_table(scored, lang))
            if not state.is_over():
                narrator.deal_starts(state)
    line = winner_line(ScoredGame(tuple(Player(n, "m") for n in names), state.book), lang)
    if line:
        write(line)
    return state


# --- simulate ----------------------------------------------------------------------------------------------


def simulate(
    options: ThousandOptions, *, deals: int, seed: int, players: int = 3, progress: Progress | None = None
) -> dict[str, Any]:
    """Random bots play ``deals`` deals (games from seeds ``seed``, ``seed + 1``... as games end)."""
    if type(deals) is not int or deals < 1:
        raise KolodaError(f"--deals must be a positive number, not {deals!r}")
    rng = random.Random(seed)
    actions = 0
    points = [0] * players
    cards = [0] * players
    made = bombs = 0
    game_seed = seed
    state = new_game(options, players=players, seed=game_seed)
    played = 0
    start = time.perf_counter()
    while played < deals:
        if state.is_over():
            game_seed += 1
            state = new_game(options, players=players, seed=game_seed)
        before = len(state.results)
        while len(state.results) == before and not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        deal, score = state.results[-1]
        played += 1
        made += bool(score.made)
        bombs += deal.bomb
        for seat in range(players):
            points[seat] += score.delta[seat]
            cards[seat] += deal.points[seat] if deal.points else 0
        if progress is not None:
            progress.advance()
    seconds = time.perf_counter() - start
    return {
        "deals": deals,
        "actions": actions,
        "mean_points": [round(p / deals, 3) for p in points],
        "mean_card_points": [round(c / deals, 3) for c in cards],
        "made": made,
        "bombs": bombs,
        "seconds": round(seconds, 3),
    }


# --- the commands ------------------------------------------------------------------------------------------


def register_game_commands(commands: Any) -> None:
    """Add ``play``, ``simulate`` and ``replay`` to the ``koloda thousand`` subparsers."""
    play = commands.add_parser("play", help="play a whole game in the terminal against two bots")
    _options_arguments(play)
    play.add_argument("--seed", type=int, help="the seed of the shuffles (default: from the clock)")
    play.add_argument("--lang", choices=LANGS, default="ru", help="interface language (default ru)")
    play.add_argument(
        "--level", choices=tuple(LEVELS), default="medium", help="the bots' level (default medium)"
    )
    play.set_defaults(func=_play)

    sim = commands.add_parser("simulate", help="random bots play N deals; deals, actions, mean points")
    _options_arguments(sim)
    sim.add_argument("--deals", type=int, required=True, help="how many deals")
    sim.add_argument("--seed", type=int, default=0, help="the first game's seed (default 0)")
    sim.add_argument("--json", action="store_true", help="print one JSON object")
    sim.set_defaults(func=_simulate)

    rep = commands.add_parser("replay", help="replay a game record and print the result")
    rep.add_argument("file", type=Path, help="a game record (JSON)")
    rep.add_argument("--lang", choices=LANGS, default="ru", help="language of the table (default ru)")
    rep.set_defaults(func=_replay)


def _options_arguments(parser: argparse.ArgumentParser) -> None:
    add_option_arguments(parser, ThousandOptions)
    parser.add_argument(
        "--players", type=int, choices=(3, 4), default=3, help="3, or 4 with a sitting dealer"
    )


def _options(args: argparse.Namespace) -> ThousandOptions:
    return ThousandOptions.preset(args.preset).with_assignments(args.option)


def _play(args: argparse.Namespace) -> int:
    seed = args.seed if args.seed is not None else int(time.time())
    if seed < 0:
        raise KolodaError(f"--seed must not be negative, not {seed}")
    try:
        play_game(
            _options(args),
            seed=seed,
            players=args.players,
            lang=args.lang,
            level=args.level,
            read=input,
            write=print,
        )
    except Quit:
        print(say(args.lang, "Игра прервана.", "Game abandoned."))
        return 1
    return 0


def _simulate(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise KolodaError(f"--seed must not be negative, not {args.seed}")
    options = _options(args)
    with Progress(args.deals, "simulate") as progress:
        result = simulate(options, deals=args.deals, seed=args.seed, players=args.players, progress=progress)
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"deals: {result['deals']}")
    print(f"actions: {result['actions']}")
    print("mean points per seat: " + " ".join(map(str, result["mean_points"])))
    print("mean card points per seat: " + " ".join(map(str, result["mean_card_points"])))
    print(f"contracts made: {result['made']}, bombs: {result['bombs']}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    record = GameRecord.load(args.file, game="thousand")
    try:
        state = replay(record)
    except KolodaError as exc:  # bad options, players or actions: say which file holds them
        raise RecordError(f"{args.file}: {exc}") from None
    lang: Lang = args.lang
    names = [say(lang, f"Игрок {s + 1}", f"Player {s + 1}") for s in range(state.players)]
    scored = ScoredGame(tuple(Player(n, "m") for n in names), state.book)
    print(say(lang, f"Сыграно конов: {len(state.results)}", f"Deals played: {len(state.results)}"))
    if state.results:
        print(markdown_table(scored, lang))
    if state.is_over():
        line = winner_line(scored, lang)
        print(line or say(lang, "Кон окончен.", "The deal is over."))
    else:
        turn = state.current_player
        print(
            say(lang, f"Игра не окончена: ходит {names[turn or 0]}.", f"Not over: {names[turn or 0]} to act.")
        )
    print(say(lang, "Итог: ", "Totals: ") + " ".join(map(str, state.returns())))
    return 0

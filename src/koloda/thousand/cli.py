"""``koloda thousand play``, and what ``simulate`` and ``replay`` print for Thousand (the card game).

The loops take ``read``/``write`` functions, so tests drive a whole game by feeding lines. The bots are
koloda's (:mod:`koloda.bots`): ``choose(view, legal)`` sees only :func:`koloda.thousand.observe.observe`.
The generic commands (``simulate``, ``replay``) are built for every game by :mod:`koloda.cli`.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import RenderableType

from koloda import screen
from koloda.bots.base import LEVELS, Bot
from koloda.cards import Card
from koloda.coach import cli as coach_cli
from koloda.coach.thousand import ThousandRater
from koloda.errors import KolodaError, RequestError
from koloda.game import GameSpec
from koloda.i18n import LANGS, N_, Lang, say
from koloda.options import add_option_arguments
from koloda.seeds import Seed, bot_seed, new_secret
from koloda.term import (
    Quit,
    Read,
    Write,
    ask,
    card_text,
    cards_line,
    colour_enabled,
    moves_asked,
    note_fault,
    refusal,
    track,
)
from koloda.thousand.actions import BID, BOMB, GIVE, MARRY, PASS, action_bid, action_words
from koloda.thousand.observe import ThousandObservation, observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import DealScore, Note, default_names
from koloda.thousand.sheet.scorefile import Player, ScoredGame
from koloda.thousand.sheet.table import screen_table, winner_line
from koloda.thousand.state import ThousandState, new_game

# --- text for people ---------------------------------------------------------------------------------------


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
        you = view.dealer == self.seat
        key = N_("thousand.cli.dealer.you") if you else N_("thousand.cli.dealer")
        self.write(say(lang, key, name=self.names[view.dealer]))
        self.write(say(lang, "thousand.cli.compulsory", name=self.names[first], bid=bid))

    def before(self, state: ThousandState) -> ThousandObservation:
        return observe(state, self.seat)

    def after(self, old: ThousandObservation, state: ThousandState, actor: int, action: int) -> None:
        """Describe ``action`` of ``actor`` using only the seat's views before and after it."""
        lang, name = self.lang, self.names[actor]
        new = observe(state, self.seat)
        same_deal = new.deal == old.deal
        you = actor == self.seat  # "You play for 120", not "You plays"
        if old.phase == "giving":
            gift = next((g for g in new.gifts if g not in old.gifts), None) if same_deal else None
            if gift is not None:
                self.write(f"{name} → {self.names[gift[0]]}: {card_text(gift[1], lang)}")
            else:
                key = N_("thousand.cli.gives.you") if you else N_("thousand.cli.gives")
                self.write(say(lang, key, name=name))
        elif old.phase == "playing":
            self.write(f"{name}: {action_words(action, lang)}")
            if MARRY <= action < PASS:
                trump = new.trump if same_deal else None
                if trump:
                    key = N_("thousand.cli.declares_trump.you") if you else N_("thousand.cli.declares_trump")
                    self.write("  " + say(lang, key, name=name, suit=trump.symbol))
                else:
                    key = N_("thousand.cli.declares.you") if you else N_("thousand.cli.declares")
                    self.write("  " + say(lang, key, name=name))
            if same_deal and sum(new.tricks_won) > sum(old.tricks_won) and new.tricks:
                winner = new.tricks[-1].winner
                if winner is not None:
                    mine = winner == self.seat
                    key = N_("thousand.cli.takes_trick.you") if mine else N_("thousand.cli.takes_trick")
                    self.write("  " + say(lang, key, name=self.names[winner]))
        elif old.phase == "contract" and action != BOMB:
            bid = action_bid(action)
            key = N_("thousand.cli.plays_for.you") if you else N_("thousand.cli.plays_for")
            self.write(say(lang, key, name=name, bid=bid))
        else:
            self.write(f"{name}: {action_words(action, lang)}")
        if same_deal and old.talon is None and new.talon is not None:
            self.write(say(lang, "thousand.cli.talon", cards=cards_line(new.talon, lang)))
        if new.phase == "giving" and old.phase == "bidding":
            declarer = new.declarer if new.declarer is not None else actor
            self.write(say(lang, "thousand.cli.declarer", name=self.names[declarer]))

    def show_turn(self, view: ThousandObservation, legal: list[int], colour: bool = False) -> None:
        """The table before the seat's move: the auction or the contract and trump, the talon when
        shown, the trick on the table and the last one, every player's cards, tricks and score (the one
        to act marked), the hand sorted by suit, and the moves as they are typed."""
        lang, names = self.lang, self.names
        mine = view.dealer == self.seat
        title = say(
            lang,
            N_("thousand.cli.view_title.you") if mine else N_("thousand.cli.view_title"),
            deal=view.deal,
            dealer=names[view.dealer],
        )
        parts: list[RenderableType] = [screen.title(title)]
        bids = ", ".join(
            say(lang, _COMPULSORY if i == 0 else _BID, name=names[s], bid=_bid(b, lang))
            for i, (s, b) in enumerate(view.bids)
        )
        if view.declarer is None:
            parts.append(say(lang, "thousand.cli.bids", bids=bids))
        else:
            contract = view.contract or view.high_bid
            key = (
                N_("thousand.cli.contract.you") if view.declarer == self.seat else N_("thousand.cli.contract")
            )
            parts.append(say(lang, key, name=names[view.declarer], bid=contract))  # not «Играет Вы»
        if view.trump is not None:
            parts.append(screen.cards(say(lang, "thousand.cli.trump", suit=view.trump.symbol), colour))
        if view.talon is not None and view.phase in ("talon", "giving", "contract"):
            parts.append(
                screen.cards(say(lang, "thousand.cli.talon", cards=cards_line(view.talon, lang)), colour)
            )
        if view.tricks:
            last = view.tricks[-1]
            played = ", ".join(f"{names[s]} {card_text(c, lang)}" for s, c in last.cards)
            winner = names[last.winner] if last.winner is not None else "—"
            parts.append(
                screen.cards(say(lang, "thousand.cli.last_trick", cards=played, name=winner), colour)
            )
        if view.trick is not None and view.trick.cards:
            played = ", ".join(f"{names[s]} {card_text(c, lang)}" for s, c in view.trick.cards)
            parts.append(screen.cards(say(lang, "thousand.cli.on_table", cards=played), colour))
        head = [say(lang, key) for key in _COLUMNS]
        rows = [
            [names[p], str(view.hand_sizes[p]), str(view.tricks_won[p]), str(view.totals[p])]
            for p in range(view.players)
        ]
        parts.append(screen.seats_table(head, rows, view.current_player))
        hand = cards_line(_sorted_hand(view.hand), lang)
        parts.append(screen.cards(say(lang, "thousand.cli.your_cards", cards=hand), colour))
        if view.phase == "giving":
            first, second = _opponents(view, names)
            parts.append(say(lang, "thousand.cli.gift_to", first=first, second=second))
        moves = ", ".join(action_words(a, lang) for a in legal)
        parts.append(screen.cards(say(lang, "thousand.cli.you_may", moves=moves), colour))
        self.write("")
        self.write(screen.render(*parts, colour=colour))


_COMPULSORY, _BID = N_("thousand.cli.bid_compulsory"), N_("thousand.cli.bid_by")
#: The columns of the players' table.
_COLUMNS = (
    N_("thousand.cli.col.player"),
    N_("thousand.cli.col.cards"),
    N_("thousand.cli.col.tricks"),
    N_("thousand.cli.col.score"),
)


def _bid(bid: str, lang: Lang) -> str:
    return say(lang, "thousand.action.pass") if bid == "pass" else bid


def _opponents(view: ThousandObservation, names: list[str]) -> tuple[str, str]:
    """Rule G7: gift 1 goes to the next player after the declarer, gift 2 to the one after."""
    n, seat = view.players, view.seat
    assert seat is not None  # the declarer's own observation
    seats = [(seat + s) % n for s in range(1, n) if n == 3 or (seat + s) % n != view.dealer]
    return names[seats[0]], names[seats[1]]


def deal_summary(score: DealScore, names: list[str], lang: Lang) -> str:
    return score.explain(names, lang)


# --- play --------------------------------------------------------------------------------------------------


def play_game(
    options: ThousandOptions,
    *,
    seed: Seed,
    bots: Mapping[int, Bot],
    players: int = 3,
    lang: Lang = "ru",
    read: Read = input,
    write: Write = print,
    colour: bool = False,
) -> ThousandState:
    """A whole game: seat 0 is the person at the keyboard, every other seat is played by its bot."""
    state = new_game(options, players=players, seed=seed)
    names = [say(lang, "term.you"), *(say(lang, "term.bot", seat=i) for i in range(1, players))]
    narrator = Narrator(0, names, lang, write)
    write(say(lang, "thousand.cli.help"))
    narrator.deal_starts(state)
    deals_shown = 0
    while not state.is_over():
        seat = state.current_player
        assert seat is not None
        old = narrator.before(state)
        legal = state.legal_actions()
        if seat == 0:
            narrator.show_turn(old, legal, colour)
            moves = [action_words(a, lang) for a in legal]

            def take(line: str, moves: list[str] = moves) -> int:
                moves_asked(line, moves)
                try:
                    action = state.parse_action(line)
                    state.apply(action)  # an illegal move raises with the reason; the prompt repeats
                except KolodaError as exc:
                    raise refusal(exc, [action_words(a, lang) for a in state.legal_actions()]) from None
                return action

            action = ask("> ", take, read=read, write=write, lang=lang, complete=moves, blank_asks_again=True)
        else:
            action = bots[seat].choose(observe(state, seat), legal)
            state.apply(action)
        narrator.after(old, state, seat, action)
        results = state.results
        if len(results) > deals_shown:
            deals_shown = len(results)
            score = results[-1][1]
            write("")
            write(deal_summary(score, names, lang))
            scored = ScoredGame(tuple(Player(n, "m") for n in names), state.book)
            write(screen_table(scored, lang))
            if not state.is_over():
                narrator.deal_starts(state)
    line = winner_line(ScoredGame(tuple(Player(n, "m") for n in names), state.book), lang)
    if line:
        write(line)
    return state


# --- simulate ----------------------------------------------------------------------------------------------


def simulate(
    options: ThousandOptions, *, deals: int, seed: int, players: int = 3, progress: bool = False
) -> dict[str, Any]:
    """Random bots play ``deals`` deals (games from seeds ``seed``, ``seed + 1``... as games end)."""
    if type(deals) is not int or deals < 1:
        raise RequestError(f"--deals must be a positive number, not {deals!r}", field="deals")
    rng = random.Random(seed)
    actions = 0
    points = [0] * players
    cards = [0] * players
    made = bombs = 0
    game_seed = seed
    state = new_game(options, players=players, seed=game_seed)
    played = 0
    start = time.perf_counter()
    counter = iter(track(range(deals), deals, "simulate") if progress else range(deals))
    while played < deals:
        next(counter)
        if state.is_over():
            game_seed += 1
            state = new_game(options, players=players, seed=game_seed)
        before = state.deals_played  # not len(state.results): that copies every deal at every action
        while state.deals_played == before and not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        last = state.last_result
        assert last is not None  # a deal was just finished
        deal, score = last
        played += 1
        made += bool(score.made)
        bombs += deal.bomb
        for seat in range(players):
            points[seat] += score.delta[seat]
            cards[seat] += deal.points[seat] if deal.points else 0
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


# --- whole games between bots (koloda.simulate) -----------------------------------------------------------

#: The contract bands of ``simulate --bots`` (issue 14): the compulsory 100, then ranges of contracts.
BANDS: tuple[tuple[str, int, int], ...] = (
    ("100", 0, 100),
    ("105-120", 101, 120),
    ("125-150", 121, 150),
    ("155-200", 151, 200),
    ("205+", 201, 10**6),
)


def _band(bid: int) -> str:
    return next(name for name, low, high in BANDS if low <= bid <= high)


def match_figures(state: ThousandState) -> dict[str, Any]:
    """The counts of one game: contracts played and made (overall, by band, after a forced auction),
    auctions and those that ended at the compulsory bid with both others passing, contracts raised after
    the talon, bombs, and climbs onto and falls off the barrel."""
    out: dict[str, Any] = {
        "contracts_played": 0,
        "contracts_made": 0,
        "auctions": 0,
        "forced_minimum": 0,
        "forced_played": 0,
        "forced_made": 0,
        "raises": 0,
        "bombs": 0,
        "barrel_entries": 0,
        "barrel_falls": 0,
        "bands": {name: {"played": 0, "made": 0} for name, _, _ in BANDS},
    }
    auctions = _auctions(state.history, state.options.min_bid)
    for (deal, score), (forced, high) in zip(state.results, auctions, strict=False):
        out["auctions"] += 1
        out["forced_minimum"] += forced
        if deal.bomb:
            out["bombs"] += 1
        else:
            made = bool(score.made)
            out["contracts_played"] += 1
            out["contracts_made"] += made
            out["forced_played"] += forced
            out["forced_made"] += forced and made
            out["raises"] += deal.bid > high
            band = out["bands"][_band(deal.bid)]
            band["played"] += 1
            band["made"] += made
        for notes in score.notes:
            out["barrel_entries"] += Note.BARREL_ON in notes
            out["barrel_falls"] += Note.BARREL_FALL in notes
    return out


def _auctions(history: Sequence[int], low: int) -> list[tuple[bool, int]]:
    """Per deal of a history: whether its auction was two passes (the first hand left at the compulsory
    bid), and its highest bid."""
    out: list[tuple[bool, int]] = []
    stage = "play"
    bids: list[int] = []
    for action in history:
        bidding = action == PASS or BID <= action < GIVE
        if stage == "play" and bidding:
            stage, bids = "bidding", []
        if stage == "bidding":
            if bidding:
                bids.append(action)
                continue
            high = max([low, *(action_bid(a) for a in bids if a != PASS)])
            out.append((bids == [PASS, PASS], high))
            stage = "talon"
        if action == BOMB or action < PASS:
            stage = "play"
        elif stage == "talon" and BID <= action < GIVE:
            stage = "play"  # the contract
    return out


def match_lines(figures: Mapping[str, Any], lang: Lang) -> list[str]:
    """The figures of :func:`match_figures`, summed over the games, for people."""

    def share(part: int, whole: int) -> str:
        return f"{100 * part / whole:.0f}%" if whole else "-"

    played, made = figures["contracts_played"], figures["contracts_made"]
    lines = [say(lang, "thousand.simulate.contracts", played=played, made=made, share=share(made, played))]
    for name, band in figures["bands"].items():
        if band["played"]:
            lines.append(
                say(
                    lang,
                    "thousand.simulate.band",
                    band=name,
                    played=band["played"],
                    made=band["made"],
                    share=share(band["made"], band["played"]),
                )
            )
    auctions, forced = figures["auctions"], figures["forced_minimum"]
    lines += [
        say(
            lang, "thousand.simulate.forced", auctions=auctions, forced=forced, share=share(forced, auctions)
        ),
        say(
            lang,
            "thousand.simulate.forced_made",
            played=figures["forced_played"],
            made=figures["forced_made"],
            share=share(figures["forced_made"], figures["forced_played"]),
        ),
        say(lang, "thousand.simulate.raises", raises=figures["raises"], bombs=figures["bombs"]),
        say(
            lang, "thousand.simulate.barrel", entries=figures["barrel_entries"], falls=figures["barrel_falls"]
        ),
    ]
    return lines


# --- the commands ------------------------------------------------------------------------------------------


def add_commands(commands: Any, spec: GameSpec) -> None:
    """Add ``koloda thousand play`` and ``koloda thousand analyse`` (the coach, docs/analysis.md)."""
    play = commands.add_parser("play", help="play a whole game in the terminal against two bots")
    add_option_arguments(play, ThousandOptions)
    play.add_argument("--players", type=int, choices=(3, 4), default=3, help="3, or 4 with a sitting dealer")
    play.add_argument(
        "--seed", type=int, help="a number to shuffle from, to play a deal again (default: a secret seed)"
    )
    play.add_argument("--lang", choices=LANGS, default="ru", help="interface language (default ru)")
    play.add_argument(
        "--level", choices=tuple(LEVELS), default="medium", help="the bots' level (default medium)"
    )
    play.set_defaults(func=lambda args: _play(args, spec))
    coach_cli.add_command(commands, spec, ThousandRater)


def simulate_lines(result: Mapping[str, Any]) -> list[str]:
    """The figures of :func:`simulate` for people."""
    return [
        f"deals: {result['deals']}",
        f"actions: {result['actions']}",
        "mean points per seat: " + " ".join(map(str, result["mean_points"])),
        "mean card points per seat: " + " ".join(map(str, result["mean_card_points"])),
        f"contracts made: {result['made']}, bombs: {result['bombs']}",
    ]


def _play(args: argparse.Namespace, spec: GameSpec) -> int:
    if args.seed is not None and args.seed < 0:
        raise RequestError(f"--seed must not be negative, not {args.seed}", field="seed")
    seed: Seed = args.seed if args.seed is not None else new_secret()  # a number only when asked for
    options = ThousandOptions.preset(args.preset).with_assignments(args.option)
    bots = {
        seat: spec.guarded_bot(args.level, bot_seed(seed, seat), options, on_fault=note_fault)
        for seat in range(1, args.players)
    }
    try:
        play_game(
            options,
            seed=seed,
            bots=bots,
            players=args.players,
            lang=args.lang,
            read=input,
            write=print,
            colour=colour_enabled(),
        )
    except Quit:  # leaving is no error: status 0, as every game's terminal (koloda bank play, banki, sheet)
        print(say(args.lang, "term.abandoned"))
    return 0


def replay_summary(state: ThousandState, lang: Lang) -> str:
    """The deals played, the score table, and the winner or who is to act."""
    names = default_names(state.players, lang)
    scored = ScoredGame(tuple(Player(n, "m") for n in names), state.book)
    lines = [say(lang, "thousand.cli.deals_played", n=len(state.results))]
    if state.results:
        lines.append(screen_table(scored, lang))
    if state.is_over():
        line = winner_line(scored, lang)
        lines.append(line or say(lang, "thousand.cli.deal_over"))
    else:
        turn = state.current_player
        lines.append(say(lang, "thousand.cli.not_over", name=names[turn or 0]))
    lines.append(say(lang, "thousand.cli.totals", totals=" ".join(map(str, state.returns()))))
    return "\n".join(lines)

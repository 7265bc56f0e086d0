"""Thousand in the game registry: how every front end builds, shows and plays it (docs/architecture.md).

>>> from koloda.registry import get
>>> thousand = get("thousand")
>>> thousand.titles["ru"], thousand.player_counts, thousand.action_text(thousand.parse_action("бомба"))
('Тысяча', (3, 4), 'bomb')
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from koloda.bots import thousand as bots
from koloda.bots.base import Bot, BotSpec
from koloda.errors import OptionsError
from koloda.game import Dealt, GameRecord, GameSpec, GameState, Scope
from koloda.i18n import LANGS, Lang, say
from koloda.options import Options
from koloda.seeds import Seed
from koloda.thousand import cli
from koloda.thousand.actions import BOMB, NUM_ACTIONS, action_text, action_words, parse_action
from koloda.thousand.deal import deal_label
from koloda.thousand.observe import ThousandObservation, observe
from koloda.thousand.options import ThousandOptions
from koloda.thousand.sheet import cli as sheet_cli
from koloda.thousand.sheet.scorefile import Player, ScoredGame
from koloda.thousand.sheet.table import page_table
from koloda.thousand.state import ThousandState, audit, new_game, replay
from koloda.thousand.worlds import redeal_hidden

if TYPE_CHECKING:
    from koloda.tensor import TensorEncoder


class ThousandSpec(GameSpec):
    """The card game Thousand (docs/rules/thousand.md, Part II) and its score sheet (Part I)."""

    name = "thousand"
    titles: ClassVar[Mapping[Lang, str]] = {lang: say(lang, "thousand.title") for lang in LANGS}
    player_counts = (3, 4)
    default_players = 3
    options_class = ThousandOptions
    num_actions = NUM_ACTIONS
    # docs/bots.md, "Levels": the levels differ in what they compute, never in random moves; the bots of
    # November 2026 stay as fixed opponents for tournaments (not offered at tables)
    levels: ClassVar[Mapping[str, str]] = {
        "easy": "heuristic:samples=8",
        "medium": "search:iters=48:endgame=4:samples=24",
        "hard": "search:iters=160:endgame=6:samples=48:talon=12",
        "medium-2026-11": "heuristic:version=2026-11",
        "hard-2026-11": "search:iters=50:version=2026-11",
    }

    def new_game(
        self, options: Options | None = None, *, players: int, seed: Seed, scope: Scope = "match"
    ) -> ThousandState:
        opts = self.own_options(options, ThousandOptions)
        return new_game(opts, players=players, seed=seed, scope=scope)

    def replay(self, record: GameRecord) -> ThousandState:
        return replay(record)

    def dealt(self, state: GameState) -> Dealt | None:
        s = self.own_state(state, ThousandState)
        number = s.dealt_from
        if number is None:
            return None  # the explicit first deal, as given
        seats = tuple(seat for seat in range(s.players) if s.players == 3 or seat != s.dealer)  # rule G2
        return Dealt(deal_label(number), s.dealer, seats)

    def observe(self, state: GameState, seat: int | None) -> ThousandObservation:
        return observe(self.own_state(state, ThousandState), seat)

    def redeal_hidden(self, state: GameState, seat: int | None, rng: random.Random) -> ThousandState:
        return redeal_hidden(self.own_state(state, ThousandState), seat, rng)

    def audit(self, state: GameState) -> list[str]:
        return audit(self.own_state(state, ThousandState))

    def action_text(self, action: int) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> int:
        return parse_action(text)

    def action_words(self, action: int, lang: Lang) -> str:
        return action_words(action, lang)

    def encoder(self) -> TensorEncoder:
        from koloda.thousand.tensor import ThousandEncoder  # NumPy: only the research interfaces need it

        return ThousandEncoder()

    def deals_played(self, state: GameState) -> int:
        return self.own_state(state, ThousandState).deals_played

    def winner(self, state: GameState) -> int | None:
        return self.own_state(state, ThousandState).winner

    def make_bot(self, spec: BotSpec, seed: int, options: Options | None) -> Bot:
        opts = self.own_options(options, ThousandOptions)
        if spec.version not in (None, "2026-11"):
            raise OptionsError(f"bad bot spec {str(spec)!r}: Thousand's bots have the version 2026-11 only")
        return bots.make_bot(spec, seed, opts)

    def simulate(
        self, options: Options, *, players: int, deals: int, seed: int, progress: bool = False
    ) -> dict[str, Any]:
        opts = self.own_options(options, ThousandOptions)
        self.check_players(players)
        return cli.simulate(
            opts or ThousandOptions(), deals=deals, seed=seed, players=players, progress=progress
        )

    def simulate_lines(self, figures: Mapping[str, Any]) -> list[str]:
        return cli.simulate_lines(figures)

    def match_figures(self, state: GameState) -> dict[str, Any]:
        return cli.match_figures(self.own_state(state, ThousandState))

    def match_lines(self, figures: Mapping[str, Any], lang: Lang) -> list[str]:
        return cli.match_lines(figures, lang)

    def replay_summary(self, state: GameState, lang: Lang) -> str:
        return cli.replay_summary(self.own_state(state, ThousandState), lang)

    def scores(self, state: GameState, names: Sequence[str]) -> dict[str, Any]:
        """The seed's score table in both languages and the chart (public: finished deals only)."""
        book = self.own_state(state, ThousandState).book
        return page_table(ScoredGame(tuple(Player.named(name) for name in names), book))

    def deal_scores(self, state: GameState, index: int) -> tuple[int, ...]:
        return tuple(self.own_state(state, ThousandState).results[index][1].delta)

    def deal_declarer(self, state: GameState, index: int) -> tuple[int, bool | None]:
        deal, score = self.own_state(state, ThousandState).results[index]
        return deal.declarer, score.made

    def names_contract(self, state: GameState, action: int) -> bool:
        return self.own_state(state, ThousandState).phase == "contract" and action != BOMB

    def rater(self, options: Options, **settings: Any) -> Any:
        """The coach's rater (docs/analysis.md), for the web app."""
        from koloda.coach.thousand import ThousandRater  # the coach imports the bots: only when asked

        return ThousandRater(options, **settings)

    def add_commands(self, commands: Any) -> None:
        cli.add_commands(commands, self)
        sheet_cli.add_commands(commands)

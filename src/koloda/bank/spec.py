"""Bank in the game registry: how every front end builds, shows and plays it (docs/architecture.md).

>>> from koloda.registry import get
>>> bank = get("bank")
>>> bank.titles["ru"], bank.player_counts, bank.parse_action("пас") == bank.parse_action("pass")
('Банк', (2, 3, 4), True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from koloda.bank import cli
from koloda.bank.actions import action_text, action_words, parse_action
from koloda.bank.deal import deal_label
from koloda.bank.observe import BankObservation, observe
from koloda.bank.options import BankOptions
from koloda.bank.state import BankState, audit, new_game, replay
from koloda.bank.tables import NUM_ACTIONS
from koloda.bank.worlds import redeal_hidden
from koloda.bots import bank as bots
from koloda.bots.base import Bot, BotSpec
from koloda.charts import chart
from koloda.errors import OptionsError
from koloda.game import Dealt, GameRecord, GameSpec, GameState, Scope
from koloda.i18n import LANGS, Lang, say
from koloda.options import Options
from koloda.seeds import Seed

if TYPE_CHECKING:
    from koloda.tensor import TensorEncoder


class BankSpec(GameSpec):
    """The card game Bank (docs/rules/bank.md)."""

    name = "bank"
    titles: ClassVar[Mapping[Lang, str]] = {lang: say(lang, "bank.title") for lang in LANGS}
    player_counts = (2, 3, 4)
    default_players = 3
    options_class = BankOptions
    num_actions = NUM_ACTIONS
    # docs/bots.md, "Levels": Bank's search needs more playouts to beat its heuristic (performance.md)
    levels: ClassVar[Mapping[str, str]] = {
        "easy": "heuristic:noise=0.3",
        "medium": "heuristic",
        "hard": "search:iters=100",
    }

    def new_game(
        self, options: Options | None = None, *, players: int, seed: Seed, scope: Scope = "match"
    ) -> BankState:
        return new_game(self.own_options(options, BankOptions), players=players, seed=seed, scope=scope)

    def replay(self, record: GameRecord) -> BankState:
        return replay(record)

    def dealt(self, state: GameState) -> Dealt | None:
        s = self.own_state(state, BankState)
        if s.deal_no == 0 or (s.deal_no == 1 and s.explicit_deal is not None):
            return None  # trumps being chosen before the first deal (rule 3.2), or the deal laid out
        return Dealt(deal_label(s.deal_no), s.dealer, s.active)

    def observe(self, state: GameState, seat: int | None) -> BankObservation:
        return observe(self.own_state(state, BankState), seat)

    def redeal_hidden(self, state: GameState, seat: int | None, rng: random.Random) -> BankState:
        return redeal_hidden(self.own_state(state, BankState), seat, rng)

    def audit(self, state: GameState) -> list[str]:
        return audit(self.own_state(state, BankState))

    def action_text(self, action: int) -> str:
        return action_text(action)

    def parse_action(self, text: str) -> int:
        return parse_action(text)

    def action_words(self, action: int, lang: Lang) -> str:
        return action_words(action, lang)

    def encoder(self) -> TensorEncoder:
        from koloda.bank.tensor import BankEncoder  # NumPy: only the research interfaces need it

        return BankEncoder()

    def deals_played(self, state: GameState) -> int:
        return self.own_state(state, BankState).deals_played

    def winner(self, state: GameState) -> int | None:
        return self.own_state(state, BankState).winner

    def make_bot(self, spec: BotSpec, seed: int, options: Options | None) -> Bot:
        opts = self.own_options(options, BankOptions)
        if spec.version is not None:
            raise OptionsError(f"bad bot spec {str(spec)!r}: Bank's bots have no older versions")
        if spec.kind == "heuristic":
            return bots.BankHeuristicBot(seed, noise=spec.noise, options=opts)
        return bots.make_search_bot(spec, seed, opts)

    def simulate(
        self, options: Options, *, players: int, deals: int, seed: int, progress: bool = False
    ) -> dict[str, Any]:
        opts = self.own_options(options, BankOptions)
        assert opts is not None
        return cli.simulate(opts, players, deals, seed, progress=progress)

    def simulate_lines(self, figures: Mapping[str, Any]) -> list[str]:
        return cli.simulate_lines(figures)

    match_name = "matches"

    def match_figures(self, state: GameState) -> dict[str, Any]:
        """The deals of one simulated match that ended stuck (rule 7.8)."""
        return {"stuck_deals": sum(result.stuck for result in self.own_state(state, BankState).results)}

    def match_lines(self, figures: Mapping[str, Any], lang: Lang) -> list[str]:
        return [say(lang, "bank.simulate.stuck", stuck=figures["stuck_deals"], deals=figures["deals"])]

    def replay_summary(self, state: GameState, lang: Lang) -> str:
        return cli.replay_summary(self.own_state(state, BankState), lang)

    def scores(self, state: GameState, names: Sequence[str]) -> dict[str, Any]:
        """The deal results (public) and the chart of the totals after each deal."""
        bank = self.own_state(state, BankState)
        results = [result.to_json() for result in bank.results]
        totals = [result["totals"] for result in results]
        return {"results": results, "chart": chart(names, totals, target=bank.options.target)}

    def deal_scores(self, state: GameState, index: int) -> tuple[int, ...]:
        return self.own_state(state, BankState).results[index].scores

    def rater(self, options: Options, **settings: Any) -> Any:
        """The coach's rater (docs/analysis.md), for the web app."""
        from koloda.coach.bank import BankRater  # the coach imports the bots: only when asked

        return BankRater(options, **settings)

    def add_commands(self, commands: Any) -> None:
        cli.add_commands(commands, self)

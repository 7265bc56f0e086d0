"""Game health and speed by uniformly random play (docs/rules/bank.md, "Game health").

Rerun the figures with ``python -m koloda.bank.health [DEALS] [MATCHES]``; the benchmark reuses
:func:`random_playout_speed`.

>>> figures = measure(3, deals=20, matches=2, seed=1)
>>> figures.players, figures.deals, 0 <= figures.stuck_share <= 1
(3, 20, True)
"""

from __future__ import annotations

import random
import sys
import time
from dataclasses import dataclass

from koloda.bank.options import BankOptions
from koloda.bank.state import new_game


@dataclass(frozen=True)
class HealthFigures:
    """Averages over random deals (and matches) for one player count and one set of options."""

    players: int
    deals: int
    actions_per_deal: float
    stuck_share: float  # deals that ended with every player still in failing (rule 6.2)
    cards_left: float  # cards in all hands at the end of a deal
    points_per_seat: float  # deal score per seat per deal
    seat_bias: float  # highest minus lowest mean deal score by seat position from the dealer's left
    deals_per_match: float  # to the target (rule 8.1); 0 when no matches were played
    unfinished_matches: int  # matches cut at the bound of 200 deals


def measure(
    players: int, deals: int = 2000, matches: int = 200, seed: int = 0, options: BankOptions | None = None
) -> HealthFigures:
    """Play ``deals`` single random deals and ``matches`` random matches, seeded, and average them."""
    opts = options if options is not None else BankOptions()
    rng = random.Random(seed)
    actions = stuck = cards_left = 0
    by_position = [0] * players
    for k in range(deals):
        state = new_game(opts, players=players, seed=seed * 1_000_003 + k, scope="deal")
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
            actions += 1
        result = state.results[-1]
        stuck += result.stuck
        cards_left += sum(h.bit_count() for h in state.hands)
        for p in range(players):
            by_position[(p - result.dealer - 1) % players] += result.scores[p]
    lengths = []
    unfinished = 0
    for k in range(matches):
        state = new_game(opts, players=players, seed=seed * 1_000_003 + 500_000 + k, scope="match")
        while not state.is_over() and state.deal_no <= 200:
            state.apply(rng.choice(state.legal_actions()))
        if state.is_over():
            lengths.append(state.deal_no)
        else:
            unfinished += 1
    means = [total / deals for total in by_position]
    return HealthFigures(
        players,
        deals,
        actions / deals,
        stuck / deals,
        cards_left / deals,
        sum(means) / players,
        max(means) - min(means),
        sum(lengths) / len(lengths) if lengths else 0.0,
        unfinished,
    )


def random_playout_speed(players: int, actions: int = 200_000, seed: int = 0) -> float:
    """Actions per second of ``legal_actions()`` + a seeded random choice + ``apply()`` over whole matches."""
    rng = random.Random(seed)
    choice = rng.choice
    done = 0
    game = 0
    start = time.perf_counter()
    while done < actions:
        state = new_game(players=players, seed=seed + game)
        game += 1
        while not state.is_over():
            state.apply(choice(state.legal_actions()))
            done += 1
    return done / (time.perf_counter() - start)


def table(deals: int = 2000, matches: int = 200, options: BankOptions | None = None) -> str:
    """The "Game health" table of the rules document, as Markdown."""
    rows = [
        "| players | actions per deal | deals ending stuck | cards left in hands | points per seat per deal "
        "| deals per match to target | seat bias (points a deal) |",
        "|---|---|---|---|---|---|---|",
    ]
    for players in (2, 3, 4):
        f = measure(players, deals, matches, options=options)
        rows.append(
            f"| {players} | {f.actions_per_deal:.0f} | {f.stuck_share:.0%} | {f.cards_left:.1f} "
            f"| {f.points_per_seat:.0f} | {f.deals_per_match:.1f} | {f.seat_bias:.1f} |"
        )
    return "\n".join(rows)


def main(argv: list[str]) -> None:
    deals = int(argv[0]) if argv else 2000
    matches = int(argv[1]) if len(argv) > 1 else 200
    preset = argv[2] if len(argv) > 2 else "default"
    print(f"preset {preset}, {deals} deals and {matches} matches per player count")
    print(table(deals, matches, BankOptions.preset(preset)))
    for players in (2, 3, 4):
        print(f"{players} players: {random_playout_speed(players):,.0f} actions/s")


if __name__ == "__main__":
    main(sys.argv[1:])

"""Game health and speed by uniformly random play (docs/bank-health.md; speed: docs/performance.md).

``python -m koloda.bank.health [DEALS] [MATCHES] [PRESET] [--option KEY=VALUE ...]`` prints the health table
of one set of options and the speed; ``python -m koloda.bank.health --page [DEALS] [MATCHES]`` prints the
tables of the health page (every preset and every reading offered as an option, :data:`READINGS`). The
benchmark reuses :func:`random_playout_speed`.

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
    unfinished_matches: int  # matches that never reached the target: ended by rule 8.3's deal limit


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
        if state.is_over() and max(state.totals) >= opts.target:
            lengths.append(state.deal_no)
        else:
            unfinished += 1  # ended by the deal limit of rule 8.3, nobody at the target (or cut at 200)
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


HEADER = (
    "| players | actions per deal | deals ending stuck | cards left in hands | points per seat per deal "
    "| deals per match to target | unfinished matches | seat bias (points a deal) | deals it changes |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def changed_share(
    players: int, options: BankOptions, base: BankOptions, deals: int = 2000, seed: int = 0
) -> float:
    """The share of random deals that ``options`` play or score otherwise than ``base``: both play the same
    shuffle with the same random choices until their legal actions first differ, or compare the scores."""
    changed = 0
    for k in range(deals):
        rng = random.Random(k)
        a = new_game(base, players=players, seed=seed * 1_000_003 + k, scope="deal")
        b = new_game(options, players=players, seed=seed * 1_000_003 + k, scope="deal")
        while not a.is_over() and not b.is_over():
            legal = a.legal_actions()
            if legal != b.legal_actions():
                break
            action = rng.choice(legal)
            a.apply(action)
            b.apply(action)
        changed += not (a.is_over() and b.is_over() and a.results[-1].scores == b.results[-1].scores)
    return changed / deals


def table(
    deals: int = 2000, matches: int = 200, options: BankOptions | None = None, base: BankOptions | None = None
) -> str:
    """The health table of one set of options, as Markdown: a row per number of players; with ``base``,
    the share of deals they change against it (:func:`changed_share`)."""
    rows = [HEADER]
    for players in (2, 3, 4):
        f = measure(players, deals, matches, options=options)
        changes = (
            "" if base is None else f"{changed_share(players, options or BankOptions(), base, deals):.1%}"
        )
        rows.append(
            f"| {players} | {f.actions_per_deal:.0f} | {f.stuck_share:.0%} | {f.cards_left:.1f} "
            f"| {f.points_per_seat:.0f} | {f.deals_per_match:.1f} | {f.unfinished_matches} of {matches} "
            f"| {f.seat_bias:.1f} | {changes} |"
        )
    return "\n".join(rows)


#: The readings the health page measures one at a time against the defaults: (what, preset, assignments).
READINGS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("the defaults", "default", ()),
    ("rule 4.5: any move after an 8 (before record version 2)", "default", ("eight_follow=any",)),
    ("rule 4.5: the card after an 8 covers the card beneath", "default", ("eight_then=cover-beneath",)),
    (
        "rule 4.5: beneath, without the lenient opening after an 8",
        "default",
        ("eight_then=cover-beneath", "eight_opening=strict"),
    ),
    ("rule 4.6: the extra move after four of a kind compulsory", "default", ("four_extra_move=compulsory",)),
    ("rule 4.7: runs of any suits", "default", ("runs=any-suits",)),
    ("rule 4.7: an optional extra move after a run", "default", ("run_extra_move=true",)),
    (
        "rule 4.7: a compulsory extra move after a run",
        "default",
        ("run_extra_move=true", "run_extra=compulsory"),
    ),
    ("rule 4.8: a 7 that took four kings still acts", "default", ("seven_captured=acts",)),
    ("rule 5.4: four kings taken after an 8's card", "default", ("four_kings_capture=after-move",)),
    ("rule 5.4: four kings taken by anyone", "default", ("four_kings=anyone",)),
    ("rule 5.5: a trump king alone takes its one-card bank", "default", ("trump_king_alone=taken",)),
    ("rule 3.2: trumps chosen in turn before the deal", "default", ("trump_choice=in-turn",)),
    ("rule 3.2: trumps chosen in turn after the deal", "default", ("trump_choice=in-turn-after-deal",)),
    ("rule 7.7: hand points and a fine of 31", "default", ("penalty=hand-points-and-fine",)),
    ("rule 7.7: a flat fine of 31", "default", ("penalty=flat-fine",)),
    (
        "rule 7.7: the fine of 31 only for a pointless hand",
        "default",
        ("penalty=hand-points-and-fine", "fine=fixed-zero-only"),
    ),
    (
        "rule 7.7: 3 a card only for zero-point cards",
        "default",
        ("penalty=hand-points-and-fine", "fine=per-card-zero-only"),
    ),
    ("rule 7.7: split (both halves)", "default", ("penalty=hand-points-and-fine", "fine=split")),
    ("rule 7.8: the loser pays, a stuck deal's loser holding most points", "default", ("penalty_who=loser",)),
    (
        "rule 7.8: the loser pays, nobody after a stuck end",
        "default",
        ("penalty_who=loser", "stuck_payer=nobody"),
    ),
    ("rule 2.2: a stuck deal has no loser to deal next", "default", ("stuck_loser=nobody",)),
    (
        "rule 7.8: the loser pays, a stuck deal has none (`stuck_loser=nobody` before record version 3)",
        "default",
        ("penalty_who=loser", "stuck_payer=nobody", "stuck_loser=nobody"),
    ),
    (
        "rule 7.8: the loser pays, the loser the lowest score",
        "default",
        ("penalty_who=loser", "loser=lowest-score"),
    ),
    ("rule 7.8: the fine of 31 paid by the loser (`fine-31`)", "fine-31", ()),
    ("rule 7.8: the fine of 31, nobody fined after a stuck end", "fine-31", ("stuck_payer=nobody",)),
    (
        "rule 7.8: the fine of 31, a stuck deal has no loser",
        "fine-31",
        ("stuck_payer=nobody", "stuck_loser=nobody"),
    ),
    ("rule 8.2: the tie deal for the tied only", "default", ("tie=tied-only",)),
    (
        "rule 8.2: the tie deal for the tied only, dealt by one of them",
        "default",
        ("tie=tied-only", "tie_dealer=tied"),
    ),
    ("no trumps (`no-trumps`)", "no-trumps", ()),
    ("one trump for all (`one-trump`)", "one-trump", ()),
    ("two trumps for all (`two-trumps`)", "two-trumps", ()),
    ("senior and junior trumps (`senior-junior`)", "senior-junior", ()),
    ("the strict opening (`strict`)", "strict", ()),
    ("no penalty (`no-penalty`)", "no-penalty", ()),
    ("the literal readings (`literal`)", "literal", ()),
    ("the literal readings with any move after an 8", "literal", ("eight_follow=any",)),
)


def page(deals: int = 2000, matches: int = 200) -> str:
    """The tables of the health page, one per reading of :data:`READINGS`; "deals it changes" compares a
    reading with the same options without its last assignment (a preset: with the defaults)."""
    parts = []
    for what, preset, assignments in READINGS:
        base = BankOptions.preset(preset)
        options = base.with_assignments(assignments)
        how = " ".join([f"--preset {preset}", *(f"--option {a}" for a in assignments)])
        against = base.with_assignments(assignments[:-1]) if assignments else BankOptions()
        parts.append(f"### {what}\n\n`{how}`\n\n{table(deals, matches, options, against)}\n")
    return "\n".join(parts)


def main(argv: list[str]) -> None:
    args = list(argv)
    assignments = []
    while "--option" in args:
        at = args.index("--option")
        assignments.append(args[at + 1])
        del args[at : at + 2]
    if args and args[0] == "--page":
        deals = int(args[1]) if len(args) > 1 else 2000
        matches = int(args[2]) if len(args) > 2 else 200
        print(page(deals, matches))
        return
    deals = int(args[0]) if args else 2000
    matches = int(args[1]) if len(args) > 1 else 200
    preset = args[2] if len(args) > 2 else "default"
    options = BankOptions.preset(preset).with_assignments(assignments)
    print(f"preset {preset} {' '.join(assignments)}, {deals} deals and {matches} matches per player count")
    print(table(deals, matches, options))
    for players in (2, 3, 4):
        print(f"{players} players: {random_playout_speed(players):,.0f} actions/s")


if __name__ == "__main__":
    main(sys.argv[1:])

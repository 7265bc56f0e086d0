"""Property tests of the Thousand scoring: random options and random deal sequences (hypothesis).

Invariants: no crash on a valid deal; a bad deal changes nothing; only a made contract reaches the target;
with the barrel nobody stands between the barrel and the target; defence never lifts a total above the
defender's stop; undo and replay give back the same book.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from koloda.thousand.options import ThousandOptions
from koloda.thousand.scoring import MARRIAGE_VALUES, DealInput, Note, ScoreBook, ScoringError

BARREL_ONLY = ("barrel_deals", "barrel_fall", "barrel_failed")


def barrel_options(fields: dict[str, object]) -> ThousandOptions:
    """Without the barrel its own options keep their defaults (others are refused as having no effect)."""
    if not fields["barrel"]:
        fields = {k: v for k, v in fields.items() if k not in BARREL_ONLY}
    return ThousandOptions(**fields)


options_strategy = st.fixed_dictionaries(
    {
        "rounding": st.sampled_from(["home", "tournament", "russian"]),
        "rule_800": st.sampled_from(["home", "tournament", "off"]),
        "barrel": st.booleans(),
        "barrel_deals": st.sampled_from([None, 1, 3]),
        "barrel_fall": st.sampled_from([0, 120]),
        "barrel_failed": st.sampled_from(["minus_bid", "fall", "both"]),
        "bombs_per_game": st.sampled_from([None, 0, 1, 2]),
        "bid_step": st.sampled_from([5, 10]),
        "bolts": st.sampled_from([None, 2, 3]),
        "dump": st.booleans(),
    }
).map(barrel_options)


def with_house_reset(options: ThousandOptions, reset: bool) -> ThousandOptions:
    return options.replace(barrel_fall_reset=3) if reset and options.barrel else options


def random_deal(rng: random.Random, book: ScoreBook) -> DealInput:
    """A valid deal: the declarer often strong, so that games reach the barrel and the target."""
    players, options = book.players, book.options
    declarer = rng.randrange(players)
    sitting = None
    if players == 4:
        sitting = rng.choice([seat for seat in range(4) if seat != declarer])
    step = options.bid_step
    bid = rng.choice(range(options.min_bid, 125 if rng.random() < 0.9 else 205, step))
    if book.on_barrel(declarer):  # as a real player does: a bid that gets him off the barrel
        need = options.target - book.totals[declarer]
        bid = max(bid, -(-need // step) * step)
    if book.bomb_allowed(declarer) and rng.random() < 0.08:
        return DealInput(declarer=declarer, bid=bid, bomb=True, sitting=sitting)
    playing = [seat for seat in range(players) if seat != sitting]
    points = [0] * players
    points[declarer] = rng.choice([rng.randint(0, 120), rng.randint(90, 120)])
    left = 120 - points[declarer]
    others = [seat for seat in playing if seat != declarer]
    for seat in others[:-1]:
        points[seat] = rng.randint(0, left)
        left -= points[seat]
    points[others[-1]] = left
    if sitting is not None:
        points[sitting] = rng.choice([0, 0, 11, 22, 40])
    marriages: list[tuple[int, ...]] = [() for _ in range(players)]
    for value in MARRIAGE_VALUES:
        if rng.random() < 0.25:
            seat = rng.choice(playing)
            marriages[seat] = (*marriages[seat], value)
    return DealInput(declarer, bid, False, tuple(points), tuple(marriages), sitting)


def bad_deal(rng: random.Random, book: ScoreBook) -> DealInput:
    """A deal broken in one way."""
    good = random_deal(rng, book)
    while good.bomb:
        good = random_deal(rng, book)
    kind = rng.randrange(5)
    if kind == 0:
        return DealInput(good.declarer, good.bid + 1, False, good.points, good.marriages, good.sitting)
    if kind == 1:
        points = list(good.points)
        points[good.declarer] += rng.choice([-3, 5])
        return DealInput(good.declarer, good.bid, False, tuple(points), good.marriages, good.sitting)
    if kind == 2:
        return DealInput(good.declarer, 95, False, good.points, good.marriages, good.sitting)
    if kind == 3:
        marriages: list[tuple[int, ...]] = [() for _ in range(book.players)]
        marriages[good.declarer] = (60, 60)
        return DealInput(good.declarer, good.bid, False, good.points, tuple(marriages), good.sitting)
    return DealInput(good.declarer, good.bid, False, good.points, ((70,),) * book.players, good.sitting)


@settings(max_examples=120, deadline=None)
@given(
    options=options_strategy,
    reset=st.booleans(),
    players=st.sampled_from([3, 3, 4]),
    seed=st.integers(0, 2**32),
)
def test_random_games_keep_the_invariants(
    options: ThousandOptions, reset: bool, players: int, seed: int
) -> None:
    options = with_house_reset(options, reset)
    rng = random.Random(seed)
    book = ScoreBook(options, players)
    for _ in range(150):
        if book.is_over:
            break
        if rng.random() < 0.1:
            before = book.copy()
            try:
                book.apply(bad_deal(rng, book))
            except ScoringError:
                pass
            else:
                raise AssertionError("a bad deal was accepted")
            assert book == before
            continue
        previous = book.totals
        was_on_barrel = [book.on_barrel(seat) for seat in range(players)]
        deal = random_deal(rng, book)
        score = book.apply(deal)
        assert score.total == book.totals
        assert all(p + d == t for p, d, t in zip(previous, score.delta, score.total, strict=True))
        for seat, total in enumerate(score.total):
            if score.winner == seat:
                assert seat == deal.declarer and score.made and total >= options.target
                assert previous[seat] + deal.bid == total
                continue
            assert total < options.target, "only a made contract reaches the target"
            if options.barrel:
                assert total <= options.barrel_threshold, "nobody stands between the barrel and the target"
            if seat != deal.declarer and total > options.defender_cap:
                assert score.delta[seat] <= 0, "defence lifted a total above the defender's stop"
            if seat != deal.declarer and was_on_barrel[seat] and Note.BARREL_FALL not in score.notes[seat]:
                assert score.delta[seat] == 0, "a score on the barrel moved"
            if seat != deal.declarer and seat != deal.sitting and not deal.bomb:
                unit = 5 if options.rounding == "russian" else 10
                assert score.rounded[seat] % unit == 0
    # undo to the start, then replay: the same book
    deals = [score.deal for score in book.deals]
    final = book.copy()
    for _ in deals:
        book.undo()
    assert book.totals == (0,) * players and book.deals == ()
    for deal in deals:
        book.apply(deal)
    assert book == final and book.totals == final.totals


def test_random_games_reach_the_interesting_places() -> None:
    """The generator above does reach the barrel, falls, the 800 line and the end (else it tests little)."""
    seen: set[str] = set()
    rng = random.Random(7)
    for options in (
        ThousandOptions.preset("russian"),
        ThousandOptions(),
        ThousandOptions.preset("tournament"),
    ):
        for _ in range(20):
            book = ScoreBook(options, 3)
            while not book.is_over and len(book.deals) < 300:
                score = book.apply(random_deal(rng, book))
                seen.update(str(note) for notes in score.notes for note in notes)
            assert book.is_over, "a random game did not end in 300 deals"
    assert {"winner", "barrel_on", "barrel_fall", "line_800", "cap", "bomb"} <= seen

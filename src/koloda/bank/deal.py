"""Bank's deal: the trump set-ups (rule 3), the shuffle and deal (rule 2.3), the first mover (rule 4.1),
and explicit deals for setting up any position (docs/api.md, ``from_deal``).

Pure functions over card ids (0-35, :mod:`koloda.bank.tables`); :mod:`koloda.bank.state` calls them.

>>> hands, open_card, stock = shuffle(seed=7, deal_no=1, dealer=0, active=(0, 1, 2), players=3)
>>> [h.bit_count() for h in hands], len(stock), open_card in stock
([4, 4, 4], 23, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from koloda.bank import tables as T
from koloda.bank.options import BankOptions
from koloda.cards import DECK_36, Card, Suit
from koloda.errors import NotationError, RecordError
from koloda.seeds import Draws, Seed, check, draws

Classes = tuple[int, int, int, int]  # per suit: 0 plain, 1 trump, 2 senior trump (rule 3.4)


def seat_classes(setup: str, suits: Sequence[int], players: int) -> list[Classes]:
    """Rule 3: the trump class of every suit as each seat sees it.

    >>> seat_classes("own", (0, 3), 2)
    [(1, 0, 0, 0), (0, 0, 0, 1)]
    """
    out: list[Classes] = []
    for p in range(players):
        classes = [0, 0, 0, 0]
        if setup == "own":
            classes[suits[p]] = 1  # rule 3.2: one's own suit is trump, all others plain for him
        elif setup == "senior-junior":
            classes[suits[0]], classes[suits[1]] = 2, 1  # rule 3.4
        else:
            for s in suits:
                classes[s] = 1
        out.append((classes[0], classes[1], classes[2], classes[3]))
    return out


def deal_label(deal_no: int) -> str:
    """The label of deal ``deal_no``'s stream of a secret seed (koloda.seeds)."""
    return f"bank:deal:{deal_no}"


def trump_suits(opts: BankOptions, players: int, rng: Draws) -> tuple[int, ...]:
    """Rule 3: the trump suits, named in the options or drawn once for the whole match (rule 3.5)."""
    named = tuple(int(s) for s in opts.trump_suit_values())
    if named:
        return named
    suits = [0, 1, 2, 3]
    if opts.trumps == "senior-junior":
        return (int(Suit.SPADES), int(Suit.DIAMONDS))  # rule 3.4: the Lithuanian text's suits
    rng.shuffle(suits)
    count = {"own": players, "none": 0, "one": 1, "two": 2}[opts.trumps]
    return tuple(suits[:count])


def setup_rng(seed: Seed) -> Draws:
    """The stream of the match's set-up (first dealer, trump suits), apart from the shuffles."""
    return draws(seed, "bank:setup", lambda number: random.Random(f"bank:{number}:setup"))


def shuffle(
    *, seed: Seed, deal_no: int, dealer: int, active: tuple[int, ...], players: int
) -> tuple[list[int], int, list[int]]:
    """Rule 2.3: shuffle deal ``deal_no`` from the seed, deal four cards each from the dealer's left,
    then one open card; the rest is the stock (its top at the end of the list). Hands are bitmasks.
    ``koloda/web/static/fair.js`` deals the same way (a player's check of a revealed secret)."""
    deck = list(range(36))
    rng = draws(seed, deal_label(deal_no), lambda number: random.Random(f"bank:{number}:deal:{deal_no}"))
    rng.shuffle(deck)
    order = [(dealer + 1 + k) % players for k in range(players)]
    order = [p for p in order if p in active]
    hands = [0] * players
    for _ in range(4):
        for p in order:
            hands[p] |= 1 << deck.pop()
    open_card = deck.pop()
    return hands, open_card, deck


def first_mover(hands: Sequence[int], active: Sequence[int], open_card: int) -> int | None:
    """Rule 4.1: who holds the nearest lower card of the open card's suit, else the nearest higher;
    ``None`` when nobody holds that suit (then the dealer's left moves first)."""
    suit, rank_ord = open_card // 9, T.FACE_ORD[open_card % 9]
    best_lower: tuple[int, int] | None = None
    best_higher: tuple[int, int] | None = None
    for p in active:
        for c in T.cards_of(hands[p] & T.SUIT_MASK[suit]):
            o = T.FACE_ORD[c % 9]
            if o < rank_ord and (best_lower is None or o > best_lower[0]):
                best_lower = (o, p)
            elif o > rank_ord and (best_higher is None or o < best_higher[0]):
                best_higher = (o, p)
    if best_lower is not None:
        return best_lower[1]
    if best_higher is not None:
        return best_higher[1]
    return None


@dataclass(frozen=True)
class ExplicitDeal:
    """A validated explicit deal (card ids; the stock's top at the end of the list)."""

    hands: tuple[tuple[int, ...], ...]
    open_card: int
    stock: tuple[int, ...]
    dealer: int
    seed: Seed
    totals: tuple[int, ...]
    trump_suits: tuple[str, ...] | None


DEAL_KEYS = ("hands", "open", "stock", "dealer", "trump_suits", "totals", "seed")


def parse_deal(deal: Mapping[str, Any]) -> ExplicitDeal:
    """Validate the JSON layout of an explicit deal (see :func:`koloda.bank.from_deal`).

    >>> parse_deal({"hands": [["7H"], ["9H"]], "open": "8H", "stock": ["AS"], "dealer": 2})
    Traceback (most recent call last):
    ...
    koloda.errors.RecordError: deal 'dealer' must be a seat 0-1, not 2
    """
    if not isinstance(deal, Mapping):
        raise RecordError("a Bank deal must be a JSON object")
    unknown = sorted(set(deal) - set(DEAL_KEYS))
    if unknown:
        raise RecordError(
            f"unknown key {unknown[0]!r} in Bank deal; known keys: {', '.join(sorted(DEAL_KEYS))}"
        )
    for key in ("hands", "open", "stock", "dealer"):
        if key not in deal:
            raise RecordError(f"Bank deal has no {key!r}")
    hands_in = deal["hands"]
    if not isinstance(hands_in, list) or not all(isinstance(h, list) for h in hands_in):
        raise RecordError("deal 'hands' must be a list of card lists, one per seat")
    players = len(hands_in)
    if not 2 <= players <= 4:  # rule 1.1, before the other checks, which count seats
        raise RecordError(f"deal 'hands' must hold one hand per seat for 2-4 players, not {players}")
    seen: set[int] = set()

    def cards(items: list[Any], where: str) -> tuple[int, ...]:
        out = []
        for item in items:
            if not isinstance(item, str):
                raise RecordError(f"deal {where}: a card must be text, not {item!r}")
            try:
                c = Card.parse(item).index
            except NotationError as exc:
                raise RecordError(f"deal {where}: {exc}") from None
            if c in seen:
                raise RecordError(f"deal {where}: card {DECK_36[c]} is dealt twice")
            seen.add(c)
            out.append(c)
        return tuple(out)

    hands = tuple(cards(h, f"hand {p}") for p, h in enumerate(hands_in))
    if any(not h for h in hands):
        raise RecordError("deal 'hands': every seat needs at least one card")
    if not isinstance(deal["open"], str):
        raise RecordError(f"deal 'open' must be one card, not {deal['open']!r}")
    open_card = cards([deal["open"]], "open card")[0]
    if not isinstance(deal["stock"], list):
        raise RecordError("deal 'stock' must be a list of cards, top first")
    stock = cards(deal["stock"], "stock")[::-1]
    dealer = deal["dealer"]
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordError(f"deal 'dealer' must be a seat 0-{players - 1}, not {dealer!r}")
    seed = check(deal.get("seed", 0), "deal 'seed'")
    totals = deal.get("totals", [0] * players)
    if not isinstance(totals, list) or len(totals) != players or any(type(x) is not int for x in totals):
        raise RecordError(f"deal 'totals' must be {players} integers, not {totals!r}")
    suits = deal.get("trump_suits")
    if suits is not None and (not isinstance(suits, list) or not all(isinstance(s, str) for s in suits)):
        raise RecordError(f"deal 'trump_suits' must be a list of suit letters, not {suits!r}")
    return ExplicitDeal(
        hands, open_card, stock, dealer, seed, tuple(totals), None if suits is None else tuple(suits)
    )


def laid_out(
    hands: Sequence[Sequence[int]], open_card: int, stock: Sequence[int], players: int
) -> tuple[list[int], int, list[int]]:
    """An explicit deal's cards as the state holds them: the hands as bitmasks, the open card, the stock
    (its top at the end of the list), each list new."""
    masks = [0] * players
    for p, held in enumerate(hands):
        for c in held:
            masks[p] |= 1 << c
    return masks, open_card, list(stock)


def layout_json(
    hands: Sequence[int],
    open_card: int,
    stock: Sequence[int],
    dealer: int,
    trump_suits: Sequence[int],
    totals: Sequence[int],
) -> dict[str, Any]:
    """The JSON layout of a deal at its start (hands as bitmasks, the stock's top at the end of the list),
    which :func:`parse_deal` reads back."""
    return {
        "hands": [[str(DECK_36[c]) for c in T.cards_of(h)] for h in hands],
        "open": str(DECK_36[open_card]),
        "stock": [str(DECK_36[c]) for c in reversed(stock)],
        "dealer": dealer,
        "trump_suits": [Suit(s).letter for s in trump_suits],
        "totals": list(totals),
    }

"""Thousand's deal: who sits where (rule G2), the shuffle (rule G3), void deals dealt again (rule G4), and
explicit deals for setting up any position (docs/api.md, ``from_deal``).

Pure functions over card ids (0-23, :mod:`koloda.thousand.actions`); the state calls them.

>>> hands, talon = shuffle(seed=1, number=0, dealer=0, players=3)
>>> [h.bit_count() for h in hands], talon.bit_count()
([7, 7, 7], 3)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from koloda.cards import Rank, parse_cards
from koloda.errors import RecordError
from koloda.seeds import Seed, check, draws
from koloda.thousand.actions import ALL_NINES, CARD_IDS, mask_cards, mask_points
from koloda.thousand.options import ThousandOptions


def next_seats(players: int, dealer: int) -> tuple[int, ...]:
    """For each seat the next one to act clockwise; with 4 players the dealer sits out (rule G2)."""
    order = [s for s in range(players) if players == 3 or s != dealer]
    nxt = [0] * players
    for i, seat in enumerate(order):
        nxt[seat] = order[(i + 1) % len(order)]
    if players == 4:
        nxt[dealer] = (dealer + 1) % 4  # the first hand, so that nxt[dealer] works in either case
    return tuple(nxt)


NEXT: dict[tuple[int, int], tuple[int, ...]] = {(n, d): next_seats(n, d) for n in (3, 4) for d in range(n)}


def deal_label(number: int) -> str:
    """The label of shuffle ``number``'s stream of a secret seed (koloda.seeds)."""
    return f"thousand:deal:{number}"


def shuffle(*, seed: Seed, number: int, dealer: int, players: int) -> tuple[list[int], int]:
    """Rule G3: shuffle number ``number`` of the game from its seed (a record replays every deal), seven
    cards to each seat in play from the dealer's left, three to the talon. Hands and talon are bitmasks.
    ``koloda/web/static/fair.js`` deals the same way (a player's check of a revealed secret)."""
    deck = list(range(24))
    draws(seed, deal_label(number), lambda n: random.Random(n * 1_000_003 + number)).shuffle(deck)
    hands = [0] * players
    seat = dealer
    for start in (0, 7, 14):
        seat = NEXT[players, dealer][seat]
        mask = 0
        for c in deck[start : start + 7]:
            mask |= 1 << c
        hands[seat] = mask
    return hands, (1 << deck[21]) | (1 << deck[22]) | (1 << deck[23])


def is_void(options: ThousandOptions, hands: Sequence[int], talon: int) -> bool:
    """Rule G4: whether a deal is void and dealt again (the options say which deals are)."""
    o = options
    for hand in hands:
        if not hand:
            continue  # the sitting dealer's empty hand
        if o.redeal_four_nines and hand & ALL_NINES == ALL_NINES:
            return True
        if mask_points(hand) < o.redeal_hand_under:
            return True
    if mask_points(talon) < o.redeal_talon_under:
        return True
    return o.redeal_talon_two_nines and (talon & ALL_NINES).bit_count() >= 2


def deal_players(deal: Any) -> int:
    if not isinstance(deal, dict) or not isinstance(deal.get("hands"), list):
        raise RecordError("a deal must be a JSON object with 'dealer', 'hands' (a list) and 'talon'")
    return len(deal["hands"])


def parse_deal(deal: Any) -> dict[str, Any]:
    """Validate an explicit deal; return it with hands and talon as bitmasks."""
    players = deal_players(deal)
    unknown = sorted(set(deal) - {"dealer", "hands", "talon", "seed", "redeal", "totals"})
    if unknown:
        raise RecordError(
            f"unknown key {unknown[0]!r} in the deal; known keys: dealer, hands, talon, seed, redeal, totals"
        )
    redeal = deal.get("redeal", False)
    if type(redeal) is not bool:
        raise RecordError(f"the deal's 'redeal' must be true or false, not {redeal!r}")
    if players not in (3, 4):
        raise RecordError(f"a deal needs 3 or 4 hands, not {players}")
    dealer = deal.get("dealer")
    if type(dealer) is not int or not 0 <= dealer < players:
        raise RecordError(f"the deal's 'dealer' must be a seat from 0 to {players - 1}, not {dealer!r}")
    seed = check(deal.get("seed", 0), "the deal's 'seed'")
    seen: dict[int, str] = {}
    masks = []
    for where, text in [
        *((f"hand {i}", h) for i, h in enumerate(deal["hands"])),
        ("talon", deal.get("talon")),
    ]:
        if not isinstance(text, str):
            raise RecordError(f"the deal's {where} must be a string of cards, not {text!r}")
        mask = 0
        for card in parse_cards(text):
            if card.rank < Rank.NINE:
                raise RecordError(f"{card} in the deal's {where} is not in the 24-card deck (9 to ace)")
            c = CARD_IDS[card]
            if c in seen:
                raise RecordError(f"{card} is dealt twice: in the {seen[c]} and the {where}")
            seen[c] = where
            mask |= 1 << c
        masks.append(mask)
    for i, mask in enumerate(masks[:-1]):
        want = 0 if players == 4 and i == dealer else 7
        if mask.bit_count() != want:
            raise RecordError(f"hand {i} of the deal has {mask.bit_count()} cards, not {want}")
    if masks[-1].bit_count() != 3:
        raise RecordError(f"the deal's talon has {masks[-1].bit_count()} cards, not 3")
    parsed = {"dealer": dealer, "hands": masks[:-1], "talon": masks[-1], "seed": seed, "redeal": redeal}
    if "totals" in deal:  # a game taken up where it stands (the score book checks the numbers)
        totals = deal["totals"]
        if not isinstance(totals, list) or len(totals) != players or any(type(t) is not int for t in totals):
            raise RecordError(
                f"the deal's 'totals' must be {players} whole numbers, one a seat, not {totals!r}"
            )
        parsed["totals"] = list(totals)
    return parsed


def deal_to_json(deal: dict[str, Any]) -> dict[str, Any]:
    """The JSON layout of a parsed deal (cards in canonical notation)."""
    out = {
        "dealer": deal["dealer"],
        "hands": [" ".join(map(str, mask_cards(m))) for m in deal["hands"]],
        "talon": " ".join(map(str, mask_cards(deal["talon"]))),
        "seed": deal["seed"],
    }
    if deal.get("redeal"):
        out["redeal"] = True
    if "totals" in deal:
        out["totals"] = list(deal["totals"])
    return out

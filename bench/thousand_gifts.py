"""How much better Thousand's declarer could give his two cards away: a blind but exact chooser.

    python bench/thousand_gifts.py RECORDS_DIR [--games 16] [--pairs 6] [--worlds 24] [--json]

For each contract of the recorded games (``bench/thousand_bots.py --records DIR``), the candidates are the
``--pairs`` best pairs of gifts by the bots' estimator (:func:`koloda.bots.thousand_eval.gift_pairs`) in
both orders, and the pair the declarer gave. Each is valued by solving ``--worlds`` sampled worlds exactly
(the unseen fourteen cards dealt at random to the two opponents, the real deal unseen); the pair that makes
the contract in most worlds is kept. The script prints how many contracts the pairs played and the pairs
kept make double dummy in the real deal: what a better gift decision could add to the share of contracts
made (issue 14), and the seconds such a decision costs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from koloda.bots.thousand_eval import gift_pairs
from koloda.game import GameRecord
from koloda.thousand import solver
from koloda.thousand.actions import BOMB, GIVE, action_bid
from koloda.thousand.deal import NEXT
from koloda.thousand.options import ThousandOptions
from koloda.thousand.state import ThousandState, replay

sys.path.insert(0, str(Path(__file__).resolve().parent))
from thousand_bots import start_of


def makes(kept: int, first: int, second: int, bid: int, options: ThousandOptions) -> bool:
    """Whether the declarer (leading with ``kept``) reaches ``bid`` against these hands, both sides
    perfect."""
    pos = (kept, first, second, 0, -1, -1, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0)
    return solver.solve(pos, solver.rules_of(options, solver.Objective(bid=bid, step=1))) > 0


def gift_makes(
    ten: int, pair: tuple[int, int], one: int, two: int, bid: int, options: ThousandOptions
) -> bool:
    """Whether the ten cards make ``bid`` after giving ``pair`` to the hands ``one`` and ``two``."""
    a, b = pair
    return makes(ten & ~(1 << a) & ~(1 << b), one | 1 << a, two | 1 << b, bid, options)


def _verdicts(
    game: ThousandState, actions: Sequence[int], pairs: int, worlds: int, rng: random.Random
) -> tuple[bool, bool]:
    """At the declarer's gifts: whether the pair he gave, and the pair the chooser keeps, make the contract
    he then named (``actions``: the two gifts and the contract)."""
    seat = game.current_player
    assert seat is not None
    one = NEXT[game.players, game.dealer][seat]
    two = NEXT[game.players, game.dealer][one]
    ten, bid, options = game.hands[seat], action_bid(actions[2]), game.options
    played = ((actions[0] - GIVE) // 2, (actions[1] - GIVE) // 2)
    candidates = {played} | {p for a, b in gift_pairs(ten, 45)[:pairs] for p in ((a, b), (b, a))}
    unseen = [c for c in range(24) if not ten >> c & 1]
    sampled = []
    for _ in range(worlds):
        rng.shuffle(unseen)
        sampled.append((sum(1 << c for c in unseen[:7]), sum(1 << c for c in unseen[7:])))
    count = {p: sum(gift_makes(ten, p, w1, w2, bid, options) for w1, w2 in sampled) for p in candidates}
    chosen = max((count[p], p == played, p) for p in candidates)[2]
    real = (game.hands[one], game.hands[two])
    return gift_makes(ten, played, *real, bid, options), gift_makes(ten, chosen, *real, bid, options)


def contracts(path: Path, pairs: int, worlds: int, rng: random.Random) -> list[tuple[bool, bool]]:
    """Per contract of a recorded game: (the pair played makes it, the pair the chooser keeps makes it)."""
    final = replay(GameRecord.load(path, game="thousand"))
    game = start_of(final)
    history = final.history
    out = []
    i = 0
    while i < len(history):
        if game.phase != "giving":
            game.apply(history[i])
            i += 1
            continue
        if history[i + 2] != BOMB:  # two gifts, then the contract (after a bomb there is none to make)
            out.append(_verdicts(game, history[i : i + 3], pairs, worlds, rng))
        for action in history[i : i + 3]:
            game.apply(action)
        i += 3
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, help="a directory of Thousand game records")
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--pairs", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=24)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    began = time.time()
    rows = [
        row
        for path in sorted(args.records.glob("*.json"))[: args.games]
        for row in contracts(path, args.pairs, args.worlds, rng)
    ]
    seconds = time.time() - began
    result = {
        "contracts": len(rows),
        "played_makeable": sum(p for p, _ in rows),
        "chosen_makeable": sum(c for _, c in rows),
        "seconds_a_decision": round(seconds / max(1, len(rows)), 2),
    }
    if args.json:
        print(json.dumps(result))
        return
    print(
        f"{result['contracts']} contracts: the gifts played leave {result['played_makeable']} makeable "
        f"double dummy, the blind exact chooser {result['chosen_makeable']}; "
        f"{result['seconds_a_decision']} s a decision"
    )


if __name__ == "__main__":
    main()

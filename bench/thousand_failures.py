"""Where Thousand's contracts fail: the contracts of recorded games by who declared and with what.

    python bench/thousand_bots.py --levels hard --games 40 --seed 1 --jobs 2 --records /tmp/recs
    python bench/thousand_failures.py /tmp/recs/hard [--json]

Reads every game record in a directory (``bench/thousand_bots.py --records`` or ``koloda thousand
simulate --records``) and prints, for each group of deals, the contracts played, made and failed and the
bombs called:

- how the declarer got the contract: ``forced`` (both others passed: the first hand's compulsory bid),
  ``opened alone`` (he made the only bid over it), ``opened, contested`` (he made the first bid and
  others bid too), ``overcall`` (someone had bid before him);
- whether he still had a bomb to call (rule S7: one a player a game at home);
- for an opener, what his seven cards held when he opened: a marriage, an ace without a marriage, or
  neither (the bots open on the talon's hope with a marriage or an ace, docs/bots.md);
- whether his total was 800 or more before the deal (rule S5).

Issue 14's figure (contracts made) is the sum of these; the groups say which declarers fail it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from koloda.game import GameRecord
from koloda.thousand.actions import ALL_ACES, BOMB, PASS, marriages_held
from koloda.thousand.state import ThousandState, replay

sys.path.insert(0, str(Path(__file__).resolve().parent))
from thousand_bots import start_of


def deals(final: ThousandState) -> list[dict[str, object]]:
    """One row per deal of a game: how its declarer got the contract, and its outcome."""
    game = start_of(final)
    rows: list[dict[str, object]] = []
    bidders: list[int] = []
    opener_hand = 0
    row: dict[str, object] = {}
    for action in final.history:
        if game.phase == "bidding" and action != PASS:
            seat = game.current_player
            assert seat is not None
            if not bidders:
                opener_hand = game.hands[seat]
            bidders.append(seat)
        if game.phase == "contract":
            seat = game.current_player
            assert seat is not None
            if not bidders:
                how = "forced"
            elif bidders[0] == seat:
                how = "opened alone" if len(set(bidders)) == 1 else "opened, contested"
            else:
                how = "overcall"
            hope = "-"
            if bidders and bidders[0] == seat:
                if marriages_held(opener_hand, final.options.ace_marriage):
                    hope = "marriage"
                else:
                    hope = "ace, no marriage" if opener_hand & ALL_ACES else "neither"
            row = {
                "how": how,
                "bomb left": game.book.bomb_allowed(seat),
                "hope": hope,
                "800+": game.book.totals[seat] >= final.options.threshold_800,
                "bomb": action == BOMB,
            }
        before = len(game.results)
        game.apply(action)
        if len(game.results) > before:
            deal, score = game.results[-1]
            if row:
                row["made"] = None if deal.bomb else bool(score.made)
                rows.append(row)
            row, bidders = {}, []
    return rows


def table(rows: list[dict[str, object]]) -> dict[str, dict[str, int]]:
    """Contracts played and made, and bombs, per group (a deal counts in several groups)."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"played": 0, "made": 0, "bombs": 0})
    for r in rows:
        bomb = "bomb left" if r["bomb left"] else "no bomb left"
        groups = ["all", f"{r['how']}", f"{r['how']}, {bomb}", "800+" if r["800+"] else "under 800"]
        if r["hope"] != "-":
            groups.append(f"opener held {r['hope']}, {bomb}")
        for group in groups:
            t = out[group]
            if r["bomb"]:
                t["bombs"] += 1
            else:
                t["played"] += 1
                t["made"] += bool(r["made"])
    return dict(sorted(out.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", type=Path, help="a directory of Thousand game records")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    paths = sorted(args.records.glob("*.json"))
    rows = [row for path in paths for row in deals(replay(GameRecord.load(path, game="thousand")))]
    groups = table(rows)
    if args.json:
        print(json.dumps({"deals": len(rows), "groups": groups}))
        return
    print(f"{len(rows)} deals")
    for name, t in groups.items():
        played, made = t["played"], t["made"]
        share = f"{100 * made / played:.0f}%" if played else "-"
        print(
            f"{name:44s} played {played:4d}  made {made:4d} ({share:>4s})  failed {played - made:4d}  "
            f"bombs {t['bombs']}"
        )


if __name__ == "__main__":
    main()

"""The check of a fair shuffle: a record's revealed secret against its commitment, every deal recomputed.

A table deals from a secret (koloda.seeds) and publishes its commitment before the first deal; once the
match is over it reveals the secret in its record. :func:`check` then proves three things anyone can
redo on his own machine (``koloda verify RECORD --commitment HASH``, or the table page's button):

1. the secret is the one promised: its SHA-256 is the commitment published before the first deal;
2. every deal is what the secret gives: the record is replayed, each deal dealt again from the secret by
   the game's own deal function, and every action of the record is legal in those deals (a card played
   that the secret did not deal to that seat fails here);
3. each seat's hand at the start of every deal is listed (:attr:`Report.deals`), to compare with what the
   player saw (the page compares them for its seat by itself, ``static/fair.js``).

What it does not prove: that the secret was drawn at random (a server could pick one and commit to it:
the commitment only forbids changing it afterwards, which is what would let it deal a chosen hand), nor
anything about the bots' play or a record's actions that nobody saw (docs/web.md, "Fair shuffles").

>>> from koloda.registry import get
>>> from koloda.seeds import commitment
>>> bank, secret = get("bank"), "ab" * 32
>>> state = bank.new_game(players=2, seed=secret, scope="deal")
>>> report = check(state.record(), commitment(secret))
>>> report.ok, report.kind, len(report.deals), report.deals[0].hands[0] == tuple(bank.observe(state, 0).hand)
(True, 'secret', 1, True)
>>> check(state.record(), "0" * 64).failure  # doctest: +ELLIPSIS
'the secret does not match the commitment: its SHA-256 is ..., not 0000000000000000...'
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from koloda import registry
from koloda.banki import replay as banki_replay
from koloda.cards import Card, Style, cards_text
from koloda.errors import KolodaError, RecordError, RequestError
from koloda.game import GameRecord, GameSpec, GameState
from koloda.i18n import LANGS, N_, Lang, say
from koloda.seeds import commitment, is_secret

Kind = Literal["secret", "number", "explicit"]
KIND_TEXT: dict[Kind, str] = {
    "secret": N_("verify.kind.secret"),
    "number": N_("verify.kind.number"),
    "explicit": N_("verify.kind.explicit"),
}


@dataclass(frozen=True)
class DealShown:
    """One deal as the seed dealt it: its number in the match (from 1), the label of its stream, the
    dealer, the seats dealt to, how many actions of the record came before it, each seat's hand."""

    number: int
    label: str
    dealer: int
    seats: tuple[int, ...]
    version: int
    hands: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "seats": list(self.seats), "hands": [list(h) for h in self.hands]}


@dataclass(frozen=True)
class Report:
    """What :func:`check` found: the seed's kind, the secret's commitment, the deals, and the first thing
    that does not hold (None when everything does)."""

    game: str
    kind: Kind
    commitment: str | None
    expected: str | None
    deals: tuple[DealShown, ...]
    actions: int
    failure: str | None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "kind": self.kind,
            "commitment": self.commitment,
            "expected": self.expected,
            "actions": self.actions,
            "ok": self.ok,
            "failure": self.failure,
            "deals": [deal.to_json() for deal in self.deals],
        }

    def lines(self, lang: Lang) -> list[str]:
        """The report for people, in ``lang``."""
        spec = registry.find(self.game)
        title = spec.titles[lang] if spec is not None else say(lang, "web.banki")
        out = [say(lang, KIND_TEXT[self.kind], game=title)]
        if self.commitment is not None:
            out.append(say(lang, "verify.commitment", commitment=self.commitment))
            if self.expected is not None and self.failure is None:
                out.append(say(lang, "verify.commitment_ok"))
        style: Style = "russian" if lang == "ru" else "latin"
        for deal in self.deals:
            out.append(
                say(lang, "verify.deal", number=deal.number, dealer=deal.dealer + 1, version=deal.version)
            )
            for seat in deal.seats:
                cards = cards_text(map(Card.parse, deal.hands[seat]), style, "symbol")
                out.append(say(lang, "verify.hand", seat=seat + 1, cards=cards))
        if self.failure is None:
            out.append(say(lang, "verify.ok", actions=self.actions, deals=len(self.deals)))
        else:
            out.append(say(lang, "verify.failed", reason=self.failure))
        return out


def deals(spec: GameSpec, record: GameRecord) -> tuple[list[DealShown], GameState]:
    """Replay ``record`` action by action and note every deal as it was dealt; RecordError names the first
    action that does not replay."""
    state = spec.replay(dataclasses.replace(record, actions=()))
    shown: list[DealShown] = []
    last: str | None = None

    def note(version: int) -> None:
        nonlocal last
        dealt = spec.dealt(state)
        if dealt is None or dealt.label == last:
            return
        last = dealt.label
        hands = tuple(
            tuple(str(card) for card in spec.observe(state, seat).to_json().get("hand", ()))
            if seat in dealt.seats
            else ()
            for seat in range(state.players)
        )
        shown.append(DealShown(len(shown) + 1, dealt.label, dealt.dealer, dealt.seats, version, hands))

    note(0)
    for version, text in enumerate(record.actions, start=1):
        try:
            state.apply(state.parse_action(text))
        except KolodaError as exc:
            raise RecordError(f"action {version} {text!r} does not replay: {exc}") from None
        note(version)
    return shown, state


def check(record: GameRecord, expected: str | None = None) -> Report:
    """Check a record's seed against the commitment ``expected`` (the one published before its first deal;
    None: only the record's own ``meta.commitment``, if it has one) and recompute every deal."""
    kind: Kind = "explicit" if record.seed is None else "secret" if is_secret(record.seed) else "number"
    promised = commitment(record.seed) if isinstance(record.seed, str) else None
    claimed = record.meta.get("commitment")
    failure: str | None = None
    for what in (expected, claimed if isinstance(claimed, str) else None):
        if what is None or failure is not None:
            continue
        if promised is None:
            failure = "the record was dealt from a number, which no commitment can promise"
        elif what.lower() != promised:
            failure = (
                f"the secret does not match the commitment: its SHA-256 is {promised[:16]}..., "
                f"not {what[:16]}..."
            )
    shown: list[DealShown] = []
    spec = registry.find(record.game)
    try:
        if spec is not None:
            shown, _ = deals(spec, record)
        else:  # banki (not a registered game): no deals; the counting-out is drawn again as it replays
            banki_replay(record)
    except RecordError as exc:
        failure = failure or str(exc)
    return Report(record.game, kind, promised, expected, tuple(shown), len(record.actions), failure)


# -- koloda verify ---------------------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    """``koloda verify RECORD [--commitment HASH]``."""
    parser = subparsers.add_parser(
        "verify", help="check a game record's revealed secret against its commitment; recompute every deal"
    )
    parser.add_argument("file", type=Path, help="a game record (JSON: the table page's record, docs/api.md)")
    parser.add_argument(
        "--commitment", help="the commitment the table published before its first deal (64 hex digits)"
    )
    parser.add_argument("--lang", choices=LANGS, default="ru", help="language (default ru)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=_command)


def _command(args: argparse.Namespace) -> int:
    """Exit status 0: everything holds; 1: something does not (said); 2: the file cannot be read."""
    expected = args.commitment
    if expected is not None and not is_secret(expected.lower()):
        raise RequestError(f"--commitment must be 64 hex digits, not {expected!r}", field="commitment")
    report = check(GameRecord.load(args.file), expected)
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False))
    else:
        for line in report.lines(args.lang):
            print(line)
    return 0 if report.ok else 1

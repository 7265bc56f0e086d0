"""What every part of the banki referee shares: the fields of a game it reads, and the small helpers.

:class:`koloda.banki.state.BankiState` is the referee; its rules are split by stage: the Moscow race back
in :mod:`koloda.banki.race` (M5-M18), the Chelyabinsk driver's throw and run in :mod:`koloda.banki.pile`
(C8, C9), everything else in the state itself. Each part derives from :class:`Referee`, which declares the
fields (the state is a dataclass that defines them) and the helpers the parts call.
"""

from __future__ import annotations

from typing import Any

from koloda.banki.events import Event, Phase, Stick
from koloda.banki.options import BankiOptions
from koloda.banki.text import RefereeError


class Referee:
    """The fields and helpers of a game of banki (see the module docstring); never made on its own."""

    options: BankiOptions
    names: tuple[str, ...]
    phase: Phase
    rank: list[int]
    driver: int | None
    order: list[int]
    stick: list[Stick]
    steps: list[int]
    hit_waiting: list[bool]
    can_up: bool
    tagged: int | None
    present: list[bool]
    winners: list[int]
    news: list[tuple[str, dict[str, Any]]]

    # -- queries -------------------------------------------------------------------------------------------

    def players(self) -> list[int]:
        """Everyone in the game but the driver (players who left are out of it, rule G9)."""
        return [seat for seat in range(len(self.names)) if seat != self.driver and self.present[seat]]

    def rank_id(self, seat: int) -> str:
        return self.options.ranks[self.rank[seat]]

    def line(self, seat: int) -> float:
        return self.options.lines[self.rank[seat]]

    # -- helpers of the rules ------------------------------------------------------------------------------

    def _err(self, text: str, key: str, **params: Any) -> RefereeError:
        return RefereeError(text, key, **params)

    def _news(self, key: str, **params: Any) -> None:
        self.news.append((key, params))

    def _who(self, seat: int) -> dict[str, Any]:
        return {"name": self.names[seat], "rank": self.rank_id(seat)}

    def _name(self, seat: int | None) -> str:
        return "-" if seat is None else self.names[seat]

    def _not_driver(self, text: str, seat: int) -> None:
        if seat == self.driver:
            raise self._err(text, "is_driver", name=self.names[seat])

    def _may_drive(self, text: str, seat: int) -> None:
        """M18: a rank that may not be made the driver at all refuses every event that would make him."""
        if self.rank_id(seat) in self.options.never_drive_ranks:
            raise self._err(text, "never_drives", **self._who(seat))

    def _promote_now(self, seat: int, steps: int) -> None:
        top = len(self.options.ranks) - 1
        self.rank[seat] = min(top, self.rank[seat] + steps)
        self._news("news_promoted", **self._who(seat))
        if self.rank[seat] == top:  # C10: the first marshal ends the game
            self._finish([seat])

    def _finish(self, winners: list[int]) -> None:
        self.winners = winners
        self.phase = Phase.OVER
        self._news("news_winner", names=", ".join(self.names[s] for s in winners))

    # -- what the state itself defines -----------------------------------------------------------------

    def _end_round(self, new_driver: int | None) -> None:
        """End the round; ``new_driver`` drives next (None: the driver drives on)."""
        raise NotImplementedError

    def _on_back(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        raise NotImplementedError

"""The Chelyabinsk driver's own throw and the run to the first line (rules C8, C9 of docs/rules/banki.md).

A mixin of :class:`koloda.banki.state.BankiState`: one method per event of the ``driver-throw`` and
``run`` stages.
"""

from __future__ import annotations

from koloda.banki.events import Event, Phase, Stick
from koloda.banki.referee import Referee


class PileRules(Referee):
    """The events of the driver's throw and the run (C8, C9)."""

    def _check_driver_throw(self) -> None:
        """C8: nobody left to throw or to fetch a lying stick, and the can stands: the driver throws."""
        if self.can_up and all(self.stick[s] is Stick.PILE for s in self.players()):
            self.phase = Phase.DRIVER_THROW

    def _on_snatch(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._not_driver(text, p)
        if self.stick[p] is not Stick.PILE:
            raise self._err(text, "not_in_pile", name=self.names[p])
        self.stick[p] = Stick.HAND
        self.phase = Phase.THROW  # C8: the driver drives on; the snatcher throws again
        self._news("news_driver_stays", name=self._name(self.driver))
        if self.options.snatch_promotes:
            self._promote_now(p, 1)

    def _on_guarded(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        self.phase = Phase.RUN  # C9: the driver is free; everybody runs to the first line

    def _on_last(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._not_driver(text, p)
        self._may_drive(text, p)
        self._end_round(new_driver=p)

"""The Moscow race back (rules M5-M18 of docs/rules/banki.md): fetching sticks, tags, knocks, fouls.

A mixin of :class:`koloda.banki.state.BankiState`: one method per event of the ``race`` stage.
"""

from __future__ import annotations

from koloda.banki.events import Event, Stick
from koloda.banki.referee import Referee

#: The body parts that count for each ``tag_parts`` value (G3); the head never does (G4).
PARTS = {
    "any": ("torso", "arm", "leg", "heel"),
    "legs": ("leg", "heel"),
    "heels": ("heel",),
}


class RaceRules(Referee):
    """The events of the race back (M5-M18)."""

    def taggable(self, seat: int) -> bool:
        """Whether the driver may tag this player now at all (rules M6, M8, M16, M18)."""
        means = self.options.privileges(self.rank_id(seat))[0]
        return (
            self.phase.value == "race"
            and seat != self.driver
            and self.stick[seat] is not Stick.HAND
            and means != "none"
            and (means != "holding" or self.stick[seat] is Stick.CARRIED)
        )

    def _on_pick(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._not_driver(text, p)
        if "holding" not in self.options.tag_means:  # nothing depends on it: a typo, most likely
            raise self._err(text, "pick_unused")
        if self.stick[p] is not Stick.FIELD:
            raise self._err(text, "pick_not_field", name=self.names[p])
        self.stick[p] = Stick.CARRIED  # M16 (holding): from now on he may be tagged

    def _on_bring(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None and q is not None
        self._not_driver(text, p)
        if self.rank_id(p) not in self.options.fetch_others_ranks:  # M12, M18
            raise self._err(text, "cant_fetch_others", **self._who(p))
        if q == p:
            raise self._err(text, "same_player")
        self._on_back(event, text, q, None, last)

    def _on_tag(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None and event.means is not None and event.part is not None
        self._not_driver(text, p)
        if self.tagged is not None:
            raise self._err(text, "tag_pending", name=self.names[self.tagged], driver=self._name(self.driver))
        if not self.can_up:  # M6: tag and knock must happen while the can stands
            raise self._err(text, "can_down")
        if self.stick[p] is Stick.HAND:  # M8: back behind the line is safe
            raise self._err(text, "safe", name=self.names[p])
        means, parts = self.options.privileges(self.rank_id(p))
        if means == "none":  # M18
            raise self._err(text, "cant_tag_rank", **self._who(p))
        if event.part == "head":  # G4
            raise self._err(text, "cant_tag_head")
        if means == "holding" and self.stick[p] is not Stick.CARRIED:  # M16, the other reading
            raise self._err(text, "cant_tag_unarmed", **self._who(p))
        if means in ("stick", "hand") and event.means != means:  # M16, M17
            raise self._err(text, "cant_tag_means", allowed_means=means, **self._who(p))
        if event.part not in PARTS[parts]:  # G3
            raise self._err(text, "cant_tag_part", allowed_parts=parts, **self._who(p))
        self.tagged = p

    def _on_knock(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        if not self.can_up:
            raise self._err(text, "can_down")
        if event.means is not None:  # M11: a can knocked by hand or foot does not count
            raise self._err(text, "hand_knock")
        if p == self.driver:  # M6: tag + knock of the standing can: the tagged player drives
            if self.tagged is None:
                raise self._err(text, "no_tag")
            self._end_round(new_driver=self.tagged)
            return
        if self.rank_id(p) in self.options.no_knock_ranks:  # M18
            raise self._err(text, "no_knock_rank", **self._who(p))
        self.can_up = False  # M7: the knock frees the tagged player; the driver must put the can back
        if self.tagged is not None:
            self.tagged = None
            self._news("news_tag_void")
        self.stick[p] = Stick.FIELD  # the knocking stick is out: its owner must come back again

    def _on_foul(self, event: Event, text: str, p: int | None, q: int | None, last: int | None) -> None:
        assert p is not None
        self._not_driver(text, p)
        if self.tagged is not None:
            raise self._err(text, "tag_pending", name=self.names[self.tagged], driver=self._name(self.driver))
        if not self.can_up:  # M12, M13: the driver calls the foul by knocking the standing can
            raise self._err(text, "can_down")
        if event.foul == "grab" and self.rank_id(p) in self.options.fetch_others_ranks:
            raise self._err(text, "foul_fetcher", **self._who(p))
        if event.foul == "line" and self.stick[p] is not Stick.HAND:
            raise self._err(text, "line_not_back", name=self.names[p])
        self._may_drive(text, p)  # M18: «Jo visai negalima sūdyti»: no foul makes a marshal drive
        self._end_round(new_driver=p)

    def _check_race_over(self) -> None:
        if all(self.stick[s] is Stick.HAND for s in self.players()):  # M8: everyone is back
            self._end_round(new_driver=None)

"""Events as plain sentences, for the private reports and the terminal.

The sentences are the published chronicle's own (``chronicle.publish``'s
``Narrator``, in the campaign's language) with the links taken out, so a
report and the site never tell the same event in two ways. A kind the
narrator has no sentence for is listed with its fields.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

from adjudicator.events import EVENT_KINDS, Event
from adjudicator.state import GameState
from chronicle.publish.data import EventView, _houses, people_of
from chronicle.publish.i18n import translations
from chronicle.publish.narrative import SILENT, Narrator

_TAG = re.compile(r"<[^>]*>")


class Teller:
    """Tells one turn's events, in the campaign's language, without markup."""

    def __init__(self, state: GameState, events: Iterable[Event], language: str = "en") -> None:
        self.views = [
            EventView(turn=state.turn, year=state.year_of(state.turn), seq=seq,
                      phase=event.phase, kind=event.kind,
                      payload=json.loads(json.dumps(event.payload())),
                      subjects=tuple(event.subjects()), houses=tuple(event.houses()))
            for seq, event in enumerate(events, start=1)]
        # Only the people the events name: a report must not cost a whole century.
        named = {pid: state.persons[pid] for pid in sorted(_strings(
            [v.payload for v in self.views] + [v.subjects for v in self.views]))
            if pid in state.persons}
        cast = GameState(ruleset=state.ruleset, start_year=state.start_year,
                         years_per_turn=state.years_per_turn, turn=state.turn,
                         houses=state.houses, persons=named)
        people = people_of(cast, self.views)
        trans = translations(language)
        self.narrator = Narrator(people, _houses(state, people), trans.gettext,
                                 trans.ngettext, {p.id: p.name for p in state.provinces.values()})

    def _knows(self, kind: str) -> bool:
        return kind in self.narrator.tellers or hasattr(self.narrator, "_" + kind.replace("-", "_"))

    def sentences(self, public_only: bool = True) -> list[str]:
        out = []
        for view, public in zip(self.views, self._public(), strict=True):
            if public_only and not public:
                continue
            text = self.sentence(view)
            if text:
                out.append(text)
        return out

    def _public(self) -> list[bool]:
        return [getattr(EVENT_KINDS.get(v.kind), "public", True) for v in self.views]

    def sentence(self, view: EventView) -> str | None:
        if view.kind in SILENT:
            return None
        if not self._knows(view.kind):
            return _fields(view.kind, view.payload)
        told = self.narrator.sentence(view, "")
        return None if told is None else html.unescape(_TAG.sub("", str(told)))


def _strings(value: Any) -> set[str]:
    """Every string inside a payload, at any depth."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _fields(kind: str, data: dict[str, Any]) -> str:
    return f"{kind.replace('-', ' ')}: " + ", ".join(
        f"{k} {v}" for k, v in sorted(data.items()) if isinstance(v, str | int) and v != "")

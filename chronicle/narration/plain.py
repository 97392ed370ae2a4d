"""A turn's events as plain sentences, for the private reports and the terminal.

The sentences are the published chronicle's own, in the campaign's language,
with the links taken out: a report and the site never tell one event in two
ways. Only the people the events name are looked at, so a report does not
cost a whole century.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.events import Event
from adjudicator.state import GameState
from chronicle.narration.narrator import Glossary, Narrator, PersonLike, label_ref
from chronicle.publish.i18n import translations

_TAG = re.compile(r"<[^>]*>")


@dataclass(frozen=True)
class _Entry:
    turn: int
    seq: int
    kind: str
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class _Named:
    """A person or a house as a sentence names them (a report has no pages to link)."""

    name: str
    label_ref: str | None = None
    slug: str = ""


class _People(Mapping[str, PersonLike]):
    """The state's people, looked up one by one as the sentences name them."""

    def __init__(self, state: GameState) -> None:
        self.persons = state.persons

    def __getitem__(self, pid: str) -> PersonLike:
        person = self.persons[pid]
        return _Named(person.name, label_ref(person.dynasty, person.refs))

    def __iter__(self) -> Iterator[str]:
        return iter(self.persons)

    def __len__(self) -> int:
        return len(self.persons)


def plain_sentences(state: GameState, events: Iterable[Event], language: str = "en") -> list[str]:
    """The public events among ``events`` of the turn that made ``state``, as text."""
    trans = translations(language)
    narrator = Narrator(_People(state), {h.id: _Named(h.name) for h in state.houses.values()},
                        trans.gettext, trans.ngettext,
                        Glossary(provinces={p.id: p.name for p in state.provinces.values()}),
                        pgettext=lambda context, text: str(trans.pgettext(context, text)), language=language)
    told = []
    for seq, event in enumerate(events, start=1):
        if not event.public:
            continue
        # The payload as the store keeps it (JSON: tuples become lists).
        entry = _Entry(state.turn, seq, event.kind, json.loads(json.dumps(event.payload())))
        text = narrator.sentence(entry, "")
        if text is not None:
            told.append(html.unescape(_TAG.sub("", str(text))))
    return told

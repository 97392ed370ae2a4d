"""A turn's events as text, for the private reports and the terminal.

The sentences are the published chronicle's own, in the campaign's language:
a report and the site never tell one event in two ways. The terminal gets
them with the links taken out (``plain_sentences``); a report gets them as
Markdown (``ReportTeller``), every name escaped, and the pages its ruleset
links (Blood Royale's battles: ``Descriptor.report_links``) linked on the site
when the campaign says where it is published (``base_url`` in campaign.toml).
What the sentences name besides people and houses is the ruleset's
(``Descriptor.glossary``). Only the people the events name are looked at, so a
report does not cost a whole century.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from adjudicator.events import Event
from adjudicator.state import GameState
from chronicle.i18n.catalogue import translations
from chronicle.i18n.localnames import NO_NAMES, LocalNames
from chronicle.narration.narrator import (
    FOR_HOUSE,
    ROOT,
    HouseSentence,
    Narrator,
    PersonLike,
    Reader,
    event_class,
    label_ref,
)
from chronicle.rulesets import descriptor
from chronicle.turn.escape import md_escape

_TAG = re.compile(r"<[^>]*>")
# The narrator's links: ROOT, then the page's path inside the campaign's folder.
_LINK = re.compile('<a href="' + ROOT + r'([^"]*)">(.*?)</a>', re.S)


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


def _narrator(state: GameState, language: str, events: list[Event],
              names: LocalNames = NO_NAMES) -> Narrator:
    """``names``: the content pack's names of houses and provinces in ``language``."""
    trans = translations(language)
    return Narrator(_People(state),
                    {h.id: _Named(names.house(h.id, h.name)) for h in state.houses.values()},
                    trans.gettext, trans.ngettext,
                    descriptor(state.ruleset).glossary(state, events, trans.gettext, names),
                    pgettext=lambda context, text: str(trans.pgettext(context, text)),
                    language=language)


def _told(narrator: Narrator, state: GameState, events: Iterable[Event]) -> list[Markup]:
    told = []
    for seq, event in enumerate(events, start=1):
        if not event.public:
            continue
        text = narrator.sentence(_entry(state, seq, event), ROOT)
        if text is not None:
            told.append(text)
    return told


def _entry(state: GameState, seq: int, event: Event) -> _Entry:
    # The payload as the store keeps it (JSON: tuples become lists).
    return _Entry(state.turn, seq, event.kind, json.loads(json.dumps(event.payload())))


def _text(fragment: str) -> str:
    return html.unescape(_TAG.sub("", fragment))


def plain_sentences(state: GameState, events: Iterable[Event], language: str = "en",
                    names: LocalNames = NO_NAMES) -> list[str]:
    """The public events among ``events`` of the turn that made ``state``, as text
    (``names``: the content pack's names of houses and provinces in ``language``)."""
    listed = list(events)
    return [_text(str(text))
            for text in _told(_narrator(state, language, listed, names), state, listed)]


def markdown(sentence: Markup, base: str | None, linked: tuple[str, ...] = ()) -> str:
    """A sentence as Markdown: its text escaped; its links to the pages whose paths
    begin with one of ``linked`` kept, under ``base`` (people and houses are named
    only)."""
    out, pos = [], 0
    text = str(sentence)
    for match in _LINK.finditer(text):
        out.append(md_escape(_text(text[pos:match.start()])))
        name = md_escape(_text(match.group(2)))
        path = match.group(1)
        kept = base and linked and path.startswith(linked)
        out.append(f"[{name}]({base}{path})" if kept else name)
        pos = match.end()
    out.append(md_escape(_text(text[pos:])))
    return "".join(out)


class ReportTeller:
    """One turn's events for the reports: the chronicle all houses read, and what
    happened to each house, as Markdown lines.

    ``base``: the address of the campaign's folder on the published site
    (ending in ``/``), or None for sentences without links.
    """

    def __init__(self, state: GameState, events: list[Event], language: str = "en",
                 base: str | None = None, names: LocalNames = NO_NAMES) -> None:
        self.state, self.base = state, base
        self.linked = descriptor(state.ruleset).report_links
        self.events = [e for e in events if e.public]
        self.narrator = _narrator(state, language, self.events, names)
        # Each payload as the store keeps it, made once for every house's report.
        self.entries = [_entry(state, seq, e) for seq, e in enumerate(self.events, start=1)]
        self._members: dict[str, set[str]] | None = None
        self._concerns: list[tuple[HouseSentence | None, frozenset[str], frozenset[str]]] = []

    def chronicle(self) -> list[str]:
        return [markdown(text, self.base, self.linked) for text in self._told()]

    def plain(self) -> list[str]:
        """The chronicle as ``plain_sentences`` gives it (the terminal's text)."""
        return [_text(str(text)) for text in self._told()]

    def _told(self) -> list[Markup]:
        told = (self.narrator.sentence(entry, ROOT) for entry in self.entries)
        return [text for text in told if text is not None]

    def for_house(self, house: str) -> list[str]:
        """What the turn did to ``house``, in its own words ("You paid..."), in order."""
        if self._members is None:
            # Every house's people (its dynasty and its court) and every event's
            # concerns, once for all the reports.
            self._members = {}
            for person in self.state.persons.values():
                for owner in {person.dynasty, person.court} - {None}:
                    self._members.setdefault(str(owner), set()).add(person.id)
            for event in self.events:
                cls = event_class(event.kind)  # its ruleset's sentences loaded
                self._concerns.append((FOR_HOUSE.get(cls) if cls is not None else None,
                                       frozenset(event.houses()), frozenset(event.subjects())))
        reader = Reader(house, frozenset(self._members.get(house, ())))
        lines: list[str] = []
        for entry, (own, houses, subjects) in zip(self.entries, self._concerns, strict=True):
            if own is not None:
                told = own(self.narrator, entry.payload, reader)
            elif house in houses or not reader.people.isdisjoint(subjects):
                sentence = self.narrator.sentence(entry, ROOT)
                told = [] if sentence is None else [sentence]
            else:
                told = []
            lines += [markdown(text, self.base, self.linked) for text in told]
        return lines

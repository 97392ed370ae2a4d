"""GEDCOM exports: 5.5.1 (``--format gedcom``) and 7.0 (``--format gedcom7``).

Both are written from one tree of records, so the two versions say the same
things; only the encoding of a line differs (5.5.1 doubles every ``@`` in a
value and cuts lines at 255 characters with ``CONC``; 7.0 doubles a leading
``@`` only and has no length limit).

What genealogy software needs to keep a family whole is there: a submitter
(``SUBM``), each marriage (``MARR``) with its year, surnames (a dynasty's
members bear its house's name, ``House Plantagenet`` giving ``/Plantagenet/``;
the minor nobility bear its own name), each reign as a title (``TITL``) with
its years, causes of death in words, renunciations as notes, and every
reference number as a ``REFN`` typed by its dynasty.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from adjudicator.state import GameState, Person
from chronicle.campaign.folder import Campaign
from chronicle.rulesets import death_causes
from chronicle.store.file import StoredEvent

#: The surname of the minor nobility (RULES.md A7), who belong to no dynasty.
MINOR_NOBILITY = "Minor nobility"
#: A ruling's death (``kill``) without the arbiter's own words for it.
BY_THE_ARBITER = "by the arbiter's ruling"
#: 5.5.1's longest line; values are cut well before it, leaving room for level and tag.
MAX_551 = 200
VERSIONS = ("5.5.1", "7.0")


@dataclass
class Node:
    """One GEDCOM structure: a tag, its value (text or ``@pointer@``) and what it holds."""

    tag: str
    value: str = ""
    xref: str = ""
    pointer: bool = False
    children: list[Node] = field(default_factory=list)

    def add(self, tag: str, value: object = "", *, pointer: bool = False) -> Node:
        child = Node(tag, str(value), pointer=pointer)
        self.children.append(child)
        return child


def surname(house_name: str) -> str:
    """A house's family name: ``House Plantagenet`` are the Plantagenets, ``House of
    Anjou`` the Anjous."""
    words = house_name.split()
    for lead in (("house", "of"), ("house",)):
        if len(words) > len(lead) and tuple(w.lower() for w in words[:len(lead)]) == lead:
            return " ".join(words[len(lead):])
    return " ".join(words)


def cause_in_words(cause: str | None, detail: str) -> str:
    """How someone died, in words (the rulesets' ``Descriptor.death_causes``); the
    arbiter's own words (``kill ... cause "..."``) are kept as written. The dice of
    a death are on the site, not here."""
    if cause == "arbiter":
        return detail or BY_THE_ARBITER
    words = death_causes().get(cause or "")
    return words.gedcom if words is not None else (cause or "unknown").replace("-", " ")


def _clean(text: str) -> str:
    """A name for a NAME line: slashes delimit the surname, so none may be inside."""
    return " ".join(text.replace("/", " ").split())


def records(campaign: Campaign, state: GameState, events: Iterable[StoredEvent] = ()) -> list[Node]:
    """The records of the export, in a stable order (people by appearance)."""
    persons = sorted(state.persons.values(), key=lambda p: p.seq)
    index = {p.id: f"@I{i}@" for i, p in enumerate(persons, start=1)}
    houses = state.houses
    notes = campaign.descriptor.life_notes(events)
    details, renounced = notes.death_details, notes.renunciations

    families: dict[tuple[str | None, str | None], str] = {}
    married: dict[tuple[str | None, str | None], list[int]] = {}
    for m in state.marriages:
        key = (m.husband, m.wife)
        families.setdefault(key, f"@F{len(families) + 1}@")
        married.setdefault(key, []).append(m.year)
    for p in persons:
        if p.father or p.mother:
            families.setdefault((p.father, p.mother), f"@F{len(families) + 1}@")
    spouse_in: dict[str, list[str]] = {}
    child_in: dict[str, str] = {}
    children: dict[str, list[str]] = {}
    for (husband, wife), fid in families.items():
        for pid in (husband, wife):
            if pid:
                spouse_in.setdefault(pid, []).append(fid)
    for p in persons:
        if p.father or p.mother:
            fid = families[(p.father, p.mother)]
            child_in[p.id] = fid
            children.setdefault(fid, []).append(p.id)
    reigns: dict[str, list[tuple[str, int, int | None]]] = {}
    for house in sorted(houses.values(), key=lambda h: h.id):
        for reign in house.rulers:
            reigns.setdefault(reign.person, []).append((house.id, reign.start, reign.end))

    head = Node("HEAD")
    source = head.add("SOUR", "CHRONICLE")
    source.add("NAME", "Chronicle")
    head.add("SUBM", "@U1@", pointer=True)
    head.add("NOTE", campaign.title)
    out = [head]
    for p in persons:
        out.append(_person(p, index[p.id], state, details, renounced, reigns.get(p.id, []),
                           spouse_in.get(p.id, []), child_in.get(p.id)))
    for (husband, wife), fid in families.items():
        family = Node("FAM", xref=fid)
        if husband:
            family.add("HUSB", index[husband], pointer=True)
        if wife:
            family.add("WIFE", index[wife], pointer=True)
        for pid in children.get(fid, []):
            family.add("CHIL", index[pid], pointer=True)
        for year in married.get((husband, wife), []):
            family.add("MARR").add("DATE", year)
        out.append(family)
    submitter = Node("SUBM", xref="@U1@")
    submitter.add("NAME", _clean(f"The arbiter of {campaign.title}"))
    out.append(submitter)
    return out


def _person(p: Person, xref: str, state: GameState, details: Mapping[str, str],
            renounced: Mapping[tuple[str, str], tuple[str, int]],
            reigns: list[tuple[str, int, int | None]], spouse_in: list[str],
            child_in: str | None) -> Node:
    houses = state.houses
    if p.dynasty:
        house = houses.get(p.dynasty)
        family = surname(house.name) if house is not None else p.dynasty
    else:
        family = MINOR_NOBILITY
    given, family = _clean(p.name), _clean(family)
    record = Node("INDI", xref=xref)
    name = record.add("NAME", f"{given} /{family}/")
    name.add("GIVN", given)
    name.add("SURN", family)
    record.add("SEX", p.sex.value if p.sex.value in ("M", "F") else "U")
    record.add("BIRT").add("DATE", p.born)
    if p.died is not None:
        death = record.add("DEAT")
        death.add("DATE", p.died)
        death.add("CAUS", cause_in_words(p.death_cause, details.get(p.id, "")))
    for hid, start, end in reigns:
        house = houses.get(hid)
        realm = house.name if house is not None else hid
        title = ("King" if p.sex.value == "M" else "Queen") + f" of {realm}"
        when = f"FROM {start} TO {end}" if end is not None else f"FROM {start}"
        record.add("TITL", title).add("DATE", when)
    for dynasty, ref in sorted(p.refs.items()):
        record.add("REFN", ref).add("TYPE", dynasty)
    for dynasty, turn in sorted(p.renounced.items()):
        number, _turn = renounced.get((p.id, dynasty), ("", turn))
        house = houses.get(dynasty)
        realm = house.name if house is not None else dynasty
        what = f"reference number {number}" if number else "reference number"
        record.add("NOTE", f"Renounced {what} in {realm} ({dynasty}) in "
                           f"{state.year_of(turn)}, turn {turn}.")
    if p.prisoner_of:
        house = houses.get(p.prisoner_of)
        record.add("NOTE", f"Prisoner of {house.name if house else p.prisoner_of}.")
    for fid in spouse_in:
        record.add("FAMS", fid, pointer=True)
    if child_in:
        record.add("FAMC", child_in, pointer=True)
    return record


def _lines_551(node: Node, level: int) -> list[str]:
    value = node.value if node.pointer else node.value.replace("@", "@@")
    parts = value.split("\n")
    lines: list[str] = []
    for i, part in enumerate(parts):
        for j, chunk in enumerate(_chunks(part, MAX_551)):
            if i == 0 and j == 0:
                lines.append(_line(level, node.xref, node.tag, chunk))
            elif j == 0:
                lines.append(_line(level + 1, "", "CONT", chunk))
            else:
                lines.append(_line(level + 1, "", "CONC", chunk))
    for child in node.children:
        lines += _lines_551(child, level + 1)
    return lines


def _chunks(text: str, size: int) -> list[str]:
    """``text`` cut in pieces of at most ``size`` characters for ``CONC``, never next
    to a space: many readers trim a line's spaces, which would lose the space at a cut."""
    chunks: list[str] = []
    while len(text) > size:
        cut = size
        while cut > 1 and (text[cut - 1] == " " or text[cut] == " "):
            cut -= 1
        chunks.append(text[:cut])
        text = text[cut:]
    chunks.append(text)
    return chunks


def _lines_7(node: Node, level: int) -> list[str]:
    value = node.value
    if not node.pointer and value.startswith("@"):
        value = "@" + value
    parts = value.split("\n")
    lines = [_line(level, node.xref, node.tag, parts[0])]
    lines += [_line(level + 1, "", "CONT", part) for part in parts[1:]]
    for child in node.children:
        lines += _lines_7(child, level + 1)
    return lines


def _line(level: int, xref: str, tag: str, value: str) -> str:
    head = f"{level} {xref} {tag}" if xref else f"{level} {tag}"
    return f"{head} {value}" if value else head


def export_gedcom(campaign: Campaign, state: GameState, events: Iterable[StoredEvent] = (),
                  *, version: str = "5.5.1") -> str:
    """The genealogy as GEDCOM ``version`` (``5.5.1`` or ``7.0``)."""
    if version not in VERSIONS:
        raise ValueError(f"GEDCOM {version}: Chronicle writes {' and '.join(VERSIONS)}")
    nodes = records(campaign, state, events)
    head = nodes[0]
    gedc = Node("GEDC")
    gedc.add("VERS", version)
    if version == "5.5.1":
        gedc.add("FORM", "LINEAGE-LINKED")
        head.children[1:1] = [gedc, Node("CHAR", "UTF-8")]
        lines = [line for node in nodes for line in _lines_551(node, 0)]
    else:
        head.children.insert(0, gedc)
        lines = [line for node in nodes for line in _lines_7(node, 0)]
    lines.append("0 TRLR")
    return "\n".join(lines) + "\n"

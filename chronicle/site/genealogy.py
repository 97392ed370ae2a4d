"""Genealogies: clickable Graphviz diagrams of each dynasty, as SVG.

The site shows each dynasty as a family tree players can click through to
character pages. Graphviz lays the trees out; the ``pygraphviz`` wheel carries
the engine, so a fresh machine renders them after ``pip install`` alone.

Drawing conventions (readable without colour):

- a person is a rounded box in the light tint of their house colour, with
  the name, any title given by the caller, the reference number in the
  diagram's dynasty and the one in their own (the character page lists
  every one) and the years as ``*1280 †1340``;
- the dead have a dashed border and a † year; the living a solid one;
- rulers have a crown (♔/♕) and a thick border, the reigning ones a double
  border;
- each union is a small point between its spouses, on their rank, joined
  to them by thick lines (marriage); thin lines lead from it down to
  the children (descent). Spouses always share a rank (a child is ranked
  below both parents, and a marriage pulls its spouses level), so a
  marriage a generation down never reads as a parent and child; only a
  marriage that cannot be levelled (a widow marrying her stepson) is drawn
  across ranks, still as a thick line;
- each marriage group of a rank (a person, their spouses, the union points)
  is a borderless cluster, so that nothing comes between a union and its
  spouses, ordered by invisible edges: the most married person in the
  middle, their marriages in date order, the earlier half to the left;
- spouses from other dynasties appear in their own house colour, the minor
  nobility in grey.

Layout must not change when the data does not: families go in a fixed
depth-first order (which also seeds Graphviz's rank ordering, keeping
children under their parents), edges in sorted order, and the SVG is cleaned
of Graphviz's version comment. All text goes into HTML-like labels escaped,
and into attributes through :func:`dot_string`, so no name can inject markup.

A dynasty is split into parts that the pages can show at 100 %: at most
``max_members`` members, ``MAX_ROWS`` generations and an estimated
``WIDTH_BUDGET`` wide (``MAX_WIDTH_PX`` at 1:1, with room to spare; a
drawing Graphviz still spreads wider is scaled to fit by ``size``, never
so far that text falls below ``MIN_TEXT_PX``). The first part holds the
founders and as many generations as fit (then whole lines that still fit),
and each person on its last rank whose line did not fit opens a branch part,
recursively; the person's box there links on with a ⋯ node. A root with
more children than one part is wide gets several parts, each with a run of
the children. Files are named after the dynasty (``<dynasty>.svg``) and a
branch's root (``<dynasty>--<root>.svg``, ``-2``... for the runs), so a
part keeps its name, and its cached layout, while others change. Splitting
is also what keeps large dynasties fast: Graphviz's layout time grows much
faster than the diagram, and the parts are laid out independently, one
process per core (:func:`start_genealogies`).
"""

from __future__ import annotations

import functools
import hashlib
import html
import itertools
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pygraphviz  # type: ignore[import-untyped]

from chronicle.site.dot_engine import engine
from chronicle.site.incremental.cache import RenderCache, Renderer, render_cached
from chronicle.site.parallel import executor
from chronicle.site.svgsafe import accepted

NEUTRAL_FILL = "#eeeeee"
NEUTRAL_BORDER = "#777777"
RENDER_VERSION = "genealogy-svg-4"  # bump when render_svg's output changes
DEFAULT_MAX_MEMBERS = 60

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_COMMENT = re.compile(r"<!--.*?-->\n?", re.DOTALL)
_DOCTYPE = re.compile(r"<!DOCTYPE[^>]*>\n?", re.DOTALL)
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9]")


class HouseLike(Protocol):
    """What the drawings need of a house (``adjudicator.state.House`` fits)."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def color(self) -> str: ...


@dataclass(frozen=True)
class TreePerson:
    """A person as the tree shows them; ``title`` is the caller's localised text."""

    id: str
    name: str
    sex: str
    born: int
    died: int | None = None
    dynasty: str | None = None
    father: str | None = None
    mother: str | None = None
    refs: Mapping[str, str] = field(default_factory=dict)
    ruler: bool = False
    was_ruler: bool = False
    title: str | None = None

    def ordered_refs(self) -> list[str]:
        """Every reference number, the one in the person's own dynasty first."""
        own = self.refs.get(self.dynasty) if self.dynasty is not None else None
        first = [own] if own is not None else []
        rest = [ref for dyn, ref in sorted(self.refs.items()) if dyn != self.dynasty]
        return first + rest

    def diagram_refs(self, dynasty: str) -> list[str]:
        """The numbers a box shows in ``dynasty``'s diagram: that dynasty's, then the own.

        After generations of intermarriage a person holds a number in nearly
        every dynasty; all of them made boxes too wide to read, and the
        character page lists them all.
        """
        keys = dict.fromkeys(d for d in (dynasty, self.dynasty) if d is not None)
        return [self.refs[d] for d in keys if d in self.refs]


@dataclass(frozen=True)
class TreeMarriage:
    husband: str
    wife: str
    year: int | None = None


@dataclass(frozen=True)
class DiagramPart:
    """One SVG of a dynasty: the whole of it, or the branch under ``root``."""

    dynasty: str
    filename: str
    title: str
    root: str | None
    members: tuple[str, ...]
    up: str | None = None  # the file of the part that shows ``root`` among its members


@dataclass(frozen=True)
class Genealogies:
    parts: tuple[DiagramPart, ...]
    #: Each part's drawing by file name, but those the last build made already (``before``).
    svgs: dict[str, str]
    #: Each part's print (``_Drawing.drawn``), by file name.
    prints: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class DrawnBefore:
    """What the last build drew, so that an unchanged part is neither read nor filled
    again: ``prints`` gives a part's print by its file name (None: none was drawn);
    ``code`` is what every drawing is finished with besides its part (the
    generator's own print), part of every print, so that a new version of
    the code draws every part again, in the processes that lay them out."""

    code: str
    prints: Callable[[str], str | None]


LinkFor = Callable[[str], str | None]


# -- escaping ------------------------------------------------------------------


def clean_text(text: str) -> str:
    """Control characters (newlines included) would break a label line."""
    if text.isascii() and text.isprintable():  # the usual case, without a regex
        return text.strip()
    return _CONTROL.sub(" ", text).strip()


def html_text(text: str) -> str:
    """Text for a Graphviz HTML-like label, every markup character escaped.

    Graphviz still expands ``\\N`` and friends inside HTML-like labels, so a
    backslash is doubled to come out as itself.
    """
    return html.escape(clean_text(text), quote=True).replace("\\", "\\\\")


def dot_string(text: str) -> str:
    """A quoted DOT string that Graphviz shows back exactly as ``text``.

    Graphviz expands backslash sequences (``\\N``, ``\\G``...) and entities in
    attributes such as ``tooltip``: a backslash must be written as four and
    an ampersand as ``&amp;`` to come out literally.
    """
    body = clean_text(text).replace("\\", "\\\\\\\\").replace('"', '\\"').replace("&", "&amp;")
    return f'"{body}"'


@functools.lru_cache(maxsize=65536)
def node_id(prefix: str, key: str) -> str:
    """A node name made only of letters, digits and ``_`` (it appears in the SVG)."""
    return prefix + _UNSAFE_ID.sub(lambda m: f"_{ord(m.group()):x}_", key)


def slug(text: str) -> str:
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return cleaned or "house"


def safe_colour(colour: str | None) -> str | None:
    return colour.lower() if colour is not None and _COLOUR.fullmatch(colour) else None


def tint(colour: str, amount: float = 0.78) -> str:
    """``colour`` mixed with white, light enough for black text."""
    channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    mixed = [round(c + (255 - c) * amount) for c in channels]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def years(person: TreePerson) -> str:
    return f"*{person.born}" + (f" †{person.died}" if person.died is not None else "")


def years_slot(person: TreePerson) -> str:
    """The years line as planned and laid out: a death year's room is kept for the
    living too (digits are all one width), so a death changes what a box says and
    never its size, and the part keeps its layout (``fill_lives`` writes the years)."""
    return f"*{person.born} †{'0' * max(4, len(str(person.born)))}"


# -- the family graph ----------------------------------------------------------


@dataclass
class _Family:
    people: dict[str, TreePerson]
    unions: dict[tuple[str, str], int | None]
    children: dict[str, list[str]]
    spouses: dict[str, list[str]]
    ranks: dict[str, dict[str, int]] = field(default_factory=dict)
    by_partner: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    by_dynasty: dict[str | None, set[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The unions of each person, so that a diagram visits only its own.
        for union in self.unions:
            for partner in union:
                self.by_partner.setdefault(partner, []).append(union)
        for pid, person in self.people.items():
            self.by_dynasty.setdefault(person.dynasty, set()).add(pid)

    @classmethod
    def of(cls, people: Iterable[TreePerson], marriages: Iterable[TreeMarriage]) -> _Family:
        index = {p.id: p for p in sorted(people, key=lambda p: p.id)}
        unions: dict[tuple[str, str], int | None] = {}
        for m in sorted(marriages, key=lambda m: (m.husband, m.wife, m.year or 0)):
            if m.husband in index and m.wife in index:
                unions.setdefault((m.husband, m.wife), m.year)
        for p in index.values():
            if p.father is not None and p.mother is not None and {p.father, p.mother} <= index.keys():
                unions.setdefault((p.father, p.mother), None)
        children: dict[str, list[str]] = {}
        for p in sorted(index.values(), key=lambda p: (p.born, p.id)):
            for parent in (p.father, p.mother):
                if parent is not None and parent in index:
                    children.setdefault(parent, []).append(p.id)
        spouses: dict[str, list[str]] = {}
        for husband, wife in sorted(unions, key=lambda u: (unions[u] or 0, u)):
            spouses.setdefault(husband, []).append(wife)
            spouses.setdefault(wife, []).append(husband)
        return cls(index, unions, children, spouses)

    def generations(self, dynasty: str) -> dict[str, int]:
        """The members of ``dynasty`` and their ranks, computed once per dynasty."""
        if dynasty not in self.ranks:
            self.ranks[dynasty] = _generations(self, self.by_dynasty.get(dynasty, set()))
        return self.ranks[dynasty]

    def parents(self, pid: str) -> list[str]:
        person = self.people[pid]
        return [p for p in (person.father, person.mother) if p is not None and p in self.people]


def _generations(family: _Family, members: set[str]) -> dict[str, int]:
    """Rank of each member: one below their parents, founders level with their spouse.

    Visiting in order of birth settles ordinary families in one pass; the
    loop is bounded so that tangled data (a widow marrying her stepson)
    yields some layout instead of looping.
    """
    order = sorted(members, key=lambda pid: (family.people[pid].born, pid))
    parents = {pid: [p for p in family.parents(pid) if p in members] for pid in order}
    spouses = {
        pid: [s for s in family.spouses.get(pid, []) if s in members]
        for pid in order
        if not parents[pid]
    }
    gen = dict.fromkeys(order, 0)
    for _ in range(len(order) + 1):
        changed = False
        for pid in order:
            value = max((gen[p] + 1 for p in parents[pid]), default=0)
            if pid in spouses:
                value = max([value] + [gen[s] for s in spouses[pid]])
            if value > gen[pid]:
                gen[pid] = value
                changed = True
        if not changed:
            break
    return gen


# -- sizes ---------------------------------------------------------------------
#
# Splitting needs each diagram's width before Graphviz has laid it out (the
# pages that link to the parts are written meanwhile), so boxes are measured
# here with Helvetica's proportions, rounded up: a part planned to fit does.

MAX_WIDTH_PX = 2400  # the widest a part may be at 1:1 (issue 16)
PT_PER_PX = 0.75  # Graphviz writes SVG sizes in points
MAX_WIDTH_PT = MAX_WIDTH_PX * PT_PER_PX
# Graphviz spreads families wider than the boxes they hold (a deep line drifts
# sideways: up to two thirds wider, measured on the benchmark campaign): the
# plan keeps a quarter spare, and a drawing still too wide is scaled to fit
# (``size``). Boxes' text is 10 pt, 13 CSS px at 100 %: the scaling would have
# to pass 3/4 before any text came out smaller than ``MIN_TEXT_PX``.
WIDTH_BUDGET = MAX_WIDTH_PT * 0.75
MIN_TEXT_PX = 10
MAX_ROWS = 5  # generations in one part
NODESEP = 0.18  # inches, as in the DOT below
BOX_MARGIN_IN = 0.07  # the label's margin each side
_SEP_PT = NODESEP * 72
UNION_PT = 0.09 * 72 + _SEP_PT
BOX_MARGIN_PT = 2 * BOX_MARGIN_IN * 72 + 4  # both margins and a thick border
MIN_BOX_PT = 0.75 * 72  # Graphviz's default least node width
FONT_PT = 10  # 13 CSS px at 100 %

_NARROW = frozenset(" ilj.,:;'!|`")
_SMALL = frozenset("ftrI()[]-*/")
_WIDE = frozenset("mwMW@%")


@functools.lru_cache(maxsize=65536)  # names, titles and years repeat
def _text_pt(text: str, size: float, *, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in points at ``size``."""
    ems = 0.0
    for ch in text:
        if ch in _NARROW:
            ems += 0.28
        elif ch in _SMALL:
            ems += 0.36
        elif ch in _WIDE:
            ems += 0.92
        elif ch.isascii():
            ems += 0.74 if ch.isupper() else 0.58
        else:
            ems += 1.0
    return ems * size * (1.1 if bold else 1.0)


def _label_lines(person: TreePerson, dynasty: str) -> list[tuple[str, bool]]:
    """The lines of a person's box, and which one is bold."""
    crown = "♕" if person.sex.upper().startswith("F") else "♔"
    name = _shown_name(person)
    lines = [(f"{crown} {name}" if person.ruler or person.was_ruler else name, True)]
    if person.title:
        lines.append((clean_text(person.title), False))
    refs = person.diagram_refs(dynasty)
    if refs:
        lines.append((clean_text(" · ".join(refs)), False))
    lines.append((years_slot(person), False))
    return lines


def _shown_name(person: TreePerson) -> str:
    """The name a box and its tooltip show. Never blank: Graphviz refuses an empty
    bold line, and takes an empty tooltip as leave to show the label's markup."""
    return clean_text(person.name) or "?"


def box_width(person: TreePerson, dynasty: str) -> float:
    """The estimated width of ``person``'s box in ``dynasty``'s diagram, in points."""
    text = max(_text_pt(line, FONT_PT, bold=bold) for line, bold in _label_lines(person, dynasty))
    return max(MIN_BOX_PT, text + BOX_MARGIN_PT)


# -- splitting -----------------------------------------------------------------


def _descendants(family: _Family, members: set[str], pid: str) -> set[str]:
    """``pid``'s descendants in the dynasty (not ``pid``)."""
    found: set[str] = set()
    stack = [pid]
    while stack:
        for child in family.children.get(stack.pop(), []):
            if child in members and child not in found:
                found.add(child)
                stack.append(child)
    return found


class _Rows:
    """The estimated width of each generation of a part being planned."""

    def __init__(self, family: _Family, dynasty: str, gen: Mapping[str, int],
                 widths: dict[str, float]) -> None:
        self.family, self.dynasty, self.gen, self.widths = family, dynasty, gen, widths
        self.rows: dict[int, float] = {}

    def _box(self, pid: str) -> float:
        width = self.widths.get(pid)
        if width is None:
            width = self.widths[pid] = box_width(self.family.people[pid], self.dynasty)
        return width

    def cost(self, pid: str) -> float:
        """A member's box, their spouses' from other dynasties, and the unions between."""
        total = self._box(pid) + _SEP_PT
        for spouse in self.family.spouses.get(pid, []):
            total += UNION_PT
            if spouse not in self.gen:
                total += self._box(spouse) + _SEP_PT
        return total

    def added(self, pids: Iterable[str]) -> dict[int, float]:
        rows = dict(self.rows)
        for pid in pids:
            rows[self.gen[pid]] = rows.get(self.gen[pid], 0.0) + self.cost(pid)
        return rows

    def fits(self, pids: Iterable[str]) -> bool:
        return max(self.added(pids).values(), default=0.0) <= WIDTH_BUDGET

    def add(self, pids: Iterable[str]) -> None:
        self.rows = self.added(pids)


@dataclass(frozen=True)
class _Group:
    root: str | None
    members: frozenset[str]
    chunk: int  # 1, or which share of the root's children this part holds


def _split(family: _Family, dynasty: str, members: set[str], roots: list[str],
           max_members: int, widths: dict[str, float]) -> list[_Group]:
    """Parts of at most ``max_members`` members, each narrow enough (``WIDTH_BUDGET``).

    Each part takes whole generations while they fit (at most ``MAX_ROWS``:
    Graphviz drifts a deep line sideways, generation after generation), then the whole line
    of each person on its last rank if it still fits; any line left over
    opens a branch part rooted at that person. A branch whose root has more
    children than one part is wide is cut into several parts, each with the
    root and a run of the children (by birth).
    """
    gen = family.generations(dynasty)
    parts: list[_Group] = []
    queue: list[tuple[str | None, list[str]]] = [(None, roots)]

    def deep(pids: Iterable[str]) -> bool:
        ranks = [gen[pid] for pid in pids]
        return max(ranks) - min(ranks) >= MAX_ROWS

    def kids(level: Iterable[str], exclude: set[str]) -> list[str]:
        found = {c for p in level for c in family.children.get(p, []) if c in members}
        return sorted(found - exclude, key=lambda c: (family.people[c].born, c))

    while queue:
        root, level = queue.pop(0)
        rows = _Rows(family, dynasty, gen, widths)
        rows.add(level)
        first = kids(level, set(level))
        chunks: list[list[str]] = []
        for child in first:
            if (chunks and rows.fits(chunks[-1] + [child])
                    and len(level) + len(chunks[-1]) < max_members):
                chunks[-1].append(child)
            else:
                chunks.append([child])
        if len(chunks) <= 1:
            chunks = [first]
        for index, chunk in enumerate(chunks, start=1):
            rows = _Rows(family, dynasty, gen, widths)
            included = set(level) | set(chunk)
            rows.add(included)
            last = chunk or list(level)
            while chunk:
                nxt = kids(last, included)
                if (not nxt or len(included) + len(nxt) > max_members or not rows.fits(nxt)
                        or deep(included | set(nxt))):
                    break
                included.update(nxt)
                rows.add(nxt)
                last = nxt
            branches = []
            for pid in last:
                line = _descendants(family, members, pid) - included
                if (line and len(included) + len(line) <= max_members and rows.fits(line)
                        and not deep(included | line)):
                    included.update(line)
                    rows.add(line)
                elif line:
                    branches.append(pid)
            parts.append(_Group(root, frozenset(included), index))
            queue.extend((pid, [pid]) for pid in branches)
    return parts


def plan_parts(
    people: Iterable[TreePerson],
    marriages: Iterable[TreeMarriage],
    houses: Mapping[str, HouseLike],
    *,
    max_members: int = DEFAULT_MAX_MEMBERS,
) -> list[DiagramPart]:
    """The diagrams to draw, in file order, with their titles and members."""
    return _plan(_Family.of(people, marriages), houses, max_members)


def _plan(family: _Family, houses: Mapping[str, HouseLike], max_members: int) -> list[DiagramPart]:
    """Files are named after the dynasty (its trunk) and a branch's root person,
    so that a part keeps its name, and its cached layout, while others change."""
    plan: list[DiagramPart] = []
    dynasties = sorted(d for d in family.by_dynasty if d is not None)
    used: set[str] = set()

    def unique(stem: str) -> str:
        while stem in used:
            stem += "-x"
        used.add(stem)
        return stem

    widths: dict[str, float] = {}
    for dynasty in dynasties:
        widths.clear()
        gen = family.generations(dynasty)
        members = set(gen)
        roots = sorted(
            (pid for pid in members if not any(p in members for p in family.parents(pid))),
            key=lambda pid: (gen[pid], family.people[pid].born, pid),
        )
        house = houses.get(dynasty)
        house_name = clean_text(house.name) if house is not None else dynasty
        base = unique(slug(dynasty))
        groups = _split(family, dynasty, members, roots, max_members, widths)
        dynasty_parts: list[DiagramPart] = []
        for group in groups:
            title = house_name
            if group.root is None:
                stem = base if group.chunk == 1 else unique(f"{base}-{group.chunk}")
                title += f", {group.chunk}" if group.chunk > 1 else ""
            else:
                person = family.people[group.root]
                refs = person.ordered_refs()
                title += f": {clean_text(person.name)}" + (f" ({refs[0]})" if refs else "")
                # Named after the branch's root, not its place in the list: a
                # split that moves leaves every other part's name (and page) alone.
                stem = f"{base}--{slug(group.root)}"
                if group.chunk > 1:
                    stem += f"-{group.chunk}"
                    title += f", {group.chunk}"
                stem = unique(stem)
            up = None
            if group.root is not None:
                up = next((p.filename for p in dynasty_parts
                           if group.root in p.members and p.root != group.root), None)
            dynasty_parts.append(DiagramPart(dynasty, f"{stem}.svg", title, group.root,
                                             tuple(sorted(group.members)), up))
        plan.extend(dynasty_parts)
    return plan


# -- DOT -----------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _box_colours(colour: str | None) -> tuple[str, str]:
    """The quoted fill and border of a house's boxes (one house: one computation)."""
    safe = safe_colour(colour)
    return dot_string(tint(safe) if safe else NEUTRAL_FILL), dot_string(safe or NEUTRAL_BORDER)


_STYLE = dot_string("rounded,filled")


def _person_node(
    person: TreePerson, dynasty: str, houses: Mapping[str, HouseLike], link_for: LinkFor
) -> str:
    house = houses.get(person.dynasty) if person.dynasty is not None else None
    fill, border = _box_colours(house.color if house is not None else None)
    lines = [f"<B>{html_text(text)}</B>" if bold else
             f"<I>{html_text(text)}</I>" if person.title and index == 1 else html_text(text)
             for index, (text, bold) in enumerate(_label_lines(person, dynasty))]
    label = "<" + '<BR ALIGN="CENTER"/>'.join(lines) + ">"
    refs = person.diagram_refs(dynasty)
    # Whatever a death changes (the † year, the dashed border, the class, the
    # tooltip) is written by ``fill_lives`` after the layout, not laid out.
    classes = ["person"]
    node = node_id("p_", person.id)
    attrs = {
        "id": node,
        "label": label,
        "style": _STYLE,
        "fillcolor": fill,
        "color": border,
        "tooltip": dot_string(_tooltip(person, refs)),
    }
    if person.ruler or person.was_ruler:
        attrs["penwidth"] = "3"
        classes.append("ruler")
    if person.ruler:
        attrs["peripheries"] = "2"
    attrs["class"] = dot_string(" ".join(classes))
    url = link_for(person.id)
    if url:
        attrs["URL"] = dot_string(_url(url))
        attrs["target"] = '"_top"'
    return f"{node} [{_attrs(attrs)}];"


def _tooltip(person: TreePerson, refs: list[str]) -> str:
    return " ".join([_shown_name(person), *(f"({r})" for r in refs[:1])])


def _url(url: str) -> str:
    """Backslashes and spaces never belong in our relative links; quote them."""
    return url.replace("\\", "%5C").replace(" ", "%20").replace('"', "%22")


def _attrs(attrs: Mapping[str, str]) -> str:
    return ", ".join(f"{key}={value}" for key, value in attrs.items())


def diagram_dot(
    part: DiagramPart,
    family_people: Iterable[TreePerson],
    marriages: Iterable[TreeMarriage],
    houses: Mapping[str, HouseLike],
    link_for: LinkFor,
    *,
    continued: Mapping[str, DiagramPart] | None = None,
) -> str:
    """The DOT source of one diagram (pure text: the cache key)."""
    return _dot(part, _Family.of(family_people, marriages), houses, link_for, continued or {})


Union = tuple[str, str]  # (husband, wife); (parent, "") for a child of one known parent


@dataclass
class _Layout:
    """Where a part's nodes go: ranks, and the left-to-right run of each family.

    ``runs`` are the marriage groups of a rank (a person, their spouses and
    the union points between), each a list of node names in order;
    ``across`` the unions whose spouses could not share a rank (one
    descends from the other's family), drawn on the lower spouse's.
    """

    rank: dict[str, int]
    runs: list[list[str]]
    across: set[Union]


def _layout(family: _Family, members: set[str], shown: Mapping[str, None],
            unions: list[Union]) -> _Layout:
    """Spouses share a rank, a child is ranked below both parents.

    Marriages join their spouses into one group in date order, unless that
    would put someone on the rank of their own ancestor (a widow marrying
    her stepson): such a marriage is drawn across ranks instead.
    """
    group = {pid: pid for pid in shown}

    def find(pid: str) -> str:
        while group[pid] != pid:
            group[pid] = group[group[pid]]
            pid = group[pid]
        return pid

    below: dict[str, list[str]] = {}
    for child in sorted(members):
        for parent in family.parents(child):
            if parent in shown:
                below.setdefault(parent, []).append(child)
    people_of: dict[str, list[str]] = {pid: [pid] for pid in shown}

    def reaches(start: str, goal: str) -> bool:
        seen = {start}
        stack = [start]
        while stack:
            for pid in people_of[stack.pop()]:
                for child in below.get(pid, []):
                    top = find(child)
                    if top == goal:
                        return True
                    if top not in seen:
                        seen.add(top)
                        stack.append(top)
        return False

    across: set[Union] = set()
    married: dict[str, list[tuple[Union, str]]] = {}
    for union in sorted(unions, key=lambda u: (family.unions.get(u) or 0, u)):
        husband, wife = union
        if not wife:
            continue
        a, b = find(husband), find(wife)
        if a != b and (reaches(a, b) or reaches(b, a)):
            across.add(union)
            continue
        if a != b:
            keep, gone = sorted((a, b))
            group[gone] = keep
            people_of[keep].extend(people_of.pop(gone))
        married.setdefault(husband, []).append((union, wife))
        married.setdefault(wife, []).append((union, husband))
    # Longest path down the groups: a group sits one rank below its lowest parent.
    tops = sorted(people_of)
    parents_of: dict[str, set[str]] = {top: set() for top in tops}
    for parent, children in below.items():
        for child in children:
            parents_of[find(child)].add(find(parent))
    level: dict[str, int] = {}
    for top in tops:
        stack = [top]
        while stack:
            here = stack[-1]
            if here in level:
                stack.pop()
                continue
            waiting = [p for p in sorted(parents_of[here]) if p not in level and p != here]
            if waiting:
                stack.extend(waiting)
                continue
            stack.pop()
            level[here] = max((level[p] + 1 for p in parents_of[here] if p != here), default=0)
    rank = {pid: level[find(pid)] for pid in shown}
    runs = [_run(family, people_of[top], married) for top in sorted(
        people_of, key=lambda t: (level[t], min(family.people[p].born for p in people_of[t]), t))]
    return _Layout(rank, runs, across)


def _run(family: _Family, people: list[str], married: Mapping[str, list[tuple[Union, str]]],
         ) -> list[str]:
    """A marriage group left to right: the most married person in the middle, their
    marriages in date order, the earlier half on the left; a spouse's other
    marriages further out on their side. Each union lies between its spouses."""
    def key(pid: str) -> tuple[int, int, str]:
        return (-len(married.get(pid, [])), family.people[pid].born, pid)

    hub = min(people, key=key)
    placed = {hub}
    closing: list[Union] = []

    def place(pid: str, side: int) -> list[str]:
        marriages = [(u, o) for u, o in married.get(pid, []) if o not in placed]
        placed.update(o for _u, o in marriages)
        if side == 0:
            half = len(marriages) // 2
            left, right = marriages[:half], marriages[half:]
        else:
            left, right = (marriages, []) if side < 0 else ([], marriages)
        run: list[str] = []
        for union, other in left:
            run += [*place(other, -1), node_id("u_", " ".join(union))]
        run.append(node_id("p_", pid))
        for union, other in right:
            run += [node_id("u_", " ".join(union)), *place(other, 1)]
        return run

    run = place(hub, 0)
    drawn = set(run)
    for pid in sorted(people):
        for union, _other in married.get(pid, []):
            name = node_id("u_", " ".join(union))
            if name not in drawn:
                closing.append(union)
                drawn.add(name)
    for union in closing:  # a ring of marriages: the last one right of its left spouse
        spots = [run.index(node_id("p_", p)) for p in union]
        run.insert(min(spots) + 1, node_id("u_", " ".join(union)))
    return run


def _dot(
    part: DiagramPart,
    family: _Family,
    houses: Mapping[str, HouseLike],
    link_for: LinkFor,
    continued: Mapping[str, DiagramPart],
    nodes: dict[tuple[str, str], str] | None = None,
) -> str:
    """``nodes`` (optional) keeps each person's node text between the diagrams
    of one build: a person shown in several is described once.

    Each marriage group of a rank is a cluster, so that nothing comes between
    a union point and its spouses; invisible edges inside it keep its order
    (Graphviz keeps an edge within a rank pointing right). Marriages are
    thick lines, descent thin ones from the union point down (a double line,
    as three parallel strokes, made the layouts a fifth slower).
    """
    members = set(part.members)
    nodes = {} if nodes is None else nodes
    shown: dict[str, None] = dict.fromkeys(sorted(members))
    for pid in sorted(members):
        for other in family.spouses.get(pid, []):
            shown.setdefault(other)
        # The other parent of a member's child (the root's own parents are not shown).
        for child in family.children.get(pid, []):
            if child in members:
                for parent in family.parents(child):
                    shown.setdefault(parent)
    unions: list[Union] = sorted(
        u for u in {u for pid in members for u in family.by_partner.get(pid, ())}
        if u[0] in shown and u[1] in shown)
    lone: list[Union] = []
    kids: dict[Union, list[str]] = {}
    for union in unions:
        husband, wife = union
        kids[union] = [c for c in family.children.get(husband, [])
                       if c in members and family.people[c].mother == wife]
    for pid in sorted(members, key=lambda c: (family.people[c].born, c)):
        parents = family.parents(pid)
        if len(parents) == 1:
            key = (parents[0], "")
            if key not in kids:
                lone.append(key)
                kids[key] = []
            kids[key].append(pid)
    layout = _layout(family, members, shown, unions)
    rank = layout.rank
    names = {node_id("p_", pid): pid for pid in shown}
    union_names = {node_id("u_", " ".join(u)): u for u in unions + lone}
    # A lone parent's union, and one across ranks, beside the (lower) parent in their run.
    beside = [(u, u[0]) for u in lone] + [
        (u, min(u, key=lambda p: (-layout.rank[p], p))) for u in sorted(layout.across)]
    for union, parent in beside:
        for run in layout.runs:
            spot = node_id("p_", parent)
            if spot in run:
                run.insert(run.index(spot) + 1, node_id("u_", " ".join(union)))
    lines = [
        f"digraph {dot_string(part.title)} {{",
        f"  graph [rankdir=TB, newrank=true, nodesep={NODESEP}, ranksep=0.5, "
        f'size="{MAX_WIDTH_PT / 72:g},1000", '

        f"fontname=Helvetica, fontsize=18, labelloc=t, label=<{html_text(part.title)}>];",
        f'  node [fontname=Helvetica, fontsize={FONT_PT}, shape=box, margin="{BOX_MARGIN_IN},0.04"];',
        '  edge [arrowhead=none, color="#555555"];',
    ]
    where: dict[str, int] = {}
    for index, run in enumerate(layout.runs):
        for name in run:
            where[name] = index
    # Families in depth-first order (a run, then its children's runs): Graphviz
    # seeds each rank's order with the order nodes come in.
    order: list[int] = []
    seen: set[int] = set()
    stack = list(reversed(range(len(layout.runs))))
    while stack:
        index = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        order.append(index)
        below = [where[node_id("p_", c)] for name in layout.runs[index]
                 if name in union_names for c in kids.get(union_names[name], [])]
        stack.extend(reversed([i for i in dict.fromkeys(below) if i not in seen]))
    ranks: dict[int, list[str]] = {}
    edges: list[str] = []
    for index in order:
        run = layout.runs[index]
        body: list[str] = []
        for name in run:
            who = names.get(name)
            if who is not None:
                text = nodes.get((part.dynasty, who))
                if text is None:
                    text = nodes[part.dynasty, who] = "  " + _person_node(
                        family.people[who], part.dynasty, houses, link_for)
                body.append(text)
                ranks.setdefault(rank[who], []).append(name)
            else:
                body.append("  " + _union_node(family, union_names[name],
                                               union_names[name] in layout.across))
                owner = union_names[name][0] if not union_names[name][1] else min(
                    union_names[name], key=lambda p: (-rank[p], p))
                ranks.setdefault(rank[owner], []).append(name)
        if len(run) > 1:
            lines.append(f'  subgraph cluster_{index} {{ graph [label="", peripheries=0, margin=2];')
            lines.extend("  " + text for text in body)
            lines.append("  }")
        else:
            lines.extend(body)
        for left, right in itertools.pairwise(run):
            joined = union_names.get(left) or union_names.get(right)
            if joined is not None and joined[1] and {names.get(left), names.get(right)} & set(joined):
                edges.append(f"  {left} -> {right} [{MARRIAGE}];")
            else:
                edges.append(f"  {left} -> {right} [style=invis];")
        at = {name: i for i, name in enumerate(run)}
        for name in run:
            couple = union_names.get(name)
            if couple is None or not couple[1]:
                continue
            position = at[name]
            for spouse in couple:
                spot = node_id("p_", spouse)
                if spot in at and abs(at[spot] - position) > 1:
                    pair = (spot, name) if at[spot] < position else (name, spot)
                    edges.append(f"  {pair[0]} -> {pair[1]} [{MARRIAGE}];")
    for union in sorted(layout.across):
        name = node_id("u_", " ".join(union))
        upper = min(union, key=lambda p: (rank[p], p))
        edges.append(f"  {node_id('p_', upper)} -> {name} [{MARRIAGE}, constraint=false];")
    for union in unions + lone:
        name = node_id("u_", " ".join(union))
        edges.extend(f"  {name} -> {node_id('p_', c)} [{DESCENT}];" for c in kids[union])
    for index in order:
        for name in layout.runs[index]:
            shown_id = names.get(name)
            branch = continued.get(shown_id) if shown_id is not None else None
            if shown_id is not None and branch is not None and branch.filename != part.filename:
                more = node_id("more_", shown_id)
                lines.append(
                    f'  {more} [shape=plaintext, label="⋯", fontsize=16, class="more", '
                    f"tooltip={dot_string(branch.title)}, URL={dot_string(_url(page_name(branch)))}, "
                    'target="_top"];')
                edges.append(f"  {name} -> {more} [style=dotted];")
    lines.extend(edges)
    for level in sorted(ranks):
        lines.append("  { rank=same; " + "; ".join(ranks[level]) + "; }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def page_name(part: DiagramPart) -> str:
    """The page showing ``part`` at 100 %, beside its SVG (``<name>.html``)."""
    return part.filename.removesuffix(".svg") + ".html"


MARRIAGE = 'class="marriage", penwidth=2.5, weight=8'
DESCENT = 'class="descent", weight=2'


def _union_node(family: _Family, union: Union, across: bool = False) -> str:
    """A union's point; ``across``: its spouses could not share a rank (class ``across``)."""
    husband, wife = union
    name = node_id("u_", " ".join(union))
    if not wife:
        return (f'{name} [shape=point, width=0.06, class="union", '
                f"tooltip={dot_string(clean_text(family.people[husband].name))}];")
    year = family.unions[union]
    tip = f"{clean_text(family.people[husband].name)} ⚭ {clean_text(family.people[wife].name)}"
    tip += f" {year}" if year is not None else ""
    # The year is in the tooltip, not written beside the point: placing such
    # labels was a sixth of all the layout time, and the pages give the years.
    kind = "union across" if across else "union"
    return f'{name} [shape=point, width=0.09, class="{kind}", tooltip={dot_string(tip)}];'


# -- rendering -----------------------------------------------------------------


def render_svg(dot: str) -> str:
    """Lay out ``dot`` with the bundled Graphviz engine; strip what varies by install.

    The version comment and per-node comments go (a comment may not contain
    ``--``, and the version would make identical sites differ between
    machines), and so does the DOCTYPE, which points at an external DTD.
    """
    dot_engine = engine()
    if dot_engine is not None:
        raw = dot_engine.svg(dot)
    else:
        raw = pygraphviz.AGraph(string=dot).draw(format="svg", prog="dot")
    svg = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
    svg = _COMMENT.sub("", _DOCTYPE.sub("", svg))
    return svg if svg.endswith("\n") else svg + "\n"


# Graphviz starts each element of the graph on a line of its own with ``<g id=``: a
# node's group (``p_<id>``, see ``node_id``), then its link's group (``a_p_<id>``),
# which holds the box's outline and its lines of text.
_ELEMENT = '\n<g id="'
_PERSON_CLASS = ' class="node person'
_ANCHOR_AT_START = re.compile(r'text-anchor="start" x="[^"]*"')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_DASHED = ' stroke-dasharray="5,2"'
_OUTLINES = (("<path ", ' d="'), ("<polygon ", ' points="'))


def fill_lives(svg: str, people: Mapping[str, TreePerson]) -> str:
    """Write into a laid-out part what a death changes: each person's years (centred
    in the room ``years_slot`` kept), tooltip, ``dead`` or ``living`` class and,
    for the dead, the dashed border.

    ``people``: by node name (``node_id("p_", id)``). The layout thus depends
    on who is in the part, not on who has died since, and stays in the cache.
    Everything written is escaped text, a number, a class name or one fixed
    attribute. Plain string searches, which pass over what they do not
    find: any text may come from the cache, whose entries are checked only
    once filled (``_Drawing._finished``).
    """
    chunks = svg.split(_ELEMENT)
    person: TreePerson | None = None
    for index in range(1, len(chunks)):
        chunk = chunks[index]
        if chunk.startswith("p_"):
            name, _quote, rest = chunk.partition('"')
            person = people.get(name) if rest.startswith(_PERSON_CLASS) else None
            if person is not None:
                state = "dead" if person.died is not None else "living"
                chunks[index] = (f'{name}"{_PERSON_CLASS} {state}'
                                 f"{rest[len(_PERSON_CLASS):]}")
        elif person is not None and chunk.startswith("a_p_"):
            chunks[index] = _filled_box(chunk, person)
            person = None
        else:
            person = None
    return _ELEMENT.join(chunks)


def _filled_box(box: str, person: TreePerson) -> str:
    """A person's link group: tooltip, border and years line (``fill_lives``)."""
    told = years(person)
    title = box.find('xlink:title="')
    end = box.find('"', title + len('xlink:title="')) if title >= 0 else -1
    if end >= 0:
        box = f"{box[:end]} {html.escape(told, quote=True)}{box[end:]}"
    if person.died is not None:
        for tag, attribute in _OUTLINES:
            # Pieces joined once: a box from the cache may hold any number of
            # outlines, and copying the box at each would cost their square.
            pieces: list[str] = []
            done, at = 0, box.find(tag)
            while at >= 0 and (at := box.find(attribute, at)) >= 0:
                pieces += (box[done:at], _DASHED)
                done = at
                at = box.find(tag, at + len(attribute))
            box = "".join(pieces) + box[done:]
    found = [(at, attribute) for tag, attribute in _OUTLINES if (at := box.find(tag)) >= 0]
    if not found:
        return box
    at, attribute = min(found)
    begin = box.find(attribute, at) + len(attribute)
    stop = box.find('"', begin)
    xs = [float(n) for n in _NUMBER.findall(box[begin:stop])[0::2]] if stop >= begin else []
    text = box.rfind("<text ")
    close = box.find(">", text) if text >= 0 else -1
    finish = box.find("</text>", close) if close >= 0 else -1
    if not xs or finish < 0:
        return box
    opening = _ANCHOR_AT_START.sub(
        f'text-anchor="middle" x="{(min(xs) + max(xs)) / 2:.2f}"', box[text:close], count=1)
    return f"{box[:text]}{opening}>{html.escape(told, quote=False)}{box[finish:]}"


def graphviz_cache(folder: Path) -> RenderCache:
    """The cache for genealogy SVG, salted with the engine and our post-processing."""
    return RenderCache(folder, salt=_renderer())


def _renderer() -> str:
    """What lays the parts out, besides their DOT: the engine and our post-processing."""
    metrics = "built-in metrics" if engine() is not None else "pango metrics"
    return f"pygraphviz {pygraphviz.__version__} {metrics} {RENDER_VERSION}"


_NODE_DECLARED = re.compile(r"^\s*(p_[0-9A-Za-z_]+) \[id=", re.MULTILINE)


def render_genealogies(
    people: Iterable[TreePerson],
    marriages: Iterable[TreeMarriage],
    houses: Mapping[str, HouseLike],
    link_for: LinkFor,
    *,
    cache_dir: Path | None = None,
    render: Renderer = render_svg,
    max_members: int = DEFAULT_MAX_MEMBERS,
) -> Genealogies:
    """Every dynasty's diagram(s): ``svgs`` maps file name to SVG text.

    ``link_for(person_id)`` gives the person's page relative to the SVG's
    folder (None: no link). With ``cache_dir``, a diagram whose DOT is
    unchanged is read from the cache instead of laid out again.
    """
    return start_genealogies(people, marriages, houses, link_for, cache_dir=cache_dir,
                             render=render, max_members=max_members).result()


@dataclass
class _Drawing:
    """Everything needed to write any part's DOT and lay it out.

    A forked child (``executor.start``) has it in its copy of the memory, so
    nothing is pickled but the SVG on the way out.
    """

    parts: tuple[DiagramPart, ...]
    family: _Family
    houses: Mapping[str, HouseLike]
    link_for: LinkFor
    render: Renderer
    cache: RenderCache | None
    continued: dict[str, dict[str, DiagramPart]]
    before: DrawnBefore | None = None
    nodes: dict[tuple[str, str], str] = field(default_factory=dict)

    def drawn(self, index: int, *, again: bool = False) -> tuple[str, str | None]:
        """Part ``index``'s print and drawing; no drawing (None) when the last build
        made one of the same print, unless ``again``.

        The print is of all the drawing is made from: its DOT (the layout's
        cache key), what ``fill_lives`` writes into the layout, the renderer
        and the code (``DrawnBefore.code``).
        """
        part = self.parts[index]
        dot = _dot(part, self.family, self.houses, self.link_for,
                   self.continued[part.dynasty], self.nodes)
        digest = hashlib.blake2b(_renderer().encode(), digest_size=16)
        digest.update(self.before.code.encode() if self.before is not None else b"")
        digest.update(dot.encode())
        for name in _NODE_DECLARED.findall(dot):
            person = self.by_node.get(name)
            digest.update(f"\0{name} {years(person) if person is not None else ''}".encode())
        printed = digest.hexdigest()
        if not again and self.before is not None and self.before.prints(part.filename) == printed:
            if self.cache is not None:
                self.cache.touch(dot)  # still this part's layout: kept in the cache
            return printed, None
        # The years are written in before a cached layout is checked: what is
        # checked is the drawing as published. A fresh layout is checked here
        # too; refused, it goes out unchecked, and the build refuses it.
        drawing = render_cached(dot, self.render, self.cache,
                                functools.partial(fill_lives, people=self.by_node))
        return printed, accepted(drawing) or drawing

    @functools.cached_property
    def by_node(self) -> dict[str, TreePerson]:
        return {node_id("p_", pid): person for pid, person in self.family.people.items()}

    def svgs(self, indices: range) -> list[tuple[str, str | None]]:
        return [self.drawn(i) for i in indices]


class PendingGenealogies:
    """Diagrams planned now and drawn in the background; ``result()`` waits.

    The plan (``parts``: files and members) is known at once, so the pages
    that link to the diagrams can be written while Graphviz works. Parts are
    independent, so with enough of them one child process per core writes
    the DOT of its share, reads it from the cache or lays it out; each SVG
    depends on its DOT alone, so the result is the same whichever process
    drew it, in the plan's order.
    """

    def __init__(self, drawing: _Drawing) -> None:
        self.parts = drawing.parts
        self._drawing = drawing
        self._index = {part.filename: index for index, part in enumerate(self.parts)}
        count = len(self.parts)
        worth = drawing.render is render_svg and count >= PARALLEL_FROM
        cores = os.cpu_count() or 1
        shares = [range(k, count, cores) for k in range(cores)] if worth else [range(count)]
        self._shares = shares
        self._jobs: list[executor.Job[list[tuple[str, str | None]]]] = [
            executor.start(functools.partial(drawing.svgs, share), worth_forking=worth)
            for share in shares]

    def cancel(self) -> None:
        """Stop the layouts still running, as when the build fails before using them."""
        for job in self._jobs:
            job.cancel()
        self._jobs = []

    def result(self) -> Genealogies:
        drawn: list[tuple[str, str | None]] = [("", None)] * len(self.parts)
        try:
            for share, job in zip(self._shares, self._jobs, strict=True):
                for index, made in zip(share, job.result(), strict=True):
                    drawn[index] = made
        finally:
            self.cancel()
        return Genealogies(
            self.parts,
            {part.filename: svg for part, (_p, svg) in zip(self.parts, drawn, strict=True)
             if svg is not None},
            {part.filename: printed for part, (printed, _s) in zip(self.parts, drawn,
                                                                    strict=True)})

    def redraw(self, filename: str) -> str:
        """The drawing of the part ``filename`` made here, though the last build made
        it already (its page or file is gone, or the page around it changed)."""
        svg = self._drawing.drawn(self._index[filename], again=True)[1]
        assert svg is not None
        return svg


PARALLEL_FROM = 8  # fewer diagrams than this are quicker than starting processes


def start_genealogies(
    people: Iterable[TreePerson],
    marriages: Iterable[TreeMarriage],
    houses: Mapping[str, HouseLike],
    link_for: LinkFor,
    *,
    cache_dir: Path | None = None,
    render: Renderer = render_svg,
    max_members: int = DEFAULT_MAX_MEMBERS,
    before: DrawnBefore | None = None,
) -> PendingGenealogies:
    """Plan every diagram and start drawing them (see ``PendingGenealogies``);
    ``before``: the prints of the last build's drawings, which are not made again."""
    family = _Family.of(people, marriages)
    parts = _plan(family, houses, max_members)
    cache = graphviz_cache(cache_dir) if cache_dir is not None else None
    by_dynasty: dict[str, list[DiagramPart]] = {}
    for part in parts:
        by_dynasty.setdefault(part.dynasty, []).append(part)
    continued = {dynasty: {p.root: p for p in group if p.root is not None}
                 for dynasty, group in by_dynasty.items()}
    return PendingGenealogies(
        _Drawing(tuple(parts), family, houses, link_for, render, cache, continued, before))

"""Genealogies: one clickable Graphviz diagram per dynasty, as SVG.

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
- each union is a small point between the spouses, on their rank, and the
  children hang from it; each generation shares one rank;
- spouses from other dynasties appear in their own house colour, the minor
  nobility in grey.

Layout must not change when the data does not: nodes go in a fixed
depth-first family order (which also seeds Graphviz's rank ordering, keeping
children under their parents), edges in sorted order, and the SVG is cleaned
of Graphviz's version comment. ``ordering=out`` is deliberately not set: it
pins each union's out-edges (spouse and children) in input order and
tangles the tree, while Graphviz is deterministic for a given input anyway. All text goes into HTML-like labels escaped, and
into attributes through :func:`dot_string`, so no name can inject markup.

A dynasty larger than ``max_members`` is split: the first diagram holds the
founders and as many generations as fit (then whole lines that still fit),
and each person on its last rank whose line did not fit opens a branch
diagram, recursively; the person's box there links on with a ⋯ node. Files are
named ``<dynasty>.svg``, ``<dynasty>-2.svg``... in that order. Splitting is
also what keeps large dynasties fast: Graphviz's layout time grows much
faster than the diagram (a 10,000-person dynasty in one diagram takes
minutes, in parts of 60 about a second), and the parts are laid out
independently, one process per core (:func:`start_genealogies`).
"""

from __future__ import annotations

import functools
import html
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pygraphviz  # type: ignore[import-untyped]

from chronicle.publish import executor
from chronicle.publish.cache import RenderCache, Renderer, render_cached
from chronicle.publish.dot_engine import engine

NEUTRAL_FILL = "#eeeeee"
NEUTRAL_BORDER = "#777777"
RENDER_VERSION = "genealogy-svg-3"  # bump when render_svg's output changes
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


@dataclass(frozen=True)
class Genealogies:
    parts: tuple[DiagramPart, ...]
    svgs: dict[str, str]


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


def _split(
    family: _Family, members: set[str], roots: list[str], max_members: int
) -> list[tuple[str | None, set[str]]]:
    """Groups of at most ``max_members`` (at least two generations each).

    Each group takes whole generations while they fit, then the whole line
    of each person on its last rank if it still fits; any line left over
    opens a branch group rooted at that person.
    """
    parts: list[tuple[str | None, set[str]]] = []
    queue: list[tuple[str | None, list[str]]] = [(None, roots)]
    while queue:
        root, level = queue.pop(0)
        included = set(level)
        depth = 1
        while True:
            nxt = sorted(
                {c for p in level for c in family.children.get(p, []) if c in members} - included,
                key=lambda c: (family.people[c].born, c),
            )
            if not nxt or (depth >= 2 and len(included) + len(nxt) > max_members):
                break
            included.update(nxt)
            level = nxt
            depth += 1
        branches = []
        for pid in level:
            line = _descendants(family, members, pid) - included
            if line and len(included) + len(line) <= max_members:
                included.update(line)
            elif line:
                branches.append(pid)
        parts.append((root, included))
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
    plan: list[DiagramPart] = []
    dynasties = sorted(d for d in family.by_dynasty if d is not None)
    used: set[str] = set()
    for dynasty in dynasties:
        gen = family.generations(dynasty)
        members = set(gen)
        roots = sorted(
            (pid for pid in members if not any(p in members for p in family.parents(pid))),
            key=lambda pid: (gen[pid], family.people[pid].born, pid),
        )
        house = houses.get(dynasty)
        house_name = clean_text(house.name) if house is not None else dynasty
        base = slug(dynasty)
        while base in used:
            base += "-x"
        used.add(base)
        groups = [(None, members)] if len(members) <= max_members else _split(
            family, members, roots, max_members
        )
        for root, group in groups:
            # Named after the branch's root, not its place in the list: a
            # split that moves leaves every other part's name (and page) alone.
            stem = base if root is None else f"{base}--{slug(root)}"
            while stem in used and root is not None:
                stem += "-x"
            used.add(stem)
            filename = f"{stem}.svg"
            title = house_name
            if root is not None:
                person = family.people[root]
                refs = person.ordered_refs()
                title += f": {clean_text(person.name)}" + (f" ({refs[0]})" if refs else "")
            plan.append(DiagramPart(dynasty, filename, title, root, tuple(sorted(group))))
    return plan


# -- DOT -----------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _box_colours(colour: str | None) -> tuple[str, str]:
    """The quoted fill and border of a house's boxes (one house: one computation)."""
    safe = safe_colour(colour)
    return dot_string(tint(safe) if safe else NEUTRAL_FILL), dot_string(safe or NEUTRAL_BORDER)


_STYLE = {True: dot_string("rounded,filled,dashed"), False: dot_string("rounded,filled")}


def _person_node(
    person: TreePerson, dynasty: str, houses: Mapping[str, HouseLike], link_for: LinkFor
) -> str:
    house = houses.get(person.dynasty) if person.dynasty is not None else None
    fill, border = _box_colours(house.color if house is not None else None)
    crown = "♕" if person.sex.upper().startswith("F") else "♔"
    name = html_text(person.name)
    lines = [f"<B>{crown} {name}</B>" if person.ruler or person.was_ruler else f"<B>{name}</B>"]
    if person.title:
        lines.append(f"<I>{html_text(person.title)}</I>")
    refs = person.diagram_refs(dynasty)
    if refs:
        lines.append(html_text(" · ".join(refs)))
    lines.append(html_text(years(person)))
    label = "<" + '<BR ALIGN="CENTER"/>'.join(lines) + ">"
    classes = ["person", "dead" if person.died is not None else "living"]
    attrs = {
        "label": label,
        "style": _STYLE[person.died is not None],
        "fillcolor": fill,
        "color": border,
        "tooltip": dot_string(
            " ".join([clean_text(person.name), *(f"({r})" for r in refs[:1]), years(person)])
        ),
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
    return f"{node_id('p_', person.id)} [{_attrs(attrs)}];"


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


def _tree_order(family: _Family, members: set[str], shown: Mapping[str, int]) -> list[str]:
    """Depth-first family order (person, spouses, then children by birth).

    Graphviz seeds its ordering of each rank with the order nodes appear in,
    so emitting families together keeps children under their parents.
    """
    def key(pid: str) -> tuple[int, int, str]:
        return (shown[pid], family.people[pid].born, pid)

    roots = sorted(
        (pid for pid in members if not any(p in members for p in family.parents(pid))), key=key
    )
    order: list[str] = []
    seen: set[str] = set()
    stack = list(reversed(roots))
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        order.append(pid)
        for spouse in family.spouses.get(pid, []):
            if spouse in shown and spouse not in seen:
                seen.add(spouse)
                order.append(spouse)
        kids = [c for c in family.children.get(pid, []) if c in members and c not in seen]
        stack.extend(reversed(kids))
    order.extend(sorted((pid for pid in shown if pid not in seen), key=key))
    return order


def _dot(
    part: DiagramPart,
    family: _Family,
    houses: Mapping[str, HouseLike],
    link_for: LinkFor,
    continued: Mapping[str, DiagramPart],
    nodes: dict[tuple[str, str], str] | None = None,
) -> str:
    """``nodes`` (optional) keeps each person's node text between the diagrams
    of one build: a person shown in several is described once."""
    members = set(part.members)
    nodes = {} if nodes is None else nodes
    gen = family.generations(part.dynasty)
    guests: dict[str, int] = {}
    for pid in sorted(members):
        for other in family.spouses.get(pid, []):
            if other not in members:
                guests[other] = min(guests.get(other, gen[pid]), gen[pid])
        for child in family.children.get(pid, []):
            if child in members:
                for parent in family.parents(child):
                    if parent not in members:
                        guests[parent] = min(guests.get(parent, gen[pid]), gen[pid])
    shown = {**{pid: gen[pid] for pid in members}, **guests}
    ranks: dict[int, list[str]] = {}
    lines = [
        f"digraph {dot_string(part.title)} {{",
        f"  graph [rankdir=TB, nodesep=0.3, ranksep=0.55, fontname=Helvetica, "
        f"fontsize=18, labelloc=t, label=<{html_text(part.title)}>];",
        '  node [fontname=Helvetica, fontsize=11, shape=box, margin="0.10,0.05"];',
        '  edge [arrowhead=none, color="#555555"];',
    ]
    order = _tree_order(family, members, shown)
    for pid in order:
        node = node_id("p_", pid)
        text = nodes.get((part.dynasty, pid))
        if text is None:
            text = nodes[part.dynasty, pid] = "  " + _person_node(
                family.people[pid], part.dynasty, houses, link_for)
        lines.append(text)
        ranks.setdefault(shown[pid], []).append(node)
    for pid in order:
        branch = continued.get(pid)
        if branch is not None and branch.filename != part.filename:
            more = node_id("more_", pid)
            lines.append(
                f'  {more} [shape=plaintext, label="⋯", fontsize=16, '
                f"tooltip={dot_string(branch.title)}, URL={dot_string(_url(branch.filename))}, "
                'target="_top"];'
            )
            lines.append(f"  {node_id('p_', pid)} -> {more} [style=dotted];")
    edges: list[str] = []
    own = sorted({u for pid in members for u in family.by_partner.get(pid, ())})
    for husband, wife in own:
        year = family.unions[(husband, wife)]
        if husband not in shown or wife not in shown:
            continue
        if husband not in members and wife not in members:
            continue
        union = node_id("u_", f"{husband} {wife}")
        tip = f"{clean_text(family.people[husband].name)} ⚭ {clean_text(family.people[wife].name)}"
        tip += f" {year}" if year is not None else ""
        xlabel = f", xlabel={dot_string(str(year))}" if year is not None else ""
        lines.append(
            f"  {union} [shape=point, width=0.09, fontsize=8, tooltip={dot_string(tip)}{xlabel}];"
        )
        if shown[husband] == shown[wife]:
            ranks.setdefault(shown[husband], []).append(union)
        edges.append(f"  {node_id('p_', husband)} -> {union} [weight=5];")
        edges.append(f"  {union} -> {node_id('p_', wife)} [weight=5];")
        kids = [
            c for c in family.children.get(husband, [])
            if c in members and family.people[c].mother == wife
        ]
        edges.extend(f"  {union} -> {node_id('p_', c)};" for c in kids)
    for pid in order:
        if pid not in members:
            continue
        parents = [p for p in family.parents(pid) if p in shown]
        if len(parents) == 1 or (len(parents) == 2 and tuple(parents) not in family.unions):
            edges.extend(f"  {node_id('p_', p)} -> {node_id('p_', pid)};" for p in parents)
    lines.extend(edges)
    for rank in sorted(ranks):
        lines.append("  { rank=same; " + "; ".join(ranks[rank]) + "; }")
    lines.append("}")
    return "\n".join(lines) + "\n"


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


def graphviz_cache(folder: Path) -> RenderCache:
    """The cache for genealogy SVG, salted with the engine and our post-processing."""
    metrics = "built-in metrics" if engine() is not None else "pango metrics"
    return RenderCache(folder, salt=f"pygraphviz {pygraphviz.__version__} {metrics} "
                                    f"{RENDER_VERSION}")


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
    nodes: dict[tuple[str, str], str] = field(default_factory=dict)

    def svg(self, index: int) -> str:
        part = self.parts[index]
        dot = _dot(part, self.family, self.houses, self.link_for,
                   self.continued[part.dynasty], self.nodes)
        return render_cached(dot, self.render, self.cache)

    def svgs(self, indices: range) -> list[str]:
        return [self.svg(i) for i in indices]


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
        count = len(self.parts)
        worth = drawing.render is render_svg and count >= PARALLEL_FROM
        cores = os.cpu_count() or 1
        shares = [range(k, count, cores) for k in range(cores)] if worth else [range(count)]
        self._shares = shares
        self._jobs: list[executor.Job[list[str]]] = [
            executor.start(functools.partial(drawing.svgs, share), worth_forking=worth)
            for share in shares]

    def cancel(self) -> None:
        """Stop the layouts still running, as when the build fails before using them."""
        for job in self._jobs:
            job.cancel()
        self._jobs = []

    def result(self) -> Genealogies:
        svgs: list[str | None] = [None] * len(self.parts)
        try:
            for share, job in zip(self._shares, self._jobs, strict=True):
                for index, svg in zip(share, job.result(), strict=True):
                    svgs[index] = svg
        finally:
            self.cancel()
        return Genealogies(self.parts, {part.filename: svg for part, svg
                                        in zip(self.parts, svgs, strict=True) if svg is not None})


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
) -> PendingGenealogies:
    """Plan every diagram and start drawing them (see ``PendingGenealogies``)."""
    family = _Family.of(people, marriages)
    parts = _plan(family, houses, max_members)
    cache = graphviz_cache(cache_dir) if cache_dir is not None else None
    by_dynasty: dict[str, list[DiagramPart]] = {}
    for part in parts:
        by_dynasty.setdefault(part.dynasty, []).append(part)
    continued = {dynasty: {p.root: p for p in group if p.root is not None}
                 for dynasty, group in by_dynasty.items()}
    return PendingGenealogies(
        _Drawing(tuple(parts), family, houses, link_for, render, cache, continued))

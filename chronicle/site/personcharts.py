"""A person page's two small charts: four generations of ancestors, and the children.

A large campaign has thousands of person pages, and even a small Graphviz
layout costs a few milliseconds: laid out one by one, the charts would take
longer than the rest of the build. But with boxes of a fixed size, a chart's
layout depends only on its shape (which ancestors are known; how many
children each marriage had), and a campaign has a few dozen shapes. Each
shape is laid out once by Graphviz, with placeholder words, colours and
links, cached by the hash of its DOT like the genealogies; a page's chart
is that drawing with the placeholders filled in.

The drawing of a shape is checked (``svgsafe``) when it is laid out or read
from the cache; what is filled in cannot make it unsafe: text is escaped,
links are the site's own relative paths to person pages (slugs), colours
are ``#rrggbb``.

Slots of the ancestor chart are numbered as in a pedigree: 0 the person,
``2i+1`` and ``2i+2`` the father and mother of ``i``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from markupsafe import escape

from chronicle.site import genealogy
from chronicle.site.incremental.cache import RenderCache, render_cached
from chronicle.site.svgsafe import checked
from chronicle.views.data import HouseView, PersonView
from chronicle.views.kin import Kin

VERSION = "person-charts-1"  # bump when the DOT or the filling changes
ANCESTOR_SLOTS = 15  # four generations
NAME_CHARS = 24

_HOLE = re.compile(r"QQ(\d+)([nyht])|#fe00([0-9a-f]{2})")
_XML_DECLARATION = re.compile(r"<\?xml[^>]*\?>\s*")
_DIMENSIONS = re.compile(r'<svg width="(\d+)pt" height="(\d+)pt"')
# What Graphviz writes that an inline chart does without: ids (two charts on
# one page would repeat them), node names, the white background, the font
# on every line (set once, on the graph), digits beyond the first decimal.
_SLIM = (
    (re.compile(r'<title>[^<]*</title>\n?| id="[^"]*"| xml:space="preserve"'
                r'|<polygon fill="white" stroke="none"[^>]*/>\n?'
                r'| font-family="Helvetica,sans-Serif" font-size="10.00"'), ""),
    (re.compile(r'<g class="graph"'), '<g class="graph" font-family="Helvetica,sans-Serif" '
                                       'font-size="10"'),
    (re.compile(r"(\d)\.(\d)\d+"), r"\1.\2"),
)

Shape = tuple[object, ...]


def _node(slot: int, self_: bool = False) -> str:
    extra = ', penwidth=3, color="#222222", class="self"' if self_ else ""
    return (f'  s{slot} [label="QQ{slot}n\\nQQ{slot}y", fillcolor="#fe00{slot:02x}", '
            f'URL="QQ{slot}h.html", tooltip="QQ{slot}t"{extra}];')


_HEAD = ('  node [shape=box, style=filled, fixedsize=true, width=1.9, height=0.46, '
         'fontname=Helvetica, fontsize=10, color="#777777", margin="0.04,0.02"];\n'
         '  edge [arrowhead=none, color="#555555"];')


def ancestor_dot(shape: tuple[bool, ...]) -> str:
    """``shape[i]``: whether slot ``i`` is known (slot 0, the person, always is)."""
    lines = ["digraph ancestors {",
             "  graph [rankdir=LR, nodesep=0.06, ranksep=0.3, ordering=out];", _HEAD]
    for slot, known in enumerate(shape):
        if known:
            lines.append(_node(slot, slot == 0))
    for slot, known in enumerate(shape):
        for parent in (2 * slot + 1, 2 * slot + 2):
            if known and parent < len(shape) and shape[parent]:
                lines.append(f"  s{slot} -> s{parent};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def descendant_dot(shape: tuple[tuple[bool, int], ...]) -> str:
    """``shape``: per family, (spouse known, number of children); slots in that order."""
    lines = ["digraph descendants {",
             "  graph [rankdir=TB, nodesep=0.12, ranksep=0.35];", _HEAD, _node(0, True)]
    same = ["s0"]
    slot = 1
    edges = []
    for index, (spouse, count) in enumerate(shape):
        union = f"u{index}"
        lines.append(f"  {union} [shape=point, width=0.08];")
        same.append(union)
        edges.append(f"  s0 -> {union} [weight=4];")
        if spouse:
            lines.append(_node(slot))
            same.append(f"s{slot}")
            edges.append(f"  {union} -> s{slot} [weight=4];")
            slot += 1
        for _child in range(count):
            lines.append(_node(slot))
            edges.append(f"  {union} -> s{slot};")
            slot += 1
    lines.extend(edges)
    lines.append("  { rank=same; " + "; ".join(same) + "; }")
    lines.append("}")
    return "\n".join(lines) + "\n"


@dataclass
class Template:
    """A laid-out shape: the SVG cut at its holes, ready to be filled."""

    pieces: list[str]
    holes: list[tuple[int, str]]  # (slot, kind: n y h t or f for the fill)

    @classmethod
    def of(cls, svg: str) -> Template:
        svg = _XML_DECLARATION.sub("", svg)
        for pattern, replacement in _SLIM:
            svg = pattern.sub(replacement, svg)
        svg = checked("person chart", svg)
        pieces, holes, at = [], [], 0
        for match in _HOLE.finditer(svg):
            pieces.append(svg[at:match.start()])
            if match.group(1) is not None:
                holes.append((int(match.group(1)), match.group(2)))
            else:
                holes.append((int(match.group(3), 16), "f"))
            at = match.end()
        pieces.append(svg[at:])
        return cls(pieces, holes)

    def fill(self, words: list[Mapping[str, str]]) -> str:
        out = [self.pieces[0]]
        for (slot, kind), piece in zip(self.holes, self.pieces[1:], strict=True):
            out.append(words[slot][kind])
            out.append(piece)
        return "".join(out)


@dataclass
class PersonCharts:
    """Draws the charts of every person page of one campaign (one per process)."""

    people: Mapping[str, PersonView]
    houses: Mapping[str, HouseView]
    kin: Kin
    cache: RenderCache | None
    render: Callable[[str], str] = genealogy.render_svg
    _templates: dict[tuple[str, Shape], Template] = field(default_factory=dict)
    _words: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    _fills: dict[str, str] = field(default_factory=dict)
    _seen: set[tuple[str, Shape]] = field(default_factory=set)

    def _template(self, kind: str, shape: Shape, dot: Callable[[], str]) -> Template:
        key = (kind, shape)
        template = self._templates.get(key)
        if template is None:
            svg = checked(f"{kind} chart", render_cached(dot(), self.render, self.cache))
            template = self._templates[key] = Template.of(svg)
        return template

    def _fill(self, person: PersonView) -> str:
        house = person.dynasty or ""
        colour = self._fills.get(house)
        if colour is None:
            h = self.houses.get(house)
            safe = genealogy.safe_colour(h.color if h is not None else None)
            colour = self._fills[house] = (genealogy.tint(safe) if safe
                                           else genealogy.NEUTRAL_FILL)
        return colour

    def words(self, pid: str, root: str) -> Mapping[str, str]:
        key = (pid, root)
        found = self._words.get(key)
        if found is None:
            p = self.people[pid]
            name = p.name if len(p.name) <= NAME_CHARS else p.name[:NAME_CHARS - 1] + "…"
            years = f"*{p.born}" + (f" †{p.died}" if p.died is not None else "")
            ref = p.label_ref
            line = f"{ref} {years}" if ref else years
            found = self._words[key] = {
                "n": str(escape(name)), "y": str(escape(line)),
                "h": f"{root}people/{p.slug}/index", "t": str(escape(f"{p.name} {years}")),
                "f": self._fill(p)}
        return found

    def ancestor_slots(self, pid: str) -> list[str | None]:
        slots: list[str | None] = [pid] + [None] * (ANCESTOR_SLOTS - 1)
        people = self.people
        for i in range(ANCESTOR_SLOTS // 2):
            q = slots[i]
            if q is not None:
                p = people[q]
                if p.father is not None and p.father in people:
                    slots[2 * i + 1] = p.father
                if p.mother is not None and p.mother in people:
                    slots[2 * i + 2] = p.mother
        return slots

    def descendant_slots(self, pid: str) -> tuple[tuple[tuple[bool, int], ...], list[str]]:
        families = self.kin.families(pid)
        shape = tuple((f.spouse is not None, len(f.children)) for f in families)
        slots = [pid]
        for f in families:
            if f.spouse is not None:
                slots.append(f.spouse)
            slots.extend(f.children)
        return shape, slots

    def ancestors(self, pid: str, root: str) -> str | None:
        """The chart of ``pid``'s known ancestors, or None when no parent is known
        (a chart of one box would caption "four generations" of no one)."""
        slots = self.ancestor_slots(pid)
        shape = tuple(s is not None for s in slots)
        if not any(shape[1:]):
            return None
        template = self._template("ancestor", shape, lambda: ancestor_dot(shape))
        blank: Mapping[str, str] = {}
        return template.fill([self.words(s, root) if s is not None else blank for s in slots])

    def descendants(self, pid: str, root: str) -> str | None:
        shape, slots = self.descendant_slots(pid)
        if not shape:
            return None
        template = self._template("descendant", shape, lambda: descendant_dot(shape))
        return template.fill([self.words(s, root) for s in slots])

    def keep_shapes(self) -> None:
        """Read every shape the pages of this process have, laid out or not yet:
        reading a cache entry keeps it (``cache.prune``), and a page kept as
        it was this build may need its shape laid out the next."""
        for kind, shape in sorted(self._seen - self._templates.keys(), key=repr):
            dot = ancestor_dot if kind == "ancestor" else descendant_dot
            self._template(kind, shape, functools.partial(dot, shape))  # type: ignore[arg-type]

    def inputs(self, pid: str, root: str) -> tuple[tuple[str, ...], tuple[object, ...]]:
        """What a person page shows of their relatives, for its fingerprint: the ids
        of the people it names, in the order of the roles they have there (the
        print holds them so; ``pages.mentioned`` adds how each is shown), and
        the facts about them beyond their names, as plain values."""
        kin, people = self.kin, self.people
        ids: list[str] = []
        facts: list[object] = []
        for sibling, full in kin.siblings(pid):
            ids.append(sibling)
            facts.append(full)
        for f in kin.families(pid):
            m = f.marriage
            ids.append(f.spouse or "")
            ids.extend(f.children)
            facts.append((len(f.children), m and (m.year, m.ended, m.end_cause)))
            spouse = people.get(f.spouse or "")
            if spouse is not None:
                facts.append((spouse.reigns, spouse.died))
        for c in kin.claims(pid):
            founder = kin.holders.get((c.dynasty, c.ref[:1] + "1000"))
            ids.extend((c.dynasty, c.before or "", founder or ""))
            house = self.houses.get(c.dynasty)
            facts.append((c.ref, c.renounced, c.rank, house.law if house else ""))
        above = self.ancestor_slots(pid)
        charted = [s for s in above if s is not None]
        if len(charted) > 1:
            self._seen.add(("ancestor", tuple(s is not None for s in above)))
        ids.extend(charted)
        ids.append("/")
        shape, below = self.descendant_slots(pid)
        if shape:
            self._seen.add(("descendant", shape))
        ids.extend(below)
        for s in (*charted, *below):
            words = self.words(s, root)
            facts.append(words["y"] + words["f"])
        return tuple(ids), tuple(facts)


def chart_cache(folder: Path | None) -> RenderCache | None:
    """The campaign's cache of these charts' shapes, salted like the genealogies'.

    A folder of its own (``.cache/charts``): the genealogies' folder then
    holds only their parts, so what a build laid out again is read there.
    """
    if folder is None:
        return None
    return RenderCache(folder, salt=f"{genealogy.graphviz_cache(folder).salt} {VERSION}")


def size(svg: str) -> tuple[int, int]:
    """The chart's width and height in points (as Graphviz wrote them)."""
    found = _DIMENSIONS.search(svg)
    return (int(found.group(1)), int(found.group(2))) if found else (0, 0)

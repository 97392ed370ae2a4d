"""The drawings of a dynastic campaign: genealogies and the population chart.

The drawing modules know nothing of the store; this module feeds them the
view models, names the files, localises the words they show and records in
the ``SiteContext`` which page shows which drawing. Genealogies are laid out
in other processes while the pages are rendered (``SiteContext.pending``);
charts are drawn when ``pages.build_svgs`` writes them, by the process that
writes them (``SiteContext.lazy_svgs``). A ruleset's plug-in adds its own
drawings the same way (``SitePlugin.prepare``: Blood Royale's maps and wealth
charts), cached in folders of its own beside the Graphviz cache
(``SitePlugin.caches``).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path

from chronicle.i18n.catalogue import translations
from chronicle.site import charts, genealogy
from chronicle.site.incremental import cache
from chronicle.site.pages import DiagramPage, SiteContext, ruler_title
from chronicle.views.data import Lineage, SiteData

#: The drawings' caches of every campaign: genealogies and person charts (a ruleset's
#: own are its plug-in's: ``SitePlugin.caches``).
CACHES = ("graphviz", "charts")


def cache_dir(campaign: Path, name: str) -> Path | None:
    """The ``.cache/<name>`` folder of the campaign in ``campaign``, or None where
    links lead it elsewhere."""
    return cache.inside(campaign, ".cache", name)


def prune_caches(folder: Path, before: float, also: Iterable[str] = ()) -> int:
    """Drop the drawings of ``folder``'s campaign that no build used since ``before``
    (in its ``.cache`` folders: ``CACHES``, and ``also``, its ruleset's)."""
    found = (cache_dir(folder, name) for name in (*CACHES, *also))
    return sum(len(cache.prune(path, before)) for path in found if path is not None)


def start_genealogies(lineage: Lineage | SiteData, before: genealogy.DrawnBefore | None = None,
                      ) -> genealogy.PendingGenealogies:
    """Set every dynasty's diagrams going from the people alone (``Lineage``).

    Called while the rest of the campaign loads: the layouts, a third of a
    first build's work, then use the core the load leaves idle.
    """
    people, houses = lineage.people, lineage.houses
    _ = translations(lineage.campaign.language).gettext
    rulers = {pid for h in houses.values() for pid, _s, _e in h.rulers}
    reigning = {h.ruler for h in houses.values() if h.ruler and not h.eliminated}
    tree = [genealogy.TreePerson(
        id=p.id, name=p.name, sex=p.sex, born=p.born, died=p.died, dynasty=p.dynasty,
        father=p.father, mother=p.mother, refs=p.refs, ruler=p.id in reigning,
        was_ruler=p.id in rulers, title=ruler_title(_, houses, p, lineage.campaign.language))
        for p in sorted(people.values(), key=lambda p: (p.seq, p.id))]
    marriages = [genealogy.TreeMarriage(husband=m.husband, wife=m.wife, year=m.year)
                 for m in lineage.marriages]
    slugs = {p.id: p.slug for p in people.values()}
    return genealogy.start_genealogies(
        tree, marriages, lineage.styles,
        lambda pid: f"../people/{slugs[pid]}/index.html" if pid in slugs else None,
        cache_dir=cache_dir(Path(lineage.campaign.folder), "graphviz"), before=before)


def add_genealogies(ctx: SiteContext, pending: genealogy.PendingGenealogies | None = None,
                    ) -> None:
    """Name the diagrams in ``ctx``; ``pending``: those ``start_genealogies`` started."""
    if pending is None:
        data = ctx.data
        pending = start_genealogies(data)
    ctx.diagram_pages.extend(diagram_pages(ctx, pending.parts))
    for part in pending.parts:
        name = f"genealogy/{part.filename}"
        ctx.genealogies.setdefault(part.dynasty, []).append((name, part.title))
        for pid in part.members:
            ctx.person_diagram.setdefault(
                pid, f"{page_of(part)}#{genealogy.node_id('p_', pid)}")

    def finish() -> None:
        """The layouts run while the pages are written; their files come last."""
        done = pending.result()
        for part in done.parts:
            name = f"genealogy/{part.filename}"
            ctx.drawn[name] = done.prints[part.filename]
            svg = done.svgs.get(part.filename)
            if svg is None:  # as the last build made it: kept, or made here if need be
                ctx.redraw[name] = functools.partial(pending.redraw, part.filename)
                continue
            # A dynasty's trunk is also a file, which its house page embeds;
            # a branch is shown on its page only.
            shown = ctx.svgs if part.root is None else ctx.part_svgs
            shown[name] = svg

    ctx.pending.append(finish)


def page_of(part: genealogy.DiagramPart) -> str:
    """The page that shows ``part`` (``genealogy/<name>.html``)."""
    return f"genealogy/{genealogy.page_name(part)}"


def diagram_pages(ctx: SiteContext, parts: tuple[genealogy.DiagramPart, ...],
                  ) -> list[DiagramPage]:
    """Each part's page, linked up to the part holding its root, across to the
    other parts of the same root's children, and down to its branches."""
    by_file = {part.filename: part for part in parts}
    houses = ctx.data.houses
    pages = []
    for part in parts:
        up = by_file.get(part.up) if part.up is not None else None
        beside = [other for other in parts if other.dynasty == part.dynasty
                  and other.root == part.root and other is not part]
        down = [other for other in parts if other.up == part.filename
                and other.root != part.root]
        house = houses.get(part.dynasty)
        pages.append(DiagramPage(
            dynasty=part.dynasty, house_slug=house.slug if house else part.dynasty,
            title=part.title, svg=f"genealogy/{part.filename}", page=page_of(part),
            alone=part.root is None,
            up=(page_of(up), up.title) if up is not None else None,
            beside=tuple((page_of(o), o.title) for o in beside),
            down=tuple((page_of(o), o.title) for o in down)))
    return pages


def living_by_turn(ctx: SiteContext) -> list[tuple[int, str, int]]:
    """(year, house, living members of the dynasty) at the end of every turn."""
    data = ctx.data
    rows: list[tuple[int, str, int]] = []
    for house in sorted(data.houses):
        members = [p for p in data.people.values() if p.dynasty == house]
        born = sorted(p.born for p in members)
        died = sorted(p.died for p in members if p.died is not None)
        for turn in data.turns:
            alive = bisect_right(born, turn.year) - bisect_right(died, turn.year)
            rows.append((turn.year, house, alive))
    return rows


def add_charts(ctx: SiteContext) -> None:
    """The population chart, once there are turns."""
    data = ctx.data
    _ = ctx._
    if data.turns:
        ctx.lazy_svgs["charts/population.svg"] = lambda: charts.population_chart(
            living_by_turn(ctx), data.styles, title=_("Living members"),
            desc=_("The living members of each dynasty at the end of each turn."))
        ctx.charts["population"] = ("charts/population.svg", _("Living members over time"))


def add_drawings(ctx: SiteContext,
                 genealogies: genealogy.PendingGenealogies | None = None) -> None:
    """A dynastic campaign's drawings: its genealogies and the population chart."""
    add_genealogies(ctx, genealogies)
    add_charts(ctx)

"""The drawings of a campaign: genealogies, standings charts and turn maps.

The drawing modules know nothing of the store; this module feeds them the
view models, names the files, localises the words they show and records in
the ``SiteContext`` which page shows which drawing. Genealogies are laid out
in other processes while the pages are rendered (``SiteContext.pending``);
charts and maps are drawn when ``pages.build_svgs`` writes them, by the
process that writes them (``SiteContext.lazy_svgs``). Each turn's map needs
that turn's state, the slowest thing to decode in a large campaign, so maps
are cached by the SHA-256 of the snapshot (``MapSource.drawn``; and the
words), next to the Graphviz cache.
"""

from __future__ import annotations

import functools
import html
import re
from bisect import bisect_right
from pathlib import Path

from chronicle.i18n.catalogue import translations
from chronicle.rulesets.blood_royale import mapsvg
from chronicle.site import charts, genealogy
from chronicle.site.incremental import cache
from chronicle.site.incremental.cache import RenderCache
from chronicle.site.pages import DiagramPage, SiteContext, battle_title, ruler_title
from chronicle.views.data import Lineage, MapSource, MapView, SiteData, TurnView

MAP_VERSION = "map-2"


CACHES = ("graphviz", "maps", "charts")  # genealogies, turn maps, person charts


def cache_dir(campaign: Path, name: str) -> Path | None:
    """The ``.cache/<name>`` folder of the campaign in ``campaign``, or None where
    links lead it elsewhere."""
    return cache.inside(campaign, ".cache", name)


def prune_caches(folder: Path, before: float) -> int:
    """Drop the drawings of ``folder``'s campaign that no build used since ``before``."""
    found = (cache_dir(folder, name) for name in CACHES)
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
    data = ctx.data
    _ = ctx._
    houses = data.styles
    if data.turns:
        ctx.lazy_svgs["charts/population.svg"] = lambda: charts.population_chart(
            living_by_turn(ctx), houses, title=_("Living members"),
            desc=_("The living members of each dynasty at the end of each turn."))
        ctx.charts["population"] = ("charts/population.svg", _("Living members over time"))
    if data.wealth:
        ctx.lazy_svgs["charts/treasury.svg"] = lambda: charts.wealth_chart(
            [(w.year, w.house, w.treasury) for w in data.wealth], houses,
            title=_("Treasury over time"),
            desc=_("The treasury of each house at the end of each turn."))
        ctx.charts["treasury"] = ("charts/treasury.svg", _("Treasury over time"))
    if any(w.cash_in for w in data.wealth):
        ctx.lazy_svgs["charts/cash-ins.svg"] = lambda: charts.cash_in_chart(
            [(w.year, w.house, w.cash_in) for w in data.wealth], houses,
            title=_("Cash-ins"), desc=_("The total cashed in by each house over the campaign."))
        ctx.charts["cash-ins"] = ("charts/cash-ins.svg", _("Cash-ins"))


def map_events(ctx: SiteContext, turn: TurnView) -> tuple[list[mapsvg.MapMove],
                                                          list[mapsvg.MapChange]]:
    """The marches and changes of control of a turn, as its map draws them.

    Read from the turn's public events by their payloads' shape (a march
    has a ``path`` and a ``round``; a change of control a ``controller``),
    so any ruleset with a board that records them gets them drawn.
    """
    moves, changes = [], []
    for event in turn.events:
        pl = event.payload
        path, round_ = pl.get("path"), pl.get("round")
        if event.kind == "unit-moved" and isinstance(path, list) and path \
                and isinstance(round_, int):
            start = pl.get("start")
            steps = tuple(str(p) for p in ([start] if start else []) + path)
            text = ctx.narrator.sentence(event, "")
            moves.append(mapsvg.MapMove(house=str(pl.get("owner") or pl.get("house")),
                                        round=round_, path=steps,
                                        title=_text(text)))
        elif event.kind == "control" and pl.get("province"):
            text = ctx.narrator.sentence(event, "")
            changes.append(mapsvg.MapChange(province=str(pl["province"]),
                                            controller=pl.get("controller"), title=_text(text)))
    return moves, changes


def _text(sentence: object) -> str:
    """A sentence's words without its links, for a drawing's tooltip."""
    return html.unescape(re.sub(r"<[^>]*>", "", str(sentence or "")))


def add_maps(ctx: SiteContext) -> None:
    """One map per turn, for the rulesets with a board, drawn when written."""
    data = ctx.data
    if not data.provinces:
        return
    _, n_ = ctx._, ctx.narrator.n_
    language = data.campaign.language
    words = mapsvg.MapLabels(
        title=_("Map"), desc=_("Provinces, their controllers, units and battles."),
        legend=_("Legend"), uncontrolled=_("Uncontrolled"), sea=_("Sea"),
        capital=_("Capital"), revolt=_("Revolt"), famine=_("Famine"), battle=_("Battle"),
        movement=_("Movement, round %(round)s"),
        change=_("Change of control"),
        army_forms=(n_("%(num)s army", "%(num)s armies", 1),
                    n_("%(num)s army", "%(num)s armies", 2)),
        none_singular=n_("%(num)s army", "%(num)s armies", 0) == n_(
            "%(num)s army", "%(num)s armies", 1),
        unit_types=tuple((kind, ctx.narrator.p_("unit type", kind))
                         for kind in ("army", "fleet", "dragon")))
    folder = cache_dir(Path(data.campaign.folder), "maps")
    # The names a map shows come from the snapshot and the content pack's names
    # in the site's language (data.provinces and data.houses carry those).
    names = ([(p.id, p.name) for p in data.provinces.values()],
             [(h.id, h.name) for h in data.houses.values()])
    cache = (RenderCache(folder, salt=f"{MAP_VERSION} {words!r} {names!r}")
             if folder is not None else None)
    slugs = {b.id: b.slug for b in data.battles.values()}

    def draw(turn: TurnView, source: MapSource) -> str:
        battles = [data.battles[b] for b in turn.battles]
        moves, changes = map_events(ctx, turn)

        def drawing(board: MapView) -> str:
            return mapsvg.map_svg(
                board.provinces, board.units,
                [mapsvg.MapBattle(id=b.id, province=b.province_id, title=battle_title(_, b, language))
                 for b in battles],
                board.houses,
                lambda bid: f"../battles/{slugs[bid]}/index.html" if bid in slugs else None,
                labels=words, moves=moves, changes=changes)

        return source.drawn(drawing, cache, repr(
            ([(b.id, b.slug, battle_title(_, b, language)) for b in battles], moves, changes)))

    for turn in data.turns:
        if turn.map is None:
            continue
        name = f"maps/turn-{turn.number:03d}.svg"
        ctx.lazy_svgs[name] = functools.partial(draw, turn, turn.map)
        ctx.maps[turn.number] = name


def add_drawings(ctx: SiteContext,
                 genealogies: genealogy.PendingGenealogies | None = None) -> None:
    add_genealogies(ctx, genealogies)
    add_charts(ctx)
    add_maps(ctx)

"""Blood Royale's drawings: each turn's map (``mapsvg``) and the wealth charts (B7).

Made as the dynastic ones are (``chronicle.site.drawings``): drawn when
``pages.build_svgs`` writes them, by the process that writes them
(``SiteContext.lazy_svgs``). Each turn's map needs that turn's state, the
slowest thing to decode in a large campaign, so maps are cached by the
SHA-256 of the snapshot (``MapSource.drawn``; and the words), in the
campaign's ``.cache/maps`` (``MAPS_CACHE``), next to the Graphviz cache.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import cast

from adjudicator.rulesets.blood_royale.events import ControlChanged, UnitMoved
from chronicle.rulesets.blood_royale import mapsvg
from chronicle.rulesets.blood_royale.views import (
    MapSource,
    MapView,
    battle_title,
    battles,
    provinces,
    turn_battles,
    turn_map,
    wealth,
)
from chronicle.site.charts import Row, house_lines_chart, house_totals_chart
from chronicle.site.drawings import cache_dir
from chronicle.site.genealogy import HouseLike
from chronicle.site.incremental.cache import RenderCache
from chronicle.site.pages import SiteContext
from chronicle.views.data import TurnView

MAP_VERSION = "map-2"
#: The folder of the maps' cache under the campaign's ``.cache`` (``SitePlugin.caches``).
MAPS_CACHE = "maps"
#: The unit types a map names (``unit-types.toml`` and the worlds' own), in the
#: site's language (the catalogue's "unit type" context).
UNIT_TYPES = ("army", "fleet", "dragon")


def wealth_chart(
    rows: Iterable[Row],
    houses: Mapping[str, HouseLike],
    *,
    title: str = "Treasury over time",
    desc: str = "The treasury of each house at the end of each turn.",
    chart_id: str = "wealth",
    y_title: str = "",
    x_title: str = "",
) -> str:
    """Treasury per house over time; ``rows`` are (year, house id, treasury)."""
    return house_lines_chart(rows, houses, title=title, desc=desc, chart_id=chart_id,
                             y_title=y_title, x_title=x_title)


def cash_in_chart(
    rows: Iterable[Row],
    houses: Mapping[str, HouseLike],
    *,
    title: str = "Cash-ins",
    desc: str = "The total cashed in by each house over the campaign.",
    chart_id: str = "cash-in",
) -> str:
    """Total per house, one bar each; ``rows`` are (year, house id, amount that turn)."""
    return house_totals_chart(rows, houses, title=title, desc=desc, chart_id=chart_id)


def add_wealth_charts(ctx: SiteContext) -> None:
    """The treasuries over time and the cash-ins (B7), once there are rows of them."""
    data = ctx.data
    _ = ctx._
    houses = data.styles
    rows = wealth(data)
    if rows:
        ctx.lazy_svgs["charts/treasury.svg"] = lambda: wealth_chart(
            [(w.year, w.house, w.treasury) for w in rows], houses,
            title=_("Treasury over time"),
            desc=_("The treasury of each house at the end of each turn."))
        ctx.charts["treasury"] = ("charts/treasury.svg", _("Treasury over time"))
    if any(w.cash_in for w in rows):
        ctx.lazy_svgs["charts/cash-ins.svg"] = lambda: cash_in_chart(
            [(w.year, w.house, w.cash_in) for w in rows], houses,
            title=_("Cash-ins"), desc=_("The total cashed in by each house over the campaign."))
        ctx.charts["cash-ins"] = ("charts/cash-ins.svg", _("Cash-ins"))


def map_events(ctx: SiteContext, turn: TurnView) -> tuple[list[mapsvg.MapMove],
                                                          list[mapsvg.MapChange]]:
    """The marches and changes of control of a turn, as its map draws them.

    Read from the turn's public events: a march (``UnitMoved``) with its
    ``path`` and ``round``; a change of control (``ControlChanged``).
    """
    moves, changes = [], []
    for event in turn.events:
        pl = event.payload
        path, round_ = pl.get("path"), pl.get("round")
        if event.kind == UnitMoved.kind and isinstance(path, list) and path \
                and isinstance(round_, int):
            start = pl.get("start")
            steps = tuple(str(p) for p in ([start] if start else []) + path)
            text = ctx.narrator.sentence(event, "")
            moves.append(mapsvg.MapMove(house=str(pl.get("owner") or pl.get("house")),
                                        round=round_, path=steps,
                                        title=_text(text)))
        elif event.kind == ControlChanged.kind and pl.get("province"):
            text = ctx.narrator.sentence(event, "")
            changes.append(mapsvg.MapChange(province=str(pl["province"]),
                                            controller=pl.get("controller"), title=_text(text)))
    return moves, changes


def _text(sentence: object) -> str:
    """A sentence's words without its links, for a drawing's tooltip."""
    return html.unescape(re.sub(r"<[^>]*>", "", str(sentence or "")))


def maps(ctx: SiteContext) -> dict[int, str]:
    """Each turn's map (its file), by turn number: those ``add_maps`` set drawing."""
    return cast(dict[int, str], ctx.parts.setdefault("maps", {}))


def add_maps(ctx: SiteContext) -> None:
    """One map per turn, for a campaign with a board, drawn when written."""
    data = ctx.data
    board = provinces(data)
    drawn = maps(ctx)
    if not board:
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
        unit_types=tuple((kind, ctx.narrator.p_("unit type", kind)) for kind in UNIT_TYPES))
    folder = cache_dir(Path(data.campaign.folder), MAPS_CACHE)
    # The names a map shows come from the snapshot and the content pack's names
    # in the site's language (the board's provinces and data.houses carry those).
    names = ([(p.id, p.name) for p in board.values()],
             [(h.id, h.name) for h in data.houses.values()])
    cache = (RenderCache(folder, salt=f"{MAP_VERSION} {words!r} {names!r}")
             if folder is not None else None)
    slugs = {b.id: b.slug for b in battles(data).values()}

    def draw(turn: TurnView, source: MapSource) -> str:
        fought = turn_battles(data, turn)
        moves, changes = map_events(ctx, turn)

        def drawing(board: MapView) -> str:
            return mapsvg.map_svg(
                board.provinces, board.units,
                [mapsvg.MapBattle(id=b.id, province=b.province_id, title=battle_title(_, b, language))
                 for b in fought],
                board.houses,
                lambda bid: f"../battles/{slugs[bid]}/index.html" if bid in slugs else None,
                labels=words, moves=moves, changes=changes)

        return source.drawn(drawing, cache, repr(
            ([(b.id, b.slug, battle_title(_, b, language)) for b in fought], moves, changes)))

    for turn in data.turns:
        source = turn_map(turn)
        if source is None:
            continue
        name = f"maps/turn-{turn.number:03d}.svg"
        ctx.lazy_svgs[name] = functools.partial(draw, turn, source)
        drawn[turn.number] = name

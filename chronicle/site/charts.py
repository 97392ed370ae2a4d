"""Standings charts as static SVG, drawn with pygal.

pygal serves well but writes for interactive use, so each chart is tamed to
fit a static, reproducible site:

- its random ``uuid`` becomes the caller's ``chart_id`` (CSS is scoped to
  ``#chart-<chart_id>``, so give two charts on one page different ids);
- the comments (one dated ``today``) and every ``<script>`` go: the page
  needs no JavaScript and references no external URL;
- a ``<desc>`` joins pygal's ``<title>``, and the root says ``role="img"``.

Two calls with the same rows give byte-identical SVG, in any process.
Titles are the caller's (localised) text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pygal  # type: ignore[import-untyped]
from pygal.style import Style  # type: ignore[import-untyped]

from chronicle.site.genealogy import NEUTRAL_BORDER, HouseLike, clean_text, safe_colour

Row = tuple[int, str, int | float]
"""(year or turn, house id, value)"""

_SVG_NS = "{http://www.w3.org/2000/svg}"
_ID = re.compile(r"[^a-z0-9-]+")


def _style(colours: Sequence[str]) -> Any:
    font = "Helvetica, Arial, sans-serif"
    return Style(
        colors=tuple(colours) or (NEUTRAL_BORDER,),
        font_family=font,
        label_font_family=font,
        major_label_font_family=font,
        value_font_family=font,
        value_label_font_family=font,
        tooltip_font_family=font,
        title_font_family=font,
        legend_font_family=font,
        no_data_font_family=font,
    )


def _static(desc: str) -> Any:
    """An xml filter: drop comments and scripts, add ``<desc>`` and ``role``."""

    def apply(root: Any) -> Any:
        for parent in list(root.iter()):
            for child in list(parent):
                tag = child.tag if isinstance(child.tag, str) else ""
                if not tag or tag.rsplit("}", 1)[-1] == "script":
                    parent.remove(child)
        root.set("role", "img")
        title = next((c for c in root if str(c.tag).rsplit("}", 1)[-1] == "title"), None)
        element = root.makeelement("desc", {})
        element.text = desc
        root.insert(list(root).index(title) + 1 if title is not None else 0, element)
        return root

    return apply


def _render(chart: Any, chart_id: str, desc: str) -> str:
    chart.uuid = _ID.sub("-", chart_id.lower()).strip("-") or "chart"
    chart.add_xml_filter(_static(clean_text(desc)))
    svg = chart.render(is_unicode=True)
    text = svg if isinstance(svg, str) else svg.decode("utf-8")
    return text if text.endswith("\n") else text + "\n"


def _config(title: str, colours: Sequence[str], **extra: Any) -> dict[str, Any]:
    return {
        "title": clean_text(title),
        "style": _style(colours),
        "js": [],
        "css": ["file://style.css", "file://graph.css"],
        "truncate_legend": -1,
        "legend_at_bottom": True,
        "width": 800,
        "height": 450,
        **extra,
    }


def _house_series(
    rows: Iterable[Row], houses: Mapping[str, HouseLike]
) -> tuple[list[int], list[tuple[str, str, list[int | float | None]]]]:
    """Years on the x axis and, per house (sorted by id), its value each year."""
    table: dict[str, dict[int, int | float]] = {}
    for year, house_id, value in rows:
        table.setdefault(house_id, {})[year] = value
    years = sorted({year for values in table.values() for year in values})
    series = []
    for house_id in sorted(table):
        house = houses.get(house_id)
        name = clean_text(house.name) if house is not None else house_id
        colour = (safe_colour(house.color) if house is not None else None) or NEUTRAL_BORDER
        series.append((name, colour, [table[house_id].get(y) for y in years]))
    return years, series


def house_lines_chart(
    rows: Iterable[Row],
    houses: Mapping[str, HouseLike],
    *,
    title: str,
    desc: str,
    chart_id: str,
    y_title: str = "",
    x_title: str = "",
) -> str:
    """One line per house over time, in the house colours; gaps where a house is absent."""
    years, series = _house_series(rows, houses)
    many = len(years) > 20
    chart = pygal.Line(
        **_config(
            title,
            [colour for _, colour, _ in series],
            x_title=x_title or None,
            y_title=y_title or None,
            show_minor_x_labels=not many,
            x_labels_major_count=10 if many else None,
            dots_size=2 if many else 3,
            allow_interruptions=True,
        )
    )
    chart.x_labels = [str(y) for y in years]
    for name, _colour, values in series:
        chart.add(name, values)
    return _render(chart, chart_id, desc)


def population_chart(
    rows: Iterable[Row],
    houses: Mapping[str, HouseLike],
    *,
    title: str = "Living members",
    desc: str = "The living members of each dynasty at the end of each turn.",
    chart_id: str = "population",
    y_title: str = "",
    x_title: str = "",
) -> str:
    """Living members per dynasty over time; ``rows`` are (year, house id, count)."""
    return house_lines_chart(rows, houses, title=title, desc=desc, chart_id=chart_id,
                             y_title=y_title, x_title=x_title)


def house_totals_chart(
    rows: Iterable[Row],
    houses: Mapping[str, HouseLike],
    *,
    title: str,
    desc: str,
    chart_id: str,
) -> str:
    """Total per house, one bar each; ``rows`` are (year, house id, amount that turn)."""
    years, series = _house_series(rows, houses)
    del years
    chart = pygal.Bar(**_config(title, [colour for _, colour, _ in series]))
    for name, _colour, values in series:
        chart.add(name, [sum(v for v in values if v is not None)])
    return _render(chart, chart_id, desc)

"""The per-turn map: provinces at their schematic positions, as hand-built SVG.

The world data gives every province a drawing position (``x``, ``y``) and its
neighbours, which is all a schematic board needs; a layout engine would only
move provinces players know by place. So the SVG is written directly:

- adjacency as lines (dashed where the sea is involved);
- land provinces as rounded boxes filled with the light tint of the
  controller's colour (uncontrolled: parchment), seas as blue ellipses;
- capitals with a ★ and a thick border, revolts with ⚑, famines with ⌀;
- units as small badges in their house colour (id and armies) under the
  province; battles as a ⚔ linked to the battle page;
- a legend, and ``<title>``/``<desc>`` for screen readers.

Every text goes through :func:`xml.sax.saxutils.escape` and every attribute
through ``quoteattr``; links with a scheme other than http(s) are dropped.
Output is a pure function of the input, in sorted order, with fixed number
formatting. Words shown (legend, tooltips) come from :class:`MapLabels`, so
the caller can localise them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol
from xml.sax.saxutils import escape, quoteattr

from chronicle.site.genealogy import NEUTRAL_BORDER, HouseLike, clean_text, safe_colour, tint

SEA_FILL = "#cfe3f5"
SEA_BORDER = "#5b8db8"
LAND_FILL = "#f4efe1"
LINE = "#9a9a9a"
MARGIN = 50.0
LEGEND_WIDTH = 190.0
FONT = "Helvetica, Arial, sans-serif"
_SCHEME = re.compile(r"^\s*([a-zA-Z][a-zA-Z0-9+.-]*):")


class ProvinceLike(Protocol):
    """What the map needs of a province (``adjudicator.state.Province`` fits)."""

    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def neighbours(self) -> Sequence[str]: ...
    @property
    def controller(self) -> str | None: ...
    @property
    def capital(self) -> bool: ...
    @property
    def revolt(self) -> bool: ...
    @property
    def famine(self) -> bool: ...


class UnitLike(Protocol):
    """What the map needs of a unit (``adjudicator.state.Unit`` fits)."""

    @property
    def id(self) -> str: ...
    @property
    def house(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def armies(self) -> int: ...
    @property
    def province(self) -> str | None: ...


@dataclass(frozen=True)
class MapBattle:
    id: str
    province: str
    title: str


@dataclass(frozen=True)
class MapMove:
    """A unit's march in one round: the provinces it went through, its start first."""

    house: str
    round: int
    path: tuple[str, ...]
    title: str = ""


@dataclass(frozen=True)
class MapChange:
    """A province that changed hands during the turn."""

    province: str
    controller: str | None
    title: str = ""


#: The least distance between the centres of two rounds' numbers (their circles' r is 7).
MARKER_GAP = 16.0
#: How each round's arrows are dashed (round 1 solid), so rounds read apart in grey too.
ROUND_DASHES = ("", "7,4", "2,3", "10,3,2,3")


@dataclass(frozen=True)
class MapLabels:
    """The words on the map, for the caller to translate."""

    title: str = "Map"
    desc: str = "Provinces, their controllers, units and battles."
    legend: str = "Legend"
    uncontrolled: str = "Uncontrolled"
    sea: str = "Sea"
    capital: str = "Capital"
    revolt: str = "Revolt"
    famine: str = "Famine"
    battle: str = "Battle"
    #: "%(num)s army" and "%(num)s armies", and whether none takes the first (French).
    army_forms: tuple[str, str] = ("%(num)s army", "%(num)s armies")
    none_singular: bool = False
    #: A unit's type (``army``, ``fleet``...) in words; a type not listed is shown by its id.
    unit_types: tuple[tuple[str, str], ...] = ()

    def armies_in_words(self, num: int) -> str:
        one, many = self.army_forms
        return (one if num == 1 or (num == 0 and self.none_singular) else many) % {"num": num}

    def unit_type(self, kind: str) -> str:
        return dict(self.unit_types).get(kind, kind)
    #: "Movement, round %(round)s", filled with each round's number.
    movement: str = "Movement, round %(round)s"
    change: str = "Change of control"


def _n(value: float) -> str:
    """Fixed formatting, so equal drawings are equal bytes."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def _attr(value: str | float) -> str:
    return quoteattr(value if isinstance(value, str) else _n(value))


def _tag(name: str, attrs: Mapping[str, str | float], text: str | None = None) -> str:
    rendered = "".join(f" {key}={_attr(value)}" for key, value in attrs.items())
    if text is None:
        return f"<{name}{rendered}/>"
    return f"<{name}{rendered}>{escape(text)}</{name}>"


def _safe_link(url: str | None) -> str | None:
    if not url:
        return None
    scheme = _SCHEME.match(url)
    if scheme is not None and scheme.group(1).lower() not in ("http", "https"):
        return None
    return url


def _box_width(name: str) -> float:
    return max(64.0, 5.8 * len(name) + 14.0)


def map_svg(
    provinces: Iterable[ProvinceLike],
    units: Iterable[UnitLike],
    battles: Iterable[MapBattle],
    houses: Mapping[str, HouseLike],
    link_for_battle: Callable[[str], str | None] | None = None,
    *,
    labels: MapLabels | None = None,
    scale: float = 1.6,
    moves: Iterable[MapMove] = (),
    changes: Iterable[MapChange] = (),
) -> str:
    """The map as SVG text.

    ``scale`` multiplies the schematic coordinates so that boxes sized for
    the names fit between neighbours; ``link_for_battle(battle_id)`` gives
    the battle page relative to the SVG's folder.
    """
    words = labels or MapLabels()
    board = {p.id: p for p in sorted(provinces, key=lambda p: p.id)}
    if board:
        min_x = min(p.x for p in board.values()) * scale
        min_y = min(p.y for p in board.values()) * scale
        max_x = max(p.x for p in board.values()) * scale
        max_y = max(p.y for p in board.values()) * scale
    else:
        min_x = min_y = max_x = max_y = 0.0

    def at(p: ProvinceLike) -> tuple[float, float]:
        return (p.x * scale - min_x + MARGIN + 40, p.y * scale - min_y + MARGIN)

    moves = [m for m in moves if len(m.path) > 1 and all(p in board for p in m.path)]
    changes = [c for c in changes if c.province in board]
    rounds = sorted({m.round for m in moves})
    width = max_x - min_x + 2 * MARGIN + 80 + LEGEND_WIDTH
    legend_rows = len(houses) + 8 + len(rounds) + (1 if changes else 0)
    height = max(max_y - min_y + 2 * MARGIN + 30, legend_rows * 20.0 + 2 * MARGIN)
    out = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
        _open_svg(width, height),
        _tag("title", {"id": "map-title"}, clean_text(words.title)),
        _tag("desc", {"id": "map-desc"}, clean_text(words.desc)),
        f'<g font-family={quoteattr(FONT)} font-size="10">',
        _tag("rect", {"x": 0, "y": 0, "width": width, "height": height, "fill": "#ffffff"}),
    ]
    out.append('<g class="adjacency">')
    for pid, province in board.items():
        for other in sorted(set(province.neighbours)):
            if other <= pid or other not in board:
                continue
            (x1, y1), (x2, y2) = at(province), at(board[other])
            sea = "sea" in (province.kind, board[other].kind)
            attrs: dict[str, str | float] = {"x1": x1, "y1": y1, "x2": x2, "y2": y2,
                                             "stroke": SEA_BORDER if sea else LINE,
                                             "stroke-width": 1.2}
            if sea:
                attrs["stroke-dasharray"] = "4,3"
            out.append(_tag("line", attrs))
    out.append("</g>")
    out.append('<g class="provinces">')
    for province in board.values():
        out.extend(_province(province, at(province), houses, words))
    out.append("</g>")
    out.append('<g class="changes">')
    for change in sorted(changes, key=lambda c: c.province):
        out.extend(_change(change, at(board[change.province]), board[change.province], houses))
    out.append("</g>")
    out.append('<g class="moves">')
    markers: list[tuple[float, float, int]] = []
    for move in sorted(moves, key=lambda m: (m.round, m.house, m.path)):
        end = board[move.path[-1]]
        out.extend(_move(move, [at(board[p]) for p in move.path], houses,
                         (_box_width(clean_text(end.name)) / 2 + 3, 19.0), markers))
    out.append("</g>")
    out.append('<g class="units">')
    by_province: dict[str, list[UnitLike]] = {}
    for unit in sorted(units, key=lambda u: u.id):
        if unit.province is not None and unit.province in board:
            by_province.setdefault(unit.province, []).append(unit)
    for pid, stack in sorted(by_province.items()):
        out.extend(_units(stack, at(board[pid]), houses, words))
    out.append("</g>")
    out.append('<g class="battles">')
    for battle in sorted(battles, key=lambda b: b.id):
        if battle.province in board:
            link = _safe_link(link_for_battle(battle.id) if link_for_battle else None)
            out.extend(_battle(battle, at(board[battle.province]), board[battle.province], link))
    out.append("</g>")
    out.extend(_legend(houses, words, width - LEGEND_WIDTH + 10, MARGIN, rounds, bool(changes)))
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _open_svg(width: float, height: float) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        f'width={_attr(width)} height={_attr(height)} viewBox="0 0 {_n(width)} {_n(height)}" '
        f'aria-labelledby="map-title map-desc" class="chronicle-map">'
    )


def _province(
    province: ProvinceLike,
    centre: tuple[float, float],
    houses: Mapping[str, HouseLike],
    words: MapLabels,
) -> list[str]:
    x, y = centre
    name = clean_text(province.name)
    house = houses.get(province.controller) if province.controller else None
    colour = safe_colour(house.color) if house is not None else None
    tip = [name]
    if house is not None:
        tip.append(clean_text(house.name))
    if province.capital:
        tip.append(words.capital)
    if province.revolt:
        tip.append(words.revolt)
    if province.famine:
        tip.append(words.famine)
    classes = ["province", "sea" if province.kind == "sea" else "land"]
    parts = [f"<g class={quoteattr(' '.join(classes))} id={quoteattr('prov-' + province.id)}>",
             _tag("title", {}, " · ".join(tip))]
    if province.kind == "sea":
        parts.append(_tag("ellipse", {"cx": x, "cy": y, "rx": _box_width(name) / 2, "ry": 15,
                                      "fill": SEA_FILL, "stroke": SEA_BORDER}))
        parts.append(_tag("text", {"x": x, "y": y + 3.5, "text-anchor": "middle",
                                   "font-style": "italic", "fill": "#2d5577"}, name))
        parts.append("</g>")
        return parts
    w = _box_width(name)
    parts.append(_tag("rect", {
        "x": x - w / 2, "y": y - 15, "width": w, "height": 30, "rx": 6,
        "fill": tint(colour) if colour else LAND_FILL,
        "stroke": colour or NEUTRAL_BORDER,
        "stroke-width": 3 if province.capital else 1.2,
    }))
    label = f"★ {name}" if province.capital else name
    parts.append(_tag("text", {"x": x, "y": y - 1, "text-anchor": "middle",
                               "font-weight": "bold" if province.capital else "normal"}, label))
    marks = []
    if province.revolt:
        marks.append(("⚑", "#b00020", words.revolt))
    if province.famine:
        marks.append(("⌀", "#8a5a00", words.famine))
    for index, (symbol, fill, word) in enumerate(marks):
        parts.append(f"<g class={quoteattr('marker ' + ('revolt' if symbol == '⚑' else 'famine'))}>")
        parts.append(_tag("title", {}, word))
        parts.append(_tag("text", {"x": x - w / 2 + 8 + index * 12, "y": y + 11, "fill": fill,
                                   "font-size": 11, "font-weight": "bold"}, symbol))
        parts.append("</g>")
    parts.append("</g>")
    return parts


def _units(
    stack: list[UnitLike],
    centre: tuple[float, float],
    houses: Mapping[str, HouseLike],
    words: MapLabels,
) -> list[str]:
    x, y = centre
    badges = [(u, f"{clean_text(u.id)} ×{u.armies}") for u in stack]
    widths = [max(28.0, 6.2 * len(text) + 6) for _, text in badges]
    left = x - (sum(widths) + 3 * (len(widths) - 1)) / 2
    parts: list[str] = []
    for (unit, text), w in zip(badges, widths, strict=True):
        house = houses.get(unit.house)
        colour = (safe_colour(house.color) if house is not None else None) or NEUTRAL_BORDER
        owner = clean_text(house.name) if house is not None else clean_text(unit.house)
        tip = (f"{clean_text(unit.id)} ({owner}): {clean_text(words.unit_type(unit.type))}, "
               f"{clean_text(words.armies_in_words(unit.armies))}")
        parts.append(f"<g class=\"unit\" id={quoteattr('unit-' + unit.id)}>")
        parts.append(_tag("title", {}, tip))
        parts.append(_tag("rect", {"x": left, "y": y + 17, "width": w, "height": 14, "rx": 3,
                                   "fill": colour, "stroke": "#ffffff"}))
        parts.append(_tag("text", {"x": left + w / 2, "y": y + 27.5, "text-anchor": "middle",
                                   "font-size": 10, "fill": "#ffffff"}, text))
        parts.append("</g>")
        left += w + 3
    return parts


def _battle(
    battle: MapBattle, centre: tuple[float, float], province: ProvinceLike, link: str | None
) -> list[str]:
    x, y = centre
    w = _box_width(clean_text(province.name))
    mark = [
        _tag("title", {}, clean_text(battle.title)),
        _tag("circle", {"cx": x + w / 2, "cy": y - 15, "r": 9, "fill": "#ffffff",
                        "stroke": "#b00020", "stroke-width": 1.5}),
        _tag("text", {"x": x + w / 2, "y": y - 11, "text-anchor": "middle", "font-size": 12,
                      "fill": "#b00020"}, "⚔"),
    ]
    group = f"<g class=\"battle\" id={quoteattr('battle-' + battle.id)}>"
    if link is None:
        return [group, *mark, "</g>"]
    anchor = f"<a xlink:href={quoteattr(link)} target=\"_top\">"
    return [group, anchor, *mark, "</a>", "</g>"]


def _dash(round_: int) -> str:
    return ROUND_DASHES[(round_ - 1) % len(ROUND_DASHES)]


def _marker_at(x1: float, y1: float, x2: float, y2: float, round_: int,
               markers: list[tuple[float, float, int]]) -> tuple[float, float]:
    """Where on the last leg of a march its round's number goes: its middle, unless
    another round's number is there already (two rounds marched the same leg), then
    the first place along the leg clear of every other round's number."""
    places = [(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t) for t in (0.5, 0.3, 0.7, 0.15, 0.85)]
    for x, y in places:
        if all((x - mx) ** 2 + (y - my) ** 2 >= MARKER_GAP ** 2
               for mx, my, other in markers if other != round_):
            break
    else:
        x, y = places[0]
    markers.append((x, y, round_))
    return x, y


def _move(move: MapMove, points: list[tuple[float, float]],
          houses: Mapping[str, HouseLike], end: tuple[float, float],
          markers: list[tuple[float, float, int]]) -> list[str]:
    """An arrow along the march, in the house's colour, dashed by round, head at the end."""
    house = houses.get(move.house)
    colour = (safe_colour(house.color) if house is not None else None) or NEUTRAL_BORDER
    line: dict[str, str | float] = {
        "points": " ".join(f"{_n(x)},{_n(y)}" for x, y in points), "fill": "none",
        "stroke": colour, "stroke-width": 3, "stroke-linecap": "round",
        "stroke-linejoin": "round", "stroke-opacity": 0.85}
    if _dash(move.round):
        line["stroke-dasharray"] = _dash(move.round)
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1.0)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    # The head stops at the edge of the last province's box (half sizes ``end``).
    reach = min(end[0] / abs(ux) if ux else float("inf"), end[1] / abs(uy) if uy else float("inf"))
    tip_x, tip_y = x2 - ux * reach, y2 - uy * reach
    base_x, base_y = tip_x - ux * 11, tip_y - uy * 11
    head = [(tip_x, tip_y), (base_x - uy * 6, base_y + ux * 6), (base_x + uy * 6, base_y - ux * 6)]
    mid_x, mid_y = _marker_at(x1, y1, x2, y2, move.round, markers)
    parts = ['<g class="move">']
    if move.title:
        parts.append(_tag("title", {}, clean_text(move.title)))
    parts += [
        _tag("polyline", line),
        _tag("polygon", {"points": " ".join(f"{_n(x)},{_n(y)}" for x, y in head),
                         "fill": colour}),
        _tag("circle", {"cx": mid_x, "cy": mid_y, "r": 7, "fill": "#ffffff", "stroke": colour,
                        "stroke-width": 1.5}),
        _tag("text", {"x": mid_x, "y": mid_y + 3.5, "text-anchor": "middle", "font-size": 10,
                      "font-weight": "bold", "fill": "#000000"}, str(int(move.round))),
        "</g>"]
    return parts


def _change(change: MapChange, centre: tuple[float, float], province: ProvinceLike,
            houses: Mapping[str, HouseLike]) -> list[str]:
    """A ring around a province that changed hands, in its new controller's colour."""
    x, y = centre
    house = houses.get(change.controller or "")
    colour = (safe_colour(house.color) if house is not None else None) or NEUTRAL_BORDER
    w = _box_width(clean_text(province.name)) + 12
    parts = ['<g class="change">']
    if change.title:
        parts.append(_tag("title", {}, clean_text(change.title)))
    parts += [_tag("rect", {"x": x - w / 2, "y": y - 21, "width": w, "height": 42, "rx": 10,
                            "fill": "none", "stroke": colour, "stroke-width": 3,
                            "stroke-dasharray": "3,2"}), "</g>"]
    return parts


def _legend(houses: Mapping[str, HouseLike], words: MapLabels, x: float, y: float,
            rounds: Sequence[int] = (), changes: bool = False) -> list[str]:
    parts = ['<g class="legend">', _tag("text", {"x": x, "y": y, "font-weight": "bold",
                                                   "font-size": 12}, clean_text(words.legend))]
    row = y + 20

    def swatch(fill: str, stroke: str, text: str, *, rx: float = 3) -> None:
        nonlocal row
        parts.append(_tag("rect", {"x": x, "y": row - 10, "width": 22, "height": 13, "rx": rx,
                                   "fill": fill, "stroke": stroke}))
        parts.append(_tag("text", {"x": x + 30, "y": row}, text))
        row += 20

    for house_id in sorted(houses):
        house = houses[house_id]
        colour = safe_colour(house.color) or NEUTRAL_BORDER
        swatch(tint(colour), colour, clean_text(house.name))
    swatch(LAND_FILL, NEUTRAL_BORDER, clean_text(words.uncontrolled))
    swatch(SEA_FILL, SEA_BORDER, clean_text(words.sea), rx=6.5)
    for symbol, fill, word in (("★", "#000000", words.capital), ("⚑", "#b00020", words.revolt),
                               ("⌀", "#8a5a00", words.famine), ("⚔", "#b00020", words.battle)):
        parts.append(_tag("text", {"x": x + 11, "y": row, "text-anchor": "middle",
                                   "fill": fill, "font-size": 12}, symbol))
        parts.append(_tag("text", {"x": x + 30, "y": row}, clean_text(word)))
        row += 20
    for round_ in rounds:
        line: dict[str, str | float] = {"x1": x, "y1": row - 4, "x2": x + 22, "y2": row - 4,
                                        "stroke": "#333333", "stroke-width": 3}
        if _dash(round_):
            line["stroke-dasharray"] = _dash(round_)
        parts.append(_tag("line", line))
        parts.append(_tag("text", {"x": x + 30, "y": row},
                          clean_text(words.movement.replace("%(round)s", str(int(round_))))))
        row += 20
    if changes:
        parts.append(_tag("rect", {"x": x, "y": row - 10, "width": 22, "height": 13, "rx": 4,
                                   "fill": "none", "stroke": "#333333", "stroke-width": 2,
                                   "stroke-dasharray": "3,2"}))
        parts.append(_tag("text", {"x": x + 30, "y": row}, clean_text(words.change)))
        row += 20
    parts.append("</g>")
    return parts

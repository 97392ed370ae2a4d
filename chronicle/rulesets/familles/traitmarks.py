"""The traits of *Les familles nobles* drawn as small SVG marks (issue 19, item 6).

The game's pack gives each trait a ``symbol`` (an emoji in ``familles.toml``,
kept as it is: it is part of the game's export). A page never prints it, as
a reader's machine may have no emoji font: the symbol names one of the
drawings below, each a few strokes on a 24-unit square, and a trait whose
symbol has none gets a plain ring. Pages define the drawings once, as an
inline ``<symbol>`` sprite, and each trait chip shows its own with ``<use>``;
the family tree, a Graphviz drawing published as its own SVG file, gets the
strokes themselves in place of each cell's text (an SVG file of the site
may hold no ``<use>``: ``svgsafe``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from typing import Protocol

from markupsafe import Markup, escape

#: Strokes (SVG path data, 24 x 24, drawn with round caps) by the pack's symbol.
DRAWINGS: Mapping[str, str] = {
    # An ear: the outer rim, the inner fold.
    "\N{EAR}": "M8 20c1.6 1.6 4.4 1.2 5.4-1 .9-2 3.6-3.7 4.1-7A6 6 0 0 0 6 9.5"
               "M10 10a2.5 2.5 0 0 1 5 0c0 1.6-1.6 2.1-1.6 3.7",
    # Glasses: two rims, the bridge and the arms.
    "\N{EYEGLASSES}": "M2.5 13.5a3.7 3.7 0 1 0 7.4 0a3.7 3.7 0 1 0-7.4 0"
                      "M14.1 13.5a3.7 3.7 0 1 0 7.4 0a3.7 3.7 0 1 0-7.4 0"
                      "M9.9 13c1.2-1.2 3-1.2 4.2 0M2.6 12.6 1.5 8.5M21.4 12.6l1.1-4.1",
    # A nose in profile, with its nostril.
    "\N{NOSE}": "M11 3c0 4.5-1.5 8-4.5 11.5-1.4 1.7-.4 4.5 2 4.5H12M14 19h1.5"
                "a2.2 2.2 0 0 0 1.2-4",
    # Lips: the upper lip's bow, the lower lip, the line between.
    "\N{MOUTH}": "M2 12c3-4.2 6.2-5 8.5-3.4 1-.8 2-.8 3 0 2.3-1.6 5.5-.8 8.5 3.4"
                 "-3 4-6.4 6-10 6s-7-2-10-6zM2 12h20",
    # A lock of hair: one curl.
    "\N{CURLY LOOP}": "M2.5 17c4.5 0 8.5-3.3 8.5-7a3.2 3.2 0 0 0-6.4 0c0 4.2 4.6 7.4 9.4 7.4"
                      "s7.5-3.2 7.5-6.4",
}
#: For a trait whose symbol has no drawing: a ring, still told apart by its colour.
RING = "M12 5a7 7 0 1 0 0 14a7 7 0 1 0 0-14"
#: The strokes' colour: at least 3:1 against every trait colour of the pack (WCAG 1.4.11).
INK = "#111111"
#: Part of the family tree's cache key: a changed drawing lays the trees out again.
VERSION = "trait-marks-1"


class TraitLook(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def symbol(self) -> str: ...


def strokes(symbol: str) -> str:
    return DRAWINGS.get(symbol, RING)


def sprite(traits: Mapping[str, TraitLook]) -> Markup:
    """Every trait's drawing as a ``<symbol>`` (``#trait-<id>``), once in a page."""
    symbols = "".join(
        f'<symbol id="trait-{escape(tid)}" viewBox="0 0 24 24"><path d="{strokes(look.symbol)}"/>'
        "</symbol>" for tid, look in traits.items())
    return Markup(f'<svg class="trait-sprite" aria-hidden="true" width="0" height="0">'
                  f"{symbols}</svg>")


def placeholder(trait: str) -> str:
    """What a tree's card cell holds until ``draw_in_tree`` draws the trait there."""
    return f"@trait:{trait}@"


# A trait's cell: its coloured box, then the placeholder Graphviz wrote in it.
_CELL = re.compile(r'(<polygon fill="[^"]*" stroke="none" points="([^"]*)"/>\s*)'
                   r"<text[^>]*>@trait:([^<@]*)@</text>")


def draw_in_tree(svg: str, traits: Mapping[str, TraitLook]) -> str:
    """Graphviz's SVG of a tree, each trait cell's placeholder text replaced by the
    trait's strokes, centred in the cell, with the trait's name as their title."""

    def mark(match: re.Match[str]) -> str:
        box, points = match.group(1), match.group(2)
        xs = [float(p.split(",")[0]) for p in points.split()]
        ys = [float(p.split(",")[1]) for p in points.split()]
        trait = html.unescape(match.group(3))  # Graphviz writes "-" as "&#45;"
        look = traits.get(trait)
        name = escape(look.name if look is not None else trait)
        path = strokes(look.symbol if look is not None else "")
        # The 24-unit square, drawn 16 units wide in the middle of the cell.
        x, y = (min(xs) + max(xs)) / 2 - 8, (min(ys) + max(ys)) / 2 - 8
        return (f'{box}<g class="trait-mark" transform="translate({x:.2f},{y:.2f}) '
                f'scale(0.6667)"><title>{name}</title>'
                f'<path d="{path}" fill="none" stroke="{INK}" stroke-width="2.2" '
                'stroke-linecap="round" stroke-linejoin="round"/></g>')

    return _CELL.sub(mark, svg)

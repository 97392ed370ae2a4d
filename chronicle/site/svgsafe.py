"""What an SVG of the site may hold: drawing, text and links to the site's own pages.

The drawings are embedded in pages with ``<object>``, so a script in one
runs in the page. Graphviz, pygal and our own drawing code write none, but
a drawing may also come from a campaign's cache, and a campaign folder
received from someone else could hold an entry planted there. Every SVG is
checked before it is used or published (``unsafe``): only the elements a
drawing needs with the attributes a drawing needs (so no event handler),
no ``url(...)`` but to the drawing itself, and links only by relative paths
to pages or drawings of the site.

The check reads the file without changing it, so a published drawing keeps
its bytes. A text that passed is marked as such (``CheckedSvg``), so that a
drawing read from the cache, checked there, is not checked again when it is
published: a large campaign's genealogies take a second to check.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from chronicle.errors import PublishError

SVG = "{http://www.w3.org/2000/svg}"

#: Elements that draw or describe, and nothing else: no ``script``,
#: ``foreignObject``, ``image``, ``use`` or animation (``set`` and
#: ``animate`` can turn a link into script).
ELEMENTS = frozenset(
    SVG + name for name in (
        "svg", "g", "defs", "title", "desc", "metadata", "style", "a", "text", "tspan",
        "path", "line", "polyline", "polygon", "rect", "circle", "ellipse",
        "clipPath", "linearGradient", "radialGradient", "stop", "marker", "symbol"))

XLINK = "{http://www.w3.org/1999/xlink}"
XML = "{http://www.w3.org/XML/1998/namespace}"
#: Attributes that can name something to fetch or follow: checked one by one.
LINKS = frozenset({"href", XLINK + "href"})
PAINT = frozenset({"fill", "stroke", "clip-path", "mask", "filter", "marker-start",
                   "marker-mid", "marker-end"})
#: The attributes whose values are checked one by one.
WATCHED = LINKS | PAINT | {"style"}
#: Every attribute a drawing may have: geometry, presentation, the words shown
#: to the reader (names, from players: never fetched or run), and links. No
#: event handler is among them.
ATTRIBUTES = LINKS | PAINT | frozenset({
    "style", "class", "id", "role", "aria-label", "aria-labelledby", "aria-describedby",
    "title", XLINK + "title", XML + "space", "target", "type", "version", "viewBox",
    "preserveAspectRatio", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy",
    "r", "rx", "ry", "d", "points", "transform", "dx", "dy", "text-anchor",
    "dominant-baseline", "font-family", "font-size", "font-style", "font-weight",
    "font-variant", "stroke-width", "stroke-dasharray", "stroke-linecap", "stroke-linejoin",
    "stroke-opacity", "fill-opacity", "fill-rule", "opacity", "offset", "stop-color",
    "stop-opacity", "gradientUnits", "gradientTransform", "clipPathUnits", "markerWidth",
    "markerHeight", "refX", "refY", "orient"})

# A relative path of plain names down to a page or a drawing, maybe up
# first: no scheme, no host, no absolute path.
_OWN_LINK = re.compile(r"(?:\.\./)*(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*"
                       r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.(?:html|svg)(?:#[A-Za-z0-9_-]*)?"
                       r"|#[A-Za-z0-9_-]+")
_URL = re.compile(r"url\s*\(\s*['\"]?([^)'\"]*)", re.IGNORECASE)
_STYLE_BANNED = re.compile(r"@import|expression\s*\(|javascript:|\\", re.IGNORECASE)


class CheckedSvg(str):
    """An SVG text that ``unsafe`` found nothing wrong with (made by ``accepted`` only)."""

    __slots__ = ()


def accepted(text: str) -> CheckedSvg | None:
    """``text`` marked as checked, or None if it may not be published."""
    if isinstance(text, CheckedSvg):
        return text
    return CheckedSvg(text) if unsafe(text) is None else None


def checked(name: str, text: str) -> CheckedSvg:
    """``text``, to be published as ``name``: refused if it could run script or
    lead out of the site."""
    if isinstance(text, CheckedSvg):
        return text
    reason = unsafe(text)
    if reason is not None:
        raise PublishError(f"refusing to publish {name}: it holds {reason}")
    return CheckedSvg(text)


def unsafe(text: str) -> str | None:
    """Why ``text`` may not be published as a drawing, or None if it may."""
    if re.search(r"<!(?:DOCTYPE|ENTITY)", text, re.IGNORECASE):
        return "a document type declaration"
    if re.search(r"<\?(?!xml\s)", text):
        return "a processing instruction"
    parser = ET.XMLParser()  # comments are dropped: they cannot run or fetch anything
    try:
        parser.feed(text)
        root = parser.close()
    except ET.ParseError as err:
        return f"not well-formed XML ({err})"
    return _tree_unsafe(root)


def _tree_unsafe(root: ET.Element) -> str | None:
    """The checks over the whole tree at once, as set operations where they can be:
    a large genealogy has tens of thousands of elements, checked on every build."""
    elements = list(root.iter())
    tags = {element.tag for element in elements}
    if not tags <= ELEMENTS:
        return f"the element {min(map(str, tags - ELEMENTS))!r}"
    names: set[str] = set().union(*[element.attrib.keys() for element in elements])
    if not names <= ATTRIBUTES:
        return f"the attribute {min(names - ATTRIBUTES)!r}"
    values = {(name, value) for name in names & WATCHED
              for value in {element.get(name) for element in elements} if value is not None}
    for name, value in sorted(values):
        if name in LINKS:
            if not _OWN_LINK.fullmatch(value):
                return f"a link out of the site: {value!r}"
            continue
        reason = _style_unsafe(value) if name == "style" else _url_unsafe(value)
        if reason is not None:
            return f"{reason} in the attribute {name!r}"
    for element in root.iter(SVG + "style"):
        reason = _style_unsafe("".join(element.itertext()))
        if reason is not None:
            return reason
    return None


def _style_unsafe(value: str) -> str | None:
    """Style may point only inside the drawing: ``url(#id)``, never a file or a script."""
    if _STYLE_BANNED.search(value):
        return "an import, an expression or an escape in style"
    return _url_unsafe(value)


def _url_unsafe(value: str) -> str | None:
    for target in _URL.findall(value):
        if not target.strip().startswith("#"):
            return f"a url() out of the drawing: {target!r}"
    return None

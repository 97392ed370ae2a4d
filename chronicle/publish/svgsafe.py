"""What an SVG of the site may hold: drawing, text and links to the site's own pages.

The drawings are embedded in pages with ``<object>``, so a script in one
runs in the page. Graphviz, pygal and our own drawing code write none, but
a drawing may also come from a campaign's cache, and a campaign folder
received from someone else could hold an entry planted there. Every SVG is
checked before it is used or published (``unsafe``): only the elements a
drawing needs, no event handler, no ``url(...)`` but to the drawing itself,
and links only by relative paths to pages or drawings of the site.

The check reads the file without changing it, so a published drawing keeps
its bytes.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

#: Elements that draw or describe, and nothing else: no ``script``,
#: ``foreignObject``, ``image``, ``use`` or animation (``set`` and
#: ``animate`` can turn a link into script).
ELEMENTS = frozenset(
    SVG + name for name in (
        "svg", "g", "defs", "title", "desc", "metadata", "style", "a", "text", "tspan",
        "path", "line", "polyline", "polygon", "rect", "circle", "ellipse",
        "clipPath", "linearGradient", "radialGradient", "stop", "marker", "symbol"))

#: Attributes that hold words shown to the reader (names, from players), never
#: fetched or run.
WORDS = frozenset({"title", "aria-label", "aria-labelledby", "aria-describedby", "id",
                   "class", "role"})

# A relative path of plain names down to a page or a drawing, maybe up
# first: no scheme, no host, no absolute path.
_OWN_LINK = re.compile(r"(?:\.\./)*(?:[A-Za-z0-9_-][A-Za-z0-9._-]*/)*"
                       r"[A-Za-z0-9_-][A-Za-z0-9._-]*\.(?:html|svg)(?:#[A-Za-z0-9_-]*)?"
                       r"|#[A-Za-z0-9_-]+")
_URL = re.compile(r"url\s*\(\s*['\"]?([^)'\"]*)", re.IGNORECASE)
_STYLE_BANNED = re.compile(r"@import|expression\s*\(|javascript:|\\", re.IGNORECASE)


def unsafe(text: str) -> str | None:
    """Why ``text`` may not be published as a drawing, or None if it may."""
    if re.search(r"<!(?:DOCTYPE|ENTITY)", text, re.IGNORECASE):
        return "a document type declaration"
    if re.search(r"<\?(?!xml\s)", text):
        return "a processing instruction"
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    try:
        parser.feed(text)
        root = parser.close()
    except ET.ParseError as err:
        return f"not well-formed XML ({err})"
    for element in root.iter():
        reason = _element_unsafe(element)
        if reason is not None:
            return reason
    return None


def _element_unsafe(element: ET.Element) -> str | None:
    tag: object = element.tag
    if tag is ET.Comment:
        return None
    if tag not in ELEMENTS:
        return f"the element {tag!r}"
    for name, value in element.attrib.items():
        local = name.rsplit("}", 1)[-1].lower()
        if local.startswith("on"):
            return f"the event handler {local!r}"
        if local == "href" and not _OWN_LINK.fullmatch(value):
            return f"a link out of the site: {value!r}"
        if local in WORDS:
            continue
        reason = _style_unsafe(value) if local == "style" else _url_unsafe(value)
        if reason is not None:
            return f"{reason} in the attribute {local!r}"
    if tag == SVG + "style":
        return _style_unsafe("".join(element.itertext()))
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

"""Machine-read files: the Atom feed of turns, the sitemap, the search index.

No clock is read: a turn's entry is dated by when it was adjudicated, as the
store keeps it (``TurnRow.adjudicated_at``), so a rebuild gives the same
bytes; a turn stored before that was kept falls back to the first day of its
game year. A sitemap needs absolute addresses (``<loc>`` must be a full URL),
so it is written only when the build is given a base URL.
"""

from __future__ import annotations

import json
from xml.sax.saxutils import escape, quoteattr

from chronicle.rulesets import descriptor
from chronicle.site.pages import SiteContext, Write, claim, turn_told
from chronicle.views.data import TurnView


def _stamp(year: int) -> str:
    return f"{max(year, 1):04d}-01-01T00:00:00Z"


def _dated(turn: TurnView) -> str:
    """When a turn's entry was published: its adjudication, else its game year."""
    return turn.adjudicated_at or _stamp(turn.year)


FEED_TURNS = 20


def build_feed(ctx: SiteContext, write: Write) -> None:
    """``<campaign>/feed.atom``: one entry per turn, newest first, the latest ``FEED_TURNS``.

    A reader polls the feed for what is new; the whole chronicle stays on
    the site. Every turn in it would make a long campaign's feed megabytes,
    fetched again at every poll.

    Links are absolute when the context has a ``base_url``. Like a page, the
    feed is made by one process only when several share the build.
    """
    mine = claim(ctx, write, "feed.atom")
    if mine is None:
        return
    write, base_url = mine, ctx.base_url
    data = ctx.data
    slug = data.campaign.slug
    base = f"{base_url.rstrip('/')}/{ctx.prefix}" if base_url else ""
    author = ctx._("The arbiter")
    shown = list(reversed(data.turns[-FEED_TURNS:]))
    # The feed changed when its newest entry did (a rollback can make an
    # entry older than the one it replaced: the latest date of all counts).
    updated = max((_dated(t) for t in shown), default=_stamp(data.campaign.start_year))
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang={quoteattr(data.campaign.language)}>',
             f"<title>{escape(data.campaign.title)}</title>",
             f"<id>urn:chronicle:{escape(slug)}</id>",
             f"<updated>{updated}</updated>",
             f'<link rel="self" type="application/atom+xml" href={quoteattr(base + "feed.atom")}/>',
             f'<link rel="alternate" type="text/html" href={quoteattr(base + "index.html")}/>',
             f"<author><name>{escape(author)}</name></author>"]
    calendar = descriptor(data.campaign.ruleset).calendar
    for turn in shown:
        href = f"{base}turns/turn-{turn.number:03d}/index.html"
        told = "".join(f"<p>{text}</p>" for _e, text in turn_told(ctx, turn))
        title = calendar.title(turn.number, turn.year, ctx._)
        lines += ["<entry>", f"<title>{escape(title)}</title>",
                  f"<id>urn:chronicle:{escape(slug)}:turn:{turn.number}</id>",
                  f"<published>{_dated(turn)}</published>",
                  f"<updated>{_dated(turn)}</updated>",
                  f'<link rel="alternate" type="text/html" href={quoteattr(href)}/>',
                  f'<content type="html">{escape(told)}</content>', "</entry>"]
    lines.append("</feed>")
    write(ctx.prefix + "feed.atom", "\n".join(lines) + "\n")


def search_entries(ctx: SiteContext) -> list[list[object]]:
    """Everything a player may look for, one compact row each.

    ``[kind, name, reference numbers, what to show beside it, page]``: the
    kind an index into ``pages.search_kinds`` (people, houses, the ruleset's
    own kinds: ``SitePlugin.search``, then turns), the numbers one string
    (matched case-sensitively by ``search.js``: ``E1a00`` is not ``E1A00``),
    the page relative to the campaign. Rows, not objects, and people's pages
    by slug alone: an 11,000-person campaign's index stays about half a megabyte.
    """
    data, _ = ctx.data, ctx._
    rows: list[list[object]] = []
    for person in data.person_order():
        rows.append([0, person.name, " ".join(r for _d, r, _x in person.all_refs),
                     f"{person.born}–{person.died or ''}", person.slug])
    for house in sorted(data.houses.values(), key=lambda h: h.name):
        rows.append([1, house.name, house.letter, "", f"houses/{house.slug}/index.html"])
    part = ctx.site.search
    if part is not None:
        rows += ([2 + kind, name, refs, beside, page]
                 for kind, name, refs, beside, page in part.rows(ctx))
    turn_kind = ctx.site.turn_search_kind
    if turn_kind is None:
        turn_kind = 2 + (len(part.kinds) if part is not None else 0)
    for turn in data.turns:
        rows.append([turn_kind,
                     _("Turn %(turn)s, %(year)s") % {"turn": turn.number, "year": turn.year},
                     "", "", f"turns/turn-{turn.number:03d}/index.html"])
    return rows


SEARCH_INDEX = "search-index.js"


def build_search_index(ctx: SiteContext, write: Write) -> None:
    """``<campaign>/search-index.js``: the index as a script, so that it loads from ``file://``.

    A page opened from the disk may not ``fetch`` a file beside it; a
    ``<script>`` may load it. The rows are JSON, which is JavaScript.
    """
    mine = claim(ctx, write, SEARCH_INDEX)
    if mine is None:
        return
    write = mine
    text = json.dumps(search_entries(ctx), ensure_ascii=False, separators=(",", ":"))
    write(ctx.prefix + SEARCH_INDEX, f"window.chronicleSearchIndex = {text};\n")


def build_sitemap(paths: list[str], write: Write, base_url: str = "") -> None:
    """``sitemap.xml`` of every HTML page written (sorted), with a base URL only.

    The sitemaps protocol asks for full URLs in ``<loc>``: without a base URL
    there is none to give, and a sitemap of relative paths would be refused by
    every reader, so none is written (an earlier build's is then removed).
    """
    if not base_url:
        return
    base = base_url.rstrip("/") + "/"
    lines = ['<?xml version="1.0" encoding="utf-8"?>',
             '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">']
    lines += [f"<url><loc>{escape(base + p)}</loc></url>"
              for p in sorted(paths) if p.endswith(".html")]
    lines.append("</urlset>")
    write("sitemap.xml", "\n".join(lines) + "\n")

"""Page builders: one function per kind of page, each given a ``write`` callable.

A builder renders from the prepared ``SiteContext`` and calls
``write(path, text)`` with a path relative to the site's root; it never
queries the store or touches the disk, so tests hand it a fake writer.

URLs (stable: they depend on ids and reference numbers, never on build order)::

    <campaign>/index.html                      home: rulers, standings, latest turn
    <campaign>/turns/turn-003/index.html       chronicle of turn 3
    <campaign>/dice/turn-003/index.html        public dice of turn 3
    <campaign>/houses/index.html               houses
    <campaign>/houses/<house>/index.html
    <campaign>/people/index.html               everyone, with every reference number
    <campaign>/people/<ref>-<id>/index.html    e.g. people/e1100-edward/
    <campaign>/genealogy/<house>.svg          a dynasty's family tree, or its trunk
    <campaign>/genealogy/<part>.html          a part at 100 %; #p_<id> marks a person
    <campaign>/search/index.html, search-index.js, feed.atom

and a ruleset's own pages beside them (its site plug-in's builders: Blood
Royale's battles, wealth and maps). Every link is relative (``root`` leads
back to the campaign's folder), so a page works from any folder and from
``file://``.

These are the pages of a dynastic campaign; the plug-in of a campaign's
ruleset (``SitePlugin``, ``SiteContext.plugin``) says which of them it has,
what its own views add to them (the values of ``page_values``, shown by the
blocks of its own templates: ``SitePlugin.pages``), its masthead links, its
search entries and how a turn is cut into sections (``TurnLayout``).
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import jinja2
import markdown  # type: ignore[import-untyped]
import nh3
from markupsafe import Markup, escape

from chronicle.errors import PublishError
from chronicle.i18n.catalogue import translations
from chronicle.i18n.grammar import FINISHING, finish
from chronicle.narration import ROOT, Glossary, Narrator
from chronicle.narration.narrator import LEDGER_COLUMNS
from chronicle.site.incremental.inputs import slugify, theme_chain
from chronicle.site.svgsafe import checked
from chronicle.site.themes import environment
from chronicle.views.data import (
    EventView,
    HouseView,
    PersonView,
    SiteData,
    TurnView,
)
from chronicle.views.kin import Kin, kinship_table

if TYPE_CHECKING:
    from chronicle.site.plugin import SitePlugin

Write = Callable[[str, str | bytes], None]

ALLOWED_TAGS = {"a", "abbr", "b", "blockquote", "br", "code", "em", "h2", "h3", "h4", "h5",
                "h6", "hr", "i", "li", "ol", "p", "pre", "q", "s", "strong", "sub", "sup",
                "table", "tbody", "td", "th", "thead", "tr", "ul"}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"},
                      "th": {"align"}}


def sanitise_markdown(text: str) -> Markup:
    """The arbiter's Markdown as safe HTML: no scripts, handlers, styles or odd URLs."""
    html = markdown.markdown(text, extensions=["tables"], output_format="html")
    clean = nh3.clean(html, tags=ALLOWED_TAGS | {"h1"}, attributes=ALLOWED_ATTRIBUTES,
                      url_schemes={"http", "https", "mailto"},
                      link_rel="noopener noreferrer nofollow")
    return Markup(_HEADING.sub(_demote, clean))


_HEADING = re.compile(r"<(/?)h([1-6])>")


def _demote(match: re.Match[str]) -> str:
    """The page has its own h1 and h2: the arbiter's headings start at h3."""
    return f"<{match.group(1)}h{min(int(match.group(2)) + 2, 6)}>"


@dataclass(frozen=True)
class DiagramPage:
    """The page of one part of a family tree: its drawing inline, and the parts around.

    Paths are relative to the campaign's folder; ``up`` is the part showing
    this one's root among its members, ``beside`` the other parts of the
    same root's children, ``down`` the branches leaving this one. ``alone``:
    the drawing is also published as a file (``svg``), for the house page.
    """

    dynasty: str
    house_slug: str
    title: str
    svg: str
    page: str
    alone: bool
    up: tuple[str, str] | None
    beside: tuple[tuple[str, str], ...]
    down: tuple[tuple[str, str], ...]


@dataclass
class SiteContext:
    """Everything the builders of one campaign need, prepared once."""

    data: SiteData
    env: jinja2.Environment
    narrator: Narrator
    prefix: str
    archive: bool = True
    # Each dynasty's diagrams, (file, title), the whole tree or its trunk first.
    genealogies: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # The page and fragment of the part of the family tree that holds a person.
    person_diagram: dict[str, str] = field(default_factory=dict)
    diagram_pages: list[DiagramPage] = field(default_factory=list)
    # Drawings shown inline on their page (``diagram_pages``) but not as files.
    part_svgs: dict[str, str] = field(default_factory=dict)
    svgs: dict[str, str] = field(default_factory=dict)
    # The family trees' drawings by name: each one's print (``genealogy.Genealogies``),
    # and how to make those the layouts left out as the last build's (``build_svgs``).
    drawn: dict[str, str] = field(default_factory=dict)
    redraw: dict[str, Callable[[], str]] = field(default_factory=dict)
    # Drawings made when written, by the process that writes them (``build_svgs``).
    lazy_svgs: dict[str, Callable[[], str]] = field(default_factory=dict)
    charts: dict[str, tuple[str, str]] = field(default_factory=dict)
    pending: list[Callable[[], None]] = field(default_factory=list)
    base_url: str = ""  # makes the feed's links absolute
    memo: dict[Any, str] = field(default_factory=dict)  # bits of HTML many pages repeat
    # Set while several processes share the pages (see ``parallel``): this one
    # renders the pages given to ``index`` (of ``count``; see ``shares``), and
    # hands the others to ``elsewhere``; ``page_write``, when set, receives
    # the pages rendered here.
    shard: tuple[int, int] | None = None
    owners: dict[str, int] = field(default_factory=dict)
    elsewhere: Callable[[str], None] | None = None
    page_write: Write | None = None
    # Page fingerprints (``page_print``): ``site_print`` is of what every page
    # is made from (code, theme, words, campaign-wide values); ``keep`` asks
    # the writer to keep a page whose print is the last build's; ``prints``
    # collects this build's, for the next.
    site_print: str = ""
    keep: Callable[[str, str], bool] | None = None
    prints: dict[str, str] = field(default_factory=dict)
    previous: Callable[[str], str | None] | None = None
    _named: dict[int, frozenset[str]] = field(default_factory=dict)
    _shown: dict[str, bytes] = field(default_factory=dict)
    _known: frozenset[str] | None = None
    _told_digests: dict[int, str] = field(default_factory=dict)
    _turns: dict[int, TurnView] = field(default_factory=dict)
    _event_texts: dict[int, str] = field(default_factory=dict)
    # The family indexes person and house pages read (``kin``), and the
    # person pages' charts (``personcharts``; made on first use).
    kin: Kin | None = None
    person_charts: Any = None
    # The campaign's ruleset's site plug-in (``make_context`` is handed it), and what
    # it prepares for its own pages (a board's maps: ``SitePlugin.prepare``).
    plugin: SitePlugin | None = None
    parts: dict[str, Any] = field(default_factory=dict)

    @property
    def site(self) -> SitePlugin:
        """The plug-in of the campaign's ruleset."""
        assert self.plugin is not None, "make_context hands every context its plug-in"
        return self.plugin

    def known_ids(self) -> frozenset[str]:
        """Every person's and house's id: what ``mentioned`` looks for."""
        if self._known is None:
            self._known = frozenset(self.data.people) | frozenset(self.data.houses)
        return self._known

    def shown(self) -> dict[str, bytes]:
        """Each person's and house's part of the prints that name them (``mentioned``):
        the hash of what a link shows of them."""
        if not self._shown:
            people, houses = self.data.people, self.data.houses
            self._shown.update(
                (key, hashlib.blake2b(_shown(key, people.get(key), houses.get(key)).encode(),
                                      digest_size=12).digest())
                for key in sorted(self.known_ids()))
        return self._shown

    def _(self, text: str) -> str:
        return self.narrator._(text)

    def finish_drawings(self) -> None:
        """Wait for the drawings still being laid out (they fill ``svgs``)."""
        while self.pending:
            self.pending.pop(0)()

    def close(self) -> None:
        """Let go of the drawings and of the closures that refer back to this context.

        Those cycles would keep a whole campaign's views alive until a full
        garbage collection, which then costs whatever runs next a tenth of a
        second or more on a large campaign; without them, the views are freed
        as soon as the build lets go of the context.
        """
        self.pending.clear()
        self.lazy_svgs.clear()
        self.svgs.clear()
        self.part_svgs.clear()
        self.redraw.clear()


def make_context(data: SiteData, plugin: SitePlugin, *, archive: bool = True) -> SiteContext:
    """A campaign's context before its drawings: templates, words and sentences, and
    the plug-in of its ruleset (``plugin.plugin_of``)."""
    campaign = data.campaign
    env = environment(theme_chain(Path(campaign.folder), campaign.theme, campaign.ruleset),
                      campaign.language)
    trans = translations(campaign.language)
    glossary = (plugin.glossary(data, trans.gettext, campaign.language)
                if plugin.glossary is not None else Glossary())
    narrator = Narrator(data.people, data.houses, trans.gettext, trans.ngettext, glossary,
                        pgettext=lambda context, text: str(trans.pgettext(context, text)), language=campaign.language)
    return SiteContext(data=data, env=env, narrator=narrator,
                       prefix=f"{campaign.slug}/" if archive else "", archive=archive,
                       kin=Kin(data.people, data.houses, data.marriages), plugin=plugin)


# -- what a ruleset's plug-in gives the generic pages ------------------------------
@dataclass(frozen=True)
class NavLink:
    """A masthead link to a ruleset's own page (``SitePlugin.nav``): the page, from the
    campaign's folder; its words (a msgid); for a link not always there, when it is."""

    path: str
    label: str
    shown: Callable[[SiteData], bool] | None = None


@dataclass(frozen=True)
class SearchPart:
    """A ruleset's entries of the search index (``SitePlugin.search``), between the
    houses and the turns: the kinds it adds, as msgids in the order the index numbers
    them (``search.js``), and its rows, each ``[kind, name, reference numbers, what to
    show beside it, page]`` with ``kind`` an index into ``kinds``."""

    kinds: tuple[str, ...]
    rows: Callable[[SiteContext], list[tuple[int, str, str, str, str]]]


def _no_round(_phase: str) -> int | None:
    return None


def _states_no_order(_event: EventView) -> bool:
    return False


def _at_court(_phase: str) -> str:
    return "courts"


@dataclass(frozen=True)
class TurnLayout:
    """How a turn's chronicle is cut up (``turn_chronicle``, ``SitePlugin.turn_layout``).

    ``titles``: the sections, in order, with their titles (msgids); ``section_of``:
    an event's section, from its phase; ``round_of``: the round of play its phase
    belongs to, if any; ``states_order``: whether the event states a round's order
    of play (told first in the round's part).
    """

    titles: Mapping[str, str]
    section_of: Callable[[str], str] = _at_court
    round_of: Callable[[str], int | None] = _no_round
    states_order: Callable[[EventView], bool] = _states_no_order


#: A dynastic turn: everything happens at court, in no round.
DYNASTIC_LAYOUT = TurnLayout(titles={"courts": "At court"})


def turns_played(turns: int, year: int) -> tuple[str, Mapping[str, int]]:
    """A dynastic campaign's line in the archive index (``SitePlugin.progress``)."""
    return ("%(turns)s turns played; the chronicle has reached the year %(year)s.",
            {"turns": turns, "year": year})


def nav_links(ctx: SiteContext) -> tuple[tuple[str, str, bool], ...]:
    """The plug-in's masthead links shown for this campaign: (path, msgid, always).

    A link that is not always there ends its line with the next one's, as the
    chronicle's link of the dynastic masthead does (``masthead.html``).
    """
    return tuple((link.path, link.label, link.shown is None) for link in ctx.site.nav
                 if link.shown is None or link.shown(ctx.data))


def _root(rel: str) -> str:
    return "../" * rel.count("/")


def shares(data: SiteData, count: int, since: int | None = None) -> dict[str, int]:
    """Which process makes each turn's and each character's page.

    A turn's chronicle and the lives of the people of its time tell the same
    events, and each process tells every event its pages show: cut by time
    (people by birth, turns by year, into ``count`` runs of people),
    a process tells about half the events instead of nearly all of them.
    Other pages are shared by a hash of their path (``elsewhere``).

    After an earlier build (``since``: the year its pages showed), the pages
    made again are nearly all of people alive since then: their relatives'
    births, marriages and deaths are what changes a page. Cut by count, the
    runs of the latest-born would get almost all of them (measured: 98 % of
    a rebuild's person pages), so those people weigh ``RENDER_WEIGHT``
    pages each, and the runs are cut to equal weights.
    """
    people = sorted(data.people.values(), key=lambda p: (p.born, p.seq, p.id))
    weights = [RENDER_WEIGHT if since is None or p.died is None or p.died >= since else 1
               for p in people]
    total = sum(weights)
    owners: dict[str, int] = {}
    cuts: list[int] = []
    before = 0
    for person, weight in zip(people, weights, strict=True):
        owner = before * count // total
        while owner > len(cuts):
            cuts.append(person.born)
        owners[f"people/{person.slug}/index.html"] = owner
        before += weight
    for turn in data.turns:
        owners[f"turns/turn-{turn.number:03d}/index.html"] = bisect_left(cuts, turn.year)
    # Both come after the pages: the first process also writes the
    # genealogies at the end, so the feed, which tells its turns again, goes
    # to the last.
    owners["search-index.js"] = 0
    owners["feed.atom"] = count - 1
    return owners


# A page rendered again costs about four times what deciding to keep it does
# (its print): profiled, 2.2 ms against 0.5 ms for a person page.
RENDER_WEIGHT = 4


def elsewhere(ctx: SiteContext, rel: str) -> bool:
    """True (and the page claimed for it) if another process renders ``rel``.

    ``render`` asks; a builder may ask first, to skip preparing the page.
    """
    if ctx.shard is None:
        return False
    index, count = ctx.shard
    owner = ctx.owners.get(rel)
    if owner is None:
        # By a hash of the path, not by turn of arrival: builders alternate
        # kinds of page (a turn, its dice...), which would not share evenly.
        owner = zlib.crc32(rel.encode("utf-8")) % count
    if owner == index:
        return False
    if ctx.elsewhere is not None:
        ctx.elsewhere(ctx.prefix + rel)
    return True


def claim(ctx: SiteContext, write: Write, rel: str) -> Write | None:
    """The ``write`` for the file ``rel`` if this process makes it, else None."""
    if ctx.shard is None:
        return write
    if elsewhere(ctx, rel):
        return None
    return ctx.page_write or write


def campaign_print(ctx: SiteContext, code: str) -> str:
    """``site_print``: ``code`` (generator, theme, catalogues, base URL) and the
    campaign-wide values the shared parts of every page show (``campaign_wide``),
    but not the turn reached, which only the pages that say it show."""
    campaign = ctx.data.campaign
    shared = (code, campaign.slug, campaign.title, campaign.language, campaign.theme,
              campaign.seed_commitment, campaign.seed_revealed, ctx.archive, ctx.prefix,
              sorted(ctx.charts.items()), bool(ctx.data.turns), nav_links(ctx))
    return hashlib.blake2b(repr(shared).encode("utf-8"), digest_size=16).hexdigest()


def page_print(ctx: SiteContext, template: str, *parts: object) -> str:
    """The fingerprint of a page's inputs: ``template`` and ``parts``, the views it shows.

    The parts must hold everything the page shows beyond ``site_print``; the
    names of the people and houses they mention (ids, which the narrator
    turns into linked names) are added by ``mentioned``. tests/test_site_
    incremental.py checks that a site built turn after turn is the same,
    byte for byte, as one built at once.
    """
    digest = hashlib.blake2b(ctx.site_print.encode("ascii"), digest_size=16)
    digest.update(template.encode("utf-8"))
    digest.update(repr(parts).encode("utf-8"))
    return digest.hexdigest()


def mentioned(ctx: SiteContext, *holders: object) -> str:
    """How the people and houses named anywhere in ``holders`` are shown, hashed.

    A link to a person shows their name and number and leads to their page;
    a house, its name: those are what a page shows of them (``Narrator``).
    A name is any string of ``holders`` that is a person's or a house's id.
    Events are walked once each, however many pages tell them.
    """
    known = ctx.known_ids()
    strings: list[str] = []
    found: set[str] = set()
    for holder in holders:
        if isinstance(holder, PersonView):
            strings += (holder.father or "", holder.mother or "", holder.spouse or "",
                        holder.prisoner_of or "", holder.dynasty or "", holder.court or "",
                        *holder.spouses, *holder.children, *holder.refs, *holder.refs.values(),
                        *holder.renounced, *holder.renounced.values())
            strings += (hid for hid, _start, _end in holder.reigns)
            found.update(*(_named(ctx, event) for event in holder.timeline))
        elif isinstance(holder, list) and holder and isinstance(holder[0], EventView):
            found.update(*(_named(ctx, event) for event in holder))
        else:
            _strings(holder, strings)
    found.update(known.intersection(strings))
    # A page names dozens of people, and a site's pages name each of them
    # many times over: each one's part of the print is hashed once
    # (``shown``), and the parts are put in order by those short hashes.
    parts = b"".join(sorted(map(ctx.shown().__getitem__, found)))
    return hashlib.blake2b(parts, digest_size=16).hexdigest()


def _shown(key: str, person: PersonView | None, house: HouseView | None) -> str:
    """What a link shows of the person or house (or both) ``key`` names: their
    name and slug, and a person's number (``mentioned``)."""
    parts: list[tuple[str | None, ...]] = []
    if person is not None:
        parts.append((key, person.name, person.slug, person.label_ref))
    if house is not None:
        parts.append((key, house.name, house.slug))
    return repr(parts)


def _named(ctx: SiteContext, event: EventView) -> frozenset[str]:
    """The ids of people and houses an event names: the strings of its fields."""
    named = ctx._named.get(id(event))
    if named is None:
        strings = [event.phase, event.kind, *event.subjects, *event.houses]
        _strings(event.payload, strings)
        named = ctx._named[id(event)] = ctx.known_ids().intersection(strings)
    return named


def _event_text(ctx: SiteContext, event: EventView) -> str:
    text = ctx._event_texts.get(id(event))
    if text is None:
        text = ctx._event_texts[id(event)] = repr(event)
    return text


def told_digest(ctx: SiteContext, turn: TurnView) -> str:
    """The hash of a turn's public events: what its pages, and the lives of
    its people, tell of it (an event's place is its turn and ``seq``)."""
    digest = ctx._told_digests.get(turn.number)
    if digest is None:
        hashed = hashlib.blake2b(digest_size=16)
        for event in turn.events:
            hashed.update(_event_text(ctx, event).encode("utf-8"))
            hashed.update(b"\0")
        digest = ctx._told_digests[turn.number] = hashed.hexdigest()
    return digest


def _strings(value: object, into: list[str]) -> None:
    """Every string in ``value``: in its lists, tuples, dicts and dataclasses."""
    if isinstance(value, str):
        into.append(value)
    elif value is None or isinstance(value, int | float):
        return  # most leaves: told apart before the costlier tests below
    elif isinstance(value, list | tuple):
        into += (item for item in value if isinstance(item, str))
        for item in value:
            if not isinstance(item, str):
                _strings(item, into)
    elif isinstance(value, dict):
        for key, item in value.items():
            _strings(key, into)
            _strings(item, into)
    elif hasattr(value, "__dataclass_fields__"):
        for name in value.__dataclass_fields__:
            _strings(getattr(value, name), into)


def kept(ctx: SiteContext, rel: str, key: str) -> bool:
    """True if this process need not render ``rel``, which it makes: its print
    ``key`` is recorded, and is the last build's, and the file is still there.

    A builder asks ``elsewhere(ctx, rel) or kept(ctx, rel, <print>)``, in
    that order: only the process that makes a page works out its print
    (a turn's hashes every event the turn tells).
    """
    path = ctx.prefix + rel
    ctx.prints[path] = key
    return ctx.keep is not None and ctx.keep(path, key)


def render(ctx: SiteContext, write: Write, template: str, rel: str, **values: Any) -> None:
    """Render ``template`` to ``<campaign>/<rel>`` with the per-page link helpers."""
    mine = claim(ctx, write, rel)
    if mine is not None:
        mine(ctx.prefix + rel, page_html(ctx, template, rel, **values))


def page_html(ctx: SiteContext, template: str, rel: str, **values: Any) -> str:
    """The text of the page ``rel`` (see ``render``), whoever writes it: ``template``,
    or the template the ruleset renders that page with (``SitePlugin.pages``)."""
    root = _root(rel)
    narrator = ctx.narrator
    plugin = ctx.site
    try:
        return ctx.env.get_template(plugin.pages.get(template, template)).render(
            **campaign_wide(ctx, root),
            fragment=lambda name: fragment(ctx, name, root),
            person=lambda pid: narrator.person(pid, root),
            people_list=lambda pids: narrator.people_list(pids, root),
            house=lambda hid: narrator.house(hid, root),
            say=lambda event: narrator.sentence(event, root),
            cause=narrator.cause,
            **{name: make(narrator) for name, make in plugin.helpers.items()},
            **values)
    except jinja2.TemplateError as err:
        # A campaign's own theme is the arbiter's input: a template that does not
        # read, names what is not there or tries to change a view is refused in a
        # line naming it, as any other input is.
        where, line = _template_place(err, template)
        raise PublishError(f"{where}{f':{line}' if line else ''}: {err.message or err}"
                           f" (while writing {rel})") from None


def _template_place(err: jinja2.TemplateError, template: str) -> tuple[str, int | None]:
    """The template and line an error of rendering comes from: Jinja names them for a
    syntax error, and otherwise rewrites the traceback so that its last frame in a
    template is that template's line."""
    if isinstance(err, jinja2.TemplateSyntaxError):
        return Path(err.filename or template).name, err.lineno
    place: tuple[str, int | None] = (template, None)
    tb = err.__traceback__
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith((".html", ".xml", ".txt")):
            place = (Path(name).name, tb.tb_lineno)
        tb = tb.tb_next
    return place


def _site_root(ctx: SiteContext, root: str) -> str:
    return root + "../" if ctx.archive else root


def campaign_wide(ctx: SiteContext, root: str) -> dict[str, Any]:
    """What every template of a campaign sees: views, never the context itself.

    The context holds the drawings' closures and the templates' environment;
    a template gets the public views and a few plain values.
    """
    return {"data": ctx.data, "campaign": ctx.data.campaign, "root": root,
            "site_root": _site_root(ctx, root), "archive": ctx.archive, "charts": ctx.charts,
            "nav": nav_links(ctx)}


def fragment(ctx: SiteContext, template: str, root: str) -> Markup:
    """``template`` rendered once per folder depth, for every page there.

    The masthead and the footer are the same on every page of a folder
    depth; rendered once, they save about a twentieth of a character page's work.
    A fragment sees only what is the same for the whole campaign.
    """
    key = ("fragment", template, root)
    html = ctx.memo.get(key)
    if html is None:
        html = ctx.memo[key] = Markup(ctx.env.get_template(template).render(
            **campaign_wide(ctx, root)))
    return Markup(html)


# -- helpers the templates share -------------------------------------------------
def timeline_items(told: list[tuple[EventView, Markup]], root: str) -> Markup:
    """A life's timeline items, each dated and linked to its turn's chronicle.

    Built in one pass for the same reason as ``dice_rows``: thousands of
    character pages, each with a dozen events, dominate a large build.
    """
    return Markup("\n".join(
        f'<li><a href="{root}turns/turn-{int(event.turn):03d}/index.html#{event.anchor}">'
        f"<time>{int(event.year)}</time></a> {text}</li>" for event, text in told))


def ref_items(ctx: SiteContext, person: PersonView, root: str) -> Markup:
    """A character's reference numbers as list items, each with its house.

    Built in one pass, like ``timeline_items``: after a century of
    intermarriage a character holds a number in every dynasty, and calling
    gettext and the link helpers through the template for each cost more
    than the rest of the page.
    """
    memo, _ = ctx.memo, ctx.narrator._
    renounced = memo.get("renounced")
    if renounced is None:
        renounced = memo["renounced"] = str(escape(" (" + _("renounced") + ")"))
    items = []
    for dynasty, ref, gone in person.all_refs:
        key = ("ref-house", dynasty, root)
        where = memo.get(key)
        if where is None:
            where = memo[key] = ctx.narrator.finish(str(escape(_("in %(house)s")) % {
                "house": ctx.narrator.house(dynasty, root)}))
        items.append(f"<li><code>{escape(ref)}</code> {where}{renounced if gone else ''}</li>")
    return Markup("\n".join(items))


RENOUNCED = '<code class="renounced">'


def people_rows(people: Iterable[PersonView]) -> Markup:
    """The rows of the index of everyone, one per person, every value escaped.

    Built in one pass like ``dice_rows``: the index lists every person who
    ever lived, and a template loop over them was a tenth of a large build.
    """
    rows = []
    for p in people:
        refs = "".join((RENOUNCED if gone else "<code>") + f"{escape(ref)}</code> "
                       for _dynasty, ref, gone in p.all_refs)
        died = int(p.died) if p.died is not None else ""
        rows.append(f'<tr><td><a href="../people/{escape(p.slug)}/index.html">'
                    f"{escape(p.name)}</a></td><td>{refs}</td>"
                    f"<td>{int(p.born)}–{died}</td></tr>")
    return Markup("\n".join(rows))


_NUMBERED = re.compile(r"(.+)-(\d+)")


def dice_words(pgettext: Callable[[str, str], str], value: str) -> str:
    """A roll's phase, purpose or dice in the site's language (the catalogue's ``dice``
    context): the engine records ids ("survival (natural)", "battle-2", "2d6").

    A numbered phase ("movement-1": the first movement round) is its word and its
    number ("movement 1") in every language, English included.
    """
    said = pgettext("dice", value)
    if said != value:
        return said
    numbered = _NUMBERED.fullmatch(value)
    if numbered is not None:
        return f"{pgettext('dice', numbered.group(1))} {numbered.group(2)}"
    return value


def dice_rows(ctx: SiteContext, turn: TurnView, root: str) -> Markup:
    """The rows of a turn's dice table.

    A long campaign throws thousands of public dice a turn; built here in one
    pass from the stored rows, with every value escaped (the few distinct
    phases, purposes and dice once each), they cost a fraction of a template
    loop over view objects.
    """
    narrator = ctx.narrator
    escaped: dict[str, str] = {}
    named: dict[str, str] = {}

    def text(value: str) -> str:
        html = escaped.get(value)
        if html is None:
            html = escaped[value] = str(escape(dice_words(narrator.p_, value)))
        return html

    def subject_of(value: str | None) -> str:
        if not value:
            return ""
        html = named.get(value)
        if html is None:
            html = named[value] = narrator.subject_html(value, root)
        return html

    rows = [
        f"<tr><td>{int(seq)}</td><td>{text(phase)}</td><td>{text(purpose)}</td>"
        f"<td>{subject_of(subject)}</td><td>{text(dice)}</td>"
        f"<td>{' '.join(map(str, map(int, thrown)))}</td>"
        f'<td class="num">{int(total)}</td></tr>'
        for (seq, phase, purpose, subject, dice, thrown, total) in turn.roll_values()]
    return Markup("\n".join(rows))


def sentences(ctx: SiteContext, events: Iterable[EventView], root: str, *,
              life: bool = False) -> list[tuple[EventView, Markup]]:
    """The events told for a page at ``root``; ``life``: as one of their people's page."""
    tell = ctx.narrator.in_a_life if life else ctx.narrator.sentence
    told = []
    for event in events:
        text = tell(event, root)
        if text is not None:
            told.append((event, text))
    return told


Told = list[tuple[EventView, Markup]]


@dataclass(frozen=True)
class LedgerTable:
    """The turn's economy, one row a house (``chronicle.narration.narrator.LEDGER``)."""

    #: (key, heading, whether the column holds numbers).
    columns: list[tuple[str, str, bool]]
    #: (house id, one cell a column: a number, or notes joined).
    rows: list[tuple[str, list[Markup]]]


@dataclass(frozen=True)
class RoundChronicle:
    """A round of movement: its order of play, then what more than one house shared."""

    number: int
    order: Told
    told: Told


@dataclass(frozen=True)
class HouseChronicle:
    """One house's part of a turn, by kind; the war by round (None outside them)."""

    house: str
    anchor: str
    kinds: list[tuple[str, list[tuple[int | None, Told]]]]


@dataclass(frozen=True)
class TurnChronicle:
    ledger: LedgerTable | None
    rounds: list[RoundChronicle]
    houses: list[HouseChronicle]
    #: Events of no house (a famine's end...), by kind.
    general: list[tuple[str, Told]]


def _actor(event: EventView) -> str | None:
    """The house that did or underwent the event, if one did."""
    house = event.payload.get("house")
    if isinstance(house, str) and house:
        return house
    return None


def turn_chronicle(ctx: SiteContext, turn: TurnView, root: str) -> TurnChronicle:
    """A turn told as a story: the economy as a table, the rounds, then house by house.

    An event a ruleset puts in the ledger is shown there instead of as a
    sentence. An event of a round of play with no acting house (a battle, a
    change of control, the order of play) belongs to its round; any other goes
    to its acting house, else to the first house it concerns. The ruleset's
    ``TurnLayout`` says each event's section and round.
    """
    narrator = ctx.narrator
    layout = ctx.site.turn_layout
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    notes: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    used: set[str] = set()
    rounds: dict[int, RoundChronicle] = {}
    by_house: dict[str, dict[str, dict[int | None, Told]]] = {}
    general: dict[str, Told] = {}
    for event in turn.events:
        entries = narrator.ledger(event)
        if entries is not None:
            for entry in entries:
                used.add(entry.column)
                if entry.note is not None:
                    notes[entry.house][entry.column].append(str(entry.note).replace(ROOT, root))
                else:
                    sums[entry.house][entry.column] += entry.amount
            if entries:
                continue
        text = narrator.sentence(event, root)
        if text is None:
            continue
        kind = layout.section_of(event.phase)
        number = layout.round_of(event.phase)
        actor = _actor(event)
        if number is not None and actor is None:
            chronicle = rounds.setdefault(number, RoundChronicle(number, [], []))
            (chronicle.order if layout.states_order(event) else chronicle.told).append(
                (event, text))
            continue
        # From the event alone: a page's grouping must not follow what its
        # people became later (an incremental build keeps the page).
        house = actor or (event.houses[0] if event.houses else None)
        if house is None:
            general.setdefault(kind, []).append((event, text))
            continue
        by_house.setdefault(house, {}).setdefault(kind, {}).setdefault(number, []).append(
            (event, text))
    return TurnChronicle(
        ledger=_ledger_table(ctx, sums, notes, used),
        rounds=[rounds[n] for n in sorted(rounds)],
        houses=[HouseChronicle(
            house=hid, anchor=f"house-{_house_slug(ctx, hid)}",
            kinds=[(kind, sorted(kinds[kind].items(), key=lambda pair: pair[0] or 0))
                   for kind in layout.titles if kind in kinds])
            for hid, kinds in sorted(by_house.items(), key=lambda pair: _house_key(ctx, pair[0]))],
        general=[(kind, general[kind]) for kind in layout.titles if kind in general])


def _house_slug(ctx: SiteContext, hid: str) -> str:
    house = ctx.data.houses.get(hid)
    return house.slug if house is not None else slugify(hid, "house")


def _house_key(ctx: SiteContext, hid: str) -> tuple[str, str]:
    house = ctx.data.houses.get(hid)
    return (house.name if house is not None else hid, hid)


def _ledger_table(ctx: SiteContext, sums: Mapping[str, Mapping[str, int]],
                  notes: Mapping[str, Mapping[str, list[str]]],
                  used: set[str]) -> LedgerTable | None:
    if not used:
        return None
    columns = [(key, ctx._(heading), adds_up) for key, (heading, adds_up)
               in LEDGER_COLUMNS.items() if key in used]
    rows = []
    for hid in sorted(set(sums) | set(notes), key=lambda h: _house_key(ctx, h)):
        cells = []
        for key, _heading, adds_up in columns:
            if adds_up:
                amount = sums.get(hid, {}).get(key)
                cells.append(Markup(str(amount)) if amount is not None else Markup(""))
            else:
                cells.append(Markup("<br>".join(notes.get(hid, {}).get(key, []))))
        rows.append((hid, cells))
    return LedgerTable(columns=columns, rows=rows)


def title_of(ctx: SiteContext, person: PersonView) -> str | None:
    """A ruler's title (localised), for pages and genealogy labels."""
    return ruler_title(ctx._, ctx.data.houses, person, ctx.narrator.language)


def ruler_title(_: Callable[[str], str], houses: Mapping[str, HouseView],
                person: PersonView, language: str = "en") -> str | None:
    """``title_of`` before there is a context: the genealogies start earlier."""
    for hid, _start, end in person.reigns:
        house = houses.get(hid)
        if house is None:
            continue
        values = {"house": house.name}
        if end is None and house.ruler == person.id:
            return finish(language, (_("King of %(house)s") if person.sex == "M"
                                     else _("Queen of %(house)s")) % values)
        return finish(language, (_("former King of %(house)s") if person.sex == "M"
                                 else _("former Queen of %(house)s")) % values)
    return None


# -- the builders -------------------------------------------------------------
def standings(data: SiteData, treasury: Mapping[str, int] | None = None,
              ) -> list[tuple[HouseView, int]]:
    """Houses by their treasuries (RULES.md A): now, or as ``treasury`` gives them."""
    held = {h.id: h.treasury for h in data.houses.values()}
    held.update(treasury or {})
    return sorted(((h, held[h.id]) for h in data.houses.values()),
                  key=lambda pair: (pair[0].eliminated, -pair[1], pair[0].name))


def build_home(ctx: SiteContext, write: Write) -> None:
    data = ctx.data
    latest = data.turns[-1] if data.turns else None
    ranked = standings(data)
    # The ruleset's values may rank the houses otherwise (by its own standings).
    values = {"standings": ranked if any(t for _h, t in ranked) else [],
              **ctx.site.page_values(ctx, "home.html", None)}
    render(ctx, write, "home.html", "index.html", latest=latest,
           latest_told=sentences(ctx, latest.events, "") if latest else [], **values)


def build_turns(ctx: SiteContext, write: Write) -> None:
    turns = ctx.data.turns
    for i, turn in enumerate(turns):
        rel = f"turns/turn-{turn.number:03d}/index.html"
        previous = turns[i - 1] if i > 0 else None
        following = turns[i + 1] if i + 1 < len(turns) else None
        # Asked before telling the turn, which is most of the page's work.
        if not elsewhere(ctx, rel):
            extra = ctx.site.page_values(ctx, "turn.html", turn)
            if not kept(ctx, rel, turn_print(ctx, rel, turn, previous, following, extra)):
                render(ctx, write, "turn.html", rel, turn=turn,
                       chronicle=turn_chronicle(ctx, turn, _root(rel)),
                       commentary=sanitise_markdown(turn.commentary) if turn.commentary
                       else None, previous=previous, next=following,
                       kinds=ctx.site.turn_layout.titles, **extra)
        rel = f"dice/turn-{turn.number:03d}/index.html"
        if not (elsewhere(ctx, rel) or kept(ctx, rel, dice_print(ctx, turn))):
            render(ctx, write, "dice.html", rel, turn=turn,
                   rows=dice_rows(ctx, turn, _root(rel)))


def dice_print(ctx: SiteContext, turn: TurnView) -> str:
    """The print of a turn's dice page: its rolls, and how their subjects are named
    (a house renamed in campaign.toml, or a person's number, shows on every page
    of dice thrown for them)."""
    subjects = sorted({str(row[4]) for row in turn.roll_rows if row[4]})
    narrator = ctx.narrator
    return page_print(ctx, "dice.html", turn.number, turn.year, turn.defaulted, turn.roll_rows,
                      mentioned(ctx, subjects), [narrator.subject_html(s, "") for s in subjects])


def turn_print(ctx: SiteContext, rel: str, turn: TurnView, previous: TurnView | None,
               following: TurnView | None, extra: Mapping[str, Any]) -> str:
    """The print of a turn's page (``extra``: the plug-in's values of it), with its
    realms' hash and the names they show (``realm_names_of``)."""
    told = (turn.number, turn.year, told_digest(ctx, turn), turn.commentary, turn.defaulted)
    digest, realm_names = realm_names_of(ctx, rel, turn)
    key = page_print(ctx, "turn.html", told, previous and (previous.number, previous.year),
                     following and (following.number, following.year), extra,
                     digest, mentioned(ctx, turn.events, extra, realm_names))
    return f"{key} {digest} {json.dumps(realm_names)}"


def realm_names_of(ctx: SiteContext, rel: str, turn: TurnView) -> tuple[str, tuple[str, ...]]:
    """The hash of a turn's realms and the ids of the houses and people they name.

    A realm shows its ruler and heirs as links, so a turn page's print holds
    how those are shown (``mentioned``); but the realms are read from the
    turn's whole snapshot, the cost of a turn page's print many times over.
    The print keeps the names with the snapshot's hash, and a page whose
    snapshot has that hash still names the same people: decoding is left
    to the pages that change.
    """
    digest = turn.realms_digest()
    before = ctx.previous(ctx.prefix + rel) if ctx.previous is not None else None
    if before is not None:
        _key, kept, names = [*before.split(" ", 2), "", ""][:3]
        if kept == digest:
            try:
                listed = json.loads(names)
            except ValueError:
                listed = None  # a manifest from elsewhere: the snapshot is read
            if isinstance(listed, list) and all(isinstance(n, str) for n in listed):
                return digest, tuple(listed)
    named = {name for r in turn.realms for name in (r.house, r.ruler, *r.heirs) if name}
    return digest, tuple(sorted(named))


def build_houses(ctx: SiteContext, write: Write) -> None:
    from chronicle.views.housepage import house_values

    data = ctx.data
    render(ctx, write, "houses.html", "houses/index.html",
           houses=sorted(data.houses.values(), key=lambda h: h.name))
    for house in data.houses.values():
        rel = f"houses/{house.slug}/index.html"
        if elsewhere(ctx, rel):
            continue
        render(ctx, write, "house.html", rel, h=house,
               diagrams=ctx.genealogies.get(house.id, []),
               living=[data.people[p] for p in house.living],
               **house_values(ctx, house, _root(rel)))


def _person_charts(ctx: SiteContext) -> Any:
    """The charts of the person pages, set up on first use by the process drawing them."""
    if ctx.person_charts is None:
        from chronicle.site.incremental.cache import inside
        from chronicle.site.personcharts import PersonCharts, chart_cache

        data = ctx.data
        ctx.person_charts = PersonCharts(
            data.people, data.houses, _kin(ctx),
            chart_cache(inside(Path(data.campaign.folder), ".cache", "charts")))
    return ctx.person_charts


def _kin(ctx: SiteContext) -> Kin:
    if ctx.kin is None:
        ctx.kin = Kin(ctx.data.people, ctx.data.houses, ctx.data.marriages)
    return ctx.kin


def build_people(ctx: SiteContext, write: Write) -> None:
    from chronicle.site.personpage import claims_html, family_html, title_items

    data = ctx.data
    ordered = data.person_order()
    groups: dict[str, list[PersonView]] = {}
    for person in ordered:
        groups.setdefault(person.dynasty or "", []).append(person)
    named = sorted((data.houses[h].name if h in data.houses else h, h) for h in groups if h)
    render(ctx, write, "people.html", "people/index.html",
           groups=[(name, h, people_rows(groups[h])) for name, h in named] +
           ([(ctx._("Minor nobility"), "", people_rows(groups[""]))] if "" in groups else []))
    kin, _, narrator = _kin(ctx), ctx._, ctx.narrator
    for person in ordered:
        rel = f"people/{person.slug}/index.html"
        if elsewhere(ctx, rel):
            continue
        title = title_of(ctx, person)
        extra = ctx.site.page_values(ctx, "person.html", person)
        diagram = ctx.person_diagram.get(person.id)
        root = _root(rel)
        charts = _person_charts(ctx)
        relatives = charts.inputs(person.id, root)
        # Most of a large campaign's people are long dead: their pages stay as they were.
        # The relatives' ids go in twice: in their places, since a page says who
        # is who (the claimant a rank comes after may be a brother it names
        # anyway), and through ``mentioned``, which adds how each is shown.
        if kept(ctx, rel, page_print(ctx, "person.html", person_facts(person), title,
                                     life_told(ctx, person), extra, diagram, *relatives,
                                     mentioned(ctx, person, relatives[0]))):
            continue
        ancestors = charts.ancestors(person.id, root)
        descendants = charts.descendants(person.id, root)
        render(ctx, write, "person.html", rel, p=person, title=title,
               titles=title_items(_, kin, person, narrator.language),
               family=family_html(_, narrator, kin, person, root),
               claims=claims_html(_, narrator, kin, person, root),
               ancestor_chart=Markup(ancestors) if ancestors else None,
               descendant_chart=Markup(descendants) if descendants else None,
               timeline=timeline_items(sentences(ctx, person.timeline, root, life=True), root),
               diagram=diagram, **extra)
    if ctx.person_charts is not None:
        # The shapes of the pages kept as they were stay in the cache too.
        ctx.person_charts.keep_shapes()


_FACTS = tuple(f for f in PersonView.__dataclass_fields__ if f != "timeline")


def person_facts(person: PersonView) -> tuple[Any, ...]:
    """A person's view but their life's events, which ``life_told`` sums up."""
    return tuple(getattr(person, name) for name in _FACTS)


def life_told(ctx: SiteContext, person: PersonView) -> tuple[Any, ...]:
    """A life's events by their place, with the hash of each turn they come from."""
    if not ctx._turns:
        ctx._turns.update((turn.number, turn) for turn in ctx.data.turns)
    turns = ctx._turns
    places = tuple((event.turn, event.seq) for event in person.timeline)
    return places, tuple(told_digest(ctx, turns[n]) for n in sorted({t for t, _s in places})
                         if n in turns)


def build_relationship(ctx: SiteContext, write: Write) -> None:
    """The relationship finder (issue 16, item 4) and the parents it searches.

    The data is a script beside the page, not JSON to fetch: browsers refuse
    ``fetch`` from ``file://``, and the site must work opened from disk.
    Each person is [name, number, page, sex, father, mother] (indices, -1
    for none), in the people's order: about 60 bytes a person.
    """
    import json

    people = ctx.data.person_order()
    index = {p.id: i for i, p in enumerate(people)}
    rows = [[p.name, p.label_ref or "", p.slug, p.sex, index.get(p.father or "", -1),
             index.get(p.mother or "", -1)] for p in people]
    rel = "relationship/kin.js"
    mine = claim(ctx, write, rel)
    if mine is not None:
        text = json.dumps({"p": rows}, ensure_ascii=True, separators=(",", ":"))
        # ``</`` cannot end the script early, whatever a name holds.
        mine(ctx.prefix + rel, "window.chronicleKin=" + text.replace("</", "<\\/") + ";\n")
    # The finder's words, in the page (its language's: the campaign's, in the site's print).
    words = kinship_table(ctx.narrator._, ctx.narrator.p_,
                          ctx.data.campaign.language in FINISHING)
    render(ctx, write, "relationship.html", "relationship/index.html", kin_words=words)


def search_kinds(ctx: SiteContext) -> tuple[str, ...]:
    """The kinds of search entry, in the order the index numbers them (``search.js``):
    people, houses, the ruleset's own (``SitePlugin.search``), turns. Msgids."""
    part = ctx.site.search
    return ("person", "house", *(part.kinds if part is not None else ()), "turn")


def build_search_page(ctx: SiteContext, write: Write) -> None:
    render(ctx, write, "search.html", "search/index.html", search_kinds=search_kinds(ctx))


def build_svgs(ctx: SiteContext, write: Write) -> None:
    """Genealogies, maps and charts drawn by their own modules, written as files.

    A lazy drawing is made by the process that writes it, like a page; the
    genealogies are laid out by the parent's workers, so the parent writes them.
    Every drawing is checked on its way out, whoever made it.
    """
    for name, draw in sorted(ctx.lazy_svgs.items()):
        mine = claim(ctx, write, name)
        if mine is not None:
            mine(ctx.prefix + name, checked(name, draw()))
    ctx.finish_drawings()
    for name, svg in sorted(ctx.svgs.items()):
        # Kept as checked: the family tree pages show the same drawings inline.
        ctx.svgs[name] = safe = checked(name, svg)
        if name not in ctx.drawn or not kept(ctx, name, _drawing_print(ctx, name)):
            write(ctx.prefix + name, safe)
    for diagram in ctx.diagram_pages:
        # A trunk's file the layouts left as the last build made it.
        name = diagram.svg
        if diagram.alone and name in ctx.redraw and not kept(ctx, name,
                                                             _drawing_print(ctx, name)):
            ctx.svgs[name] = safe = checked(name, ctx.redraw[name]())
            write(ctx.prefix + name, safe)
    build_diagram_pages(ctx, write)


def _drawing_print(ctx: SiteContext, name: str) -> str:
    """The print of a family tree's drawing published as a file: the code that
    finishes it (``site_print``) and the drawing's own (``SiteContext.drawn``)."""
    return f"{page_print(ctx, 'svg', name)} {ctx.drawn[name]}"


_XML_DECLARATION = re.compile(r"\A<\?xml[^>]*\?>\s*")
_XML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)


def inline_svg(name: str, svg: str) -> Markup:
    """A checked drawing as markup for an HTML page (no XML declaration).

    The HTML parser reads a few things in SVG otherwise than XML does:
    comments are dropped (XML allows none that could matter), and a drawing
    with a CDATA section is refused rather than guessed at.
    """
    text = _XML_COMMENT.sub("", _XML_DECLARATION.sub("", checked(name, svg)))
    if "<![CDATA[" in text:
        raise PublishError(f"refusing to show {name} in a page: it holds a CDATA section")
    return Markup(text)


def build_diagram_pages(ctx: SiteContext, write: Write) -> None:
    """A page per part of each family tree, made where its drawing was laid out.

    The drawing is inline, so that ``#p_<id>`` marks that person's box
    (CSS ``:target``) and scrolls the frame to it, without script and from
    ``file://``. Only the process holding the layouts (``svgs``) makes them,
    after the layouts, so they are made quickly: the page is rendered once
    per dynasty with stand-ins for the title, the links and the drawing,
    then filled in for each part (measured: rendering each of a large
    campaign's thousand parts added a tenth to its first build).
    """
    shells: dict[tuple[str, bool], str] = {}
    for diagram in ctx.diagram_pages:
        drawn = ctx.drawn.get(diagram.svg)
        # The page shows its drawing and its place among the parts: printed by both.
        if drawn is not None and kept(ctx, diagram.page,
                                      f"{page_print(ctx, 'genealogy.html', diagram)} {drawn}"):
            continue
        svg = ctx.svgs.get(diagram.svg) or ctx.part_svgs.get(diagram.svg)
        if svg is None and diagram.svg in ctx.redraw:
            svg = ctx.part_svgs[diagram.svg] = ctx.redraw[diagram.svg]()
        if svg is None:
            continue
        shell = shells.get((diagram.dynasty, diagram.alone))
        if shell is None:
            stand_in = DiagramPage(diagram.dynasty, diagram.house_slug, _TITLE, _SVG_FILE,
                                   diagram.page, diagram.alone, None, (), ())
            shell = shells[diagram.dynasty, diagram.alone] = page_html(
                ctx, "genealogy.html", diagram.page, d=stand_in, links=Markup(_LINKS),
                svg=Markup(_DRAWING))
        page = (shell.replace(_TITLE, str(escape(diagram.title)))
                .replace(_SVG_FILE, str(escape(diagram.svg)))
                .replace(_LINKS, diagram_links(diagram, _root(diagram.page)))
                .replace(_DRAWING, inline_svg(diagram.svg, svg)))
        write(ctx.prefix + diagram.page, page)


_TITLE, _LINKS, _DRAWING = "@@part-title@@", "@@part-links@@", "@@part-drawing@@"
_SVG_FILE = "@@part-svg@@"


def diagram_links(diagram: DiagramPage, root: str) -> str:
    """The list items leading to the parts around ``diagram``: up, beside, down."""
    items = [(f"↑ {title}", page) for page, title in ([diagram.up] if diagram.up else [])]
    items += [(title, page) for page, title in diagram.beside]
    items += [(f"↓ {title}", page) for page, title in diagram.down]
    return "".join(f'<li><a href="{escape(root + page)}">{escape(text)}</a></li>\n'
                   for text, page in items)


def turn_told(ctx: SiteContext, turn: TurnView) -> list[tuple[EventView, Markup]]:
    """The sentences of a turn as the feed shows them (links relative to the campaign)."""
    return sentences(ctx, turn.events, "")

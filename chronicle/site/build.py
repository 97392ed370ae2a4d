"""Building the site: campaign stores in, a static site out.

Fixed phases, as in Pelican: load each store into view models
(``data.load_campaign``), prepare one ``SiteContext`` (templates compiled
once, translations, drawings), then run the page builders with the writer.

Layout: ``index.html`` at the root lists the campaigns (an archive of one is
still an archive, so adding a campaign later never moves a page); each
campaign lives in ``<slug>/`` (see ``pages`` for its URLs); ``sitemap.xml``
covers them all.

Incremental builds: the writer rewrites only changed bytes, and a campaign
whose inputs (store, ``campaign.toml``, commentary, theme, generator code)
hash to the fingerprint of the previous build is not rendered at all.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from chronicle.errors import PublishError
from chronicle.site.drawings import prune_caches
from chronicle.site.feeds import build_feed, build_search_index, build_sitemap
from chronicle.site.genealogy import DrawnBefore, PendingGenealogies
from chronicle.site.incremental.inputs import (
    BASE_THEME,
    code_print,
    fingerprint,
    site_print,
    slugify,
    theme_chain,
)
from chronicle.site.pages import (
    SiteContext,
    Write,
    build_svgs,
    campaign_print,
    claim,
    make_context,
)
from chronicle.site.parallel.workers import run_builders
from chronicle.site.plugin import plugin_for, plugin_of
from chronicle.site.themes import environment, static_files
from chronicle.site.writer import Writer
from chronicle.views.data import (
    CampaignView,
    Lineage,
    SiteData,
    load_campaign,
    read_campaign_toml,
    store_session,
)

PACKAGE = Path(__file__).resolve().parent
CACHE_MARGIN = 2.0  # seconds

Progress = Callable[[str], None]


@dataclass
class BuildReport:
    """What a build did: files written (changed), kept unchanged, and removed."""

    campaigns: list[str] = field(default_factory=list)
    files: int = 0
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    reused: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class CampaignSummary:
    """The few facts the archive index needs, read without loading the store."""

    folder: Path
    slug: str
    title: str
    ruleset: str
    language: str
    turn: int
    year: int


def summarise(folder: Path) -> CampaignSummary:
    """The campaign's summary as the store holds it now.

    Good for naming and ordering the campaigns before they load; a campaign
    that is then built is summed up again from what its load read
    (``summary_of``), since a turn may be committed in between.
    """
    with store_session(folder) as (reader, row):
        last = reader.last_turn()
    meta = read_campaign_toml(folder)
    return CampaignSummary(
        folder=folder, slug=slugify(str(meta.get("slug") or row.slug), "campaign"),
        title=str(meta.get("title") or row.title), ruleset=row.ruleset,
        language=str(meta.get("language") or row.language or "en"),
        turn=last[0] if last else 0, year=last[1] if last else row.start_year)


def summary_of(campaign: CampaignView) -> CampaignSummary:
    """The summary of a loaded campaign: of the very state its pages show."""
    return CampaignSummary(folder=Path(campaign.folder), slug=campaign.slug, title=campaign.title,
                           ruleset=campaign.ruleset, language=campaign.language,
                           turn=campaign.turn, year=campaign.year)


# -- building -------------------------------------------------------------------
def prepare(data: SiteData, genealogies: PendingGenealogies | None = None, *,
            archive: bool = True) -> SiteContext:
    """The context of one campaign: templates, translations and drawings.

    ``genealogies``: the diagrams ``start_genealogies`` already set going.
    """
    plugin = plugin_of(data)
    return plugin.prepare(make_context(data, plugin, archive=archive), genealogies)


def build_campaign(ctx: SiteContext, writer: Writer, base_url: str = "") -> Callable[[], None]:
    """Write a campaign's pages; returns the call that waits for those still being made.

    (See ``run_builders``: the caller may let go of ``ctx`` before it waits.)
    """
    pages = plugin_of(ctx.data).builders
    # The drawings come last: the parent waits there for the Graphviz layouts.
    builders = (*(b for b in pages if b is not build_svgs), build_feed, build_search_index,
                build_svgs)
    ctx.base_url = base_url
    # The static files too are a builder's: nothing is written before the
    # pages' helper process forks (no writing thread may run then).
    return run_builders(ctx, (build_static, *builders), writer)


def build_static(ctx: SiteContext, write: Write) -> None:
    """The theme's static files, each under the campaign's ``static/``."""
    campaign = ctx.data.campaign
    for rel, path in static_files(theme_chain(Path(campaign.folder), campaign.theme,
                                              campaign.ruleset)).items():
        mine = claim(ctx, write, f"static/{rel}")
        if mine is not None:
            mine(f"{ctx.prefix}static/{rel}", path.read_bytes())


def _campaign(folder: Path, writer: Writer, base_url: str) -> tuple[CampaignSummary, list[Path],
                                                                    bool]:
    """A campaign's summary and theme layers, and whether the last build made it as it is.

    A campaign whose inputs hash to the fingerprint of a campaign of the last
    build is that campaign, unchanged: its summary is the one kept then, and
    its store is not even opened (most of a no-change rebuild would otherwise
    be the database library's first query).
    """
    meta = read_campaign_toml(folder)
    chain = theme_chain(folder, str(meta.get("theme") or BASE_THEME), _ruleset_of(meta))
    if writer.has_fingerprints():
        known = writer.previous_group(fingerprint(folder, chain, base_url))
        kept = _kept_summary(folder, *known) if known is not None else None
        if kept is not None:
            return kept, chain, True
    return summarise(folder), chain, False


def _ruleset_of(meta: dict[str, object]) -> str | None:
    """The ruleset ``campaign.toml`` names, if it is a string (the load checks it)."""
    ruleset = meta.get("ruleset")
    return ruleset if isinstance(ruleset, str) else None


def _facts(summary: CampaignSummary) -> dict[str, str | int]:
    """What the manifest keeps of a summary (see ``_kept_summary``)."""
    return {"title": summary.title, "ruleset": summary.ruleset, "language": summary.language,
            "turn": summary.turn, "year": summary.year}


def _kept_summary(folder: Path, slug: str, facts: dict[str, object]) -> CampaignSummary | None:
    """The summary the last build kept for ``slug``; None if the manifest lacks it."""
    try:
        return CampaignSummary(
            folder=folder, slug=slug, title=str(facts["title"]), ruleset=str(facts["ruleset"]),
            language=str(facts["language"]), turn=int(str(facts["turn"])),
            year=int(str(facts["year"])))
    except (KeyError, ValueError):
        return None


def build_site(campaign_dirs: list[Path], out: Path, *, progress: Progress | None = None,
               base_url: str = "") -> BuildReport:
    """Publish the campaigns in ``campaign_dirs`` as one static site in ``out``.

    ``progress`` (optional) is called with a short message per campaign.
    ``base_url`` (optional) makes the sitemap and feed links absolute.
    """
    say = progress or (lambda _message: None)
    writer = Writer(out)
    report = BuildReport()
    # Absolute from here on: a campaign's files are read as paths inside its
    # folder, which a folder named relative to the working one would not join.
    campaigns = [_campaign(Path(d).resolve(), writer, base_url) for d in campaign_dirs]
    summaries = [summary for summary, _chain, _unchanged in campaigns]
    slugs = [s.slug for s in summaries]
    if len(set(slugs)) != len(slugs):
        raise PublishError(f"two campaigns share a slug: {sorted(slugs)}")
    for summary, chain, unchanged in sorted(campaigns, key=lambda c: c[0].slug):
        report.campaigns.append(summary.slug)
        if unchanged and writer.keep_group(summary.slug):
            say(f"{summary.slug}: unchanged")
            report.reused.append(summary.slug)
            continue
        say(f"{summary.slug}: loading")
        # Cached drawings this build does not touch are dropped once it is
        # done; the margin covers file systems with coarse timestamps.
        started = time.time() - CACHE_MARGIN
        # Loading makes millions of objects that live until the end and no
        # cycles worth collecting: the garbage collector is paused meanwhile,
        # then told to leave them alone (``freeze``), which also lets a forked
        # helper (``parallel``) share their memory instead of copying it.
        code = code_print(chain, base_url)
        gc.disable()
        try:
            ctx, print_ = _load(summary, chain, base_url, _drawn_before(writer, summary.slug,
                                                                        code))
        finally:
            gc.freeze()
            gc.enable()
        # The archive index and the manifest's facts tell the state the
        # pages and the fingerprint were made from, not the one summed up
        # before the load.
        summary = summaries[slugs.index(summary.slug)] = summary_of(ctx.data.campaign)
        say(f"{summary.slug}: writing")
        writer.begin_group(summary.slug, print_, _facts(summary))
        ctx.site_print = campaign_print(ctx, code)
        ctx.keep, ctx.prints = writer.keep_page, writer.page_prints
        ctx.previous = writer.previous_print
        try:
            wait = build_campaign(ctx, writer, base_url)
        finally:
            ctx.close()
        # Let go of the campaign while the helper process finishes its pages.
        del ctx
        wait()
        writer.end_group()
        prune_caches(summary.folder, started, plugin_for(summary.ruleset).caches)
    gc.unfreeze()
    _build_archive(summaries, writer)
    build_sitemap(sorted(writer.written), writer.write, base_url)
    # The print of the whole site, for ``inputs.up_to_date``: the next build
    # with the very same inputs need not start at all.
    writer.site_print = site_print(writer.fingerprints.values(), base_url)
    report.removed = writer.finish()
    report.changed = list(writer.changed)
    report.files = len(writer.written)
    return report


def _drawn_before(writer: Writer, slug: str, code: str) -> DrawnBefore:
    """The print of each genealogy drawing of ``slug`` as the last build made it: the
    last word of its page's print (``pages.build_diagram_pages``)."""
    def before(filename: str) -> str | None:
        key = writer.previous_print(f"{slug}/genealogy/{filename.removesuffix('.svg')}.html")
        return key.rpartition(" ")[2] if key else None
    return DrawnBefore(code, before)


def _load(summary: CampaignSummary, chain: list[Path], base_url: str,
          before: DrawnBefore | None = None) -> tuple[SiteContext, str]:
    """Load a campaign and prepare its context; also the fingerprint of what it read.

    The genealogies are set going midway: they need only the people
    (``Lineage``), and laying them out is most of a first build; started
    before the events are read, they use the core the load leaves idle. The
    fingerprint is taken alongside the load, while the store is held still
    for it: it is of the very state published, and hashing the store file
    mostly waits on the disk or runs outside Python's lock.
    """
    folder = summary.folder
    early: list[PendingGenealogies] = []
    prints: list[str] = []

    def begin(lineage: Lineage) -> None:
        pending = plugin_of(lineage).start(lineage, before)
        if pending is not None:
            early.append(pending)

    def take_fingerprint() -> None:
        prints.append(fingerprint(folder, chain, base_url))

    try:
        data = load_campaign(folder, on_lineage=begin, alongside=take_fingerprint,
                             table=plugin_for(summary.ruleset).table)
        return prepare(data, early[0] if early else None), prints[0]
    except BaseException:
        for pending in early:
            pending.cancel()
        raise


def _build_archive(summaries: list[CampaignSummary], writer: Writer) -> None:
    """The root index listing every campaign, in the first campaign's language.

    Browsers ask for ``/favicon.ico`` whatever the page says (an SVG opened
    alone, for one): the root gets a copy so that the request never fails.
    """
    ordered = sorted(summaries, key=lambda s: s.slug)
    language = ordered[0].language if ordered else "en"
    chain = theme_chain(None, BASE_THEME)
    env = environment(chain, language)
    # Each campaign's line, as its ruleset words it: (msgid, values) by slug.
    progress = {s.slug: plugin_for(s.ruleset).progress(s.turn, s.year) for s in ordered}
    writer.write("index.html", env.get_template("archive.html").render(
        campaigns=ordered, progress=progress, root="", site_root=""))
    assets = static_files(chain)
    for rel, path in assets.items():
        writer.write(f"static/{rel}", path.read_bytes())
    if "favicon.ico" in assets:
        writer.write("favicon.ico", assets["favicon.ico"].read_bytes())

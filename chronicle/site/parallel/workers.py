"""Pages rendered by two processes at once, for large campaigns.

Rendering templates is Python work, so threads would take turns; a forked
helper process (``executor.start``) starts with the prepared context already
in memory (nothing is pickled but the list of files it wrote). Both processes run the same
builders over the same context, so they meet the same files: each makes
those of its share (``pages.shares``: turns and people cut by time, the rest
by a hash of the path), and the parent claims the helper's, which the helper
writes. The genealogies, laid out by the parent's workers, are written by
the parent. The bytes of a file do not depend on which process made it, so
the site is the same as a build in one process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from chronicle.site.pages import SiteContext, Write, shares
from chronicle.site.parallel import executor
from chronicle.site.writer import Writer

Builder = Callable[[SiteContext, Write], None]

MIN_PAGES = 100  # measured: from about here a helper process no longer costs more than it saves


def estimated_pages(ctx: SiteContext) -> int:
    """About how many pages a build makes: people, turns and their dice, houses, and
    the ruleset's own (``SitePlugin.extra_pages``)."""
    data, extra = ctx.data, ctx.site.extra_pages
    return (len(data.people) + 2 * len(data.turns) + len(data.houses)
            + (extra(data) if extra is not None else 0))


def run_builders(ctx: SiteContext, builders: Sequence[Builder], writer: Writer,
                 *, min_pages: int | None = None) -> Callable[[], None]:
    """Run ``builders``; with many pages, in this process and a forked helper.

    Returns once this process's pages are made, with the call that waits for
    the helper's: in between, the caller can let go of the campaign (freeing
    a large one's views takes a while, and the helper does not need them).
    """
    threshold = MIN_PAGES if min_pages is None else min_pages
    if estimated_pages(ctx) < threshold or not executor.can_fork():
        for builder in builders:
            builder(ctx, writer.write)
        return _nothing_to_wait_for
    last = writer.previous_facts().get("year")
    ctx.owners = shares(ctx.data, 2, last if isinstance(last, int) else None)
    # Forked before this process writes anything, so before the writer's threads start.
    helper = executor.start(lambda: _helper(ctx, builders, writer, 1, 2))
    try:
        ctx.shard, ctx.elsewhere = (0, 2), writer.claim_elsewhere
        for builder in builders:
            builder(ctx, writer.write)
    except BaseException:
        helper.cancel()
        raise
    finally:
        ctx.shard, ctx.elsewhere, ctx.owners = None, None, {}

    def wait() -> None:
        changed, prints = helper.result()
        writer.record_changed(changed, prints)

    return wait


def _nothing_to_wait_for() -> None:
    """All pages were made in this process."""


def _ignore(_relpath: str, _content: str | bytes) -> None:
    """Whatever is not a page of this process's share is the parent's to write."""


def _helper(ctx: SiteContext, builders: Sequence[Builder], writer: Writer, index: int,
            count: int) -> tuple[list[str], dict[str, str]]:
    """In the forked process: render and write this share of the pages; returns
    the files written and the prints of the pages (``pages.kept``)."""
    ctx.pending = []  # the drawings are the parent's to finish
    written: list[str] = []

    def write(relpath: str, content: str | bytes) -> None:
        if writer.write_here(relpath, content):
            written.append(relpath)

    ctx.shard, ctx.elsewhere, ctx.page_write = (index, count), None, write
    for builder in builders:
        builder(ctx, _ignore)
    return written, ctx.prints

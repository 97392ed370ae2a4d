"""The site of a dynastic campaign (RULES.md Parts A and B): the default pages."""

from __future__ import annotations

from chronicle.site.drawings import add_drawings, start_genealogies
from chronicle.site.genealogy import PendingGenealogies
from chronicle.site.pages import BUILDERS, SiteContext
from chronicle.site.plugin import SitePlugin


def _prepare(ctx: SiteContext, genealogies: PendingGenealogies | None) -> SiteContext:
    add_drawings(ctx, genealogies)
    return ctx


PLUGIN = SitePlugin(builders=BUILDERS, prepare=_prepare, start=start_genealogies)

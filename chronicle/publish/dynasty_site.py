"""The site of a dynastic campaign (RULES.md Parts A and B): the default pages."""

from __future__ import annotations

from chronicle.publish.drawings import add_drawings, start_genealogies
from chronicle.publish.genealogy import PendingGenealogies
from chronicle.publish.pages import BUILDERS, SiteContext
from chronicle.publish.plugin import SitePlugin


def _prepare(ctx: SiteContext, genealogies: PendingGenealogies | None) -> SiteContext:
    add_drawings(ctx, genealogies)
    return ctx


PLUGIN = SitePlugin(builders=BUILDERS, prepare=_prepare, start=start_genealogies)

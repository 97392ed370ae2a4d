"""The site of a dynastic campaign (RULES.md Part A): the default pages.

Home, turns (and their dice), houses, people, search, the relationship finder
and the genealogies, with the population chart. A ruleset's own plug-in extends
this one (``SitePlugin.extended``: Blood Royale's). The person page lists a
person's commands (A8) and captivity (A9) from their life's events.
"""

from __future__ import annotations

from typing import Any

from chronicle.site.drawings import add_drawings, start_genealogies
from chronicle.site.genealogy import PendingGenealogies
from chronicle.site.pages import (
    SiteContext,
    build_home,
    build_houses,
    build_people,
    build_relationship,
    build_search_page,
    build_svgs,
    build_turns,
)
from chronicle.site.plugin import Builder, SitePlugin
from chronicle.views.data import PersonView

#: Part A's events of a command and of a captivity (A8, A9).
COMMAND = "assignment"
CAPTIVITY = frozenset({"capture", "capture-escaped", "prisoner-kept", "prisoner-released"})

BUILDERS: tuple[Builder, ...] = (
    build_home, build_turns, build_houses, build_people, build_search_page, build_relationship,
    build_svgs)


def _prepare(ctx: SiteContext, genealogies: PendingGenealogies | None) -> SiteContext:
    add_drawings(ctx, genealogies)
    return ctx


def person_values(_ctx: SiteContext, person: PersonView) -> dict[str, Any]:
    """A person's commands and captivity, from their life's events (``person.html``)."""
    return {"commands": [e for e in person.timeline if e.kind == COMMAND],
            "captivity": [e for e in person.timeline if e.kind in CAPTIVITY]}


PLUGIN = SitePlugin(builders=BUILDERS, prepare=_prepare, start=start_genealogies,
                    values={"person.html": person_values})

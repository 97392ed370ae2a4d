"""What a ruleset's site is made of: its page builders and how its context is prepared.

Each ruleset's descriptor (``chronicle.rulesets``) names its plug-in; the
build asks the plug-in, never which ruleset a campaign plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from chronicle.rulesets import descriptor, load_object
from chronicle.site.genealogy import DrawnBefore, PendingGenealogies
from chronicle.site.pages import SiteContext, Write
from chronicle.views.data import Lineage, SiteData, TableReader

Builder = Callable[[SiteContext, Write], None]


@dataclass(frozen=True)
class SitePlugin:
    #: The page builders, in order; ``pages.build_svgs`` among them goes last.
    builders: tuple[Builder, ...]
    #: The finished context of a campaign, given the diagrams ``start`` set going.
    prepare: Callable[[SiteContext, PendingGenealogies | None], SiteContext]
    #: Called once the people are known, before the events are read: sets the
    #: slow drawings going early (or does nothing), leaving out those the last
    #: build made already (``genealogy.DrawnBefore``).
    start: Callable[[Lineage, DrawnBefore | None], PendingGenealogies | None]
    #: The ruleset's own public view of a state (``TurnView.table``), read as the
    #: store is loaded; None when the pages need none.
    table: TableReader | None = None


def plugin_of(data: SiteData | Lineage) -> SitePlugin:
    """The site plug-in of a loaded campaign's ruleset."""
    return plugin_for(data.campaign.ruleset)


def plugin_for(ruleset: str) -> SitePlugin:
    """The site plug-in of the ruleset ``ruleset``."""
    found = load_object(descriptor(ruleset).site)
    if not isinstance(found, SitePlugin):
        raise TypeError(f"{descriptor(ruleset).site} is not a SitePlugin")
    return found

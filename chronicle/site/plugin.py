"""What a ruleset's site is made of: its page builders and how its context is prepared.

Each ruleset's descriptor (``chronicle.rulesets``) names its plug-in; the
build asks the plug-in, never which ruleset a campaign plays. The dynastic
plug-in (``chronicle.rulesets.dynastic.site``) makes the pages every dynastic
campaign has; a ruleset extends it with its own views, pages, drawings, masthead
links, search entries and the blocks of the generic pages it fills (its templates
are in its theme layer: ``Descriptor.theme_layers``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from chronicle.narration import Glossary, Narrator
from chronicle.rulesets import descriptor, load_object
from chronicle.site.genealogy import DrawnBefore, PendingGenealogies
from chronicle.site.pages import (
    DYNASTIC_LAYOUT,
    NavLink,
    SearchPart,
    SiteContext,
    TurnLayout,
    Write,
    turns_played,
)
from chronicle.views.data import Lineage, SiteData, TableReader

Builder = Callable[[SiteContext, Write], None]
Gettext = Callable[[str], str]

__all__ = ["Builder", "NavLink", "SearchPart", "SitePlugin", "TurnLayout", "plugin_for",
           "plugin_of"]


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

    # -- what a ruleset adds to the pages of the dynastic plug-in ------------------
    #: The names the sentences use besides people and houses (a board's provinces...),
    #: given the loaded campaign, the site's gettext and its language.
    glossary: Callable[[SiteData, Gettext, str], Glossary] | None = None
    #: The masthead's links to the ruleset's own pages, after the people's.
    nav: tuple[NavLink, ...] = ()
    #: A generic page's template -> the template of the ruleset's layer it is rendered
    #: with: one that extends it and fills its blocks (``turn.html``'s ``after_chronicle``...).
    pages: Mapping[str, str] = field(default_factory=dict)
    #: A generic page's template -> the values its blocks show, given the context and
    #: the page's subject (the turn, the person; None for the home page). They are
    #: part of the page's print.
    values: Mapping[str, Callable[[SiteContext, Any], Mapping[str, Any]]] = field(
        default_factory=dict)
    #: Functions its templates call (``battle_title``), made for each page from the narrator.
    helpers: Mapping[str, Callable[[Narrator], Callable[..., Any]]] = field(
        default_factory=dict)
    #: How a turn's chronicle is cut into sections and rounds (``pages.turn_chronicle``).
    turn_layout: TurnLayout = DYNASTIC_LAYOUT
    #: The ruleset's entries of the search index, between the houses and the turns.
    search: SearchPart | None = None
    #: The kind number of the turns' entries in the search index when it is not the
    #: one after the ruleset's own kinds (``feeds.search_entries``): the card game's
    #: index, which no search page reads, has always numbered them as Blood Royale's.
    turn_search_kind: int | None = None
    #: A campaign's line in the archive index, from its turns played and the year
    #: reached: the words (a msgid) and their values.
    progress: Callable[[int, int], tuple[str, Mapping[str, int]]] = turns_played
    #: How many pages the ruleset adds (``parallel``'s estimate of a build's work).
    extra_pages: Callable[[SiteData], int] | None = None
    #: The folders under the campaign's ``.cache`` its drawings are kept in, pruned
    #: of what a build did not use (``drawings.prune_caches``).
    caches: tuple[str, ...] = ()

    def extended(self, **changes: Any) -> SitePlugin:
        """This plug-in with ``changes`` (``dataclasses.replace``): a ruleset's own
        plug-in as the dynastic one extended."""
        return replace(self, **changes)

    def page_values(self, ctx: SiteContext, template: str, subject: Any) -> dict[str, Any]:
        """The values the ruleset's blocks of the page ``template`` show."""
        found = self.values.get(template)
        return dict(found(ctx, subject)) if found is not None else {}


def plugin_of(data: SiteData | Lineage) -> SitePlugin:
    """The site plug-in of a loaded campaign's ruleset."""
    return plugin_for(data.campaign.ruleset)


def plugin_for(ruleset: str) -> SitePlugin:
    """The site plug-in of the ruleset ``ruleset``."""
    found = load_object(descriptor(ruleset).site)
    if not isinstance(found, SitePlugin):
        raise TypeError(f"{descriptor(ruleset).site} is not a SitePlugin")
    return found

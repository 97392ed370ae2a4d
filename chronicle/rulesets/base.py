"""What the application needs to know of a ruleset, in one place.

The engine (``adjudicator.rulesets``) knows how a ruleset adjudicates a turn.
A ``Descriptor`` knows the rest: which data files a campaign of it loads,
what a new campaign holds, the built-in player, the demo, the export's own
sections, the report's extra sections, the calendar and the site. Code
outside the descriptors asks a descriptor, never which ruleset it is.

Descriptors import nothing heavy at import time (the command line lists
them on every call); each hook imports what it uses.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.errors import RulesetError

if TYPE_CHECKING:
    from adjudicator.dice import Roll
    from adjudicator.rulesets.base import Ruleset
    from adjudicator.state import GameState
    from chronicle.i18n.localnames import LocalNames


#: A public event as the export sees it: (turn, kind, payload).
Triple = tuple[int, str, dict[str, Any]]
Gettext = Callable[[str], str]


def load_object(path: str) -> Any:
    """The object named ``module:attribute``, imported on first use."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


class Calendar(ABC):
    """How a ruleset counts its turns, in a report and on the site."""

    @abstractmethod
    def when(self, turn: int, year: int) -> str:
        """The turn as a report's heading says it: "turn 3 (1310)"."""

    @abstractmethod
    def title(self, turn: int, year: int, gettext: Gettext) -> str:
        """The turn as the site titles it, in the site's language."""

    def when_in(self, turn: int, year: int, gettext: Gettext) -> str:
        """``when`` in a report's language (a calendar that has no words for it: ``when``)."""
        return self.when(turn, year)


class Years(Calendar):
    """Turns of years (RULES.md A4): each turn has its year."""

    def when(self, turn: int, year: int) -> str:
        return f"turn {turn} ({year})"

    def title(self, turn: int, year: int, gettext: Gettext) -> str:
        return gettext("Turn %(turn)s, %(year)s") % {"turn": turn, "year": year}

    def when_in(self, turn: int, year: int, gettext: Gettext) -> str:
        return gettext("turn %(turn)s (%(year)s)") % {"turn": turn, "year": year}


class Moves(Calendar):
    """A card game's moves: numbered, with no year."""

    def when(self, turn: int, year: int) -> str:
        return f"move {turn}"

    def title(self, turn: int, year: int, gettext: Gettext) -> str:
        return gettext("Move %(move)s") % {"move": turn}

    def when_in(self, turn: int, year: int, gettext: Gettext) -> str:
        return gettext("move %(move)s") % {"move": turn}


class Descriptor(ABC):
    """One ruleset, as the application sees it. Subclasses fill in the hooks."""

    #: The id a campaign names in ``ruleset``.
    id: ClassVar[str]
    #: A line for ``chronicle new --help``.
    summary: ClassVar[str]
    #: The engine's ruleset class, as ``module:Class``.
    engine_class: ClassVar[str]
    #: The site's plug-in (a ``chronicle.site.plugin.SitePlugin``), as ``module:NAME``.
    site: ClassVar[str]
    #: What the ruleset adds to the views read from a store (a
    #: ``chronicle.views.data.RulesetViews``), as ``module:NAME``; None for nothing.
    views: ClassVar[str | None] = None
    calendar: ClassVar[Calendar]
    #: The content packs a campaign may choose with ``world``; the first is the default.
    worlds: ClassVar[tuple[str, ...]] = ()
    #: Turns ``chronicle demo`` plays when not told.
    demo_turns: ClassVar[int]
    #: Whether ``chronicle simulate`` can balance it (its statistics are a dynasty's).
    simulates: ClassVar[bool] = False
    #: Who tells which events: an engine package (the events' module, or a
    #: package above it) mapped to the module of their sentences, imported the
    #: first time one of them is told (``chronicle.narration``).
    sentences: ClassVar[Mapping[str, str]] = {}

    def engine_type(self) -> type[Ruleset]:
        """The engine's ruleset class (its declarations need no rules tables)."""
        from adjudicator.rulesets.base import Ruleset

        cls = load_object(self.engine_class)
        if not (isinstance(cls, type) and issubclass(cls, Ruleset)):
            raise TypeError(f"{self.engine_class} is not a Ruleset")
        return cls

    def engine(self, rules: Mapping[str, Any]) -> Ruleset:
        """The engine's ruleset with the campaign's rules tables."""
        return self.engine_type()(rules)

    def world(self, spec: Mapping[str, Any]) -> str | None:
        """The content pack a campaign plays (``world``), checked against ``worlds``."""
        chosen = spec.get("world")
        if chosen is None:
            return self.worlds[0] if self.worlds else None
        if chosen not in self.worlds:
            if not self.worlds:
                raise RulesetError(f"the {self.id} ruleset has no worlds to choose from; "
                                   f"remove world = {chosen!r}")
            raise RulesetError(f"world must be one of {', '.join(self.worlds)} for the "
                               f"{self.id} ruleset, not {chosen!r}")
        return str(chosen)

    @abstractmethod
    def rules(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        """The ruleset's data tables for a campaign (before its ``[rules]`` overrides)."""

    @abstractmethod
    def campaign_spec(self, world: str | None) -> dict[str, Any]:
        """What ``chronicle new`` puts in ``campaign.toml`` besides the common keys."""

    @abstractmethod
    def demo_title(self, world: str | None) -> str:
        """The demo campaign's title."""

    @abstractmethod
    def orders(self, state: GameState, house: str, rules: Mapping[str, Any],
               personality: str, rng_seed: str) -> str:
        """The built-in player's order file for ``house`` for the next turn."""

    def export_sections(self, state: GameState, events: list[Triple]) -> dict[str, Any]:
        """The JSON export's sections of this ruleset (DESIGN.md "JSON export")."""
        return {}

    def revealed(self, secret_rolls: list[Roll]) -> dict[str, Any]:
        """What the end of a campaign reveals besides the seed, from its secret dice
        (published in the store, the export and the site once it has ended)."""
        return {}

    def report_sections(self, state: GameState, house: str,
                        gettext: Gettext = str) -> list[str]:
        """Markdown lines a house's private report adds after the chronicle, in the
        language of ``gettext``."""
        return []

    def local_names(self, spec: Mapping[str, Any], language: str) -> LocalNames:
        """The content pack's names of the campaign's houses and provinces in
        ``language`` (``name_fr``...), for what is read in that language."""
        from chronicle.i18n.localnames import NO_NAMES

        return NO_NAMES

    # -- the site's theme layers ------------------------------------------------------
    #: The packages (``chronicle.rulesets.<r>``) whose ``templates/`` and ``static/``
    #: folders the site's theme chain holds after the default theme, first wins: the
    #: templates and static files of its site plug-in's pages. A campaign's own theme
    #: and a chosen one override them like any template (``inputs.theme_chain``).
    theme_layers: ClassVar[tuple[str, ...]] = ()

    def theme_folders(self) -> tuple[Path, ...]:
        """The folders of ``theme_layers``, where the install put them."""
        return tuple(Path(str(files(package))) for package in self.theme_layers)

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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from chronicle.errors import RulesetError

if TYPE_CHECKING:
    from rich.console import Console

    from adjudicator.dice import Roll
    from adjudicator.events import Event
    from adjudicator.rulesets.base import Ruleset
    from adjudicator.state import GameState
    from chronicle.i18n.localnames import LocalNames
    from chronicle.narration.narrator import Glossary
    from chronicle.store.file import StoredEvent


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


@dataclass(frozen=True)
class DeathCause:
    """A cause of death the events record (``death_cause``), in words."""

    #: In a sentence: the catalogue's msgid ("killed in battle").
    said: str
    #: In a GEDCOM ``CAUS`` line, in English.
    gedcom: str


@dataclass(frozen=True)
class LifeNotes:
    """What the events tell of people that their records do not keep, for the
    genealogy export (GEDCOM)."""

    #: Person -> the arbiter's words for their death, when a ruling killed them.
    death_details: Mapping[str, str] = field(default_factory=dict)
    #: (person, dynasty) -> the reference number given up there, and the turn.
    renunciations: Mapping[tuple[str, str], tuple[str, int]] = field(default_factory=dict)


class RunStatistics(ABC):
    """What ``chronicle simulate`` measures of a ruleset's runs, besides the houses
    extinct and the living of each dynasty (``chronicle.play.simulate``).

    One object observes one run, in a worker process; ``run`` gives its figures
    as plain data, and a fresh object sums up every run's and shows the summary.
    """

    @abstractmethod
    def observe(self, state: GameState, events: list[Event], rules: Mapping[str, Any]) -> None:
        """One turn played: ``state`` after it, and its events."""

    @abstractmethod
    def run(self, state: GameState) -> dict[str, Any]:
        """The run's figures, at its end (JSON data: they cross processes)."""

    @abstractmethod
    def summarise(self, runs: list[dict[str, Any]], houses: list[str]) -> dict[str, Any]:
        """The report's own keys, from every run's figures."""

    @abstractmethod
    def show(self, report: Mapping[str, Any], console: Console) -> None:
        """Print the summary after the table of extinctions."""


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
    # -- what generic code asks instead of naming a ruleset's things ----------------
    #: The JSON export's sections after ``marriages``, in order, ``events`` among
    #: them (the public events). The contract's top level (DESIGN.md "JSON export")
    #: names them for every ruleset, key order included: a ruleset without such
    #: things exports them empty. ``export_records`` and ``export_sections`` fill
    #: them; a section they add that is not listed comes after these.
    export_layout: ClassVar[tuple[str, ...]] = (
        "units", "provinces", "events", "battles", "wealth")
    #: ``campaign.toml``'s top-level keys of this ruleset's own, and their types
    #: (``list``: a list of tables), beside the keys every campaign may have.
    campaign_fields: ClassVar[Mapping[str, type]] = {}
    #: The built-in player's personalities (``--personality``): the demo and
    #: ``simulate`` give them to the houses in turn. None: one way to play.
    personalities: ClassVar[tuple[str, ...]] = ()
    #: The causes of death its events record, in words (``Narrator.cause``, GEDCOM).
    death_causes: ClassVar[Mapping[str, DeathCause]] = {}
    #: The site's pages a private report links when the campaign says where it is
    #: published (``base_url``), as the beginnings of their paths.
    report_links: ClassVar[tuple[str, ...]] = ()
    #: The kinds of the engine's names (``adjudicator.messages.Name``) that the
    #: catalogue translates, with its context for each ("": none): a reader's
    #: language gets them so (``LocalNames.catalogued``).
    name_contexts: ClassVar[Mapping[str, str]] = {}

    def store_tables(self, state: GameState,
                     rules: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
        """The store's tables of this ruleset's own things (``chronicle.store.models``),
        each table's rows whole: the store replaces them at every turn."""
        return {}

    def export_records(self, state: GameState, rules: Mapping[str, Any]) -> dict[str, Any]:
        """The JSON export's sections drawn from the state with the rules' help
        (a unit's command value), besides ``export_sections``."""
        return {}

    def export_campaign(self, state: GameState, finished: bool) -> dict[str, Any]:
        """What the export's ``campaign`` adds after the seed and what the end revealed
        (``finished``: the campaign is over, its secrets told)."""
        return {}

    def name_lists(self, spec: Mapping[str, Any], rules: Mapping[str, Any]) -> dict[str, Any] | None:
        """The rules' ``names`` table (the lists new people's names are drawn from),
        from the content pack and ``campaign.toml``; None: the ruleset names nobody."""
        return None

    def glossary(self, state: GameState, events: list[Event], gettext: Gettext,
                 names: LocalNames) -> Glossary:
        """The names the sentences of a turn's events need besides people and houses,
        in a report or on the terminal (``names``: the pack's, in the reader's language)."""
        from chronicle.narration.narrator import Glossary

        return Glossary()

    def statistics(self) -> RunStatistics | None:
        """What ``chronicle simulate`` measures of one run; None: it cannot simulate."""
        return None

    def life_notes(self, events: Iterable[StoredEvent]) -> LifeNotes:
        """What the stored events tell of people beyond their records (GEDCOM)."""
        return LifeNotes()

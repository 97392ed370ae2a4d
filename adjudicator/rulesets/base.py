"""The interface every ruleset implements, and the context of one turn.

A ruleset is data (tables loaded from ``content/rulesets``) plus small hooks.
The verbs follow one pattern:

* ``grammar`` parses text into orders (``adjudicator.orders.parse_orders``);
* ``validate(state, sheets)`` moves every order the state forbids into the
  sheet's rejections, with a reason a player understands;
* ``resolve(state, sheets, dice)`` applies the turn to a copy of the state and
  returns a ``TurnResult``; it never mutates its input.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from adjudicator.dice import Dice, Roll
from adjudicator.events import Event, Notice
from adjudicator.orders import Grammar, Order, OrderSheet, Rejection
from adjudicator.state import GameState

#: Translates a message (a report's language); the engine is handed one, and the
#: identity (``same``) keeps English.
Gettext = Callable[[str], str]


def same(text: str) -> str:
    return text

T = TypeVar("T")


def typed_tables(rules: Mapping[str, Any], key: str, parse: Callable[[Mapping[str, Any]], T],
                 kind: type[T]) -> T:
    """Typed view of ruleset tables, parsed once per rules mapping.

    The parsed value is kept in the mapping itself under ``_<key>`` (rules
    mappings are built once per campaign and shared by every turn).
    """
    slot = f"_{key}_typed"
    cached = rules.get(slot)
    if isinstance(cached, kind):
        return cached
    typed = parse(rules)
    if isinstance(rules, dict):
        rules[slot] = typed
    return typed


@dataclass
class TurnResult:
    """What one turn produced: the new state, its events and its dice."""

    state: GameState
    events: list[Event]
    rolls: list[Roll]
    rejections: list[Rejection]
    defaulted: list[str] = field(default_factory=list)


@dataclass
class TurnContext:
    """The working set of one turn, passed from phase to phase."""

    state: GameState
    dice: Dice
    rules: Mapping[str, Any]
    sheets: dict[str, OrderSheet]
    events: list[Event] = field(default_factory=list)
    aged: bool = False
    scratch: dict[str, Any] = field(default_factory=dict)
    #: The ruleset playing the turn, for the hooks a shared rule calls back
    #: (``Ruleset.house_eliminated``); None: a rule tried on its own.
    ruleset: Ruleset | None = None

    @property
    def turn(self) -> int:
        return self.state.turn

    @property
    def year(self) -> int:
        return self.state.year_of(self.state.turn)

    @property
    def age_year(self) -> int:
        """A4: the year ages count from: the turn's at the births step, then its end's."""
        return self.state.year_ending(self.turn) if self.aged else self.year

    def age(self, born: int) -> int:
        """A4: the age at the births step, then the age reached at the turn's end."""
        return self.age_year - born

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def notify(self, house: str, text: str, **params: Any) -> None:
        """A line for one house's private report."""
        self.events.append(Notice(phase=self.dice.phase, house=house, text=text, params=params))

    def reject(self, house: str, order: Order, reason: str) -> None:
        """Refuse an order found illegal only while resolving."""
        sheet = self.sheets.get(house)
        if sheet is not None:
            sheet.reject(order, reason)

    def orders(self, house: str) -> list[Order]:
        sheet = self.sheets.get(house)
        return list(sheet.orders) if sheet else []

    def all_rejections(self) -> list[Rejection]:
        found: list[Rejection] = []
        for house in sorted(self.sheets):
            found.extend(self.sheets[house].rejections)
        return found


class Ruleset(ABC):
    """One game's rules. Subclasses plug in hooks; the core tests no strings."""

    id: str = ""
    grammar: Grammar
    #: What a house that sent no (usable) orders gets, in a player's words.
    defaults: str = "the rules' defaults"
    #: The fields ``setup`` reads from a campaign's tables, and their types:
    #: ``{"house": {"id": str, ...}, ...}`` (``list``: a list of text).
    spec_fields: ClassVar[Mapping[str, Mapping[str, type]]] = {}

    def __init__(self, rules: Mapping[str, Any]) -> None:
        self.rules = rules

    def check_rules(self) -> None:
        """Read every table the engine will use, and raise ``RulesDataError`` for a
        value it could not play with: a campaign's overrides are then refused when
        it is loaded, not halfway through a turn. A ruleset with no tables has
        nothing to check."""
        return None

    @abstractmethod
    def setup(self, spec: Mapping[str, Any], dice: Dice) -> GameState:
        """The state before turn 1, from a campaign's declarations (campaign.toml)."""

    def grammar_for(self, house: str) -> Grammar:
        """The grammar of ``house``'s order file (the arbiter may have another)."""
        return self.grammar

    @abstractmethod
    def validate(self, state: GameState, sheets: dict[str, OrderSheet]) -> None:
        """Move every order the current state forbids into its sheet's rejections."""

    @abstractmethod
    def resolve(self, state: GameState, sheets: dict[str, OrderSheet], dice: Dice) -> TurnResult:
        """Adjudicate the next turn on a copy of ``state``."""

    @abstractmethod
    def template(self, state: GameState, house: str) -> str:
        """A ready-to-edit order file for ``house`` for the next turn."""

    def template_in(self, state: GameState, house: str, gettext: Gettext) -> str:
        """``template`` with its comments in the language of ``gettext`` (the orders
        themselves are the order language's, in every language). A ruleset whose
        templates have no words to translate need not override it."""
        return self.template(state, house)

    def house_eliminated(self, ctx: TurnContext, house: str) -> None:
        """``house`` has just left the game (A6: its dynasty is extinct): the ruleset
        takes from it what its own part of the state gave it. Nothing by default."""
        return None

    def ordering_houses(self, state: GameState) -> list[str]:
        """The houses expected to send orders next turn."""
        return sorted(h.id for h in state.active_houses())

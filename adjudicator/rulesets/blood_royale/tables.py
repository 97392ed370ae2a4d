"""Typed view of the Blood Royale tables outside battles and wealth.

``economy.toml`` is handed to the ruleset as ``rules["economy"]``: the
interphase and calendar numbers at its top level, and its ``[movement]`` and
``[events]`` tables. Unit types come from the content pack as
``rules["unit_types"]``, the basic goods from ``rules["wealth"]["basic"]``. A bad or missing
entry raises ``RulesDataError`` naming it, once, when the tables are read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from adjudicator.errors import RulesDataError
from adjudicator.rulesets import limits
from adjudicator.rulesets.base import typed_tables
from adjudicator.rulesets.limits import Where, name_of, whole

EVENTS = ("plague", "famine", "unrest", "storm", "harvest", "nothing")


@dataclass(frozen=True)
class EconomyRules:
    start_treasury: int
    tax_normal: int
    tax_extraordinary: int
    revolt_price: int
    upkeep_home: int
    upkeep_abroad: int
    raise_cost: int
    army_cap: int
    lost_return_turns: int
    cash_in_every: int
    cash_in_remainder: int
    end_year: int


@dataclass(frozen=True)
class MovementRules:
    rounds: int
    moves: int
    hostile_moves: int
    counter_moves: int


@dataclass(frozen=True)
class EventRules:
    die: int
    table: dict[int, str]
    unrest_die: int
    revolt_at_most: int
    extraordinary_modifier: int
    adjacent_revolt_modifier: int
    garrison: int
    storm_die: int
    storm_loss_at_most: int


@dataclass(frozen=True)
class UnitType:
    """A unit type of the content pack (``[unit_types.<name>]``).

    ``naval`` units move by sea and stand aside from the army cap;
    ``flying`` units cross sea zones on their own; ``raisable`` says whether
    ``raise`` may create them; ``cost`` overrides the raising price.
    """

    name: str
    naval: bool = False
    flying: bool = False
    raisable: bool = True
    capped: bool = True
    cost: int | None = None


@dataclass(frozen=True)
class BRRules:
    economy: EconomyRules
    movement: MovementRules
    events: EventRules
    unit_types: dict[str, UnitType]
    basic_goods: tuple[str, ...]

    def unit_type(self, name: str) -> UnitType:
        return self.unit_types.get(name) or UnitType(name)

    def is_naval(self, type_name: str) -> bool:
        return self.unit_type(type_name).naval

    def raise_cost(self, type_name: str) -> int:
        cost = self.unit_type(type_name).cost
        return self.economy.raise_cost if cost is None else cost


# The least each number may be; a number not named may be anything (a modifier,
# the last year). Dice need a face, and cash-ins a turn between them.
_LEAST = {"cash_in_every": 1, "rounds": 1, "die": 1, "unrest_die": 1, "storm_die": 1}
_ANY = {"end_year", "extraordinary_modifier", "adjacent_revolt_modifier"}
# Numbers that count steps of a turn are capped: a million rounds of movement
# would hold a turn for minutes (and a received campaign folder is untrusted).
_MOST = {"rounds": 12, "moves": 100, "hostile_moves": 100, "counter_moves": 100}


def _ints(cls: type[Any], data: Mapping[str, Any], where: Where, **given: Any) -> Any:
    """``cls`` from the whole numbers of ``data`` (at ``where`` in the rules tables),
    and the fields ``given`` as they are."""
    names = [f for f in cls.__dataclass_fields__ if f not in given]
    return cls(**{name: whole(limits.entry(data, (name,), where), (*where, name),
                              None if name in _ANY else _LEAST.get(name, 0),
                              _MOST.get(name))
                  for name in names}, **given)


def _event_rules(data: Mapping[str, Any]) -> EventRules:
    where = ("economy", "events", "table")
    rows = limits.entry(data, ("table",), where[:-1])
    if not isinstance(rows, list) or not rows:
        raise RulesDataError(f"{name_of(where)} must be a list of [face, event] rows", where)
    table: dict[int, str] = {}
    for row in rows:
        if not (isinstance(row, list) and len(row) == 2 and isinstance(row[1], str)):
            raise RulesDataError(f"{name_of(where)} must be a list of [face, event] rows; "
                                 f"{row!r} is not", where)
        if row[1] not in EVENTS:
            raise RulesDataError(f"{name_of(where)}: unknown event {row[1]!r} (there are: "
                                 f"{', '.join(EVENTS)})", where)
        table[whole(row[0], where, 1)] = row[1]
    rules: EventRules = _ints(EventRules, data, where[:-1], table=table)
    missing = [face for face in range(1, rules.die + 1) if face not in table]
    if missing:
        raise RulesDataError(f"{name_of(where)}: no event for faces {missing} of the "
                             f"d{rules.die}", where)
    return rules


def _unit_types(data: Mapping[str, Any]) -> dict[str, UnitType]:
    found: dict[str, UnitType] = {}
    for name, entry in data.items():
        if not isinstance(entry, Mapping):
            raise RulesDataError(f"unit type {name!r} must be a table")
        naval = bool(entry.get("naval", False))
        cost = entry.get("cost")
        found[str(name)] = UnitType(
            name=str(name),
            naval=naval,
            flying=bool(entry.get("flying", False)),
            raisable=bool(entry.get("raisable", True)),
            capped=bool(entry.get("capped", not naval)),
            cost=None if cost is None else int(cost),
        )
    return found


def br_rules(rules: Mapping[str, Any]) -> BRRules:
    """The typed tables of a rules mapping, parsed once per mapping."""
    return typed_tables(rules, "blood_royale", _parse_br_rules, BRRules)


def _parse_br_rules(rules: Mapping[str, Any]) -> BRRules:
    economy = rules.get("economy")
    if not isinstance(economy, Mapping):
        raise RulesDataError("blood-royale rules: the economy table is missing")
    for section in ("movement", "events"):
        if not isinstance(economy.get(section), Mapping):
            raise RulesDataError(f"blood-royale economy: the [{section}] table is missing")
    typed = BRRules(
        economy=_ints(EconomyRules, economy, ("economy",)),
        movement=_ints(MovementRules, economy["movement"], ("economy", "movement")),
        events=_event_rules(economy["events"]),
        unit_types=_unit_types(rules.get("unit_types", {})),
        basic_goods=tuple(str(g) for g in rules.get("wealth", {}).get(
            "basic", ("metal", "cloth", "food"))),
    )
    return typed

"""Blood Royale events other than battles (RULES.md B1–B5, B7, B8).

Battles have their own ``BattleFought`` in ``battle.py``. Every event here is
public unless it says otherwise: Blood Royale is played on an open board, so
treasuries, moves and the event die are known to all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from adjudicator.events import Event


@dataclass(frozen=True, kw_only=True)
class _HouseEvent(Event):
    """An event about one house."""

    house: str

    def houses(self) -> list[str]:
        return [self.house]


# -- interphase (B2.2) -------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TaxesCollected(_HouseEvent):
    """B2.2.1: the crowns a house levied, and from how many provinces."""

    kind: ClassVar[str] = "taxes"
    provinces: int
    rate: int
    extraordinary: bool
    amount: int
    exempt: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ResourceAppeared(_HouseEvent):
    """B2.2.2 (``cause="interphase"``) or a good harvest (``cause="harvest"``)."""

    kind: ClassVar[str] = "resource"
    counter: str
    good: str
    province: str
    cause: str = "interphase"


@dataclass(frozen=True, kw_only=True)
class FamineLifted(Event):
    """B2.2.3: a famine counter removed."""

    kind: ClassVar[str] = "famine-lifted"
    province: str


@dataclass(frozen=True, kw_only=True)
class RevoltEnded(_HouseEvent):
    """B5: a revolt bought off (``cause="paid"``) or put down by a garrison."""

    kind: ClassVar[str] = "revolt-ended"
    province: str
    cause: str
    price: int = 0


@dataclass(frozen=True, kw_only=True)
class UpkeepPaid(_HouseEvent):
    """B2.2.5: upkeep paid, and the armies disbanded for want of crowns."""

    kind: ClassVar[str] = "upkeep"
    home_armies: int
    abroad_armies: int
    amount: int
    disbanded: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ArmiesReturned(_HouseEvent):
    """B2.2.6: armies lost two turns ago are back in the pool."""

    kind: ClassVar[str] = "armies-returned"
    armies: int


@dataclass(frozen=True, kw_only=True)
class ArmiesRaised(_HouseEvent):
    """B2.2.6: armies raised into a unit (new or already in the province)."""

    kind: ClassVar[str] = "raise"
    unit: str
    unit_type: str
    province: str
    armies: int
    cost: int
    new_unit: bool


@dataclass(frozen=True, kw_only=True)
class UnitSplit(_HouseEvent):
    kind: ClassVar[str] = "unit-split"
    unit: str
    new_unit: str
    armies: int
    province: str | None


@dataclass(frozen=True, kw_only=True)
class UnitsMerged(_HouseEvent):
    kind: ClassVar[str] = "units-merged"
    unit: str
    into: str
    armies: int
    commanders: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PassageChanged(_HouseEvent):
    """B4: ``house`` allows (or no longer allows) passage to ``to``."""

    kind: ClassVar[str] = "passage"
    to: str
    allowed: bool

    def houses(self) -> list[str]:
        return sorted({self.house, self.to})


@dataclass(frozen=True, kw_only=True)
class AllianceDeclared(_HouseEvent):
    """B6: ``house`` declares (or ends) its alliance with ``ally``; ``in_force`` tells
    whether both houses now declare it."""

    kind: ClassVar[str] = "alliance"
    ally: str
    declared: bool
    in_force: bool

    def houses(self) -> list[str]:
        return sorted({self.house, self.ally})


@dataclass(frozen=True, kw_only=True)
class InterventionAgreed(_HouseEvent):
    """B4 foreign intervention: ``house``'s unit serves ``under`` this turn."""

    kind: ClassVar[str] = "intervention"
    unit: str
    under: str

    def houses(self) -> list[str]:
        return sorted({self.house, self.under})


@dataclass(frozen=True, kw_only=True)
class CounterGiven(_HouseEvent):
    """Trade [D]: ``house`` gave a counter to ``to``."""

    kind: ClassVar[str] = "counter-given"
    to: str
    counter: str
    good: str
    province: str

    def houses(self) -> list[str]:
        return sorted({self.house, self.to})


@dataclass(frozen=True, kw_only=True)
class ExchangeMade(_HouseEvent):
    """B7a: a binding exchange between ``house`` and ``partner`` took place, whole."""

    kind: ClassVar[str] = "exchange"
    partner: str
    crowns_given: int
    crowns_received: int
    counters_given: tuple[str, ...]
    counters_received: tuple[str, ...]

    def houses(self) -> list[str]:
        return sorted({self.house, self.partner})


@dataclass(frozen=True, kw_only=True)
class CrownsPaid(_HouseEvent):
    """Trade [D]: ``house`` paid crowns to ``to``."""

    kind: ClassVar[str] = "crowns-paid"
    to: str
    amount: int

    def houses(self) -> list[str]:
        return sorted({self.house, self.to})


# -- movement rounds (B2.3, B4, B5) --------------------------------------------


@dataclass(frozen=True, kw_only=True)
class KingdomOrderDrawn(Event):
    """B2.3: the order in which the kingdoms move this round, as drawn."""

    kind: ClassVar[str] = "kingdom-order"
    round: int
    order: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class EventDieRolled(_HouseEvent):
    """B5: a kingdom's event die. The event's effects follow as their own events."""

    kind: ClassVar[str] = "event-die"
    round: int
    face: int
    event: str
    province: str | None = None


@dataclass(frozen=True, kw_only=True)
class PlagueStruck(_HouseEvent):
    """B5 event 1: armies halved, characters present rolled survival."""

    kind: ClassVar[str] = "plague"
    province: str
    losses: dict[str, int] = field(default_factory=dict)
    exposed: tuple[str, ...] = ()
    dead: tuple[str, ...] = ()
    #: Unit -> its house, for each unit in ``losses`` (a unit may be gone since).
    owners: dict[str, str] = field(default_factory=dict)

    def subjects(self) -> list[str]:
        return list(self.exposed)


@dataclass(frozen=True, kw_only=True)
class FamineStruck(_HouseEvent):
    kind: ClassVar[str] = "famine"
    province: str


@dataclass(frozen=True, kw_only=True)
class RevoltBroke(_HouseEvent):
    """B5 event 3: a province rose (its modified unrest roll)."""

    kind: ClassVar[str] = "revolt"
    province: str
    die: int
    modifier: int


@dataclass(frozen=True, kw_only=True)
class FleetLost(_HouseEvent):
    """B5 event 4: a fleet at sea sank in a storm."""

    kind: ClassVar[str] = "fleet-lost"
    unit: str
    province: str
    armies: int
    die: int


@dataclass(frozen=True, kw_only=True)
class UnitMoved(_HouseEvent):
    """B4: a unit's move in one round. ``house`` is the house that moved it."""

    kind: ClassVar[str] = "unit-moved"
    unit: str
    owner: str
    round: int
    path: tuple[str, ...]
    stopped: str = ""
    start: str | None = None  # where the unit stood before the move

    def houses(self) -> list[str]:
        return sorted({self.house, self.owner})


@dataclass(frozen=True, kw_only=True)
class CounterMoved(_HouseEvent):
    kind: ClassVar[str] = "counter-moved"
    counter: str
    good: str
    round: int
    path: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class CounterSeized(_HouseEvent):
    """B4: ``house`` took a counter of ``previous`` at the end of a round."""

    kind: ClassVar[str] = "counter-seized"
    counter: str
    good: str
    province: str
    previous: str
    round: int

    def houses(self) -> list[str]:
        return sorted({self.house, self.previous})


@dataclass(frozen=True, kw_only=True)
class ControlChanged(Event):
    """B3: a control marker placed (or removed when a home province is freed)."""

    kind: ClassVar[str] = "control"
    province: str
    previous: str | None
    controller: str
    round: int

    def houses(self) -> list[str]:
        return sorted({h for h in (self.previous, self.controller) if h})


# -- cash-in and the end (B7, B8) ---------------------------------------------


@dataclass(frozen=True, kw_only=True)
class CashedIn(_HouseEvent):
    """B7: complete sets in the capital turned into crowns."""

    kind: ClassVar[str] = "cash-in"
    sets: tuple[str, ...]
    value: int
    used: dict[str, int] = field(default_factory=dict)
    remaining: dict[str, int] = field(default_factory=dict)
    final: bool = False


@dataclass(frozen=True, kw_only=True)
class WealthRow(_HouseEvent):
    """One house's wealth standing at the end of a turn (B7, DESIGN.md ``wealth[]``)."""

    kind: ClassVar[str] = "wealth"
    turn: int
    year: int
    treasury: int
    goods: dict[str, int] = field(default_factory=dict)
    taxes: int = 0
    upkeep: int = 0
    raised: int = 0
    cash_in: int = 0
    revolts: int = 0
    paid: int = 0
    received: int = 0
    ransom_paid: int = 0
    ransom_received: int = 0
    #: B7 "the value of the best cash-in" the goods in the capital would give now
    best_cash_in: int = 0


@dataclass(frozen=True, kw_only=True)
class CampaignWon(Event):
    """B8: the campaign is over. ``reason`` is ``"end-year"`` or ``"target"``."""

    kind: ClassVar[str] = "victory"
    winner: str
    reason: str
    standings: dict[str, int] = field(default_factory=dict)

    def houses(self) -> list[str]:
        return sorted(self.standings)

"""What one Blood Royale turn remembers from step to step.

Nothing here outlives the turn: it sits in ``ctx.scratch`` while the turn is
resolved. What must outlive it goes to ``world.BloodRoyaleData``, its part of the state.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.orders import Order
from adjudicator.rulesets.base import TurnContext

SCRATCH_KEY = "blood_royale"


@dataclass
class Ledger:
    """One house's money this turn, for its wealth row (DESIGN.md ``wealth[]``): every
    crown in or out, so that the treasury balances from turn to turn."""

    taxes: int = 0
    upkeep: int = 0
    raised: int = 0
    cash_in: int = 0
    #: revolts bought off (B2.2.4)
    revolts: int = 0
    #: crowns paid to and received from other houses: payments and exchanges (B7a)
    paid: int = 0
    received: int = 0
    #: ransoms (A9)
    ransom_paid: int = 0
    ransom_received: int = 0

    def transfer_to(self, other: Ledger, crowns: int) -> None:
        self.paid += crowns
        other.received += crowns


@dataclass
class Route:
    """The rest of a unit's or counter's ordered path, leg by leg."""

    order: Order
    house: str
    legs: list[list[str]]
    split_legs: bool
    stopped: str = ""


@dataclass
class BRTurn:
    extraordinary: set[str] = field(default_factory=set)
    ledgers: dict[str, Ledger] = field(default_factory=dict)
    unit_routes: dict[str, Route] = field(default_factory=dict)
    counter_routes: dict[str, Route] = field(default_factory=dict)
    garrisons: dict[str, set[str]] = field(default_factory=dict)
    #: capitals whose castle fell in a battle this round (B6): only these change hands
    breached: set[str] = field(default_factory=set)

    def ledger(self, house: str) -> Ledger:
        return self.ledgers.setdefault(house, Ledger())


def br_turn(ctx: TurnContext) -> BRTurn:
    """This turn's Blood Royale scratch data, created on first use."""
    found = ctx.scratch.get(SCRATCH_KEY)
    if not isinstance(found, BRTurn):
        found = BRTurn()
        ctx.scratch[SCRATCH_KEY] = found
    return found

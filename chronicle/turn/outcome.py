"""One adjudicated turn, as the runner hands it to the store, the reports and the terminal."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rulesets.base import TurnResult
from adjudicator.state import GameState
from chronicle.campaign.orders import TurnOrders


@dataclass
class TurnOutcome:
    turn: int
    year: int
    previous: GameState
    result: TurnResult
    orders: TurnOrders
    #: The turn's public events as plain sentences, kept by the reports that told
    #: them, for the terminal's summary (told once, not twice).
    told: list[str] | None = field(default=None, repr=False)

"""One adjudicated turn, as the runner hands it to the store, the reports and the terminal."""

from __future__ import annotations

from dataclasses import dataclass, field

from adjudicator.rulesets.base import TurnResult
from adjudicator.state import GameState
from chronicle.orders_io import TurnOrders


@dataclass
class TurnOutcome:
    turn: int
    year: int
    previous: GameState
    result: TurnResult
    orders: TurnOrders
    # The public events as plain sentences, once the reports have told them:
    # the terminal shows the same sentences, and telling a turn's thousands
    # of events again was a tenth of the command (profiled, 11,000 people).
    told: list[str] | None = field(default=None, compare=False)

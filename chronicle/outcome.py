"""One adjudicated turn, as the runner hands it to the store, the reports and the terminal."""

from __future__ import annotations

from dataclasses import dataclass

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

"""The pure rules engine of Chronicle.

Nothing in this package reads or writes files, talks to a database, prints,
or touches the global random generator. State, validated orders and a dice
source go in; a new state, typed events and the recorded rolls come out.
"""

from adjudicator.dice import Dice, Roll, ScriptedDice, SeededDice
from adjudicator.errors import AdjudicationError, DiceExhausted, RulesDataError

__all__ = [
    "AdjudicationError",
    "Dice",
    "DiceExhausted",
    "Roll",
    "RulesDataError",
    "ScriptedDice",
    "SeededDice",
]

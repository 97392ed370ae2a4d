"""The standing battle orders a house keeps from turn to turn (RULES.md B6).

The orders themselves, their syntax and who may give them are in
``battle_orders``; here are the values they leave in the state: a stance
towards a house, a unit or everyone, the rule by which a side or a unit ends
a battle, and a unit's preferred retreat.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

#: The key of a house's own end rule, beside those of its units.
HOUSE_WIDE = "*"


class Stance(StrEnum):
    """How a house meets another's units (B6 "When a battle happens")."""

    ATTACK = "attack"
    AVOID = "avoid"


class EndKind(StrEnum):
    """How a side, or one unit, ends a battle (B6 "Ending the battle")."""

    FIGHT = "fight"
    FLEE_BELOW = "flee-below"
    FLEE_LOSSES = "flee-losses"
    SURRENDER_BELOW = "surrender-below"


class Leaving(StrEnum):
    """What a unit does when its end rule is met after a round."""

    FLEE = "flee"
    SURRENDER = "surrender"


@dataclass(frozen=True)
class EndRule:
    """How a side (or one unit) ends a battle (B6 "Ending the battle")."""

    kind: EndKind
    threshold: int = 0

    def decide(self, armies: int, losses: int) -> Leaving | None:
        """Flee, surrender, or None (fight on), after a round."""
        if self.kind is EndKind.FLEE_BELOW and armies < self.threshold:
            return Leaving.FLEE
        if self.kind is EndKind.FLEE_LOSSES and losses >= self.threshold:
            return Leaving.FLEE
        if self.kind is EndKind.SURRENDER_BELOW and armies < self.threshold:
            return Leaving.SURRENDER
        return None

    def order_text(self, unit: str | None = None) -> str:
        """The order line that gives this rule (to ``unit`` alone if named)."""
        verb = {EndKind.FIGHT: "fight", EndKind.FLEE_BELOW: "flee", EndKind.FLEE_LOSSES: "flee",
                EndKind.SURRENDER_BELOW: "surrender"}[self.kind]
        rest = {EndKind.FIGHT: "to the end",
                EndKind.FLEE_LOSSES: f"when losses reach {self.threshold}"}.get(
            self.kind, f"when below {self.threshold} armies")
        return " ".join(w for w in (verb, unit, rest) if w)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "n": self.threshold}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EndRule:
        return cls(EndKind(data["kind"]), int(data["n"]))


@dataclass
class Standing:
    """One house's standing battle orders.

    ``stance``: by unit id, house id or ``everyone``; ``end``: by unit id, or
    ``HOUSE_WIDE`` for the house's own; ``retreat``: a province by unit id.
    """

    stance: dict[str, Stance] = field(default_factory=dict)
    end: dict[str, EndRule] = field(default_factory=dict)
    retreat: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"stance": {k: v.value for k, v in self.stance.items()},
                "end": {k: v.to_dict() for k, v in self.end.items()},
                "retreat": dict(self.retreat)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Standing:
        return cls(stance={str(k): Stance(v) for k, v in data.get("stance", {}).items()},
                   end={str(k): EndRule.from_dict(v) for k, v in data.get("end", {}).items()},
                   retreat={str(k): str(v) for k, v in data.get("retreat", {}).items()})

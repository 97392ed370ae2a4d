"""The board: the map's provinces as they stand, and the resource counters on it
(RULES.md B1, B3, B4, B7).

Blood Royale's part of the state (``Board``, read with ``board(state)``). It is
written where snapshots have always kept the board, at their top level under
``provinces`` and ``counters`` (``RulesetData.snapshot_keys``): a snapshot reads
and writes byte for byte as when the board was a field of every state. A state
of another ruleset has no board; its snapshot still carries the two empty
lists (``adjudicator.state.TOP_LEVEL``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from adjudicator.messages import Name
from adjudicator.state import GameState, Record, RulesetData


@dataclass
class Province(Record):
    """A province or a sea zone of the map, and who holds it now."""

    id: str
    name: str
    kind: str = "land"
    kingdom: str | None = None
    capital: bool = False
    resource: str | None = None
    neighbours: list[str] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    controller: str | None = None
    revolt: bool = False
    famine: bool = False


@dataclass
class Counter(Record):
    """A resource counter on the map, owned by a house (B4, B7)."""

    id: str
    good: str
    owner: str
    province: str


@dataclass
class Board(RulesetData):
    """The provinces in map order (the snapshot's list order), and the counters."""

    key: ClassVar[str] = "board"
    snapshot_keys: ClassVar[tuple[str, ...]] = ("provinces", "counters")

    provinces: dict[str, Province] = field(default_factory=dict)
    counters: list[Counter] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"provinces": [p.to_dict() for p in self.provinces.values()],
                "counters": [c.to_dict() for c in self.counters]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        return cls(provinces={p["id"]: Province.from_dict(p) for p in data.get("provinces", [])},
                   counters=[Counter.from_dict(c) for c in data.get("counters", [])])


def board(state: GameState) -> Board:
    """Blood Royale's board in ``state``, created empty on first use."""
    found = state.data_of(Board)
    if found is None:
        found = Board()
        state.put_data(found)
    return found


#: The ``Name`` kinds of the board's things: a reader sees a province by the content
#: pack's name in their language, a good by the catalogue's word.
PROVINCE = "province"
GOOD = "good"


def province_name(province: Province) -> Name:
    """A province's name, which a reader may see in another language."""
    return Name(PROVINCE, province.id, province.name)


def good_name(good: str) -> Name:
    """A good (a resource counter's) by its id, which is its English name."""
    return Name(GOOD, good, good)

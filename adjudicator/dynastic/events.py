"""The events of the dynastic rules (RULES.md Part A): births, deaths, epidemics,
successions, marriages, renunciations, command and capture.

Every dynastic ruleset records them; their sentences are the dynastic
narration's (``chronicle.rulesets.dynastic``). Their kinds are the store's, as
they were when these classes lived in ``adjudicator.events``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from adjudicator.events import Event


@dataclass(frozen=True, kw_only=True)
class Birth(Event):
    kind: ClassVar[str] = "birth"
    person: str
    father: str
    mother: str
    dynasty: str | None
    court: str | None
    attempt: int

    def subjects(self) -> list[str]:
        return [self.person, self.father, self.mother]

    def houses(self) -> list[str]:
        return [h for h in (self.dynasty, self.court) if h]


@dataclass(frozen=True, kw_only=True)
class BirthAttempts(Event):
    """A couple's attempts this turn, successful or not (A5.1)."""

    kind: ClassVar[str] = "birth-attempts"
    father: str
    mother: str
    house: str | None
    attempts: int
    children: tuple[str, ...]
    ordered: bool

    def subjects(self) -> list[str]:
        return [self.father, self.mother]

    def houses(self) -> list[str]:
        return [self.house] if self.house else []


@dataclass(frozen=True, kw_only=True)
class Death(Event):
    kind: ClassVar[str] = "death"
    person: str
    cause: str
    detail: str = ""
    age: int = 0
    house: str | None = None
    #: A death by the dice (A5.3, A5.4): the roll as compared, with its modifiers,
    #: and the number it needed (None: an unmodified 2, or a double in an epidemic).
    roll: int | None = None
    needed: int | None = None

    def subjects(self) -> list[str]:
        return [self.person]

    def houses(self) -> list[str]:
        return [self.house] if self.house else []


@dataclass(frozen=True, kw_only=True)
class Epidemic(Event):
    """An epidemic struck (A5.4). The threshold stays secret."""

    kind: ClassVar[str] = "epidemic"
    population: int
    dead: tuple[str, ...]

    def subjects(self) -> list[str]:
        return list(self.dead)


@dataclass(frozen=True, kw_only=True)
class Succession(Event):
    kind: ClassVar[str] = "succession"
    house: str
    previous: str | None
    ruler: str
    ref: str

    def subjects(self) -> list[str]:
        return [p for p in (self.ruler, self.previous) if p]

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class Extinction(Event):
    kind: ClassVar[str] = "extinction"
    house: str

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class Wedding(Event):
    kind: ClassVar[str] = "marriage"
    marriage: str
    husband: str
    wife: str
    children_dynasty: str | None
    husband_house: str | None
    wife_house: str | None
    minor_nobility: bool = False

    def subjects(self) -> list[str]:
        return [self.husband, self.wife]

    def houses(self) -> list[str]:
        return sorted({h for h in (self.husband_house, self.wife_house) if h})


@dataclass(frozen=True, kw_only=True)
class MinorNobleCreated(Event):
    kind: ClassVar[str] = "minor-noble"
    person: str
    for_person: str

    def subjects(self) -> list[str]:
        return [self.person]


@dataclass(frozen=True, kw_only=True)
class Renunciation(Event):
    kind: ClassVar[str] = "renunciation"
    person: str
    dynasty: str
    ref: str

    def subjects(self) -> list[str]:
        return [self.person]

    def houses(self) -> list[str]:
        return [self.dynasty]


@dataclass(frozen=True, kw_only=True)
class Assignment(Event):
    kind: ClassVar[str] = "assignment"
    person: str
    unit: str
    house: str
    automatic: bool = False
    lent_by: str | None = None

    def subjects(self) -> list[str]:
        return [self.person]

    def houses(self) -> list[str]:
        return sorted({h for h in (self.house, self.lent_by) if h})


@dataclass(frozen=True, kw_only=True)
class Capture(Event):
    kind: ClassVar[str] = "capture"
    person: str
    captor: str
    unit: str | None = None
    where: str | None = None

    def subjects(self) -> list[str]:
        return [self.person]

    def houses(self) -> list[str]:
        return [self.captor]


@dataclass(frozen=True, kw_only=True)
class CaptureEscaped(Event):
    """A commander of a retreating unit who was not taken (A9)."""

    kind: ClassVar[str] = "capture-escaped"
    person: str
    captor: str
    unit: str | None = None

    def subjects(self) -> list[str]:
        return [self.person]


@dataclass(frozen=True, kw_only=True)
class PrisonerReleased(Event):
    kind: ClassVar[str] = "prisoner-released"
    person: str
    captor: str
    ransom: int = 0

    def subjects(self) -> list[str]:
        return [self.person]

    def houses(self) -> list[str]:
        return [self.captor]


@dataclass(frozen=True, kw_only=True)
class PrisonerKept(Event):
    kind: ClassVar[str] = "prisoner-kept"
    person: str
    captor: str

    def subjects(self) -> list[str]:
        return [self.person]


@dataclass(frozen=True, kw_only=True)
class WidowReturns(Event):
    kind: ClassVar[str] = "widow-returns"
    person: str
    court: str | None
    previous_court: str | None

    def subjects(self) -> list[str]:
        return [self.person]


@dataclass(frozen=True, kw_only=True)
class UnitsDisbanded(Event):
    """A house's units removed, e.g. at extinction (A6)."""

    kind: ClassVar[str] = "units-disbanded"
    house: str
    units: tuple[str, ...]
    reason: str

    def houses(self) -> list[str]:
        return [self.house]

"""Typed, frozen events: what happened in a turn.

Each event class names its ``kind`` (the key the store and the site use) and
whether it is ``public``. The store keeps the payload as JSON; the site turns
kinds into prose. Rulesets add their own event classes by subclassing
``Event`` in their own packages (Part A's: ``adjudicator.dynastic.events``);
``EVENT_KINDS`` maps every kind to its class, once its module is imported.
Here are only the events any ruleset may record: a notice to one house, and
an arbiter's ruling.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar

EVENT_KINDS: dict[str, type[Event]] = {}


@dataclass(frozen=True, kw_only=True)
class Event:
    kind: ClassVar[str] = "event"
    public: ClassVar[bool] = True
    phase: str = "dynasty"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "kind" not in cls.__dict__:
            return  # a shared base of events (it names no kind of its own) is no event
        if cls.kind in EVENT_KINDS and EVENT_KINDS[cls.kind] is not cls:
            raise TypeError(f"event kind {cls.kind!r} defined twice")
        EVENT_KINDS[cls.kind] = cls

    def payload(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("phase", None)
        return data

    def subjects(self) -> list[str]:
        """Person ids this event concerns, for character timelines."""
        return []

    def houses(self) -> list[str]:
        """House ids this event concerns, for house chronicles and reports."""
        return []


@dataclass(frozen=True, kw_only=True)
class Notice(Event):
    """A line for one house's private report only."""

    kind: ClassVar[str] = "notice"
    public: ClassVar[bool] = False
    house: str
    #: A ``Message`` when the engine made it (adjudicator/messages.py); the store
    #: keeps its English text.
    text: str
    params: dict[str, Any] = field(default_factory=dict)

    def payload(self) -> dict[str, Any]:
        data = super().payload()
        data["text"] = str(self.text)
        return data

    def houses(self) -> list[str]:
        return [self.house]


@dataclass(frozen=True, kw_only=True)
class Ruling(Event):
    """An arbiter's directive that changed the state (DESIGN.md "Arbiter directives":
    recorded as public events, the rulings are part of the chronicle)."""

    kind: ClassVar[str] = "ruling"
    directive: str
    person: str | None = None
    house: str | None = None
    #: The characteristic a ``set`` corrects.
    field: str | None = None
    #: Crowns granted or fined, or the characteristic's new value.
    amount: int | None = None
    #: The other spouse of a marriage annulled or made.
    other: str | None = None
    #: The reference number given up by a renunciation or an abdication.
    ref: str | None = None
    #: The province whose control is ruled, and its controller before (Blood
    #: Royale's ``control`` directive). They stay fields of every ruling: every
    #: stored ruling's payload carries the two keys, ``null`` but for that
    #: directive, and ``chronicle verify`` compares stored payloads with the
    #: replay's, so a ruling of another ruleset must still write them.
    province: str | None = None
    previous: str | None = None

    def subjects(self) -> list[str]:
        return [p for p in (self.person, self.other) if p]

    def houses(self) -> list[str]:
        return sorted({h for h in (self.house, self.previous) if h})

"""The game state handed to and returned by the engine.

The state is plain data: dataclasses of strings, numbers, enums, lists and
dicts, so that it round-trips through JSON unchanged (``to_dict`` /
``from_dict``). The engine works on a copy (``GameState.copy``) and never
mutates its input. The dead are sealed (``seal_the_dead``): no rule acts on
them again, so a sealed person is immutable and states share it safely.

``GameState`` holds what every ruleset has (houses, people, marriages, the
calendar) and what the dynastic rulesets share; a ruleset's own things (Blood
Royale's board, the card game's table) are its part of the state
(``RulesetData``), which only its own modules decode.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Protocol, Self, TypeVar

# Snapshots written before the calendar came from the rules data always
# counted five years a turn; they load with that calendar.
_SNAPSHOT_YEARS_PER_TURN = 5

_FIELDS: dict[type, tuple[str, ...]] = {}


_FIELD_SETS: dict[type, frozenset[str]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELDS.get(cls)
    if names is None:
        names = tuple(f.name for f in fields(cls))
        _FIELDS[cls] = names
    return names


def _field_set(cls: type) -> frozenset[str]:
    names = _FIELD_SETS.get(cls)
    if names is None:
        names = _FIELD_SETS[cls] = frozenset(_field_names(cls))
    return names


class Sex(StrEnum):
    MALE = "M"
    FEMALE = "F"


class Law(StrEnum):
    """Succession laws (RULES.md A3): how children are numbered."""

    MALE_PREFERENCE = "male-preference"
    ABSOLUTE = "absolute"


# A plain lookup: a snapshot decodes one sex per person who ever lived.
_SEXES: dict[str, Sex] = {s.value: s for s in Sex}


@dataclass(frozen=True)
class Reign:
    """One ruler's time on a throne (A6); ``end`` is None while it lasts."""

    person: str
    start: int
    end: int | None = None

    def to_list(self) -> list[Any]:
        """The snapshot's layout: ``[person, start, end]``."""
        return [self.person, self.start, self.end]

    @classmethod
    def from_list(cls, row: Iterable[Any]) -> Reign:
        person, start, end = row
        return cls(person=str(person), start=int(start), end=None if end is None else int(end))


class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change: what a sealed person holds.

    A dict (not a mapping proxy) so that the JSON encoder and every reader
    treat it as before.
    """

    def _refuse(self, *_args: Any, **_kwargs: Any) -> NoReturn:
        raise TypeError("a sealed record cannot change")

    __setitem__ = __delitem__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse
    __ior__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle would otherwise rebuild it item by item, through ``__setitem__``.
        return (FrozenDict, (dict(self),))


class Record:
    """JSON round-trip for the flat dataclasses below (and the rulesets' own records).

    ``to_dict`` shares the containers of the object (it is read by the JSON
    encoder, never mutated): copying them every turn for every person who ever
    lived dominated the cost of long campaigns.
    """

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in _field_names(type(self))}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        names = _field_set(cls)
        if names.issuperset(data):
            # A snapshot written by this version: every key is a field. Decoding
            # every person who ever lived is most of a long campaign's load.
            return cls(**data)
        return cls(**{k: v for k, v in data.items() if k in names})


@dataclass
class Person(Record):
    """A member of a dynasty, of the minor nobility, or a founder (A1)."""

    id: str
    name: str
    sex: Sex
    born: int
    dynasty: str | None = None
    father: str | None = None
    mother: str | None = None
    court: str | None = None
    constitution: int = 0
    command: int = 0
    ruse: int = 0
    founder: bool = False
    seq: int = 0
    died: int | None = None
    death_cause: str | None = None
    spouse: str | None = None
    refs: dict[str, str] = field(default_factory=dict)
    ref_from: dict[str, str] = field(default_factory=dict)
    issued: dict[str, list[int]] = field(default_factory=dict)
    renounced: dict[str, int] = field(default_factory=dict)
    prisoner_of: str | None = None
    captured_turn: int | None = None
    unit: str | None = None
    widowed_queen: bool = False
    king_consort: bool = False
    barred: list[str] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.died is None

    def age(self, year: int) -> int:
        return year - self.born

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Person:
        if data.get("died") is not None:
            return _sealed(data)
        person = super().from_dict(data)
        person.sex = _SEXES[person.sex]
        return person

    def sealed(self) -> Person:
        """This person as an immutable record (for the dead: see ``seal_the_dead``)."""
        return _sealed(self.__dict__)


class _SealedPerson(Person):
    """A dead person: every field and container is immutable."""

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"{self.id} is dead and sealed: cannot set {name}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"{self.id} is dead and sealed: cannot delete {name}")

    def sealed(self) -> Person:
        return self


# The containers are left out: ``_sealed`` makes them, sharing the one empty
# mapping (most of the dead hold no claim, no renunciation, no issue).
_PERSON_DEFAULTS = {f.name: f.default for f in fields(Person) if f.default is not MISSING}
_NOTHING = FrozenDict()


def _sealed(data: Mapping[str, Any]) -> Person:
    """A sealed person from a snapshot's fields (missing ones take their defaults)."""
    values = {**_PERSON_DEFAULTS, **data}
    if len(values) > len(_field_names(Person)):
        values = {k: v for k, v in values.items() if k in _field_set(Person)}
    values["sex"] = _SEXES[values["sex"]]
    for name in ("refs", "ref_from", "renounced"):
        found = values.get(name)
        values[name] = FrozenDict(found) if found else _NOTHING
    issued = values.get("issued")
    values["issued"] = FrozenDict({k: tuple(v) for k, v in issued.items()}) if issued else _NOTHING
    values["barred"] = tuple(values.get("barred", ()))
    person = object.__new__(_SealedPerson)
    vars(person).update(values)
    return person


class DeadRecords(Protocol):
    """Where the lent dead's records and reference numbers are read, one at a time."""

    def record(self, pid: str) -> str | None:
        """The stored record (JSON) of the dead ``pid``, or None."""

    def holder(self, ref: str) -> str | None:
        """Who, of the dead holding number ``ref`` when they died, appeared last."""

    def every_ref(self) -> Iterable[tuple[str, str]]:
        """Every (reference number, id) the dead held, in their order of appearance."""


class LentDead:
    """Those who died before the turn being played, as the store keeps them.

    A campaign's dead outnumber its living several times over, and no rule
    acts on them again (``GameState.seal_the_dead``): they are only looked up,
    by id, name or reference number, and their names stay taken. So a state
    loaded to play a turn is lent them: ``people`` (id, name, ``seq``, in
    their order of appearance) serve the names; each one's record and the
    numbers they held are read from ``records`` when asked for (a turn asks
    for a few hundred of them, where reading every one was a tenth of a long
    campaign's turn). The lookups find whom a state holding everyone would
    find (``GameState.find_person``).
    """

    def __init__(self, people: Sequence[tuple[str, str, int]], records: DeadRecords) -> None:
        self._people = people
        self._records = records
        self.seq = {pid: seq for pid, _name, seq in people}
        # Of two bearing one name or number, the later is meant (``_people_index``).
        self.names = {name: pid for pid, name, _seq in people}
        self._decoded: dict[str, Person] = {}
        self._holders: dict[str, str | None] = {}
        self._folded: dict[str, str] | None = None
        self._folded_refs: dict[str, tuple[str, ...]] | None = None

    def __contains__(self, pid: object) -> bool:
        return pid in self.seq

    def __len__(self) -> int:
        return len(self.seq)

    def get(self, pid: str) -> Person | None:
        person = self._decoded.get(pid)
        if person is None:
            text = self._records.record(pid) if pid in self.seq else None
            if text is None:
                return None
            person = self._decoded[pid] = _sealed(json.loads(text))
        return person

    def exact(self, token: str) -> tuple[str | None, bool]:
        """Who bears ``token`` as a number or name (the later of two), else whose id
        it is; and whether it is a number or name."""
        if token in self._holders:
            by_ref = self._holders[token]
        else:
            by_ref = self._holders[token] = self._records.holder(token)
        by_name = self.names.get(token)
        if by_ref is not None and by_name is not None:
            return max(by_ref, by_name, key=self.seq.__getitem__), True
        if by_ref is not None or by_name is not None:
            return by_ref or by_name, True
        return (token, False) if token in self.seq else (None, False)

    def every_name(self) -> Iterator[str]:
        """Their names, in order of appearance."""
        return (name for _pid, name, _seq in self._people)

    def folded(self, lowered: str) -> str | None:
        """The first whose id or name is ``lowered`` in small letters."""
        if self._folded is None:
            found: dict[str, str] = {}
            for pid, name, _seq in self._people:
                found.setdefault(pid.lower(), pid)
                found.setdefault(name.lower(), pid)
            self._folded = found
        return self._folded.get(lowered)

    def holding_ref_like(self, lowered: str) -> tuple[str, ...]:
        """Those whose number is ``lowered`` in small letters, in order of appearance.

        Asked only of a name that finds nobody (for the number meant): the
        numbers are all read then, once.
        """
        if self._folded_refs is None:
            found: dict[str, tuple[str, ...]] = {}
            for ref, pid in self._records.every_ref():
                found[ref.lower()] = (*found.get(ref.lower(), ()), pid)
            self._folded_refs = found
        return self._folded_refs.get(lowered, ())


class People(dict[str, Person]):
    """A state's persons: a dict of those in play, and the dead it was lent.

    Without ``lent`` it is a plain dict of everyone. With it (a state loaded
    to play a turn, ``LentDead``), iterating and ``len`` see only those in
    play (the living, and whoever the turn adds or kills), while ``[]``,
    ``get`` and ``in`` find the lent dead too: playing a turn costs what its
    living cost.
    """

    def __init__(self, entries: Mapping[str, Person] | Iterable[tuple[str, Person]] = (),
                 lent: LentDead | None = None) -> None:
        super().__init__(entries)
        self.lent = lent

    def __missing__(self, pid: str) -> Person:
        found = self.lent.get(pid) if self.lent is not None else None
        if found is None:
            raise KeyError(pid)
        return found

    def get(self, pid: str, default: Any = None) -> Any:
        found = super().get(pid)
        if found is None and self.lent is not None:
            found = self.lent.get(pid)
        return default if found is None else found

    def __contains__(self, pid: object) -> bool:
        return super().__contains__(pid) or (self.lent is not None and pid in self.lent)

    def __reduce__(self) -> tuple[Any, ...]:
        return (People, (dict(self), self.lent))


@dataclass
class House(Record):
    """A playing house: a dynasty and the faction it controls.

    ``capital`` and ``armies_lost`` are Blood Royale's, ``treasury`` the
    dynastic rulesets' (A9 ransoms, the arbiter's grants): they stay in the
    record because a house is one row of the snapshot, of the store's
    ``houses`` table and of the JSON export, for every ruleset alike.
    """

    id: str
    letter: str
    name: str
    law: Law = Law.MALE_PREFERENCE
    player: str = ""
    color: str = "#555555"
    capital: str | None = None
    ruler: str | None = None
    eliminated: bool = False
    eliminated_turn: int | None = None
    treasury: int = 0
    armies_lost: list[list[int]] = field(default_factory=list)
    rulers: tuple[Reign, ...] = ()

    @property
    def reign(self) -> Reign | None:
        """The reign going on, if any."""
        if self.rulers and self.rulers[-1].end is None:
            return self.rulers[-1]
        return None

    def end_reign(self, year: int) -> None:
        """Close the reign going on, if any, in ``year``."""
        current = self.reign
        if current is not None:
            self.rulers = (*self.rulers[:-1], replace(current, end=year))

    def begin_reign(self, person: str, year: int) -> None:
        self.end_reign(year)
        self.ruler = person
        self.rulers = (*self.rulers, Reign(person=person, start=year))

    def to_dict(self) -> dict[str, Any]:
        data = super().to_dict()
        data["rulers"] = [r.to_list() for r in self.rulers]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> House:
        house = super().from_dict(data)
        house.law = Law(house.law)
        house.rulers = tuple(Reign.from_list(r) for r in data.get("rulers", ()))
        return house


@dataclass
class Marriage(Record):
    id: str
    husband: str
    wife: str
    turn: int
    year: int
    children_dynasty: str | None = None
    ended: int | None = None
    end_cause: str | None = None


@dataclass
class Unit(Record):
    """A house's unit (RULES.md A8): what the dynastic rules share of it.

    Part A reads ``id`` (orders name it), ``house`` (the faction: lending,
    capture, extinction), ``type`` (the ``unit_types`` table: how many
    commanders, the command value's floor) and ``commanders``. ``armies`` and
    ``province`` are Blood Royale's (a dynasty campaign only copies them from
    its ``[[unit]]`` tables), and ``disbanded`` is set by nothing. They stay in
    this one record all the same: a unit is one row, with all seven fields, of
    every dynastic snapshot, of the store's ``units`` table and of the JSON
    export, and a dynasty campaign's rows carry what its tables declared.
    Splitting the row between two parts would need a merge of every row in the
    snapshot's layout for no change in what is played or written. ``type`` is
    one of the rules' ``unit_types``, which the record does not know: it has no
    default.
    """

    id: str
    house: str
    type: str
    armies: int = 1
    province: str | None = None
    commanders: list[str] = field(default_factory=list)
    disbanded: int | None = None


class RulesetData(ABC):
    """A ruleset's own part of the state (its board, its cards), typed.

    A snapshot keeps it under ``extra[key]`` as ``to_dict`` gives it; a state
    read from a snapshot decodes it on first use (``GameState.data_of``), since
    only the ruleset's own modules know its class.

    A part whose ``snapshot_keys`` are set is written at the snapshot's top
    level instead, under exactly those keys (``to_dict`` returns them and
    nothing else): that is how a part holds what snapshots kept at their top
    level before the parts existed (``TOP_LEVEL``), byte for byte.
    """

    key: ClassVar[str]
    #: Top-level snapshot keys this part is written under instead of ``extra[key]``.
    snapshot_keys: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The inverse of ``to_dict``, reading what every earlier version wrote."""


D = TypeVar("D", bound=RulesetData)

#: The keys every snapshot has carried at its top level although no rule of
#: most rulesets uses them, and what a state writes under each when no part
#: of it holds that key (``RulesetData.snapshot_keys``): the snapshot's layout,
#: which the store, ``verify`` and the golden files hold byte for byte.
TOP_LEVEL: dict[str, Any] = {"provinces": [], "counters": []}


def _copy_people_index(index: list[Any]) -> list[Any]:
    count, exact, folded, refs = index
    return [count, dict(exact), dict(folded), dict(refs)]


#: Cache key -> how a copied state gets its own copy of that cache: caches
#: holding only strings and tuples, true of a copy as of the original.
COPIED_CACHES: dict[str, Callable[[Any], Any]] = {
    "people_index": _copy_people_index,
    "marriages_of": lambda cache: [cache[0], dict(cache[1])],
}


@dataclass
class GameState:
    """Everything the rules need, at the end of turn ``turn`` (0: the start)."""

    ruleset: str
    start_year: int
    years_per_turn: int
    turn: int = 0
    houses: dict[str, House] = field(default_factory=dict)
    persons: dict[str, Person] = field(default_factory=People)
    marriages: list[Marriage] = field(default_factory=list)
    #: The dynastic rulesets' units (A8); empty for the others (see ``Unit``).
    units: dict[str, Unit] = field(default_factory=dict)
    #: A5.4's secret threshold, drawn at the setup of a dynastic campaign.
    epidemic_threshold: int | None = None
    end_year: int | None = None
    #: The crowns a house must pass to win (Blood Royale, B8): a column of the
    #: store's campaign row and a field of the export's campaign, for every ruleset.
    target: int | None = None
    winner: str | None = None
    finished: bool = False
    next_seq: int = 1
    #: A1 names: per name list (``<dynasty>:<sex>``), the first place not yet taken.
    name_cursors: dict[str, int] = field(default_factory=dict)
    #: The rulesets' own parts, by key; an entry still a dict is undecoded (``data_of``).
    ruleset_data: dict[str, RulesetData | dict[str, Any]] = field(default_factory=dict)
    #: Top-level snapshot values (``TOP_LEVEL``) no part has decoded yet.
    loose: dict[str, Any] = field(default_factory=dict)

    # -- calendar (A4) ---------------------------------------------------
    def year_of(self, turn: int) -> int:
        return self.start_year + self.years_per_turn * (turn - 1)

    def year_ending(self, turn: int) -> int:
        """The year ``turn`` ends in: the age reached at its end is counted from it (A4)."""
        return self.year_of(turn + 1)

    @property
    def year(self) -> int:
        """The year of the last adjudicated turn (the start year before turn 1)."""
        return self.year_of(max(self.turn, 1))

    # -- lookups -----------------------------------------------------------
    def living(self) -> list[Person]:
        """The living, in order of appearance.

        Nobody comes back from the dead and people are only ever added at the
        end of ``persons``, so the cache keeps the last answer, appends the
        newcomers and drops the newly dead: the cost is the living's, not the
        whole campaign's.
        """
        cache = self.caches.get("living")
        if cache is None:
            cache = self.caches["living"] = [0, []]
        count, known = cache
        if count < len(self.persons):
            known = known + self._added_since(count)
        alive = [p for p in known if p.died is None]
        cache[0], cache[1] = len(self.persons), alive
        return list(alive)

    def open_marriages(self) -> list[Marriage]:
        """Marriages not ended, oldest first (cached like ``living``)."""
        cache = self.caches.get("marriages")
        if cache is None:
            cache = self.caches["marriages"] = [0, []]
        count, known = cache
        if count < len(self.marriages):
            known = known + self.marriages[count:]
        current = [m for m in known if m.ended is None]
        cache[0], cache[1] = len(self.marriages), current
        return list(current)

    def active_houses(self) -> list[House]:
        return [h for h in self.houses.values() if not h.eliminated]

    def find_person(self, ref_or_name: str) -> Person | None:
        """A person by reference number (any dynasty), unique name or id.

        Names and ids are found whatever their case; reference numbers only as
        written, since case is what tells a son's line from a daughter's
        (``E1A00`` and ``E1a00`` are two people, A3). The index grows with the
        persons dict (people are only ever added, at its end); a hit is
        re-checked because a renunciation removes a number without adding anyone.
        """
        exact, folded, _ = self._people_index()
        lent = self._lent()
        pid = exact.get(ref_or_name)
        if lent is not None:
            pid = self._exact_with(lent, pid, ref_or_name)
        if pid is not None:
            person = self.persons[pid]
            if ref_or_name in (person.name, person.id) or ref_or_name in person.refs.values():
                return person
        lowered = ref_or_name.lower()
        pid = folded.get(lowered)
        if lent is not None:
            dead = lent.folded(lowered)
            if dead is not None and (pid is None or lent.seq[dead] < self.persons[pid].seq):
                pid = dead
        if pid is not None:
            person = self.persons[pid]
            if lowered in (person.name.lower(), person.id.lower()):
                return person
        return None

    def _exact_with(self, lent: LentDead, pid: str | None, token: str) -> str | None:
        """Who ``token`` names exactly among the living (``pid``) and the lent dead,
        as the index of everyone would have it: the later of two bearing it as
        a number or name, else the one whose id it is."""
        dead, dead_bears = lent.exact(token)
        if dead is None or pid is None:
            return pid or dead
        person = self.persons[pid]
        # An entry that is neither name, number nor id is a number given up since.
        bears = token != person.id or token == person.name or token in person.refs.values()
        if bears and dead_bears:
            return pid if person.seq > lent.seq[dead] else dead
        return pid if bears or not dead_bears else dead

    def every_name(self) -> Iterator[str]:
        """The name of everyone who ever lived: the lent dead's, then the others'."""
        lent = self._lent()
        if lent is not None:
            yield from lent.every_name()
        for person in self.persons.values():
            yield person.name

    def _lent(self) -> LentDead | None:
        """The dead this state was lent (``People``), if any."""
        return self.persons.lent if isinstance(self.persons, People) else None

    def ref_like(self, token: str) -> str | None:
        """A reference number held now that differs from ``token`` only in case."""
        _, _, refs = self._people_index()
        lent = self._lent()
        folded = token.lower()
        held = refs.get(folded, ())
        if lent is not None:
            dead = lent.holding_ref_like(folded)
            if dead:
                # In order of appearance, as the index of everyone holds them.
                seq = {**{pid: self.persons[pid].seq for pid in held},
                       **{pid: lent.seq[pid] for pid in dead}}
                held = tuple(sorted({*held, *dead}, key=seq.__getitem__))
        return next((ref for pid in held for ref in self.persons[pid].refs.values()
                     if ref.lower() == folded), None)

    def _added_since(self, count: int) -> list[Person]:
        """The persons added after the first ``count``, in order.

        Read from the end: the cost is the newcomers', where ``islice`` from
        ``count`` would walk past everyone who ever lived, on every lookup.
        """
        new = len(self.persons) - count
        if new <= 0:
            return []
        return list(itertools.islice(reversed(self.persons.values()), new))[::-1]

    def _people_index(self) -> tuple[dict[str, str], dict[str, str],
                                     dict[str, tuple[str, ...]]]:
        cache = self.caches.setdefault("people_index", [0, {}, {}, {}])
        count, exact, folded, refs = cache
        if count < len(self.persons):
            for person in self._added_since(count):
                exact.setdefault(person.id, person.id)
                folded.setdefault(person.id.lower(), person.id)
                exact[person.name] = person.id  # names and numbers beat ids
                folded.setdefault(person.name.lower(), person.id)
                for ref in person.refs.values():
                    exact[ref] = person.id
                    # Tuples, so that a copy of the index may share them (``copy``).
                    folded_ref = ref.lower()
                    refs[folded_ref] = (*refs.get(folded_ref, ()), person.id)
            cache[0] = len(self.persons)
        return exact, folded, refs

    def current_marriage(self, pid: str) -> Marriage | None:
        """``pid``'s latest marriage not ended, found among their own (``_marriages_of``)."""
        marriages = self.marriages
        for index in reversed(self._marriages_of().get(pid, ())):
            if marriages[index].ended is None:
                return marriages[index]
        return None

    def _marriages_of(self) -> dict[str, tuple[int, ...]]:
        """Person -> the places of their marriages in ``marriages``, oldest first.

        Marriages are only ever added, at the end, so the index grows with the
        list; asked for each couple of a turn, a walk of every open marriage
        was most of a large campaign's births.
        """
        cache = self.caches.setdefault("marriages_of", [0, {}])
        count = cache[0]
        index: dict[str, tuple[int, ...]] = cache[1]
        if count < len(self.marriages):
            for place in range(count, len(self.marriages)):
                marriage = self.marriages[place]
                for who in (marriage.husband, marriage.wife):
                    index[who] = (*index.get(who, ()), place)
            cache[0] = len(self.marriages)
        return index

    def allocate_seq(self) -> int:
        seq = self.next_seq
        self.next_seq += 1
        return seq

    # -- the rulesets' own parts ----------------------------------------------
    def data_of(self, kind: type[D]) -> D | None:
        """The ruleset part ``kind`` of this state, or None if it has none."""
        found = self.ruleset_data.get(kind.key)
        if found is None and any(k in self.loose for k in kind.snapshot_keys):
            found = kind.from_dict({k: self.loose.pop(k, copy.deepcopy(TOP_LEVEL.get(k)))
                                    for k in kind.snapshot_keys})
            self.ruleset_data[kind.key] = found
        if found is None or isinstance(found, kind):
            return found
        if not isinstance(found, dict):
            raise TypeError(f"the state's {kind.key!r} part is a {type(found).__name__}")
        decoded = kind.from_dict(found)
        self.ruleset_data[kind.key] = decoded
        return decoded

    def put_data(self, data: RulesetData) -> None:
        for key in data.snapshot_keys:
            self.loose.pop(key, None)
        self.ruleset_data[data.key] = data

    # -- copying and serialising ------------------------------------------
    def seal_the_dead(self) -> None:
        """Make every dead person an immutable record (``Person.sealed``).

        No rule acts on the dead again; once sealed, states can share them.
        """
        for pid, person in self.persons.items():
            if person.died is not None and not isinstance(person, _SealedPerson):
                self.persons[pid] = person.sealed()

    def copy(self) -> GameState:
        """A deep copy that shares only immutable records: the sealed dead.

        Copying only what may change keeps a long campaign's turn at the cost
        of its living. The copy itself is a pickle round trip, several times
        faster than ``copy.deepcopy``.
        """
        persons = self.persons
        self.persons = {pid: p for pid, p in persons.items()
                        if not isinstance(p, _SealedPerson)}
        try:
            clone: GameState = pickle.loads(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))
        finally:
            self.persons = persons
        clone.persons = People(((pid, clone.persons.get(pid) or p) for pid, p in persons.items()),
                               self._lent())
        # Indexes of strings are as true of the clone as of the original, and
        # building one walks everyone who ever lived: they are copied over.
        for key, value in self.caches.items():
            copier = COPIED_CACHES.get(key)
            if copier is not None:
                clone.caches[key] = copier(value)
        return clone

    @property
    def caches(self) -> dict[str, Any]:
        """Derived lookups (indexes), never serialised: rebuilt on demand. A copy
        (``copy``) keeps only those listed in ``COPIED_CACHES``."""
        found: dict[str, Any] = self.__dict__.setdefault("_caches", {})
        return found

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_caches", None)
        return state

    if TYPE_CHECKING:
        # Deprecated (``MOVED_ATTRIBUTES``): typed only for the code not yet ported.
        provinces: ClassVar[dict[str, Any]]
        counters: ClassVar[list[Any]]
    else:
        def __getattr__(self, name: str) -> Any:
            """Deprecated: an attribute a ruleset's part now holds
            (``MOVED_ATTRIBUTES``), for code not yet reading it through the part."""
            found = MOVED_ATTRIBUTES.get(name)
            if found is None:
                raise AttributeError(
                    f"{type(self).__name__!r} object has no attribute {name!r}")
            kind = _moved(found)
            part = self.data_of(kind) or kind.from_dict({})
            return getattr(part, name)

    def to_dict(self, *, living_only: bool = False) -> dict[str, Any]:
        """Plain data for JSON; ``living_only`` leaves the dead out (the store
        keeps them once, apart)."""
        if not living_only and self._lent():
            raise ValueError("a state lent its dead (``People``) holds only the living")
        persons = self.persons.values()
        data = {
            "ruleset": self.ruleset,
            "start_year": self.start_year,
            "years_per_turn": self.years_per_turn,
            "turn": self.turn,
            "houses": [h.to_dict() for h in self.houses.values()],
            "persons": [p.to_dict() for p in persons if not living_only or p.died is None],
            "marriages": [m.to_dict() for m in self.marriages],
            "units": [u.to_dict() for u in self.units.values()],
            "epidemic_threshold": self.epidemic_threshold,
            "end_year": self.end_year,
            "target": self.target,
            "winner": self.winner,
            "finished": self.finished,
            "next_seq": self.next_seq,
            "name_cursors": dict(self.name_cursors),
            "extra": {k: copy.deepcopy(v) if isinstance(v, dict) else v.to_dict()
                      for k, v in self.ruleset_data.items()
                      if isinstance(v, dict) or not v.snapshot_keys},
        }
        data.update((k, copy.deepcopy(v)) for k, v in TOP_LEVEL.items())
        data.update(self.loose)
        for part in self.ruleset_data.values():
            if isinstance(part, RulesetData) and part.snapshot_keys:
                data.update(part.to_dict())
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any], lent: LentDead | None = None) -> GameState:
        """The state ``data`` holds; ``lent``: the dead it leaves out (``People``)."""
        parts = copy.deepcopy(data.get("extra", {}))
        # Snapshots written before the cursors were a field kept them in ``extra``.
        cursors = data.get("name_cursors", parts.pop("name_cursors", {}))
        return cls(
            ruleset=data["ruleset"],
            start_year=data["start_year"],
            years_per_turn=data.get("years_per_turn", _SNAPSHOT_YEARS_PER_TURN),
            turn=data["turn"],
            houses={h["id"]: House.from_dict(h) for h in data["houses"]},
            persons=People(((p["id"], Person.from_dict(p)) for p in data["persons"]), lent),
            marriages=[Marriage.from_dict(m) for m in data["marriages"]],
            units={u["id"]: Unit.from_dict(u) for u in data["units"]},
            epidemic_threshold=data.get("epidemic_threshold"),
            end_year=data.get("end_year"),
            target=data.get("target"),
            winner=data.get("winner"),
            finished=data.get("finished", False),
            next_seq=data.get("next_seq", 1),
            name_cursors={str(k): int(v) for k, v in cursors.items()},
            ruleset_data=parts,
            # Shared with ``data`` as the records above share their lists: a
            # part decodes them (``data_of``), or ``to_dict`` writes them back.
            loose={k: data[k] for k in TOP_LEVEL if data.get(k)},
        )


# -- deprecated names, for the code not yet ported ---------------------------------
#
# Blood Royale's board moved out of ``GameState`` into its own part
# (``adjudicator.rulesets.blood_royale.board``). The site's views, which another
# change ports to the ruleset's site plug-in, still read ``state.provinces`` and
# import ``Province`` from here: these tables keep them working, read-only in
# effect (an assignment to ``state.provinces`` sets a plain attribute), until
# nothing names them. Nothing else may use them.

#: A name this module held -> where it went, as ``module:name``.
MOVED: dict[str, str] = {
    "Province": "adjudicator.rulesets.blood_royale.board:Province",
    "Counter": "adjudicator.rulesets.blood_royale.board:Counter",
}
#: A state's attribute -> the part now holding it, as ``module:Class``.
MOVED_ATTRIBUTES: dict[str, str] = {
    "provinces": "adjudicator.rulesets.blood_royale.board:Board",
    "counters": "adjudicator.rulesets.blood_royale.board:Board",
}


def _moved(path: str) -> Any:
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


if TYPE_CHECKING:
    Province = Any
    Counter = Any
else:
    def __getattr__(name: str) -> Any:
        if name in MOVED:
            return _moved(MOVED[name])
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

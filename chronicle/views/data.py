"""Load one campaign store into the public view models the pages need.

Everything is read once, up front, in a handful of queries; the page builders
never query. This module is the one place that knows what is secret, and
only what is public leaves it: events with ``public = False``, secret rolls,
order files and rejections are never read; the seed appears only once
revealed; the epidemic threshold only once the campaign is finished. No view
holds a ``GameState`` or a snapshot: each fact a page shows is copied out of
the state into a frozen view (``MarriageView``, ``RealmView``...), and
``GameState.ruleset_data`` (hands, secret traits, working notes) is read
only by a ruleset's own ``TableReader``, the engine's public export. A
ruleset's own views (a board, its battles) are its site plug-in's to read
(``RulesetViews.load``, given the same state: ``Loaded``), into the campaign's
``parts``. Every list is sorted so that two loads of one store give equal views.
"""

from __future__ import annotations

import hashlib
import json
import re
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.state import GameState
from chronicle.campaign.folder import player_names, read_inside, read_toml
from chronicle.errors import CampaignError, ContentError, PublishError, StoreError
from chronicle.i18n.localnames import NO_NAMES, LocalNames
from chronicle.narration.narrator import label_ref
from chronicle.site.incremental.inputs import STORE, slugify
from chronicle.store.file import (
    StoredCampaign,
    StoredTurn,
    StoreReader,
    load_snapshot,
)
from chronicle.store.reader import reading_campaign


@dataclass(frozen=True)
class EventView:
    turn: int
    year: int
    seq: int
    phase: str
    kind: str
    payload: dict[str, Any]
    subjects: tuple[str, ...]
    houses: tuple[str, ...]

    @property
    def anchor(self) -> str:
        return f"e{self.turn}-{self.seq}"


@dataclass(frozen=True)
class MarriageView:
    husband: str
    wife: str
    year: int
    #: The year it ended and how (``"death"``: a spouse died), or None while it lasts.
    ended: int | None = None
    end_cause: str | None = None


@dataclass(frozen=True)
class HouseStyle:
    """A house as the drawings colour it (the colour as the arbiter wrote it)."""

    id: str
    name: str
    color: str


def localise(state: GameState, names: LocalNames) -> None:
    """Give a decoded state's houses the names the site's language reads them by
    (the content pack's ``name_fr``...). Only the site's copy: the store and the
    exports keep the names the engine was given. (A ruleset's plug-in names the
    rest of what its pack names: ``RulesetViews.load``.)"""
    if not names:
        return
    for house in state.houses.values():
        house.name = names.house(house.id, house.name)


def reader_names(ruleset: str, meta: Mapping[str, Any], language: str) -> LocalNames:
    """The content pack's names in the campaign's language (``Descriptor.local_names``)."""
    from chronicle.rulesets import descriptor

    try:
        return descriptor(ruleset).local_names(meta, language)
    except ContentError as err:
        raise PublishError(str(err)) from None


def styles_of(state: GameState) -> dict[str, HouseStyle]:
    """Each house of ``state`` as the drawings colour it."""
    return {h.id: HouseStyle(id=h.id, name=h.name, color=h.color) for h in state.houses.values()}


#: A ruleset's own public view of the state after a move (the card game's
#: table), given the move and the campaign's language; the site plug-in names it.
TableReader = Callable[[GameState, int, str], object]


@dataclass(frozen=True)
class Loaded:
    """What a ruleset's ``ViewsReader`` reads its own views from, inside the load.

    ``final`` is the whole state now, secrets included (its houses already carry
    the site's names): a reader copies out of it only what may be published, as
    this module does. ``snapshots`` are the stored turns' snapshots, one per
    ``SiteData.turns``, to decode lazily if at all; ``events`` every public event
    in turn and sequence order; ``names`` the content pack's names in the site's
    language.
    """

    final: GameState
    events: Sequence[EventView]
    snapshots: Sequence[bytes]
    names: LocalNames


#: A ruleset's own views of a loaded campaign (``RulesetViews.load``): it fills
#: ``SiteData.parts`` and each ``TurnView.parts``.
ViewsReader = Callable[["SiteData", Loaded], None]
#: The people whose lives an event is part of besides its subjects (``RulesetViews.lives``).
LivesOf = Callable[["EventView"], Iterable[str]]


@dataclass(frozen=True)
class RulesetViews:
    """What a ruleset adds to the views of its campaigns, as its descriptor names it
    (``Descriptor.views``): read with the store, before any page is made."""

    #: Reads the ruleset's own views once the events are in (a board, battles...).
    load: ViewsReader | None = None
    #: The people whose lives an event is part of besides its subjects (a battle's
    #: commanders), for their pages' timelines.
    lives: LivesOf | None = None


NO_VIEWS = RulesetViews()


def views_of(ruleset: str) -> RulesetViews:
    """The views the ruleset ``ruleset`` adds (``NO_VIEWS`` when it names none)."""
    from chronicle.rulesets import descriptor, load_object

    path = descriptor(ruleset).views
    if path is None:
        return NO_VIEWS
    found = load_object(path)
    if not isinstance(found, RulesetViews):
        raise TypeError(f"{path} is not a RulesetViews")
    return found


@dataclass(frozen=True)
class RollView:
    seq: int
    phase: str
    purpose: str
    subject: str | None
    dice: str
    faces: tuple[int, ...]
    total: int


@dataclass
class PersonView:
    id: str
    slug: str
    name: str
    sex: str
    born: int
    died: int | None
    death_cause: str | None
    death_detail: str
    dynasty: str | None
    court: str | None
    father: str | None
    mother: str | None
    spouse: str | None
    refs: dict[str, str]
    renounced: dict[str, str]
    constitution: int
    command: int
    ruse: int
    founder: bool
    prisoner_of: str | None
    unit: str | None
    widowed_queen: bool
    king_consort: bool
    seq: int
    spouses: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    timeline: list[EventView] = field(default_factory=list)
    reigns: list[tuple[str, int, int | None]] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.died is None

    @property
    def all_refs(self) -> list[tuple[str, str, bool]]:
        """(dynasty, reference, renounced) for every number ever held, sorted."""
        rows = [(d, r, False) for d, r in self.refs.items()]
        rows += [(d, r, True) for d, r in self.renounced.items() if d not in self.refs]
        return sorted(rows)

    @property
    def label_ref(self) -> str | None:
        return label_ref(self.dynasty, self.refs)


@dataclass
class HouseView:
    id: str
    slug: str
    letter: str
    name: str
    law: str
    color: str
    player: str
    capital: str | None
    ruler: str | None
    eliminated: bool
    eliminated_turn: int | None
    treasury: int
    rulers: list[tuple[str, int, int | None]]
    succession: list[tuple[str, str]] = field(default_factory=list)
    living: list[str] = field(default_factory=list)
    members: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RealmView:
    """A house as it stood at the end of a turn (issue 18: the state of the realms)."""

    house: str
    ruler: str | None
    #: The first three in the line of succession after the ruler (A3, A6).
    heirs: tuple[str, ...]
    treasury: int
    living: int
    eliminated: bool


HEIRS_SHOWN = 3


class RealmsSource:
    """The realms at the end of a turn, read from the turn's snapshot when first asked.

    Like a board's map: the snapshot is the whole state, secrets included, so it
    stays inside; what comes out is one ``RealmView`` per house. Decoded by the
    process that renders the turn's page, and only then.
    """

    __slots__ = ("_snapshot", "_views")

    def __init__(self, snapshot: bytes) -> None:
        self._snapshot = snapshot
        self._views: tuple[RealmView, ...] | None = None

    def digest(self) -> str:
        """The hash of the snapshot the realms are read from: the same, the same realms."""
        return hashlib.blake2b(self._snapshot, digest_size=16).hexdigest()

    def views(self) -> tuple[RealmView, ...]:
        if self._views is None:
            self._views = realms_of(json.loads(zlib.decompress(self._snapshot)))
        return self._views


def realms_of(snapshot: Mapping[str, Any]) -> tuple[RealmView, ...]:
    """Each house of a turn's snapshot (by id): its ruler, heirs, treasury and living
    members, counted as the house pages count them (``_houses``).

    Read from the snapshot's plain data (``GameState.to_dict``), not a decoded
    state: a long campaign has a snapshot a turn, and building the state's
    objects cost twice what the rest of the decoding does; a turn's snapshot
    holds the living only, all the realms need.
    """
    living = [p for p in snapshot.get("persons", []) if p.get("died") is None]
    views = []
    for h in sorted(snapshot.get("houses", []), key=lambda h: str(h["id"])):
        hid = str(h["id"])
        members = [p for p in living if hid in (p.get("refs") or {}) or p.get("dynasty") == hid]
        line = sorted((p for p in members
                       if hid in (p.get("refs") or {}) and not p.get("widowed_queen")),
                      key=lambda p: str(p["refs"][hid]))
        ruler = h.get("ruler")
        heirs = tuple(str(p["id"]) for p in line if p["id"] != ruler)[:HEIRS_SHOWN]
        views.append(RealmView(house=hid, ruler=ruler, heirs=heirs,
                               treasury=int(h.get("treasury") or 0),
                               living=len(members), eliminated=bool(h.get("eliminated"))))
    return tuple(views)


@dataclass
class TurnView:
    number: int
    year: int
    events: list[EventView]
    roll_rows: list[Any]
    commentary: str
    defaulted: list[str]
    #: The ruleset's own views of the turn (``RulesetViews.load``: a board, battles...),
    #: also read as attributes (``turn.map``).
    parts: dict[str, Any] = field(default_factory=dict, repr=False)
    #: The ruleset's own public view at the end of the turn (``TableReader``), if any.
    table: object | None = None
    #: When the turn was adjudicated (``StoredTurn.adjudicated_at``); None in older stores.
    adjudicated_at: str | None = None
    _realms: RealmsSource | None = field(default=None, repr=False)
    _rolls: list[RollView] | None = field(default=None, repr=False)

    if not TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:
            return _part(self, name)

    @property
    def rolls(self) -> list[RollView]:
        """The public dice of the turn, decoded on first use.

        A long campaign throws tens of thousands of dice, and only the turn's
        dice page shows them: decoded there, they cost the page's process,
        not the load every page waits for.
        """
        if self._rolls is None:
            self._rolls = [
                RollView(seq=seq, phase=phase, purpose=purpose, subject=subject, dice=dice,
                         faces=tuple(map(int, faces)), total=total)
                for seq, phase, purpose, subject, dice, faces, total in self.roll_values()]
        return self._rolls

    def realms_digest(self) -> str:
        """The hash of what ``realms`` are read from (``RealmsSource.digest``)."""
        return self._realms.digest() if self._realms is not None else ""

    @property
    def realms(self) -> tuple[RealmView, ...]:
        """Each house at the end of the turn, from the turn's own snapshot: what an
        archivist reads the turn by without replaying it."""
        return self._realms.views() if self._realms is not None else ()

    def roll_values(self) -> list[tuple[Any, ...]]:
        """The rolls as plain tuples (``RollView``'s fields in order), faces decoded."""
        faces = _json_list([row[6] for row in self.roll_rows])
        # Unpacked in the order load_campaign selects them (quicker than by name).
        return [(seq, phase, purpose, subject, dice, thrown, total)
                for (_turn, seq, phase, purpose, subject, dice, _faces, total), thrown
                in zip(self.roll_rows, faces, strict=True)]


class Folder:
    """Where a campaign lies, for the build's own use (``Path(campaign.folder)``).

    Opaque to a template, which sees only public attributes: a ``Path`` there
    would let a theme read ``secrets.toml`` (``folder.joinpath(...).read_text()``).
    """

    __slots__ = ("_path",)

    def __init__(self, path: Path) -> None:
        self._path = path

    def __fspath__(self) -> str:
        return str(self._path)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Folder) and other._path == self._path

    def __hash__(self) -> int:
        return hash(self._path)

    def __repr__(self) -> str:
        return "Folder(...)"


@dataclass
class CampaignView:
    slug: str
    title: str
    ruleset: str
    language: str
    theme: str
    folder: Folder
    start_year: int
    end_year: int | None
    target: int | None
    seed_commitment: str
    seed_revealed: str | None
    finished: bool
    winner: str | None
    epidemic_threshold: int | None
    turn: int
    year: int
    #: Once ended: every epidemic threshold drawn, as (y, drawn in turn, replaced in
    #: turn or None), so that players can check each epidemic (RULES.md A5.4).
    epidemic_thresholds: tuple[tuple[int, int, int | None], ...] = ()
    #: Once ended: the archive bundle's file, beside the campaign's home page
    #: (``chronicle archive ... -o <site>/<slug>/<slug>.zip``).
    bundle: str | None = None


@dataclass
class SiteData:
    """One campaign, ready to publish."""

    campaign: CampaignView
    houses: dict[str, HouseView]
    people: dict[str, PersonView]
    turns: list[TurnView]
    marriages: list[MarriageView]
    styles: dict[str, HouseStyle]
    #: The ruleset's own public view now (``TableReader``), if any.
    table: object | None = None
    #: The ruleset's own views (``RulesetViews.load``: a board, battles, wealth...), by
    #: name; also read as attributes (``data.battles``), by its templates above all.
    parts: dict[str, Any] = field(default_factory=dict, repr=False)

    if not TYPE_CHECKING:
        def __getattr__(self, name: str) -> Any:
            return _part(self, name)

    def person_order(self) -> list[PersonView]:
        return sorted(self.people.values(), key=lambda p: (p.seq, p.id))


def _part(view: object, name: str) -> Any:
    """A ruleset's part of ``view`` read as an attribute; AttributeError if it has none.

    Read through ``__dict__``: an object being copied or unpickled has none yet.
    """
    parts = view.__dict__.get("parts")
    if parts is None or name not in parts:
        raise AttributeError(f"{type(view).__name__!r} object has no attribute {name!r}")
    return parts[name]


def read_campaign_toml(folder: Path) -> dict[str, Any]:
    """The campaign's settings (title, language, theme...), or {} without the file."""
    path = folder / "campaign.toml"
    if not path.is_file() and not path.is_symlink():
        return {}
    try:
        return read_toml(path, "campaign.toml", inside=folder)
    except CampaignError as err:
        raise PublishError(str(err)) from None


@contextmanager
def store_session(folder: Path) -> Iterator[tuple[StoreReader, StoredCampaign]]:
    """A read transaction on the campaign's store, checked, and its campaign row.

    Everything it reads comes from one state of the store (``reading``): a
    turn being committed meanwhile waits until the reading is over.
    """
    path = folder / STORE
    if not path.is_file():
        raise PublishError(f"no campaign store in {str(folder)!r}")
    try:
        with reading_campaign(path) as (reader, row):
            yield reader, row
    except StoreError as err:
        raise PublishError(str(err)) from None


@dataclass
class Lineage:
    """Who is who: the people, the houses and their marriages, without the events.

    Read first, so that a caller can set the genealogies going (they need
    nothing else) while the events and dice, the bulk of a long campaign,
    are still being read. Death details and timelines are added to the same
    people once the events are in.
    """

    campaign: CampaignView
    people: dict[str, PersonView]
    houses: dict[str, HouseView]
    marriages: list[MarriageView]
    styles: dict[str, HouseStyle]
    turn_rows: list[StoredTurn] = field(repr=False)
    #: The state now: stays in this module (``_assemble`` copies out the public parts).
    _final: GameState = field(repr=False)
    #: The content pack's names in the campaign's language (given to ``_final`` already).
    names: LocalNames = NO_NAMES


def load_campaign(folder: Path, *,
                  on_lineage: Callable[[Lineage], None] | None = None,
                  alongside: Callable[[], None] | None = None,
                  table: TableReader | None = None) -> SiteData:
    """Read the store of the campaign in ``folder`` (one pass, public data only).

    ``on_lineage`` (optional) is called with the people and houses as soon
    as they are known, before the events are read; everything is read in
    one transaction, so both parts come from the same state of the store.
    ``alongside`` (optional) is called inside the transaction, once the
    genealogies are set going: the store file it sees is the state read (no
    turn can be committed until the transaction ends). Not in a thread: the
    genealogies fork, and no thread may run then (``executor``). ``table`` (optional) reads the
    ruleset's own public view of every turn's state and of the last.
    """
    with store_session(folder) as (reader, row):
        turn_rows = reader.turns()
        archived = [data for (data,) in reader.rows("SELECT data FROM archive")]
        renunciations = reader.rows(
            "SELECT payload FROM events WHERE public AND kind = 'renunciation' "
            "ORDER BY turn, seq, id")
        lineage = _lineage(folder, row, read_campaign_toml(folder), turn_rows, archived,
                           [payload for (payload,) in renunciations])
        if on_lineage is not None:
            on_lineage(lineage)
        if alongside is not None:
            alongside()
        # Rows come in the order the statements name their columns.
        events = reader.rows(
            "SELECT turn, seq, phase, kind, payload, subjects, houses FROM events "
            "WHERE public ORDER BY turn, seq, id")
        rolls = reader.rows(
            "SELECT turn, seq, phase, purpose, subject, dice, faces, total FROM rolls "
            "WHERE NOT secret ORDER BY turn, seq, id")
        return _assemble(folder, lineage, events, rolls, table)


def _lineage(folder: Path, row: StoredCampaign, meta: dict[str, Any],
             turn_rows: list[StoredTurn],
             archived: list[str], renunciations: Sequence[str]) -> Lineage:
    # Turn snapshots hold the living; the dead of every turn are in the archive.
    final = load_snapshot(turn_rows[-1].snapshot if turn_rows else row.initial,
                          archived if turn_rows else ())
    finished = final.finished or row.seed_revealed is not None
    language = str(meta.get("language") or row.language or "en")
    names = reader_names(row.ruleset, meta, language)
    localise(final, names)
    for hid, player in player_names(meta).items():
        if hid in final.houses:
            final.houses[hid].player = player
    campaign = CampaignView(
        slug=slugify(str(meta.get("slug") or row.slug), "campaign"),
        title=str(meta.get("title") or row.title),
        ruleset=row.ruleset,
        language=language,
        theme=str(meta.get("theme") or "default"),
        folder=Folder(folder),
        start_year=row.start_year,
        end_year=row.end_year,
        target=row.target,
        seed_commitment=row.seed_commitment,
        seed_revealed=row.seed_revealed,
        finished=finished,
        winner=final.winner,
        epidemic_threshold=final.epidemic_threshold if finished else None,
        turn=final.turn,
        year=final.year,
        epidemic_thresholds=_thresholds(row),
        bundle=bundle_name(slugify(str(meta.get("slug") or row.slug), "campaign"))
        if row.seed_revealed is not None else None,
    )
    people = _people(final, _renounced(_json_list(list(renunciations))))
    return Lineage(campaign=campaign, people=people, houses=_houses(final, people),
                   marriages=[MarriageView(husband=m.husband, wife=m.wife, year=m.year,
                                          ended=m.ended, end_cause=m.end_cause)
                              for m in final.marriages],
                   styles=styles_of(final), turn_rows=turn_rows, _final=final, names=names)


def bundle_name(slug: str) -> str:
    """The file name the site links an ended campaign's archive bundle by."""
    return f"{slug}.zip"


def _thresholds(row: StoredCampaign) -> tuple[tuple[int, int, int | None], ...]:
    """What ``chronicle end`` revealed of the thresholds; nothing before the end."""
    if row.seed_revealed is None:
        return ()
    drawn = json.loads(row.revealed or "{}").get("epidemic_thresholds", [])
    return tuple((int(d["threshold"]), int(d["drawn_turn"]),
                  None if d["replaced_turn"] is None else int(d["replaced_turn"]))
                 for d in drawn)


def _assemble(folder: Path, lineage: Lineage, event_rows: Sequence[Any],
              roll_rows: Sequence[Any], table: TableReader | None) -> SiteData:
    plugin = views_of(lineage.campaign.ruleset)
    years = {t.number: t.year for t in lineage.turn_rows}
    # Unpacked in the order load_campaign selects them.
    decoded = _json_list([f"[{payload},{subjects or '[]'},{houses or '[]'}]"
                          for _t, _s, _p, _k, payload, subjects, houses in event_rows])
    events = [_event(e, years, *parsed) for e, parsed in zip(event_rows, decoded, strict=True)]
    people, final = lineage.people, lineage._final
    _add_lives(people, events, plugin.lives)
    turns = _turns(folder, lineage.turn_rows, events, roll_rows)
    language = lineage.campaign.language
    now = table(final, lineage.campaign.turn, language) if table is not None else None
    for turn, row in zip(turns, lineage.turn_rows, strict=True):
        last = turn is turns[-1]
        turn._realms = RealmsSource(row.snapshot)
        if table is not None:
            turn.table = now if last else table(load_snapshot(row.snapshot), turn.number,
                                                language)
    data = SiteData(campaign=lineage.campaign, houses=lineage.houses, people=people,
                    turns=turns, marriages=lineage.marriages, styles=lineage.styles, table=now)
    if plugin.load is not None:
        plugin.load(data, Loaded(final=final, events=events,
                                 snapshots=[row.snapshot for row in lineage.turn_rows],
                                 names=lineage.names))
    return data


def _json_list(texts: list[str]) -> list[Any]:
    """Decode many small JSON texts with one parser call (a call costs more than a row)."""
    return list(json.loads("[" + ",".join(texts) + "]")) if texts else []


def _event(row: tuple[Any, ...], years: dict[int, int], payload: Any, subjects: Any,
           houses: Any) -> EventView:
    """An event row with its JSON columns already decoded (see ``_json_list``)."""
    turn, seq, phase, kind = row[:4]
    return EventView(turn=turn, year=years.get(turn, 0), seq=seq, phase=phase,
                     kind=kind, payload=payload if isinstance(payload, dict) else {},
                     subjects=tuple(str(s) for s in subjects if s),
                     houses=tuple(str(h) for h in houses if h))


def people_of(state: GameState, events: list[EventView]) -> dict[str, PersonView]:
    """The people of ``state``, with the lives ``events`` tell (as a load makes them)."""
    people = _people(state, _renounced(e.payload for e in events if e.kind == "renunciation"))
    _add_lives(people, events)
    return people


def _renounced(payloads: Iterable[Any]) -> dict[str, dict[str, str]]:
    """Person -> dynasty -> the number renounced there, the latest renunciation last."""
    renounced: dict[str, dict[str, str]] = defaultdict(dict)
    for payload in payloads:
        if isinstance(payload, dict):
            renounced[str(payload.get("person"))][str(payload.get("dynasty"))] = str(
                payload.get("ref"))
    return renounced


def _add_lives(people: dict[str, PersonView], events: list[EventView],
               lives: LivesOf | None = None) -> None:
    """Each person's timeline (the events naming them, and those ``lives`` says they
    are part of) and how they died."""
    timeline: dict[str, list[EventView]] = defaultdict(list)
    for event in events:
        pl = event.payload
        if event.kind == "death":
            person = people.get(str(pl.get("person")))
            if person is not None:
                person.death_detail = str(pl.get("detail") or "")
        for pid in dict.fromkeys(event.subjects):
            timeline[pid].append(event)
        for pid in lives(event) if lives is not None else ():
            if event not in timeline[pid]:
                timeline[pid].append(event)
    # ``events`` come in turn and sequence order, so each timeline already is.
    for pid, told in timeline.items():
        person = people.get(pid)
        if person is not None:
            person.timeline = told


#: The fields of a person view copied from the person as they are: the
#: persons table's columns (``storefile.PERSON_FIELDS``, which a test holds
#: equal), named here so that reading a store never loads the ORM.
PERSON_STORED = tuple(name for name in PersonView.__dataclass_fields__
                      if name not in ("slug", "death_detail", "refs", "renounced", "spouses",
                                      "children", "timeline", "reigns"))


def _people(state: GameState, renounced: dict[str, dict[str, str]]) -> dict[str, PersonView]:
    people: dict[str, PersonView] = {}
    for p in sorted(state.persons.values(), key=lambda p: (p.seq, p.id)):
        gone = renounced.get(p.id) or {}
        first = p.refs.get(p.dynasty or "") or gone.get(p.dynasty or "")
        ref = first or min([*p.refs.values(), *gone.values()], default=None)
        slug = f"{slugify(ref)}-{slugify(p.id)}" if ref else slugify(p.id, "person")
        people[p.id] = PersonView(
            **{name: getattr(p, name) for name in PERSON_STORED},
            slug=slug, death_detail="",
            refs=dict(sorted(p.refs.items())), renounced=dict(sorted(gone.items())))
    for m in state.marriages:
        for a, b in ((m.husband, m.wife), (m.wife, m.husband)):
            if a in people and b not in people[a].spouses:
                people[a].spouses.append(b)
    for person in people.values():
        for parent in (person.father, person.mother):
            if parent in people:
                people[parent].children.append(person.id)
    for h in state.houses.values():
        for reign in h.rulers:
            if reign.person in people:
                people[reign.person].reigns.append((h.id, reign.start, reign.end))
    return people


def _houses(state: GameState, people: dict[str, PersonView]) -> dict[str, HouseView]:
    houses: dict[str, HouseView] = {}
    # One pass over everyone (in order) rather than one per house.
    of_house: dict[str, list[PersonView]] = defaultdict(list)
    for person in people.values():
        for hid in person.refs:
            of_house[hid].append(person)
        if person.dynasty and person.dynasty not in person.refs:
            of_house[person.dynasty].append(person)
    for h in sorted(state.houses.values(), key=lambda h: h.id):
        members = of_house.get(h.id, [])
        claimants = sorted((p for p in members
                            if h.id in p.refs and p.alive and not p.widowed_queen),
                           key=lambda p: p.refs[h.id])
        houses[h.id] = HouseView(
            id=h.id, slug=slugify(h.id, "house"), letter=h.letter, name=h.name, law=h.law,
            color=h.color if re.fullmatch(r"#[0-9a-fA-F]{3,8}", h.color or "") else "#555555",
            player=h.player, capital=h.capital, ruler=h.ruler, eliminated=h.eliminated,
            eliminated_turn=h.eliminated_turn, treasury=h.treasury,
            rulers=[(r.person, r.start, r.end) for r in h.rulers],
            succession=[(p.id, p.refs[h.id]) for p in claimants],
            living=[p.id for p in members if p.alive],
            members=[p.id for p in members])
    return houses


def _turns(folder: Path, turn_rows: list[StoredTurn], events: list[EventView],
           roll_rows: Sequence[Any]) -> list[TurnView]:
    by_turn: dict[int, list[EventView]] = defaultdict(list)
    for event in events:
        by_turn[event.turn].append(event)
    rolls: dict[int, list[Any]] = defaultdict(list)
    for roll in roll_rows:
        rolls[roll[0]].append(roll)
    turns = []
    for t in turn_rows:
        name = f"commentary/turn-{t.number:03d}.md"
        try:
            commentary = read_inside(folder, folder / name, name) or ""
        except CampaignError as err:
            raise PublishError(str(err)) from None
        turns.append(TurnView(
            number=t.number, year=t.year, events=by_turn.get(t.number, []),
            roll_rows=rolls.get(t.number, []), commentary=commentary,
            defaulted=sorted(str(h) for h in json.loads(t.defaulted or "[]")),
            adjudicated_at=t.adjudicated_at))
    return turns

"""The store file as SQLite sees it: its refusals, its snapshots, and reading it plainly.

Everything here stands on Python's own ``sqlite3``. The tables are declared
once, as SQLModel classes (``chronicle.store.models``), which only ``chronicle.store.schema``
turns into SQL; a command that only reads the store, as ``chronicle build``
does, reads the columns it needs here (measured in pairs, a demo-sized build
then took 0.80× the time, and ``check`` and ``status`` of an 11,000-person
campaign half), and ``chronicle.store.turns`` writes it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import weakref
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicator.state import DeadRecords, GameState, LentDead
from chronicle.errors import StoreError

SNAPSHOT_LEVEL = 6

#: The version of the tables' declarations (``chronicle.store.models``), stamped into
#: every store this version makes, brings up to date or stores a turn in
#: (SQLite's ``user_version``): a store stamped with it is opened and written
#: without the ORM. Raise it with any change to the declarations; a test holds
#: it to them (``chronicle.store.schema.digest``).
SCHEMA_VERSION = 1

# Seconds a command waits for another to finish with the store (a build reading
# it, a turn being written) before it gives up with the message ``BUSY``.
BUSY_TIMEOUT = 5.0


BUSY = ("the store is busy: another command is using it (a turn being written, a site "
        "being built); try again once it is done")


def is_busy(err: BaseException) -> bool:
    """True if ``err`` is SQLite's refusal of a store another connection holds."""
    return "database is locked" in str(err)


def is_read_only(err: BaseException) -> bool:
    """True if ``err`` is SQLite's refusal to write a read-only store."""
    return "readonly database" in str(err) or "read-only" in str(err)


def store_failure(err: BaseException) -> str | None:
    """SQLite's refusal in a user's words, or None if ``err`` is no such refusal
    (a bug). In every case SQLite has rolled back what was being written."""
    text = str(err)
    if is_busy(err):
        return BUSY
    if "disk is full" in text:
        return "the disk is full; nothing was stored (free some space and run it again)"
    if is_read_only(err):
        return "the store is read-only; nothing was stored"
    if "unable to open database file" in text:
        return "cannot be opened (is its folder read-only, or gone?)"
    if "disk I/O error" in text:
        return "the disk failed to read or write it; nothing was stored"
    if "too big" in text or "file is too large" in text:
        return "the store has grown larger than this file system allows; nothing was stored"
    return None


def dump_snapshot(state: GameState, *, living_only: bool = False) -> bytes:
    data = state.to_dict(living_only=living_only)
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return zlib.compress(text.encode("utf-8"), SNAPSHOT_LEVEL)


def load_snapshot(blob: bytes, archived: Iterable[str] = ()) -> GameState:
    """A state from its snapshot, with the archived dead put back in order."""
    data = json.loads(zlib.decompress(blob))
    texts = list(archived)
    # One parser call for all the dead: a call costs more than a small row.
    dead = json.loads("[" + ",".join(texts) + "]") if texts else []
    if dead:
        data["persons"] = sorted(data["persons"] + dead, key=lambda p: p["seq"])
    return GameState.from_dict(data)


# -- reading without the ORM ------------------------------------------------------


@dataclass(frozen=True)
class StoredCampaign:
    """The campaign's row, as the site reads it."""

    slug: str
    title: str
    ruleset: str
    start_year: int
    end_year: int | None
    target: int | None
    seed_commitment: str
    language: str
    initial: bytes
    seed_revealed: str | None
    revealed: str


@dataclass(frozen=True)
class StoredTurn:
    """A turn's row, as the site reads it."""

    number: int
    year: int
    snapshot: bytes
    defaulted: str  # JSON: the houses that sent no usable orders
    adjudicated_at: str | None


@dataclass(frozen=True)
class StoredEvent:
    """An event's row, as the store gives it back (payload, subjects, houses: JSON)."""

    turn: int
    seq: int
    phase: str
    kind: str
    public: bool
    payload: str
    subjects: str
    houses: str


#: The fields of a house, a person, a marriage and a unit the store keeps as they
#: are, in their tables' order (the others are JSON, or tables of their own);
#: the JSON export names the same. A test holds them to the tables' declarations.
HOUSE_FIELDS = ("id", "letter", "name", "law", "player", "color", "capital", "ruler",
                "eliminated", "eliminated_turn", "treasury")
PERSON_FIELDS = ("id", "seq", "name", "sex", "born", "died", "death_cause", "dynasty",
                 "court", "father", "mother", "spouse", "constitution", "command", "ruse",
                 "founder", "prisoner_of", "unit", "widowed_queen", "king_consort")
MARRIAGE_FIELDS = ("id", "husband", "wife", "turn", "year", "children_dynasty", "ended",
                   "end_cause")
UNIT_FIELDS = ("id", "house", "type", "armies", "province")


def values(record: object, names: tuple[str, ...]) -> dict[str, object]:
    """``record``'s attributes ``names``, as a dict in that order."""
    return {name: getattr(record, name) for name in names}


_CAMPAIGN = tuple(StoredCampaign.__dataclass_fields__)
_EVENT = tuple(StoredEvent.__dataclass_fields__)
_TURN = tuple(StoredTurn.__dataclass_fields__)

#: Every column a reader reads, by table: a store lacking one was made by an
#: earlier version, and is brought up to date (``Store.open``) first.
READ_COLUMNS: dict[str, tuple[str, ...]] = {
    "campaign": _CAMPAIGN,
    "turns": _TURN,
    "archive": ("data", "turn"),
    "events": ("id", *_EVENT),
    "rolls": ("id", "turn", "seq", "phase", "purpose", "subject", "dice", "faces", "total",
              "secret"),
}


class StoreReader:
    """One read transaction on a store: every query sees the same state of it."""

    def __init__(self, connection: sqlite3.Connection, path: Path) -> None:
        self._connection = connection
        # As its opener named it (SQLite gives names back only in UTF-8), from the
        # folder the command started in, should it move to another.
        self.path = path.absolute()

    def rows(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        return self._connection.execute(sql, params).fetchall()

    def campaign(self) -> StoredCampaign | None:
        found = self.rows(f"SELECT {', '.join(_CAMPAIGN)} FROM campaign ORDER BY id LIMIT 1")
        return StoredCampaign(*found[0]) if found else None

    def turns(self) -> list[StoredTurn]:
        return [StoredTurn(*row)
                for row in self.rows(f"SELECT {', '.join(_TURN)} FROM turns ORDER BY number")]

    def last_turn(self) -> tuple[int, int] | None:
        """The last turn's number and year, without its snapshot."""
        found = self.rows("SELECT number, year FROM turns ORDER BY number DESC LIMIT 1")
        return (found[0][0], found[0][1]) if found else None

    def snapshot(self, turn: int) -> bytes:
        """Turn ``turn``'s snapshot, as stored."""
        found = self.rows("SELECT snapshot FROM turns WHERE number = ?", turn)
        if not found:
            raise StoreError(f"turn {turn} was never adjudicated")
        return bytes(found[0][0])

    def state(self, turn: int | None = None) -> GameState:
        """The state at the end of ``turn`` (default: the last), turn 0 = the start."""
        if turn is None:
            last = self.last_turn()
            turn = last[0] if last else 0
        if turn == 0:
            campaign = self.campaign()
            if campaign is None:
                raise StoreError("the store has no campaign")
            return load_snapshot(campaign.initial)
        archived = self.rows("SELECT data FROM archive WHERE turn <= ?", turn)
        return load_snapshot(self.snapshot(turn), (data for (data,) in archived))

    def state_to_play(self, *, kept: bool = False) -> GameState:
        """The state at the end of the last turn, to play the next one from.

        Its living are decoded; its dead are lent (``adjudicator.state.People``):
        their names from the tables, their records and numbers read from the
        store when asked for (``ArchivedDead``), so that a turn's cost follows
        the living, not everyone who ever lived. ``kept``: read those too, at
        once, for a store that will be gone before the state is (a preview's
        copy).
        """
        last = self.last_turn()
        if last is None:
            return self.state(0)
        turn = last[0]
        # The tables hold everyone as they were last: the dead, as they died.
        people = self.rows("SELECT p.id, p.name, p.seq FROM persons p "
                           "JOIN archive a ON a.person = p.id WHERE a.turn <= ? "
                           "ORDER BY p.seq", turn)
        snapshot = self.snapshot(turn)
        records: DeadRecords
        if kept:
            records = KeptDead(dict(self.rows(_RECORDS, turn)), self.rows(_REFS, turn))
        else:
            records = ArchivedDead(self.path, turn, _snapshot_print(snapshot))
        data = json.loads(zlib.decompress(snapshot))
        return GameState.from_dict(data, LentDead(people, records))

    def events(self, *, public_only: bool = True) -> list[StoredEvent]:
        """The stored events in order (the public ones only, by default)."""
        where = "WHERE public " if public_only else ""
        return [StoredEvent(turn, seq, phase, kind, bool(public), payload, subjects, houses)
                for turn, seq, phase, kind, public, payload, subjects, houses in self.rows(
                    f"SELECT {', '.join(_EVENT)} FROM events {where}ORDER BY turn, seq")]

    def defaulted_counts(self) -> dict[str, int]:
        """Per house, the stored turns it sent no usable orders for (its NMR count)."""
        counts: dict[str, int] = {}
        for (text,) in self.rows("SELECT defaulted FROM turns"):
            for house in json.loads(text or "[]"):
                counts[house] = counts.get(house, 0) + 1
        return counts


#: The records of the dead up to a turn, and the numbers they held, in order.
_RECORDS = "SELECT person, data FROM archive WHERE turn <= ?"
_REFS = ("SELECT c.ref, c.person FROM claims c JOIN persons p ON p.id = c.person "
         "JOIN archive a ON a.person = c.person "
         "WHERE c.renounced_turn IS NULL AND a.turn <= ? ORDER BY p.seq")


def _snapshot_print(snapshot: bytes) -> bytes:
    return hashlib.blake2b(snapshot, digest_size=16).digest()


class KeptDead:
    """The dead's records (by id) and numbers (``every_ref``), held in memory
    (``adjudicator.state.DeadRecords``)."""

    def __init__(self, texts: Mapping[str, str], refs: Sequence[tuple[str, str]]) -> None:
        self._texts = texts
        self._refs = refs
        self._holders = dict(refs)  # of two holders, the later

    def record(self, pid: str) -> str | None:
        return self._texts.get(pid)

    def holder(self, ref: str) -> str | None:
        return self._holders.get(ref)

    def every_ref(self) -> Iterable[tuple[str, str]]:
        return self._refs


class ArchivedDead:
    """The dead of the store at ``path`` up to ``turn``, read one at a time
    (``adjudicator.state.DeadRecords``).

    Through a connection of their own, opened at the first question: the state
    they are lent to outlives the connection it was read through (a turn's
    reports are written once the store is closed). The dead of turns up to
    ``turn`` never change while the store holds that turn as it was read (its
    snapshot's ``snapshot_print``); a command that reads without holding the
    campaign (``check``, ``status``) could meet a rollback, so each question
    checks, in the same read, that nothing else wrote the store since it last
    looked, or else that the turn is still the one read.
    """

    def __init__(self, path: Path, turn: int, snapshot_print: bytes) -> None:
        self._path, self._turn, self._print = path, turn, snapshot_print
        self._connection: sqlite3.Connection | None = None
        self._seen: int | None = None  # the store's ``data_version`` when last checked

    def __reduce__(self) -> tuple[Any, ...]:
        return (ArchivedDead, (self._path, self._turn, self._print))

    def _rows(self, sql: str, *params: object) -> list[tuple[Any, ...]]:
        connection = self._connection
        if connection is None:
            connection = self._connection = connect(self._path, any_thread=True)
            weakref.finalize(self, connection.close)
        connection.execute("BEGIN")
        try:
            (seen,), = connection.execute("PRAGMA data_version").fetchall()
            if seen != self._seen:
                found = connection.execute("SELECT snapshot FROM turns WHERE number = ?",
                                           (self._turn,)).fetchall()
                if not found or _snapshot_print(bytes(found[0][0])) != self._print:
                    raise StoreError(
                        f"{self._path.name}: the store changed while this command read it "
                        "(a rollback?): run the command again")
                self._seen = seen
            return connection.execute(sql, params).fetchall()
        finally:
            connection.execute("COMMIT")

    def record(self, pid: str) -> str | None:
        found = self._rows("SELECT data FROM archive WHERE person = ? AND turn <= ?", pid,
                           self._turn)
        return str(found[0][0]) if found else None

    def holder(self, ref: str) -> str | None:
        found = self._rows("SELECT c.person FROM claims c "
                           "JOIN archive a ON a.person = c.person "
                           "JOIN persons p ON p.id = c.person "
                           "WHERE c.ref = ? AND c.renounced_turn IS NULL AND a.turn <= ? "
                           "ORDER BY p.seq DESC LIMIT 1", ref, self._turn)
        return str(found[0][0]) if found else None

    def every_ref(self) -> Iterable[tuple[str, str]]:
        return self._rows(_REFS, self._turn)


def missing_columns(connection: sqlite3.Connection) -> bool:
    for table, wanted in READ_COLUMNS.items():
        present = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
        if not present.issuperset(wanted):
            return True
    return False


def connect(path: Path, *, existing: bool = True, any_thread: bool = False
            ) -> sqlite3.Connection:
    """A connection to the store at ``path``, in autocommit: every transaction is
    its user's own ``BEGIN``, never one the driver opens on its own.
    ``existing``: a store that is not there is an error, not an empty file
    made in its place (``mode=rw``; a read-only file is still read).
    ``any_thread``: usable from any thread (SQLite serialises the calls)."""
    uri = path.absolute().as_uri() + ("?mode=rw" if existing else "")
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT, isolation_level=None,
                                 check_same_thread=not any_thread)
    try:
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("PRAGMA synchronous=FULL")
    except BaseException:
        connection.close()
        raise
    return connection


@contextmanager
def connected(path: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(path)
    try:
        yield connection
    finally:
        connection.close()

"""Writing turns into the chronicle store, one transaction per turn.

Adjudication happens entirely in memory; only its finished result is written,
inside a single SQLite transaction. A failure or a kill before the commit
leaves the file exactly as it was at the end of the previous turn.

The store speaks plain ``sqlite3``. The tables are declared once, as SQLModel
classes (``chronicle.store.models``), and turned into SQL by ``chronicle.store.schema``,
which only a new store, or one made by an earlier version, needs (measured in
pairs, ``chronicle adjudicate`` of an 11,000-person campaign then took 0.71×
the time it took through the ORM).
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path
from typing import Any

from adjudicator.dice import Roll
from adjudicator.events import Event
from adjudicator.orders import Rejection
from adjudicator.rulesets.base import Ruleset, TurnResult
from adjudicator.state import GameState, House, Marriage, Person
from chronicle.campaign.orders import TurnOrders
from chronicle.errors import StoreError
from chronicle.rulesets import descriptor
from chronicle.store.file import (
    BUSY,
    BUSY_TIMEOUT,
    HOUSE_FIELDS,
    MARRIAGE_FIELDS,
    PERSON_FIELDS,
    SCHEMA_VERSION,
    StoredCampaign,
    StoredEvent,
    StoreReader,
    connect,
    dump_snapshot,
    is_busy,
    is_read_only,
    store_failure,
    values,
)


def copy_store(source: Path, target: Path) -> None:
    """Copy the store at ``source`` to ``target`` as one state of it.

    Through SQLite's backup, not the file: a copy of the bytes taken while a
    turn is being written could hold half of it.
    """
    try:
        src = sqlite3.connect(source, timeout=BUSY_TIMEOUT)
        try:
            # The backup itself would wait for a busy store forever: a read
            # transaction taken first waits only so long, then holds the store
            # still for the copy.
            src.execute("BEGIN")
            src.execute("SELECT count(*) FROM sqlite_master").fetchone()
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
    except sqlite3.DatabaseError as err:
        if is_busy(err):
            raise StoreError(f"{source.name}: {BUSY}") from None
        raise StoreError(f"{source.name}: not a chronicle store ({type(err).__name__})") from None


class Store:
    """A campaign's chronicle store."""

    def __init__(self, connection: sqlite3.Connection, ruleset: Ruleset | None = None, *,
                 path: Path) -> None:
        """``ruleset`` is needed to write (it values the units), not to read;
        ``path``: the store's file, as ``connection`` was opened on it."""
        self.connection = connection
        self.ruleset = ruleset
        self._read = StoreReader(connection, path)
        (self._version,), = connection.execute("PRAGMA user_version").fetchall()

    def close(self) -> None:
        self.connection.close()

    @classmethod
    def open(cls, path: Path, ruleset: Ruleset | None = None) -> Store:
        """The store at ``path``, brought up to date first if an earlier version made it."""
        if not path.exists():
            raise StoreError(f"{path.name}: no store yet; adjudicate a turn first")
        connection: sqlite3.Connection | None = None
        try:
            connection = connect(path)
            (version,), = connection.execute("PRAGMA user_version").fetchall()
            if version < SCHEMA_VERSION:
                from chronicle.store.schema import upgrade

                upgrade(connection)
            store = cls(connection, ruleset, path=path)
            store._read.campaign()
        except Exception as err:  # a foreign, damaged or read-only file
            if connection is not None:
                connection.close()
            if is_read_only(err):
                raise StoreError(f"{path.name}: made by an older version of Chronicle, and "
                                 "read-only, so it cannot be brought up to date") from None
            why = store_failure(err) if isinstance(err, sqlite3.Error) else None
            if why is not None:
                raise StoreError(f"{path.name}: {why}") from None
            raise StoreError(f"{path.name}: not a chronicle store ({type(err).__name__})") from None
        return store

    @classmethod
    def create(cls, path: Path, campaign: Mapping[str, Any], initial: GameState,
               ruleset: Ruleset, rolls: Sequence[Roll] = ()) -> Store:
        """A new store at ``path`` (which must not exist) holding the campaign's row
        (``campaign``: its columns but ``initial``) and its starting state."""
        from chronicle.store.schema import create

        store = cls(connect(path, existing=False), ruleset, path=path)
        try:
            with store._transaction() as db:
                create(db)
                _insert(db, "campaign", [{"id": 1, "seed_revealed": None, "revealed": "{}",
                                          **campaign, "initial": dump_snapshot(initial)}])
                _write_tables(db, initial, None, ruleset)
                _insert_rolls(db, rolls)
        except BaseException:
            store.close()
            raise
        return store

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is stored, or none of it.

        ``IMMEDIATE``: the store is reserved for this writer from the start, so
        what the transaction reads before it writes is what it writes over.
        """
        db = self.connection
        db.execute("BEGIN IMMEDIATE")
        try:
            if self._version < SCHEMA_VERSION:
                # A store made before stores carried their version, found to lack
                # nothing when opened (``schema.upgrade``): stamped with what it
                # holds, with the first change this version makes to it.
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._version = max(self._version, SCHEMA_VERSION)

    # -- reading ---------------------------------------------------------------
    def campaign(self) -> StoredCampaign:
        row = self._read.campaign()
        if row is None:
            raise StoreError("the store has no campaign")
        return row

    def last_turn(self) -> int:
        last = self._read.last_turn()
        return last[0] if last else 0

    def state(self, turn: int | None = None) -> GameState:
        """The state at the end of ``turn`` (default: the last), turn 0 = the start."""
        return self._read.state(turn)

    def state_to_play(self, *, kept: bool = False) -> GameState:
        """The last turn's state, its dead lent (``StoreReader.state_to_play``)."""
        return self._read.state_to_play(kept=kept)

    def events(self, *, public_only: bool = True) -> list[StoredEvent]:
        return self._read.events(public_only=public_only)

    def snapshot(self, turn: int) -> bytes:
        """Turn ``turn``'s snapshot, as stored."""
        return self._read.snapshot(turn)

    def rolls(self, *, secret_only: bool = False) -> list[Roll]:
        """Every die in order, or every secret one (for what the end reveals)."""
        where = "WHERE secret " if secret_only else ""
        return [Roll(turn=turn, phase=phase, seq=seq, purpose=purpose, subject=subject,
                     dice=dice, faces=tuple(json.loads(faces)), total=total, secret=bool(secret))
                for turn, seq, phase, purpose, subject, dice, faces, total, secret
                in self._read.rows("SELECT turn, seq, phase, purpose, subject, dice, faces, "
                                   f"total, secret FROM rolls {where}ORDER BY turn, seq, id")]

    def secret_rolls(self) -> list[Roll]:
        """Every secret die, in order (for what the end reveals)."""
        return self.rolls(secret_only=True)

    def turn_inputs(self, turn: int) -> tuple[list[tuple[str, str, str, str | None]],
                                              list[str], str, bytes]:
        """What turn ``turn`` was resolved from: its order files (house, file, text,
        refused), the folder's file problems, the orders' digest; and its snapshot."""
        found = self._read.rows("SELECT problems, orders_digest, snapshot FROM turns "
                                "WHERE number = ?", turn)
        if not found:
            raise StoreError(f"turn {turn} was never adjudicated")
        (problems, digest, snapshot), = found
        files = [(house, file or f"{house}.orders", text, refused)
                 for house, file, text, refused in self._read.rows(
                     "SELECT house, file, text, refused FROM order_files WHERE turn = ? "
                     "ORDER BY house", turn)]
        return files, list(json.loads(problems or "[]")), digest, bytes(snapshot)

    # -- writing ---------------------------------------------------------------
    def _writer(self) -> Ruleset:
        if self.ruleset is None:
            raise TypeError("a store opened without its ruleset is for reading only")
        return self.ruleset

    def commit_turn(self, previous: GameState, result: TurnResult, orders: TurnOrders,
                    *, adjudicated_at: str | None = None) -> bytes:
        """Write one adjudicated turn atomically: all of it or none of it.

        Everything the turn was resolved from is kept with it (the order
        files, and the folder's file problems for the arbiter's report), so
        that its reports can be written again from the store alone. Returns the
        turn's snapshot as stored. ``adjudicated_at`` is when it was adjudicated
        (for the feed): kept beside the turn, never part of its state.
        """
        state = result.state
        snapshot = dump_snapshot(state, living_only=True)
        ruleset = self._writer()
        with self._transaction() as db:
            if db.execute("SELECT 1 FROM turns WHERE number = ?", (state.turn,)).fetchone():
                raise StoreError(f"turn {state.turn} is already in the store")
            # The turn was resolved from ``previous``: if the store is no longer
            # there (a rollback, say), storing it would mix two histories.
            (last,), = db.execute("SELECT coalesce(max(number), 0) FROM turns").fetchall()
            if last != previous.turn:
                raise StoreError(
                    f"the store changed while turn {state.turn} was being resolved (it now "
                    f"ends at turn {last}); nothing was stored: run the command again")
            _insert(db, "turns", [dict(number=state.turn, year=state.year_of(state.turn),
                                       snapshot=snapshot, orders_digest=orders.digest,
                                       defaulted=json.dumps(result.defaulted),
                                       problems=json.dumps(orders.problems),
                                       adjudicated_at=adjudicated_at)])
            _write_tables(db, state, previous, ruleset)
            _archive_dead(db, state, previous)
            _insert_events(db, state.turn, result.events)
            _insert_rolls(db, result.rolls)
            _insert_rejections(db, state.turn, result.rejections)
            _insert(db, "order_files", [
                dict(turn=state.turn, house=house, text=text, refused=refused,
                     file=orders.files.get(house, f"{house}.orders"))
                for house, (text, refused) in sorted(orders.texts.items())])
        return snapshot

    def rollback(self, to: int) -> None:
        """Return the store to the end of turn ``to``, in one transaction."""
        target = self.state(to)
        ruleset = self._writer()
        with self._transaction() as db:
            db.execute("DELETE FROM turns WHERE number > ?", (to,))
            for table in ("events", "rolls", "rejections", "order_files", "archive"):
                db.execute(f"DELETE FROM {table} WHERE turn > ?", (to,))
            _write_tables(db, target, None, ruleset)

    def reveal(self, seed: str, revealed: Mapping[str, Any]) -> None:
        """End the campaign's secrecy: the seed, and what its end reveals besides."""
        with self._transaction() as db:
            changed = db.execute("UPDATE campaign SET seed_revealed = ?, revealed = ?",
                                 (seed, json.dumps(revealed, sort_keys=True))).rowcount
            if changed != 1:
                raise StoreError("the store has no campaign")


#: The tables holding the state at the end of the last turn, for the site and the export;
#: the next turn is played with the names and numbers of the dead they hold
#: (``StoreReader.state_to_play``). A ruleset's own things have tables of their own
#: (``Descriptor.store_tables``), rewritten whole.
_TABLES = ("houses", "persons", "marriages", "claims")


def _rows(houses: Iterable[House], persons: Iterable[Person],
          marriages: Iterable[Marriage]) -> dict[str, list[dict[str, Any]]]:
    """The normalised rows of the given houses, people and marriages."""
    rows: dict[str, list[dict[str, Any]]] = {t: [] for t in _TABLES}
    for h in houses:
        rows["houses"].append({**values(h, HOUSE_FIELDS),
                               "rulers": json.dumps([r.to_list() for r in h.rulers])})
    for p in persons:
        rows["persons"].append(values(p, PERSON_FIELDS))
        for dynasty, ref in p.refs.items():
            rows["claims"].append(dict(person=p.id, dynasty=dynasty, ref=ref,
                                       renounced_turn=None))
        for dynasty, turn in p.renounced.items():
            if dynasty not in p.refs:
                rows["claims"].append(dict(person=p.id, dynasty=dynasty,
                                           ref=f"-{p.id}-{dynasty}", renounced_turn=turn))
    for m in marriages:
        rows["marriages"].append(values(m, MARRIAGE_FIELDS))
    return rows


def _write_tables(db: sqlite3.Connection, state: GameState, previous: GameState | None,
                  ruleset: Ruleset) -> None:
    """Replace the normalised tables with ``state``.

    ``previous`` lets a turn write only what changed. The dead and ended
    marriages of ``previous`` cannot change any more, so only its living and
    open marriages, and what the turn added, are compared: a turn costs what
    the living cost, not the whole century.
    """
    if previous is None:
        rows = _rows(state.houses.values(), state.persons.values(), state.marriages)
        old = None
    else:
        # A record equal to its previous self makes the same rows: only those the
        # turn changed are compared (about half the living, in a long campaign).
        people = [p for p in previous.living() if state.persons[p.id] != p]
        fresh_people = list(itertools.islice(state.persons.values(),
                                             len(previous.persons), None))
        open_at = [i for i, m in enumerate(previous.marriages)
                   if m.ended is None and state.marriages[i] != m]
        rows = _rows(state.houses.values(),
                     [state.persons[p.id] for p in people] + fresh_people,
                     [state.marriages[i] for i in open_at]
                     + state.marriages[len(previous.marriages):])
        old = _rows(previous.houses.values(), people, [previous.marriages[i] for i in open_at])
    whole = descriptor(state.ruleset).store_tables(state, ruleset.rules)
    for table in (*_TABLES, *whole):
        new_rows = whole[table] if table in whole else rows[table]
        if old is None or table in whole or table == "houses":
            db.execute(f"DELETE FROM {table}")
            _insert(db, table, new_rows)
            continue
        # Rows are replaced by owner: a person's claims go with the person.
        owner = "person" if table == "claims" else "id"
        before: dict[str, list[dict[str, Any]]] = {}
        after: dict[str, list[dict[str, Any]]] = {}
        for row in old[table]:
            before.setdefault(row[owner], []).append(row)
        for row in new_rows:
            after.setdefault(row[owner], []).append(row)
        stale = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for start in range(0, len(stale), 500):
            chunk = stale[start:start + 500]
            db.execute(f"DELETE FROM {table} WHERE {owner} IN ({', '.join('?' * len(chunk))})",
                       chunk)
        _insert(db, table, [r for k in stale for r in after.get(k, [])])


def _archive_dead(db: sqlite3.Connection, state: GameState, previous: GameState) -> None:
    """Store, once, everyone who died this turn (or was born and died in it)."""
    rows = []
    for pid, person in state.persons.items():
        if person.died is None:
            continue
        before = previous.persons.get(pid)
        if before is None or before.died is None:
            rows.append(dict(person=pid, turn=state.turn,
                             data=json.dumps(person.to_dict(), sort_keys=True)))
    _insert(db, "archive", rows)


def _insert(db: sqlite3.Connection, table: str, rows: Sequence[dict[str, Any]]) -> None:
    """Insert ``rows`` (dicts with the same keys, which are ``table``'s columns)."""
    if rows:
        columns = tuple(rows[0])
        pick = itemgetter(*columns)  # for a single column, the bare value
        _insert_values(db, table, columns, (pick(r) if len(columns) > 1 else (pick(r),)
                                            for r in rows))


def _insert_values(db: sqlite3.Connection, table: str, columns: Sequence[str],
                   values: Iterable[tuple[Any, ...]]) -> None:
    """Insert ``values``, one tuple of ``columns`` each: a turn's events and dice go
    straight from their records to SQLite (tens of thousands of rows a turn)."""
    db.executemany(f"INSERT INTO {table} ({', '.join(columns)}) "
                   f"VALUES ({', '.join('?' * len(columns))})", values)


def _insert_events(db: sqlite3.Connection, turn: int, events: Iterable[Event]) -> None:
    _insert_values(db, "events", ("turn", "seq", "phase", "kind", "public", "payload",
                                  "subjects", "houses"),
                   ((turn, i, e.phase, e.kind, e.public,
                     json.dumps(e.payload(), sort_keys=True, ensure_ascii=False),
                     json.dumps(e.subjects()), json.dumps(e.houses()))
                    for i, e in enumerate(events, start=1)))


def _insert_rolls(db: sqlite3.Connection, rolls: Iterable[Roll]) -> None:
    _insert_values(db, "rolls", ("turn", "seq", "phase", "purpose", "subject", "dice", "faces",
                                 "total", "secret"),
                   ((r.turn, r.seq, r.phase, r.purpose, r.subject, r.dice,
                     json.dumps(list(r.faces)), r.total, r.secret) for r in rolls))


def _insert_rejections(db: sqlite3.Connection, turn: int,
                       rejections: Iterable[Rejection]) -> None:
    rows = [dict(turn=turn, house=r.house or "", file=r.file, line=r.line, text=r.text,
                 reason=r.reason) for r in rejections]
    _insert(db, "rejections", rows)

"""Writing turns into the chronicle store, one transaction per turn.

Adjudication happens entirely in memory; only its finished result is written,
inside a single SQLite transaction. A failure or a kill before the commit
leaves the file exactly as it was at the end of the previous turn.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import delete, event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.schema import CreateIndex, CreateTable
from sqlmodel import Session, SQLModel, col, create_engine, select

from adjudicator.dice import Roll
from adjudicator.events import Event
from adjudicator.orders import Rejection
from adjudicator.rulesets.base import Ruleset, TurnResult
from adjudicator.state import GameState, House, Marriage, Person
from chronicle.models import (
    HOUSE_FIELDS,
    MARRIAGE_FIELDS,
    PERSON_FIELDS,
    UNIT_FIELDS,
    ArchiveRow,
    CampaignRow,
    ClaimRow,
    EventRow,
    HouseRow,
    MarriageRow,
    OrderFileRow,
    PersonRow,
    ProvinceRow,
    RejectionRow,
    RollRow,
    TurnRow,
    UnitRow,
    values,
)
from chronicle.orders_io import TurnOrders
from chronicle.storefile import (  # noqa: F401  # the store's refusals, named here too
    BUSY,
    BUSY_TIMEOUT,
    StoreError,
    dump_snapshot,
    is_busy,
    is_read_only,
    load_snapshot,
    store_failure,
)


def _upgrade(engine: Engine, present: set[str]) -> None:
    """Bring a store made by an earlier version up to date, in one transaction.

    Versions only ever add tables and columns (with their defaults), so an
    earlier store gains what it lacks and nothing else changes: a campaign
    outlives the version of Chronicle it started with.
    """
    columns = {name: {c["name"] for c in inspect(engine).get_columns(name)} for name in present}
    statements = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in present:
            statements.append(CreateTable(table).compile(engine).string)
            statements += [CreateIndex(index).compile(engine).string for index in table.indexes]
            continue
        for column in table.columns:
            if column.name in columns[table.name]:
                continue
            default = getattr(column.default, "arg", None)
            if callable(default):
                raise StoreError(f"cannot add column {table.name}.{column.name}")
            literal = "NULL" if default is None else _sql_literal(default)
            statements.append(f"ALTER TABLE {table.name} ADD COLUMN {column.name} "
                              f"{column.type.compile(engine.dialect)} DEFAULT {literal}")
    if statements:
        with engine.begin() as connection:
            for statement in statements:
                connection.exec_driver_sql(statement)


def _sql_literal(value: object) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, bytes):
        return f"X'{value.hex()}'"
    raise TypeError(f"no SQL literal for {value!r}")


def _pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


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


def open_engine(path: Path | str) -> Engine:
    url = "sqlite://" if str(path) == ":memory:" else f"sqlite:///{path}"
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT})
    event.listen(engine, "connect", _pragmas)
    return engine


class Store:
    """A campaign's chronicle store."""

    def __init__(self, engine: Engine, ruleset: Ruleset | None = None) -> None:
        """``ruleset`` is needed to write (it values the units), not to read."""
        self.engine = engine
        self.ruleset = ruleset

    @classmethod
    def open(cls, path: Path, ruleset: Ruleset | None = None) -> Store:
        if not path.exists():
            raise StoreError(f"{path.name}: no store yet; adjudicate a turn first")
        store = cls(open_engine(path), ruleset)
        try:
            present = set(inspect(store.engine).get_table_names())
            if "campaign" not in present:
                raise StoreError("no campaign table")
            _upgrade(store.engine, present)
            with Session(store.engine) as session:
                session.exec(select(CampaignRow)).first()
        except Exception as err:  # a foreign, damaged or read-only file
            store.engine.dispose()
            if is_busy(err):
                raise StoreError(f"{path.name}: {BUSY}") from None
            if is_read_only(err):
                raise StoreError(f"{path.name}: made by an older version of Chronicle, and "
                                 "read-only, so it cannot be brought up to date") from None
            raise StoreError(f"{path.name}: not a chronicle store ({type(err).__name__})") from None
        return store

    @classmethod
    def create(cls, path: Path | str, campaign: CampaignRow, initial: GameState,
               ruleset: Ruleset, rolls: Sequence[Roll] = ()) -> Store:
        store = cls(open_engine(path), ruleset)
        SQLModel.metadata.create_all(store.engine)
        campaign.initial = dump_snapshot(initial)
        with Session(store.engine) as session, session.begin():
            session.add(campaign)
            _write_tables(session, initial, None, ruleset)
            _insert_rolls(session, rolls)
        return store

    # -- reading ---------------------------------------------------------------
    def campaign(self) -> CampaignRow:
        with Session(self.engine) as session:
            row = session.exec(select(CampaignRow)).one()
            session.expunge(row)
            return row

    def last_turn(self) -> int:
        with Session(self.engine) as session:
            numbers = session.exec(select(TurnRow.number)).all()
            return max(numbers, default=0)

    def state(self, turn: int | None = None) -> GameState:
        """The state at the end of ``turn`` (default: the last), turn 0 = the start."""
        with Session(self.engine) as session:
            if turn is None:
                turn = max(session.exec(select(TurnRow.number)).all(), default=0)
            if turn == 0:
                return load_snapshot(session.exec(select(CampaignRow)).one().initial)
            row = session.get(TurnRow, turn)
            if row is None:
                raise StoreError(f"turn {turn} was never adjudicated")
            archived = session.exec(select(ArchiveRow.data).where(ArchiveRow.turn <= turn)).all()
            return load_snapshot(row.snapshot, archived)

    def secret_rolls(self) -> list[Roll]:
        """Every secret die, in order (for what the end reveals)."""
        with Session(self.engine) as session:
            rows = session.exec(select(RollRow).where(RollRow.secret == True)  # noqa: E712
                                .order_by(col(RollRow.turn), col(RollRow.seq)))
            return [Roll(turn=r.turn, phase=r.phase, seq=r.seq, purpose=r.purpose,
                         subject=r.subject, dice=r.dice, faces=tuple(json.loads(r.faces)),
                         total=r.total, secret=True) for r in rows]

    def events(self, *, public_only: bool = True) -> list[EventRow]:
        with Session(self.engine) as session:
            query = select(EventRow).order_by(EventRow.turn, EventRow.seq)  # type: ignore[arg-type]
            if public_only:
                query = query.where(EventRow.public == True)  # noqa: E712
            rows = list(session.exec(query).all())
            for row in rows:
                session.expunge(row)
            return rows

    def snapshot(self, turn: int) -> bytes:
        """Turn ``turn``'s snapshot, as stored."""
        with Session(self.engine) as session:
            row = session.get(TurnRow, turn)
            if row is None:
                raise StoreError(f"turn {turn} was never adjudicated")
            return row.snapshot

    def turn_inputs(self, turn: int) -> tuple[list[tuple[str, str, str, str | None]],
                                              list[str], str, bytes]:
        """What turn ``turn`` was resolved from: its order files (house, file, text,
        refused), the folder's file problems, the orders' digest; and its snapshot."""
        with Session(self.engine) as session:
            row = session.get(TurnRow, turn)
            if row is None:
                raise StoreError(f"turn {turn} was never adjudicated")
            files = [(f.house, f.file or f"{f.house}.orders", f.text, f.refused)
                     for f in session.exec(select(OrderFileRow)
                                           .where(OrderFileRow.turn == turn))]
            return files, list(json.loads(row.problems or "[]")), row.orders_digest, row.snapshot

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
        with Session(self.engine) as session, session.begin():
            if session.get(TurnRow, state.turn) is not None:
                raise StoreError(f"turn {state.turn} is already in the store")
            # The turn was resolved from ``previous``: if the store is no longer
            # there (a rollback, say), storing it would mix two histories.
            last = max(session.exec(select(TurnRow.number)).all(), default=0)
            if last != previous.turn:
                raise StoreError(
                    f"the store changed while turn {state.turn} was being resolved (it now "
                    f"ends at turn {last}); nothing was stored: run the command again")
            session.add(TurnRow(number=state.turn, year=state.year_of(state.turn),
                                snapshot=snapshot,
                                orders_digest=orders.digest,
                                defaulted=json.dumps(result.defaulted),
                                problems=json.dumps(orders.problems),
                                adjudicated_at=adjudicated_at))
            _write_tables(session, state, previous, self._writer())
            _archive_dead(session, state, previous)
            _insert_events(session, state.turn, result.events)
            _insert_rolls(session, result.rolls)
            _insert_rejections(session, state.turn, result.rejections)
            for house, (text, refused) in sorted(orders.texts.items()):
                session.add(OrderFileRow(turn=state.turn, house=house, text=text,
                                         refused=refused,
                                         file=orders.files.get(house, f"{house}.orders")))
        return snapshot

    def rollback(self, to: int) -> None:
        """Return the store to the end of turn ``to``, in one transaction."""
        target = self.state(to)
        with Session(self.engine) as session, session.begin():
            session.execute(delete(TurnRow).where(col(TurnRow.number) > to))
            for table in (EventRow, RollRow, RejectionRow, OrderFileRow, ArchiveRow):
                session.execute(delete(table).where(col(table.turn) > to))
            _write_tables(session, target, None, self._writer())

    def reveal(self, seed: str, revealed: Mapping[str, Any]) -> None:
        """End the campaign's secrecy: the seed, and what its end reveals besides."""
        with Session(self.engine) as session, session.begin():
            row = session.exec(select(CampaignRow)).one()
            row.seed_revealed = seed
            row.revealed = json.dumps(revealed, sort_keys=True)
            session.add(row)


_TABLES = (HouseRow, PersonRow, MarriageRow, ClaimRow, UnitRow, ProvinceRow)


def _rows(houses: Iterable[House], persons: Iterable[Person],
          marriages: Iterable[Marriage]) -> dict[type, list[dict[str, Any]]]:
    """The normalised rows of the given houses, people and marriages."""
    rows: dict[type, list[dict[str, Any]]] = {t: [] for t in _TABLES}
    for h in houses:
        rows[HouseRow].append({**values(h, HOUSE_FIELDS),
                               "rulers": json.dumps([r.to_list() for r in h.rulers])})
    for p in persons:
        rows[PersonRow].append(values(p, PERSON_FIELDS))
        for dynasty, ref in p.refs.items():
            rows[ClaimRow].append(dict(person=p.id, dynasty=dynasty, ref=ref,
                                       renounced_turn=None))
        for dynasty, turn in p.renounced.items():
            if dynasty not in p.refs:
                rows[ClaimRow].append(dict(person=p.id, dynasty=dynasty,
                                           ref=f"-{p.id}-{dynasty}", renounced_turn=turn))
    for m in marriages:
        rows[MarriageRow].append(values(m, MARRIAGE_FIELDS))
    return rows


def _write_tables(session: Session, state: GameState, previous: GameState | None,
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
        people = previous.living()
        fresh_people = list(itertools.islice(state.persons.values(),
                                             len(previous.persons), None))
        open_at = [i for i, m in enumerate(previous.marriages) if m.ended is None]
        rows = _rows(state.houses.values(),
                     [state.persons[p.id] for p in people] + fresh_people,
                     [state.marriages[i] for i in open_at]
                     + state.marriages[len(previous.marriages):])
        old = _rows(previous.houses.values(), people, [previous.marriages[i] for i in open_at])
    rows[UnitRow] = [{**values(u, UNIT_FIELDS), "commanders": json.dumps(list(u.commanders)),
                      "command_value": ruleset.command_value(state, u)}
                     for u in state.units.values()]
    rows[ProvinceRow] = [dict(id=p.id, name=p.name, kind=p.kind, kingdom=p.kingdom,
                              capital=p.capital, resource=p.resource, controller=p.controller,
                              revolt=p.revolt, famine=p.famine, x=p.x, y=p.y,
                              neighbours=json.dumps(p.neighbours))
                         for p in state.provinces.values()]
    for table in _TABLES:
        new_rows = rows[table]
        if old is None or table in (UnitRow, ProvinceRow, HouseRow):
            session.execute(delete(table))
            _bulk(session, table, new_rows)
            continue
        # Rows are replaced by owner: a person's claims go with the person.
        owner = "person" if table is ClaimRow else "id"
        before: dict[str, list[dict[str, Any]]] = {}
        after: dict[str, list[dict[str, Any]]] = {}
        for row in old[table]:
            before.setdefault(row[owner], []).append(row)
        for row in new_rows:
            after.setdefault(row[owner], []).append(row)
        stale = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        column = getattr(table, owner)
        for start in range(0, len(stale), 500):
            session.execute(delete(table).where(column.in_(stale[start:start + 500])))
        _bulk(session, table, [r for k in stale for r in after.get(k, [])])


def _archive_dead(session: Session, state: GameState, previous: GameState) -> None:
    """Store, once, everyone who died this turn (or was born and died in it)."""
    rows = []
    for pid, person in state.persons.items():
        if person.died is None:
            continue
        before = previous.persons.get(pid)
        if before is None or before.died is None:
            rows.append(dict(person=pid, turn=state.turn,
                             data=json.dumps(person.to_dict(), sort_keys=True)))
    _bulk(session, ArchiveRow, rows)


def _bulk(session: Session, table: type, rows: Sequence[dict[str, Any]]) -> None:
    """A plain executemany: the ORM's bulk path cost more than the rows themselves."""
    if not rows:
        return
    columns = [c.name for c in table.__table__.columns  # type: ignore[attr-defined]
               if c.name in rows[0]]
    sql = (f"INSERT INTO {table.__tablename__} ({', '.join(columns)}) "  # type: ignore[attr-defined]
           f"VALUES ({', '.join('?' for _ in columns)})")
    session.connection().exec_driver_sql(sql, [tuple(r[c] for c in columns) for r in rows])


def _insert_events(session: Session, turn: int, events: Iterable[Event]) -> None:
    rows = [dict(turn=turn, seq=i, phase=e.phase, kind=e.kind, public=e.public,
                 payload=json.dumps(e.payload(), sort_keys=True, ensure_ascii=False),
                 subjects=json.dumps(e.subjects()), houses=json.dumps(e.houses()))
            for i, e in enumerate(events, start=1)]
    _bulk(session, EventRow, rows)


def _insert_rolls(session: Session, rolls: Iterable[Roll]) -> None:
    rows = [dict(turn=r.turn, seq=r.seq, phase=r.phase, purpose=r.purpose, subject=r.subject,
                 dice=r.dice, faces=json.dumps(list(r.faces)), total=r.total, secret=r.secret)
            for r in rolls]
    _bulk(session, RollRow, rows)


def _insert_rejections(session: Session, turn: int, rejections: Iterable[Rejection]) -> None:
    rows = [dict(turn=turn, house=r.house or "", file=r.file, line=r.line, text=r.text,
                 reason=r.reason) for r in rejections]
    _bulk(session, RejectionRow, rows)

"""The store's tables as SQL: made from their declarations, and brought up to date.

The tables are declared once, as SQLModel classes (``chronicle.store.models``); this
module is the only one that turns them into SQL, and the only part of the
store that loads the ORM. It runs when a store is made, and when a store was
made by an earlier version: a store carries the version of its tables in the
file (SQLite's ``user_version``), so a store already up to date is opened and
written with plain ``sqlite3`` (``chronicle.store.turns``) and the ORM is never loaded.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3

from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.schema import CreateIndex, CreateTable, Table
from sqlmodel import SQLModel

import chronicle.store.models  # noqa: F401  # declares the tables in SQLModel's metadata
from chronicle.errors import StoreError
from chronicle.store.file import SCHEMA_VERSION, load_snapshot

_DIALECT = sqlite_dialect()


def statements() -> list[str]:
    """Every table's ``CREATE`` statement and its indexes', in dependency order."""
    return [sql for table in SQLModel.metadata.sorted_tables for sql in _made(table)]


def _made(table: Table) -> list[str]:
    """``table``'s ``CREATE`` statement, then its indexes' (by name)."""
    return [str(CreateTable(table).compile(dialect=_DIALECT)).strip(),
            *(str(CreateIndex(index).compile(dialect=_DIALECT)).strip()
              for index in sorted(table.indexes, key=lambda i: str(i.name)))]


def digest() -> str:
    """What the tables' declarations say, hashed: a test ties it to ``SCHEMA_VERSION``,
    so that no declaration changes without the version that brings stores up to it.
    Of the declarations, not of their SQL, which another SQLAlchemy may spell otherwise."""
    declared = [(table.name,
                 [(c.name, type(c.type).__name__, c.nullable, c.primary_key,
                   repr(getattr(c.default, "arg", None))) for c in table.columns],
                 sorted((str(i.name), [c.name for c in i.columns]) for i in table.indexes))
                for table in SQLModel.metadata.sorted_tables]
    return hashlib.sha256(repr(declared).encode("utf-8")).hexdigest()


def create(connection: sqlite3.Connection) -> None:
    """Make every table in an empty store, inside the caller's transaction."""
    for statement in statements():
        connection.execute(statement)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def upgrade(connection: sqlite3.Connection) -> None:
    """Bring a store made by an earlier version up to date, in one transaction.

    Versions only ever add tables and columns (with their defaults), so an
    earlier store gains what it lacks and nothing else changes: a campaign
    outlives the version of Chronicle it started with. A store that lacks
    nothing is not written at all (it may be read-only, or held by a
    reader): the first turn this version stores stamps it (``Store``).
    """
    if not _missing(connection):
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        # Looked at again once the store is this command's: another may have
        # brought it up to date meanwhile.
        (version,), = connection.execute("PRAGMA user_version").fetchall()
        if version < SCHEMA_VERSION:
            archived = _tables(connection) >= {"archive"}
            for statement in _missing(connection):
                connection.execute(statement)
            if not archived:
                _archive_the_dead(connection)
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def _tables(connection: sqlite3.Connection) -> set[str]:
    return {name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table'")}


def _archive_the_dead(connection: sqlite3.Connection) -> None:
    """Archive the dead of a store from before the dead were archived apart.

    Its snapshots hold everyone, the dead with the living; the snapshots this
    version writes hold the living only, and the dead only once, in the
    archive. Without the last turn's dead archived, the next turn stored would
    leave them out of every later state.
    """
    last = connection.execute(
        "SELECT number, snapshot FROM turns ORDER BY number DESC LIMIT 1").fetchone()
    if last is None:
        return  # no turn yet: nobody has died
    turn, snapshot = last
    dead = [p for p in load_snapshot(bytes(snapshot)).persons.values() if p.died is not None]
    connection.executemany("INSERT INTO archive (person, turn, data) VALUES (?, ?, ?)",
                           [(p.id, turn, json.dumps(p.to_dict(), sort_keys=True))
                            for p in dead])


def _missing(connection: sqlite3.Connection) -> list[str]:
    """The statements that add what the store lacks of the tables declared."""
    present = _tables(connection)
    if "campaign" not in present:
        raise StoreError("no campaign table")
    columns = {name: {row[1] for row in connection.execute(f'PRAGMA table_info("{name}")')}
               for name in present}
    wanted: list[str] = []
    for table in SQLModel.metadata.sorted_tables:
        if table.name not in present:
            wanted += _made(table)
            continue
        for column in table.columns:
            if column.name in columns[table.name]:
                continue
            default = getattr(column.default, "arg", None)
            if callable(default):
                raise StoreError(f"cannot add column {table.name}.{column.name}")
            literal = "NULL" if default is None else _sql_literal(default)
            wanted.append(f"ALTER TABLE {table.name} ADD COLUMN {column.name} "
                          f"{column.type.compile(_DIALECT)} DEFAULT {literal}")
    return wanted


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

"""Reading a store: one read transaction, after bringing an earlier version's store
up to date (which only ``turns.Store`` does)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from chronicle.errors import StoreError
from chronicle.store.file import (
    BUSY,
    StoredCampaign,
    StoreReader,
    connected,
    is_busy,
    missing_columns,
)
from chronicle.store.turns import Store


@contextmanager
def reading(path: Path) -> Iterator[StoreReader]:
    """A read transaction on the store at ``path`` (see ``StoreReader``).

    A transaction held throughout, so a turn committed meanwhile waits until
    the reading is over (each query would otherwise see the store as it is
    then). A store made by an earlier version is brought up to date first,
    as any command that opens it does.
    """
    try:
        with connected(path) as connection:
            if not missing_columns(connection):
                connection.execute("BEGIN")
                yield StoreReader(connection, path)
                return
        Store.open(path).close()
        with connected(path) as connection:
            if missing_columns(connection):
                raise StoreError(f"{path.name}: not a chronicle store (it lacks columns)")
            connection.execute("BEGIN")
            yield StoreReader(connection, path)
    except sqlite3.DatabaseError as err:
        if is_busy(err):
            raise StoreError(f"{path.name}: {BUSY}") from None
        raise StoreError(f"{path.name}: not a chronicle store ({type(err).__name__})") from None


@contextmanager
def reading_campaign(path: Path) -> Iterator[tuple[StoreReader, StoredCampaign]]:
    """``reading``, and the campaign's row: a store without one is none of ours."""
    with reading(path) as reader:
        row = reader.campaign()
        if row is None:
            raise StoreError(f"{path.name}: not a chronicle store (it holds no campaign)")
        yield reader, row

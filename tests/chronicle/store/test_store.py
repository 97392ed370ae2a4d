"""The chronicle store: one transaction per turn, exact rollback, determinism.

DESIGN.md "Determinism and secrecy": "Running a turn twice with the same orders gives
the same store." The store module promises that "a failure or a kill before the commit
leaves the file exactly as it was at the end of the previous turn".
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from dynasty_helpers import ROOT, play_turns, store_dump, two_houses, write_campaign

import chronicle.store.turns as store_module
from chronicle.archival.export import export_json
from chronicle.campaign.folder import load_campaign
from chronicle.store.turns import Store
from chronicle.turn import runner

KILL_MID_COMMIT = """
import os, signal, sys
from pathlib import Path
import chronicle.store.turns as store
from chronicle.turn import runner
from chronicle.campaign.folder import load_campaign

real = store._insert_events

def insert_then_die(db, turn, events):
    real(db, turn, events)
    assert db.in_transaction and db.execute("SELECT count(*) FROM events WHERE turn = ?",
                                            (turn,)).fetchone()[0] > 0
    os.kill(os.getpid(), signal.SIGKILL)

store._insert_events = insert_then_die
runner.adjudicate(load_campaign(Path(sys.argv[1])))
"""


def _campaign(tmp_path: Path, name: str = "camp", turns: int = 1) -> Path:
    root = write_campaign(tmp_path / name, two_houses())
    play_turns(root, turns)
    return root


def _next_orders(root: Path) -> None:
    """Write the next turn's order files without adjudicating."""
    from dynasty_helpers import write_orders

    from chronicle.rulesets.dynastic.player import dynasty_order_file

    camp = load_campaign(root)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    for hid in sorted(state.houses):
        write_orders(root, state.turn + 1, hid,
                     dynasty_order_file(state, hid, camp.rules, "ambitious"))


def _export(root: Path) -> str:
    camp = load_campaign(root)
    store = Store.open(camp.store_path, camp.engine())
    data = export_json(camp, store.state(), store.events())
    return json.dumps(data, sort_keys=True)


def test_store_kill_mid_transaction_leaves_the_previous_turn(tmp_path: Path) -> None:
    """A SIGKILL after the first INSERT of turn 2's transaction: the store still ends at
    turn 1, with exactly the same rows; turn 2 can then be adjudicated normally."""
    root = _campaign(tmp_path)
    _next_orders(root)
    db = root / "chronicle.sqlite"
    before = store_dump(db)
    proc = subprocess.run([sys.executable, "-c", KILL_MID_COMMIT, str(root)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert not (root / "reports" / "turn-002").exists()
    after = store_dump(db)
    assert after == before
    assert Store.open(db).last_turn() == 1
    outcome = runner.adjudicate(load_campaign(root))
    assert outcome.turn == 2 and Store.open(db).last_turn() == 2


def test_store_exception_mid_commit_changes_nothing(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception inside the turn's transaction rolls the whole turn back; no report
    is written for it."""
    root = _campaign(tmp_path)
    _next_orders(root)
    db = root / "chronicle.sqlite"
    before = store_dump(db)

    def broken(*_args: object) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(store_module, "_insert_rolls", broken)
    with pytest.raises(RuntimeError, match="disk on fire"):
        runner.adjudicate(load_campaign(root))
    assert store_dump(db) == before
    assert not (root / "reports" / "turn-002").exists()


def test_store_turn_cannot_be_committed_twice(tmp_path: Path) -> None:
    """One transaction per turn: the same turn is never stored twice."""
    root = _campaign(tmp_path)
    camp = load_campaign(root)
    store = Store.open(camp.store_path, camp.engine())
    previous = store.state(0)
    outcome = runner.resolve_next(camp, runner.ruleset_of(camp), previous)
    before = store_dump(camp.store_path)
    with pytest.raises(store_module.StoreError, match="already in the store"):
        store.commit_turn(previous, outcome.result, outcome.orders)
    assert store_dump(camp.store_path) == before


def test_store_rollback_then_replay_gives_the_identical_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`chronicle rollback --to N` "returns the store to the end of turn N"; re-adjudicating
    the same orders gives the same store (compared through the JSON export and rows).
    The store keeps when each turn was adjudicated (issue 18, for the feed): the same
    clock (SOURCE_DATE_EPOCH) is part of "the same"."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    root = _campaign(tmp_path, turns=4)
    db = root / "chronicle.sqlite"
    export_before, rows_before = _export(root), store_dump(db)
    camp = load_campaign(root)
    store = Store.open(db, camp.engine())
    turn1 = store.state(1).to_dict()
    store.rollback(1)
    assert store.last_turn() == 1 and store.state().to_dict() == turn1
    for _ in range(3):
        runner.adjudicate(load_campaign(root))
    assert _export(root) == export_before
    assert store_dump(db) == rows_before


def test_store_rollback_to_zero_restores_the_start(tmp_path: Path) -> None:
    """`rollback --to 0` is back to the starting state before turn 1."""
    root = _campaign(tmp_path, turns=2)
    camp = load_campaign(root)
    store = Store.open(camp.store_path, camp.engine())
    start = runner.initial_state(camp, runner.ruleset_of(camp)).to_dict()
    store.rollback(0)
    assert store.last_turn() == 0 and store.state().to_dict() == start
    assert store.events(public_only=False) == []


def test_store_same_seed_and_orders_give_identical_exports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN.md: "Running a turn twice with the same orders gives the same store." Two
    campaigns with the same seed and the same built-in players, in separate folders,
    adjudicated by the same clock (SOURCE_DATE_EPOCH: the store keeps when each turn
    was adjudicated, issue 18)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    first = _campaign(tmp_path / "a", turns=5)
    second = _campaign(tmp_path / "b", turns=5)
    assert _export(first) == _export(second)
    assert store_dump(first / "chronicle.sqlite") == store_dump(second / "chronicle.sqlite")


def test_store_secret_rolls_are_recorded_as_secret(tmp_path: Path) -> None:
    """DESIGN.md: "Every roll is recorded: turn, phase, sequence, purpose, subject, dice,
    faces, total, and whether it is secret." A5.4: the threshold roll is secret."""
    root = write_campaign(tmp_path / "camp", two_houses())
    play_turns(root, 1)
    rows = store_dump(root / "chronicle.sqlite")["rolls"]
    assert rows and all(len(r) == 10 for r in rows)
    import sqlite3

    con = sqlite3.connect(root / "chronicle.sqlite")
    purposes = dict(con.execute("SELECT purpose, MAX(secret) FROM rolls GROUP BY purpose"))
    con.close()
    assert purposes.get("survival (natural)") == 0
    assert all(secret == 0 for purpose, secret in purposes.items()
               if purpose != "epidemic threshold")


def test_store_setup_rolls_are_recorded(tmp_path: Path) -> None:
    """DESIGN.md: "Every roll is recorded"; A5.4: the first y is drawn before turn 1 and
    must be re-checkable from the seed, like every roll, once the seed is revealed."""
    root = write_campaign(tmp_path / "camp", two_houses())
    play_turns(root, 1)
    import sqlite3

    con = sqlite3.connect(root / "chronicle.sqlite")
    found = con.execute("SELECT turn, secret FROM rolls WHERE purpose = 'epidemic threshold'"
                        " AND turn = 0").fetchall()
    con.close()
    assert found == [(0, 1)]


def test_a_snapshot_decodes_to_the_state_it_was_made_from() -> None:
    """Snapshots are the store's record of each turn: a person, house or unit comes
    back field for field; a key an older or newer version wrote is ignored."""
    from adjudicator.state import GameState, Person

    state = GameState(ruleset="dynasty", start_year=1300, years_per_turn=5, turn=3)
    state.persons["E1"] = Person(id="E1", name="Edward", sex="M", born=1280,
                                 dynasty="england", refs={"england": "E1000"}, seq=1)
    again = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again.to_dict() == state.to_dict()
    assert again.persons["E1"] == state.persons["E1"]
    written = state.persons["E1"].to_dict() | {"nickname": "Longshanks"}
    assert Person.from_dict(written) == state.persons["E1"]


def test_the_plain_reader_reads_columns_the_tables_declare() -> None:
    """Issue 15 ("each command imports only what it uses"): the store is read and
    written with plain SQL; every column it reads is one the tables declare
    (``chronicle.store.models``), the fields it keeps as they are are exactly the
    tables' columns, and so are those the site's person view copies."""
    from sqlmodel import SQLModel

    import chronicle.store.models  # noqa: F401  # the declarations
    from chronicle.store.file import (
        HOUSE_FIELDS,
        MARRIAGE_FIELDS,
        PERSON_FIELDS,
        READ_COLUMNS,
        UNIT_FIELDS,
    )
    from chronicle.views.data import PERSON_STORED

    tables = {t.name: [c.name for c in t.columns] for t in SQLModel.metadata.sorted_tables}
    for table, columns in READ_COLUMNS.items():
        assert set(columns) <= set(tables[table]), table
    assert tuple(c for c in tables["houses"] if c != "rulers") == HOUSE_FIELDS
    assert tuple(tables["persons"]) == PERSON_FIELDS
    assert tuple(tables["marriages"]) == MARRIAGE_FIELDS
    assert tuple(c for c in tables["units"]
                                if c not in ("commanders", "command_value")) == UNIT_FIELDS
    assert sorted(PERSON_STORED) == sorted(PERSON_FIELDS)


#: ``chronicle.store.schema.digest()`` at each ``SCHEMA_VERSION``.
SCHEMA_DIGESTS = {1: "7f2d8216c2a664ea9717421d57d59f651c115d74704cc0b6872ccc82df62cc3b"}


def test_the_schema_version_is_raised_with_any_change_to_the_tables() -> None:
    """A store stamped with this version's ``SCHEMA_VERSION`` is opened without
    being compared with the declarations: were they changed without raising it,
    a store made before would lack what this version writes."""
    from chronicle.store.file import SCHEMA_VERSION
    from chronicle.store.schema import digest

    assert digest() == SCHEMA_DIGESTS[SCHEMA_VERSION], (
        "the tables' declarations changed: raise storefile.SCHEMA_VERSION, and record "
        "the new digest in SCHEMA_DIGESTS")


def test_a_store_is_made_with_the_tables_declared_and_stamped(tmp_path: Path) -> None:
    """The tables SQLite holds are those the ORM itself would make of the declarations,
    and the store carries the version of them it was made with."""
    import sqlite3

    from sqlalchemy import create_engine
    from sqlmodel import SQLModel

    import chronicle.store.models  # noqa: F401
    from chronicle.store.file import SCHEMA_VERSION

    root = _campaign(tmp_path)
    reference = tmp_path / "reference.sqlite"
    engine = create_engine(f"sqlite:///{reference}")
    SQLModel.metadata.create_all(engine)
    engine.dispose()

    def schema(path: Path) -> tuple[int, list[tuple[str, ...]]]:
        con = sqlite3.connect(path)
        try:
            return (con.execute("PRAGMA user_version").fetchone()[0],
                    sorted(con.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")))
        finally:
            con.close()

    version, made = schema(root / "chronicle.sqlite")
    assert version == SCHEMA_VERSION
    assert made == schema(reference)[1]


def test_the_plain_reader_refuses_a_foreign_file_and_a_busy_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is no store, and a store another command holds, get the same
    one-line refusals as from the store's own opening (``StoreError``)."""
    import sqlite3

    import chronicle.store.file as storefile
    from chronicle.errors import StoreError
    from chronicle.store.file import BUSY
    from chronicle.store.reader import reading

    foreign = tmp_path / "chronicle.sqlite"
    foreign.write_bytes(b"not a database at all, " * 100)
    with pytest.raises(StoreError, match="not a chronicle store"), reading(foreign):
        pass
    gone = tmp_path / "gone" / "chronicle.sqlite"
    gone.parent.mkdir()
    with pytest.raises(StoreError), reading(gone):
        pass
    assert not gone.exists()  # never made in its place
    root = write_campaign(tmp_path / "camp", two_houses(), seed="reader")
    play_turns(root, 1)
    with reading(root / "chronicle.sqlite") as reader:
        assert [t.number for t in reader.turns()] == [1]
        campaign = reader.campaign()
        assert campaign is not None and campaign.ruleset == "dynasty"
    monkeypatch.setattr(storefile, "BUSY_TIMEOUT", 0.1)
    holder = sqlite3.connect(root / "chronicle.sqlite", isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StoreError, match="the store is busy"), \
                reading(root / "chronicle.sqlite"):
            pass
    finally:
        holder.close()
    assert BUSY.startswith("the store is busy")

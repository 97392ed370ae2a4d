"""A store that cannot be corrupted, and reports that cannot be lost (issue: trust).

Each test reproduces one finding of the review through the real commands:
a rollback racing a turn, a first turn killed or failed, reports lost to a
kill or a full disk. DESIGN.md "Determinism and secrecy": "Running a turn
twice with the same orders gives the same store."
"""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from cli_support import run
from dynasty_helpers import ROOT, play_turns, store_dump, two_houses, write_campaign, write_orders

import chronicle.turn.reports as reports_module
from chronicle.campaign.folder import load_campaign
from chronicle.errors import StoreError
from chronicle.rulesets.dynastic.player import dynasty_order_file
from chronicle.store.file import SCHEMA_VERSION, dump_snapshot
from chronicle.store.turns import Store
from chronicle.turn import runner

PAUSE_BEFORE_COMMIT = """
import sys, time
from pathlib import Path
from chronicle.turn import runner
from chronicle.campaign.folder import load_campaign
from chronicle.store.turns import Store

root, ready, go = (Path(a) for a in sys.argv[1:4])
real = Store.commit_turn

def paused(self, *args, **kwargs):
    ready.write_text("resolved")
    while not go.exists():
        time.sleep(0.02)
    return real(self, *args, **kwargs)

Store.commit_turn = paused
runner.adjudicate(load_campaign(root))
"""

KILL_IN = """
import os, signal, sys
from pathlib import Path
import {module} as target
from chronicle.turn import runner
from chronicle.campaign.folder import load_campaign

real = target.{name}
calls = []

def then_die(*args, **kwargs):
    result = real(*args, **kwargs)
    calls.append(1)
    if len(calls) == {after}:
        os.kill(os.getpid(), signal.SIGKILL)
    return result

target.{name} = then_die
runner.adjudicate(load_campaign(Path(sys.argv[1])))
"""



def _campaign(tmp_path: Path, turns: int) -> Path:
    root = write_campaign(tmp_path / "camp", two_houses())
    play_turns(root, turns)
    return root


def _next_orders(root: Path) -> None:
    camp = load_campaign(root)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    for hid in sorted(state.houses):
        write_orders(root, state.turn + 1, hid,
                     dynasty_order_file(state, hid, camp.rules, "ambitious"))


def _reports(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted((root / "reports").rglob("*.md"))}


def _kill_in(root: Path, module: str, name: str, after: int) -> None:
    script = KILL_IN.format(module=module, name=name, after=after)
    proc = subprocess.run([sys.executable, "-c", script, str(root)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr


# -- rollback racing adjudicate ------------------------------------------------------
def test_a_rollback_while_a_turn_is_being_resolved_is_refused_in_words(tmp_path: Path) -> None:
    """Finding: `rollback --to 12` between turn 14's resolution and its commit left
    turns 1..12 and 14. Writers exclude each other; the waiting one is refused."""
    root = _campaign(tmp_path, 2)
    _next_orders(root)
    ready, go = tmp_path / "ready", tmp_path / "go"
    proc = subprocess.Popen([sys.executable, "-c", PAUSE_BEFORE_COMMIT, str(root), str(ready),
                             str(go)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr
            time.sleep(0.02)
        before = store_dump(root / "chronicle.sqlite")
        refused = run("rollback", root, "--to", "1")
        assert refused.exit_code == 1
        assert "another command is changing this campaign (chronicle adjudicate" in \
            refused.output
        assert "Traceback" not in refused.output
        assert store_dump(root / "chronicle.sqlite") == before
    finally:
        go.write_text("go")
        _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    store = Store.open(root / "chronicle.sqlite")
    assert store.last_turn() == 3
    # The tables agree with the last snapshot: a rollback to 3 rewrites them from it.
    tables = store_dump(root / "chronicle.sqlite")
    assert run("rollback", root, "--to", "3").exit_code == 0
    assert store_dump(root / "chronicle.sqlite") == tables


def test_a_turn_resolved_from_a_state_the_store_no_longer_ends_at_is_not_stored(
        tmp_path: Path) -> None:
    """A commit checks that the store's last turn is still the one it resolved from."""
    root = _campaign(tmp_path, 2)
    _next_orders(root)
    camp = load_campaign(root)
    ruleset = runner.ruleset_of(camp)
    store = Store.open(camp.store_path, ruleset)
    state = store.state()
    outcome = runner.resolve_next(camp, ruleset, state)
    store.rollback(1)
    before = store_dump(camp.store_path)
    with pytest.raises(StoreError, match="the store changed while turn 3 was being resolved "
                                         r"\(it now ends at turn 1\); nothing was stored"):
        store.commit_turn(state, outcome.result, outcome.orders)
    assert store_dump(camp.store_path) == before


# -- the first turn ------------------------------------------------------------------
def test_a_first_turn_killed_mid_commit_leaves_no_store(tmp_path: Path) -> None:
    """Finding: a killed first turn left a store every later command died on.
    Store creation and the first turn are atomic: no store, or a usable one."""
    root = write_campaign(tmp_path / "camp", two_houses())
    _next_orders(root)
    _kill_in(root, "chronicle.store.turns", "_insert_events", after=1)
    assert not (root / "chronicle.sqlite").exists()
    assert run("check", root).exit_code in (0, 1)
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0, result.output
    assert Store.open(root / "chronicle.sqlite").last_turn() == 1
    assert not (root / runner.NEW_STORE).exists()


def test_a_failed_first_turn_leaves_no_store_and_the_fixed_campaign_is_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding: after a failed first turn, fixing campaign.toml did not help, since the
    store kept the starting state of the broken one."""
    root = write_campaign(tmp_path / "camp", two_houses())
    _next_orders(root)
    real = runner.resolve_next

    def broken(*_args: object, **_kwargs: object) -> None:
        raise runner.CampaignError("campaign.toml: something the arbiter must fix")

    monkeypatch.setattr(runner, "resolve_next", broken)
    assert run("adjudicate", root, "--yes").exit_code == 1
    assert not (root / "chronicle.sqlite").exists()
    monkeypatch.setattr(runner, "resolve_next", real)
    spec = two_houses()
    spec["house"][0]["name"] = "House of the Fixed Name"
    write_campaign(root, spec)
    assert run("adjudicate", root, "--yes").exit_code == 0
    names = {h.id: h.name for h in Store.open(root / "chronicle.sqlite").state().houses.values()}
    assert "House of the Fixed Name" in names.values()


# -- reports -------------------------------------------------------------------------
def test_reports_lost_to_a_kill_after_the_commit_are_written_by_the_next_command(
        tmp_path: Path) -> None:
    """Finding: a kill between the commit and the last report left the turn stored with
    its reports missing. The next command writes them, exactly as they would have been."""
    root = _campaign(tmp_path, 1)
    _next_orders(root)
    twin = tmp_path / "twin"
    subprocess.run(["cp", "-a", str(root), str(twin)], check=True)
    runner.adjudicate(load_campaign(twin))  # the same turn, uninterrupted
    _kill_in(root, "chronicle.turn.reports", "write_inside", after=1)
    assert Store.open(root / "chronicle.sqlite").last_turn() == 2
    assert len(list((root / "reports" / "turn-002").glob("*.md"))) == 1
    checked = run("check", root)
    assert "Traceback" not in checked.output
    assert _reports(root) == _reports(twin)


def test_a_full_disk_while_writing_reports_is_one_line_and_loses_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding: a full disk between the commit and the last report gave a traceback."""
    root = _campaign(tmp_path, 1)
    _next_orders(root)
    twin = tmp_path / "twin"
    subprocess.run(["cp", "-a", str(root), str(twin)], check=True)
    runner.adjudicate(load_campaign(twin))
    real = reports_module.write_inside
    written: list[Path] = []

    def full(root_: Path, path: Path, text: str) -> None:
        if written:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(path)
        real(root_, path, text)

    monkeypatch.setattr(reports_module, "write_inside", full)
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0
    assert "turn 2 is stored, but its reports could not be written (No space left on " \
        "device)" in result.output
    monkeypatch.setattr(reports_module, "write_inside", real)
    again = run("reports", root)
    assert again.exit_code == 0, again.output
    assert _reports(root) == _reports(twin)


def test_the_reports_command_writes_any_turn_again(tmp_path: Path) -> None:
    """`chronicle reports <campaign> [--turn N]` writes any turn's reports again."""
    root = _campaign(tmp_path, 3)
    original = _reports(root)
    for path in (root / "reports").rglob("*.md"):
        path.write_text("tampered")
    for turn in (1, 2, 3):
        result = run("reports", root, "--turn", str(turn))
        assert result.exit_code == 0 and f"turn {turn}" in result.output
    assert _reports(root) == original
    missing = run("reports", root, "--turn", "9")
    assert missing.exit_code == 1 and "the store holds turns 1 to 3" in missing.output


def test_reports_of_a_rolled_back_turn_are_not_taken_for_the_new_turn(tmp_path: Path) -> None:
    """A rollback then a new turn 2 with other orders: the old turn 2's reports, even
    whole, are not the new turn's, and are written again if the new ones were lost."""
    root = _campaign(tmp_path, 2)
    assert run("rollback", root, "--to", "1").exit_code == 0
    write_orders(root, 2, "england", "house england\n# nothing this time\n")
    camp = load_campaign(root)
    ruleset = runner.ruleset_of(camp)
    store = Store.open(camp.store_path, ruleset)
    state = store.state()
    outcome = runner.resolve_next(camp, ruleset, state)
    store.commit_turn(state, outcome.result, outcome.orders)  # as if killed before reports
    store.close()
    assert run("check", root).exit_code in (0, 1)
    report = (root / "reports" / "turn-002" / "england.md").read_text()
    assert "Every line of your orders was accepted." in report


# -- earlier stores ------------------------------------------------------------------
def test_a_store_made_before_a_column_existed_is_brought_up_to_date(tmp_path: Path) -> None:
    """A campaign outlives the version that started it: a store lacking later columns
    gains them, with their defaults, and every command works on it."""
    root = _campaign(tmp_path, 2)
    db = root / "chronicle.sqlite"
    con = sqlite3.connect(db)
    con.execute("ALTER TABLE turns DROP COLUMN problems")
    con.execute("ALTER TABLE order_files DROP COLUMN file")
    con.execute("PRAGMA user_version = 0")  # as every store made before it was stamped
    con.commit()
    con.close()
    assert run("export", root).exit_code == 0
    assert run("reports", root, "--turn", "1").exit_code == 0
    con = sqlite3.connect(db)
    columns = {row[1] for row in con.execute("PRAGMA table_info(turns)")}
    version = con.execute("PRAGMA user_version").fetchone()[0]
    con.close()
    assert "problems" in columns
    assert version == SCHEMA_VERSION  # brought up to date once, then opened plainly
    write_orders(root, 3, "england", "house england\n# nothing this time\n")
    assert run("adjudicate", root, "--yes").exit_code == 0


def test_a_store_from_before_the_archive_keeps_its_dead_through_its_next_turn(
        tmp_path: Path) -> None:
    """DESIGN.md, JSON export: the export "is the state at the end of the last
    adjudicated turn", everyone who ever lived in it. A store made before the dead
    were archived apart kept them in every snapshot; brought up to date, it
    archives its last turn's dead, so that its next turn, whose snapshot holds
    only the living, loses nobody, and its earlier turns read as they did."""
    root = _campaign(tmp_path, 8)
    camp = load_campaign(root)
    store = Store.open(camp.store_path)
    try:
        states = {t: store.state(t) for t in range(1, store.last_turn() + 1)}
    finally:
        store.close()
    last = states[max(states)]
    assert any(p.died is not None for p in last.persons.values())
    con = sqlite3.connect(camp.store_path)
    for turn, state in states.items():
        con.execute("UPDATE turns SET snapshot = ? WHERE number = ?",
                    (dump_snapshot(state), turn))
    con.execute("DROP TABLE archive")
    con.execute("PRAGMA user_version = 0")
    con.commit()
    con.close()
    _next_orders(root)
    runner.adjudicate(load_campaign(root))
    store = Store.open(camp.store_path)
    try:
        after, earlier = store.state(), {t: store.state(t) for t in states}
    finally:
        store.close()
    assert after.turn == last.turn + 1
    assert set(last.persons) <= set(after.persons)
    for turn, state in states.items():
        assert dump_snapshot(earlier[turn]) == dump_snapshot(state), turn


def test_a_stored_turn_s_reports_come_from_the_store_not_from_today_s_folder(
        tmp_path: Path) -> None:
    """Order files edited after a turn was adjudicated do not change its reports."""
    root = _campaign(tmp_path, 2)
    original = _reports(root)
    for path in (root / "orders").rglob("*.orders"):
        path.write_text("house england\n")
    assert run("reports", root, "--turn", "2").exit_code == 0
    assert _reports(root) == original


# -- the machine's refusals ----------------------------------------------------------
@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real file system of 2 MiB (tmpfs), where it can be mounted (root)."""
    mount = tmp_path / "small"
    mount.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a small file system here: {made.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def _fill(disk: Path, leave: int) -> None:
    """Fill the file system but ``leave`` bytes (to the block)."""
    stats = os.statvfs(disk)
    free = stats.f_bavail * stats.f_frsize
    with (disk / "filler").open("wb") as filler:
        filler.write(b"\0" * max(0, free - leave))


def test_a_full_disk_at_any_point_of_a_turn_is_one_line_and_loses_nothing(
        tmp_path: Path, small_disk: Path) -> None:
    """Finding: a full disk gave a traceback. However little room is left, adjudicate
    ends with a one-line error or success; the store holds turn 1 or turn 2 whole;
    and once there is room the campaign goes on, its reports complete."""
    source = _campaign(tmp_path, 1)
    _next_orders(source)
    outcomes = set()
    for leave in (0, 8 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10):
        root = small_disk / "camp"
        subprocess.run(["cp", "-a", str(source), str(root)], check=True)
        before = store_dump(root / "chronicle.sqlite")
        _fill(small_disk, leave)
        result = run("adjudicate", root, "--yes")
        assert result.exit_code in (0, 1), result.output
        if result.exit_code == 1:
            assert result.output.startswith("error: ") and result.output.count("\n") == 1
        (small_disk / "filler").unlink()
        last = Store.open(root / "chronicle.sqlite").last_turn()
        if last == 1:
            assert store_dump(root / "chronicle.sqlite") == before
        outcomes.add((result.exit_code, last))
        if last == 1:  # room again: the turn is adjudicated as if nothing had happened
            assert run("adjudicate", root, "--yes").exit_code == 0
        assert run("check", root).exit_code in (0, 1)
        assert runner.reports_written(load_campaign(root), 2, runner._identity(
            Store.open(root / "chronicle.sqlite").snapshot(2)))
        subprocess.run(["rm", "-rf", str(root)], check=True)
    assert (1, 1) in outcomes and (0, 2) in outcomes


@pytest.fixture
def immutable(tmp_path: Path) -> Iterator[Callable[[Path], None]]:
    """Make files read-only even for root (``chattr +i``), where the file system allows."""
    marked: list[Path] = []

    def mark(path: Path) -> None:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot make a file read-only here: {done.stderr.strip()}")
        marked.append(path)

    try:
        yield mark
    finally:
        for path in marked:
            subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_store_from_before_stamps_is_read_unchanged_and_stamped_by_its_next_turn(
        tmp_path: Path) -> None:
    """A store made before stores carried their version, lacking nothing, is not
    written by a command that only reads it (an archivist's checksum of it still
    holds); the next turn stored stamps it, in the turn's own transaction."""
    root = _campaign(tmp_path, 1)
    db = root / "chronicle.sqlite"
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version = 0")
    con.commit()
    con.close()
    before = db.read_bytes()
    for command in ("export", "status", "check"):
        assert run(command, root).exit_code in (0, 1), command
    assert db.read_bytes() == before
    _next_orders(root)
    assert run("adjudicate", root).exit_code == 0
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert con.execute("SELECT max(number) FROM turns").fetchone()[0] == 2
    finally:
        con.close()


def test_a_store_from_before_stamps_is_read_while_a_build_holds_it(tmp_path: Path) -> None:
    """A reader's transaction (a site build's) does not keep a command from reading
    a store made before stamps: nothing is written to it on opening."""
    root = _campaign(tmp_path, 1)
    db = root / "chronicle.sqlite"
    con = sqlite3.connect(db, isolation_level=None)
    try:
        con.execute("PRAGMA user_version = 0")
        con.execute("BEGIN")
        con.execute("SELECT count(*) FROM turns").fetchone()  # holds the store, as a build does
        result = run("export", root)
        assert result.exit_code == 0, result.output  # not refused as busy
    finally:
        con.close()


def test_a_read_only_store_from_an_earlier_version_is_still_read(
        tmp_path: Path, immutable: Callable[[Path], None]) -> None:
    """A store made before stores were stamped (``user_version`` 0) but lacking
    nothing is read as it is when it cannot be written: it is not refused for
    the stamp it cannot take."""
    root = _campaign(tmp_path, 1)
    con = sqlite3.connect(root / "chronicle.sqlite")
    con.execute("PRAGMA user_version = 0")
    con.commit()
    con.close()
    before = store_dump(root / "chronicle.sqlite")
    immutable(root / "chronicle.sqlite")
    result = run("export", root)
    assert result.exit_code == 0, result.output
    assert '"turn": 1' in result.output
    assert store_dump(root / "chronicle.sqlite") == before


def test_a_read_only_store_is_one_line_and_unchanged(
        tmp_path: Path, immutable: Callable[[Path], None]) -> None:
    """Finding: a read-only store gave a traceback."""
    root = _campaign(tmp_path, 1)
    _next_orders(root)
    before = store_dump(root / "chronicle.sqlite")
    immutable(root / "chronicle.sqlite")
    for command in ("adjudicate", "rollback", "end"):
        args = ["--to", "0"] if command == "rollback" else []
        result = run(command, root, *args)
        assert result.exit_code == 1, result.output
        assert result.output == "error: chronicle.sqlite: the store is read-only; nothing " \
                                "was stored\n"
    assert store_dump(root / "chronicle.sqlite") == before


def test_a_read_only_campaign_folder_is_still_checked_previewed_and_archived(
        tmp_path: Path, immutable: Callable[[Path], None]) -> None:
    """Commands that only read work on a campaign folder nobody can write (an
    archivist's copy): `check` and `preview` wanted to make the lock file, to
    finish an interrupted turn's reports first, and `archive` took the lock; all
    three stopped at ".chronicle.store.lock: Permission denied"."""
    root = _campaign(tmp_path, 1)
    _next_orders(root)
    before = store_dump(root / "chronicle.sqlite")
    lock = root / ".chronicle.store.lock"
    if lock.exists():
        immutable(lock)
    immutable(root)
    for command in ("check", "preview", "status", "export"):
        result = run(command, root)
        assert result.exit_code == 0, (command, result.output)
    bundle = tmp_path / "bundle.zip"
    archived = run("archive", root, "-o", bundle)
    assert archived.exit_code == 0, archived.output
    assert bundle.is_file()
    assert store_dump(root / "chronicle.sqlite") == before

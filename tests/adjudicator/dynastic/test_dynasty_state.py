"""The typed game state: reigns, enums on the fields, and copies that share nothing mutable."""

from __future__ import annotations

import dataclasses
import json
import pickle
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest
from dynasty_helpers import (
    build,
    person,
    play_turns,
    shared_mutables,
    sheets,
    store_dump,
    two_houses,
    write_campaign,
)

from adjudicator.dice import SeededDice
from adjudicator.state import GameState, Law, Reign, Sex
from chronicle.campaign.folder import load_campaign
from chronicle.turn import runner


def _played(turns: int = 3) -> GameState:
    """Two houses after a few turns, England's king killed on turn 1: his son succeeds."""
    spec = two_houses()
    spec["person"].append(person("england-prince", "M", 1290, "england", father="england-king",
                                 mother="england-queen"))
    ruleset, state = build(spec)
    for turn in range(1, turns + 1):
        orders = sheets(ruleset, arbiter='kill E1000 cause "a fall"\n') if turn == 1 else {}
        state = ruleset.resolve(state, orders, SeededDice("qa-state", turn, "dynasty")).state
    assert any(p.died is not None for p in state.persons.values())
    return state


def test_a1_copy_shares_no_mutable_object() -> None:
    """A1: "A person has ... a death year and cause once dead": the dead never change
    again, so a copy may share them, and only them, as immutable records. Walking
    both states' object graphs, every object they share is immutable."""
    state = _played()
    clone = state.copy()
    assert shared_mutables(state, clone) == []
    dead = [p for p in state.persons.values() if p.died is not None]
    assert all(clone.persons[p.id] is p for p in dead)  # shared, not copied: cost of the living


def test_a1_a_dead_person_is_sealed_and_keeps_the_same_data() -> None:
    """A1: "a death year and cause once dead": once the turn ends the dead are sealed,
    and the snapshot they write is the one they would have written unsealed."""
    state = _played(1)
    [dead] = [p for p in state.persons.values() if p.died is not None]
    with pytest.raises(TypeError):
        dead.refs["england"] = "E9999"
    with pytest.raises(dataclasses.FrozenInstanceError):
        dead.died = None
    loaded = GameState.from_dict(state.to_dict())
    pickled = pickle.loads(pickle.dumps(dead))
    for again in (loaded.persons[dead.id], pickled):
        assert again.to_dict() == dead.to_dict()
        with pytest.raises(dataclasses.FrozenInstanceError):
            again.spouse = None


def test_a3_sex_and_law_are_enums_on_the_fields_after_a_snapshot() -> None:
    """A3: "Male-preference law (the default)" or "Absolute primogeniture"; A1: "A person
    has an id, a name ..., a sex". A snapshot keeps the plain strings and loads them back
    as the enums."""
    state = _played(1)
    data: dict[str, Any] = state.to_dict()
    assert {p["sex"] for p in data["persons"]} == {"M", "F"}
    loaded = GameState.from_dict(data)
    assert {type(p.sex) for p in loaded.persons.values()} == {Sex}
    assert {type(h.law) for h in loaded.houses.values()} == {Law}


def test_a6_a_reign_is_a_record_closed_at_the_ruler_s_death() -> None:
    """A6: "The new ruler is the living person with the smallest reference number in the
    dynasty." The house keeps each reign as a record; the snapshot keeps
    ``[person, start, end]``."""
    state = _played(1)
    england = state.houses["england"]
    first, second = england.rulers
    assert first.end == 1300 and second == Reign(person=england.ruler or "", start=1300)
    assert england.reign == second
    assert state.to_dict()["houses"][0]["rulers"] == [[first.person, 1300, 1300],
                                                      [second.person, 1300, None]]
    assert GameState.from_dict(state.to_dict()).houses["england"].rulers == (first, second)


def test_a1_snapshots_of_the_previous_layout_still_load() -> None:
    """A1: "a name that is unique in the campaign": the cursors that find the next free name
    survive a snapshot, including one written when they were kept in ``extra``."""
    state = _played(2)
    assert state.name_cursors
    data: dict[str, Any] = state.to_dict()
    data["extra"]["name_cursors"] = data.pop("name_cursors")
    loaded = GameState.from_dict(data)
    assert loaded.name_cursors == state.name_cursors and loaded.ruleset_data == {}
    assert loaded.to_dict() == state.to_dict()


def _as_previously_written(blob: bytes) -> bytes:
    """A snapshot in the layout of the version before the calendar and the cursors
    were fields: no ``years_per_turn``, the cursors inside ``extra``."""
    data = json.loads(zlib.decompress(blob))
    del data["years_per_turn"]
    data["extra"]["name_cursors"] = data.pop("name_cursors")
    return zlib.compress(json.dumps(data, sort_keys=True, separators=(",", ":")).encode())


def test_a4_a_store_written_by_the_previous_version_plays_on(tmp_path: Path) -> None:
    """A4: "Turn 1 is year 1300, turn 2 is 1305, and so on": a campaign whose store holds
    snapshots of the previous layout loads, writes its last turn's reports again and plays
    its next turns as one written by this version does."""
    spec = two_houses()
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    for root in (ours, theirs):
        write_campaign(root, spec)
        play_turns(root, 2)
    con = sqlite3.connect(theirs / "chronicle.sqlite")
    with con:
        for number, blob in con.execute("SELECT number, snapshot FROM turns").fetchall():
            con.execute("UPDATE turns SET snapshot = ? WHERE number = ?",
                        (_as_previously_written(blob), number))
    con.close()
    assert runner.reports(load_campaign(theirs), 2)[0] == 2
    for root in (ours, theirs):
        play_turns(root, 2)
    assert (ours / "reports" / "turn-004" / "england.md").read_text() == \
        (theirs / "reports" / "turn-004" / "england.md").read_text()
    assert store_dump(ours / "chronicle.sqlite")["events"] == \
        store_dump(theirs / "chronicle.sqlite")["events"]

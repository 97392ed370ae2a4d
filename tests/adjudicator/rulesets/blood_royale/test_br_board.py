"""The board is Blood Royale's part of the state (``board.Board``), written where
snapshots have always kept it: at their top level, byte for byte."""

from __future__ import annotations

import json

from br_support import fresh_state, rules

from adjudicator.dice import SeededDice
from adjudicator.dynastic.succession import settle_successions
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import Board, Counter, board
from adjudicator.rulesets.blood_royale.ruleset import BloodRoyaleRuleset
from adjudicator.state import TOP_LEVEL, GameState


def dumped(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"))


def test_the_board_is_written_at_the_snapshots_top_level() -> None:
    state = fresh_state()
    data = state.to_dict()
    assert set(TOP_LEVEL) <= set(data) and Board.key not in data["extra"]
    assert [p["id"] for p in data["provinces"]] == list(board(state).provinces)


def test_a_snapshot_reads_and_writes_byte_for_byte() -> None:
    """Undecoded, decoded, copied or replaced, a state writes the snapshot it read."""
    state = fresh_state()
    board(state).counters.append(Counter("wine-99", "wine", "england", "middlesex"))
    text = dumped(state)
    read = GameState.from_dict(json.loads(text))
    assert dumped(read) == text  # the board not decoded: kept as it was read
    assert dumped(read.copy()) == text
    assert board(read).counters[-1].id == "wine-99" and dumped(read) == text
    read.put_data(Board.from_dict(board(read).to_dict()))
    assert dumped(read) == text and dumped(read.copy()) == text


def test_a_state_without_a_board_writes_its_empty_lists() -> None:
    state = GameState(ruleset="dynasty", start_year=1300, years_per_turn=5)
    data = json.loads(dumped(state))
    assert data["provinces"] == [] and data["counters"] == [] and data["extra"] == {}
    assert state.data_of(Board) is None


def test_a6_an_extinct_house_loses_its_provinces_and_counters() -> None:
    """A6, through the ruleset's hook (``house_eliminated``): the dynastic rules do
    not know the board, Blood Royale clears it."""
    state = fresh_state()
    board(state).counters.append(Counter("wine-99", "wine", "england", "middlesex"))
    for person in state.persons.values():
        if person.dynasty == "england" or "england" in person.refs:
            person.died = 1300
    ctx = TurnContext(state=state, dice=SeededDice("x", 1), rules=rules(), sheets={},
                      ruleset=BloodRoyaleRuleset(rules()))
    settle_successions(ctx)
    assert state.houses["england"].eliminated
    assert not [p for p in board(state).provinces.values() if p.controller == "england"]
    assert not [c for c in board(state).counters if c.owner == "england"]
    assert [p for p in board(state).provinces.values() if p.controller == "france"]

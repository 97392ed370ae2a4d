"""Playing a turn with the dead lent, not decoded (``adjudicator.state.People``).

A state loaded to play a turn holds its living; the dead are lent as the store
keeps them and still found by id, name and number, and their names stay taken
(RULES.md A1: "Names stay unique across the whole campaign.").
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import string
from pathlib import Path

import pytest
from cli_support import run
from dynasty_helpers import (
    build,
    context,
    play_turns,
    reasons,
    royal_family,
    scripted,
    spec_of,
    two_houses,
    validated,
    write_campaign,
)

from adjudicator.dynastic.births import run_births
from adjudicator.dynastic.events import Birth
from adjudicator.dynastic.names import name_key
from adjudicator.dynastic.people import new_person_id
from adjudicator.state import GameState, LentDead, Person, Sex
from chronicle.campaign.folder import load_campaign
from chronicle.errors import StoreError
from chronicle.store.file import KeptDead, dump_snapshot
from chronicle.store.turns import Store
from chronicle.turn import runner

BOY = (1, 1, 3, 4, 3, 4)

LOUIS = Person(id="louis", name="Louis", sex=Sex.MALE, born=1200, dynasty="england",
               died=1260, death_cause="natural", seq=90, refs={"england": "E9000"})


def lending(state: GameState, *dead: Person) -> GameState:
    """``state`` as the store gives it to play a turn from, lent ``dead``."""
    ordered = sorted(dead, key=lambda p: p.seq)
    texts = {p.id: json.dumps(p.to_dict()) for p in ordered}
    people = [(p.id, p.name, p.seq) for p in ordered]
    refs = [(ref, p.id) for p in ordered for ref in p.refs.values()]
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())),
                               LentDead(people, KeptDead(texts, refs)))


def whole(state: GameState, *dead: Person) -> GameState:
    """``state`` holding ``dead`` too, everyone in order of appearance."""
    everyone = state.copy()
    people = sorted([*everyone.persons.values(), *dead], key=lambda p: p.seq)
    everyone.persons.clear()
    everyone.persons.update((p.id, p) for p in people)
    return everyone


def _person(pid: str, name: str, seq: int, *, died: int | None = None,
            refs: dict[str, str] | None = None) -> Person:
    return Person(id=pid, name=name, sex=Sex.MALE, born=1250, dynasty="england", seq=seq,
                  died=died, death_cause="natural" if died else None, refs=refs or {})


def _england(**names: list[str]):  # type: ignore[no-untyped-def]
    h, people, units = royal_family("england", "E")
    h.update(names)
    ruleset, state = build(spec_of([h], people, units))
    return ruleset, lending(state, LOUIS)


def test_a1_a_lent_dead_persons_name_stays_taken() -> None:
    """A1: "Names stay unique across the whole campaign." The dead Louis is lent,
    not decoded: the newborn takes the next name of the list, and a house cannot
    choose his."""
    ruleset, state = _england(male_names=["Louis", "Charles"])
    assert "louis" in state.persons and len(state.persons) == len(list(state.persons.values()))
    assert all(p.id != "louis" for p in state.persons.values())
    found = validated(ruleset, state, england=(
        'birth E1000 attempts 1\nname son of E1000 "LOUIS"\n'))
    assert reasons(found["england"]) == [
        "the name 'LOUIS' is already taken (names are unique)"]
    ctx = context(state, ruleset, scripted(*BOY))
    run_births(ctx)
    assert [ctx.state.persons[e.person].name for e in ctx.events
            if isinstance(e, Birth)] == ["Charles"]


def test_a1_the_lent_dead_are_found_by_id_name_and_number() -> None:
    """A1: "A person has an id, a name that is unique in the campaign ... and a death
    year and cause once dead." The lent dead are found as the decoded ones were,
    decoded on first use and sealed; their ids are not given again."""
    _, state = _england()
    for token in ("louis", "LOUIS", "Louis", "louis", "E9000"):
        found = state.find_person(token)
        assert found is not None and found.id == "louis", token
    assert state.find_person("e9000") is None
    assert state.ref_like("e9000") == "E9000"
    dead = state.persons["louis"]
    assert dead == LOUIS.sealed() and state.persons.get("louis") is dead
    with pytest.raises(AttributeError, match="dead and sealed"):
        dead.name = "Lewis"
    assert new_person_id(state, "Louis") == "louis-2"
    assert state.persons.get("nobody") is None and "nobody" not in state.persons
    with pytest.raises(KeyError):
        state.persons["nobody"]


CLASHES = {
    # A name folded like an older dead man's id: the first in order of appearance.
    "folded": [_person("jean-baptiste", "Jean Baptiste", 50, died=1290),
               _person("jean-baptiste-2", "Jean-Baptiste", 60)],
    # A dead man's name that is a living man's id: a name beats an id.
    "name over id": [_person("jean-baptiste", "Jean Baptiste", 50),
                     _person("jean-baptiste-2", "jean-baptiste", 60, died=1290)],
    # One number told apart by case only (A3): the older is suggested first.
    "case of a number": [_person("tenth", "Tenth Son", 40, died=1290, refs={"england": "E1A00"}),
                         _person("first", "First Daughter", 70, refs={"england": "E1a00"})],
    # One number borne by two, living and dead: the later is meant.
    "number, dead later": [_person("old", "Old Man", 40, refs={"england": "E8000"}),
                           _person("young", "Young Man", 80, died=1290,
                                   refs={"england": "E8000"})],
    "number, living later": [_person("old", "Old Man", 40, died=1290,
                                     refs={"england": "E8000"}),
                             _person("young", "Young Man", 80, refs={"england": "E8000"})],
}


@pytest.mark.parametrize("case", sorted(CLASHES))
def test_a1_the_lent_dead_are_found_as_a_state_of_everyone_finds_them(case: str) -> None:
    """A1: "A person has an id, a name that is unique in the campaign". Where a living
    and a dead person's id, name or number clash, the state lent its dead finds whom
    the state holding everyone finds, so that a turn replayed from the whole state
    (``chronicle reports``, ``verify``) is the turn played."""
    h, people, units = royal_family("england", "E")
    _, state = build(spec_of([h], people, units))
    living = [p for p in CLASHES[case] if p.died is None]
    dead = [p for p in CLASHES[case] if p.died is not None]
    base = whole(state, *living)
    lent, everyone = lending(base, *dead), whole(base, *dead)
    tokens = {t for p in CLASHES[case] for t in (
        p.id, p.name, p.name.upper(), p.name.lower(), *p.refs.values(),
        *(r.swapcase() for r in p.refs.values()))}
    for token in sorted(tokens):
        found, expected = lent.find_person(token), everyone.find_person(token)
        assert (found and found.id) == (expected and expected.id), token
        assert lent.ref_like(token) == everyone.ref_like(token), token


def test_a_state_lent_its_dead_refuses_to_be_dumped_whole() -> None:
    """The store keeps the dead once, apart; a state holding only the living cannot
    pass for a whole one (DESIGN.md: a snapshot of the living, the dead archived)."""
    _, state = _england()
    with pytest.raises(ValueError, match="only the living"):
        state.to_dict()
    assert [p["id"] for p in state.to_dict(living_only=True)["persons"]] == [
        p.id for p in state.persons.values()]
    assert state.copy().find_person("E9000") == LOUIS.sealed()


def test_a1_an_ascii_name_keys_as_the_full_skeleton_does() -> None:
    """A1: "Names stay unique across the whole campaign." An ASCII name's key is taken
    the short way; a hidden character sends the same name through the whole skeleton
    (NFKC, look-alikes, folding), which must give the same key."""
    names = ["Louis", "LOUIS II", "de Vere", "O'Neill", "Jean-Baptiste", string.printable[:95]]
    for name in names:
        assert name_key(name) == name_key(name + "\u200b") == name_key("\u200b" + name)
    assert name_key("Lоuis") == name_key("louis")  # a Cyrillic o


@pytest.fixture(scope="module")
def long_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = write_campaign(tmp_path_factory.mktemp("lent") / "camp", two_houses())
    play_turns(root, 9)
    return root


def test_the_state_to_play_is_the_stored_state_less_its_dead(long_campaign: Path) -> None:
    """A1: the store lends the state to play its dead: every dead person is found as
    in the whole state, by id, name and number, and every name stays taken."""
    camp = load_campaign(long_campaign)
    store = Store.open(camp.store_path)
    try:
        whole, played = store.state(), store.state_to_play()
    finally:
        store.close()
    dead = [p for p in whole.persons.values() if p.died is not None]
    assert len(dead) >= 5
    assert [p.id for p in played.persons.values()] == [p.id for p in whole.living()]
    assert sorted(played.every_name()) == sorted(p.name for p in whole.persons.values())
    # The dead are read when asked for, after the store was closed, and by a copy
    # of the state sent to another process (pickled: it reads the store again).
    sent = pickle.loads(pickle.dumps(played))
    for person in dead:
        assert person.id in played.persons and played.persons[person.id] == person
        tokens = [person.id, person.name, person.name.upper(), *person.refs.values()]
        for token in tokens:
            assert played.find_person(token) == whole.find_person(token), token
            assert sent.find_person(token) == whole.find_person(token), token
        for ref in person.refs.values():
            assert played.ref_like(ref.swapcase()) == whole.ref_like(ref.swapcase())


def test_a_turn_played_from_the_lent_state_is_the_turn_played_from_all(
        long_campaign: Path) -> None:
    """The same seed and orders give the same turn, whether its state lends the dead
    or holds them all (the dice, the events, the refusals and the state)."""
    camp = load_campaign(long_campaign)
    ruleset = runner.ruleset_of(camp)
    from dynasty_helpers import write_orders

    from chronicle.rulesets.dynastic.player import dynasty_order_file

    store = Store.open(camp.store_path)
    try:
        whole, played = store.state(), store.state_to_play()
    finally:
        store.close()
    dead = next(p for p in whole.persons.values() if p.died is not None and p.refs)
    for hid in sorted(whole.houses):
        orders = dynasty_order_file(whole, hid, camp.rules, "ambitious")
        write_orders(long_campaign, whole.turn + 1, hid, orders)
    # A directive naming the dead, refused the same way from both states.
    write_orders(long_campaign, whole.turn + 1, "arbiter",
                 f'house arbiter\nkill {next(iter(dead.refs.values()))} cause "again"\n')
    first = runner.resolve_next(camp, ruleset, whole)
    second = runner.resolve_next(camp, ruleset, played)
    assert first.result.rejections == second.result.rejections
    named = whole.find_person(next(iter(dead.refs.values())))
    assert named is not None and named.died is not None
    assert f"{named.name} is already dead" in [r.reason for r in first.result.rejections]
    assert [e.payload() for e in first.result.events] == [
        e.payload() for e in second.result.events]
    assert first.result.rolls == second.result.rolls
    assert (dump_snapshot(first.result.state, living_only=True)
            == dump_snapshot(second.result.state, living_only=True))


def _dead_after(root: Path, turn: int) -> list[str]:
    """Who died after ``turn``, as the store holds them now."""
    store = Store.open(root / "chronicle.sqlite")
    try:
        whole = store.state()
    finally:
        store.close()
    return [p.id for p in whole.persons.values()
            if p.died is not None and p.died >= whole.year_of(turn + 1)]


@pytest.mark.skipif(os.name != "posix", reason="a file name of bytes")
def test_a_campaign_in_a_folder_named_in_latin_1_is_still_played(
        long_campaign: Path, tmp_path: Path) -> None:
    """The store is read again, for its dead, by the name it was opened with: SQLite
    gives file names back only in UTF-8, and a folder may be named otherwise."""
    folder = Path(os.fsdecode(bytes(tmp_path) + b"/camp-\xe9"))
    shutil.copytree(long_campaign, folder)
    assert run("status", folder).exit_code == 0
    camp = load_campaign(folder)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    dead = _dead_after(folder, 5)
    assert dead and all(state.find_person(pid) is not None for pid in dead)


def test_a_state_read_before_a_rollback_refuses_in_one_line(
        long_campaign: Path, tmp_path: Path) -> None:
    """``check``, ``status`` and ``template`` read the store without holding the
    campaign. Its dead are read when asked for: if a rollback came in between, they
    are no longer the state's, and the command stops with a line saying why (it
    found them all, or a traceback, before)."""
    root = tmp_path / "camp"
    shutil.copytree(long_campaign, root)
    camp = load_campaign(root)
    dead = _dead_after(root, 5)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    runner.rollback(camp, 5)
    with pytest.raises(StoreError, match="changed while this command read it"):
        state.find_person(dead[0])


def test_a_state_read_before_a_new_turn_still_finds_its_dead(
        long_campaign: Path, tmp_path: Path) -> None:
    """A turn stored after the state was read (the demo plays on from the state it
    holds) leaves the state's dead as they were: they are still found."""
    root = tmp_path / "camp"
    shutil.copytree(long_campaign, root)
    camp = load_campaign(root)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    play_turns(root, 1)
    dead = _dead_after(root, 0)
    assert [pid for pid in dead if pid in state.persons and state.find_person(pid) is None
            and state.persons[pid].died is not None] == []
    assert any(state.persons[pid].died is not None for pid in dead if pid in state.persons)


def test_the_state_a_preview_returns_still_finds_its_dead(
        long_campaign: Path, tmp_path: Path) -> None:
    """``preview`` plays the turn on a copy of the store, gone when it returns: the
    state it returns holds its dead itself."""
    root = tmp_path / "camp"
    shutil.copytree(long_campaign, root)
    camp = load_campaign(root)
    # No orders: the turn itself asks for none of the dead, nor opens the copy for them.
    (root / "orders" / f"turn-{runner.last_turn(camp, runner.ruleset_of(camp)) + 1:03d}"
     ).mkdir(parents=True, exist_ok=True)
    outcome = runner.preview(camp)
    dead = _dead_after(root, 0)
    assert dead and all(outcome.previous.find_person(pid) is not None for pid in dead)

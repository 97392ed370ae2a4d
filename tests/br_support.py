"""Shared set-up for the Blood Royale tests: the real content packs, fresh states,
turn contexts with scripted dice, parsed order sheets."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

from adjudicator.dice import Dice, ScriptedDice, SeededDice
from adjudicator.orders import OrderSheet, parse_orders
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.ruleset import BLOOD_ROYALE_GRAMMAR, BloodRoyaleRuleset
from adjudicator.rulesets.blood_royale.setup import build_blood_royale_state
from adjudicator.rulesets.blood_royale.turnstate import BRTurn, br_turn
from adjudicator.rulesets.blood_royale.validation import validate_blood_royale
from adjudicator.state import GameState, Unit
from chronicle.campaign.folder import load_rules
from chronicle.rulesets.blood_royale.player import blood_royale_orders

PERSONALITIES = ("cautious", "ambitious", "mercantile")

_RULES: dict[str, dict[str, Any]] = {}


def rules(world: str = "blood-royale") -> dict[str, Any]:
    if world not in _RULES:
        _RULES[world] = load_rules("blood-royale", {"world": world})
    return _RULES[world]


def quiet_rules(world: str = "blood-royale") -> dict[str, Any]:
    """The rules with an event die that never does anything, for tests of movement."""
    quiet = {k: copy.deepcopy(v) for k, v in rules(world).items() if not k.startswith("_")}
    table = quiet["economy"]["events"]["table"]
    quiet["economy"]["events"]["table"] = [[face, "nothing"] for face, _ in table]
    return quiet


def fresh_state(world: str = "blood-royale", seed: str = "test",
                spec: dict[str, Any] | None = None) -> GameState:
    """The pack's starting state, as at the start of turn 1 (``turn`` already 1)."""
    full = {"world": world, **(spec or {})}
    state = build_blood_royale_state(full, rules(world), SeededDice(seed, 0))
    state.turn = 1
    return state


def sheets_of(texts: dict[str, str]) -> dict[str, OrderSheet]:
    """Each house's order file, parsed."""
    return {h: parse_orders(t, BLOOD_ROYALE_GRAMMAR, filename=f"{h}.orders", expected_house=h)
            for h, t in texts.items()}


def ruleset(world: str = "blood-royale",
            table: dict[str, Any] | None = None) -> BloodRoyaleRuleset:
    return BloodRoyaleRuleset(table or rules(world))


def start(world: str = "blood-royale", seed: str = "test") -> GameState:
    """The state before turn 1, ready for ``resolve``."""
    state = fresh_state(world, seed)
    state.turn = 0
    return state


def play(world: str, turns: int, seed: str,
         table: dict[str, Any] | None = None) -> Iterator[tuple[GameState, Any]]:
    """The built-in players against each other; yields each turn's state and result.
    Their files, checked together (an exchange needs both lines), must pass whole."""
    table = table or rules(world)
    rs = ruleset(world, table)
    state = start(world, seed)
    for _ in range(turns):
        texts = {house: blood_royale_orders(state, house, table, PERSONALITIES[i % 3],
                                            f"{seed}:{state.turn}:{house}")
                 for i, house in enumerate(sorted(h.id for h in state.active_houses()))}
        checks = sheets_of(texts)
        validate_blood_royale(state, checks, table)
        assert all(c.rejections == [] for c in checks.values()), \
            (state.turn, {h: c.rejections for h, c in checks.items() if c.rejections})
        result = rs.resolve(state, sheets_of(texts), SeededDice(seed, state.turn + 1))
        yield state, result
        state = result.state
        if state.finished:
            break


def bare(state: GameState) -> GameState:
    """Remove every unit and counter, to set up a position by hand."""
    for person in state.persons.values():
        person.unit = None
    state.units.clear()
    board(state).counters.clear()
    return state


def put(state: GameState, uid: str, house: str, province: str, armies: int,
        kind: str = "army") -> Unit:
    unit = Unit(id=uid, house=house, type=kind, armies=armies, province=province)
    state.units[uid] = unit
    return unit


def sheet(house: str, *lines: str) -> OrderSheet:
    text = "\n".join([f"house {house}", *lines]) + "\n"
    return parse_orders(text, BLOOD_ROYALE_GRAMMAR, filename=f"{house}.orders",
                        expected_house=house)


def context(state: GameState, faces: Iterable[int] | None = None,
            sheets: dict[str, OrderSheet] | None = None, world: str = "blood-royale",
            dice: Dice | None = None, table: dict[str, Any] | None = None) -> TurnContext:
    """A turn context on ``state`` itself, with scripted faces (or seeded dice)."""
    if dice is None:
        dice = ScriptedDice(faces, turn=state.turn) if faces is not None \
            else SeededDice("test", state.turn)
    return TurnContext(state=state, dice=dice, rules=table or rules(world),
                       sheets=sheets or {}, aged=True)


def turn_of(ctx: TurnContext) -> BRTurn:
    return br_turn(ctx)


def kinds(ctx: TurnContext, kind: str) -> list[Any]:
    return [e for e in ctx.events if e.kind == kind]


class Contacts:
    """A stand-in for the battle rules: records every contact it is asked to settle."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str, int]] = []

    def __call__(self, ctx: TurnContext, province: str, mover: str, round_no: int) -> list[str]:
        self.calls.append((province, mover, round_no))
        return []

"""Shared builders for the dynasty tests: starting states, turn contexts, campaigns.

States are built the way a campaign builds them: a ``campaign.toml``-shaped
spec goes through the ruleset's own ``setup``, so reference numbers are derived
by the engine and never typed in (DESIGN.md "Campaign folder").
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import tomli_w

from adjudicator.dice import Dice, ScriptedDice, SeededDice
from adjudicator.orders import OrderSheet, parse_orders
from adjudicator.rulesets.base import TurnContext
from adjudicator.rulesets.dynasty import DynastyRuleset
from adjudicator.state import FrozenDict, GameState, Person, Reign
from chronicle.campaign.folder import deep_merge, load_rules, seed_commitment

ROOT = Path(__file__).resolve().parent.parent

# -- specs ---------------------------------------------------------------------


def house(hid: str, letter: str, law: str = "male-preference", **extra: Any) -> dict[str, Any]:
    return {"id": hid, "letter": letter, "name": f"House {hid.title()}", "law": law, **extra}


def person(pid: str, sex: str, born: int, dynasty: str | None = None, **extra: Any
           ) -> dict[str, Any]:
    """A ``[[person]]`` entry; the name defaults to a readable form of the id."""
    entry: dict[str, Any] = {"id": pid, "name": extra.pop("name", pid.replace("-", " ").title()),
                             "sex": sex, "born": born, **extra}
    if dynasty is not None:
        entry["dynasty"] = dynasty
    return entry


def royal_family(hid: str, letter: str, *, law: str = "male-preference", king_born: int = 1275,
                 queen_born: int = 1280, units: int = 2, unit_type: str = "army"
                 ) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A house with its founder king, a queen of the minor nobility and ``units`` units."""
    people = [person(f"{hid}-king", "M", king_born, hid, founder=True, spouse=f"{hid}-queen",
                     name=f"King of {hid.title()}"),
              person(f"{hid}-queen", "F", queen_born, name=f"Queen of {hid.title()}")]
    troops = [{"id": f"{letter}-{n}", "house": hid, "type": unit_type}
              for n in range(1, units + 1)]
    return house(hid, letter, law), people, troops


def spec_of(houses: Iterable[Mapping[str, Any]], persons: Iterable[Mapping[str, Any]],
            units: Iterable[Mapping[str, Any]] = (), **top: Any) -> dict[str, Any]:
    return {"title": "QA", "ruleset": "dynasty", "start_year": 1300,
            "house": [dict(h) for h in houses], "person": [dict(p) for p in persons],
            "unit": [dict(u) for u in units], **top}


def two_houses(**kw: Any) -> dict[str, Any]:
    """England (E) and France (F), each with king, queen and two armies."""
    houses, persons, units = [], [], []
    for hid, letter in (("england", "E"), ("france", "F")):
        h, p, u = royal_family(hid, letter, **kw)
        houses.append(h)
        persons += p
        units += u
    return spec_of(houses, persons, units)


# -- rules and states ------------------------------------------------------------


def rules_for(spec: Mapping[str, Any], **dynasty_overrides: Any) -> dict[str, Any]:
    """The dynasty tables as a campaign loads them, with optional overrides."""
    rules = load_rules("dynasty", dict(spec))
    if dynasty_overrides:
        rules = deep_merge(rules, {"dynasty": dynasty_overrides})
    return rules


def build(spec: Mapping[str, Any], *, seed: str = "qa-setup", rules: dict[str, Any] | None = None
          ) -> tuple[DynastyRuleset, GameState]:
    ruleset = DynastyRuleset(rules if rules is not None else rules_for(spec))
    return ruleset, ruleset.setup(spec, SeededDice(seed, 0, "setup"))


def pid_of(state: GameState, ref: str) -> str:
    """The id of the person holding ``ref``."""
    found = state.find_person(ref)
    assert found is not None, ref
    return found.id


def refs(state: GameState, dynasty: str) -> dict[str, str]:
    """person id → reference number in ``dynasty``."""
    return {p.id: p.refs[dynasty] for p in state.persons.values() if dynasty in p.refs}


def context(state: GameState, ruleset: DynastyRuleset, dice: Dice,
            sheets: Mapping[str, OrderSheet] | None = None, *, aged: bool = False
            ) -> TurnContext:
    """The context of the next turn, on a copy of ``state``."""
    new = state.copy()
    new.turn += 1
    dice.turn = new.turn
    return TurnContext(state=new, dice=dice, rules=ruleset.rules, sheets=dict(sheets or {}),
                       aged=aged)


def sheets(ruleset: DynastyRuleset, **texts: str) -> dict[str, OrderSheet]:
    """Parse order texts keyed by house id (the header line is added)."""
    out = {}
    for hid, body in texts.items():
        text = f"house {hid}\n{body}"
        out[hid] = parse_orders(text, ruleset.grammar_for(hid), filename=f"{hid}.orders",
                                expected_house=hid)
    return out


def validated(ruleset: DynastyRuleset, state: GameState, **texts: str) -> dict[str, OrderSheet]:
    found = sheets(ruleset, **texts)
    ruleset.validate(state, found, across_files=False)  # as the turn does; `check` does more
    return found


def reasons(sheet: OrderSheet) -> list[str]:
    return [r.reason for r in sheet.rejections]


def scripted(*faces: int) -> ScriptedDice:
    return ScriptedDice(list(faces))


def add_living(state: GameState, pid: str, sex: str, born: int, dynasty: str | None,
               **extra: Any) -> Person:
    """A person inserted straight into a state (for tests that need many of them)."""
    p = Person(id=pid, name=extra.pop("name", pid), sex=sex, born=born, dynasty=dynasty,
               court=extra.pop("court", dynasty), **extra)
    p.seq = state.allocate_seq()
    state.persons[pid] = p
    return p


# -- sharing between states ----------------------------------------------------------

_ATOMS = (str, int, float, bool, type(None), enum.Enum)


def _reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through containers and record fields."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _ATOMS):
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, dict):
            stack += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += list(obj)
        elif hasattr(obj, "__dict__"):
            stack += [v for k, v in vars(obj).items() if k != "_caches"]


def _immutable(obj: object) -> bool:
    if isinstance(obj, tuple | frozenset | FrozenDict | Reign):
        return True
    if isinstance(obj, Person):
        try:
            obj.name = obj.name
        except dataclasses.FrozenInstanceError:
            return True
    return False


def shared_mutables(first: object, second: object) -> list[object]:
    """The objects reachable from both that could change: a copy must share none."""
    originals = {id(o) for o in _reachable(first)}
    return [o for o in _reachable(second) if id(o) in originals and not _immutable(o)]


# -- statistics --------------------------------------------------------------------


def assert_rate(hits: int, trials: int, p: float, *, sigmas: float = 4.0) -> None:
    """The observed rate is within ``sigmas`` standard errors of ``p``."""
    se = math.sqrt(p * (1 - p) / trials)
    rate = hits / trials
    assert abs(rate - p) <= sigmas * se, (
        f"rate {rate:.4f} over {trials} trials, expected {p:.4f} ± {sigmas}·{se:.4f}")


def two_d6_at_least(n: int) -> float:
    """P(2d6 ≥ n), exactly."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= n) / 36


# -- campaign folders ----------------------------------------------------------------


def write_campaign(root: Path, spec: Mapping[str, Any], seed: str = "qa-campaign-seed") -> Path:
    """A campaign folder: campaign.toml with the seed commitment, secrets.toml, orders/."""
    root.mkdir(parents=True, exist_ok=True)
    body = dict(spec)
    body["seed_commitment"] = seed_commitment(seed)
    (root / "campaign.toml").write_text(tomli_w.dumps(body), encoding="utf-8")
    (root / "secrets.toml").write_text(tomli_w.dumps({"seed": seed}), encoding="utf-8")
    (root / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    return root


def write_orders(root: Path, turn: int, hid: str, text: str | bytes) -> Path:
    folder = root / "orders" / f"turn-{turn:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hid}.orders"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def play_turns(root: Path, turns: int) -> None:
    """Adjudicate ``turns`` turns of a campaign, the built-in players writing every order."""
    from chronicle.campaign.folder import load_campaign
    from chronicle.rulesets.dynastic.player import PERSONALITIES, dynasty_order_file
    from chronicle.turn import runner

    campaign = load_campaign(root)
    ruleset = runner.ruleset_of(campaign)
    for _ in range(turns):
        state = runner.current_state(campaign, ruleset)
        for index, hid in enumerate(ruleset.ordering_houses(state)):
            text = dynasty_order_file(state, hid, campaign.rules,
                                      PERSONALITIES[index % len(PERSONALITIES)])
            write_orders(root, state.turn + 1, hid, text)
        runner.adjudicate(campaign)


def store_dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows, sorted: the store's content independent of row order."""
    import sqlite3

    con = sqlite3.connect(path)
    try:
        tables = [r[0] for r in con.execute(
            "SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return {t: sorted(con.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)
                for t in tables}
    finally:
        con.close()

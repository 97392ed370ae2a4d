"""A small campaign store built directly, for the site generator's tests.

Three houses play a few turns of the ``dynasty`` ruleset with seeded dice.
On top of what the engine produces, the fixture plants what the site must
handle or must hide: a Blood Royale style battle record and wealth rows, a
hostile commentary file, hostile names, a secret roll, a private event, a
private order file and a secret seed. Tests assert that the secrets never
reach the site.
"""

from __future__ import annotations

import json
import re
import tomllib
import zlib
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sqlmodel import Session, SQLModel, create_engine

from adjudicator.dice import SeededDice
from adjudicator.orders import parse_orders
from adjudicator.rulesets import get_ruleset
from adjudicator.state import GameState
from chronicle.models import (
    CampaignRow,
    ClaimRow,
    EventRow,
    HouseRow,
    MarriageRow,
    OrderFileRow,
    PersonRow,
    RejectionRow,
    RollRow,
    TurnRow,
)

ROOT = Path(__file__).resolve().parents[1]
SEED = "fixture-seed-DO-NOT-PUBLISH-7f3a"
SECRET_ORDER_TEXT = "house england\n# SECRET-ORDER-TEXT-91c2\n"
SECRET_REJECTION = "SECRET-REJECTION-REASON-5d1e"
HOSTILE_NAME = '<script>alert("name")</script>Mallory'
HOSTILE_COMMENTARY = """# Turn one

A *fine* turn for **England**.

<script>alert('commentary')</script>
<img src=x onerror="alert('img')">
<a href="javascript:alert('href')">click</a>
<iframe src="https://evil.example/"></iframe>
<div onclick="alert('div')" style="background:url(javascript:alert(1))">styled</div>
[safe link](https://example.org/) and [bad](javascript:alert('md'))
"""


def _pack(state: GameState) -> bytes:
    return zlib.compress(json.dumps(state.to_dict(), sort_keys=True).encode(), 9)


def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = {"title": "The Fixture Wars", "start_year": 1300,
                            "house": [], "person": [], "unit": []}
    names = {"england": ("Edward", "Eleanor"), "france": ("Philippe", "Blanche"),
             "spain": ("Alfonso", HOSTILE_NAME)}
    for house, letter in (("england", "E"), ("france", "F"), ("spain", "S")):
        king, queen = names[house]
        spec["house"].append({"id": house, "letter": letter, "name": house.title()})
        spec["person"] += [
            {"id": f"{house}-k", "name": king, "sex": "M", "born": 1270, "dynasty": house,
             "founder": True, "spouse": f"{house}-q"},
            {"id": f"{house}-q", "name": queen, "sex": "F", "born": 1278},
        ]
        spec["unit"] += [{"id": f"{letter}-1", "house": house}]
    return spec


def _rules() -> dict[str, Any]:
    with (ROOT / "content/rulesets/dynasty.toml").open("rb") as fh:
        dynasty = tomllib.load(fh)
    return {"dynasty": dynasty,
            "unit_types": {"army": {}, "fleet": {},
                           "dragon": {"max_commanders": 1, "min_command_value": 0}}}


def _battle(turn: int) -> dict[str, Any]:
    """A battle record in the shape of Blood Royale's ``BattleFought`` (B6)."""
    return {
        "kind": "battle", "id": f"b-{turn}-1", "turn": turn, "round": 1,
        "province": "gascony", "attacker": "england", "defender": "france",
        "sides": [
            {"house": "england", "units": ["E-1"], "armies_before": 5, "armies_after": 3,
             "losses": 2, "commanders": ["england-k"], "castle": 0, "outcome": "held"},
            {"house": "france", "units": ["F-1"], "armies_before": 4, "armies_after": 1,
             "losses": 3, "commanders": ["france-k"], "castle": 0, "outcome": "fled"},
        ],
        "preliminary": [
            {"person": "england-k", "house": "england", "unit": "E-1", "die": 9,
             "faces": [4, 5], "command": 1, "total": 10, "result": "bonus"},
            {"person": "france-k", "house": "france", "unit": "F-1", "die": 5,
             "faces": [2, 3], "command": 0, "total": 5, "result": "none"},
        ],
        "rounds": [
            {"england": {"die": 5, "modifiers": {"command": 1, "preliminary": 1}, "total": 7,
                         "losses_inflicted": 2, "armies_after": 4},
             "france": {"die": 3, "modifiers": {}, "total": 3, "losses_inflicted": 1,
                        "armies_after": 2}},
            {"england": {"die": 4, "modifiers": {"command": 1}, "total": 5,
                         "losses_inflicted": 1, "armies_after": 3},
             "france": {"die": 6, "modifiers": {}, "total": 6, "losses_inflicted": 1,
                        "armies_after": 1}},
        ],
        "winner": "england", "fled": [{"unit": "F-1", "house": "france", "to": "guyenne"}],
        "captured": [], "killed": [], "surrendered": [], "destroyed": [],
    }


def build_fixture(folder: Path, *, turns: int = 4, language: str = "en",
                  slug: str = "fixture-wars", theme: str = "default") -> Path:
    """Play ``turns`` turns into ``folder`` and return the campaign folder."""
    folder.mkdir(parents=True, exist_ok=True)
    rules = _rules()
    ruleset = get_ruleset("dynasty", rules)
    state = ruleset.setup(_spec(), SeededDice(SEED, 0))
    initial = state.copy()
    engine = create_engine(f"sqlite:///{folder / 'chronicle.sqlite'}")
    SQLModel.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(CampaignRow(slug=slug, title="The Fixture Wars", ruleset="dynasty",
                                start_year=1300, seed_commitment="0" * 64, language=language,
                                initial=_pack(initial)))
        for turn in range(1, turns + 1):
            sheets = {}
            for house in sorted(state.houses):
                text = f"house {house}\n"
                for p in sorted(state.living(), key=lambda p: p.seq):
                    if (p.dynasty == house and p.spouse is None and not p.widowed_queen
                            and not p.king_consort
                            and p.age(state.year_of(state.turn + 1) + 5) >= 16):
                        text += f'marry "{p.name}" to minor-nobility\n'
                sheets[house] = parse_orders(text, ruleset.grammar, filename=f"{house}.orders",
                                             expected_house=house)
            result = ruleset.resolve(state, sheets, SeededDice(SEED, turn))
            state = result.state
            session.add(TurnRow(number=turn, year=state.year_of(turn), snapshot=_pack(state)))
            seq = 0
            for seq, event in enumerate(result.events, start=1):
                payload = {"kind": event.kind, **event.payload()}
                session.add(EventRow(turn=turn, seq=seq, phase=event.phase, kind=event.kind,
                                     public=event.public, payload=json.dumps(payload),
                                     subjects=json.dumps(event.subjects()),
                                     houses=json.dumps(event.houses())))
            extra = [{"kind": "wealth", "house": h, "turn": turn, "year": state.year_of(turn),
                      "treasury": 20 + 7 * turn * (i + 1), "goods": {"wine": i, "cloth": turn},
                      "taxes": 10 + i, "upkeep": 3, "raised": 0,
                      "cash_in": 12 if (turn, h) == (2, "france") else 0}
                     for i, h in enumerate(sorted(state.houses))]
            if turn == 2:
                extra.append(_battle(turn))
            for payload in extra:
                seq += 1
                session.add(EventRow(turn=turn, seq=seq, phase="war", kind=payload["kind"],
                                     payload=json.dumps(payload),
                                     houses=json.dumps(sorted({payload.get("house", "england"),
                                                               "france"}))))
            session.add(EventRow(turn=turn, seq=seq + 1, phase="x", kind="notice", public=False,
                                 payload=json.dumps({"kind": "notice", "house": "england",
                                                     "text": "SECRET-NOTICE-e4b9"})))
            for roll in result.rolls:
                session.add(RollRow(turn=turn, seq=roll.seq, phase=roll.phase,
                                    purpose=roll.purpose, subject=roll.subject, dice=roll.dice,
                                    faces=json.dumps(list(roll.faces)), total=roll.total,
                                    secret=roll.secret))
            session.add(RollRow(turn=turn, seq=9999, phase="x", purpose="SECRET-ROLL-PURPOSE",
                                dice="1d6", faces="[6]", total=6, secret=True))
            session.add(OrderFileRow(turn=turn, house="england", text=SECRET_ORDER_TEXT))
            session.add(RejectionRow(turn=turn, house="england", file="england.orders", line=2,
                                     text="x", reason=SECRET_REJECTION))
        _save_tables(session, state)
        session.commit()
    engine.dispose()
    (folder / "campaign.toml").write_text(
        f'title = "The Fixture Wars"\nruleset = "dynasty"\nstart_year = 1300\n'
        f'language = "{language}"\ntheme = "{theme}"\nseed_commitment = "{"0" * 64}"\n')
    (folder / "secrets.toml").write_text(f'seed = "{SEED}"\n')
    (folder / "commentary").mkdir(exist_ok=True)
    (folder / "commentary/turn-001.md").write_text(HOSTILE_COMMENTARY)
    return folder


def _save_tables(session: Session, state: GameState) -> None:
    for h in state.houses.values():
        session.add(HouseRow(id=h.id, letter=h.letter, name=h.name, law=h.law, ruler=h.ruler,
                             eliminated=h.eliminated, treasury=h.treasury,
                             rulers=json.dumps(h.rulers)))
    for p in state.persons.values():
        session.add(PersonRow(id=p.id, seq=p.seq, name=p.name, sex=p.sex, born=p.born,
                              died=p.died, death_cause=p.death_cause, dynasty=p.dynasty,
                              court=p.court, father=p.father, mother=p.mother, spouse=p.spouse,
                              constitution=p.constitution, command=p.command, ruse=p.ruse,
                              founder=p.founder))
        for dynasty, ref in p.refs.items():
            session.add(ClaimRow(person=p.id, dynasty=dynasty, ref=ref))
    for m in state.marriages:
        session.add(MarriageRow(**m.to_dict()))


# -- checks shared by the site tests --------------------------------------------

class _Links(HTMLParser):
    """Collects link targets, ids, scripts and event-handler attributes of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.targets: list[str] = []
        self.ids: set[str] = set()
        self.scripts: list[str] = []
        self.handlers: list[str] = []
        self.bad_urls: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k.lower(): v or "" for k, v in attrs}
        for key, value in values.items():
            if key.startswith("on"):
                self.handlers.append(f"{tag} {key}")
            if key in ("href", "src", "data", "xlink:href", "action", "formaction"):
                if re.match(r"\s*(javascript|vbscript|data):", value, re.I):
                    self.bad_urls.append(value)
                self.targets.append(value)
            if key == "id":
                self.ids.add(value)
        if tag in ("script", "iframe", "embed", "base", "frame"):
            self.scripts.append(values.get("src", "<inline>"))
        if tag == "meta" and "http-equiv" in values:
            self.scripts.append("meta refresh")

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_page(text: str) -> _Links:
    parser = _Links()
    parser.feed(text)
    return parser


def site_files(out: Path) -> dict[str, bytes]:
    return {p.relative_to(out).as_posix(): p.read_bytes()
            for p in sorted(out.rglob("*")) if p.is_file()}


def broken_links(out: Path) -> list[str]:
    """Every relative link of every HTML/SVG page that does not reach a file."""
    broken = []
    for path in sorted(out.rglob("*")):
        if path.suffix not in (".html", ".svg"):
            continue
        page = parse_page(path.read_text(encoding="utf-8"))
        for target in page.targets:
            if not target or re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue
            if target.startswith("/"):
                broken.append(f"{path.relative_to(out)}: absolute link {target}")
                continue
            file_part = target.split("#")[0]
            resolved = (path.parent / file_part).resolve()
            if not resolved.is_file() or not resolved.is_relative_to(out.resolve()):
                broken.append(f"{path.relative_to(out)}: {target}")
    return broken


def unsafe_markup(name: str, text: str) -> list[str]:
    """Scripts other than the theme's search script, handlers, script URLs."""
    page = parse_page(text)
    found = [f"{name}: script {s}" for s in page.scripts if not s.endswith("static/search.js")]
    found += [f"{name}: handler {h}" for h in page.handlers]
    found += [f"{name}: url {u}" for u in page.bad_urls]
    return found

"""A small campaign made through the real store writer, for the site generator's tests.

Three houses play a few turns of the ``dynasty`` ruleset from a real campaign
folder: ``campaign.toml``, a seed in ``secrets.toml``, one order file per house
and turn, each turn resolved and stored as ``chronicle adjudicate`` does. On
top of what the engine produces, each stored turn carries real engine values
the site must handle or must hide: a Blood Royale battle and wealth rows, a
secret roll, a private notice, a private rejection, and England's order file
with a secret line. Hostile names and a hostile commentary file come with the
campaign. Tests assert that the secrets never reach the site.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import tomli_w

from adjudicator.dice import Roll
from adjudicator.events import Event, Notice
from adjudicator.orders import Rejection
from adjudicator.rulesets.base import TurnResult
from adjudicator.rulesets.blood_royale.battle import (
    BattleFought,
    BattleSide,
    Flight,
    Outcome,
    Preliminary,
    PreliminaryRoll,
    RoundRoll,
)
from adjudicator.rulesets.blood_royale.events import WealthRow
from adjudicator.state import GameState
from chronicle.campaign.folder import load_campaign, seed_commitment
from chronicle.turn import runner

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


def _spec(*, slug: str, language: str, theme: str) -> dict[str, Any]:
    spec: dict[str, Any] = {"title": "The Fixture Wars", "ruleset": "dynasty", "slug": slug,
                            "start_year": 1300, "language": language, "theme": theme,
                            "seed_commitment": seed_commitment(SEED),
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
        spec["unit"] += [{"id": f"{letter}-1", "house": house, "type": "army"}]
    return spec


def _orders(state: GameState, house: str) -> str:
    """Marry off every unmarried adult of the house, so the families grow apart."""
    text = SECRET_ORDER_TEXT if house == "england" else f"house {house}\n"
    for p in sorted(state.living(), key=lambda p: p.seq):
        if (p.dynasty == house and p.spouse is None and not p.widowed_queen
                and not p.king_consort and p.age(state.year_of(state.turn + 1) + 5) >= 16):
            text += f'marry "{p.name}" to minor-nobility\n'
    return text


def _battle(turn: int) -> BattleFought:
    """A battle between the dynasty houses' only armies, fought at Gascony (B6)."""
    return BattleFought(
        phase="battle-1", id=f"b-{turn}-1", turn=turn, round=1,
        province="gascony", attacker="england", defender="france",
        sides=(
            BattleSide(house="england", units=("E-1",), armies_before=5, armies_after=3,
                       losses=2, commanders=("england-k",), castle=0, outcome=Outcome.HELD),
            BattleSide(house="france", units=("F-1",), armies_before=4, armies_after=1,
                       losses=3, commanders=("france-k",), castle=0, outcome=Outcome.FLED),
        ),
        preliminary=(
            PreliminaryRoll(person="england-k", house="england", unit="E-1", die=9,
                            faces=(4, 5), command=1, total=10, result=Preliminary.BONUS),
            PreliminaryRoll(person="france-k", house="france", unit="F-1", die=5,
                            faces=(2, 3), command=0, total=5, result=Preliminary.NO_EFFECT),
        ),
        rounds=(
            {"england": RoundRoll(die=5, modifiers={"command": 1, "preliminary": 1}, total=7,
                                  losses_inflicted=2, armies_after=4),
             "france": RoundRoll(die=3, modifiers={}, total=3, losses_inflicted=1,
                                 armies_after=2)},
            {"england": RoundRoll(die=4, modifiers={"command": 1}, total=5,
                                  losses_inflicted=1, armies_after=3),
             "france": RoundRoll(die=6, modifiers={}, total=6, losses_inflicted=1,
                                 armies_after=1)},
        ),
        winner="england", fled=(Flight(unit="F-1", house="france", to="guyenne"),),
    )


def _planted(result: TurnResult) -> TurnResult:
    """The turn's result with the fixture's battle, wealth and secrets added."""
    state, turn = result.state, result.state.turn
    events: list[Event] = [*result.events]
    if turn == 2:
        events.append(_battle(turn))
    events += [WealthRow(phase="wealth", house=h, turn=turn, year=state.year_of(turn),
                         treasury=20 + 7 * turn * (i + 1), goods={"wine": i, "cloth": turn},
                         taxes=10 + i, upkeep=3, raised=0,
                         cash_in=12 if (turn, h) == (2, "france") else 0)
               for i, h in enumerate(sorted(state.houses))]
    events.append(Notice(house="england", text="SECRET-NOTICE-e4b9"))
    secret = Roll(turn=turn, phase="fixture", seq=len(result.rolls) + 1,
                  purpose="SECRET-ROLL-PURPOSE", subject=None, dice="1d6", faces=(6,), total=6,
                  secret=True)
    rejection = Rejection(file="england.orders", line=2, text="x", reason=SECRET_REJECTION,
                          house="england")
    return dataclasses.replace(result, events=events, rolls=[*result.rolls, secret],
                               rejections=[*result.rejections, rejection])


def build_fixture(folder: Path, *, turns: int = 4, language: str = "en",
                  slug: str = "fixture-wars", theme: str = "default") -> Path:
    """Play ``turns`` turns into the campaign ``folder`` and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "campaign.toml").write_text(
        tomli_w.dumps(_spec(slug=slug, language=language, theme=theme)), encoding="utf-8")
    (folder / "secrets.toml").write_text(tomli_w.dumps({"seed": SEED}), encoding="utf-8")
    (folder / "commentary").mkdir(exist_ok=True)
    (folder / "commentary/turn-001.md").write_text(HOSTILE_COMMENTARY, encoding="utf-8")
    campaign = load_campaign(folder)
    ruleset = runner.ruleset_of(campaign)
    store, state = runner.create_store(campaign, ruleset, campaign.store_path)
    for turn in range(1, turns + 1):
        orders = campaign.orders_dir(turn)
        orders.mkdir(parents=True)
        for house in sorted(state.houses):
            (orders / f"{house}.orders").write_text(_orders(state, house), encoding="utf-8")
        outcome = runner.resolve_next(campaign, ruleset, state)
        result = _planted(outcome.result)
        store.commit_turn(state, result, outcome.orders, adjudicated_at=adjudicated(turn))
        state = result.state
    store.close()
    return folder


def adjudicated(turn: int) -> str:
    """When the fixture's turn ``turn`` counts as adjudicated: one a week from March 2026."""
    moment = datetime(2026, 3, 1, 20, tzinfo=UTC) + timedelta(weeks=turn - 1)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


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
        if tag == "script" and values.get("type") == "application/json" and "src" not in values:
            # Data a script reads, never run (the relationship finder's words).
            self.scripts.append(f"<data {values.get('id', '')}>")
        elif tag in ("script", "iframe", "embed", "base", "frame"):
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
    """Scripts other than the theme's own, handlers, script URLs.

    The theme's own: the diagram zoom and the kinship finder anywhere, the
    search page's three, and the relationship finder's data, ``kin.js``
    beside it (issue 16, item 4: a script, since ``fetch`` fails from ``file://``),
    and its words, JSON in the page (issue 19, item 4).
    """
    page = parse_page(text)
    anywhere = ("static/diagram.js", "static/kinship.js")
    search = ("static/search.js", "static/minisearch.js", "search-index.js")
    own = (("kin.js", "<data kin-words>") if name.endswith("relationship/index.html")
           else ())
    found = [f"{name}: script {s}" for s in page.scripts
             if not s.endswith(anywhere) and s not in own
             and not (s.endswith(search) and name.endswith("search/index.html"))]
    found += [f"{name}: handler {h}" for h in page.handlers]
    found += [f"{name}: url {u}" for u in page.bad_urls]
    return found


def no_child_processes() -> bool:
    """True if this process has no child left, running or unreaped."""
    import os

    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False

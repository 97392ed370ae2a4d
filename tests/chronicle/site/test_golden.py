"""Golden files: seed + orders → events, rolls and export per ruleset; a reference site.

DESIGN.md, "Determinism": "Running a turn twice with the same orders gives the
same store." Each case under ``tests/golden/<case>/`` holds the order files the
built-in players once wrote, frozen, and what the engine made of them: every
stored event, public or private, every roll, every rejected line, the private
reports, and ``chronicle export --format json``; ``tests/golden/reference-site/`` holds the site
built from the blood-royale case. A change to any of them fails here with the
first differing line; ``tests/golden/README.md`` says how to accept one.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from golden_files import GOLDEN, UPDATE, check_text, check_tree
from site_fixture import site_files

from adjudicator.dice import SeededDice
from chronicle.campaign.folder import load_campaign
from chronicle.campaign.scaffold import scaffold
from chronicle.commands.cli import cli
from chronicle.play.demo import play_turns
from chronicle.site import build_site
from chronicle.site.writer import MANIFEST
from chronicle.turn import runner

SEED = "golden-seed-1"


@dataclass(frozen=True)
class Case:
    name: str
    ruleset: str
    world: str | None
    turns: int

    @property
    def golden(self) -> Path:
        return GOLDEN / self.name


CASES = (
    Case("dynasty", "dynasty", None, 4),
    Case("blood-royale", "blood-royale", None, 3),
    Case("westeros", "blood-royale", "westeros", 3),
    Case("familles", "familles", None, 30),
)
OUTPUTS = ("events.jsonl", "rolls.jsonl", "rejections.jsonl", "export.json")


def _draw_orders(case: Case, scratch: Path) -> None:
    """Let the built-in players write the case's order files, once; they are frozen after."""
    folder = scratch / "players" / case.name
    scaffold(folder, case.ruleset, world=case.world, seed=SEED)
    play_turns(folder, case.turns, SEED)
    shutil.copytree(folder / "orders", case.golden / "orders")


def play(case: Case, scratch: Path, orders: Path | None = None) -> Path:
    """A fresh campaign folder of ``case`` with every turn of ``orders`` adjudicated
    (by default the case's frozen orders)."""
    if orders is None:
        orders = case.golden / "orders"
    if not orders.is_dir():
        if not UPDATE:
            pytest.fail(f"{case.name}: no frozen orders in tests/golden/{case.name}/orders",
                        pytrace=False)
        _draw_orders(case, scratch)
    root = scratch / case.name
    # The seed is written here, never checked in: secrets.toml is not tracked.
    scaffold(root, case.ruleset, world=case.world, title=f"Golden {case.name}", seed=SEED)
    shutil.copytree(orders, root / "orders", dirs_exist_ok=True)
    campaign = load_campaign(root)
    for number, _folder in enumerate(sorted(orders.glob("turn-*")), start=1):
        # A fixed date a turn: the feed of the reference site is dated by them.
        runner.adjudicate(campaign, at=f"2026-01-{number:02d}T18:00:00Z")
    return root


def _lines(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


def outputs(root: Path) -> dict[str, str]:
    """What the store and the export say of a played campaign, as stable text."""
    campaign = load_campaign(root)
    store = runner.open_store(campaign, runner.ruleset_of(campaign))
    events = [{"turn": e.turn, "seq": e.seq, "phase": e.phase, "kind": e.kind,
               "public": e.public, "payload": json.loads(e.payload)}
              for e in store.events(public_only=False)]
    store.close()
    # The dice and the rejections as SQLite holds them, read apart from the store's code.
    con = sqlite3.connect(campaign.store_path)
    try:
        rolls = [{"turn": turn, "seq": seq, "phase": phase, "purpose": purpose,
                  "subject": subject, "dice": dice, "faces": json.loads(faces),
                  "total": total, "secret": bool(secret)}
                 for turn, seq, phase, purpose, subject, dice, faces, total, secret
                 in con.execute("SELECT turn, seq, phase, purpose, subject, dice, faces, "
                                "total, secret FROM rolls ORDER BY turn, seq, id")]
        rejections = [{"turn": turn, "house": house, "file": file, "line": line,
                       "text": text, "reason": reason}
                      for turn, house, file, line, text, reason in con.execute(
                          "SELECT turn, house, file, line, text, reason FROM rejections "
                          "ORDER BY turn, id")]
    finally:
        con.close()
    store.close()
    export = CliRunner().invoke(cli, ["export", str(root), "--format", "json"])
    assert export.exit_code == 0, export.output
    return {"events.jsonl": _lines(events), "rolls.jsonl": _lines(rolls),
            "rejections.jsonl": _lines(rejections), "export.json": export.output}


@dataclass(frozen=True)
class Played:
    case: Case
    outputs: dict[str, str]
    reports: dict[str, bytes]


@pytest.fixture(scope="module", params=CASES, ids=[c.name for c in CASES])
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Played:
    case: Case = request.param
    root = play(case, tmp_path_factory.mktemp(case.name))
    # The reports themselves: the folder's bookkeeping (``.complete``) is the runner's.
    reports = {name: text for name, text in site_files(root / "reports").items()
               if name.endswith(".md")}
    return Played(case, outputs(root), reports)


@pytest.mark.parametrize("output", OUTPUTS)
def test_the_frozen_orders_give_the_golden_output(played: Played, output: str) -> None:
    """The same seed and the same order files give, line for line, the checked-in output."""
    check_text(played.case.golden / output, played.outputs[output])


def test_the_frozen_orders_give_the_golden_private_reports(played: Played) -> None:
    """Every house's private report of every turn, and the arbiter's, word for word."""
    check_tree(played.case.golden / "reports", played.reports)


def test_every_ruleset_has_a_golden_case() -> None:
    """The issue's check: "The golden files exist for all three rulesets"."""
    assert {c.ruleset for c in CASES} == {"dynasty", "blood-royale", "familles"}
    for case in CASES:
        assert sorted(p.name for p in case.golden.glob("orders/turn-*")), case.name
        assert all((case.golden / name).is_file() for name in OUTPUTS), case.name
        assert sorted(p.name for p in case.golden.glob("reports/turn-*")), case.name


def test_the_reference_site_is_rebuilt_byte_for_byte(tmp_path: Path) -> None:
    """The site of the blood-royale case (battles, wealth, genealogies, maps), every file.

    DESIGN.md, "Determinism": "Building twice gives byte-identical sites." The
    manifest is left out: it fingerprints the store file and the package's
    sources, which change with any commit.
    """
    campaign = play(CASES[1], tmp_path)
    build_site([campaign], tmp_path / "site")
    produced = site_files(tmp_path / "site")
    del produced[MANIFEST]
    assert any(name.startswith("blood-royale/battles/b-") for name in produced)
    check_tree(GOLDEN / "reference-site", produced)


class OneFaceTurned(SeededDice):
    """The seeded dice, but on turn 1 the first die of more than one face shows the next face."""

    def __init__(self, seed: str, turn: int, phase: str = "setup") -> None:
        super().__init__(seed, turn, phase)
        self.pending = turn == 1

    def _face(self, sides: int) -> int:
        face = super()._face(sides)
        if self.pending and sides > 1:
            self.pending = False
            return face % sides + 1
        return face


needs_goldens = pytest.mark.skipif(UPDATE, reason="compares against the goldens being rewritten")


@needs_goldens
def test_one_changed_die_fails_the_golden(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The net catches a single die showing another face."""
    case = CASES[0]
    monkeypatch.setattr(runner, "SeededDice", OneFaceTurned)
    produced = outputs(play(case, tmp_path))
    with pytest.raises(pytest.fail.Exception, match=r"rolls.jsonl: first difference at line"):
        check_text(case.golden / "rolls.jsonl", produced["rolls.jsonl"])


@needs_goldens
def test_one_changed_order_line_fails_the_golden(tmp_path: Path) -> None:
    """The net catches one order line changed: a birth attempted fewer times."""
    case = CASES[0]
    orders = tmp_path / "orders"
    shutil.copytree(case.golden / "orders", orders)
    order = orders / "turn-001" / "england.orders"
    text = order.read_text(encoding="utf-8")
    assert "birth E1000 attempts 3" in text
    order.write_text(text.replace("birth E1000 attempts 3", "birth E1000 attempts 1"),
                     encoding="utf-8")
    produced = outputs(play(case, tmp_path, orders))
    with pytest.raises(pytest.fail.Exception, match=r"(?s)events.jsonl: first difference.*birth"):
        check_text(case.golden / "events.jsonl", produced["events.jsonl"])

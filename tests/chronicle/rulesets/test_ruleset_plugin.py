"""A ruleset is a plug-in: adding one touches only its own files (issue: architecture).

``coin_ruleset`` is a fourth ruleset that lives in the tests. Registered at
run time, with no other file changed, it must be offered by the command
line and play a campaign from ``chronicle new`` to a published site, the
same way the built-in rulesets do.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from pathlib import Path

import coin_ruleset
import pytest
from cli_support import run
from repo_paths import REPO

from chronicle import rulesets

ROOT = REPO



@pytest.fixture
def coin() -> Iterator[None]:
    rulesets.register(coin_ruleset.DESCRIPTOR)
    try:
        yield
    finally:
        rulesets.unregister("coin")


def test_an_unregistered_ruleset_is_not_offered(tmp_path: Path) -> None:
    result = run("new", tmp_path / "c", "--ruleset", "coin")
    assert result.exit_code == 2 and "coin" in result.output


def test_a_fourth_ruleset_plays_reports_exports_and_publishes(coin: None, tmp_path: Path) -> None:
    camp = tmp_path / "coin"
    assert run("new", camp, "--ruleset", "coin", "--seed", "heads-or-tails").exit_code == 0
    (camp / "orders" / "turn-001" / "heads.orders").write_text("house heads\ntoss\ntoss\n")
    checked = run("check", camp)
    assert checked.exit_code == 1 and "heads.orders:3: toss: one toss a turn" in checked.output
    for turn in (1, 2):
        (camp / "orders" / f"turn-{turn:03d}").mkdir(exist_ok=True)
        assert run("adjudicate", camp, "--yes").exit_code == 0
    # The report's calendar is the ruleset's own.
    report = (camp / "reports" / "turn-002" / "tails.md").read_text()
    assert report.startswith("# House Tails: toss 2\n")
    assert "You sent no orders: you got the defaults (a toss)." in report
    exported = json.loads(run("export", camp).output)
    assert exported["campaign"]["ruleset"] == "coin" and exported["turn"] == 2
    assert [t["house"] for t in exported["tosses"]] == ["heads", "tails", "heads", "tails"]
    assert all(t["face"] in range(1, 7) for t in exported["tosses"])
    assert run("template", camp).exit_code == 0
    assert (camp / "templates" / "turn-003" / "heads.orders").read_text() == \
        "house heads\ntoss\n"
    site = tmp_path / "site"
    assert run("build", camp, "-o", site).exit_code == 0
    assert (site / "coin" / "turns" / "turn-002" / "index.html").is_file()


def test_the_demo_plays_a_fourth_ruleset_with_its_built_in_player(coin: None,
                                                                  tmp_path: Path) -> None:
    out, site = tmp_path / "demo", tmp_path / "site"
    result = run("demo", "--ruleset", "coin", "--out", out, "--site", site)
    assert result.exit_code == 0, result.output
    assert "Played 3 turns of coin" in result.output
    assert (out / "orders" / "turn-003" / "heads.orders").read_text().endswith("toss\n")
    assert (site / "index.html").is_file()


def _string_tests_of_ruleset_names(path: Path, names: set[str]) -> list[str]:
    """``x == "familles"``-style comparisons and membership tests of ruleset names."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            strings = {o.value for o in operands
                       if isinstance(o, ast.Constant) and isinstance(o.value, str)}
            for o in operands:
                if isinstance(o, ast.Tuple | ast.List | ast.Set):
                    strings |= {e.value for e in o.elts if isinstance(e, ast.Constant)
                                and isinstance(e.value, str)}
            if strings & names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_code_outside_the_descriptors_asks_which_ruleset_it_is() -> None:
    """No ``ruleset == "..."`` test anywhere in ``chronicle/`` outside the registry."""
    names = set(rulesets.ruleset_ids()) | set(rulesets.all_worlds())
    found = [hit for path in sorted((ROOT / "chronicle").rglob("*.py"))
             if "rulesets" not in path.relative_to(ROOT / "chronicle").parts
             for hit in _string_tests_of_ruleset_names(path, names)]
    assert found == []


def test_the_check_for_ruleset_name_tests_finds_one(tmp_path: Path) -> None:
    planted = ROOT / "chronicle" / "_planted_for_test.py"
    planted.write_text('def f(r: str) -> bool:\n    return r in ("x", "familles")\n')
    try:
        assert _string_tests_of_ruleset_names(planted, {"familles"}) == [
            "chronicle/_planted_for_test.py:2"]
    finally:
        planted.unlink()

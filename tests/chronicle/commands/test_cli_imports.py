"""Issue 15: "Lazy imports: each command imports only what it uses."

Each command runs in a new interpreter, as the arbiter types it, and the test
reads back which modules it loaded. The start-up commands must load neither
the database library nor the site generator; the commands of the turn load
the store but not the site generator; only ``build`` loads that.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from chronicle.campaign.scaffold import scaffold

# Run as ``chronicle ARGS`` would be, then print the loaded modules.
PROBE = """
import json, sys
from chronicle.commands.cli import cli
try:
    cli(sys.argv[1:], prog_name="chronicle")
except SystemExit:
    pass
print("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""

STORE = ("sqlalchemy", "sqlmodel")
SITE = ("jinja2", "markdown", "pygraphviz", "nh3", "pygal", "chronicle.site.build")
ENGINE = ("adjudicator.rulesets.base",)


def loaded(*args: str | Path, cwd: Path | None = None) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *map(str, args)], capture_output=True,
                          text=True, check=True, cwd=cwd)
    line = done.stdout.rsplit("MODULES ", 1)[1]
    return set(json.loads(line))


def none_of(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["build", "--help"]])
def test_start_up_loads_no_store_no_site_no_engine(args: list[str]) -> None:
    modules = loaded(*args)
    assert none_of(modules, STORE + SITE + ENGINE) == []


def test_the_turn_commands_load_neither_the_orm_nor_the_site(tmp_path: Path) -> None:
    """The ORM turns the tables' declarations into SQL when a store is made (or
    was made by an earlier version): the first turn loads it; every later
    command reads and writes the store with plain SQL (``storefile``, ``store``)."""
    campaign = tmp_path / "c"
    scaffold(campaign, "blood-royale", seed="imports")
    assert none_of(loaded("check", campaign), SITE) == []
    modules = loaded("adjudicate", campaign, "--yes")
    assert none_of(modules, SITE) == []
    assert "sqlalchemy" in modules  # it made the store: the probe sees real work
    assert (campaign / "chronicle.sqlite").is_file()
    (campaign / "orders" / "turn-002").mkdir(parents=True, exist_ok=True)
    modules = loaded("adjudicate", campaign, "--yes")
    assert "chronicle.store.turns" in modules and (campaign / "reports" / "turn-002").is_dir()
    assert none_of(modules, (*STORE, *SITE, "pydantic", "chronicle.store.models")) == []
    (campaign / "orders" / "turn-003").mkdir(parents=True, exist_ok=True)
    for args in (["check", campaign], ["status", campaign],
                 ["template", campaign, "--auto", "england"]):
        modules = loaded(*args)
        assert "chronicle.store.file" in modules, args  # it read the store
        assert none_of(modules, (*STORE, *SITE, "pydantic", "chronicle.store.models")) == [], args


def test_build_loads_the_site_generator(tmp_path: Path) -> None:
    """The check can fail: the same probe sees the generator when it is used."""
    campaign = tmp_path / "c"
    scaffold(campaign, "blood-royale", seed="imports")
    loaded("adjudicate", campaign, "--yes")
    modules = loaded("build", campaign, "-o", tmp_path / "site")
    assert "jinja2" in modules and (tmp_path / "site" / "index.html").is_file()
    # It reads the store with plain SQL: the ORM is for writing turns.
    assert none_of(modules, (*STORE, "pydantic", "chronicle.store.models")) == []


def test_a_build_with_nothing_changed_loads_neither_store_nor_site(tmp_path: Path) -> None:
    """Issue 15: "chronicle build with nothing changed" must start at once: the
    inputs are hashed and compared with the manifest before anything heavy loads."""
    campaign, site = tmp_path / "c", tmp_path / "site"
    scaffold(campaign, "blood-royale", seed="imports")
    loaded("adjudicate", campaign, "--yes")
    first = loaded("build", campaign, "-o", site)
    assert "jinja2" in first
    again = loaded("build", campaign, "-o", site)
    assert none_of(again, STORE + SITE) == []
    # The arbiter's commentary changes the turn's page: the same command builds.
    (campaign / "commentary" / "turn-001.md").write_text("Hear ye.\n", encoding="utf-8")
    assert "jinja2" in loaded("build", campaign, "-o", site)


@pytest.mark.parametrize(("ruleset", "others"), [
    ("dynasty", ("adjudicator.rulesets.blood_royale", "adjudicator.rulesets.familles")),
    ("familles", ("adjudicator.rulesets.blood_royale",)),
])
def test_a_turn_loads_no_other_rulesets_engine(tmp_path: Path, ruleset: str,
                                               others: tuple[str, ...]) -> None:
    """A ruleset's sentences are loaded with the first of its events told, so
    a campaign's turn loads neither another ruleset's sentences nor its engine."""
    campaign = tmp_path / "c"
    scaffold(campaign, ruleset, seed="imports")
    modules = loaded("adjudicate", campaign, "--yes")
    assert (campaign / "reports" / "turn-001").is_dir()  # it did tell the turn
    assert none_of(modules, others) == []
    assert none_of(modules, (f"adjudicator.rulesets.{ruleset}",)) != []

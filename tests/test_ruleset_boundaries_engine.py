"""Generic code asks the ruleset, never names what belongs to one (the engine's and
the application's generic modules outside the site).

A generic module must not hold, as a string literal, an event kind that a
ruleset's own package defines (Blood Royale's, the card game's, the dynastic
library's), nor a unit type: it asks the descriptor (``chronicle.rulesets.base``)
or the engine's ``Ruleset`` instead. The site's modules have a test of their own
(``tests/test_architecture.py``).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The packages whose event classes belong to one ruleset (or to the dynastic
#: rulesets only): generic code may not name their kinds.
RULESET_PACKAGES = ("adjudicator/rulesets/blood_royale", "adjudicator/rulesets/familles",
                    "adjudicator/dynastic")

#: The generic modules this test holds to the rule (globs under the project's root).
GENERIC = ("adjudicator/state.py", "adjudicator/events.py", "adjudicator/messages.py",
           "adjudicator/rulesets/base.py", "chronicle/store/*.py",
           "chronicle/archival/export.py", "chronicle/archival/gedcom.py",
           "chronicle/play/simulate.py", "chronicle/play/players.py",
           "chronicle/narration/narrator.py", "chronicle/narration/plain.py",
           "chronicle/campaign/folder.py", "chronicle/i18n/localnames.py",
           "chronicle/i18n/reasons.py", "chronicle/commands/cli.py",
           "chronicle/rulesets/__init__.py")


def _kind_of(node: ast.ClassDef) -> str | None:
    """The ``kind`` an event class declares in its body, if any."""
    for statement in node.body:
        target: ast.expr
        if isinstance(statement, ast.AnnAssign):
            target, value = statement.target, statement.value
        elif isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id == "kind" \
                and isinstance(value, ast.Constant) and isinstance(value.value, str):
            return value.value
    return None


def ruleset_event_kinds() -> dict[str, str]:
    """Every event kind a ruleset's own package defines -> the file defining it."""
    found: dict[str, str] = {}
    for package in RULESET_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    kind = _kind_of(node)
                    if kind is not None:
                        found[kind] = str(path.relative_to(ROOT))
    return found


def unit_types() -> set[str]:
    """Every unit type the content packs declare (``unit-types.toml``, a world's
    ``[unit_types]``)."""
    found: set[str] = set()
    for path in sorted((ROOT / "content").rglob("*.toml")):
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        if path.name == "unit-types.toml":
            found.update(table)
        found.update(table.get("unit_types", {}))
    return found


def generic_modules() -> list[Path]:
    return sorted({p for pattern in GENERIC for p in ROOT.glob(pattern)})


def offenders(paths: list[Path], banned: dict[str, str]) -> list[str]:
    """``file:line: 'literal' (whose)`` for every banned string literal in ``paths``."""
    out = []
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and node.value in banned:
                shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                out.append(f"{shown}:{node.lineno}: {node.value!r} "
                           f"({banned[node.value]})")
    return sorted(out)


def test_the_lists_are_found() -> None:
    kinds = ruleset_event_kinds()
    assert {"battle", "cash-in", "familles-dealt", "death"} <= set(kinds)
    assert "notice" not in kinds and "ruling" not in kinds  # the generic events'
    assert {"army", "fleet", "dragon"} <= unit_types()
    assert len(generic_modules()) >= len(GENERIC)


def test_generic_modules_name_no_ruleset_event_kind_nor_unit_type() -> None:
    banned = {kind: f"an event kind of {where}" for kind, where in ruleset_event_kinds().items()}
    banned.update({unit: "a unit type" for unit in unit_types()})
    assert offenders(generic_modules(), banned) == []


def test_the_finder_finds_an_offender(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text('KINDS = ("battle", "a battle")\n', encoding="utf-8")
    found = offenders([probe], {"battle": "Blood Royale"})
    assert len(found) == 1 and found[0].endswith(":1: 'battle' (Blood Royale)")

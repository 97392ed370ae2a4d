"""Golden files: checked-in expected outputs, compared exactly, rewritten on purpose.

A normal run only compares. ``CHRONICLE_UPDATE_GOLDEN=1`` rewrites the
expected files from what the code produces now; ``tests/golden/README.md``
says when that is the right thing to do.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest
from site_fixture import site_files

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CHRONICLE_UPDATE_GOLDEN") == "1"
HOW_TO_UPDATE = ("if the change is intended, run CHRONICLE_UPDATE_GOLDEN=1 python -m pytest "
                 "tests/test_golden.py and commit the new files (tests/golden/README.md)")


def text_difference(name: str, expected: str, produced: str) -> str | None:
    """None if the texts are equal; else the first differing line, with context."""
    if expected == produced:
        return None
    want, got = expected.splitlines(keepends=True), produced.splitlines(keepends=True)
    first = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
                 min(len(want), len(got)))
    diff = list(difflib.unified_diff(want, got, f"expected {name}", f"produced {name}", n=3))
    # The first hunk is the first difference; later ones would bury it.
    later = next((i for i, line in enumerate(diff[3:], start=3) if line.startswith("@@")),
                 len(diff))
    return (f"{name}: first difference at line {first + 1}\n" + "".join(diff[:later])
            + ("…\n" if later < len(diff) else ""))


def tree_difference(name: str, expected: dict[str, bytes], produced: dict[str, bytes]) -> str | None:
    """None if both trees hold the same files, byte for byte; else what differs, by name."""
    added = sorted(produced.keys() - expected.keys())
    missing = sorted(expected.keys() - produced.keys())
    changed = sorted(k for k in expected.keys() & produced.keys() if expected[k] != produced[k])
    if not (added or missing or changed):
        return None
    lines = [f"{name}: the produced files differ from the golden ones"]
    lines += [f"  added:   {k}" for k in added]
    lines += [f"  missing: {k}" for k in missing]
    lines += [f"  changed: {k}" for k in changed]
    if changed:
        first = changed[0]
        lines.append(text_difference(first, expected[first].decode("utf-8", "replace"),
                                     produced[first].decode("utf-8", "replace")) or "")
    return "\n".join(lines)


def check_text(path: Path, produced: str) -> None:
    """Fail with the first difference unless ``path`` holds ``produced``; rewrite it on update."""
    name = path.relative_to(GOLDEN).as_posix()
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(produced.encode("utf-8"))
        return
    if not path.is_file():
        pytest.fail(f"{name}: no golden file yet; {HOW_TO_UPDATE}", pytrace=False)
    difference = text_difference(name, path.read_bytes().decode("utf-8"), produced)
    if difference:
        pytest.fail(f"{difference}\n{HOW_TO_UPDATE}", pytrace=False)


def check_tree(folder: Path, produced: dict[str, bytes]) -> None:
    """Fail naming every added, missing and changed file; replace the folder on update."""
    name = folder.relative_to(GOLDEN).as_posix()
    if UPDATE:
        shutil.rmtree(folder, ignore_errors=True)
        for relative, data in produced.items():
            (folder / relative).parent.mkdir(parents=True, exist_ok=True)
            (folder / relative).write_bytes(data)
        return
    difference = tree_difference(name, site_files(folder) if folder.is_dir() else {}, produced)
    if difference:
        pytest.fail(f"{difference}\n{HOW_TO_UPDATE}", pytrace=False)

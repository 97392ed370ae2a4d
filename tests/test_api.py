"""The public API (``chronicle/__init__.py``, docs/api.md): the command line's verbs
as functions, every refusal a ``ChronicleError``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import chronicle

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_resolves_and_is_documented() -> None:
    documented = (ROOT / "docs" / "api.md").read_text("utf-8")
    for name in chronicle.__all__:
        assert getattr(chronicle, name) is not None
        if name[0].islower() and not name.startswith("_"):
            assert f"`{name}(" in documented, f"docs/api.md does not document {name}"
    with pytest.raises(AttributeError):
        _ = chronicle.no_such_name  # type: ignore[attr-defined]


def test_the_documented_script_plays_publishes_ends_and_verifies(
        capsys: pytest.CaptureFixture[str]) -> None:
    """docs/api.md's example runs as written."""
    text = (ROOT / "docs" / "api.md").read_text("utf-8")
    script = re.search(r"## A whole campaign, from a script.*?```python\n(.*?)```", text,
                       re.S)
    assert script is not None
    exec(compile(script.group(1), "docs/api.md", "exec"), {})
    out = capsys.readouterr().out
    assert re.search(r"^turn 3: \d+ events$", out, re.M), out
    assert re.search(r"^\d+ rolls, seed revealed: True$", out, re.M), out


def test_a_refusal_is_a_chronicle_error_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(chronicle.ChronicleError, match="not a campaign folder"):
        chronicle.open_campaign(tmp_path / "nothing-here")
    folder = chronicle.new_campaign(tmp_path / "c", "dynasty", seed="s")
    with pytest.raises(chronicle.ChronicleError, match="not empty"):
        chronicle.new_campaign(folder, "dynasty")
    with pytest.raises(chronicle.ChronicleError, match="adjudicated already"):
        chronicle.adjudicate(folder, through=0)


def test_read_dice_gives_every_recorded_roll(tmp_path: Path) -> None:
    folder = chronicle.new_campaign(tmp_path / "c", "dynasty", seed="dice")
    for house in chronicle.open_campaign(folder).spec["house"]:
        chronicle.write_auto_orders(folder, house["id"])
    [outcome] = chronicle.adjudicate(folder)
    record = chronicle.read_dice(folder / "chronicle.sqlite")
    assert record.seed is None  # not revealed before the end
    played = [r for r in record.rolls if r.turn == 1]
    assert played and [(list(r.faces), r.total, r.purpose) for r in played] == \
        [(list(r.faces), r.total, r.purpose) for r in outcome.result.rolls]
    assert all(sum(r.faces) == r.total for r in record.rolls)

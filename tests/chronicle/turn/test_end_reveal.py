"""The end of a campaign reveals every epidemic threshold ever drawn (RULES.md A5.4).

A5.4: the epidemic strikes "when the living exceed 20·N + y", y drawn in secret
and drawn again after each epidemic. Finding: once a campaign ended, only the
last y was revealed, and the export after ``chronicle end`` still said
``finished: false``. Every y, with when it was drawn and replaced, is revealed
in the store and the export, so that players can check each epidemic.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

from click.testing import CliRunner

from chronicle.commands.cli import cli
from chronicle.play.demo import run_demo
from chronicle.store.turns import Store


def _export(root: Path) -> dict[str, object]:
    result = CliRunner().invoke(cli, ["export", str(root)])
    assert result.exit_code == 0, result.output
    data: dict[str, object] = json.loads(result.output)
    return data


def test_every_threshold_drawn_is_revealed_at_the_end_and_only_then(tmp_path: Path) -> None:
    root = tmp_path / "demo"
    # This seed's campaign has several epidemics in 20 turns, so several thresholds are
    # drawn: a margin, as any rules change that moves a name or a die replays it otherwise.
    run_demo(ruleset="dynasty", turns=20, seed="qa-epidemics-2", out=root, site=None,
             quiet=True)
    before = _export(root)["campaign"]
    assert isinstance(before, dict)
    assert before["finished"] is False
    assert "seed" not in before and "epidemic_thresholds" not in before
    assert "epidemic_threshold" not in before
    assert CliRunner().invoke(cli, ["end", str(root)]).exit_code == 0
    after = _export(root)["campaign"]
    assert isinstance(after, dict)
    assert after["finished"] is True and after["seed"] == "qa-epidemics-2"
    drawn = after["epidemic_thresholds"]
    assert isinstance(drawn, list) and len(drawn) >= 2
    assert drawn[0]["drawn_turn"] == 0
    for earlier, later in itertools.pairwise(drawn):
        assert earlier["replaced_turn"] == later["drawn_turn"]
    assert drawn[-1]["replaced_turn"] is None
    # Each y is the one the state held while it was in force.
    store = Store.open(root / "chronicle.sqlite")
    for turn in range(store.last_turn() + 1):
        held = next(d["threshold"] for d in reversed(drawn) if d["drawn_turn"] <= turn)
        assert store.state(turn).epidemic_threshold == held, turn
    assert after["epidemic_threshold"] == drawn[-1]["threshold"]
    row = store.campaign()
    assert json.loads(row.revealed)["epidemic_thresholds"] == drawn


def test_the_site_of_an_ended_campaign_lists_every_threshold_and_none_before(
        tmp_path: Path) -> None:
    """The site shows the thresholds once, and only once, the campaign has ended."""
    root = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=20, seed="qa-epidemics-2", out=root, site=None,
             quiet=True)
    site = tmp_path / "site"
    assert CliRunner().invoke(cli, ["build", str(root), "-o", str(site)]).exit_code == 0
    home = next(site.glob("*/index.html")).read_text()
    assert "The epidemic thresholds" not in home
    assert CliRunner().invoke(cli, ["end", str(root)]).exit_code == 0
    assert CliRunner().invoke(cli, ["build", str(root), "-o", str(site)]).exit_code == 0
    home = next(site.glob("*/index.html")).read_text()
    drawn = _export(root)["campaign"]["epidemic_thresholds"]  # type: ignore[index]
    assert "The epidemic thresholds" in home
    rows = home.split('id="thresholds"')[1].split("</table>")[0].count("<tr><td")
    assert rows == len(drawn) >= 2


def test_after_the_end_adjudicate_and_preview_refuse(tmp_path: Path) -> None:
    """DESIGN.md: `chronicle end` reveals the seed; "from then on `adjudicate`,
    `preview` and `mail import` refuse with exit 1"."""
    root = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=2, seed="ended", out=root, site=None, quiet=True)
    (root / "orders" / "turn-003").mkdir()
    assert CliRunner().invoke(cli, ["end", str(root)]).exit_code == 0
    for command in ("adjudicate", "preview"):
        result = CliRunner().invoke(cli, [command, str(root)])
        assert result.exit_code == 1, result.output
        assert "the campaign has ended (chronicle end)" in result.output
    assert Store.open(root / "chronicle.sqlite").last_turn() == 2

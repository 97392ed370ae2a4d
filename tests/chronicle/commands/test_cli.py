"""The command line (DESIGN.md "Command line"), driven as the arbiter types it.

Exit codes: 0 success; 1 refused input (a campaign file, or orders under `check`);
2 a usage error. Anything a user can write gets a message, never a traceback.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import tomli_w
from cli_support import run
from dynasty_helpers import ROOT, store_dump, two_houses, write_campaign, write_orders

from adjudicator.dynastic.orders import DYNASTY_GRAMMAR
from adjudicator.orders import parse_orders

SEED = "qa-SECRET-seed-7731"



@pytest.fixture
def camp(tmp_path: Path) -> Path:
    return write_campaign(tmp_path / "camp", two_houses(), seed=SEED)


GOOD = {"england": "house england\nbirth E1000 attempts 2\n",
        "france": "house france\n# nothing to say\n"}


def test_cli_new_scaffolds_a_dynasty_campaign(tmp_path: Path) -> None:
    """DESIGN.md: `chronicle new <dir>` scaffolds campaign.toml, secrets.toml, orders/."""
    result = run("new", tmp_path / "c", "--ruleset", "dynasty", "--seed", SEED)
    assert result.exit_code == 0, result.output
    for name in ("campaign.toml", "secrets.toml", "orders/turn-001"):
        assert (tmp_path / "c" / name).exists()
    assert SEED not in (tmp_path / "c" / "campaign.toml").read_text()
    assert run("check", tmp_path / "c").exit_code == 0  # an empty turn folder is fine
    again = run("new", tmp_path / "c", "--ruleset", "dynasty")
    assert again.exit_code == 1 and "not empty" in again.output


@pytest.mark.parametrize("args", [["frobnicate"], ["check"], ["rollback", "x"],
                                  ["export", "x", "--format", "xml"],
                                  ["new", "x", "--ruleset", "chess"], ["rollback", "x", "--to", "-1"]])
def test_cli_usage_errors_exit_2(args: list[str]) -> None:
    """DESIGN.md: "2 on a usage error"."""
    assert run(*args).exit_code == 2


def test_cli_check_accepts_good_orders_and_adjudicates_nothing(camp: Path) -> None:
    """`chronicle check`: "parse and validate the next turn's orders; adjudicate nothing"."""
    for hid, text in GOOD.items():
        write_orders(camp, 1, hid, text)
    result = run("check", camp)
    assert result.exit_code == 0, result.output
    assert "1 lines accepted, 0 rejected" in result.output
    assert not (camp / "chronicle.sqlite").exists()


def test_cli_check_rejects_with_file_line_text_reason(camp: Path) -> None:
    """DESIGN.md: `england.orders:7: marry E1200 to F1a00: France did not declare this
    marriage` — every rejected line with file, line, text and reason; exit 1."""
    write_orders(camp, 1, "england", "house england\n# c\nbirth E1000 attempts 5\n"
                                     "assign E9999 to E-1\n")
    result = run("check", camp)
    assert result.exit_code == 1
    assert ("england.orders:3: birth E1000 attempts 5: the number of attempts must be 1 to 3,"
            " not 5") in result.output
    assert "england.orders:4: assign E9999 to E-1: nobody is called 'E9999'" in result.output


GARBAGE = {
    "binary": b"\x00\x01\x02house england\x00\xff",
    "bad-utf8": b"house england\nbirth E1000 \xe9\xff attempts 2\n",
    "misfiled": b"house france\nbirth F1000\n",
    "empty": b"",
    "huge-line": b"house england\n" + b"birth E1000 " + b"x" * 20000 + b"\n",
    "too-big": b"house england\n" + (b"# filler\n" * 40000),
    "no-header": b"birth E1000\n",
    "controls": b"house england\nbirth E1000\x07 attempts 2\n\x1b[31mred\n",
}


@pytest.mark.parametrize("kind", sorted(GARBAGE))
def test_cli_garbage_order_files_never_give_a_traceback(camp: Path, kind: str) -> None:
    """DESIGN.md: "A file that cannot be read at all, for example because its encoding is
    bad or it is misfiled, rejects that house's orders: the house is treated as having
    sent none, and the report says why." `check` exits 1; `adjudicate` exits 0."""
    write_orders(camp, 1, "england", GARBAGE[kind])
    write_orders(camp, 1, "france", GOOD["france"])
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    assert "england.orders" in checked.output
    result = run("adjudicate", camp, "--yes")
    assert result.exit_code == 0, result.output
    report = (camp / "reports" / "turn-001" / "england.md").read_text()
    arbiter = (camp / "reports" / "turn-001" / "arbiter.md").read_text()
    assert "england.orders" in report or "england.orders" in arbiter
    if kind not in ("huge-line", "controls"):
        assert "refused" in report
        assert "defaults applied for: england" in result.output


def test_cli_silent_houses_get_defaults_and_the_report_lists_them(camp: Path) -> None:
    """DESIGN.md: "Blank or default orders for a house that sent nothing are filled in by
    the rules' defaults ... The report lists such houses." """
    write_orders(camp, 1, "england", GOOD["england"])
    result = run("adjudicate", camp, "--yes")
    assert result.exit_code == 0, result.output
    assert "defaults applied for: france" in result.output
    reports = camp / "reports" / "turn-001"
    assert "Houses with defaults: france" in (reports / "arbiter.md").read_text()
    assert "You sent no orders" in (reports / "france.md").read_text()
    assert "You sent no orders" not in (reports / "england.md").read_text()


def test_cli_adjudicate_without_an_order_folder_exits_1(camp: Path) -> None:
    """DESIGN.md: adjudicate "exits 1 when nothing could be adjudicated"."""
    (camp / "orders" / "turn-001").rmdir()
    result = run("adjudicate", camp, "--yes")
    assert result.exit_code == 1 and "turn-001" in result.output


def test_cli_adjudicate_exits_0_despite_rejected_lines(camp: Path) -> None:
    """DESIGN.md: "`adjudicate` exits 0 once the turn is adjudicated, even when some lines
    were rejected; they are in its report." """
    write_orders(camp, 1, "england", "house england\nmarry E1000 to F1000\n")
    result = run("adjudicate", camp, "--yes")
    assert result.exit_code == 0
    assert "england.orders:2: marry E1000 to F1000" in result.output
    report = (camp / "reports" / "turn-001" / "england.md").read_text()
    assert "england.orders:2" in report


def _play(camp: Path, turns: int) -> None:
    for turn in range(1, turns + 1):
        (camp / "orders" / f"turn-{turn:03d}").mkdir(parents=True, exist_ok=True)
        assert run("template", camp, "--auto", "england", "--auto", "france").exit_code == 0
        assert run("adjudicate", camp, "--yes").exit_code == 0


def test_cli_seed_never_appears_in_exports_or_reports(camp: Path) -> None:
    """DESIGN.md: "What never reaches the site: the seed, the epidemic threshold,
    unpublished orders and private reports, while the campaign runs." """
    _play(camp, 4)
    out = run("export", camp, "--format", "json")
    assert out.exit_code == 0
    assert SEED not in out.output and "epidemic_threshold" not in out.output
    gedcom = run("export", camp, "--format", "gedcom")
    assert gedcom.exit_code == 0 and SEED not in gedcom.output
    for path in (camp / "reports").rglob("*.md"):
        assert SEED not in path.read_text(), path
    write_orders(camp, 5, "england", GOOD["england"])
    preview = run("preview", camp)
    assert preview.exit_code == 0 and SEED not in preview.output


def test_cli_export_json_contract(camp: Path, tmp_path: Path) -> None:
    """DESIGN.md "JSON export": top-level keys, houses[] and persons[] fields; also to
    `-o FILE`; the starting state before turn 1."""
    start = json.loads(run("export", camp).output)
    assert start["turn"] == 0 and start["year"] == 1300
    _play(camp, 2)
    out = tmp_path / "x.json"
    assert run("export", camp, "--format", "json", "-o", out).exit_code == 0
    data = json.loads(out.read_text())
    assert set(data) >= {"campaign", "turn", "year", "houses", "persons", "marriages", "units",
                         "provinces", "events", "battles", "wealth"}
    assert data["turn"] == 2 and data["year"] == 1305
    for h in data["houses"]:
        assert set(h) >= {"id", "letter", "law", "ruler", "eliminated", "treasury"}
        assert h["law"] in ("male-preference", "absolute")
    for p in data["persons"]:
        assert set(p) >= {"id", "name", "sex", "born", "died", "death_cause", "dynasty",
                          "court", "father", "mother", "spouse", "refs", "constitution",
                          "command", "ruse", "prisoner_of", "unit"}
        assert p["sex"] in ("M", "F")
    assert json.loads(run("export", camp).output) == data


def test_cli_seed_commitment_mismatch_refuses_the_campaign(camp: Path) -> None:
    """DESIGN.md: "`seed_commitment`: the SHA-256 hex digest of the UTF-8 seed in
    secrets.toml. A mismatch refuses the campaign with exit 1." """
    (camp / "secrets.toml").write_text(tomli_w.dumps({"seed": "another seed"}))
    write_orders(camp, 1, "england", GOOD["england"])
    for command in ("check", "adjudicate", "preview", "export", "template"):
        result = run(command, camp)
        assert result.exit_code == 1, command
        assert "seed_commitment" in result.output


def test_cli_broken_campaign_toml_exits_1_with_the_line(camp: Path) -> None:
    """DESIGN.md: 1 when "a campaign file" was refused; the message says where."""
    (camp / "campaign.toml").write_text('title = "x"\nruleset = = 3\n')
    result = run("check", camp)
    assert result.exit_code == 1 and "campaign.toml:2" in result.output


def test_cli_preview_changes_nothing(camp: Path) -> None:
    """`chronicle preview`: "adjudicate into a throw-away copy and show what would happen"."""
    _play(camp, 1)
    (camp / "orders" / "turn-002").mkdir()
    write_orders(camp, 2, "england", GOOD["england"])
    before = store_dump(camp / "chronicle.sqlite")
    result = run("preview", camp)
    assert result.exit_code == 0 and "Turn 2 (1305)" in result.output
    assert store_dump(camp / "chronicle.sqlite") == before
    assert not (camp / "reports" / "turn-002").exists()


def test_cli_rollback(camp: Path) -> None:
    """`chronicle rollback <campaign> --to N`: "return the store to the end of turn N"."""
    _play(camp, 3)
    assert json.loads(run("export", camp).output)["turn"] == 3
    too_far = run("rollback", camp, "--to", "7")
    assert too_far.exit_code == 1 and "last turn is 3" in too_far.output
    assert run("rollback", camp, "--to", "1").exit_code == 0
    assert json.loads(run("export", camp).output)["turn"] == 1
    assert run("adjudicate", camp, "--yes").exit_code == 0
    assert json.loads(run("export", camp).output)["turn"] == 2


def _one_turn_played(camp: Path, monkeypatch: pytest.MonkeyPatch) -> object:
    """Turn 1 stored, turn 2's folder ready, a short wait for a busy store: the dump."""
    import chronicle.store.turns

    _play(camp, 1)
    (camp / "orders" / "turn-002").mkdir()
    monkeypatch.setattr(chronicle.store.turns, "BUSY_TIMEOUT", 0.05)
    return store_dump(camp / "chronicle.sqlite")


@contextmanager
def _store_held(camp: Path, *statements: str) -> Iterator[None]:
    """Another connection holds the store while the block runs."""
    import sqlite3

    other = sqlite3.connect(camp / "chronicle.sqlite")
    try:
        for statement in statements:
            other.execute(statement).fetchall()
        yield
    finally:
        other.close()


@pytest.mark.parametrize("args", [["adjudicate", "--yes"], ["preview"], ["export"], ["build", "-o", "site"],
                                  ["rollback", "--to", "0"]])
def test_cli_a_store_another_command_holds_is_refused_with_a_message(
        camp: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard 3: no traceback. A store another command is writing (here: holds
    exclusively) is waited for a while, then refused in words; nothing is lost."""
    before = _one_turn_played(camp, monkeypatch)
    command, *rest = [camp.parent / a if a == "site" else a for a in args]
    with _store_held(camp, "BEGIN EXCLUSIVE"):
        result = run(command, camp, *rest)
    assert result.exit_code == 1
    assert "chronicle.sqlite: the store is busy" in result.output
    assert store_dump(camp / "chronicle.sqlite") == before
    assert run(command, camp, *rest).exit_code == 0


def test_cli_a_turn_that_cannot_commit_is_not_stored_at_all(
        camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN.md: a turn is one transaction. A reader (a site being built) that holds
    the store past the wait makes the commit fail: no row and no report is kept."""
    before = _one_turn_played(camp, monkeypatch)
    with _store_held(camp, "BEGIN", "SELECT count(*) FROM campaign"):
        result = run("adjudicate", camp, "--yes")
    assert result.exit_code == 1 and "the store is busy" in result.output
    assert store_dump(camp / "chronicle.sqlite") == before
    assert not (camp / "reports" / "turn-002").exists()
    assert run("adjudicate", camp, "--yes").exit_code == 0
    assert json.loads(run("export", camp).output)["turn"] == 2


def test_cli_rollback_without_a_store_exits_1(camp: Path) -> None:
    result = run("rollback", camp, "--to", "0")
    assert result.exit_code == 1 and "no store yet" in result.output


def test_cli_template_lists_what_a_house_may_order(camp: Path) -> None:
    """DESIGN.md: "`chronicle template` writes each house a ready-to-edit order file for
    the next turn. It lists the eligible couples, the men needing assignment, the
    prisoners and the units." Written to templates/turn-NNN/; it parses cleanly."""
    assert run("template", camp).exit_code == 0
    for hid in ("england", "france"):
        text = (camp / "templates" / "turn-001" / f"{hid}.orders").read_text()
        sheet = parse_orders(text, DYNASTY_GRAMMAR, filename=f"{hid}.orders", expected_house=hid)
        assert sheet.refused is None and sheet.rejections == [] and sheet.orders == []
        letter = hid[0].upper()
        assert f"# birth {letter}1000 attempts 1" in text
        assert f"unit {letter}-1" in text and f"unit {letter}-2" in text
        assert "prisoners" in text.lower()


def test_cli_real_console_never_prints_a_traceback(camp: Path) -> None:
    """The installed entry point, in a real process: garbage in, message out, exit 1."""
    write_orders(camp, 1, "england", GARBAGE["bad-utf8"])
    proc = subprocess.run([sys.executable, "-m", "chronicle.commands.cli", "check", str(camp)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr + proc.stdout
    assert "england.orders" in proc.stdout + proc.stderr

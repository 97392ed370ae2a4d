"""The arbiter's loop around a turn (issue 17 items 4-6): status and deadlines, the
empty folder, a real end, and corrections (rollback, --through)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from cli_support import run
from mail_support import campaign, message


def _status(root: Path) -> dict[str, object]:
    result = run("status", root, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert isinstance(data, dict)
    return data


def _deadlines(root: Path, text: str) -> None:
    path = root / "campaign.toml"
    body = path.read_text("utf-8")
    head, sep, rest = body.partition("\n[[house]]")
    path.write_text(head + "\n" + text + "\n" + sep + rest, encoding="utf-8")


def _line(root: Path, start: str) -> int:
    lines = (root / "campaign.toml").read_text("utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.startswith(start))


def test_status_json_before_and_after_orders_arrive(tmp_path: Path) -> None:
    """DESIGN.md `status`: "`--json` prints `{"turn", "year", "deadline", "houses":
    [{"id", "orders", "received_at", "nmr"}]}`", orders "`received`, `missing` or
    `refused`"; the deadline from "a `cadence` in `campaign.toml`" (issue 17 item 4)."""
    root = campaign(tmp_path)
    _deadlines(root, 'cadence = "7 days"\n\n[deadline]\n1 = 2026-12-08T18:00:00Z')
    before = _status(root)
    assert before == {"turn": 1, "year": 1300, "deadline": "2026-12-08T18:00:00Z",
                      "houses": [{"id": h, "orders": "missing", "received_at": None, "nmr": 0}
                                 for h in ("castile", "england", "france")]}
    sent = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)
    (tmp_path / "a.eml").write_bytes(message(
        "bob@example.org", "house france\nbirth F1000 attempts 2\n", sent=sent).as_bytes())
    (tmp_path / "b.eml").write_bytes(message(
        "alice@example.org", 'house england passphrase "nope"\n', sent=sent).as_bytes())
    assert run("mail", "import", root, tmp_path / "a.eml", tmp_path / "b.eml").exit_code == 0
    after = _status(root)
    assert after["houses"] == [
        {"id": "castile", "orders": "missing", "received_at": None, "nmr": 0},
        {"id": "england", "orders": "refused", "received_at": "2026-12-03T09:30:00Z",
         "nmr": 0},
        {"id": "france", "orders": "received", "received_at": "2026-12-03T09:30:00Z",
         "nmr": 0}]
    assert run("adjudicate", root).exit_code == 0
    turn2 = _status(root)
    assert turn2["turn"] == 2 and turn2["deadline"] == "2026-12-15T18:00:00Z"
    assert [(h["id"], h["nmr"]) for h in turn2["houses"]] == [  # type: ignore[attr-defined]
        ("castile", 1), ("england", 1), ("france", 0)]
    text = run("status", root)
    assert "Next: turn 2 (1305); deadline: 2026-12-15T18:00:00Z" in text.output
    assert "  castile: missing; NMR 1" in text.output


def test_deadline_errors_name_the_line(tmp_path: Path) -> None:
    """BRIEF standard 3: "`file:line: what and why`" for a deadline or cadence."""
    root = campaign(tmp_path)
    _deadlines(root, 'cadence = "fortnightly"\n\n[deadline]\n1 = 2026-12-08T18:00:00Z')
    result = run("status", root)
    assert result.exit_code == 1
    assert f"campaign.toml:{_line(root, 'cadence')}: cadence must be a number of hours, days or weeks" in result.output
    root = campaign(tmp_path / "b")
    _deadlines(root, '[deadline]\n1 = 2026-12-08T18:00:00')
    result = run("status", root)
    assert f"campaign.toml:{_line(root, '1 = ')}: [deadline] 1 must be a date and time with its time zone" \
        in result.output


def test_check_lists_missing_and_adjudicate_asks_for_yes(tmp_path: Path) -> None:
    """Issue 17 item 4: "`check` also lists the missing houses. `adjudicate` on a folder
    with no order file at all asks for `--yes`"."""
    root = campaign(tmp_path)
    checked = run("check", root)
    assert checked.exit_code == 0
    assert "no orders yet from: castile, england, france" in checked.output
    refused = run("adjudicate", root)
    assert refused.exit_code == 1
    assert "holds no order file at all" in refused.output and "--yes" in refused.output
    assert not (root / "chronicle.sqlite").exists()
    assert run("adjudicate", root, "--yes").exit_code == 0


def test_after_end_adjudicate_preview_and_mail_import_refuse(tmp_path: Path) -> None:
    """DESIGN.md `end`: "from then on `adjudicate`, `preview` and `mail import` refuse
    with exit 1"."""
    root = campaign(tmp_path)
    assert run("adjudicate", root, "--yes").exit_code == 0
    assert run("end", root).exit_code == 0
    (root / "orders" / "turn-002").mkdir()
    (root / "orders" / "turn-002" / "france.orders").write_text("house france\n")
    for args in (("adjudicate", root), ("adjudicate", root, "--yes"), ("preview", root)):
        result = run(*args)
        assert result.exit_code == 1, args
        assert "the campaign has ended (chronicle end)" in result.output
    (tmp_path / "a.eml").write_bytes(message("bob@example.org", "house france\n").as_bytes())
    result = run("mail", "import", root, tmp_path / "a.eml")
    assert result.exit_code == 1
    assert "no more orders can be imported" in result.output
    assert not (root / "mail").exists()


def test_a_campaign_past_its_end_says_to_run_end(tmp_path: Path) -> None:
    """Issue 17 item 5: "A campaign won or past its end year says to run `end`"."""
    root = campaign(tmp_path)
    path = root / "campaign.toml"
    path.write_text(path.read_text().replace("start_year = 1300",
                                             "start_year = 1300\nend_year = 1300"))
    (root / "orders" / "turn-002").mkdir()
    result = run("adjudicate", root, "--yes", "--through", "2")
    assert result.exit_code == 0, result.output
    assert "The campaign is over (its end year, 1300, is past): run 'chronicle end" \
        in result.output
    assert not (root / "reports" / "turn-002").exists()
    again = run("adjudicate", root, "--yes")
    assert again.exit_code == 1
    assert "no turn is left to adjudicate; run 'chronicle end'" in again.output
    assert "run 'chronicle end'" in run("status", root).output


def test_rollback_moves_later_reports_aside_and_through_replays(tmp_path: Path) -> None:
    """Issue 17 item 6: "`rollback --to N` moves the later turns' reports and templates
    aside, and says so. `adjudicate --through N` replays existing order folders up to
    turn N"."""
    root = campaign(tmp_path)
    for turn in (1, 2, 3):
        folder = root / "orders" / f"turn-{turn:03d}"
        folder.mkdir(exist_ok=True)
        (folder / "france.orders").write_text("house france\n")
    assert run("adjudicate", root, "--through", "3").exit_code == 0
    assert run("template", root).exit_code == 0
    first = (root / "reports" / "turn-003" / "france.md").read_text()
    result = run("rollback", root, "--to", "1")
    assert result.exit_code == 0, result.output
    assert "Moved aside, so that they cannot be mailed by mistake:" in result.output
    for moved in ("reports/turn-002 -> rolled-back/to-turn-001-",
                  "reports/turn-003 -> rolled-back/to-turn-001-",
                  "templates/turn-004 -> rolled-back/to-turn-001-"):
        assert moved in result.output
    assert not (root / "reports" / "turn-002").exists()
    assert not (root / "templates" / "turn-004").exists()
    assert (root / "reports" / "turn-001").is_dir()
    replay = run("adjudicate", root, "--through", "3")
    assert replay.exit_code == 0, replay.output
    assert "Turn 2 (1305) adjudicated." in replay.output
    assert "Turn 3 (1310) adjudicated." in replay.output
    assert (root / "reports" / "turn-003" / "france.md").read_text() == first
    behind = run("adjudicate", root, "--through", "2")
    assert behind.exit_code == 1 and "roll back first" in behind.output


def test_demo_runs_end(tmp_path: Path) -> None:
    """Issue 17 item 5: "`chronicle demo` runs `end`, so the demo site shows the seed
    and every threshold revealed"."""
    out = tmp_path / "demo"
    result = run("demo", "--ruleset", "dynasty", "--turns", "2", "--seed", "shown",
                 "--out", out, "--no-site")
    assert result.exit_code == 0, result.output
    exported = json.loads(run("export", out).output)
    assert exported["campaign"]["seed"] == "shown"
    assert run("adjudicate", out).exit_code == 1


def test_the_demo_s_site_links_a_bundle_that_is_there_and_verifies(tmp_path: Path) -> None:
    """DESIGN.md: "The site links the bundle of an ended campaign from its home
    page." The demo ends its campaign, so it makes the bundle too: the link led
    nowhere."""
    out, site = tmp_path / "demo", tmp_path / "site"
    result = run("demo", "--ruleset", "dynasty", "--turns", "2", "--seed", "bundled",
                 "--out", out, "--site", site)
    assert result.exit_code == 0, result.output
    homes = list(site.glob("*/index.html"))
    assert len(homes) == 1
    linked = re.findall(r'href="([^"]+\.zip)"', homes[0].read_text(encoding="utf-8"))
    assert len(linked) == 1
    bundle = homes[0].parent / linked[0]
    assert bundle.is_file()
    assert run("verify", bundle).exit_code == 0

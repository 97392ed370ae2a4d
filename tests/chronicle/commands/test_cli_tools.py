"""The arbiter's other commands: auto-play, ending a campaign, GEDCOM, simulate, build.

DESIGN.md "Command line" and issue #5: `chronicle template --auto HOUSE` hands a
house to a built-in player for one turn; `end` reveals the seed for the
archive; `simulate` reports Monte Carlo figures as a table and as JSON.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import run

from chronicle.play.demo import run_demo

SEED = "tools-SECRET-seed-4410"



def _campaign(tmp_path: Path, ruleset: str = "dynasty") -> Path:
    root = tmp_path / "camp"
    assert run("new", root, "--ruleset", ruleset, "--seed", SEED).exit_code == 0
    return root


def test_template_auto_writes_a_valid_order_file_for_one_house(tmp_path: Path) -> None:
    """A built-in player writes England's orders in the players' own language;
    `check` then accepts every line, and a second --auto refuses to overwrite."""
    root = _campaign(tmp_path)
    result = run("template", root, "--auto", "england")
    assert result.exit_code == 0, result.output
    written = root / "orders" / "turn-001" / "england.orders"
    assert written.read_text(encoding="utf-8").startswith("house england\n")
    assert (root / "templates" / "turn-001" / "france.orders").is_file()
    assert run("check", root).exit_code == 0
    again = run("template", root, "--auto", "england")
    assert again.exit_code == 1 and "already exists" in again.output
    assert run("template", root, "--auto", "nowhere").exit_code == 1


def test_end_reveals_the_seed_only_then(tmp_path: Path) -> None:
    """DESIGN.md: the seed is revealed in the archive when the campaign ends."""
    root = _campaign(tmp_path)
    (root / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    assert run("adjudicate", root, "--yes").exit_code == 0
    before = run("export", root)
    assert SEED not in before.output
    assert run("end", root).exit_code == 0
    after = json.loads(run("export", root).output)
    assert after["campaign"]["seed"] == SEED


def test_export_gedcom_names_every_person_with_reference_numbers(tmp_path: Path) -> None:
    root = _campaign(tmp_path)
    (root / "orders" / "turn-001").mkdir(parents=True, exist_ok=True)
    assert run("adjudicate", root, "--yes").exit_code == 0
    people = json.loads(run("export", root).output)["persons"]
    gedcom = run("export", root, "--format", "gedcom").output
    assert gedcom.startswith("0 HEAD") and gedcom.rstrip().endswith("0 TRLR")
    assert gedcom.count(" INDI\n") == len(people)
    for person in people:
        for ref in person["refs"].values():
            assert f"1 REFN {ref}\n" in gedcom


def test_simulate_reports_a_table_and_json(tmp_path: Path) -> None:
    """Issue #5: extinction rate per house, living members over time, epidemics,
    deaths by cause, wealth spread and battle counts."""
    out = tmp_path / "report.json"
    result = run("simulate", "--ruleset", "dynasty", "--runs", "3", "--turns", "4",
                 "--jobs", "1", "--json", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["runs"] == 3
    assert set(report["extinction_rate"]) == {"castile", "england", "france"}
    assert len(report["living_over_time"]) == 4
    assert {"epidemics_per_run", "deaths_by_cause", "wealth", "battles_per_run"} <= set(report)
    assert "extinction rate" in result.output


def test_simulate_measures_a_whole_war_game_per_world(tmp_path: Path) -> None:
    """Issue #14: per house, the runs with a cash-in (B7); the runs where a fleet is
    raised (B4) or a capital attacked (B6); exchanges and crown payments per run
    (B7a). Greyjoy's capital is an island, so a Westeros run raises a fleet at once."""
    out = tmp_path / "report.json"
    result = run("simulate", "--world", "westeros", "--runs", "1", "--turns", "1",
                 "--jobs", "1", "--json", out)
    assert result.exit_code == 0, result.output
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["world"] == "westeros"
    assert set(report["cash_in_rate"]) == set(report["cash_ins_per_run"]) == {
        "baratheon", "greyjoy", "lannister", "martell", "stark", "targaryen", "tyrell"}
    assert report["runs_with_fleet"] == 1
    assert {"runs_with_capital_attacked", "exchanges_per_run", "payments_per_run"} <= set(report)
    assert "runs with a fleet raised: 100%" in result.output
    refused = run("simulate", "--ruleset", "dynasty", "--world", "westeros", "--runs", "1")
    assert refused.exit_code == 1 and "--world" in refused.output


def test_simulate_is_reproducible_across_processes(tmp_path: Path) -> None:
    """The same seed gives the same figures on one process or two."""
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    for path, jobs in ((one, "1"), (two, "2")):
        run("simulate", "--ruleset", "dynasty", "--runs", "4", "--turns", "3", "--jobs", jobs,
            "--json", path)
    strip = ("seconds", "runs_per_second")
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (one, two))
    assert {k: v for k, v in a.items() if k not in strip} == \
        {k: v for k, v in b.items() if k not in strip}


def test_demo_refuses_to_overwrite_a_folder_it_did_not_make(tmp_path: Path) -> None:
    """The demo keeps its campaign in --out; it never deletes a folder it did not create."""
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("mine", encoding="utf-8")
    result = run("demo", "--ruleset", "dynasty", "--turns", "1", "--out", precious, "--no-site")
    assert result.exit_code == 1
    assert (precious / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_demo_plays_and_replays_identically(tmp_path: Path) -> None:
    """Issue #5: the same seed gives the same export, through the demo command."""
    exports = []
    for name in ("a", "b"):
        out = tmp_path / name
        run_demo(ruleset="blood-royale", turns=3, seed="S", out=out, site=None, quiet=True)
        data = json.loads(run("export", out).output)
        data.pop("campaign")
        exports.append(data)
    assert exports[0] == exports[1]
    assert exports[0]["turn"] == 3 and exports[0]["wealth"]


def test_build_of_a_folder_without_a_store_is_refused(tmp_path: Path) -> None:
    root = _campaign(tmp_path)
    result = run("build", root, "-o", tmp_path / "site")
    assert result.exit_code == 1
    assert "error:" in result.output


def test_build_never_follows_a_commentary_link_out_of_the_campaign(tmp_path: Path) -> None:
    """Standard 5: no path leaves the campaign folder; a link to a private file
    outside it is refused with the file's name, and nothing of it is published."""
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="links", out=out, site=None, quiet=True)
    secret = tmp_path / "private.txt"
    secret.write_text("TOP-SECRET-LINE", encoding="utf-8")
    link = out / "commentary" / "turn-001.md"
    link.unlink()
    link.symlink_to(secret)
    site = tmp_path / "site"
    result = run("build", out, "-o", site)
    assert result.exit_code == 1
    assert "commentary/turn-001.md: is a link; Chronicle reads the campaign folder's own " \
        "files only, never through a link" in result.output
    published = [p.read_bytes() for p in site.rglob("*") if p.is_file()] if site.exists() else []
    assert not any(b"TOP-SECRET-LINE" in data for data in published)


def test_a_campaign_toml_linked_from_elsewhere_is_refused(tmp_path: Path) -> None:
    """Standard 5: campaign.toml is published in part (title, language); a link to a
    file outside the campaign folder is refused by every command that reads it."""
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="links", out=out, site=None, quiet=True)
    elsewhere = tmp_path / "elsewhere.toml"
    (out / "campaign.toml").rename(elsewhere)
    (out / "campaign.toml").symlink_to(elsewhere)
    for command in (("build", out, "-o", tmp_path / "site"), ("check", out)):
        result = run(*command)
        assert result.exit_code == 1, command
        assert "campaign.toml: is a link; Chronicle reads the campaign folder's own files " \
            "only" in result.output
    assert not (tmp_path / "site").exists()


def test_build_never_follows_a_template_link_out_of_the_theme(tmp_path: Path) -> None:
    """Standard 5: a campaign's theme template that links to a file elsewhere on the
    machine is refused with its name, and nothing of the file is published."""
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="links", out=out, site=None, quiet=True)
    secret = tmp_path / "private.html"
    secret.write_text("TOP-SECRET-TEMPLATE", encoding="utf-8")
    templates = out / "theme" / "templates"
    templates.mkdir(parents=True)
    (templates / "person.html").symlink_to(secret)
    site = tmp_path / "site"
    result = run("build", out, "-o", site)
    assert result.exit_code == 1
    assert "person.html: the template links out of its theme folder" in result.output
    assert "Traceback" not in result.output
    published = [p.read_bytes() for p in site.rglob("*") if p.is_file()] if site.exists() else []
    assert not any(b"TOP-SECRET-TEMPLATE" in data for data in published)


def test_build_refuses_commentary_that_is_not_utf8(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="bytes", out=out, site=None, quiet=True)
    (out / "commentary" / "turn-001.md").write_bytes(b"caf\xe9 au lait")
    result = run("build", out, "-o", tmp_path / "site")
    assert result.exit_code == 1
    assert "commentary/turn-001.md: not UTF-8 text" in result.output


def test_an_arbiters_kill_records_the_cause_as_written(tmp_path: Path) -> None:
    """DESIGN.md: `kill E1000 cause "fell from his horse"` takes effect at the start of
    the turn; the export's death_cause is the arbiter's words."""
    root = _campaign(tmp_path)
    folder = root / "orders" / "turn-001"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "arbiter.orders").write_text(
        'house arbiter\nkill E1000 cause "fell from his horse"\nkill F1000\n', encoding="utf-8")
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0, result.output
    assert "fell from his horse" in result.output
    people = {p["refs"].get("england") or p["refs"].get("france"): p
              for p in json.loads(run("export", root).output)["persons"] if p["refs"]}
    assert (people["E1000"]["died"], people["E1000"]["death_cause"]) == (1300,
                                                                         "fell from his horse")
    assert people["F1000"]["death_cause"] == "arbiter"


def test_demo_accepts_an_empty_folder(tmp_path: Path) -> None:
    """`--out $(mktemp -d)`: an empty folder is as good as a new one."""
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run("demo", "--ruleset", "dynasty", "--turns", "1", "--out", empty, "--no-site")
    assert result.exit_code == 0, result.output
    assert (empty / "chronicle.sqlite").is_file()


def test_a_symlink_loop_among_order_files_is_a_refusal_not_a_traceback(tmp_path: Path) -> None:
    """DESIGN.md: a file that cannot be read rejects that house's orders; nothing else."""
    root = _campaign(tmp_path)
    folder = root / "orders" / "turn-001"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "england.orders").symlink_to(folder / "england.orders")
    result = run("check", root)
    assert result.exit_code == 1
    assert "turn-001/england.orders: is a link" in result.output
    assert run("adjudicate", root, "--yes").exit_code == 0


def test_invisible_characters_are_spelled_out_in_messages(tmp_path: Path) -> None:
    """A right-to-left override in a rejected line is shown as \\u202e, not obeyed."""
    root = _campaign(tmp_path)
    folder = root / "orders" / "turn-001"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "england.orders").write_text("house england\nbirth \u202eE1000\n",
                                           encoding="utf-8")
    result = run("check", root)
    assert result.exit_code == 1
    assert "\\u202eE1000" in result.output and "\u202e" not in result.output


def test_adjudicate_never_writes_a_report_through_a_link(tmp_path: Path) -> None:
    """Standard 5: a campaign folder received with links planted in ``reports/`` does
    not make the adjudicator write outside it. A linked turn folder stops the turn
    before anything is stored; a linked report file is replaced, not written through."""
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="links", out=out, site=None, quiet=True)
    (out / "orders" / "turn-002").mkdir()  # no orders: every house defaults
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "reports" / "turn-002").symlink_to(outside, target_is_directory=True)
    result = run("adjudicate", out, "--yes")
    assert result.exit_code == 1
    assert "reports/turn-002: points outside the campaign folder" in result.output
    assert list(outside.iterdir()) == []
    assert not (out / "reports" / "turn-002" / "arbiter.md").exists()
    (out / "reports" / "turn-002").unlink()
    (out / "reports" / "turn-002").mkdir()
    victim = outside / "precious.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    report = out / "reports" / "turn-002" / "arbiter.md"
    report.symlink_to(victim)
    assert run("adjudicate", out, "--yes").exit_code == 0  # the turn refused above was not stored
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert report.is_file() and not report.is_symlink()
    assert "turn 2" in report.read_text(encoding="utf-8").lower()


def test_templates_are_never_written_through_a_link(tmp_path: Path) -> None:
    """Standard 5: ``template`` and ``template --auto`` write inside the campaign only."""
    out = tmp_path / "demo"
    run_demo(ruleset="dynasty", turns=1, seed="links", out=out, site=None, quiet=True)
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "templates").mkdir(exist_ok=True)
    (out / "templates" / "turn-002").symlink_to(outside, target_is_directory=True)
    result = run("template", out)
    assert result.exit_code == 1
    assert "templates/turn-002: points outside the campaign folder" in result.output
    victim = outside / "precious.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (out / "orders" / "turn-002").mkdir(parents=True, exist_ok=True)
    house = sorted(p.stem for p in (out / "orders" / "turn-001").glob("*.orders"))[0]
    (out / "orders" / "turn-002" / f"{house}.orders").symlink_to(victim)
    (out / "templates" / "turn-002").unlink()
    assert run("template", out, "--auto", house, "--force").exit_code == 0
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    written = out / "orders" / "turn-002" / f"{house}.orders"
    assert written.is_file() and not written.is_symlink()
    assert written.read_text(encoding="utf-8").startswith(f"house {house}")

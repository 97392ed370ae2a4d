"""The arbiter directives marry, abdicate, renounce and control (issue 17 item 6).

DESIGN.md "Arbiter directives": "marry E1200 to F1a00 # a marriage by ruling: no
declarations needed (the A7 conditions still hold)", "abdicate E1000 # a ruler
steps down: the smallest living number succeeds (A6)", "renounce E1100 in E # a
renunciation by ruling", "control normandy by england # Blood Royale: a
province's control by ruling", and "Directives take effect at the start of the
turn, in file order, and are recorded as public events". Each refused line is
reported as ``file:line: text: reason`` (DESIGN.md "Errors").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_support import run

from chronicle.campaign.scaffold import scaffold

# Children for the founders of the scaffolded dynasty campaign: ages are those
# reached at the end of turn 1, 1305 (RULES.md A4).
FAMILY = """
[[person]]
id = "edmund"
dynasty = "england"
name = "Edmund"
sex = "M"
born = 1280
father = "england-king"
mother = "england-queen"
constitution = 3

[[person]]
id = "joan"
dynasty = "england"
name = "Joan"
sex = "F"
born = 1282
father = "england-king"
mother = "england-queen"
constitution = 3

[[person]]
id = "isabelle"
dynasty = "france"
name = "Isabelle"
sex = "F"
born = 1284
father = "france-king"
mother = "france-queen"
constitution = 3

[[person]]
id = "blanche"
dynasty = "france"
name = "Blanche"
sex = "F"
born = 1292
father = "france-king"
mother = "france-queen"
constitution = 3
"""


def _campaign(tmp_path: Path, language: str = "en") -> Path:
    root = scaffold(tmp_path / "camp", "dynasty", seed="directives-seed")
    toml = root / "campaign.toml"
    text = toml.read_text(encoding="utf-8").replace('language = "en"',
                                                    f'language = "{language}"')
    toml.write_text(text + FAMILY, encoding="utf-8")
    return root


def _directives(root: Path, text: str, turn: int = 1) -> None:
    folder = root / "orders" / f"turn-{turn:03d}"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "arbiter.orders").write_text("house arbiter\n" + text, encoding="utf-8")


def _export(root: Path) -> dict[str, Any]:
    exported: dict[str, Any] = json.loads(run("export", root).output)
    return exported


def _person(exported: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p for p in exported["persons"] if p["id"] == pid)


def test_a_marriage_by_ruling_needs_no_declaration_but_keeps_a7(tmp_path: Path) -> None:
    """RULES.md A7: "Age. Both spouses are 15 or older.", "Neither may marry a member
    of their own dynasty.", "Nobody has two living spouses."; DESIGN.md: "marry
    E1200 to F1a00 # a marriage by ruling: no declarations needed (the A7
    conditions still hold)". In file order: a line after a marriage sees it."""
    root = _campaign(tmp_path)
    _directives(root, "marry E1100 to E1a00\n"
                      "marry E1100 to F1a00\n"
                      "marry E1000 to F1b00\n"
                      "marry E1a00 to F1b00\n"
                      "marry E1a00 to F1100\n"
                      "marry F1b00 to E1100\n")
    checked = run("check", root)
    assert checked.exit_code == 1
    for refused in (
            "arbiter.orders:2: marry E1100 to E1a00: Edmund and Joan are both of the england "
            "dynasty: nobody may marry within their own dynasty (A7)",
            "arbiter.orders:4: marry E1000 to F1b00: Edward is already married (A7: one "
            "spouse at a time)",
            "arbiter.orders:5: marry E1a00 to F1b00: Joan and Blanche are of the same sex",
            "arbiter.orders:6: marry E1a00 to F1100: nobody is called 'F1100'",
            "arbiter.orders:7: marry F1b00 to E1100: Blanche is 13: spouses must be 15 or "
            "older (A7)"):
        assert refused in checked.output, checked.output
    assert "arbiter.orders:3:" not in checked.output
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0, result.output
    assert ("By the arbiter's ruling, Edmund (E1100) and Isabelle (F1a00) are married."
            in result.output)
    exported = _export(root)
    assert _person(exported, "edmund")["spouse"] == "isabelle"
    rulings = [e for e in exported["events"] if e["kind"] == "ruling"]
    assert [(e["directive"], e["person"], e["other"]) for e in rulings] == [
        ("marry", "edmund", "isabelle")]
    weddings = [e for e in exported["events"] if e["kind"] == "marriage"]
    assert [(e["husband"], e["wife"]) for e in weddings] == [("edmund", "isabelle")]


def test_a_marriage_by_ruling_refused_when_its_turn_comes(tmp_path: Path) -> None:
    """DESIGN.md: directives take effect "in file order": the second marriage of one
    man is refused by the turn too, the first one standing."""
    root = _campaign(tmp_path)
    _directives(root, "marry E1100 to F1a00\nmarry E1100 to C1000\n")
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0
    report = (root / "reports" / "turn-001" / "arbiter.md").read_text(encoding="utf-8")
    assert "arbiter.orders:3: marry E1100 to C1000: Edmund and Fernando are of the same sex" \
        in report


def test_an_abdication_crowns_the_smallest_living_number(tmp_path: Path) -> None:
    """DESIGN.md: "abdicate E1000 # a ruler steps down: the smallest living number
    succeeds (A6)"; RULES.md A3: "A reigning ruler who renounces leaves the throne at
    once: succession (A6) runs in the same step"."""
    root = _campaign(tmp_path)
    _directives(root, "abdicate E1000\n"
                      "abdicate E1100\n"
                      "abdicate C1000\n"
                      "abdicate F1a00\n"
                      "abdicate england-king\n")
    checked = run("check", root)
    assert checked.exit_code == 1
    assert ("arbiter.orders:4: abdicate C1000: nobody else holds a number in House of Castile "
            "to succeed (A6)") in checked.output
    assert "arbiter.orders:5: abdicate F1a00: Isabelle rules no house" in checked.output
    # In file order: Edward abdicated two lines before, and Edmund after him.
    assert "arbiter.orders:6: abdicate england-king: Edward rules no house" in checked.output
    assert "arbiter.orders:2:" not in checked.output
    assert "arbiter.orders:3:" not in checked.output
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0
    for sentence in (
            "By the arbiter's ruling, Edward abdicates the throne of House Plantagenet.",
            "By the arbiter's ruling, Edmund abdicates the throne of House Plantagenet."):
        assert sentence in result.output, result.output
    exported = _export(root)
    england = next(h for h in exported["houses"] if h["id"] == "england")
    assert england["ruler"] == "joan"
    kinds = [(e["kind"], e.get("directive"), e.get("ruler")) for e in exported["events"]
             if e["kind"] in ("ruling", "succession", "renunciation")]
    assert kinds == [("ruling", "abdicate", None), ("renunciation", None, None),
                     ("succession", None, "edmund"),
                     ("ruling", "abdicate", None), ("renunciation", None, None),
                     ("succession", None, "joan")]
    assert "england" not in _person(exported, "england-king")["refs"]


def test_a_renunciation_by_ruling(tmp_path: Path) -> None:
    """DESIGN.md: "renounce E1100 in E # a renunciation by ruling"; RULES.md A3:
    "A person who renounces their rights in a dynasty loses their number in it.\""""
    root = _campaign(tmp_path)
    _directives(root, "renounce E1100 in E\n"
                      "renounce F1a00 in E\n"
                      "renounce E1a00 in Z\n"
                      "renounce E1100 in england\n")
    checked = run("check", root)
    assert checked.exit_code == 1
    assert ("arbiter.orders:3: renounce F1a00 in E: Isabelle holds no number in House "
            "Plantagenet") in checked.output
    assert "arbiter.orders:4: renounce E1a00 in Z: there is no dynasty 'Z'" in checked.output
    assert "arbiter.orders:5: renounce E1100 in england: nobody is called 'E1100'" \
        in checked.output
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0
    # Named as the end of the turn knows him: without the number he gave up.
    assert ("By the arbiter's ruling, Edmund gives up the claim E1100 in House "
            "Plantagenet.") in result.output
    exported = _export(root)
    assert "england" not in _person(exported, "edmund")["refs"]
    renounced = [(e["person"], e["dynasty"], e["ref"]) for e in exported["events"]
                 if e["kind"] == "renunciation"]
    assert renounced == [("edmund", "england", "E1100")]


def test_control_is_refused_without_provinces(tmp_path: Path) -> None:
    """DESIGN.md: "control normandy by england # Blood Royale: a province's control by
    ruling": a ruleset without provinces refuses the line and says why."""
    root = _campaign(tmp_path)
    _directives(root, "control normandy by england\n")
    checked = run("check", root)
    assert checked.exit_code == 1
    assert ("arbiter.orders:2: control normandy by england: this campaign's ruleset has no "
            "provinces: there is no control to rule") in checked.output


def test_control_by_ruling_in_blood_royale(tmp_path: Path) -> None:
    """DESIGN.md: "control normandy by england # Blood Royale: a province's control by
    ruling"; RULES.md B3: "A foreign province is controlled by the house whose marker
    is on it"."""
    root = scaffold(tmp_path / "br", "blood-royale", seed="control-seed")
    before = {p["id"]: p["controller"] for p in _export(root)["provinces"]}
    assert before["normandy"] != "england"
    _directives(root, "control normandy by england\n"
                      "control normandy by E\n"
                      "control atlantis by england\n"
                      "control english-channel by england\n"
                      "control normandy by nobody\n")
    checked = run("check", root)
    assert checked.exit_code == 1
    for refused in (
            "arbiter.orders:3: control normandy by E: House Plantagenet controls Normandy "
            "already",
            "arbiter.orders:4: control atlantis by england: there is no province 'atlantis'",
            "arbiter.orders:5: control english-channel by england: English Channel is a sea: "
            "nobody controls it (B3)",
            "arbiter.orders:6: control normandy by nobody: there is no house 'nobody'"):
        assert refused in checked.output, checked.output
    result = run("adjudicate", root, "--yes")
    assert result.exit_code == 0, result.output
    assert ("By the arbiter's ruling, Normandy passes under the control of House "
            "Plantagenet.") in result.output
    exported = _export(root)
    ruling = next(e for e in exported["events"] if e["kind"] == "ruling")
    assert (ruling["directive"], ruling["province"], ruling["house"], ruling["previous"]) == (
        "control", "normandy", "england", before["normandy"])
    assert next(p for p in exported["provinces"] if p["id"] == "normandy")["controller"] \
        == "england"
    # Public: the turn's page tells the ruling too.
    site = tmp_path / "site"
    assert run("build", root, "-o", site).exit_code == 0
    page = next(site.glob("*/turns/turn-001/index.html")).read_text(encoding="utf-8")
    assert "By the arbiter&#39;s ruling, Normandy passes under the control of" in page


def test_rulings_are_told_in_the_campaigns_language(tmp_path: Path) -> None:
    """Issue 17 item 7: "Reports and templates are in the campaign's language"; the
    rulings are part of the chronicle (DESIGN.md "Arbiter directives")."""
    root = _campaign(tmp_path, language="fr")
    _directives(root, "marry E1100 to F1a00\nabdicate E1000\nrenounce E1a00 in E\n")
    assert run("adjudicate", root, "--yes").exit_code == 0
    report = (root / "reports" / "turn-001" / "england.md").read_text(encoding="utf-8")
    for sentence in ("Par décision de l'arbitre, Edmund (E1100) et Isabelle (F1a00) sont "
                     "mariés.",
                     # The example house, as a French campaign names it.
                     "Par décision de l'arbitre, Edward abdique le trône de la Maison "
                     "Plantagenêt.",
                     "Par décision de l'arbitre, Joan renonce au numéro E1a00 dans "
                     "la Maison Plantagenêt."):
        assert sentence in report, report


def test_ransoms_are_told_to_both_houses(tmp_path: Path) -> None:
    """Issue 17 item 7: the reports tell "Payments, gifts, exchanges and ransoms";
    RULES.md A9: "Ransoms are paid in crowns from the house treasury"."""
    root = _campaign(tmp_path)
    _directives(root, "grant 50 crowns to england\ncapture E1100 by F\n")
    assert run("adjudicate", root, "--yes").exit_code == 0
    folder = root / "orders" / "turn-002"
    folder.mkdir()
    (folder / "france.orders").write_text("house france\nprisoner E1100 release ransom 20\n",
                                          encoding="utf-8")
    (folder / "england.orders").write_text("house england\npay ransom E1100 20\n",
                                           encoding="utf-8")
    assert run("adjudicate", root, "--yes").exit_code == 0
    reports = root / "reports" / "turn-002"
    assert ("You released Edmund (E1100) for a ransom of 20 crowns."
            in (reports / "france.md").read_text(encoding="utf-8"))
    assert ("House Capet released Edmund (E1100): you paid a ransom of 20 crowns."
            in (reports / "england.md").read_text(encoding="utf-8"))


def test_a_base_url_must_be_a_full_address(tmp_path: Path) -> None:
    """Standards: a file the arbiter writes gets ``file:line: what and why``; the
    reports link battles under campaign.toml's ``base_url`` (issue 17 item 7)."""
    root = _campaign(tmp_path)
    toml = root / "campaign.toml"
    toml.write_text('base_url = "example.org/site"\n' + toml.read_text(encoding="utf-8"),
                    encoding="utf-8")
    result = run("check", root)
    assert result.exit_code == 1
    assert ("campaign.toml:1: base_url must be the site's full address, https://..., "
            "without spaces or brackets, not 'example.org/site'") in result.output

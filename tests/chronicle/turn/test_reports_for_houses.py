"""Reports that tell each house what happened to it (issue 17 item 7).

Issue 17 item 7: "Losses to plague and battle, with links to the battle pages on
the site. Payments, gifts, exchanges and ransoms; revolts bought off. Each death
with its roll and the number needed; the kingdoms' move order. A sentence for
every event kind: "Something else happened (crowns-paid)" appears today. [...]
Reports and templates are in the campaign's language."

Campaigns of every ruleset are played by the built-in players (``chronicle
demo``), published, and their reports written again in English and in French;
then the reports are read as a player would, against the exported events.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_support import run

from adjudicator.events import EVENT_KINDS
from chronicle.i18n.catalogue import translations
from chronicle.narration import SENTENCES
from chronicle.narration.narrator import FOR_HOUSE, load_all
from chronicle.rulesets import descriptor, ruleset_ids

BASE = "https://chronicles.example.org/archive"
FALLBACK = "Something else happened"


@dataclass
class Played:
    root: Path
    site: Path
    exported: dict[str, Any]

    def report(self, turn: int, house: str) -> str:
        return (self.root / "reports" / f"turn-{turn:03d}" / f"{house}.md").read_text(
            encoding="utf-8")

    def events(self, kind: str) -> Iterator[dict[str, Any]]:
        return (e for e in self.exported["events"] if e["kind"] == kind)

    def name(self, table: str, key: str) -> str:
        return str(next(x["name"] for x in self.exported[table] if x["id"] == key))


def _set(root: Path, key: str, value: str) -> None:
    toml = root / "campaign.toml"
    lines = [ln for ln in toml.read_text(encoding="utf-8").splitlines()
             if not ln.startswith(f"{key} =")]
    toml.write_text(f'{key} = "{value}"\n' + "\n".join(lines) + "\n", encoding="utf-8")


def _play(folder: Path, ruleset: str, turns: int, *extra: str) -> Played:
    root, site = folder / "campaign", folder / "site"
    played = run("demo", "--ruleset", ruleset, "--turns", str(turns), "--out", root,
                 "--site", site, *extra)
    assert played.exit_code == 0, played.output
    _set(root, "base_url", BASE)
    exported = json.loads(run("export", root).output)
    for turn in range(1, exported["turn"] + 1):
        assert run("reports", root, "--turn", str(turn)).exit_code == 0
    return Played(root, site, exported)


CAMPAIGNS = {"blood-royale": ("blood-royale", 21), "westeros": ("blood-royale", 6),
             "dynasty": ("dynasty", 12), "familles": ("familles", 30)}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Played]:
    out = {}
    for name, (ruleset, turns) in CAMPAIGNS.items():
        extra = ("--world", name) if name == "westeros" else ()
        out[name] = _play(tmp_path_factory.mktemp(name), ruleset, turns, *extra)
    return out


def _texts(folder: Path, *patterns: str) -> Iterator[tuple[Path, str]]:
    for pattern in patterns:
        for path in sorted(folder.rglob(pattern)):
            yield path, path.read_text(encoding="utf-8")


def test_every_event_kind_has_a_narration() -> None:
    """Issue 17 item 7: "A sentence for every event kind". Every public event class
    has its entry: a sentence, or it is told elsewhere (a table, the dice page) and
    then, if a house's report should hear of it, told there in the house's words."""
    for ruleset in ruleset_ids():  # every engine, and so every ruleset's sentences
        descriptor(ruleset).engine_type()
    load_all()
    public = {cls for cls in EVENT_KINDS.values() if cls.public}
    assert public - set(SENTENCES) == set()
    elsewhere = {cls.kind for cls, sentence in SENTENCES.items() if sentence is None}
    told_to_houses = {cls.kind for cls in FOR_HOUSE}
    # The event die's effects are events of their own, and a counter's march is
    # bookkeeping the next events make plain (the counter given, seized, cashed in).
    assert elsewhere - told_to_houses == {"event-die", "counter-moved"}


def test_no_report_and_no_page_says_something_else_happened(played: dict[str, Played]) -> None:
    """Issue 17 item 7: ""Something else happened (crowns-paid)" appears today", in
    English or in French, in a report or on the site, for campaigns of every ruleset."""
    french = translations("fr").gettext("Something else happened (%(kind)s).").split("(")[0]
    assert french.strip() and french != FALLBACK
    for campaign in played.values():
        seen = {e["kind"] for e in campaign.exported["events"]}
        assert seen, campaign.root
        for language in ("en", "fr"):
            _set(campaign.root, "language", language)
            for turn in range(1, campaign.exported["turn"] + 1):
                assert run("reports", campaign.root, "--turn", str(turn)).exit_code == 0
            site = campaign.site.with_name(f"site-{language}")
            assert run("build", campaign.root, "-o", site).exit_code == 0
            for path, text in [*_texts(campaign.root / "reports", "*.md"),
                               *_texts(site, "*.html", "*.xml", "*.js")]:
                assert FALLBACK not in text, path
                assert french.strip() not in text, path
        _set(campaign.root, "language", "en")
        for turn in range(1, campaign.exported["turn"] + 1):
            assert run("reports", campaign.root, "--turn", str(turn)).exit_code == 0


def test_each_death_is_told_with_its_roll_and_the_number_needed(
        played: dict[str, Played]) -> None:
    """Issue 17 item 7: "Each death with its roll and the number needed"; RULES.md
    A5.3: "The person dies if the result is below the difficulty for their age.",
    "Natural 2: an unmodified 2 is always fatal."; A5.4: "doubles are fatal"."""
    checked = 0
    for campaign in (played["dynasty"], played["blood-royale"]):
        for death in campaign.events("death"):
            if death.get("roll") is None:
                continue
            house = death["house"]
            if house is None:
                continue
            report = campaign.report(death["turn"], house)
            mine = report.split("## What happened to your house")[1].split("## The chronicle")[0]
            name = next(p["name"] for p in campaign.exported["persons"]
                        if p["id"] == death["person"])
            line = next(ln for ln in mine.splitlines() if name in ln and "died aged" in ln)
            if death["needed"] is not None:
                assert (f"The roll was {death['roll']}; {death['needed']} was needed."
                        in line), line
            elif death["cause"] == "epidemic":
                assert f"The roll was a double ({death['roll']})" in line, line
            else:
                assert "The roll was an unmodified 2, always fatal." in line, line
            checked += 1
    assert checked >= 5


def test_battles_are_told_with_the_losses_and_linked_to_their_pages(
        played: dict[str, Played]) -> None:
    """Issue 17 item 7: "Losses to plague and battle, with links to the battle pages
    on the site": a link under the campaign's base_url that names a page the build
    wrote."""
    campaign = played["blood-royale"]
    battles = list(campaign.events("battle"))
    assert battles
    slug = campaign.root.name
    for battle in battles:
        url = f"{BASE}/{slug}/battles/{battle['id']}/index.html"
        assert (campaign.site / slug / "battles" / battle["id"] / "index.html").is_file()
        for side in battle["sides"]:
            report = campaign.report(battle["turn"], side["house"])
            lines = [ln for ln in report.splitlines() if f"]({url}): your side lost" in ln]
            assert len(lines) == 1, (url, side["house"])
            armies = "army" if side["losses"] == 1 else "armies"
            assert f"your side lost {side['losses']} {armies} of {side['armies_before']}" \
                in lines[0]


def test_plague_losses_are_told_to_the_house_that_lost_them(played: dict[str, Played]) -> None:
    """Issue 17 item 7: "Losses to plague"; RULES.md B5's plague halves the armies."""
    checked = 0
    for campaign in (played["blood-royale"], played["westeros"]):
        for plague in campaign.events("plague"):
            lost: dict[str, int] = {}
            for unit, armies in plague["losses"].items():
                if armies:
                    owner = plague["owners"][unit]
                    lost[owner] = lost.get(owner, 0) + armies
            province = campaign.name("provinces", plague["province"])
            for house, armies in lost.items():
                word = "army" if armies == 1 else "armies"
                assert (f"Plague struck {province}: you lost {armies} {word}"
                        in campaign.report(plague["turn"], house))
                checked += 1
    assert checked >= 1


def test_payments_gifts_exchanges_and_revolts_bought_off(played: dict[str, Played]) -> None:
    """Issue 17 item 7: "Payments, gifts, exchanges and ransoms; revolts bought off",
    each told to both houses of the dealing in their own words."""
    campaign = played["blood-royale"]

    def house(hid: str) -> str:
        return campaign.name("houses", hid)

    paid = list(campaign.events("crowns-paid"))
    given = list(campaign.events("counter-given"))
    exchanges = list(campaign.events("exchange"))
    bought = [e for e in campaign.events("revolt-ended") if e["cause"] == "paid"]
    assert paid and given and exchanges and bought
    for e in paid:
        assert (f"You paid {e['amount']} crowns to {house(e['to'])}."
                in campaign.report(e["turn"], e["house"]))
        assert (f"{house(e['house'])} paid you {e['amount']} crowns."
                in campaign.report(e["turn"], e["to"]))
    for e in given:
        assert "You gave " in campaign.report(e["turn"], e["house"])
        assert f"{house(e['house'])} gave you " in campaign.report(e["turn"], e["to"])
    for e in exchanges:
        for me, other in ((e["house"], e["partner"]), (e["partner"], e["house"])):
            assert (f"In a binding exchange with {house(other)} you gave "
                    in campaign.report(e["turn"], me))
    for e in bought:
        province = campaign.name("provinces", e["province"])
        assert (f"You bought off the revolt in {province} for {e['price']} crowns."
                in campaign.report(e["turn"], e["house"]))


def test_each_house_hears_its_place_in_each_rounds_move_order(
        played: dict[str, Played]) -> None:
    """Issue 17 item 7: "the kingdoms' move order"; RULES.md B2's rounds."""
    campaign = played["blood-royale"]
    drawn = list(campaign.events("kingdom-order"))
    assert drawn
    for e in drawn:
        for place, house in enumerate(e["order"], start=1):
            assert (f"Round {e['round']}: you moved in place {place} of {len(e['order'])}"
                    in campaign.report(e["turn"], house))


def test_reports_and_templates_are_in_the_campaigns_language(
        played: dict[str, Played]) -> None:
    """Issue 17 item 7: "Reports and templates are in the campaign's language"
    (campaign.toml's ``language``); the orders themselves stay the order language's."""
    campaign = played["blood-royale"]
    root = campaign.root
    _set(root, "language", "fr")
    try:
        assert run("reports", root, "--turn", "3").exit_code == 0
        report = campaign.report(3, "england")
        for heading in ("## Vos ordres", "## Ce qui est arrivé à votre maison",
                        "## La chronique du tour", "## Votre famille"):
            assert heading in report
        assert re.search(r"Manche 1 : vous avez joué en position \d sur 5", report)
        assert "## Your orders" not in report and "The roll was" not in report
        # Issue 19 item 4: the pack's French names ("name_fr"), in reports too.
        assert report.startswith("# La Maison Plantagenêt")
        assert "House Plantagenet" not in report
        template = report.split("## Vos ordres pour le prochain tour")[1]
        assert "# Ordres pour le tour 4 (1315)." in template
        assert "# ---- Guerre et économie (Blood Royale) ----" in template
        assert "\ntax normal\n" in template and "Treasury:" not in template
    finally:
        _set(root, "language", "en")
        assert run("reports", root, "--turn", "3").exit_code == 0


def _check_templates(root: Path) -> str:
    """Every house's template for the next turn, sent back as it is: what ``check`` says."""
    assert run("template", root).exit_code == 0
    templates = sorted((root / "templates").iterdir())[-1]
    orders = root / "orders" / templates.name
    orders.mkdir(parents=True, exist_ok=True)
    for path in templates.glob("*.orders"):
        (orders / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    checked = run("check", root)
    assert checked.exit_code == 0, checked.output
    return (templates / "england.orders").read_text(encoding="utf-8")


def test_check_accepts_the_templates_after_a_unit_is_gone(tmp_path: Path) -> None:
    """Issue 17 item 7: "Standing orders of destroyed units are dropped from templates
    (today `check` refuses what `template` wrote)": England's unit E-2 had standing
    battle orders of its own when it was disbanded."""
    root = tmp_path / "br"
    assert run("new", root, "--ruleset", "blood-royale", "--seed", "gone").exit_code == 0
    for turn, lines in ((1, "split 2 from E-1 as E-2\n"),
                        (2, "retreat E-2 to mercia\nflee E-2 when below 1 army\n"
                            "avoid france\n")):
        folder = root / "orders" / f"turn-{turn:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "england.orders").write_text("house england\n" + lines, encoding="utf-8")
        assert run("adjudicate", root, "--yes").exit_code == 0
    assert "retreat E-2 to mercia" in _check_templates(root)
    (root / "orders" / "turn-003" / "england.orders").write_text(
        "house england\ndisband E-2\n", encoding="utf-8")
    assert run("adjudicate", root, "--yes").exit_code == 0
    template = _check_templates(root)
    assert "E-2" not in template and "\navoid france\n" in template


@pytest.mark.parametrize("turns", [3, 5])
def test_check_accepts_the_templates_after_a_battle_destroyed_a_unit(
        tmp_path: Path, turns: int) -> None:
    """The same after a battle: the demo's built-in players lose a unit in the battles
    of turns 3 and 5 (``destroyed`` in the battle's record)."""
    root = tmp_path / "demo"
    assert run("demo", "--turns", str(turns), "--out", root, "--no-site").exit_code == 0
    exported = json.loads(run("export", root).output)
    assert any(b["destroyed"] for b in exported["events"]
               if b["kind"] == "battle" and b["turn"] == turns)
    _check_templates(root)

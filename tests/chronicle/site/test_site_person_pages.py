"""Person and house pages as issue 16 asks (items 3, 4 and 5), checked against the
JSON export (DESIGN.md "JSON export") and RULES.md A3's numbering."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from markupsafe import escape
from site_fixture import build_fixture

from chronicle.site import build_site
from chronicle.site.svgsafe import unsafe
from chronicle.views.data import slugify
from chronicle.views.kin import explain_ref, kinship_words


def _(text: str) -> str:
    return text


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    root = tmp_path_factory.mktemp("people")
    campaign = build_fixture(root / "fixture-wars", turns=8)
    build_site([campaign], root / "site")
    exported = subprocess.run(
        [sys.executable, "-m", "chronicle.commands.cli", "export", str(campaign), "--format", "json"],
        check=True, capture_output=True, text=True).stdout
    return root / "site" / "fixture-wars", json.loads(exported)


def _page_of(site: Path, person: dict[str, Any]) -> str:
    """The page of an exported person: ``people/<ref>-<id>/`` or ``people/<id>/``."""
    own = slugify(person["id"])
    names = [own] + [f"{slugify(ref)}-{own}" for ref in person["refs"].values()]
    pages = [site / "people" / name / "index.html" for name in names]
    found = [page for page in pages if page.is_file()]
    assert len(found) == 1, person["id"]
    return found[0].read_text(encoding="utf-8")


def _section(page: str, anchor: str) -> str:
    start = page.index(f'<h2 id="{anchor}">')
    end = page.find("<h2 ", start + 1)
    return page[start:end if end > 0 else len(page)]


def _linked(html: str) -> set[str]:
    return set(re.findall(r'href="\.\./\.\./people/([^/"]+)/index\.html"', html))


def test_item_3_every_parent_sibling_child_and_marriage_of_the_export_is_on_the_page(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 3: "Parents, siblings, and children grouped by spouse, with
    marriage years and how each marriage ended." Compared against the export."""
    site, export = built
    persons = {p["id"]: p for p in export["persons"]}
    by_page = {pid: _page_of(site, p) for pid, p in persons.items()}
    checked = 0
    for pid, person in persons.items():
        family = _section(by_page[pid], "family")
        children = [c for c in persons.values() if pid in (c["father"], c["mother"])]
        siblings = [s for s in persons.values() if s["id"] != pid and (
            (person["father"] and s["father"] == person["father"])
            or (person["mother"] and s["mother"] == person["mother"]))]
        for relative in [*(persons[q] for q in (person["father"], person["mother"]) if q),
                         *children, *siblings]:
            assert f">{escape(relative['name'])}" in family, (pid, relative["id"])
            checked += 1
        for m in export["marriages"]:
            if pid in (m["husband"], m["wife"]):
                other = persons[m["wife"] if m["husband"] == pid else m["husband"]]
                assert f">{escape(other['name'])}" in family
                assert f"married {m['year']}" in family
                if m.get("ended"):
                    assert f"ended {m['ended']}" in family
                checked += 1
    assert checked > 20


def test_item_3_every_claim_of_the_export_is_explained_with_its_path_and_rank(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 3: "for each dynasty where they hold a number, the number
    explained in words, the path of numbers from the founder, their rank in that
    succession at the last turn, and who stands before them." """
    site, export = built
    persons = {p["id"]: p for p in export["persons"]}
    claimants: dict[str, list[tuple[str, str]]] = {}
    for p in persons.values():
        for dynasty, ref in p["refs"].items():
            if p["died"] is None:
                claimants.setdefault(dynasty, []).append((ref, p["id"]))
    for person in persons.values():
        claims = _section(_page_of(site, person), "refs")
        for dynasty, ref in person["refs"].items():
            assert f'<code class="ref">{ref}</code>' in claims
            digits = ref[1:].rstrip("0")
            for i in range(1, len(digits) + 1):  # the path from the founder
                assert f"<code>{ref[0] + digits[:i].ljust(4, '0')}</code>" in claims
            ranked = sorted(claimants.get(dynasty, []))
            if person["died"] is None and not person.get("widowed_queen"):
                rank = [r for r, _q in ranked].index(ref) + 1
                if rank == 1:
                    assert "First in the succession: the ruler." in claims
                else:
                    before = persons[ranked[rank - 2][1]]["name"]
                    assert f"Number {rank} in the succession at the last turn, after" in claims
                    assert f">{escape(before)}" in claims


@pytest.mark.parametrize(("ref", "absolute", "words"), [
    ("E1000", False, "Edward, E1000"),
    ("E1100", False, "the first son of Edward, E1000"),
    ("E1a20", False, "the second son of the first daughter of Edward, E1000"),
    ("E1b00", False, "the second daughter of Edward, E1000"),
    ("E1A00", False, "the tenth son of Edward, E1000"),
    ("E11111", False, "the first son of the first son of the first son of the first son of "
                      "Edward, E1000"),
    ("M1200", True, "the second child of Edward, M1000"),
])
def test_item_3_a_number_in_words_follows_rules_a3(ref: str, absolute: bool, words: str) -> None:
    """RULES.md A3: "His first son E1100, second son E1200, first daughter E1a00 ...
    sons are 1-9, then A-Z from the 10th son on; daughters are a-z"; absolute
    primogeniture: "every child, of either sex, is numbered in birth order".
    Issue 16's own example: "the second son of the first daughter of Edward, E1000"."""
    text = explain_ref(_, ref, absolute, "Edward")
    assert text == words


def test_item_3_explained_claims_on_the_fixture_name_the_founder(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 3, for the founders' children and grandchildren of the fixture
    (RULES.md A3: "His first son E1100 ... first daughter E1a00 ... the first
    daughter of E1a00 is E1a10")."""
    site, export = built
    words = {"1": "first son", "2": "second son", "3": "third son",
             "a": "first daughter", "b": "second daughter", "c": "third daughter"}
    holder = {ref: p for p in export["persons"] for ref in p["refs"].values()}
    seen = 0
    for person in export["persons"]:
        for ref in person["refs"].values():
            digits = ref[1:].rstrip("0")
            if len(digits) not in (2, 3) or any(c not in words for c in digits[1:]):
                continue
            founder = holder[ref[0] + "1000"]["name"]
            text = f"{escape(founder)}, {ref[0]}1000"
            for char in digits[1:]:
                text = f"the {words[char]} of {text}"
            assert f"{text}." in _section(_page_of(site, person), "refs")
            seen += 1
    assert seen >= 3


@pytest.mark.parametrize(("up_who", "up_to", "male", "words"), [
    (1, 0, True, "son"), (0, 1, False, "mother"), (2, 0, False, "granddaughter"),
    (1, 1, True, "brother"), (1, 2, False, "aunt"), (2, 1, True, "nephew"), (1, 3, True, "great-uncle"), (4, 1, False, "2nd great-niece"),
    (2, 2, True, "first cousin"), (3, 2, False, "first cousin once removed"),
    (3, 3, True, "second cousin"), (3, 0, True, "great-grandson"),
    (4, 0, True, "2nd great-grandson"), (1, 1, False, "sister"),
])
def test_item_5_kinship_words(up_who: int, up_to: int, male: bool, words: str) -> None:
    """Issue 16, item 5: the succession table gives each claimant's "relationship to the ruler"."""
    assert kinship_words(_, up_who, up_to, male) == words


def test_item_3_charts_are_graphviz_with_the_person_highlighted_and_safe(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 3: "A 4-generation ancestor chart and a 2-generation descendant
    chart, drawn by Graphviz, with the person highlighted"; published SVG passes svgsafe.
    The ancestor chart is left out where no parent is known (a founder's, an
    incomer's), as the descendant chart is where there is no family."""
    site, export = built
    persons = {p["id"]: p for p in export["persons"]}
    seen_descendants = seen_without_parents = 0
    for person in persons.values():
        page = _page_of(site, person)
        charts = re.findall(r"<svg .*?</svg>", page, re.DOTALL)
        has_parents = any(person[parent] for parent in ("father", "mother"))
        has_children = any(person["id"] in (c["father"], c["mother"]) for c in persons.values())
        married = any(person["id"] in (m["husband"], m["wife"]) for m in export["marriages"])
        assert len(charts) == has_parents + (has_children or married)
        assert ('id="ancestors"' in page) == has_parents
        seen_without_parents += not has_parents
        for chart in charts:
            assert unsafe(chart) is None
            assert chart.count('class="node self"') == 1
            assert " id=" not in chart  # two charts on one page must not repeat ids
        for parent in (person["father"], person["mother"]):
            if parent:
                assert f'xlink:title="{escape(persons[parent]["name"])} *' in charts[0]
        if has_children:
            seen_descendants += 1
            for child in persons.values():
                if person["id"] in (child["father"], child["mother"]):
                    assert f'xlink:title="{escape(child["name"])} *' in charts[-1]
    assert seen_descendants > 3
    assert seen_without_parents > 0


def test_item_5_house_page_order_and_succession_columns(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 5: "A drawn line of rulers near the top. A succession table with
    age, sex, relationship to the ruler and this dynasty's number. The first 20 rows
    are shown; the rest sit in a <details>. Then the genealogy." """
    site, export = built
    year = export["year"]
    persons = {p["id"]: p for p in export["persons"]}
    def claimants(hid: str) -> list[tuple[str, dict[str, Any]]]:
        return sorted((p["refs"][hid], p) for p in persons.values()
                      if hid in p["refs"] and p["died"] is None and not p.get("widowed_queen"))

    hid = max((h["id"] for h in export["houses"]), key=lambda h: (len(claimants(h)), h))
    page = (site / f"houses/{slugify(hid)}/index.html").read_text(encoding="utf-8")
    line, table, genealogy = (page.index('class="ruler-line"'),
                              page.index('<table class="succession">'),
                              page.index('<h2 id="genealogy">'))
    assert line < table < genealogy
    head = re.search(r"<thead>(.*?)</thead>", page[table:], re.DOTALL)
    assert head is not None
    assert re.findall(r'<th scope="col">([^<]*)</th>', head.group(1)) == [
        "Rank", "Reference", "Claimant", "Age", "Sex", "Relationship to the ruler"]
    rows = re.findall(r"<tr><td class=\"num\">(\d+)</td><td><code>([^<]*)</code></td>"
                      r"<td>(.*?)</td><td class=\"num\">(\d+)</td><td>(\w+)</td><td>([^<]*)</td>",
                      page)
    living = claimants(hid)
    assert len(rows) == len(living)
    for (_rank, ref, _who, age, sex, relation), (own, person) in zip(rows, living, strict=True):
        assert ref == own  # this dynasty's number, never another's
        assert int(age) == year - person["born"]
        assert sex == ("male" if person["sex"] == "M" else "female")
        assert relation
    assert rows[0][5] == "the ruler"
    if len(rows) > 20:
        details = page.index("<details")
        assert page.count("<tr><td class=\"num\">", table, details) == 20


def test_item_4_the_finder_data_holds_every_person_and_their_parents(
        built: tuple[Path, dict[str, Any]]) -> None:
    """Issue 16, item 4: "progressive enhancement over a compact JSON of parents"."""
    site, export = built
    text = (site / "relationship/kin.js").read_text(encoding="utf-8")
    assert text.startswith("window.chronicleKin=")
    rows = json.loads(text[len("window.chronicleKin="):].rstrip(";\n"))["p"]
    by_name = {row[0]: row for row in rows}
    for person in export["persons"]:
        row = by_name[person["name"]]
        for index, parent in ((4, person["father"]), (5, person["mother"])):
            if parent is None:
                assert row[index] == -1
            else:
                assert rows[row[index]][0] == next(
                    p["name"] for p in export["persons"] if p["id"] == parent)
    page = (site / "relationship/index.html").read_text(encoding="utf-8")
    assert '<script src="kin.js"></script>' in page  # a script, so file:// works

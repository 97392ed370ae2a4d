"""Genealogy diagrams (site design, "genealogy.py"): Graphviz SVG per dynasty."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from chronicle.site.genealogy import (
    DiagramPart,
    TreeMarriage,
    TreePerson,
    diagram_dot,
    node_id,
    plan_parts,
    render_genealogies,
    render_svg,
)
from chronicle.site.incremental.cache import RenderCache, render_cached
from chronicle.views.data import HouseStyle

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HOUSES = {
    "england": HouseStyle("england", "England", "#9b1b30"),
    "france": HouseStyle("france", "France", "#1f3f8f"),
}


def link(pid: str) -> str:
    return f"../people/{pid.lower()}/index.html"


def small_family() -> tuple[list[TreePerson], list[TreeMarriage]]:
    """Edward (king, dead) ⚭ Isabella of France; two children; a son married to a minor noble."""
    people = [
        TreePerson("E1", "Edward", "M", 1239, 1307, "england", refs={"england": "E1"},
                   was_ruler=True, title="King of England"),
        TreePerson("F7", "Isabella", "F", 1245, None, "france",
                   refs={"france": "F7", "england": "E2"}),
        TreePerson("E3", "Edward II", "M", 1270, None, "england", "E1", "F7",
                   refs={"england": "E3"}, ruler=True, title="King of England"),
        TreePerson("E4", "Joan", "F", 1272, 1290, "england", "E1", "F7", refs={"england": "E4"}),
        TreePerson("M9", "Margaret", "F", 1275, None, None, refs={}),
        TreePerson("E5", "Thomas", "M", 1295, None, "england", "E3", "M9", refs={"england": "E5"}),
    ]
    marriages = [TreeMarriage("E1", "F7", 1265), TreeMarriage("E3", "M9", 1293)]
    return people, marriages


def render_small(**kwargs: object) -> dict[str, str]:
    people, marriages = small_family()
    return render_genealogies(people, marriages, HOUSES, link, **kwargs).svgs  # type: ignore[arg-type]


def nodes(svg: str) -> dict[str, ET.Element]:
    root = ET.fromstring(svg)
    return {
        g.findtext(f"{SVG}title", ""): g
        for g in root.iter(f"{SVG}g")
        if "node" in (g.get("class") or "").split()
    }


def dot_of(part: int = 0, max_members: int = 60) -> str:
    people, marriages = small_family()
    parts = plan_parts(people, marriages, HOUSES, max_members=max_members)
    return diagram_dot(parts[part], people, marriages, HOUSES, link)


def test_genealogy_one_diagram_per_dynasty_with_spouses_from_other_houses() -> None:
    svgs = render_small()
    assert sorted(svgs) == ["england.svg", "france.svg"]
    england = nodes(svgs["england.svg"])
    # Isabella (France) and Margaret (minor nobility) are drawn as spouses in England's tree.
    assert {"p_E1", "p_F7", "p_E3", "p_E4", "p_M9", "p_E5"} <= set(england)
    assert "p_F7" in nodes(svgs["france.svg"])


def test_genealogy_marriage_node_per_union() -> None:
    svg = render_small()["england.svg"]
    unions = [t for t in nodes(svg) if t.startswith("u_")]
    assert sorted(unions) == [node_id("u_", "E1 F7"), node_id("u_", "E3 M9")]
    dot = dot_of()
    union = node_id("u_", "E1 F7")
    assert f"{union} [shape=point" in dot
    assert f"p_E1 -> {union}" in dot and f"{union} -> p_F7" in dot


def test_genealogy_children_hang_from_marriage_node() -> None:
    dot = dot_of()
    union = node_id("u_", "E1 F7")
    assert f"{union} -> p_E3 [class=\"descent\"" in dot
    assert f"{union} -> p_E4 [class=\"descent\"" in dot
    assert "p_E1 -> p_E3" not in dot and "p_F7 -> p_E3" not in dot


def test_genealogy_generations_share_a_rank_with_spouses_side_by_side() -> None:
    ranks = [
        set(m.group(1).split("; "))
        for m in re.finditer(r"\{ rank=same; (.*?); \}", dot_of())
    ]
    assert {"p_E1", "p_F7", node_id("u_", "E1 F7")} in ranks
    assert {"p_E3", "p_E4", "p_M9", node_id("u_", "E3 M9")} in ranks
    assert {"p_E5"} in ranks


def test_genealogy_dead_living_and_rulers_told_apart_without_colour() -> None:
    found = nodes(render_small()["england.svg"])
    edward_text = " ".join(t.text or "" for t in found["p_E1"].iter(f"{SVG}text"))
    assert "♔ Edward" in edward_text and "†1307" in edward_text
    assert "King of England" in edward_text
    assert "person dead ruler" in (found["p_E1"].get("class") or "")
    assert "living" in (found["p_E3"].get("class") or "")
    edward_box = next(found["p_E1"].iter(f"{SVG}path"))
    assert edward_box.get("stroke-dasharray")  # the dead: dashed
    assert next(found["p_E3"].iter(f"{SVG}path")).get("stroke-dasharray") is None
    # The reigning king has a double border: two outlines.
    assert len(list(found["p_E3"].iter(f"{SVG}path"))) == 2


def test_genealogy_house_colours_and_minor_nobility_neutral() -> None:
    found = nodes(render_small()["england.svg"])
    assert next(found["p_E3"].iter(f"{SVG}path")).get("stroke") == "#9b1b30"
    assert next(found["p_F7"].iter(f"{SVG}path")).get("stroke") == "#1f3f8f"
    assert next(found["p_M9"].iter(f"{SVG}path")).get("stroke") == "#777777"


def test_genealogy_shows_the_diagrams_number_then_the_own() -> None:
    """Isabella holds E2 in England and F7 in her own France (RULES.md A3)."""
    svgs = render_small()
    in_england = [t.text for t in nodes(svgs["england.svg"])["p_F7"].iter(f"{SVG}text")]
    in_france = [t.text for t in nodes(svgs["france.svg"])["p_F7"].iter(f"{SVG}text")]
    assert "E2 · F7" in in_england
    assert "F7" in in_france and not any("E2" in (t or "") for t in in_france)


def test_genealogy_nodes_link_to_character_pages_with_tooltip() -> None:
    found = nodes(render_small()["england.svg"])
    anchor = next(found["p_E3"].iter(f"{SVG}a"))
    assert anchor.get(f"{XLINK}href") == "../people/e3/index.html"
    assert anchor.get("target") == "_top"
    assert anchor.get(f"{XLINK}title") == "Edward II (E3) *1270"


def test_genealogy_identical_input_gives_byte_identical_svg() -> None:
    people, marriages = small_family()
    first = render_genealogies(people, marriages, HOUSES, link).svgs
    again = render_genealogies(list(reversed(people)), list(reversed(marriages)), HOUSES, link)
    assert first == again.svgs
    assert "<!--" not in first["england.svg"]  # no version comment to vary by install


HOSTILE = ['<script>alert(1)</script>', 'Jo "the" \\N Bold', "O'Neil & <b>Sons</b>", "]{x}|<f0>"]


@pytest.mark.parametrize("name", HOSTILE)
def test_genealogy_hostile_names_escaped_and_svg_well_formed(name: str) -> None:
    people = [
        TreePerson("E1", name, "M", 1250, None, "england", refs={"england": "E1"},
                   ruler=True, title=name),
        TreePerson("X2", name, "F", 1252, None, "evil", refs={"evil": name}),
        TreePerson("E3", name, "M", 1270, None, "england", "E1", "X2", refs={"england": "E3"}),
    ]
    houses = {**HOUSES, "evil": HouseStyle("evil", name, '#fff" onload="x')}
    svgs = render_genealogies(
        people, [TreeMarriage("E1", "X2", 1269)], houses, lambda pid: f'../p/{name}/'
    ).svgs
    for svg in svgs.values():
        root = ET.fromstring(svg)
        assert "<script" not in svg.lower()
        assert "onload" not in " ".join(a for el in root.iter() for a in el.attrib)
    found = nodes(svgs["england.svg"])
    texts = [t.text for t in found["p_E1"].iter(f"{SVG}text")]
    assert f"♔ {name}" in texts
    assert next(found["p_E1"].iter(f"{SVG}a")).get(f"{XLINK}title") == f"{name} (E1) *1250"


def large_dynasty(size: int) -> tuple[list[TreePerson], list[TreeMarriage]]:
    """A founder whose descendants each have three children, generation after generation."""
    people = [TreePerson("E0", "Founder", "M", 1200, 1250, "england", refs={"england": "E0"})]
    marriages: list[TreeMarriage] = []
    frontier = ["E0"]
    n = 1
    while len(people) < size:
        nxt = []
        for father in frontier:
            wife = f"W{n}"
            born = next(p.born for p in people if p.id == father)
            people.append(TreePerson(wife, f"Wife {n}", "F", born, None, None))
            marriages.append(TreeMarriage(father, wife, born + 20))
            for _ in range(3):
                n += 1
                pid = f"E{n}"
                people.append(TreePerson(pid, f"Son {n}", "M", born + 25, None, "england",
                                         father, wife, refs={"england": pid}))
                nxt.append(pid)
        frontier = nxt
    return people, marriages


def test_genealogy_large_dynasty_split_into_titled_parts() -> None:
    people, marriages = large_dynasty(130)
    parts = plan_parts(people, marriages, HOUSES, max_members=60)
    england = [p for p in parts if p.dynasty == "england"]
    assert len(england) > 1
    # Issue 15: "diagrams named after their root person", so a split that
    # moves renames no other part.
    assert [p.filename for p in england] == [
        "england.svg", *(f"england--{p.root.lower()}.svg" for p in england[1:] if p.root)
    ]
    assert england[0].root is None and england[0].title == "England"
    assert all(p.root is not None and p.title.startswith("England: ") for p in england[1:])
    assert all(len(p.members) <= 60 for p in england)
    drawn = {m for p in england for m in p.members}
    assert drawn == {p.id for p in people if p.dynasty == "england"}
    small_people, small_marriages = large_dynasty(13)
    one_piece = plan_parts(small_people, small_marriages, HOUSES, max_members=1000)
    assert [p.filename for p in one_piece] == ["england.svg"]


def test_genealogy_parts_keep_their_names_when_the_dynasty_grows() -> None:
    """Issue 15: "diagrams named after their root person": a part's file is
    named by the person it starts from, so the parts of a dynasty that grows
    a generation keep the names they had."""
    people, marriages = large_dynasty(130)
    before = {p.root: p.filename for p in plan_parts(people, marriages, HOUSES, max_members=60)}
    grown, grown_marriages = large_dynasty(190)
    after = {p.root: p.filename for p in plan_parts(grown, grown_marriages, HOUSES, max_members=60)}
    kept = before.keys() & after.keys()
    assert len(kept) > 1
    assert all(before[root] == after[root] for root in kept)


def test_genealogy_split_parts_link_to_their_branches() -> None:
    people, marriages = large_dynasty(130)
    result = render_genealogies(people, marriages, HOUSES, link, max_members=60,
                                render=lambda dot: dot)
    first: DiagramPart = result.parts[0]
    branch = result.parts[1]
    assert branch.root is not None
    # Issue 16, 2: "Split by branch or generation, with links between parts": the
    # ⋯ opens the branch's page, where it is shown at 100 %.
    assert f'URL="{branch.filename.removesuffix(".svg")}.html"' in result.svgs[first.filename]


def test_genealogy_unchanged_dot_is_not_laid_out_again(tmp_path: Path) -> None:
    calls: list[str] = []

    def counting(dot: str) -> str:
        calls.append(dot)
        return render_svg(dot)

    first = render_small(cache_dir=tmp_path, render=counting)
    assert len(calls) == 2
    second = render_small(cache_dir=tmp_path, render=counting)
    assert len(calls) == 2
    assert first == second
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".svg", ".svg"]


def _anything(text: str) -> str:
    """Accepts any text: these entries are not drawings."""
    return text


def test_genealogy_cache_keyed_by_source_hash(tmp_path: Path) -> None:
    cache = RenderCache(tmp_path, salt="v1", accept=_anything)
    assert render_cached("a", str.upper, cache) == "A"
    assert render_cached("a", lambda s: "other", cache) == "A"
    assert render_cached("b", str.upper, cache) == "B"
    assert RenderCache(tmp_path, salt="v2", accept=_anything).get("a") is None
    assert cache.path("a").name == cache.key("a") + ".svg" and len(cache.key("a")) == 64

"""The per-turn map (site design, "mapsvg.py"): schematic provinces as SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from repo_paths import GOLDEN

from adjudicator.rulesets.blood_royale.board import Province
from adjudicator.state import Unit
from chronicle.rulesets.blood_royale.mapsvg import MapBattle, MapLabels, map_svg
from chronicle.views.data import HouseStyle

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}"
HOUSES = {
    "england": HouseStyle("england", "England", "#9b1b30"),
    "france": HouseStyle("france", "France", "#1f3f8f"),
}


def board() -> list[Province]:
    return [
        Province("middlesex", "Middlesex", "land", "england", True, None,
                 ["kent", "channel"], 100, 100, "england"),
        Province("kent", "Kent", "land", "england", False, None, ["middlesex", "channel"],
                 160, 120, "france", revolt=True),
        Province("channel", "English Channel", "sea", None, False, None,
                 ["middlesex", "kent", "normandy"], 150, 200),
        Province("normandy", "Normandy", "land", "france", False, None, ["channel"],
                 200, 280, None, famine=True),
    ]


def units() -> list[Unit]:
    return [Unit("E1", "england", "army", 3, "middlesex"), Unit("F2", "france", "fleet", 2,
                                                               "channel")]


def draw(**kwargs: object) -> str:
    return map_svg(board(), units(), [MapBattle("b-3-1", "kent", "Battle of Kent, 1303")],
                   HOUSES, lambda b: f"../battles/{b}/index.html", **kwargs)  # type: ignore[arg-type]


def group(root: ET.Element, gid: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{gid}']")
    assert found is not None, gid
    return found


def test_map_provinces_filled_by_controller_sea_blue_uncontrolled_neutral() -> None:
    root = ET.fromstring(draw())
    kent = group(root, "prov-kent").find(f"{SVG}rect")
    assert kent is not None and kent.get("stroke") == "#1f3f8f"
    normandy = group(root, "prov-normandy").find(f"{SVG}rect")
    assert normandy is not None and normandy.get("fill") == "#f4efe1"
    assert group(root, "prov-channel").find(f"{SVG}ellipse") is not None


def test_map_adjacency_drawn_once_per_pair() -> None:
    lines = list(ET.fromstring(draw()).iter(f"{SVG}line"))
    assert len(lines) == 4  # middlesex-kent, middlesex-channel, kent-channel, channel-normandy


def test_map_capital_revolt_and_famine_marked() -> None:
    root = ET.fromstring(draw())
    texts = lambda gid: [t.text for t in group(root, gid).iter(f"{SVG}text")]  # noqa: E731
    assert "★ Middlesex" in texts("prov-middlesex")
    assert "⚑" in texts("prov-kent")
    assert "⌀" in texts("prov-normandy")


def test_map_units_as_badges_with_id_and_armies() -> None:
    root = ET.fromstring(draw())
    unit = group(root, "unit-E1")
    assert [t.text for t in unit.iter(f"{SVG}text")] == ["E1 ×3"]
    assert unit.findtext(f"{SVG}title") == "E1 (England): army, 3 armies"


def test_map_battle_marker_links_to_battle_page() -> None:
    root = ET.fromstring(draw())
    anchor = group(root, "battle-b-3-1").find(f"{SVG}a")
    assert anchor is not None
    assert anchor.get(f"{XLINK}href") == "../battles/b-3-1/index.html"
    assert anchor.get("target") == "_top"


def test_map_has_title_desc_and_legend_localised() -> None:
    labels = MapLabels(title="Carte, 1303", desc="Provinces.", revolt="Révolte")
    root = ET.fromstring(draw(labels=labels))
    assert root.findtext(f"{SVG}title") == "Carte, 1303"
    assert root.findtext(f"{SVG}desc") == "Provinces."
    legend = [t.text for t in root.find(f".//{SVG}g[@class='legend']").iter(f"{SVG}text")]  # type: ignore[union-attr]
    assert {"England", "France", "Révolte"} <= set(legend)


def test_map_deterministic_whatever_the_input_order() -> None:
    again = map_svg(list(reversed(board())), list(reversed(units())),
                    [MapBattle("b-3-1", "kent", "Battle of Kent, 1303")], HOUSES,
                    lambda b: f"../battles/{b}/index.html")
    assert again == draw()


def test_map_escapes_hostile_text_and_drops_script_links() -> None:
    evil = '<script>alert("x")</script> & \' "'
    provinces = board()
    provinces[0].name = evil
    houses = {"england": HouseStyle("england", evil, '" onload="x'), "france": HOUSES["france"]}
    svg = map_svg(provinces, [Unit(evil, "england", evil, 1, "middlesex")],
                  [MapBattle(evil, "kent", evil)], houses, lambda b: "javascript:alert(1)",
                  labels=MapLabels(title=evil))
    root = ET.fromstring(svg)
    assert "<script" not in svg
    assert root.findtext(f"{SVG}title") == evil
    assert not [el for el in root.iter() if any("onload" in k for k in el.attrib)]
    assert not [el for el in root.iter(f"{SVG}a")]


# -- issue 19, item 2: "The map" ------------------------------------------------
def test_each_rounds_marches_are_arrows_and_changes_of_control_rings() -> None:
    """Issue 19, item 2: "Each turn's map shows each round's movements as arrows, plus
    battles and changes of control." """
    from chronicle.rulesets.blood_royale.mapsvg import ROUND_DASHES, MapChange, MapMove

    svg = draw(moves=[MapMove("england", 1, ("middlesex", "kent"), "E1 marched"),
                      MapMove("france", 2, ("normandy", "channel", "kent"), "F2 sailed"),
                      MapMove("france", 1, ("normandy", "atlantis"))],
               changes=[MapChange("kent", "france", "France took Kent")])
    root = ET.fromstring(svg)
    moves = root.findall(f".//{SVG}g[@class='move']")
    # The march through a province the board lacks is left out, not drawn astray.
    assert [m.findtext(f"{SVG}title") for m in moves] == ["E1 marched", "F2 sailed"]
    first, second = (m.find(f"{SVG}polyline") for m in moves)
    assert first is not None and second is not None
    assert first.get("stroke") == "#9b1b30" and first.get("stroke-dasharray") is None
    assert second.get("stroke-dasharray") == ROUND_DASHES[1]
    assert len(str(second.get("points")).split()) == 3
    assert all(m.find(f"{SVG}polygon") is not None for m in moves)  # the arrow's head
    assert [m.findtext(f"{SVG}text") for m in moves] == ["1", "2"]
    change = root.find(f".//{SVG}g[@class='change']")
    assert change is not None and change.findtext(f"{SVG}title") == "France took Kent"
    assert change.find(f"{SVG}rect").get("stroke") == "#1f3f8f"  # type: ignore[union-attr]
    legend = " ".join(t.text or "" for t in root.iter(f"{SVG}text"))
    assert "Movement, round 1" in legend and "Movement, round 2" in legend
    assert "Change of control" in legend


def test_every_label_on_the_map_is_at_least_10_px() -> None:
    """Issue 19, item 2: "labels at least 10 CSS px" (the page shows the map at its size)."""
    from chronicle.rulesets.blood_royale.mapsvg import MapMove

    root = ET.fromstring(draw(moves=[MapMove("england", 1, ("middlesex", "kent"))]))
    sizes = {float(t.get("font-size") or 10) for t in root.iter(f"{SVG}text")}
    assert min(sizes) >= 10
    assert float(root.get("width") or 0) == float(str(root.get("viewBox")).split()[2])


def test_the_reference_site_has_a_maps_index_in_its_navigation_and_framed_maps() -> None:
    """Issue 19, item 2: "Maps appear in the navigation, with a maps index", "in a
    scrollable frame"; the turn with a battle draws its marches."""

    site = GOLDEN / "reference-site" / "blood-royale"
    home = (site / "index.html").read_text(encoding="utf-8")
    assert '<a href="maps/index.html">Maps</a>' in home
    index = (site / "maps" / "index.html").read_text(encoding="utf-8")
    for turn in (1, 2, 3):
        assert f'href="../maps/turn-{turn:03d}.svg"' in index
    turn = (site / "turns" / "turn-003" / "index.html").read_text(encoding="utf-8")
    assert '<div class="frame" role="region" tabindex="0"' in turn
    drawn = ET.parse(site / "maps" / "turn-003.svg").getroot()
    assert drawn.findall(f".//{SVG}g[@class='move']")
    assert drawn.findall(f".//{SVG}g[@class='battle']")


def test_two_rounds_marching_the_same_leg_show_both_numbers() -> None:
    """Two rounds' marches along the same leg put their numbers on the same spot, so
    that only one could be read (a reviewer found "1" hidden under "2" on a played
    campaign's map): a second round's number moves along the leg, clear of it."""
    from chronicle.rulesets.blood_royale.mapsvg import MapMove

    svg = draw(moves=[MapMove("england", 1, ("middlesex", "kent")),
                      MapMove("france", 2, ("middlesex", "kent")),
                      MapMove("france", 2, ("kent", "middlesex"))])
    root = ET.fromstring(svg)
    circles = [(float(c.get("cx", 0)), float(c.get("cy", 0)), m.findtext(f"{SVG}text"))
               for m in root.findall(f".//{SVG}g[@class='move']")
               for c in m.findall(f"{SVG}circle")]
    assert [number for _x, _y, number in circles] == ["1", "2", "2"]
    for x, y, number in circles:
        for ox, oy, other in circles:
            if other != number:  # the circles (r 7) do not overlap
                assert (x - ox) ** 2 + (y - oy) ** 2 >= 14 ** 2

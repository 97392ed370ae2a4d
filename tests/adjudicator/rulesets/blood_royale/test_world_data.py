"""The world and house data of the content packs (RULES.md B1, A1, A7, A8, C).

These tests read only the TOML files under ``content/rulesets/``: the maps
(``world.toml``), the starting families (``houses.toml``) and the shared
minor-nobility names. Each test quotes the rule it checks.
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections import Counter, deque
from pathlib import Path
from typing import Any

import pytest
from repo_paths import REPO

RULESETS = REPO / "content" / "rulesets"
PACKS = ("blood-royale", "westeros")
GOODS = {"metal", "cloth", "food", "wine", "gold"}
BASIC_SET = {"metal", "cloth", "food"}
LAWS = {"male-preference", "absolute"}


def _load(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def world(pack: str) -> dict[str, Any]:
    return _load(RULESETS / pack / "world.toml")


def houses(pack: str) -> list[dict[str, Any]]:
    houses: list[dict[str, Any]] = _load(RULESETS / pack / "houses.toml")["house"]
    return houses


def minor_nobility() -> dict[str, list[str]]:
    return _load(RULESETS / "dynastic" / "minor-nobility.toml")


def provinces(pack: str) -> dict[str, dict[str, Any]]:
    return {p["id"]: p for p in world(pack)["province"]}


def land_of(pack: str, kingdom: str) -> list[dict[str, Any]]:
    return [p for p in world(pack)["province"]
            if p["kind"] == "land" and p.get("kingdom") == kingdom]


def pack_names(pack: str) -> list[str]:
    """Every given name a pack's houses.toml hands out: lists, kings, queens."""
    names: list[str] = []
    for house in houses(pack):
        names += house["male_names"] + house["female_names"] + [house["king"], house["queen"]]
    return names


def fold(name: str) -> str:
    """A name without case or accents, so "Agnes" and "agnès" count as one."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def reachable(provs: dict[str, dict[str, Any]], start: str,
              allowed: set[str] | None = None) -> set[str]:
    seen = {start}
    queue = deque([start])
    while queue:
        for n in provs[queue.popleft()]["neighbours"]:
            if n not in seen and (allowed is None or n in allowed):
                seen.add(n)
                queue.append(n)
    return seen


def kingdom_ids(pack: str) -> list[str]:
    return [k["id"] for k in world(pack)["kingdom"]]


# ---------------------------------------------------------------- RULES B1


def test_b1_five_kingdoms_ten_provinces() -> None:
    """RULES B1: "Five kingdoms: England, France, Germany, Italy and Spain. Their
    letters are E F G I S." and "Each kingdom has 10 provinces." """
    w = world("blood-royale")
    letters = {k["id"]: k["letter"] for k in w["kingdom"]}
    assert letters == {"england": "E", "france": "F", "germany": "G",
                       "italy": "I", "spain": "S"}
    for kingdom in letters:
        assert len(land_of("blood-royale", kingdom)) == 10, kingdom


@pytest.mark.parametrize("pack", PACKS)
def test_b1_one_capital_per_kingdom(pack: str) -> None:
    """RULES B1: "One province is the capital." The kingdom's `capital` names
    that province, and it lies in the kingdom."""
    for kingdom in world(pack)["kingdom"]:
        capitals = [p["id"] for p in land_of(pack, kingdom["id"]) if p.get("capital")]
        assert capitals == [kingdom["capital"]], kingdom["id"]
    for p in world(pack)["province"]:
        if p.get("capital"):
            assert p["kind"] == "land" and p.get("kingdom"), p["id"]


@pytest.mark.parametrize("pack", PACKS)
def test_b1_three_resources_per_kingdom(pack: str) -> None:
    """RULES B1: "Three produce a resource." Goods are metal, cloth, food, wine
    or gold (B7), and only land produces them."""
    for kingdom in kingdom_ids(pack):
        goods = [p["resource"] for p in land_of(pack, kingdom) if "resource" in p]
        assert len(goods) == 3, kingdom
        assert set(goods) <= GOODS, kingdom
    for p in world(pack)["province"]:
        if p["kind"] == "sea":
            assert "resource" not in p, p["id"]


@pytest.mark.parametrize("pack", PACKS)
def test_b1_no_kingdom_starts_with_a_complete_basic_set(pack: str) -> None:
    """RULES B1: "No kingdom starts with a complete basic set." B7: "A basic set
    is one metal, one cloth and one food." """
    for kingdom in kingdom_ids(pack):
        goods = {p["resource"] for p in land_of(pack, kingdom) if "resource" in p}
        assert not BASIC_SET.issubset(goods), f"{kingdom} holds a basic set: {sorted(goods)}"


@pytest.mark.parametrize("pack", PACKS)
def test_b7_every_good_is_produced_by_two_kingdoms(pack: str) -> None:
    """RULES B7 sets need metal, cloth, food, wine and gold; with no basic set at
    home (B1) trade is necessary, and every good comes from at least two
    kingdoms so that it is also possible."""
    producers: dict[str, set[str]] = {good: set() for good in GOODS}
    for p in world(pack)["province"]:
        if "resource" in p:
            producers[p["resource"]].add(p["kingdom"])
    for good, kingdoms in producers.items():
        assert len(kingdoms) >= 2, f"{good} only from {sorted(kingdoms)}"


@pytest.mark.parametrize("pack", PACKS)
def test_b1_sea_zones_join_the_kingdoms(pack: str) -> None:
    """RULES B1: "Sea zones join them." A sea zone belongs to no kingdom and
    touches at least one coast."""
    provs = provinces(pack)
    seas = [p for p in provs.values() if p["kind"] == "sea"]
    assert len(seas) >= 6
    for sea in seas:
        assert "kingdom" not in sea, sea["id"]
        assert not sea.get("capital"), sea["id"]
        assert any(provs[n]["kind"] == "land" for n in sea["neighbours"]), sea["id"]


@pytest.mark.parametrize("pack", PACKS)
def test_b1_kingdoms_and_provinces_are_well_formed(pack: str) -> None:
    """RULES B1: province names, resources and adjacency are ruleset data. Every
    province has an id, a name, a kind (land or sea) and neighbours; land has a
    known kingdom; every kingdom has a law (A3) and a colour."""
    w = world(pack)
    kingdoms = set(kingdom_ids(pack))
    for k in w["kingdom"]:
        assert k["law"] in LAWS, k["id"]
        assert k["capital"] in provinces(pack), k["id"]
    for p in w["province"]:
        assert p["kind"] in {"land", "sea"}, p["id"]
        assert isinstance(p["name"], str) and p["name"].strip() == p["name"] != "", p["id"]
        assert p["neighbours"], p["id"]
        if p["kind"] == "land":
            assert p["kingdom"] in kingdoms, p["id"]


@pytest.mark.parametrize("pack", PACKS)
def test_b1_ids_names_and_letters_are_unique(pack: str) -> None:
    """RULES B1 and A3: each kingdom has its own letter, the first character of
    every reference number; province ids and names are unique; ids are
    lowercase ASCII slugs."""
    w = world(pack)
    for key in ("id", "letter", "name"):
        values = [k[key] for k in w["kingdom"]]
        assert len(values) == len(set(values)), f"kingdom {key}"
    for letter in (k["letter"] for k in w["kingdom"]):
        assert len(letter) == 1 and letter.isascii() and letter.isupper()
    ids = [p["id"] for p in w["province"]]
    names = [p["name"] for p in w["province"]]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert len(names) == len(set(names)), [i for i, n in Counter(names).items() if n > 1]
    for ident in ids + [k["id"] for k in w["kingdom"]]:
        assert ident.isascii() and ident == ident.lower(), ident
        assert all(c.isalnum() or c == "-" for c in ident), ident
        assert not ident.startswith("-") and not ident.endswith("-"), ident
    assert not set(ids) & set(kingdom_ids(pack))


@pytest.mark.parametrize("pack", PACKS)
def test_b4_every_neighbour_exists(pack: str) -> None:
    """RULES B4: units move from province to adjacent province, so every
    neighbour a province lists must exist, once, and not be itself."""
    provs = provinces(pack)
    for p in provs.values():
        assert len(p["neighbours"]) == len(set(p["neighbours"])), p["id"]
        assert p["id"] not in p["neighbours"], p["id"]
        for n in p["neighbours"]:
            assert n in provs, f"{p['id']} lists unknown {n}"


@pytest.mark.parametrize("pack", PACKS)
def test_b4_adjacency_is_symmetric(pack: str) -> None:
    """RULES B4 movement: if a unit can move from a to b it can move back, so
    if a lists b, b lists a."""
    provs = provinces(pack)
    for p in provs.values():
        for n in p["neighbours"]:
            assert p["id"] in provs[n]["neighbours"], f"{p['id']} -> {n} only"


@pytest.mark.parametrize("pack", PACKS)
def test_b4_map_is_connected(pack: str) -> None:
    """RULES B4: every province can be reached from every other, by land and sea."""
    provs = provinces(pack)
    start = next(iter(provs))
    assert reachable(provs, start) == set(provs)


@pytest.mark.parametrize("pack", PACKS)
def test_b4_each_kingdom_hangs_together(pack: str) -> None:
    """RULES B4 and B2 (raising in "a controlled home province"): each kingdom's
    provinces are linked to its capital through its own land or the seas."""
    provs = provinces(pack)
    seas = {i for i, p in provs.items() if p["kind"] == "sea"}
    for k in world(pack)["kingdom"]:
        home = {p["id"] for p in land_of(pack, k["id"])}
        assert home <= reachable(provs, k["capital"], home | seas), k["id"]


def test_b1_england_reaches_the_continent_only_by_sea() -> None:
    """RULES B1 [D]: England is an island kingdom; no English province borders
    another kingdom's land."""
    provs = provinces("blood-royale")
    for p in land_of("blood-royale", "england"):
        for n in p["neighbours"]:
            other = provs[n]
            assert other["kind"] == "sea" or other["kingdom"] == "england", (p["id"], n)


@pytest.mark.parametrize("a, b", [("france", "germany"), ("france", "spain"),
                                  ("france", "italy"), ("germany", "italy")])
def test_b1_continental_land_borders(a: str, b: str) -> None:
    """RULES B1 [D]: the continental kingdoms share land borders, so armies can
    march between France and Germany, Spain and Italy, and Germany and Italy."""
    provs = provinces("blood-royale")
    assert any(provs[n].get("kingdom") == b
               for p in land_of("blood-royale", a) for n in p["neighbours"])


@pytest.mark.parametrize("pack", PACKS)
def test_map_positions_on_the_canvas(pack: str) -> None:
    """DESIGN.md (site generator, schematic maps): every province has x and y
    drawing positions on the pack's canvas, and no two share a spot."""
    w = world(pack)
    width, height = w["canvas"]["width"], w["canvas"]["height"]
    spots = set()
    for p in w["province"]:
        x, y = p["x"], p["y"]
        assert isinstance(x, float) and isinstance(y, float), p["id"]
        assert 0 <= x <= width and 0 <= y <= height, p["id"]
        spots.add((x, y))
    assert len(spots) == len(w["province"])


def test_map_blood_royale_is_roughly_geographical() -> None:
    """RULES B1: real regions of c. 1300, drawn roughly where they lie: England
    top-left, Germany top-right, France in the centre, Spain bottom-left and
    Italy bottom-right."""
    def centre(kingdom: str) -> tuple[float, float]:
        land = land_of("blood-royale", kingdom)
        return (sum(p["x"] for p in land) / len(land), sum(p["y"] for p in land) / len(land))

    e, f, g, i, s = (centre(k) for k in ("england", "france", "germany", "italy", "spain"))
    assert e[0] < f[0] < g[0] and e[1] < f[1] < s[1]
    assert s[0] < f[0] < i[0] and g[1] < i[1]


@pytest.mark.parametrize("pack", PACKS)
def test_kingdom_colours_carry_white_text(pack: str) -> None:
    """DESIGN.md (published site): each kingdom's colour is a #rrggbb hex dark
    enough for white text, at the WCAG AA contrast ratio of 4.5:1 or better."""
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    for k in world(pack)["kingdom"]:
        colour = k["color"]
        assert len(colour) == 7 and colour[0] == "#", k["id"]
        r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
        luminance = 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
        assert 1.05 / (luminance + 0.05) >= 4.5, f"{k['id']} {colour}"


# ---------------------------------------------------------------- starting families


@pytest.mark.parametrize("pack", PACKS)
def test_b1_houses_match_kingdoms(pack: str) -> None:
    """RULES B1: each kingdom is played by one house, whose letter it shares
    (A3: the letter begins every reference number of the dynasty)."""
    kingdoms = {k["id"]: k["letter"] for k in world(pack)["kingdom"]}
    assert {h["id"]: h["letter"] for h in houses(pack)} == kingdoms
    for h in houses(pack):
        assert h["name"].strip() and h["king"].strip() and h["queen"].strip()


@pytest.mark.parametrize("pack", PACKS)
def test_b1_starting_army_of_five(pack: str) -> None:
    """RULES B1: "Starting economy [D]: ... 5 armies in one unit in the capital."
    Every start unit is of a type the pack defines (RULES C)."""
    unit_types = world(pack)["unit_types"]
    for h in houses(pack):
        armies = [u for u in h["start_units"] if u["type"] == "army"]
        assert armies == [{"type": "army", "armies": 5}], h["id"]
        for unit in h["start_units"]:
            assert unit["type"] in unit_types, (h["id"], unit)
            assert isinstance(unit["armies"], int) and unit["armies"] >= 1, (h["id"], unit)


@pytest.mark.parametrize("pack", PACKS)
def test_a8_unit_types_are_data(pack: str) -> None:
    """RULES A8: "A unit may have several commanders" (max_commanders = 0, no
    limit, for armies and fleets); fleets are naval."""
    types = world(pack)["unit_types"]
    assert types["army"]["max_commanders"] == 0
    assert types["fleet"]["max_commanders"] == 0
    assert types["fleet"]["naval"] is True
    assert not types["army"].get("naval", False)


# ---------------------------------------------------------------- RULES C


def test_c_seven_westeros_houses() -> None:
    """RULES C: "Seven houses, as in the seed: Stark, Lannister, Baratheon,
    Tyrell, Martell, Greyjoy and Targaryen." Each has 5 to 10 land provinces."""
    expected = {"stark", "lannister", "baratheon", "tyrell", "martell", "greyjoy", "targaryen"}
    assert set(kingdom_ids("westeros")) == expected
    assert len(kingdom_ids("westeros")) == 7
    assert {h["id"] for h in houses("westeros")} == expected
    capitals = {k["id"]: k["capital"] for k in world("westeros")["kingdom"]}
    assert capitals == {"stark": "winterfell", "lannister": "casterly-rock",
                        "baratheon": "storms-end", "tyrell": "highgarden",
                        "martell": "sunspear", "greyjoy": "pyke",
                        "targaryen": "dragonstone"}
    for kingdom in expected:
        assert 5 <= len(land_of("westeros", kingdom)) <= 10, kingdom


def test_c_martell_uses_absolute_primogeniture() -> None:
    """RULES C: "Martell uses absolute primogeniture." Everyone else follows the
    default male-preference law (A3)."""
    laws = {k["id"]: k["law"] for k in world("westeros")["kingdom"]}
    assert laws.pop("martell") == "absolute"
    assert set(laws.values()) == {"male-preference"}
    assert {k["law"] for k in world("blood-royale")["kingdom"]} == {"male-preference"}


def test_c_targaryen_starts_with_dragons() -> None:
    """RULES C: "Targaryen starts with Dragon units. A Dragon takes a single
    commander and its command value is never below 0 (A8)." Only Targaryen
    starts with them."""
    dragon = world("westeros")["unit_types"]["dragon"]
    assert dragon["max_commanders"] == 1
    assert dragon["min_command_value"] == 0
    for h in houses("westeros"):
        dragons = [u for u in h["start_units"] if u["type"] == "dragon"]
        if h["id"] == "targaryen":
            assert dragons == [{"type": "dragon", "armies": 1}] * 3
        else:
            assert dragons == [], h["id"]


def test_c_dragons_only_in_westeros() -> None:
    """RULES C: "which unit types exist, are data of the content pack": Blood
    Royale has armies and fleets, and no dragons."""
    assert set(world("blood-royale")["unit_types"]) == {"army", "fleet"}
    assert set(world("westeros")["unit_types"]) == {"army", "fleet", "dragon"}


# ---------------------------------------------------------------- names (A1, A7)


@pytest.mark.parametrize("pack", PACKS)
def test_a1_name_lists_for_newborns(pack: str) -> None:
    """RULES A1: "A newborn takes the first unused name from its dynasty's name
    list for its sex; the lists are ruleset data." Each list holds 25 or more
    plain names; the adjudicator adds ordinals ("Edmund II") itself."""
    for h in houses(pack):
        for key in ("male_names", "female_names"):
            names = h[key]
            assert len(names) >= 25, (h["id"], key)
            for name in names:
                assert name.strip() == name != "", (h["id"], name)
                assert not any(c.isdigit() for c in name), (h["id"], name)
                assert " " not in name, (h["id"], name)


@pytest.mark.parametrize("pack", PACKS)
def test_a1_names_unique_within_each_pack(pack: str) -> None:
    """RULES A1: "Names stay unique across the whole campaign." No given name
    appears twice in a pack, across houses, sexes, kings and queens, even
    ignoring case and accents."""
    names = pack_names(pack)
    duplicates = [n for n, count in Counter(map(fold, names)).items() if count > 1]
    assert duplicates == []


@pytest.mark.parametrize("pack", PACKS)
def test_a7_minor_nobility_names_are_distinct(pack: str) -> None:
    """RULES A7: "a spouse created by the arbiter who belongs to no playing
    dynasty"; B1: the queen comes "from the minor nobility". The arbiter's
    minor-nobility names never collide with a name a house uses or will use."""
    minor = minor_nobility()
    spare = minor["minor_nobility_male_names"] + minor["minor_nobility_female_names"]
    assert not {fold(n) for n in spare} & {fold(n) for n in pack_names(pack)}


def test_a7_minor_nobility_lists() -> None:
    """RULES A7: minor nobility is "on by default", so the arbiter needs a
    supply of names: 30 or more for each sex, all different."""
    minor = minor_nobility()
    male, female = minor["minor_nobility_male_names"], minor["minor_nobility_female_names"]
    assert len(male) >= 30 and len(female) >= 30
    folded = [fold(n) for n in male + female]
    assert len(folded) == len(set(folded))
    for name in male + female:
        assert name.strip() == name != "" and not any(c.isdigit() for c in name)

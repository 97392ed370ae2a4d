"""Standings charts (site design, "charts.py"): pygal SVG, static and reproducible."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from chronicle.rulesets.blood_royale.drawings import cash_in_chart, wealth_chart
from chronicle.site.charts import population_chart
from chronicle.views.data import HouseStyle

SVG = "{http://www.w3.org/2000/svg}"
HOUSES = {
    "england": HouseStyle("england", "England", "#9b1b30"),
    "france": HouseStyle("france", "France <&> \"Valois\"", "#1f3f8f"),
}
ROWS = [(1300 + t, h, 100 + t * (3 if h == "england" else 5)) for t in range(12) for h in HOUSES]


def test_charts_wealth_one_line_per_house_in_house_colours() -> None:
    svg = wealth_chart(ROWS, HOUSES)
    root = ET.fromstring(svg)
    series = {g.get("class") for g in root.iter(f"{SVG}g") if "series" in (g.get("class") or "")}
    assert series == {"series serie-0 color-0", "series serie-1 color-1"}
    assert "#9b1b30" in svg and "#1f3f8f" in svg
    legends = [t.text for t in root.iter(f"{SVG}text") if t.text]
    assert "England" in legends and 'France <&> "Valois"' in legends


def test_charts_have_accessible_title_and_desc() -> None:
    root = ET.fromstring(population_chart(ROWS, HOUSES, title="Vivants", desc="Par maison."))
    assert root.findtext(f"{SVG}title") == "Vivants"
    assert root.findtext(f"{SVG}desc") == "Par maison."
    assert root.get("role") == "img"


def test_charts_need_no_script_and_reference_no_external_url() -> None:
    for svg in (wealth_chart(ROWS, HOUSES), cash_in_chart(ROWS, HOUSES)):
        assert "<script" not in svg
        assert "<!--" not in svg
        urls = set(re.findall(r"(?:https?:)?//[^\s\"'<>)]+", svg))
        assert urls == {"http://www.w3.org/2000/svg"}


def test_charts_ids_are_stable_not_random() -> None:
    svg = wealth_chart(ROWS, HOUSES, chart_id="Wealth Turn 3")
    assert ET.fromstring(svg).get("id") == "chart-wealth-turn-3"
    assert not re.search(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-", svg)


def test_charts_identical_rows_give_byte_identical_svg_across_processes() -> None:
    here = wealth_chart(ROWS, HOUSES)
    assert wealth_chart(list(reversed(ROWS)), HOUSES) == here
    code = (
        "import sys\n"
        "from chronicle.rulesets.blood_royale.drawings import wealth_chart\n"
        "from chronicle.views.data import HouseStyle\n"
        f"houses = {{k: HouseStyle(*v) for k, v in {[(k, (h.id, h.name, h.color)) for k, h in HOUSES.items()]!r}}}\n"
        f"sys.stdout.write(wealth_chart({ROWS!r}, houses))\n"
    )
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, encoding="utf-8")
    assert other.stdout == here


def test_charts_missing_years_leave_gaps() -> None:
    rows = [(1300, "england", 10), (1301, "england", 12), (1301, "france", 7)]
    root = ET.fromstring(wealth_chart(rows, HOUSES))
    dots = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("dots")]
    assert len(dots) == 3  # France has no point for 1300


def test_charts_cash_in_totals_per_house() -> None:
    root = ET.fromstring(cash_in_chart([(1300, "england", 5), (1301, "england", 7)], HOUSES))
    values = [d.text for d in root.iter(f"{SVG}desc") if d.get("class") == "value"]
    assert values == ["12"]

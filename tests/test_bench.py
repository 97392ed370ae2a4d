"""The benchmark as an instrument (issue 15: "``bench/build.py`` made trustworthy").

Nothing here times Chronicle: these check that the bench pairs its runs
("Interleave Chronicle and Pelican runs (A B A B …) and report medians,
min–max, and wall and CPU ratios"), that the CPU it reports is the child
process's, and that its scenarios run the real commands.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from bench_support import BENCH


def test_runs_alternate_which_goes_first() -> None:
    """"Interleave … runs (A B A B …)": each pair starts with the other side."""
    order: list[str] = []

    def run(label: str) -> Any:
        def timed(index: int) -> Any:
            order.append(f"{label}{index}")
            return BENCH.Run(wall=1.0, cpu=1.0)
        return timed

    a, b = BENCH.interleaved(4, run("A"), run("B"), ("a", "b"))
    assert order == ["A0", "B0", "B1", "A1", "A2", "B2", "B3", "A3"]
    assert len(a.runs) == len(b.runs) == 4


def test_ratios_are_per_pair_with_median_and_range() -> None:
    """"report medians, min–max, and wall and CPU ratios": the ratio of each pair,
    not of two medians taken apart."""
    ours = BENCH.Series("ours", [BENCH.Run(1.0, 2.0), BENCH.Run(2.0, 2.0), BENCH.Run(1.0, 1.0)])
    theirs = BENCH.Series("theirs", [BENCH.Run(2.0, 2.0), BENCH.Run(2.0, 2.0),
                                     BENCH.Run(4.0, 4.0)])
    # Throughput ratios per pair: 2, 1, 4 by wall; 1, 1, 4 by CPU.
    assert BENCH.ratio_figure(ours, theirs, BENCH.wall) == "2.00× (1.00–4.00)"
    assert BENCH.ratio_figure(ours, theirs, BENCH.cpu) == "1.00× (1.00–4.00)"
    assert ours.figure(BENCH.wall) == "1.000 (1.000–2.000)"
    part = BENCH.Series("part", [BENCH.Run(1.0, 1.0), BENCH.Run(3.0, 1.0)])
    whole = BENCH.Series("whole", [BENCH.Run(4.0, 2.0), BENCH.Run(4.0, 2.0)])
    assert BENCH.share_figure(part, whole, BENCH.wall) == "50.0 % (25.0–75.0)"


def test_cpu_is_the_whole_child_process_s() -> None:
    """"Time whole processes": a child that sleeps takes wall time and next to no CPU;
    one that computes takes CPU, counted though this process only waits."""
    sleeping = BENCH.measure([sys.executable, "-c", "import time; time.sleep(0.5)"])
    assert sleeping.wall >= 0.5
    assert sleeping.cpu < sleeping.wall - 0.3
    busy = BENCH.measure([sys.executable, "-c",
                          "import time\nend = time.process_time() + 0.3\n"
                          "while time.process_time() < end: pass\nprint('done')"])
    assert busy.cpu >= 0.3
    assert busy.output.strip() == "done"


def test_adjudicate_scenario_plays_one_turn_through_the_command_line(tmp_path: Path) -> None:
    """The ``--only adjudicate`` scenario: a real ``chronicle adjudicate`` per run,
    each on its own copy, the campaign itself left as it was."""
    campaign = BENCH.make_synthetic(tmp_path / "small", people=30)
    turns_before = _turns(campaign)
    lines = BENCH.bench_adjudicate("small", campaign, tmp_path, 2)
    assert len(lines) == 1 and "adjudicate one turn: wall" in lines[0]
    assert _turns(campaign) == turns_before
    copy = tmp_path / "copy"
    BENCH.shutil.copytree(campaign, copy)
    run = BENCH.play_one_turn(copy)
    assert run.cpu > 0 and _turns(copy) == turns_before + 1


def _turns(campaign: Path) -> int:
    import sqlite3

    with sqlite3.connect(campaign / "chronicle.sqlite") as db:
        return int(db.execute("SELECT count(*) FROM turns").fetchone()[0])


CHURN = BENCH.churn


def _page(top: str, **parts: str) -> str:
    return "<main>" + top + "".join(f'<h2 id="{name}">{name}</h2>{text}'
                                    for name, text in parts.items()) + "</main>"


def _drawing(*nodes: str, edges: tuple[str, ...] = (), label: str = "") -> str:
    body = "".join(f'<g id="{node}" class="node"><text>{label}{node}</text></g>'
                   for node in nodes)
    body += "".join(f'<g id="e{i}" class="edge">\n<title>{edge}</title></g>'
                    for i, edge in enumerate(edges))
    return f"<svg>{body}</svg>"


def _site(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_churn_names_the_parts_of_the_pages_that_made_a_rebuild_write_them(
        tmp_path: Path) -> None:
    """Issue 15: "≤ 15 % of files written". ``bench/churn.py`` says which parts of
    the pages changed, and what share of files each part, taken out, would spare."""
    same = {f"c/people/p{i}/index.html": _page("P", refs="1st") for i in range(6)}
    old = _site(tmp_path / "old", {
        **same,
        "c/people/a/index.html": _page("A", refs="rank 2", family="x"),
        "c/people/b/index.html": _page("B", refs="rank 3", family="y"),
        "c/people/c/index.html": _page("C", refs="rank 4", family="z"),
        "c/people/gone/index.html": _page("G"),
        "c/genealogy/one.html": _drawing("p1", "p2", edges=("p1->p2",)),
        "c/genealogy/two.html": _drawing("p3"),
        "c/style.css": "a{}",
        ".chronicle-manifest/x": "old",
    })
    new = _site(tmp_path / "new", {
        **same,
        "c/people/a/index.html": _page("A", refs="rank 1", family="x"),  # refs alone
        "c/people/b/index.html": _page("B", refs="rank 2", family="y2"),  # both
        "c/people/c/index.html": _page("C died", refs="rank 4", family="z"),  # top alone
        "c/people/new/index.html": _page("N"),
        "c/genealogy/one.html": _drawing("p1", "p2", edges=("p1->p2",), label="†"),
        "c/genealogy/two.html": _drawing("p3", "p4", edges=("p3->p4",)),
        "c/style.css": "a{}",
        ".chronicle-manifest/x": "new",  # not a page of the site
    })
    lines = CHURN.report(old, new)
    # 13 files: 6 unchanged pages, a, b, c, new, two drawings, the style sheet.
    assert lines[0] == "files written 6 of 13 (46.2 %): 1 new, 5 changed; 1 removed"
    assert lines[1] == "written, by folder: people 4, genealogy 2"
    assert lines[2] == ("changed pages, by part that changed (alone): genealogy#top 2 (2); "
                        "people#refs 2 (1); people#family 1 (0); people#top 1 (1)")
    # Sparing genealogy#top first (2 pages), then people#refs: page a alone, and page b
    # once people#family is out as well.
    assert lines[3] == ("files written had a change in these parts not made their page "
                        "change, one more each time: genealogy#top 30.8 %; people#refs "
                        "23.1 %; people#family 15.4 %; people#top 7.7 %")
    assert lines[4] == ("family-tree parts changed: 1 in their drawing's nodes or edges, "
                        "1 in its labels only")


def test_churn_cuts_a_page_at_its_headings() -> None:
    html = '<p>top</p><h2 id="family">F</h2><p>f</p><h3 id="ancestors">A</h3><svg/>'
    assert CHURN.parts_of(html) == {"top": "<p>top</p>",
                                    "family": '<h2 id="family">F</h2><p>f</p>',
                                    "ancestors": '<h3 id="ancestors">A</h3><svg/>'}
    assert CHURN.changed_parts(html, html.replace("<svg/>", "<svg></svg>"), "people") == \
        frozenset({"people#ancestors"})

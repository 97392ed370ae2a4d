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

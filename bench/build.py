"""Benchmark the site build: pages per second, beside Pelican on as many pages.

Run from the project folder::

    pip install -e .[bench]
    python bench/build.py                 # everything
    python bench/build.py --only pelican  # one part: demo, synthetic, pelican, genealogy

It reports, for the demo campaign and for a synthetic campaign of ten houses
played for a hundred turns, the pages per second of a full build and the
time of a second build with nothing changed; then Pelican building the same
number of Markdown articles, and the ratio; then the layout time of a
500-person genealogy. Campaigns are made in a temporary folder (``--keep``
keeps them, and the sites, for a look).

Making campaigns and building sites go through :func:`make_demo`,
:func:`make_synthetic` and :func:`build_chronicle` only.
"""

from __future__ import annotations

import argparse
import logging
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SYNTHETIC_HOUSES = 10
SYNTHETIC_TURNS = 100
PARTS = ("demo", "synthetic", "pelican", "genealogy")


@dataclass(frozen=True)
class Timing:
    label: str
    pages: int
    first: float
    second: float

    def line(self) -> str:
        rate = self.pages / self.first if self.first else float("inf")
        return (f"{self.label:<28} {self.pages:>6} pages  full {self.first:7.2f} s "
                f"({rate:8.1f} pages/s)  unchanged rebuild {self.second:6.2f} s")


def count_pages(site: Path) -> int:
    return sum(1 for _ in site.rglob("*.html"))


def timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


# -- Chronicle: the only place that makes campaigns and builds sites -------------


def make_demo(folder: Path) -> Path:
    """The ``chronicle demo`` campaign (Blood Royale, whole campaign), without a site."""
    from chronicle.demo import run_demo

    return run_demo(ruleset="blood-royale", turns=None, seed="bench", out=folder, site=None,
                    quiet=True)


def make_synthetic(folder: Path, houses: int = SYNTHETIC_HOUSES,
                   turns: int = SYNTHETIC_TURNS) -> Path:
    """A dynasty campaign of ``houses`` houses played ``turns`` turns by the built-in players."""
    import tomli_w

    from chronicle import runner
    from chronicle.campaign import load_campaign
    from chronicle.players import orders_for, personality_of
    from chronicle.scaffold import campaign_spec, scaffold

    seed = "bench-synthetic"
    scaffold(folder, "dynasty", title="Synthetic benchmark", seed=seed)
    spec = campaign_spec("dynasty", world=None, title="Synthetic benchmark", seed=seed)
    spec["house"], spec["person"], spec["unit"] = [], [], []
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for index in range(houses):
        hid, letter = f"house-{index + 1:02d}", letters[index]
        spec["house"].append({"id": hid, "letter": letter, "name": f"House {letter}",
                              "law": "male-preference", "player": ""})
        spec["person"] += [
            {"id": f"{hid}-king", "name": f"King {letter}", "sex": "M", "born": 1275,
             "dynasty": hid, "founder": True, "spouse": f"{hid}-queen"},
            {"id": f"{hid}-queen", "name": f"Queen {letter}", "sex": "F", "born": 1280},
        ]
        spec["unit"] += [{"id": f"{letter}-{n}", "house": hid, "type": "army"} for n in (1, 2)]
    (folder / "campaign.toml").write_text(tomli_w.dumps(spec), encoding="utf-8")
    campaign = load_campaign(folder)
    rules = runner.ruleset_of(campaign)
    for _ in range(turns):
        state = runner.current_state(campaign, rules)
        if state.finished:
            break
        orders = campaign.orders_dir(state.turn + 1)
        orders.mkdir(parents=True, exist_ok=True)
        for index, house in enumerate(sorted(state.houses)):
            if house in rules.ordering_houses(state):
                text = orders_for("dynasty", state, house, campaign.rules,
                                  personality_of(house, index), f"{seed}:{state.turn}:{house}")
                (orders / f"{house}.orders").write_text(text, encoding="utf-8")
        runner.adjudicate(campaign)
    return folder


def build_chronicle(campaign: Path, site: Path) -> int:
    from chronicle.publish import build_site

    build_site([campaign], site)
    return count_pages(site)


def bench_chronicle(label: str, make: Callable[[Path], Path], work: Path) -> Timing:
    print(f"{label}: making the campaign…", flush=True)
    started = time.perf_counter()
    campaign = make(work / f"{label}-campaign")
    print(f"{label}: played in {time.perf_counter() - started:.1f} s; building…", flush=True)
    site = work / f"{label}-site"
    pages = 0

    def first() -> None:
        nonlocal pages
        pages = build_chronicle(campaign, site)

    first_time = timed(first)
    second_time = timed(lambda: build_chronicle(campaign, site))
    people = _people(campaign)
    return Timing(f"chronicle {label} ({people} people)", pages, first_time, second_time)


def _people(campaign: Path) -> int:
    from sqlmodel import Session, create_engine, func, select

    from chronicle.models import PersonRow

    engine = create_engine(f"sqlite:///{campaign / 'chronicle.sqlite'}")
    with Session(engine) as session:
        count = session.exec(select(func.count()).select_from(PersonRow)).one()
    engine.dispose()
    return int(count)


# -- Pelican -----------------------------------------------------------------------


def _pelican() -> Any:
    try:
        import pelican
        import pelican.settings
    except ImportError:
        sys.exit("Pelican is not installed; run: pip install -e .[bench]")
    return pelican


def write_articles(content: Path, count: int) -> None:
    """``count`` short Markdown articles, a few paragraphs each, like chronicle pages."""
    rng = random.Random(1300)
    words = ["king", "queen", "battle", "siege", "marriage", "heir", "treasury", "province",
             "army", "fleet", "revolt", "famine", "crown", "castle", "duke", "envoy"]
    content.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        body = "\n\n".join(" ".join(rng.choice(words) for _ in range(60)).capitalize() + "."
                           for _ in range(4))
        (content / f"article-{n:05d}.md").write_text(
            f"Title: Chronicle entry {n}\nDate: 1300-01-01 00:{n // 60 % 60:02d}:{n % 60:02d}\n"
            f"Category: turn-{n % 100:03d}\nTags: house-{n % 10}\nSlug: entry-{n:05d}\n\n"
            f"{body}\n",
            encoding="utf-8")


def build_pelican(content: Path, output: Path) -> int:
    pelican = _pelican()
    settings = pelican.settings.read_settings(override={
        "PATH": str(content),
        "OUTPUT_PATH": str(output),
        "SITEURL": "",
        "RELATIVE_URLS": True,
        "TIMEZONE": "UTC",
        "DEFAULT_LANG": "en",
        "FEED_ALL_ATOM": None,
        "CATEGORY_FEED_ATOM": None,
        "TRANSLATION_FEED_ATOM": None,
        "AUTHOR_FEED_ATOM": None,
        "AUTHOR_FEED_RSS": None,
        "DEFAULT_PAGINATION": 20,
    })
    pelican.Pelican(settings).run()
    return count_pages(output)


def bench_pelican(articles: int, work: Path) -> Timing:
    logging.getLogger("pelican").setLevel(logging.ERROR)
    content, output = work / "pelican-content", work / "pelican-site"
    write_articles(content, articles)
    pages = 0

    def first() -> None:
        nonlocal pages
        pages = build_pelican(content, output)

    first_time = timed(first)
    second_time = timed(lambda: build_pelican(content, output))
    return Timing(f"pelican ({articles} articles)", pages, first_time, second_time)


# -- genealogy -----------------------------------------------------------------------


def bench_genealogy(size: int = 500) -> str:
    """Layout time of one dynasty of ``size`` members, in one diagram and split."""
    from chronicle.publish.genealogy import (
        HouseStyle,
        TreeMarriage,
        TreePerson,
        render_genealogies,
    )

    rng = random.Random(size)
    people = [TreePerson("E0", "Founder", "M", 1200, 1250, "main", refs={"main": "E0"},
                         was_ruler=True)]
    marriages: list[TreeMarriage] = []
    fathers = ["E0"]
    while len(people) < size:
        father = fathers.pop(0)
        born = next(p.born for p in people if p.id == father)
        wife = TreePerson(f"W{len(people)}", "Wife", "F", born + 2, None, None)
        people.append(wife)
        marriages.append(TreeMarriage(father, wife.id, born + 20))
        for _ in range(rng.randint(1, 4)):
            pid = f"E{len(people)}"
            sex = "M" if rng.random() < 0.6 else "F"
            people.append(TreePerson(pid, f"Child {pid}", sex, born + 25, born + 80, "main",
                                     father, wife.id, refs={"main": pid}))
            if sex == "M":
                fathers.append(pid)
        if not fathers:
            fathers.append(people[-1].id)
    houses = {"main": HouseStyle("main", "Main", "#9b1b30")}
    members = sum(1 for p in people if p.dynasty == "main")
    lines = []
    for limit, label in ((10**9, "one diagram"), (60, "split at 60")):
        started = time.perf_counter()
        result = render_genealogies(people, marriages, houses, lambda pid: f"{pid}.html",
                                    max_members=limit)
        elapsed = time.perf_counter() - started
        lines.append(f"genealogy {len(people)} people ({members} of the dynasty), {label}: "
                     f"{elapsed:.2f} s, {len(result.parts)} diagram(s)")
    return "\n".join(lines)


# -- main ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=PARTS, action="append",
                        help="run only this part (repeatable)")
    parser.add_argument("--pelican-articles", type=int, default=None,
                        help="articles for Pelican (default: the pages of the largest build)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="make everything in this (new) folder and keep it")
    args = parser.parse_args(argv)
    parts = args.only or list(PARTS)
    if "pelican" in parts:
        _pelican()
    work = args.keep or Path(tempfile.mkdtemp(prefix="chronicle-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    results: list[Timing] = []
    try:
        if "demo" in parts:
            results.append(bench_chronicle("demo", make_demo, work))
        if "synthetic" in parts:
            results.append(bench_chronicle("synthetic", make_synthetic, work))
        if "pelican" in parts:
            articles = args.pelican_articles or max((t.pages for t in results), default=1000)
            results.append(bench_pelican(articles, work))
        print()
        for timing in results:
            print(timing.line())
        ours = [t for t in results if t.label.startswith("chronicle")]
        theirs = [t for t in results if t.label.startswith("pelican")]
        if ours and theirs:
            rate = theirs[0].pages / theirs[0].first
            for timing in ours:
                print(f"{timing.label}: {timing.pages / timing.first / rate:.2f}× "
                      f"Pelican's pages per second")
        if "genealogy" in parts:
            print(bench_genealogy())
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

"""Benchmark the site build: pages per second, beside Pelican on as many pages.

Run from the project folder::

    pip install -e .[bench]
    python bench/build.py                 # everything but the size part
    python bench/build.py --only pelican  # one part: demo, synthetic, pelican, genealogy, size

It reports, for the demo campaign and for a synthetic campaign of ten houses
played for a hundred turns, the pages, seconds and pages per second of a full
build (into an empty folder, with no Graphviz cache), the time of a second
build with nothing changed, also as a share of the full build, and the time
of a full build into an empty folder once the Graphviz cache is warm (the
campaign folder keeps it, so this is every full build after the first); then
Pelican building as many Markdown articles as each build wrote pages, in the
same run, and the ratios of pages per second, cold and warm. Each kind of
full build runs ``--runs`` times (3), each into a new folder, and so does the
build with nothing changed (into the first build's folder); the medians are
reported, with every run's time beside them. Everything is written
in memory (``/dev/shm``) where the machine has enough of it, ``--on-disk``
in the system's temporary folder; then genealogy
layout times (a 500-person dynasty in one diagram
and split, and a deep 10,000-person dynasty split); then the size of the
site, per person page and whole, of the synthetic campaign played on to
10,000, 30,000 and 60,000 people (``--people``; a long part, so
``python bench/build.py --only size`` runs it alone). Campaigns are made in a
temporary folder (``--keep`` keeps them, and the sites, for a look).

Making campaigns and building sites go through :func:`make_demo`,
:func:`make_synthetic` and :func:`build_chronicle` only. Campaigns are played
in a separate process; every timed build, Chronicle's or Pelican's, runs in a
new process of its own, both generators imported before its clock starts.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

SYNTHETIC_HOUSES = 10
SYNTHETIC_TURNS = 100
# Five centuries of births compound: the same players end with 5,500 people
# on one seed and 65,000 on another. This one ends with about 11,000, the
# size the benchmark is meant to measure; the report gives the exact count.
SYNTHETIC_SEED = "s3"
PARTS = ("demo", "synthetic", "pelican", "genealogy", "size")
EVERYTHING = PARTS[:-1]  # what runs without --only: the size part takes long
# The campaign sizes ``--only size`` measures the site of (see ``bench_sizes``).
SIZE_PEOPLE = (10_000, 30_000, 60_000)


@dataclass(frozen=True)
class Timing:
    label: str
    pages: int
    first: float  # the median full build
    second: float  # the median build again with nothing changed
    warm: float | None = None  # the median full build with the Graphviz cache warm
    articles: int = 0  # Pelican's: the Markdown articles it was given
    firsts: tuple[float, ...] = ()  # every full build, in the order they ran
    warms: tuple[float, ...] = ()
    seconds: tuple[float, ...] = ()

    @property
    def rate(self) -> float:
        return self.pages / self.first if self.first else float("inf")

    @property
    def warm_rate(self) -> float | None:
        return self.pages / self.warm if self.warm else None

    def row(self) -> str:
        share = 100 * self.second / self.first if self.first else 0.0
        warm = f"{self.warm:>9.2f} {self.warm_rate:>9.1f}" if self.warm else f"{'':>9} {'':>9}"
        return (f"{self.label:<38} {self.pages:>7} {self.first:>9.2f} {self.rate:>9.1f} "
                f"{self.second:>10.3f} {share:>8.1f} % {warm}")


HEADER = (f"{'build':<38} {'pages':>7} {'full (s)':>9} {'pages/s':>9} "
          f"{'again (s)':>10} {'of full':>10} {'warm (s)':>9} {'pages/s':>9}")


def count_pages(site: Path) -> int:
    return sum(1 for _ in site.rglob("*.html"))


def timed(action: Callable[..., object], *args: Any) -> float:
    """Seconds ``action(*args)`` takes in a new interpreter, as a command run anew.

    A build in this process would find the templates of an earlier build
    compiled and its caches full; each runs in a process of its own, with
    the generators imported before the clock starts (see ``_timed_here``).
    """
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as runner:
        return runner.submit(_timed_here, action, *args).result()


def _timed_here(action: Callable[..., object], *args: Any) -> float:
    """In the new process: the time of ``action``, from a clean heap, earlier writes on disk.

    The setup (a campaign played, articles written) leaves the kernel
    writing back: that is settled first, so it is not counted in the build.
    """
    import chronicle.publish.build  # noqa: F401  (the package itself loads it lazily)
    try:
        import pelican
        import pelican.settings  # noqa: F401
    except ImportError:
        pass
    logging.getLogger("pelican").setLevel(logging.ERROR)
    gc.collect()
    if hasattr(os, "sync"):
        os.sync()
    started = time.perf_counter()
    action(*args)
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

    from chronicle.demo import play_turns
    from chronicle.scaffold import campaign_spec, scaffold

    seed = SYNTHETIC_SEED
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
    play_turns(folder, turns, seed)
    return folder


def build_chronicle(campaign: Path, site: Path) -> None:
    from chronicle.publish import build_site

    build_site([campaign], site)


def bench_chronicle(label: str, make: Callable[[Path], Path], work: Path,
                    runs: int = 1) -> Timing:
    print(f"{label}: making the campaign…", flush=True)
    started = time.perf_counter()
    # Played in a process of its own: the build then starts from a clean
    # interpreter, as ``chronicle build`` does, not one holding a whole game.
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as player:
        campaign = player.submit(make, work / f"{label}-campaign").result()
    print(f"{label}: played in {time.perf_counter() - started:.1f} s; building…", flush=True)
    site = work / f"{label}-site"
    firsts = [timed(build_chronicle, campaign, site)]
    pages = count_pages(site)
    seconds = [timed(build_chronicle, campaign, site) for _ in range(runs)]
    # Every other build goes to a new folder, not one emptied: ext4 searches
    # long for free inodes among those deleted in the last half minute, and
    # that would be measured instead of the build.
    for run in range(2, runs + 1):
        shutil.rmtree(campaign / ".cache", ignore_errors=True)  # a first build again
        firsts.append(timed(build_chronicle, campaign, work / f"{label}-site-{run}"))
    warms = [timed(build_chronicle, campaign, work / f"{label}-site-warm-{run}")
             for run in range(1, runs + 1)]
    people = _people(campaign)
    return Timing(f"chronicle {label} ({people} people)", pages, median(firsts), median(seconds),
                  median(warms), firsts=tuple(firsts), warms=tuple(warms),
                  seconds=tuple(seconds))


def median(times: list[float]) -> float:
    ordered = sorted(times)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _people(campaign: Path) -> int:
    from sqlmodel import Session, create_engine, func, select

    from chronicle.models import PersonRow

    engine = create_engine(f"sqlite:///{campaign / 'chronicle.sqlite'}")
    with Session(engine) as session:
        count = session.exec(select(func.count()).select_from(PersonRow)).one()
    engine.dispose()
    return int(count)


# -- site size ----------------------------------------------------------------------


def grow_synthetic(folder: Path, people: tuple[int, ...], keep: Path) -> list[Path]:
    """The synthetic campaign played on until it has each count of ``people``.

    A copy of the campaign is kept in ``keep`` as each count is passed (two
    turns at a time, so it holds a little more): one game, several sizes.
    """
    from chronicle.demo import play_turns

    make_synthetic(folder, turns=2)
    copies = []
    for target in sorted(people):
        while _people(folder) < target:
            play_turns(folder, 2, SYNTHETIC_SEED)
        copies.append(keep / f"campaign-{target}")
        shutil.copytree(folder, copies[-1])
    return copies


def site_size(campaign: Path, site: Path) -> str:
    """A built site's person pages (count, mean, median, largest) and its total bytes."""
    build_chronicle(campaign, site)
    pages = sorted(p.stat().st_size for p in site.glob("*/people/*/index.html"))
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    return (f"site of {_people(campaign)} people: {len(pages)} person pages, "
            f"{sum(pages) / len(pages):.0f} bytes each on average (median "
            f"{pages[len(pages) // 2]}, largest {pages[-1]}); the whole site "
            f"{total / 10**9:.3f} GB")


def bench_sizes(work: Path, people: tuple[int, ...] = SIZE_PEOPLE) -> None:
    """Print the bytes of a person page and of the whole site, at each campaign size."""
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as player:
        campaigns = player.submit(grow_synthetic, work / "size-growing", people, work).result()
    for campaign in campaigns:
        with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as builder:
            print(builder.submit(site_size, campaign, work / f"{campaign.name}-site").result(),
                  flush=True)


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


def build_pelican(content: Path, output: Path) -> None:
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


def bench_pelican(articles: int, work: Path, runs: int = 1) -> Timing:
    logging.getLogger("pelican").setLevel(logging.ERROR)
    content = work / f"pelican-{articles}-content"
    output = work / f"pelican-{articles}-site"
    write_articles(content, articles)
    firsts = [timed(build_pelican, content, output)]
    pages = count_pages(output)
    seconds = [timed(build_pelican, content, output) for _ in range(runs)]
    firsts += [timed(build_pelican, content, work / f"pelican-{articles}-site-{run}")
               for run in range(2, runs + 1)]
    return Timing(f"pelican ({articles} articles)", pages, median(firsts), median(seconds),
                  articles=articles, firsts=tuple(firsts), seconds=tuple(seconds))


# -- genealogy -----------------------------------------------------------------------


def _dynasty(size: int) -> tuple[list[Any], list[Any]]:
    """A dynasty of about ``size`` people, each son founding a family in turn (deep)."""
    from chronicle.publish.genealogy import TreeMarriage, TreePerson

    rng = random.Random(size)
    people = [TreePerson("E0", "Founder", "M", 1200, 1250, "main", refs={"main": "E0"},
                         was_ruler=True)]
    born = {"E0": 1200}
    marriages: list[TreeMarriage] = []
    fathers = ["E0"]
    while len(people) < size:
        father = fathers.pop(0)
        wife = TreePerson(f"W{len(people)}", "Wife", "F", born[father] + 2, None, None)
        people.append(wife)
        marriages.append(TreeMarriage(father, wife.id, born[father] + 20))
        for _ in range(rng.randint(1, 4)):
            pid = f"E{len(people)}"
            sex = "M" if rng.random() < 0.6 else "F"
            born[pid] = born[father] + 25
            people.append(TreePerson(pid, f"Child {pid}", sex, born[pid], born[pid] + 55,
                                     "main", father, wife.id, refs={"main": pid}))
            if sex == "M":
                fathers.append(pid)
        if not fathers:
            fathers.append(people[-1].id)
    return people, marriages


def bench_genealogy(sizes: tuple[tuple[int, int], ...] = ((500, 10**9), (500, 60),
                                                           (10_000, 60))) -> str:
    """Layout times of one dynasty: (people, largest diagram) pairs; 10**9 is one diagram.

    Graphviz's layout grows faster than the diagram, so large dynasties are
    split (60 members a diagram on the site); the layouts of the parts then
    run on every core.
    """
    from chronicle.publish.genealogy import HouseStyle, render_genealogies

    houses = {"main": HouseStyle("main", "Main", "#9b1b30")}
    lines = []
    for size, limit in sizes:
        people, marriages = _dynasty(size)
        members = sum(1 for p in people if p.dynasty == "main")
        label = "one diagram" if limit >= 10**9 else f"split at {limit}"
        started = time.perf_counter()
        result = render_genealogies(people, marriages, houses, lambda pid: f"{pid}.html",
                                    max_members=limit)
        elapsed = time.perf_counter() - started
        lines.append(f"genealogy {len(people)} people ({members} of the dynasty), {label}: "
                     f"{elapsed:.2f} s, {len(result.parts)} diagram(s)")
    return "\n".join(lines)


# -- main ---------------------------------------------------------------------------


def report(results: list[Timing]) -> str:
    """The table of builds, then each chronicle build's rate against Pelican's.

    A build is set against Pelican given as many articles as it wrote pages
    (or the nearest such run, with ``--pelican-articles``).
    """
    lines = [HEADER, *(timing.row() for timing in results)]
    pelicans = [t for t in results if t.articles]
    for timing in results:
        if timing.articles or not pelicans:
            continue
        theirs = min(pelicans, key=lambda t: (abs(t.articles - timing.pages), t.articles))
        if theirs.rate:
            lines.append(f"{timing.label}: {timing.rate:.0f} pages/s against Pelican's "
                         f"{theirs.rate:.0f}: {timing.rate / theirs.rate:.2f}×"
                         f"{_spread(timing.firsts, theirs.firsts)}")
            if timing.warm_rate is not None:
                lines.append(f"{timing.label}, Graphviz cache warm: {timing.warm_rate:.0f} "
                             f"pages/s: {timing.warm_rate / theirs.rate:.2f}×"
                             f"{_spread(timing.warms, theirs.firsts)}")
    for timing in results:
        if timing.label.startswith("chronicle") and timing.first:
            again = (f" (rebuilds of {', '.join(f'{t:.3f}' for t in timing.seconds)} s)"
                     if len(timing.seconds) > 1 else "")
            lines.append(f"{timing.label}: unchanged rebuild {timing.second:.3f} s, "
                         f"{100 * timing.second / timing.first:.1f} % of the full build{again}")
    return "\n".join(lines)


def _spread(ours: tuple[float, ...], theirs: tuple[float, ...]) -> str:
    """Every run's seconds, when there were several (the ratio is of the medians)."""
    if len(ours) < 2 and len(theirs) < 2:
        return ""
    def seconds(times: tuple[float, ...]) -> str:
        return ", ".join(f"{t:.2f}" for t in times)
    return f" (builds of {seconds(ours)} s; Pelican {seconds(theirs)} s)"


MEMORY = Path("/dev/shm")
MEMORY_NEEDED = 4 * 2**30  # every site of a run is kept until the end: about 2.5 GB


def _scratch(on_disk: bool) -> str | None:
    """The folder to work in: memory where the machine offers enough of it.

    Both generators write there, so the comparison stays fair either way; on
    disk, how fast files can be made depends on what the file system did
    just before (ext4 is slow for minutes after many deletions, such as an
    earlier run's), which swamps the differences between builds.
    """
    if not on_disk and MEMORY.is_dir() and os.access(MEMORY, os.W_OK) \
            and shutil.disk_usage(MEMORY).free > MEMORY_NEEDED:
        return str(MEMORY)
    return None  # the system's temporary folder


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=PARTS, action="append",
                        help="run only this part (repeatable)")
    parser.add_argument("--pelican-articles", type=int, default=None,
                        help="articles for Pelican (default: as many as each build's pages)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="make everything in this (new) folder and keep it")
    parser.add_argument("--on-disk", action="store_true",
                        help="work in the system's temporary folder, not in memory")
    parser.add_argument("--runs", type=int, default=3,
                        help="builds of each kind (full, warm, nothing changed); the "
                             "median is reported (default: 3)")
    parser.add_argument("--people", type=int, nargs="+", default=list(SIZE_PEOPLE),
                        help="campaign sizes the site size is measured at (--only size)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    parts = args.only or list(EVERYTHING)
    if "pelican" in parts:
        _pelican()
    work = args.keep or Path(tempfile.mkdtemp(prefix="chronicle-bench-",
                                              dir=_scratch(args.on_disk)))
    work.mkdir(parents=True, exist_ok=True)
    print(f"working in {work}", flush=True)
    results: list[Timing] = []
    try:
        if "demo" in parts:
            results.append(bench_chronicle("demo", make_demo, work, args.runs))
        if "synthetic" in parts:
            results.append(bench_chronicle("synthetic", make_synthetic, work, args.runs))
        if "pelican" in parts:
            counts = [args.pelican_articles] if args.pelican_articles else \
                sorted({t.pages for t in results}) or [1000]
            results += [bench_pelican(count, work, args.runs) for count in counts]
        if results:
            print()
            print(report(results))
        if "genealogy" in parts:
            print(bench_genealogy())
        if "size" in parts:
            bench_sizes(work, tuple(args.people))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

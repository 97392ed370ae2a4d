"""Benchmark the site build and the arbiter's commands, as whole processes, in pairs.

Run from the project folder::

    pip install -e '.[bench]'
    python bench/build.py                      # demo and synthetic, 5 pairs each
    python bench/build.py --only synthetic --pairs 7
    python bench/build.py --only genealogy     # layout times of large dynasties
    python bench/build.py --only adjudicate --people 60000   # one turn, large

Every timed run is a whole command (``chronicle build``, ``pelican``,
``hugo``), imports included, started anew; its wall time and its CPU time
(user and system, from the kernel's accounting of the finished child) are
recorded. Runs to be compared alternate, A B A B …, so that whatever else the
machine is doing weighs on both alike, and each pair gives a ratio. The
report gives medians with the min–max of every figure and of the ratios.

Scenarios, for the demo campaign (Blood Royale, 20 of its 21 turns) and for a
synthetic one (ten dynasties played until they count ``--people`` people,
11,000 by default):

- first build: into a new folder, with no diagram cache, against Pelican
  building as many Markdown articles as Chronicle wrote pages, with no cache
  (and Hugo on the same articles, when ``hugo`` is installed);
- warm build: into a new folder with the diagram cache kept, against Pelican
  with its content cache on and warm;
- nothing changed: a build into the folder of a first build;
- one new turn: the campaign played one turn further through the command
  line (``chronicle template --auto`` then ``chronicle adjudicate``, the
  latter timed), then built into the folder of the last turn's site: its
  wall and CPU time against those of a first build of the same store, the
  two alternating (the share is the median of the pairs' ratios), the files
  it wrote against the site's, and the diagrams laid out again against all
  of them; and, for the first of the pairs, what the rebuild wrote and
  which parts of the pages made it (``bench/churn.py``);
- start-up: ``chronicle --version``;
- adjudicate (``--only adjudicate``): one more turn played on a copy of the
  synthetic campaign, ``adjudicate`` timed, with no site built, for
  campaigns too large to build in every pair.

Every program runs with its compiled bytecode, as an installation has it
(``compiled_once``).

Work happens in memory (``/dev/shm``) where there is room, ``--on-disk`` in
the temporary folder. ``--keep DIR`` keeps every campaign and site there.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import churn  # beside this script

SYNTHETIC_HOUSES = 10
# Population grows very differently from one seed to another (after 99 turns the
# same players had 5,752 people on one seed and 33,451 on another): this one
# passes 11,000 before its 99th turn, and the campaign is played until it does.
SYNTHETIC_SEED = "s1"
PEOPLE = 11_000
CHRONICLE = [sys.executable, "-m", "chronicle.commands.cli"]
MEMORY = Path("/dev/shm")
MEMORY_NEEDED = 6 * 2**30


# -- measuring -------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    output: str = ""


def measure(command: list[str], *, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> Run:
    """Run ``command`` to its end: its wall and CPU seconds (children included)."""
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT)
    assert child.stdout is not None
    output = child.stdout.read().decode("utf-8", "replace")
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({child.returncode}):\n{output}")
    return Run(wall, usage.ru_utime + usage.ru_stime, output)


@dataclass
class Series:
    """The runs of one kind, in the order they ran."""

    label: str
    runs: list[Run] = field(default_factory=list)

    def figure(self, pick: Callable[[Run], float]) -> str:
        values = [pick(r) for r in self.runs]
        return (f"{statistics.median(values):.3f} "
                f"({min(values):.3f}–{max(values):.3f})")

    def median(self, pick: Callable[[Run], float]) -> float:
        return statistics.median(pick(r) for r in self.runs)


def wall(run: Run) -> float:
    return run.wall


def cpu(run: Run) -> float:
    return run.cpu


def ratio_figure(ours: Series, theirs: Series, pick: Callable[[Run], float],
                 *, ours_units: float = 1.0, theirs_units: float = 1.0) -> str:
    """The per-pair ratio of throughput (units per second) of ``ours`` to ``theirs``."""
    ratios = [(ours_units / pick(a)) / (theirs_units / pick(b))
              for a, b in zip(ours.runs, theirs.runs, strict=True)]
    return f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


def interleaved(pairs: int, first: Callable[[int], Run], second: Callable[[int], Run],
                labels: tuple[str, str]) -> tuple[Series, Series]:
    """``pairs`` runs of each, alternating which goes first (A B, B A, A B …)."""
    a, b = Series(labels[0]), Series(labels[1])
    for index in range(pairs):
        if index % 2 == 0:
            a.runs.append(first(index))
            b.runs.append(second(index))
        else:
            b.runs.append(second(index))
            a.runs.append(first(index))
    return a, b


# -- making campaigns (not timed) ---------------------------------------------------


def make_demo(folder: Path) -> Path:
    """The demo's campaign (Blood Royale, the demo's seed) played 20 of its 21 turns
    and not ended (``chronicle demo`` ends it): the "one new turn" scenario plays
    the last one."""
    from chronicle.campaign.scaffold import scaffold
    from chronicle.play.demo import play_turns

    scaffold(folder, "blood-royale", title="Demo benchmark", seed="bench")
    play_turns(folder, 20, "bench")
    return folder


def make_synthetic(folder: Path, people: int = PEOPLE) -> Path:
    """Ten dynasties played by the built-in players until they count ``people`` people."""
    import tomli_w

    from chronicle.campaign.scaffold import campaign_spec, scaffold
    from chronicle.play.demo import play_turns

    scaffold(folder, "dynasty", title="Synthetic benchmark", seed=SYNTHETIC_SEED)
    spec = campaign_spec("dynasty", world=None, title="Synthetic benchmark",
                         seed=SYNTHETIC_SEED)
    spec["house"], spec["person"], spec["unit"] = [], [], []
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for index in range(SYNTHETIC_HOUSES):
        hid, letter = f"house-{index + 1:02d}", letters[index]
        spec["house"].append({"id": hid, "letter": letter, "name": f"House {letter}",
                              "law": "male-preference", "player": ""})
        spec["person"] += [
            {"id": f"{hid}-king", "name": f"King {letter}", "sex": "M", "born": 1275,
             "dynasty": hid, "founder": True, "spouse": f"{hid}-queen"},
            {"id": f"{hid}-queen", "name": f"Queen {letter}", "sex": "F", "born": 1280},
        ]
        spec["unit"] += [{"id": f"{letter}-{n}", "house": hid, "type": "army"} for n in (1, 2)]
    spec["end_year"] = 3000
    (folder / "campaign.toml").write_text(tomli_w.dumps(spec), encoding="utf-8")
    while count_people(folder) < people:
        play_turns(folder, 1, SYNTHETIC_SEED)
    return folder


def brought_up_to_date(campaign: Path) -> None:
    """A store made by an earlier version is brought up to date, and stamped
    with its version, by the first turn stored, once in a campaign's life:
    here, untimed, so that no timed run (each on a copy) does it again."""
    import sqlite3

    from chronicle.store.file import SCHEMA_VERSION
    from chronicle.store.turns import Store

    Store.open(campaign / "chronicle.sqlite").close()  # adds whatever it lacks
    with sqlite3.connect(campaign / "chronicle.sqlite") as db:
        if db.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def count_people(campaign: Path) -> int:
    import sqlite3

    store = campaign / "chronicle.sqlite"
    if not store.exists():
        return 0
    with sqlite3.connect(store) as db:
        return int(db.execute("select count(*) from persons").fetchone()[0])


def houses_of(campaign: Path) -> list[str]:
    import tomllib

    spec = tomllib.loads((campaign / "campaign.toml").read_text(encoding="utf-8"))
    return [h["id"] for h in spec["house"]]


def count_files(site: Path, suffix: str = "") -> int:
    return sum(1 for p in site.rglob(f"*{suffix}") if p.is_file())


# -- the commands --------------------------------------------------------------------


def chronicle_build(campaign: Path, site: Path) -> Run:
    return measure([*CHRONICLE, "build", str(campaign), "-o", str(site)])


def written_by(run: Run) -> int:
    found = re.search(r"(\d+) changed", run.output)
    return int(found.group(1)) if found else -1


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
            f"{body}\n", encoding="utf-8")


def pelican_settings(work: Path, cached: bool) -> Path:
    """A settings file: relative URLs, no feeds; with ``cached``, the content cache on."""
    settings = work / ("pelicanconf-cached.py" if cached else "pelicanconf.py")
    lines = ['SITEURL = ""', "RELATIVE_URLS = True", 'TIMEZONE = "UTC"', 'DEFAULT_LANG = "en"',
             "FEED_ALL_ATOM = None", "CATEGORY_FEED_ATOM = None",
             "TRANSLATION_FEED_ATOM = None", "AUTHOR_FEED_ATOM = None",
             "AUTHOR_FEED_RSS = None", "DEFAULT_PAGINATION = 20"]
    if cached:
        lines += ["CACHE_CONTENT = True", "LOAD_CONTENT_CACHE = True",
                  f"CACHE_PATH = {str(work / 'pelican-cache')!r}"]
    else:
        lines += ["CACHE_CONTENT = False", "LOAD_CONTENT_CACHE = False"]
    settings.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return settings


def pelican_build(content: Path, out: Path, settings: Path) -> Run:
    return measure([sys.executable, "-m", "pelican", str(content), "-o", str(out), "-s",
                    str(settings), "-q"])


def hugo_site(work: Path, content: Path) -> Path | None:
    """A Hugo site over the same articles, if ``hugo`` is installed."""
    if shutil.which("hugo") is None:
        return None
    site = work / "hugo"
    (site / "content" / "posts").mkdir(parents=True, exist_ok=True)
    for article in sorted(content.glob("*.md")):
        head, _sep, body = article.read_text(encoding="utf-8").partition("\n\n")
        meta = dict(line.split(": ", 1) for line in head.splitlines())
        (site / "content" / "posts" / article.name).write_text(
            f'---\ntitle: "{meta["Title"]}"\ndate: 1300-01-01\nslug: "{meta["Slug"]}"\n'
            f'categories: ["{meta["Category"]}"]\ntags: ["{meta["Tags"]}"]\n---\n\n{body}',
            encoding="utf-8")
    layouts = site / "layouts" / "_default"
    layouts.mkdir(parents=True, exist_ok=True)
    (layouts / "single.html").write_text(
        "<!DOCTYPE html><html><head><title>{{ .Title }}</title></head><body>"
        "<h1>{{ .Title }}</h1>{{ .Content }}</body></html>\n", encoding="utf-8")
    (layouts / "list.html").write_text(
        "<!DOCTYPE html><html><body><ul>{{ range .Paginator.Pages }}<li>"
        "<a href=\"{{ .RelPermalink }}\">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n",
        encoding="utf-8")
    (site / "hugo.toml").write_text('baseURL = "/"\ntitle = "Bench"\nrelativeURLs = true\n'
                                    "disableKinds = ['RSS', 'sitemap']\n", encoding="utf-8")
    return site


def hugo_build(site: Path, out: Path) -> Run:
    return measure(["hugo", "--quiet", "-s", str(site), "-d", str(out)])


# -- one campaign's benchmark ------------------------------------------------------


def bench_campaign(label: str, campaign: Path, work: Path, pairs: int) -> list[str]:
    lines = [f"## {label}: {count_people(campaign)} people"]
    shutil.rmtree(campaign / ".cache", ignore_errors=True)
    probe = work / f"{label}-probe"
    chronicle_build(campaign, probe)
    pages = count_files(probe, ".html")
    content = work / f"{label}-articles"
    write_articles(content, pages)
    plain, cached = pelican_settings(work, False), pelican_settings(work, True)

    # First builds: no diagram cache, no Pelican cache, new folders.
    def ours_first(i: int) -> Run:
        shutil.rmtree(campaign / ".cache", ignore_errors=True)
        return chronicle_build(campaign, work / f"{label}-first-{i}")

    def pelican_first(i: int) -> Run:
        return pelican_build(content, work / f"{label}-pelican-{i}", plain)

    ours, theirs = interleaved(pairs, ours_first, pelican_first, ("chronicle", "pelican"))
    pelican_pages = count_files(work / f"{label}-pelican-0", ".html")
    lines += _compare("first build", ours, theirs, pages, pelican_pages)

    # Warm: the diagram cache kept; Pelican's content cache on and filled once.
    chronicle_build(campaign, work / f"{label}-warm-fill")
    pelican_build(content, work / f"{label}-pelican-warm-fill", cached)

    runs = iter(range(10**6))

    def ours_warm(_i: int) -> Run:
        # A new folder every time: a folder built before would be up to date.
        return chronicle_build(campaign, work / f"{label}-warm-{next(runs)}")

    def pelican_warm(i: int) -> Run:
        return pelican_build(content, work / f"{label}-pelican-warm-{i}", cached)

    warm, theirs_warm = interleaved(pairs, ours_warm, pelican_warm,
                                    ("chronicle, diagram cache warm",
                                     "pelican, content cache on"))
    lines += _compare("warm build", warm, theirs_warm, pages, pelican_pages)

    hugo = hugo_site(work, content)
    if hugo is not None:
        hugo_build(hugo, work / f"{label}-hugo-fill")

        def hugo_first(i: int) -> Run:
            return hugo_build(hugo, work / f"{label}-hugo-{i}")

        ours_again, hugos = interleaved(pairs, ours_warm, hugo_first,
                                        ("chronicle, diagram cache warm", "hugo"))
        hugo_pages = count_files(work / f"{label}-hugo-0", ".html")
        lines += _compare("against Hugo", ours_again, hugos, pages, hugo_pages)

    # Nothing changed, and start-up, alternating.
    def ours_again_same(_i: int) -> Run:
        return chronicle_build(campaign, work / f"{label}-first-0")

    def version(_i: int) -> Run:
        return measure([*CHRONICLE, "--version"])

    same, start = interleaved(pairs, ours_again_same, version,
                              ("build, nothing changed", "chronicle --version"))
    first_wall = ours.median(wall)
    lines.append(f"build with nothing changed: wall {same.figure(wall)} s, cpu "
                 f"{same.figure(cpu)} s ({100 * same.median(wall) / first_wall:.1f} % of a "
                 "first build)")
    lines.append(f"chronicle --version: wall {start.figure(wall)} s, cpu {start.figure(cpu)} s")
    lines += bench_new_turn(label, campaign, work, pairs)
    return lines


def _compare(what: str, ours: Series, theirs: Series, our_pages: int,
             their_pages: int) -> list[str]:
    return [
        f"{what}: {ours.label} {our_pages} pages, wall {ours.figure(wall)} s, cpu "
        f"{ours.figure(cpu)} s; {theirs.label} {their_pages} pages, wall "
        f"{theirs.figure(wall)} s, cpu {theirs.figure(cpu)} s",
        f"{what}: pages per second {ratio_figure(ours, theirs, wall, ours_units=our_pages, theirs_units=their_pages)}"
        f" {theirs.label}'s; per CPU-second "
        f"{ratio_figure(ours, theirs, cpu, ours_units=our_pages, theirs_units=their_pages)}",
    ]


def bench_new_turn(label: str, campaign: Path, work: Path, pairs: int) -> list[str]:
    """One more turn through the command line, then the rebuild, ``pairs`` times
    (each from copies of the campaign and of its site, made untimed).

    Each rebuild is paired with a first build of the very same store (a copy
    without the diagram cache, into a new folder), the two alternating: the
    share of a first build's time is the median of the pairs' ratios, so a
    machine whose speed drifts between the scenarios weighs on both alike.
    """
    base_site = work / f"{label}-first-0"
    adjudications, rebuilds = Series("adjudicate"), Series("rebuild")
    firsts = Series("first build of the same store")
    written, laid_out, diagrams, files = [], [], [], []
    why: list[str] = []
    for i in range(pairs):
        copy, site = work / f"{label}-turn-{i}", work / f"{label}-turn-site-{i}"
        shutil.copytree(campaign, copy)
        shutil.copytree(base_site, site)
        adjudications.runs.append(play_one_turn(copy))
        fresh = work / f"{label}-turn-fresh-{i}"
        shutil.copytree(copy, fresh, ignore=shutil.ignore_patterns(".cache"))
        cache = copy / ".cache" / "graphviz"
        before = set(os.listdir(cache)) if cache.is_dir() else set()

        first = work / f"{label}-turn-first-{i}"
        # Alternating which goes first, pair after pair (A B, B A, ...).
        if i % 2 == 0:
            run = chronicle_build(copy, site)
            firsts.runs.append(chronicle_build(fresh, first))
        else:
            firsts.runs.append(chronicle_build(fresh, first))
            run = chronicle_build(copy, site)
        rebuilds.runs.append(run)
        after = set(os.listdir(cache)) if cache.is_dir() else set()
        written.append(written_by(run))
        files.append(count_files(site) - 1)  # the manifest is not a page
        laid_out.append(len(after - before))
        # A page per part of the family trees (genealogy/<part>.html).
        diagrams.append(sum(1 for _ in site.glob("*/genealogy/*.html")))
        if i == 0:
            why = churn.report(base_site, site)
    reused = [100 * (1 - made / total) for made, total in zip(laid_out, diagrams, strict=True)]
    shares = [100 * w / f for w, f in zip(written, files, strict=True)]
    return [
        f"adjudicate one turn: wall {adjudications.figure(wall)} s, cpu "
        f"{adjudications.figure(cpu)} s",
        f"rebuild after one new turn: wall {rebuilds.figure(wall)} s, cpu "
        f"{rebuilds.figure(cpu)} s; a first build of the same store, paired: wall "
        f"{firsts.figure(wall)} s, cpu {firsts.figure(cpu)} s",
        f"rebuild after one new turn: {share_figure(rebuilds, firsts, wall)} of a first "
        f"build's wall time, {share_figure(rebuilds, firsts, cpu)} of its CPU time",
        f"rebuild after one new turn: files written {statistics.median(written)} of "
        f"{statistics.median(files)} ({statistics.median(shares):.1f} %, "
        f"{min(shares):.1f}–{max(shares):.1f}); diagram layouts reused "
        f"{statistics.median(reused):.1f} % ({min(reused):.1f}–{max(reused):.1f}) of "
        f"{statistics.median(diagrams)}",
        *(f"rebuild after one new turn, the first: {line}" for line in why),
    ]


def play_one_turn(campaign: Path) -> Run:
    """The built-in players' orders for the next turn (untimed), then ``chronicle
    adjudicate`` (timed)."""
    autos = [arg for house in houses_of(campaign) for arg in ("--auto", house)]
    subprocess.run([*CHRONICLE, "template", str(campaign), *autos], check=True,
                   stdout=subprocess.DEVNULL)
    return measure([*CHRONICLE, "adjudicate", str(campaign)])


def bench_adjudicate(label: str, campaign: Path, work: Path, pairs: int) -> list[str]:
    """``chronicle adjudicate`` alone, ``pairs`` times, each on a fresh copy of the
    campaign: for a campaign too large to build its site in every pair (the
    issue's 60,814 people: ``--only adjudicate --people 60000``)."""
    runs = Series("adjudicate")
    for i in range(pairs):
        copy = work / f"{label}-adjudicate-{i}"
        shutil.copytree(campaign, copy)
        runs.runs.append(play_one_turn(copy))
        shutil.rmtree(copy)
    return [f"{label}: {count_people(campaign):,} people; adjudicate one turn: wall "
            f"{runs.figure(wall)} s, cpu {runs.figure(cpu)} s"]


def share_figure(part: Series, whole: Series, pick: Callable[[Run], float]) -> str:
    """The per-pair share of ``whole``'s time that ``part`` took, in per cent."""
    shares = [100 * pick(a) / pick(b) for a, b in zip(part.runs, whole.runs, strict=True)]
    return f"{statistics.median(shares):.1f} % ({min(shares):.1f}–{max(shares):.1f})"


# -- genealogy layout ------------------------------------------------------------------


def bench_genealogy() -> list[str]:
    """Layout times of one deep dynasty, in this process (the layout alone)."""
    from chronicle.site.genealogy import TreeMarriage, TreePerson, render_genealogies
    from chronicle.views.data import HouseStyle

    lines = []
    for size in (500, 10_000):
        rng = random.Random(size)
        people = [TreePerson("E0", "Founder", "M", 1200, 1250, "main", refs={"main": "E0"})]
        born, marriages, fathers = {"E0": 1200}, [], ["E0"]
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
        started = time.perf_counter()
        result = render_genealogies(people, marriages,
                                    {"main": HouseStyle("main", "Main", "#9b1b30")},
                                    lambda pid: f"{pid}.html")
        lines.append(f"genealogy of {size} people: {time.perf_counter() - started:.2f} s, "
                     f"{len(result.parts)} diagrams")
    return lines


# -- main ---------------------------------------------------------------------------


def compiled_once() -> None:
    """Let every timed program keep its compiled bytecode, and compile ours now.

    An installed program has it (installing a wheel compiles every module),
    and Pelican's, installed by pip, does. Where the environment forbids
    writing it (``PYTHONDONTWRITEBYTECODE``), an editable install of
    Chronicle would instead compile its two hundred modules in every timed
    run, which no user's installation does.
    """
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "chronicle"),
                    str(root / "adjudicator")], check=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("demo", "synthetic", "adjudicate", "genealogy"),
                        action="append")
    parser.add_argument("--pairs", type=int, default=5, help="runs of each kind (5)")
    parser.add_argument("--people", type=int, default=PEOPLE,
                        help=f"people of the synthetic campaign ({PEOPLE:,})")
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder, kept")
    parser.add_argument("--campaign", type=Path, default=None,
                        help="a played campaign to use as the synthetic one (copied)")
    parser.add_argument("--on-disk", action="store_true", help="not in /dev/shm")
    args = parser.parse_args(argv)
    parts = args.only or ["demo", "synthetic"]
    if {"demo", "synthetic"} & set(parts):
        try:
            import pelican  # noqa: F401
        except ImportError:
            sys.exit("Pelican is not installed; run: pip install -e '.[bench]'")
    scratch = None
    if not args.on_disk and MEMORY.is_dir() and shutil.disk_usage(MEMORY).free > MEMORY_NEEDED:
        scratch = str(MEMORY)
    compiled_once()
    work = args.keep or Path(tempfile.mkdtemp(prefix="chronicle-bench-", dir=scratch))
    work.mkdir(parents=True, exist_ok=True)
    print(f"working in {work}; {os.cpu_count()} cores", flush=True)
    report: list[str] = []
    try:
        if "demo" in parts:
            report += bench_campaign("demo", make_demo(work / "demo"), work, args.pairs)
            print("\n".join(report), flush=True)
        if {"synthetic", "adjudicate"} & set(parts):
            if args.campaign is not None:
                campaign = work / "synthetic"
                shutil.copytree(args.campaign, campaign)
                brought_up_to_date(campaign)
            else:
                campaign = make_synthetic(work / "synthetic", args.people)
            lines = (bench_campaign("synthetic", campaign, work, args.pairs)
                     if "synthetic" in parts else [])
            if "adjudicate" in parts:
                lines += bench_adjudicate("synthetic", campaign, work, args.pairs)
            report += lines
            print("\n".join(lines), flush=True)
        if "genealogy" in parts:
            lines = bench_genealogy()
            report += lines
            print("\n".join(lines), flush=True)
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print("\n# summary\n" + "\n".join(report))


if __name__ == "__main__":
    main()

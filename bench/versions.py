"""Two installations of Chronicle against each other, in pairs, on the same campaign.

    python bench/versions.py --campaign DIR \
        --a "/path/to/new/python -m chronicle.commands.cli" \
        --b "/path/to/old/python -m chronicle.cli" [--pairs 5] [--env-a K=V ...]

Each installation is its own command line (a Python with Chronicle installed
and the module that runs its command line), so a change can be timed against
the code before it: a checkout of the older commit installed in a virtual
environment of its own. Scenarios, each on copies of ``--campaign``:

- first build: ``build`` into a new folder, with no diagram cache;
- warm build: ``build`` into a new folder, the campaign's diagram cache kept
  from a first build (as after a theme's change, or a site folder lost);
- rebuild after one new turn: the campaign played one turn further by the
  ``--a`` installation (the same store for both), then ``build`` into the
  folder of a first build of the turn before, made by the same installation.

Runs alternate A B, B A, … (``build.interleaved``); the report gives each
side's wall and CPU medians (min–max) and the per-pair ratio B/A of each.
``--env-a``/``--env-b`` set environment variables of one side only: the same
installation with a speed device switched off (``CHRONICLE_WITHOUT``) is
timed against itself this way.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from build import (  # beside this script
    MEMORY,
    MEMORY_NEEDED,
    Run,
    Series,
    compiled_once,
    cpu,
    houses_of,
    interleaved,
    measure,
    wall,
)


def command(text: str) -> list[str]:
    return shlex.split(text)


def environment(pairs: list[str]) -> dict[str, str]:
    env = dict(os.environ)
    for pair in pairs:
        key, _, value = pair.partition("=")
        env[key] = value
    return env


def fresh_copy(campaign: Path, into: Path) -> Path:
    """The campaign copied whole, without any diagram cache it holds."""
    if into.exists():
        shutil.rmtree(into)
    shutil.copytree(campaign, into, symlinks=True,
                    ignore=shutil.ignore_patterns(".cache", "site"))
    return into


def play_one_turn(chronicle: list[str], env: dict[str, str], campaign: Path) -> None:
    measure([*chronicle, "template", str(campaign),
             *(arg for house in houses_of(campaign) for arg in ("--auto", house))], env=env)
    measure([*chronicle, "adjudicate", str(campaign), "--yes"], env=env)


def per_pair(a: Series, b: Series, pick: Callable[[Run], float]) -> str:
    ratios = [pick(y) / pick(x) for x, y in zip(a.runs, b.runs, strict=True)]
    return f"{statistics.median(ratios):.3f} ({min(ratios):.3f}–{max(ratios):.3f})"


def report(what: str, a: Series, b: Series) -> list[str]:
    return [f"## {what}",
            f"- A ({a.label}): wall {a.figure(wall)} s, CPU {a.figure(cpu)} s",
            f"- B ({b.label}): wall {b.figure(wall)} s, CPU {b.figure(cpu)} s",
            f"- B/A per pair: wall {per_pair(a, b, wall)}, CPU {per_pair(a, b, cpu)}", ""]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--campaign", type=Path, required=True)
    parser.add_argument("--a", required=True, help="installation A's command line")
    parser.add_argument("--b", required=True, help="installation B's command line")
    parser.add_argument("--env-a", action="append", default=[], metavar="K=V")
    parser.add_argument("--env-b", action="append", default=[], metavar="K=V")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--only", choices=("first", "warm", "rebuild"), default=None)
    args = parser.parse_args(argv)
    args.campaign = args.campaign.resolve()
    compiled_once()
    chron = {"A": command(args.a), "B": command(args.b)}
    env = {"A": environment(args.env_a), "B": environment(args.env_b)}
    labels = (f"{args.a} {' '.join(args.env_a)}".strip(),
              f"{args.b} {' '.join(args.env_b)}".strip())
    room = MEMORY.is_dir() and shutil.disk_usage(MEMORY).free > MEMORY_NEEDED
    with tempfile.TemporaryDirectory(dir=MEMORY if room else None) as tmp:
        work = Path(tmp)
        # ``python -m`` looks in the current folder first: run each installation
        # from a folder holding neither, so that it runs its own code.
        os.chdir(work)
        for line in chron.values():
            # Each installation keeps its compiled bytecode, as an installed one has it.
            measure([line[0], "-c", "import compileall, os, chronicle, adjudicator\n"
                     "for m in (chronicle, adjudicator):\n"
                     "    compileall.compile_dir(os.path.dirname(m.__file__), quiet=1)"])
        lines: list[str] = []

        def first(side: str) -> Callable[[int], Run]:
            def run(index: int) -> Run:
                camp = fresh_copy(args.campaign, work / f"{side}-camp" / args.campaign.name)
                site = work / f"{side}-site-{index}"
                done = measure([*chron[side], "build", str(camp), "-o", str(site)],
                               env=env[side])
                shutil.rmtree(site)
                return done
            return run

        if args.only in (None, "first"):
            a, b = interleaved(args.pairs, first("A"), first("B"), labels)
            lines += report("first build", a, b)

        if args.only in (None, "warm"):
            cached: dict[str, Path] = {}
            for side in ("A", "B"):
                # Each side's own cache (its entries are its renderer's).
                camp = fresh_copy(args.campaign, work / f"{side}-cached" / args.campaign.name)
                measure([*chron[side], "build", str(camp), "-o", str(work / f"{side}-warmup")],
                        env=env[side])
                cached[side] = camp

            def warm(side: str) -> Callable[[int], Run]:
                def run(index: int) -> Run:
                    site = work / f"{side}-warm-{index}"
                    done = measure([*chron[side], "build", str(cached[side]), "-o", str(site)],
                                   env=env[side])
                    shutil.rmtree(site)
                    return done
                return run

            a, b = interleaved(args.pairs, warm("A"), warm("B"), labels)
            lines += report("warm build", a, b)

        if args.only in (None, "rebuild"):
            before = fresh_copy(args.campaign, work / "turn-before" / args.campaign.name)
            after = fresh_copy(before, work / "turn-after" / args.campaign.name)
            play_one_turn(chron["A"], env["A"], after)

            def rebuild(side: str) -> Callable[[int], Run]:
                def run(index: int) -> Run:
                    old = fresh_copy(before, work / f"{side}-old" / args.campaign.name)
                    site = work / f"{side}-rebuilt"
                    if site.exists():
                        shutil.rmtree(site)
                    measure([*chron[side], "build", str(old), "-o", str(site)], env=env[side])
                    new = fresh_copy(after, work / f"{side}-new" / args.campaign.name)
                    # The last build's diagram cache goes with the campaign, as in use.
                    cache = old / ".cache"
                    if cache.exists():
                        shutil.copytree(cache, new / ".cache")
                    return measure([*chron[side], "build", str(new), "-o", str(site)],
                                   env=env[side])
                return run

            a, b = interleaved(args.pairs, rebuild("A"), rebuild("B"), labels)
            lines += report("rebuild after one new turn", a, b)
    print("\n".join(lines))


if __name__ == "__main__":
    main()

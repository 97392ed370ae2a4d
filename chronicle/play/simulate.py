"""``chronicle simulate``: Monte Carlo runs for balancing a campaign.

Runs are independent, so they are spread over worker processes. Each run
plays the ruleset's default campaign in memory with built-in players (no
store, no files) from its own seed, ``<seed>:<run>``.

Every report gives each house's extinction rate and its living members over
time; the ruleset's descriptor says what else its runs measure
(``Descriptor.statistics``: a dynastic war game's deaths, epidemics, battles,
cash-ins and dealings).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adjudicator.dice import SeededDice
from adjudicator.orders import parse_orders
from chronicle.campaign.folder import load_rules
from chronicle.campaign.scaffold import campaign_spec
from chronicle.play.players import orders_for, personality_of
from chronicle.rulesets import RunStatistics, descriptor


def measured(ruleset_id: str) -> RunStatistics:
    """What a run of ``ruleset_id`` measures; ``ValueError`` if it cannot be simulated."""
    found = descriptor(ruleset_id).statistics()
    if found is None:
        raise ValueError(f"the {ruleset_id} ruleset cannot be simulated")
    return found


def play_run(ruleset_id: str, turns: int, seed: str,
             world: str | None = None) -> dict[str, Any]:
    """One campaign in memory; returns its statistics."""
    spec = campaign_spec(ruleset_id, world=world, title=None, seed=seed)
    rules = load_rules(ruleset_id, spec)
    ruleset = descriptor(ruleset_id).engine(rules)
    figures = measured(ruleset_id)
    state = ruleset.setup(spec, SeededDice(seed, 0, "setup"))
    houses = sorted(state.houses)
    living: list[dict[str, int]] = []
    for _ in range(turns):
        if state.finished:
            break
        sheets = {}
        for index, house in enumerate(houses):
            if house in ruleset.ordering_houses(state):
                text = orders_for(ruleset_id, state, house, rules,
                                  personality_of(ruleset_id, index), f"{seed}:{state.turn}")
                sheets[house] = parse_orders(text, ruleset.grammar_for(house),
                                             filename=f"{house}.orders", expected_house=house)
        result = ruleset.resolve(state, sheets, SeededDice(seed, state.turn + 1))
        state = result.state
        figures.observe(state, result.events, rules)
        living.append({h: sum(1 for p in state.living() if p.dynasty == h) for h in houses})
    return {
        "houses": houses,
        "extinct": [h.id for h in state.houses.values() if h.eliminated],
        "living": living,
        "turns": state.turn,
        **figures.run(state),
    }


def _play(args: tuple[str, int, str, str | None]) -> dict[str, Any]:
    return play_run(*args)


def summarise(ruleset_id: str, runs: list[dict[str, Any]],
              world: str | None = None) -> dict[str, Any]:
    houses = sorted(runs[0]["houses"])
    n = len(runs)
    turns = max(len(r["living"]) for r in runs)
    living_over_time = []
    for t in range(turns):
        rows = [r["living"][t] for r in runs if len(r["living"]) > t]
        living_over_time.append({h: round(statistics.fmean(row[h] for row in rows), 2)
                                 for h in houses})
    return {
        "ruleset": ruleset_id,
        "world": world,
        "runs": n,
        "extinction_rate": {h: sum(h in r["extinct"] for r in runs) / n for h in houses},
        "living_over_time": living_over_time,
        **measured(ruleset_id).summarise(runs, houses),
    }


def run_simulation(*, ruleset: str, runs: int, turns: int, seed: str, jobs: int | None,
                   json_path: Path | None, world: str | None = None,
                   console: Console | None = None) -> dict[str, Any]:
    console = console or Console()
    jobs = jobs or os.cpu_count() or 1
    started = time.perf_counter()
    world = campaign_spec(ruleset, world=world, title=None, seed=seed).get("world")
    tasks = [(ruleset, turns, f"{seed}:{i}", world) for i in range(runs)]
    results: list[dict[str, Any]] = []
    with Progress(TextColumn("[bold]Simulating"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("runs", total=runs)
        if jobs == 1:
            for t in tasks:
                results.append(_play(t))
                progress.advance(task)
        else:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                # Results come back in task order, so the report does not depend on timing.
                for result in pool.map(_play, tasks, chunksize=max(1, min(8, runs // (jobs * 4)))):
                    results.append(result)
                    progress.advance(task)
    elapsed = time.perf_counter() - started
    report = summarise(ruleset, results, world)
    report["seconds"] = round(elapsed, 3)
    report["runs_per_second"] = round(runs / elapsed, 2) if elapsed else None
    table = Table(title=f"{ruleset}{f' ({world})' if world else ''}: {runs} runs of {turns} turns "
                        f"({report['runs_per_second']} runs/s on {jobs} processes)")
    table.add_column("house")
    table.add_column("extinction rate", justify="right")
    table.add_column("living at the end (mean)", justify="right")
    last = report["living_over_time"][-1] if report["living_over_time"] else {}
    for house, rate in report["extinction_rate"].items():
        table.add_row(house, f"{rate:.1%}", f"{last.get(house, 0):.1f}")
    console.print(table)
    measured(ruleset).show(report, console)
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
        click.echo(f"JSON report: {json_path}")
    return report

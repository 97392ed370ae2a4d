"""``chronicle simulate``: Monte Carlo runs for balancing a campaign.

Runs are independent, so they are spread over worker processes. Each run
plays the ruleset's default campaign in memory with built-in players (no
store, no files) from its own seed, ``<seed>:<run>``.

Besides the dynasty's figures, a report measures whether the players use
every part of a war game (RULES.md B2, B6, B7, B7a): how often each house
cashes in, the runs where a fleet is raised or a capital attacked, and the
exchanges and crown payments per run. A ruleset without such events reports
zeros.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections import Counter
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from adjudicator.dice import SeededDice
from adjudicator.events import Event
from adjudicator.orders import parse_orders
from adjudicator.state import GameState
from chronicle.campaign.folder import load_rules
from chronicle.campaign.scaffold import campaign_spec
from chronicle.play.players import orders_for, personality_of
from chronicle.rulesets import descriptor

#: Event kinds counted per run: crown payments (``pay N crowns``) and binding
#: exchanges (B7a).
DEALINGS = {"payments": "crowns-paid", "exchanges": "exchange"}


def _naval(rules: Mapping[str, Any], unit_type: str) -> bool:
    return bool(rules.get("unit_types", {}).get(unit_type, {}).get("naval"))


def _capital_attacked(state: GameState, event: Event) -> bool:
    """A battle against a capital's castle (B6), or a capital taken from its kingdom."""
    data = event.payload()
    if event.kind == "battle":
        return any(side.get("castle", 0) > 0 for side in data["sides"])
    if event.kind == "control":
        province = state.provinces[data["province"]]
        return province.capital and data["previous"] == province.kingdom
    return False


def play_run(ruleset_id: str, turns: int, seed: str,
             world: str | None = None) -> dict[str, Any]:
    """One campaign in memory; returns its statistics."""
    spec = campaign_spec(ruleset_id, world=world, title=None, seed=seed)
    rules = load_rules(ruleset_id, spec)
    ruleset = descriptor(ruleset_id).engine(rules)
    state = ruleset.setup(spec, SeededDice(seed, 0, "setup"))
    houses = sorted(state.houses)
    living: list[dict[str, int]] = []
    causes: Counter[str] = Counter()
    epidemics = battles = 0
    cash_ins: Counter[str] = Counter()
    dealings: Counter[str] = Counter()
    fleet_raised = capital_attacked = False
    for _ in range(turns):
        if state.finished:
            break
        sheets = {}
        for index, house in enumerate(houses):
            if house in ruleset.ordering_houses(state):
                text = orders_for(ruleset_id, state, house, rules,
                                  personality_of(house, index), f"{seed}:{state.turn}")
                sheets[house] = parse_orders(text, ruleset.grammar_for(house),
                                             filename=f"{house}.orders", expected_house=house)
        result = ruleset.resolve(state, sheets, SeededDice(seed, state.turn + 1))
        state = result.state
        for event in result.events:
            if event.kind == "death":
                causes[event.payload()["cause"]] += 1
            elif event.kind == "epidemic":
                epidemics += 1
            elif event.kind == "battle":
                battles += 1
            elif event.kind == "cash-in" and event.payload()["value"] > 0:
                cash_ins[event.payload()["house"]] += 1
            elif event.kind == "raise":
                fleet_raised |= _naval(rules, event.payload()["unit_type"])
            capital_attacked |= _capital_attacked(state, event)
            dealings.update(name for name, kind in DEALINGS.items() if event.kind == kind)
        living.append({h: sum(1 for p in state.living() if p.dynasty == h) for h in houses})
    return {
        "extinct": [h.id for h in state.houses.values() if h.eliminated],
        "living": living,
        "causes": dict(causes),
        "epidemics": epidemics,
        "battles": battles,
        "treasury": {h.id: h.treasury for h in state.houses.values()},
        "turns": state.turn,
        "cash_ins": {h: cash_ins[h] for h in houses},
        "fleet_raised": fleet_raised,
        "capital_attacked": capital_attacked,
        **{name: dealings[name] for name in DEALINGS},
    }


def _play(args: tuple[str, int, str, str | None]) -> dict[str, Any]:
    return play_run(*args)


def summarise(ruleset_id: str, runs: list[dict[str, Any]],
              world: str | None = None) -> dict[str, Any]:
    houses = sorted(runs[0]["treasury"])
    n = len(runs)
    turns = max(len(r["living"]) for r in runs)
    living_over_time = []
    for t in range(turns):
        rows = [r["living"][t] for r in runs if len(r["living"]) > t]
        living_over_time.append({h: round(statistics.fmean(row[h] for row in rows), 2)
                                 for h in houses})
    causes: Counter[str] = Counter()
    for r in runs:
        causes.update(r["causes"])
    treasuries = [sum(r["treasury"].values()) / len(houses) for r in runs]
    spread = [max(r["treasury"].values()) - min(r["treasury"].values()) for r in runs]
    return {
        "ruleset": ruleset_id,
        "world": world,
        "runs": n,
        "extinction_rate": {h: sum(h in r["extinct"] for r in runs) / n for h in houses},
        "living_over_time": living_over_time,
        "epidemics_per_run": statistics.fmean(r["epidemics"] for r in runs),
        "runs_with_epidemic": sum(r["epidemics"] > 0 for r in runs) / n,
        "deaths_by_cause": {k: v / n for k, v in sorted(causes.items())},
        "wealth": {"mean_treasury": statistics.fmean(treasuries),
                   "mean_spread": statistics.fmean(spread)},
        "battles_per_run": statistics.fmean(r["battles"] for r in runs),
        "cash_in_rate": {h: sum(r["cash_ins"][h] > 0 for r in runs) / n for h in houses},
        "cash_ins_per_run": {h: statistics.fmean(r["cash_ins"][h] for r in runs)
                             for h in houses},
        "runs_with_fleet": sum(r["fleet_raised"] for r in runs) / n,
        "runs_with_capital_attacked": sum(r["capital_attacked"] for r in runs) / n,
        **{f"{name}_per_run": statistics.fmean(r[name] for r in runs) for name in DEALINGS},
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
    wealth = Table(title="cash-ins (B7)")
    wealth.add_column("house")
    wealth.add_column("runs with a cash-in", justify="right")
    wealth.add_column("cash-ins per run", justify="right")
    for house, rate in report["cash_in_rate"].items():
        wealth.add_row(house, f"{rate:.0%}", f"{report['cash_ins_per_run'][house]:.2f}")
    console.print(wealth)
    console.print(f"epidemics per run: {report['epidemics_per_run']:.2f} "
                  f"(runs with one: {report['runs_with_epidemic']:.0%}); "
                  f"battles per run: {report['battles_per_run']:.2f}")
    console.print(f"runs with a fleet raised: {report['runs_with_fleet']:.0%}; "
                  f"runs with a capital attacked: {report['runs_with_capital_attacked']:.0%}; "
                  f"exchanges per run: {report['exchanges_per_run']:.2f}; "
                  f"crown payments per run: {report['payments_per_run']:.2f}")
    console.print("deaths per run by cause: " + ", ".join(
        f"{k} {v:.1f}" for k, v in report["deaths_by_cause"].items()))
    console.print(f"mean treasury {report['wealth']['mean_treasury']:.0f}, mean spread "
                  f"{report['wealth']['mean_spread']:.0f}")
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n",
                             encoding="utf-8")
        click.echo(f"JSON report: {json_path}")
    return report

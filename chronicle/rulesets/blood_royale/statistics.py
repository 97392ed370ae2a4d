"""What ``chronicle simulate`` measures of a dynastic war game (issues #5 and #14).

Besides the dynasty's figures (deaths by cause, epidemics, the treasuries'
mean and spread), whether the players use every part of a war game (RULES.md
B2, B6, B7, B7a): how often each house cashes in, the runs where a fleet is
raised or a capital attacked, and the exchanges and crown payments per run.
A ruleset without such events (``dynasty``, whose war is fought elsewhere)
reports zeros.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from adjudicator.dynastic.events import Death, Epidemic
from adjudicator.events import Event
from adjudicator.rulesets.blood_royale.battle import BattleFought
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.events import (
    ArmiesRaised,
    CashedIn,
    ControlChanged,
    CrownsPaid,
    ExchangeMade,
)
from adjudicator.state import GameState
from chronicle.rulesets.base import RunStatistics

#: Event kinds counted per run: crown payments (``pay N crowns``) and binding
#: exchanges (B7a).
DEALINGS = {"payments": CrownsPaid.kind, "exchanges": ExchangeMade.kind}


def _naval(rules: Mapping[str, Any], unit_type: str) -> bool:
    return bool(rules.get("unit_types", {}).get(unit_type, {}).get("naval"))


def _capital_attacked(state: GameState, event: Event) -> bool:
    """A battle against a capital's castle (B6), or a capital taken from its kingdom."""
    data = event.payload()
    if event.kind == BattleFought.kind:
        return any(side.get("castle", 0) > 0 for side in data["sides"])
    if event.kind == ControlChanged.kind:
        province = board(state).provinces[data["province"]]
        return bool(province.capital and data["previous"] == province.kingdom)
    return False


class WarGameStatistics(RunStatistics):
    """One run's deaths, epidemics, battles, cash-ins and dealings; every run's summary."""

    def __init__(self) -> None:
        self.causes: Counter[str] = Counter()
        self.epidemics = self.battles = 0
        self.cash_ins: Counter[str] = Counter()
        self.dealings: Counter[str] = Counter()
        self.fleet_raised = self.capital_attacked = False

    def observe(self, state: GameState, events: list[Event], rules: Mapping[str, Any]) -> None:
        for event in events:
            if event.kind == Death.kind:
                self.causes[event.payload()["cause"]] += 1
            elif event.kind == Epidemic.kind:
                self.epidemics += 1
            elif event.kind == BattleFought.kind:
                self.battles += 1
            elif event.kind == CashedIn.kind and event.payload()["value"] > 0:
                self.cash_ins[event.payload()["house"]] += 1
            elif event.kind == ArmiesRaised.kind:
                self.fleet_raised |= _naval(rules, event.payload()["unit_type"])
            self.capital_attacked |= _capital_attacked(state, event)
            self.dealings.update(name for name, kind in DEALINGS.items() if event.kind == kind)

    def run(self, state: GameState) -> dict[str, Any]:
        return {
            "causes": dict(self.causes),
            "epidemics": self.epidemics,
            "battles": self.battles,
            "treasury": {h.id: h.treasury for h in state.houses.values()},
            "cash_ins": {h: self.cash_ins[h] for h in sorted(state.houses)},
            "fleet_raised": self.fleet_raised,
            "capital_attacked": self.capital_attacked,
            **{name: self.dealings[name] for name in DEALINGS},
        }

    def summarise(self, runs: list[dict[str, Any]], houses: list[str]) -> dict[str, Any]:
        n = len(runs)
        causes: Counter[str] = Counter()
        for r in runs:
            causes.update(r["causes"])
        treasuries = [sum(r["treasury"].values()) / len(houses) for r in runs]
        spread = [max(r["treasury"].values()) - min(r["treasury"].values()) for r in runs]
        return {
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

    def show(self, report: Mapping[str, Any], console: Console) -> None:
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
                      f"runs with a capital attacked: "
                      f"{report['runs_with_capital_attacked']:.0%}; "
                      f"exchanges per run: {report['exchanges_per_run']:.2f}; "
                      f"crown payments per run: {report['payments_per_run']:.2f}")
        console.print("deaths per run by cause: " + ", ".join(
            f"{k} {v:.1f}" for k, v in report["deaths_by_cause"].items()))
        console.print(f"mean treasury {report['wealth']['mean_treasury']:.0f}, mean spread "
                      f"{report['wealth']['mean_spread']:.0f}")

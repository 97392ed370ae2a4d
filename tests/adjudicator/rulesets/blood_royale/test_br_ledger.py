"""RULES.md B7 wealth standings, and the export's ``wealth[]`` rows balancing from turn
to turn: every crown that enters or leaves a treasury is in a row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from br_support import fresh_state, rules, sheet
from click.testing import CliRunner

from adjudicator.dice import SeededDice
from adjudicator.rulesets.blood_royale import BloodRoyaleRuleset
from adjudicator.rulesets.blood_royale.board import board
from adjudicator.rulesets.blood_royale.counters import new_counter
from chronicle.commands.cli import cli

INFLOWS = ("taxes", "cash_in", "received", "ransom_received")
OUTFLOWS = ("upkeep", "raised", "revolts", "paid", "ransom_paid")


def balance_errors(rows: list[dict], start: dict[str, int]) -> list[str]:
    """Rows whose treasury is not the previous one plus inflows minus outflows."""
    previous = dict(start)
    errors = []
    for row in rows:
        expected = (previous[row["house"]] + sum(row[k] for k in INFLOWS)
                    - sum(row[k] for k in OUTFLOWS))
        if row["treasury"] != expected:
            errors.append(f"turn {row['turn']} {row['house']}: {row['treasury']} != {expected}")
        previous[row["house"]] = row["treasury"]
    return errors


def test_b7_payments_revolts_and_ransoms_are_in_the_wealth_rows():
    """B7a "Gifts and payments (give, pay)", B2.2.4 "a house may end a revolt by paying
    15 crowns" and A9 ransoms all move crowns: the wealth row names each of them, so
    treasury(t) = treasury(t-1) + every inflow - every outflow."""
    state = fresh_state()
    state.turn = 0
    board(state).provinces["york"].revolt = True
    prince = state.persons["france-philippe"]
    prince.prisoner_of, prince.captured_turn = "england", 0
    sheets = {"england": sheet("england", "pay 20 crowns to germany", "pay revolt york",
                               "prisoner france-philippe release ransom 30"),
              "france": sheet("france", "pay ransom france-philippe 30")}
    result = BloodRoyaleRuleset(rules()).resolve(state, sheets, SeededDice("ledger", 1))
    rows = {e.house: e.payload() for e in result.events if e.kind == "wealth"}
    england, germany, france = rows["england"], rows["germany"], rows["france"]
    assert (england["paid"], england["revolts"], england["ransom_received"]) == (20, 15, 30)
    assert (germany["received"], france["ransom_paid"]) == (20, 30)
    assert balance_errors(list(rows.values()), {h: 100 for h in rows}) == []


def test_b7_wealth_standings_give_the_best_cash_in_of_the_capital_every_turn():
    """B7 "Wealth standings: treasuries, the goods in each capital and the value of the
    best cash-in, per turn": 50 crowns for a basic set in London, in a year with no
    cash-in (1300)."""
    state = fresh_state()
    state.turn = 0
    for good in ("metal", "cloth", "food"):
        new_counter(state, good, "england", "middlesex")
    result = BloodRoyaleRuleset(rules()).resolve(state, {}, SeededDice("standing", 1))
    rows = {e.house: e.payload() for e in result.events if e.kind == "wealth"}
    assert rows["england"]["cash_in"] == 0
    assert rows["england"]["best_cash_in"] == 50
    assert rows["france"]["best_cash_in"] == 0


@pytest.mark.parametrize("world", ["blood-royale", "westeros"])
def test_b7_the_wealth_rows_of_a_whole_demo_campaign_balance(world: str, tmp_path: Path):
    """B1 "Starting economy: 100 crowns in the treasury"; then every row of the export's
    wealth[] balances against the one before, over a whole demo campaign."""
    runner = CliRunner()
    out = tmp_path / "demo"
    played = runner.invoke(cli, ["demo", "--ruleset", "blood-royale", "--world", world,
                                 "--out", str(out), "--no-site"])
    assert played.exit_code == 0, played.output
    exported = runner.invoke(cli, ["export", str(out), "--format", "json"])
    assert exported.exit_code == 0, exported.output
    data = json.loads(exported.stdout)
    rows = data["wealth"]
    assert {row["turn"] for row in rows} == set(range(1, data["turn"] + 1))
    assert balance_errors(rows, {h["id"]: 100 for h in data["houses"]}) == []

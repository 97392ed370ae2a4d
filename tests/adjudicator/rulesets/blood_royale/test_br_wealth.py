"""RULES.md B7: the cash-in optimiser."""

from __future__ import annotations

import itertools
import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from repo_paths import REPO

from adjudicator.errors import RulesDataError
from adjudicator.rulesets.blood_royale.wealth import best_cash_in, wealth_rules

WEALTH_TOML = REPO / "content/rulesets/blood-royale/wealth.toml"
RULES: dict[str, Any] = {"wealth": tomllib.loads(WEALTH_TOML.read_text(encoding="utf-8"))}
GOODS = ("metal", "cloth", "food", "wine", "gold")


def test_b7_basic_set_is_worth_50() -> None:
    """B7: "A basic set is one metal, one cloth and one food: 50 crowns." """
    result = best_cash_in({"metal": 1, "cloth": 1, "food": 1}, RULES)
    assert result.sets == ("basic",)
    assert result.value == 50
    assert result.used == {"cloth": 1, "food": 1, "gold": 0, "metal": 1, "wine": 0}
    assert all(n == 0 for n in result.remaining.values())


def test_b7_set_values_from_the_table() -> None:
    """B7: basic 50, + wine 80, + wine and gold 120."""
    basic = {"metal": 1, "cloth": 1, "food": 1}
    assert best_cash_in({**basic, "wine": 1}, RULES).value == 80
    assert best_cash_in({**basic, "wine": 1, "gold": 1}, RULES).value == 120
    # Gold without wine adds nothing: there is no "basic+gold" set.
    gold_only = best_cash_in({**basic, "gold": 1}, RULES)
    assert gold_only.value == 50
    assert gold_only.remaining["gold"] == 1


def test_b7_incomplete_sets_pay_nothing_and_stay() -> None:
    """B7: "Surplus goods stay in the capital." """
    result = best_cash_in({"metal": 3, "cloth": 2, "wine": 4}, RULES)
    assert result.sets == ()
    assert result.value == 0
    assert result.remaining == {"cloth": 2, "food": 0, "gold": 0, "metal": 3, "wine": 4}


def test_b7_spreads_luxuries_over_the_basic_sets() -> None:
    """B7: "The adjudicator picks the combination that pays the most."

    Two basic sets, two wines, one gold: 120 + 80 = 200 beats 120 + 50.
    """
    result = best_cash_in({"metal": 2, "cloth": 2, "food": 2, "wine": 2, "gold": 1}, RULES)
    assert result.value == 200
    assert sorted(result.sets) == ["basic+wine", "basic+wine+gold"]
    assert result.sets == ("basic+wine+gold", "basic+wine")  # richest set first


def test_b7_ignores_goods_no_set_uses() -> None:
    """Goods outside every set (e.g. a pack's own good) are kept as surplus."""
    result = best_cash_in({"metal": 1, "cloth": 1, "food": 1, "spice": 3}, RULES)
    assert result.value == 50
    assert result.remaining["spice"] == 3
    assert result.used["spice"] == 0


def test_b7_tie_break_keeps_more_goods() -> None:
    """[D] tie-break: among equal values, the combination using fewer goods wins.

    With a table where two plain sets pay as much as one set with wine, the
    optimiser keeps the wine in the capital.
    """
    rules = {"wealth": {"basic": ["metal"], "set": [
        {"name": "plain", "extra": [], "value": 50},
        {"name": "rich", "extra": ["wine"], "value": 100},
    ]}}
    # 2 metal + 1 wine: rich + plain = 150 is the only optimum.
    assert best_cash_in({"metal": 2, "wine": 1}, rules).value == 150
    tie = {"wealth": {"basic": ["metal"], "set": [
        {"name": "plain", "extra": [], "value": 50},
        {"name": "double", "extra": ["metal"], "value": 100},
    ]}}
    # Two "plain" and one "double" both pay 100 and use 2 metal: the richer set wins.
    assert best_cash_in({"metal": 2}, tie).sets == ("double",)
    waste = {"wealth": {"basic": ["metal"], "set": [
        {"name": "plain", "extra": [], "value": 50},
        {"name": "wasteful", "extra": ["wine"], "value": 50},
    ]}}
    result = best_cash_in({"metal": 1, "wine": 1}, waste)
    assert result.sets == ("plain",)
    assert result.remaining["wine"] == 1


def test_b7_rules_are_checked() -> None:
    with pytest.raises(RulesDataError):
        wealth_rules({"wealth": {"basic": ["metal"], "set": [{"name": "x", "extra": []}]}})
    with pytest.raises(RulesDataError):
        wealth_rules({"wealth": {"basic": ["metal"],
                                 "set": [{"name": "x", "extra": [], "value": 0}]}})
    with pytest.raises(ValueError, match="negative"):
        best_cash_in({"metal": -1}, RULES)


def _brute_force(goods: dict[str, int]) -> int:
    """The best value by trying every count of every set type (no pruning)."""
    table = wealth_rules(RULES)
    bound = max(goods.values(), default=0)
    best = 0
    for counts in itertools.product(range(bound + 1), repeat=len(table.sets)):
        need = {g: 0 for g in GOODS}
        for count, kind in zip(counts, table.sets, strict=True):
            for good, n in kind.goods:
                need[good] += n * count
        if all(need[g] <= goods.get(g, 0) for g in need):
            best = max(best, sum(c * k.value for c, k in zip(counts, table.sets, strict=True)))
    return best


@settings(max_examples=150, deadline=None)
@given(st.fixed_dictionaries({g: st.integers(0, 6) for g in GOODS}))
def test_b7_optimum_matches_brute_force(goods: dict[str, int]) -> None:
    """B7: the chosen combination is the one that pays the most, checked exhaustively."""
    result = best_cash_in(goods, RULES)
    assert result.value == _brute_force(goods)
    table = {k.name: k for k in wealth_rules(RULES).sets}
    assert result.value == sum(table[name].value for name in result.sets)
    for good in GOODS:
        assert result.used[good] + result.remaining[good] == goods[good]
        assert result.remaining[good] >= 0
    assert best_cash_in(dict(reversed(goods.items())), RULES) == result

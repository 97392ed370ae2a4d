"""RULES.md Part A: births, numbers, deaths, epidemics, succession, marriage, command."""

from adjudicator.rulesets.dynasty.ruleset import DynastyRuleset

__all__ = ["DynastyRuleset"]

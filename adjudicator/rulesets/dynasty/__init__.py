"""The ``dynasty`` ruleset: RULES.md Part A alone (the rules themselves are the
``adjudicator.dynastic`` library)."""

from adjudicator.rulesets.dynasty.ruleset import DynastyRuleset

__all__ = ["DynastyRuleset"]

"""The registry of rulesets, by the id a campaign names in ``ruleset``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets.base import Ruleset, TurnContext, TurnResult

_REGISTRY = {
    "dynasty": ("adjudicator.rulesets.dynasty", "DynastyRuleset"),
    "blood-royale": ("adjudicator.rulesets.blood_royale", "BloodRoyaleRuleset"),
    "familles": ("adjudicator.rulesets.familles", "FamillesRuleset"),
}

RULESETS = tuple(_REGISTRY)


def get_ruleset(ruleset_id: str, rules: Mapping[str, Any]) -> Ruleset:
    """Instantiate the ruleset ``ruleset_id`` with its rules tables."""
    if ruleset_id not in _REGISTRY:
        raise KeyError(ruleset_id)
    module_name, cls_name = _REGISTRY[ruleset_id]
    cls = getattr(importlib.import_module(module_name), cls_name)
    ruleset: Ruleset = cls(rules)
    return ruleset


__all__ = ["RULESETS", "Ruleset", "TurnContext", "TurnResult", "get_ruleset"]

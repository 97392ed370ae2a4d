"""Blood Royale (RULES.md Part B, and Part C through content packs).

Public API:

* ``BloodRoyaleRuleset``: the ``blood-royale`` ruleset (Part A, then Part B);
* ``build_blood_royale_state(spec, rules, dice)``: the state before turn 1;
* ``blood_royale_template(state, house, rules)``: a house's order template;
* ``export_blood_royale(state, events, rules=None)``: the JSON export sections.

Modules by domain: ``world`` (the map, passage, who commands a unit),
``tables`` (the numbers of ``economy.toml``), ``orders`` and ``validation``,
``economy`` (the interphase), ``diplomacy`` (passage, intervention, trade),
``forces`` (unit ids, the army pool, splits and merges), ``counters``,
``events_die``, ``movement``, ``control``, ``scoring`` (cash-in, victory,
wealth rows); ``battle``, ``battle_orders`` and ``wealth`` hold B6 and B7.
"""

from adjudicator.rulesets.blood_royale.export import export_blood_royale
from adjudicator.rulesets.blood_royale.ruleset import BloodRoyaleRuleset
from adjudicator.rulesets.blood_royale.setup import build_blood_royale_state
from adjudicator.rulesets.blood_royale.template import blood_royale_template

__all__ = [
    "BloodRoyaleRuleset",
    "blood_royale_template",
    "build_blood_royale_state",
    "export_blood_royale",
]

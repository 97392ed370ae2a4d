"""The ``dynasty`` ruleset: RULES.md Part A alone, for a campaign whose war is
played elsewhere (its battles reach the dynasty as arbiter directives)."""

from __future__ import annotations

from adjudicator.dynastic.ruleset import DynasticRuleset


class DynastyRuleset(DynasticRuleset):
    id = "dynasty"

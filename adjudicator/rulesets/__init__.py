"""The engine's rulesets, one package each, behind one interface (``base.Ruleset``).

The application's registry (``chronicle.rulesets``) names each ruleset's engine
class; the engine keeps no registry of its own.
"""

from adjudicator.rulesets.base import Ruleset, TurnContext, TurnResult

__all__ = ["Ruleset", "TurnContext", "TurnResult"]

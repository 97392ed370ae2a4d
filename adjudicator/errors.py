"""Exceptions raised by the engine.

    ValueError
     └── ChronicleRulesError
          ├── RulesDataError      ruleset data (a table, a map) is inconsistent
          ├── AdjudicationError   the engine met a state it cannot resolve
          └── SetupError          a campaign's starting houses, people or units are wrong

Bad *orders* are never exceptions: they become ``Rejection`` values so one
bad line cannot sink a house's turn.
"""


class ChronicleRulesError(ValueError):
    """Base of every error the engine raises on purpose."""


class RulesDataError(ChronicleRulesError):
    """A ruleset data file holds values the rules cannot use.

    ``where`` names the value in the rules tables, as keys from the top (for
    instance ``("dynasty", "births", "success_faces")``), when one value is
    at fault: a campaign that overrides it can be shown the line.
    """

    def __init__(self, message: str, where: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.where = where


class AdjudicationError(ChronicleRulesError):
    """The engine was handed a state it cannot resolve."""


class SetupError(ChronicleRulesError):
    """A campaign's starting data (houses, people, units) is inconsistent.

    ``at`` names the entry at fault, when one is: its table (``"person"``) and
    its place among that table's entries, from 0, so that a campaign file can
    be shown the line.
    """

    def __init__(self, message: str, at: tuple[str, int] | None = None) -> None:
        super().__init__(message)
        self.at = at

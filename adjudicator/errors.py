"""Exceptions raised by the engine, under the project's one root.

    Exception
     └── ChronicleError            everything Chronicle raises on purpose
          └── ChronicleRulesError  (also a ValueError) the engine's own
               ├── RulesDataError      ruleset data (a table, a map) is inconsistent
               ├── AdjudicationError   the engine met a state it cannot resolve
               │    └── DiceExhausted  (also an IndexError) scripted dice ran out
               ├── SetupError          a campaign's starting houses, people or units are wrong
               └── OrderSyntaxError    a line a grammar cannot read (becomes a rejection)

The application's errors hang under the same root: ``chronicle/errors.py``
draws the whole tree. The root lives here, in the engine, because the engine
imports nothing of the application.

Bad *orders* are never exceptions that leave the engine: they become
``Rejection`` values so one bad line cannot sink a house's turn.
"""


class ChronicleError(Exception):
    """The root of every error Chronicle raises on purpose: the input's fault
    or the machine's, said in one line. Anything else is a bug."""


class ChronicleRulesError(ChronicleError, ValueError):
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


class DiceExhausted(AdjudicationError, IndexError):
    """A ``ScriptedDice`` ran out of scripted faces."""


class SetupError(ChronicleRulesError):
    """A campaign's starting data (houses, people, units) is inconsistent.

    ``at`` names the entry at fault, when one is: its table (``"person"``) and
    its place among that table's entries, from 0, so that a campaign file can
    be shown the line.
    """

    def __init__(self, message: str, at: tuple[str, int] | None = None) -> None:
        super().__init__(message)
        self.at = at


class OrderSyntaxError(ChronicleRulesError):
    """Raised by a grammar rule; becomes a ``Rejection`` for that line."""

"""Every error Chronicle raises on purpose, under one root.

    Exception
     └── ChronicleError                 the input's fault or the machine's: one line, exit 1
          ├── ChronicleRulesError       (ValueError) the engine's: adjudicator/errors.py
          │    ├── RulesDataError       ruleset data the rules cannot use
          │    ├── AdjudicationError    a state the engine cannot resolve
          │    │    └── DiceExhausted   scripted dice ran out
          │    ├── SetupError           a campaign's starting houses, people or units
          │    └── OrderSyntaxError     an order line no grammar reads (a rejection)
          ├── CampaignError             a campaign folder or file that cannot be used
          ├── CampaignBusy              another command is writing the campaign
          ├── ShapeError                (ValueError) a campaign.toml value of the wrong type
          ├── RulesetError              (ValueError) a ruleset asked for what it lacks
          ├── ContentError              (ValueError) a content pack's value (file:line)
          ├── StoreError                the store file is missing, foreign or damaged
          ├── PublishError              (ValueError) the site cannot be built as asked
          │    └── GraphvizError        Graphviz could not lay out or render a diagram
          ├── NotServed                 a request ``chronicle serve`` does not answer
          └── NarrationError            (LookupError) an event with no sentence: a bug
                                        the tests catch, never the input's fault

The command line maps the root to its exit codes in one place
(``chronicle.commands.cli.refusal``): a ``ChronicleError`` is said in one
line and exits 1, except ``NarrationError``, which keeps its traceback.

This module imports nothing but the engine's errors, so that any module may
raise from it without loading more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adjudicator.errors import (
    AdjudicationError,
    ChronicleError,
    ChronicleRulesError,
    DiceExhausted,
    OrderSyntaxError,
    RulesDataError,
    SetupError,
)


class CampaignError(ChronicleError):
    """A campaign file the arbiter wrote cannot be used; the message says why.

    Given values, the message is the English sentence of the catalogue
    (``CampaignError("turn %(turn)s ...", turn=3)``), so that the command line
    says it in the campaign's language once it knows it (``said``).
    """

    def __init__(self, message: str, /, **values: Any) -> None:
        super().__init__(message % values if values else message)
        self.message = message
        self.values = values

    def said(self, say: Callable[..., str]) -> str:
        """The message in the words of ``say`` (``chronicle.i18n.words.words``); a value
        that is words itself (``chronicle.i18n.words.Phrase``) is said in them too."""
        return say(self.message, **{key: value.said(say) if hasattr(value, "said") else value
                                    for key, value in self.values.items()})


class CampaignBusy(ChronicleError):
    """Another command is writing the campaign; the message says which."""


class ShapeError(ChronicleError, ValueError):
    """A value of ``campaign.toml`` of the wrong type or size (``line`` if found)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


class RulesetError(ChronicleError, ValueError):
    """A campaign asks a ruleset for something it does not have (a world, say)."""


class ContentError(ChronicleError, ValueError):
    """A content pack's file holds a value Chronicle cannot use (``file:line: why``)."""


class StoreError(ChronicleError):
    """The store file is missing, foreign, or damaged."""


class PublishError(ChronicleError, ValueError):
    """The site cannot be built as asked (a path outside the output folder, a path
    written twice, a campaign folder without a store); the message names the input."""


class GraphvizError(PublishError):
    """Graphviz could not read, lay out or render a diagram."""


class NotServed(ChronicleError):
    """A request for something the server does not hand out (the status says why)."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status


class NarrationError(ChronicleError, LookupError):
    """An event the narrator has no entry for (a bug: every event has a sentence)."""


__all__ = ["AdjudicationError", "CampaignBusy", "CampaignError", "ChronicleError",
           "ChronicleRulesError", "ContentError", "DiceExhausted", "GraphvizError",
           "NarrationError", "NotServed", "OrderSyntaxError", "PublishError", "RulesDataError",
           "RulesetError", "SetupError", "ShapeError", "StoreError"]

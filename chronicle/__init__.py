"""Chronicle: adjudicate and publish play-by-email dynasty war games.

The public API (``docs/api.md``)::

    import chronicle

    camp = chronicle.open_campaign("content/campaigns/europe")
    print("\\n".join(chronicle.check(camp).lines()))
    for outcome in chronicle.adjudicate(camp):
        print(outcome.turn)
    chronicle.build_site([camp.root], "site")

Every name below is imported on first use (``chronicle --version`` loads
this package and must start at once); they live in ``chronicle.api`` and
``chronicle.errors``, whose docstring draws the exception tree.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from chronicle.api import (
        DiceRecord,
        RecordedRoll,
        RolledBack,
        adjudicate,
        archive,
        build_site,
        check,
        current_state,
        end,
        export,
        new_campaign,
        open_campaign,
        over_reason,
        preview,
        read_dice,
        recover,
        rollback,
        verify,
        write_auto_orders,
        write_reports,
    )
    from chronicle.errors import ChronicleError

__all__ = ["ChronicleError", "DiceRecord", "RecordedRoll", "RolledBack", "__version__",
           "adjudicate", "archive", "build_site", "check", "current_state", "end", "export", "new_campaign",
           "open_campaign", "over_reason", "preview", "read_dice", "recover", "rollback",
           "verify", "write_auto_orders", "write_reports"]


def __getattr__(name: str) -> Any:
    if name == "ChronicleError":
        return importlib.import_module("chronicle.errors").ChronicleError
    if name in __all__:
        return getattr(importlib.import_module("chronicle.api"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

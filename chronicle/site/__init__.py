"""The site generator: campaign stores in, a static site out (see ``build``).

This package only names its public API. The names are imported on first use,
so that a command importing ``chronicle.site.errors`` does not load the
whole generator.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chronicle.errors import PublishError
    from chronicle.site.build import BuildReport, build_site

__all__ = ["BuildReport", "PublishError", "build_site"]

_HOMES = {"BuildReport": "chronicle.site.build", "build_site": "chronicle.site.build",
          "PublishError": "chronicle.site.errors"}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)

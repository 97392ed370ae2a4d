"""Errors of the site generator.

    ValueError
     └── PublishError        the site cannot be built as asked (a path outside
                             the output folder, a path written twice, a
                             campaign folder without a store)
"""

from __future__ import annotations


class PublishError(ValueError):
    """The site cannot be built as asked; the message names the bad input."""

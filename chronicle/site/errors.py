"""Errors of the site generator (the tree is drawn in ``chronicle.errors``)."""

from chronicle.errors import GraphvizError, PublishError

__all__ = ["GraphvizError", "PublishError"]

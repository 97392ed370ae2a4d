"""Escaping untrusted text for the Markdown of private reports."""

from __future__ import annotations

_MARKDOWN = str.maketrans({ch: "\\" + ch for ch in "\\`*_[]<>|"})


def md_escape(text: str) -> str:
    """Neutralise Markdown in untrusted text: reports may be rendered by mail clients."""
    return text.translate(_MARKDOWN)

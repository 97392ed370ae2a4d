"""Escaping untrusted text for the Markdown of private reports."""

from __future__ import annotations

import re

_MARKDOWN = str.maketrans({ch: "\\" + ch for ch in "\\`*_[]<>|"})


def md_escape(text: str) -> str:
    """Neutralise Markdown in untrusted text: reports may be rendered by mail clients."""
    return text.translate(_MARKDOWN)


def _longest_run(text: str, mark: str) -> int:
    # A house's order template runs to thousands of lines: walked a character
    # at a time, it took a third of the time of writing the house's report.
    return max(map(len, re.findall(re.escape(mark) + "+", text)), default=0)


def md_code(text: str) -> str:
    """``text`` as a Markdown code span that nothing in it can end.

    Backslashes do not escape inside a code span (CommonMark 6.1): the span is
    fenced with more backticks than the longest run in ``text``, and padded
    where a backtick at either end must stay inside. HTML in a span is text.
    """
    fence = "`" * (_longest_run(text, "`") + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(text: str) -> list[str]:
    """``text`` as the lines of a fenced code block that nothing in it can close."""
    fence = "`" * max(3, _longest_run(text, "`") + 1)
    return [fence, *text.splitlines(), fence]

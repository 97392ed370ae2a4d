"""The private reports escape player text for Markdown (issue: trust).

Finding: in the arbiter's report, a backtick in a rejected line ended the code
span, and an ``<img onerror>`` after it went live when the report was rendered
(mail clients render Markdown). Reports may quote any line a player wrote.
"""

from __future__ import annotations

from pathlib import Path

import markdown  # type: ignore[import-untyped]
from click.testing import CliRunner
from dynasty_helpers import two_houses, write_campaign, write_orders

from chronicle.commands.cli import cli
from chronicle.turn.escape import md_block, md_code

HOSTILE = 'birth E1000 attempts `x` <img src=x onerror="alert(1)"> ``` **bold**'


def _live_tags(html: str) -> list[str]:
    return [tag for tag in ("<img", "<script", "<strong>") if tag in html]


def test_a_hostile_rejected_line_stays_text_in_every_report(tmp_path: Path) -> None:
    root = write_campaign(tmp_path / "camp", two_houses())
    write_orders(root, 1, "england", f"house england\n{HOSTILE}\n")
    result = CliRunner().invoke(cli, ["adjudicate", str(root)])
    assert result.exit_code == 0, result.output
    for name in ("arbiter.md", "england.md"):
        text = (root / "reports" / "turn-001" / name).read_text()
        assert "onerror" in text  # the line is quoted ...
        html = markdown.markdown(text)
        assert _live_tags(html) == [], name  # ... and stays text once rendered
        assert "&lt;img" in html


def test_a_code_span_holds_any_run_of_backticks() -> None:
    for text in ("plain", "a ` b", "``x``", "`start", "end`", "``` fence"):
        html = markdown.markdown(md_code(text) + " <b>after</b>")
        assert html.count("<code>") == 1
        inner = html.split("<code>")[1].split("</code>")[0]
        assert inner.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&") \
            .strip() == text.strip()


def test_a_code_block_cannot_be_closed_by_what_it_holds() -> None:
    lines = md_block('house england\nname newborn of E1100 "```"\n<script>x</script>')
    html = markdown.markdown("\n".join(["before", "", *lines, "", "after"]),
                             extensions=["fenced_code"])
    assert "<script>" not in html and html.count("<pre>") == 1

"""The terminal's summary of a turn is the reports' chronicle, told once.

DESIGN.md, the command line: ``chronicle adjudicate`` "write[s] the store and the
private reports; print[s] a summary". The summary's sentences are those the
reports told (``ReportTeller.plain``), not told a second time; they must be the
sentences ``plain_sentences`` gives, links and all taken out.
"""

from __future__ import annotations

import pytest
from br_support import play

from chronicle.narration.plain import ReportTeller, plain_sentences


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_reports_chronicle_is_the_summarys_text(language: str) -> None:
    kinds: set[str] = set()
    for _, result in play("blood-royale", 8, "summary"):
        kinds.update(e.kind for e in result.events if e.public)
        teller = ReportTeller(result.state, result.events, language, "https://example.org/c/")
        assert teller.plain() == plain_sentences(result.state, result.events, language)
        assert len(teller.plain()) == len(teller.chronicle())
    # Battles are linked to their pages in the reports: the summary drops the links.
    assert {"battle", "birth", "death"} <= kinds

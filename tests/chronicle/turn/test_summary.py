"""The terminal's summary of a turn is the reports' chronicle, told once.

DESIGN.md, the command line: ``chronicle adjudicate`` "write[s] the store and the
private reports; print[s] a summary". The summary's sentences are those the
reports told (``ReportTeller.plain``), not told a second time; they must be the
sentences ``plain_sentences`` gives, links and all taken out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from br_support import play

from chronicle.narration.plain import ReportTeller, plain_sentences
from chronicle.store.turns import Store


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_reports_chronicle_is_the_summarys_text(language: str) -> None:
    kinds: set[str] = set()
    for _, result in play("blood-royale", 8, "summary"):
        kinds.update(e.kind for e in result.events if e.public)
        teller = ReportTeller(result.state, result.events, language, "https://example.org/c/")
        assert teller.plain() == plain_sentences(result.state, result.events, language)
    # Battles are linked to their pages in the reports: the summary drops the links.
    assert {"battle", "birth", "death"} <= kinds


def test_adjudicate_prints_the_chronicle_its_reports_told(tmp_path: Path) -> None:
    """DESIGN.md: ``chronicle adjudicate`` "print[s] a summary": the turn's public
    events as the reports told them, as plain text, after the rejected lines."""
    from cli_support import run
    from dynasty_helpers import play_turns, two_houses, write_campaign, write_orders

    from chronicle.campaign.folder import load_campaign
    from chronicle.rulesets.dynastic.player import dynasty_order_file
    from chronicle.turn import runner

    spec = two_houses()
    # A name Markdown would mark up: the reports escape it, the terminal does not.
    spec["person"][0]["name"] = "Edward *the Elder*"
    root = write_campaign(tmp_path / "camp", spec)
    play_turns(root, 2)
    camp = load_campaign(root)
    state = runner.current_state(camp, runner.ruleset_of(camp))
    for hid in sorted(state.houses):
        write_orders(root, state.turn + 1, hid,
                     dynasty_order_file(state, hid, camp.rules, "ambitious"))
    printed = run("adjudicate", root)
    assert printed.exit_code == 0, printed.output
    store = Store.open(camp.store_path)
    try:
        outcome = runner.stored_outcome(camp, runner.ruleset_of(camp), store, state.turn + 1)
    finally:
        store.close()
    told = plain_sentences(outcome.result.state, outcome.result.events)
    assert any("Edward *the Elder*" in t for t in told)
    # The sentences close the summary; only the line naming the reports follows.
    assert printed.output.splitlines()[-len(told) - 1:-1] == [f"  {t}" for t in told]

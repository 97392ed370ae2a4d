"""Arbiter directives recorded as public events (issue 17 item 6; DESIGN.md "Arbiter
directives": "Directives take effect at the start of the turn, in file order, and
are recorded as public events (the arbiter's rulings are part of the chronicle)")."""

from __future__ import annotations

import json
from pathlib import Path

from cli_support import run
from mail_support import campaign

RULINGS = """house arbiter
set E1000 ruse 2
grant 50 crowns to england
fine 20 crowns from england
capture C1000 by F
release C1000
annul E1000
fine 999 crowns from france
release E1000
set E1000 wisdom 3
"""


def test_directives_change_the_state_and_are_told(tmp_path: Path) -> None:
    """DESIGN.md: "set E1200 constitution 1 # correct a characteristic: constitution |
    command | ruse", "grant 50 crowns to england # or: fine 50 crowns from england",
    "capture E1300 by F # E1300 becomes a prisoner of France", "release E1300 # a
    prisoner goes free"."""
    root = campaign(tmp_path)
    (root / "orders" / "turn-001" / "arbiter.orders").write_text(RULINGS, encoding="utf-8")
    checked = run("check", root)
    assert ("arbiter.orders:8: fine 999 crowns from france: House Capet holds 0 crowns, "
            "fewer than the fine") in checked.output
    assert "arbiter.orders:9: release E1000: Edward is no prisoner" \
        in checked.output
    assert "arbiter.orders:10: set E1000 wisdom 3:" in checked.output
    result = run("adjudicate", root)
    assert result.exit_code == 0, result.output
    for sentence in ("By the arbiter's ruling, the ruse of Edward (E1000) is now 2.",
                     "By the arbiter's ruling, House Plantagenet received 50 crowns.",
                     "By the arbiter's ruling, House Plantagenet was fined 20 crowns.",
                     "By the arbiter's ruling, Fernando (C1000) is a prisoner of House Capet.",
                     "By the arbiter's ruling, Fernando (C1000) goes free.",
                     "By the arbiter's ruling, the marriage of Edward (E1000) and Margaret is "
                     "annulled."):
        assert sentence in result.output
    exported = json.loads(run("export", root).output)
    edward = next(p for p in exported["persons"] if p["id"] == "england-king")
    assert edward["ruse"] == 2
    england = next(h for h in exported["houses"] if h["id"] == "england")
    assert england["treasury"] == 30
    rulings = [e for e in exported["events"] if e["kind"] == "ruling"]
    assert [e["directive"] for e in rulings] == [
        "set", "grant", "fine", "capture", "release", "annul"]
    assert edward["spouse"] is None
    margaret = next(p for p in exported["persons"] if p["id"] == rulings[-1]["other"])
    assert margaret["spouse"] is None and margaret["died"] is None
    fernando = next(p for p in exported["persons"] if p["id"] == "castile-king")
    assert fernando["prisoner_of"] is None
    report = (root / "reports" / "turn-001" / "england.md").read_text()
    assert "House Plantagenet received 50 crowns" in report

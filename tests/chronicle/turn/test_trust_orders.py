"""Orders no player can turn against the referee (issue "Trust", part "Orders").

Each test is one finding, stated as the contract of DESIGN.md "Orders" (or the
rule of RULES.md) it breaks, and reproduced the way the arbiter meets it:
through ``chronicle check`` and ``chronicle adjudicate``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cli_support import run
from dynasty_helpers import (
    build,
    context,
    person,
    pid_of,
    scripted,
    sheets,
    two_houses,
    write_campaign,
    write_orders,
)

from adjudicator.dice import SeededDice
from adjudicator.dynastic.births import run_births
from adjudicator.events import Notice
from chronicle.campaign.folder import load_campaign
from chronicle.turn import runner

INVISIBLE = ("\u200b\u200c\u200d\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
             "\u2060\u00ad\ufeff\u3164\u034f\ufe0f")



def families(*extra: dict[str, Any]) -> dict[str, Any]:
    """England and France with grown children: E1100 Edward, E1a00 Alice, F1a00 Blanche."""
    spec = two_houses()
    spec["person"] += [
        person("edward", "M", 1280, "england", father="england-king", mother="england-queen"),
        person("alice", "F", 1284, "england", father="england-king", mother="england-queen"),
        person("blanche", "F", 1283, "france", father="france-king", mother="france-queen"),
        *extra]
    return spec


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    return write_campaign(tmp_path / "camp", families())


def test_orders_numbers_are_ascii_digits_only(tmp_path: Path, camp: Path) -> None:
    """Issue "Orders": "`descendant 1 under ²+3` (superscript digits) crashes `check` and
    `adjudicate` in Les familles nobles. Numbers are ASCII digits only, everywhere
    (`attempts ３` must be refused too)." """
    game = tmp_path / "familles"
    assert run("new", game, "--ruleset", "familles", "--seed", "digits").exit_code == 0
    for seat in ("alice", "bob", "carol", "dmitri"):
        write_orders(game, 1, seat, f"house {seat}\ndescendant 1 under ²+3\n")
    checked = run("check", game)
    assert checked.exit_code == 1, checked.output
    assert "descendant 1 under ²+3: name the couple as two card numbers" in checked.output
    assert run("adjudicate", game).exit_code == 0

    write_orders(camp, 1, "england", "house england\nbirth E1000 attempts ３\n"
                                     "birth F1000 attempts ²\n")
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    assert "the number of attempts must be a whole number, not '３'" in checked.output
    assert "the number of attempts must be a whole number, not '²'" in checked.output


def test_orders_check_refuses_what_adjudicate_refuses_without_dice(camp: Path) -> None:
    """DESIGN.md "Command line": `check` parses "and validate[s] the next turn's orders".
    Issue "Orders": "`check` must refuse everything `adjudicate` will refuse without dice:
    duplicate `birth`, `assign` or `marry` lines, two `renounce` lines ... Their reasons
    must say what is wrong, not 'nobody is called …'." A loan, like a marriage, needs both
    houses' lines (A8), which the files alone show."""
    write_orders(camp, 1, "england", "house england\n"
                 "birth E1000\n"
                 'birth "Queen of England" attempts 2\n'
                 "assign E1100 to E-1\n"
                 "assign E1100 to E-2\n"
                 "marry E1100 to F1a00\n"
                 "marry F1a00 to E1100\n"
                 "renounce E1a00 in E\n"
                 "renounce E1a00 in E\n"
                 "lend E1000 to F-1\n")
    write_orders(camp, 1, "france", "house france\nmarry F1a00 to E1100\n")
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    for line in ("england.orders:3: birth \"Queen of England\" attempts 2: this couple's "
                 "attempts are already ordered on line 2",
                 "england.orders:5: assign E1100 to E-2: Edward's command is already ordered "
                 "on line 4",
                 "england.orders:7: marry F1a00 to E1100: a marriage of Blanche is already declared "
                 "on line 6",
                 "england.orders:9: renounce E1a00 in E: Alice's renunciation in House England "
                 "is already ordered on line 8",
                 "england.orders:10: lend E1000 to F-1: france did not declare this loan"):
        assert line in checked.output
    assert "nobody is called" not in checked.output

    campaign = load_campaign(camp)
    found = runner.check(campaign).orders
    in_check = {(r.file, r.line, r.reason) for s in found.sheets.values() for r in s.rejections}
    outcome = runner.adjudicate(load_campaign(camp))
    assert {(r.file, r.line, r.reason) for r in outcome.result.rejections} == in_check


def test_orders_check_refuses_contradictory_prisoner_lines() -> None:
    """Issue "Orders": `check` must refuse "contradictory `prisoner` lines", as the turn does,
    and say so. A9: a captor releases, executes or keeps a prisoner: one fate."""
    ruleset, state = build(families())
    state.persons[pid_of(state, "F1a00")].prisoner_of = "england"
    body = "prisoner F1a00 execute\nprisoner F1a00 release\n"
    checked = sheets(ruleset, england=body)
    ruleset.validate(state, checked)
    refused = (3, "Blanche's fate is already ordered on line 2")
    assert [(r.line, r.reason) for r in checked["england"].rejections] == [refused]
    result = ruleset.resolve(state, sheets(ruleset, england=body), SeededDice("fate", 1))
    assert refused in [(r.line, r.reason) for r in result.rejections]


def test_orders_reference_numbers_are_case_sensitive(camp: Path) -> None:
    """RULES.md A3: sons are `1`–`9`, `A`–`Z`, daughters `a`–`z`. Issue "Orders":
    "`renounce E1A00 in E` must never act on `E1a00`; offer 'did you mean E1a00?'
    instead." """
    write_orders(camp, 1, "england", "house england\nrenounce E1A00 in E\n")
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    assert ("england.orders:2: renounce E1A00 in E: nobody is called 'E1A00'; "
            "did you mean E1a00?") in checked.output
    assert run("adjudicate", camp).exit_code == 0
    campaign = load_campaign(camp)
    state = runner.current_state(campaign, runner.ruleset_of(campaign))
    assert state.persons["alice"].refs == {"england": "E1a00"}


def test_orders_reasons_escape_invisible_and_bidi_characters(camp: Path) -> None:
    """DESIGN.md "Errors": every rejected line is reported as `file:line: text: reason`.
    Issue "Orders": "Invisible and bidi characters (U+200B–F, U+202A–E, U+2066–9, …) are
    escaped in every reason, as they already are in echoed lines." """
    lines = [f"assign E1100 to E-1{ch}" for ch in INVISIBLE]
    write_orders(camp, 1, "england", "house england\n" + "\n".join(lines) + "\n")
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    assert not set(INVISIBLE) & set(checked.output)
    assert "assign E1100 to E-1\\u202e: there is no unit E-1\\u202e" in checked.output
    assert run("adjudicate", camp).exit_code == 0
    for report in ("england.md", "arbiter.md"):
        text = (camp / "reports" / "turn-001" / report).read_text(encoding="utf-8")
        assert "there is no unit" in text
        assert not set(INVISIBLE) & set(text)


def test_orders_a_name_confusable_with_an_existing_one_is_refused(
        tmp_path: Path, camp: Path) -> None:
    """DESIGN.md "Orders": people are named "by their unique name in quotes". Issue
    "Orders": "A name confusable with an existing one is refused, for example `Edwаrd`
    with a Cyrillic а next to `Edward`. Compare names by a Unicode confusable skeleton
    after NFKC." """
    write_orders(camp, 1, "england", "house england\n"
                 'name newborn of E1000 "Edwаrd"\n'          # Cyrillic а
                 'name son of E1000 "ＡＬＩＣＥ"\n'            # fullwidth
                 'name daughter of E1000 "Аgnes" "Agnes"\n'  # one name, twice
                 'name newborn of E1000 "Alice\u3164"\n')     # a filler drawn as nothing
    checked = run("check", camp)
    assert checked.exit_code == 1, checked.output
    assert "the name 'Edwаrd' looks like 'Edward', which is taken" in checked.output
    assert "the name 'ＡＬＩＣＥ' looks like 'Alice', which is taken" in checked.output
    assert "the same name is given twice" in checked.output
    assert "the name 'Alice\\u3164' looks like 'Alice', which is taken" in checked.output

    twins = write_campaign(tmp_path / "twins", families(
        person("edward-2", "M", 1282, "england", name="Edwаrd", father="england-king",
               mother="england-queen")))
    refused = run("check", twins)
    assert refused.exit_code == 1, refused.output
    assert "'Edwаrd' reads as 'Edward'" in refused.output


def _brood(count: int, sex: str) -> list[dict[str, Any]]:
    return [person(f"child-{n}", sex, 1281 + n // 3, "england", father="england-king",
                   mother="england-queen") for n in range(1, count + 1)]


@pytest.mark.parametrize(("count", "sex", "whom"), [(36, "M", "35 sons"),
                                                    (27, "F", "26 daughters")])
def test_orders_a_child_beyond_the_numbering_alphabet_is_reported(
        tmp_path: Path, count: int, sex: str, whom: str) -> None:
    """RULES.md A3: sons are "`1`–`9`, then `A`–`Z`", daughters "`a`–`z`". Issue
    "Orders": "A child beyond the numbering alphabet (the 36th son or 27th daughter of
    one parent) is reported, at setup and in play. It never silently gets no number." """
    spec = two_houses()
    spec["person"] += _brood(count, sex)
    camp = write_campaign(tmp_path / "camp", spec)
    refused = run("check", camp)
    assert refused.exit_code == 1, refused.output
    assert (f"Child {count} can take no reference number in england: the parent has "
            f"numbered {whom}, every character there is (A3)") in refused.output

    spec = two_houses()
    spec["person"] += _brood(count - 1, sex)
    ruleset, state = build(spec)
    # England: one attempt, a success, of the sex spent, two traits; France: a failure.
    ctx = context(state, ruleset, scripted(1, 1 if sex == "M" else 6, 3, 3, 3, 3, 6))
    run_births(ctx)
    notices = [e.text for e in ctx.events if isinstance(e, Notice) and e.house == "england"]
    assert any(f"could take no reference number in england: the parent has numbered {whom}"
               in text for text in notices), notices

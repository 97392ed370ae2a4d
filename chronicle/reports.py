"""Private per-house reports, in Markdown, under ``reports/turn-NNN/``.

Each house learns what the whole table learns, plus what only it may know:
its rejected lines, the defaults applied for it, and its private notices.
The arbiter's report (``arbiter.md``) holds everything.
"""

from __future__ import annotations

from pathlib import Path

from adjudicator.events import Event, Notice
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign import Campaign, write_inside
from chronicle.escape import md_block, md_code
from chronicle.escape import md_escape as _md
from chronicle.narration.plain import plain_sentences
from chronicle.outcome import TurnOutcome
from chronicle.rulesets import Descriptor


def house_report(state: GameState, outcome: TurnOutcome, house: str, ruleset: Ruleset,
                 kind: Descriptor, chronicle: list[str] | None = None) -> str:
    result = outcome.result
    name = state.houses[house].name if house in state.houses else house
    when = kind.calendar.when(outcome.turn, outcome.year)
    lines = [f"# {_md(name)}: {when}", ""]
    sheet = outcome.orders.sheets.get(house)
    lines.append("## Your orders")
    if sheet is None:
        if house in result.defaulted:
            lines.append(f"You sent no orders: you got the defaults ({ruleset.defaults}).")
        else:
            lines.append("No orders were expected from you this turn.")
    elif sheet.refused:
        lines.append(f"Your order file was refused: {_md(sheet.refused)}")
        lines.append(f"You got the defaults instead ({ruleset.defaults}).")
    rejected = sorted((r for r in result.rejections if r.house == house),
                      key=lambda r: (r.file, r.line))
    if rejected:
        lines.append("")
        lines.append("Rejected lines:")
        lines += [f"- {md_code(f'{r.file}:{r.line}')}: {_md(r.text)}: {_md(r.reason)}"
                  for r in rejected]
    elif sheet is not None and not sheet.refused:
        lines.append("Every line of your orders was accepted.")
    notices = [e for e in result.events if isinstance(e, Notice) and e.house == house]
    if notices:
        lines += ["", "## For your eyes only"]
        lines += [f"- {_md(n.text)}" for n in notices]
    lines += ["", "## The chronicle of the turn"]
    lines += chronicle if chronicle is not None else _event_lines(state, result.events)
    lines += kind.report_sections(state, house)
    house_row = state.houses.get(house)
    if not state.finished and house_row is not None and not house_row.eliminated:
        lines += ["", "## Your orders for the next turn",
                  "Edit this and send it back (everything after # is a comment):", "",
                  *md_block(ruleset.template(state, house).rstrip("\n"))]
    return "\n".join(lines) + "\n"


def _event_lines(state: GameState, events: list[Event], language: str = "en") -> list[str]:
    told = plain_sentences(state, events, language)
    return [f"- {_md(text)}" for text in told] or ["- A quiet turn."]


def arbiter_report(state: GameState, outcome: TurnOutcome, kind: Descriptor,
                   chronicle: list[str] | None = None) -> str:
    result = outcome.result
    lines = [f"# Arbiter's report: {kind.calendar.when(outcome.turn, outcome.year)}", ""]
    lines.append(f"Houses with defaults: {', '.join(result.defaulted) or 'none'}")
    for problem in outcome.orders.problems + outcome.orders.refused():
        lines.append(f"- {_md(problem)}")
    lines += ["", "## Rejected lines"]
    lines += [f"- {md_code(str(r))}" for r in sorted(result.rejections, key=lambda r: (r.file, r.line))] \
        or ["- none"]
    lines += ["", "## Events"]
    lines += chronicle if chronicle is not None else _event_lines(state, result.events)
    lines += ["", "## Private notices"]
    lines += [f"- {e.house}: {_md(e.text)}" for e in result.events if isinstance(e, Notice)]
    return "\n".join(lines) + "\n"


def write_reports(campaign: Campaign, ruleset: Ruleset, outcome: TurnOutcome) -> list[Path]:
    folder = campaign.reports_dir(outcome.turn)
    state = outcome.result.state
    written = []
    chronicle = _event_lines(state, outcome.result.events, campaign.language)
    texts = {f"{house}.md": house_report(state, outcome, house, ruleset, campaign.descriptor,
                                         chronicle)
             for house in sorted(outcome.previous.houses)}
    texts["arbiter.md"] = arbiter_report(state, outcome, campaign.descriptor, chronicle)
    for name, text in texts.items():
        write_inside(campaign.root, folder / name, text)
        written.append(folder / name)
    return written

"""Private per-house reports, in Markdown, under ``reports/turn-NNN/``.

Each house learns what the whole table learns, plus what only it may know:
its rejected lines, the defaults applied for it, its private notices, and
what the turn did to it ("What happened to your house": its dead with their
rolls, its losses, its payments and ransoms). The arbiter's report
(``arbiter.md``) holds everything. Both are in the campaign's language.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from adjudicator.events import Event, Notice
from adjudicator.rulesets.base import Ruleset
from adjudicator.state import GameState
from chronicle.campaign.folder import Campaign, write_inside
from chronicle.i18n.catalogue import translations
from chronicle.i18n.localnames import NO_NAMES, LocalNames
from chronicle.i18n.reasons import Say, as_written, engine_words, rejected_line
from chronicle.narration.plain import ReportTeller
from chronicle.rulesets import Descriptor
from chronicle.turn.escape import md_block, md_code
from chronicle.turn.escape import md_escape as _md
from chronicle.turn.outcome import TurnOutcome

Gettext = Callable[[str], str]


def _same(text: str) -> str:
    return text


def house_report(state: GameState, outcome: TurnOutcome, house: str, ruleset: Ruleset,
                 kind: Descriptor, chronicle: list[str] | None = None,
                 yours: list[str] | None = None, _: Gettext = _same,
                 template: str | None = None, names: LocalNames = NO_NAMES,
                 say: Say = as_written) -> str:
    """``house``'s report; ``chronicle`` and ``yours`` are Markdown lines (see
    ``ReportTeller``), ``template`` the next turn's order file, ``names`` the
    content pack's names in the report's language, ``say`` the engine's reasons
    and notices in it."""
    result = outcome.result
    name = names.house(house, state.houses[house].name) if house in state.houses else house
    when = kind.calendar.when_in(outcome.turn, outcome.year, _)
    lines = [f"# {_md(name)}: {when}", ""]
    sheet = outcome.orders.sheets.get(house)
    lines.append(_("## Your orders"))
    defaults = _(ruleset.defaults)
    if sheet is None:
        if house in result.defaulted:
            lines.append(_("You sent no orders: you got the defaults (%(defaults)s).")
                         % {"defaults": defaults})
        else:
            lines.append(_("No orders were expected from you this turn."))
    elif sheet.refused:
        lines.append(_("Your order file was refused: %(reason)s")
                     % {"reason": _md(say(sheet.refused))})
        lines.append(_("You got the defaults instead (%(defaults)s).") % {"defaults": defaults})
    rejected = sorted((r for r in result.rejections if r.house == house),
                      key=lambda r: (r.file, r.line))
    if rejected:
        lines += ["", _("Rejected lines:")]
        lines += [f"- {md_code(f'{r.file}:{r.line}')}: {_md(r.text)}: {_md(say(r.reason))}"
                  for r in rejected]
    elif sheet is not None and not sheet.refused:
        lines.append(_("Every line of your orders was accepted."))
    notices = [e for e in result.events if isinstance(e, Notice) and e.house == house]
    if notices:
        lines += ["", _("## For your eyes only")]
        lines += [f"- {_md(say(n.text))}" for n in notices]
    if yours is None:
        yours = ReportTeller(state, result.events).for_house(house)
    lines += ["", _("## What happened to your house")]
    lines += [f"- {line}" for line in yours] or [_("- Nothing that was yours alone.")]
    lines += ["", _("## The chronicle of the turn")]
    lines += chronicle if chronicle is not None else _event_lines(state, result.events, _)
    lines += kind.report_sections(state, house, _)
    house_row = state.houses.get(house)
    if not state.finished and house_row is not None and not house_row.eliminated:
        if template is None:
            template = ruleset.template(state, house)
        lines += ["", _("## Your orders for the next turn"),
                  _("Edit this and send it back (everything after # is a comment):"), "",
                  *md_block(template.rstrip("\n"))]
    return "\n".join(lines) + "\n"


def _event_lines(state: GameState, events: list[Event], _: Gettext = _same,
                 teller: ReportTeller | None = None) -> list[str]:
    teller = teller or ReportTeller(state, events)
    return [f"- {line}" for line in teller.chronicle()] or [_("- A quiet turn.")]


def arbiter_report(state: GameState, outcome: TurnOutcome, kind: Descriptor,
                   chronicle: list[str] | None = None, _: Gettext = _same,
                   say: Say = as_written) -> str:
    result = outcome.result
    when = kind.calendar.when_in(outcome.turn, outcome.year, _)
    lines = [_("# Arbiter's report: %(when)s") % {"when": when}, ""]
    lines.append(_("Houses with defaults: %(houses)s") % {"houses": ", ".join(result.defaulted)}
                 if result.defaulted else _("Houses with defaults: none"))
    for problem in outcome.orders.problems + outcome.orders.refused():
        lines.append(f"- {_md(say(problem))}")
    lines += ["", _("## Rejected lines")]
    lines += [f"- {md_code(rejected_line(r, say))}"
              for r in sorted(result.rejections, key=lambda r: (r.file, r.line))] \
        or [_("- none")]
    lines += ["", _("## Events")]
    lines += chronicle if chronicle is not None else _event_lines(state, result.events, _)
    lines += ["", _("## Private notices")]
    lines += [f"- {e.house}: {_md(say(e.text))}" for e in result.events if isinstance(e, Notice)]
    return "\n".join(lines) + "\n"


def write_reports(campaign: Campaign, ruleset: Ruleset, outcome: TurnOutcome) -> list[Path]:
    folder = campaign.reports_dir(outcome.turn)
    state = outcome.result.state
    language = campaign.language
    _ = translations(language).gettext
    names = campaign.descriptor.local_names(campaign.spec, language)
    teller = ReportTeller(state, outcome.result.events, language, campaign.site_folder_url,
                          names)
    chronicle = _event_lines(state, outcome.result.events, _, teller)
    say = engine_words(language, names)
    texts = {f"{house}.md": house_report(
        state, outcome, house, ruleset, campaign.descriptor, chronicle,
        teller.for_house(house), _, template_for(campaign, ruleset, state, house), names, say)
        for house in sorted(outcome.previous.houses)}
    texts["arbiter.md"] = arbiter_report(state, outcome, campaign.descriptor, chronicle, _,
                                         say)
    outcome.told = teller.plain()
    written = []
    for name, text in texts.items():
        write_inside(campaign.root, folder / name, text)
        written.append(folder / name)
    return written


def template_for(campaign: Campaign, ruleset: Ruleset, state: GameState, house: str) -> str:
    """``house``'s order file for the next turn, its comments in the campaign's language."""
    return ruleset.template_in(state, house, translations(campaign.language).gettext)


def report_subject(campaign: Campaign, turn: int, year: int) -> str:
    """The subject of the mail that carries a house's report."""
    _ = translations(campaign.language).gettext
    return _("%(title)s: your report for %(when)s") % {
        "title": campaign.title,
        "when": campaign.descriptor.calendar.when_in(turn, year, _)}

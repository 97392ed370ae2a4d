"""The ready-to-edit order file a house receives for the next turn.

Its comments are in the campaign's language (``_``, the report's gettext);
the orders themselves are the order language's in every language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.dynastic.births import couple_house, eligible_couples
from adjudicator.dynastic.command import faction_units, must_command, reigns
from adjudicator.dynastic.lookup import label
from adjudicator.dynastic.people import dynasty_rules
from adjudicator.rulesets.base import Gettext, same
from adjudicator.state import GameState, Sex


def dynasty_template(state: GameState, house: str, rules: Mapping[str, Any],
                     _: Gettext = same) -> str:
    """Lists eligible couples, men due for command, prisoners and units (DESIGN.md)."""
    dyn = dynasty_rules(rules)
    year = state.year_of(state.turn + 1)
    year_end = state.year_ending(state.turn + 1)
    out = [f"house {house}",
           "# " + _("Orders for turn %(turn)s (%(year)s).") % {"turn": state.turn + 1,
                                                              "year": year},
           "# " + _("Lines starting with # are comments. Remove the # to give an order."), ""]
    others = [str(n) for n in range(dyn.min_attempts, dyn.max_attempts + 1)
              if n != dyn.default_attempts]
    attempts = _attempts(dyn.default_attempts, _)
    out.append("# " + (_("Births: every eligible couple makes %(attempts)s unless you order "
                         "%(others)s;") % {"attempts": attempts, "others": _either(others, _)}
                       if others else
                       _("Births: every eligible couple makes %(attempts)s;")
                       % {"attempts": attempts}))
    out.append("# " + _("each attempt after the first adds %(penalty)s to the mother's survival "
                        "difficulty.") % {"penalty": dyn.extra_attempt_penalty})
    couples = [m for m in eligible_couples(state, year, dyn.max_mother_age)
               if couple_house(state, m) == house]
    for m in couples:
        wife = state.persons[m.wife]
        out.append(f"# birth {_ref(state, m.husband)} attempts {dyn.default_attempts}   # "
                   + _("%(husband)s and %(wife)s (she is %(age)s)")
                   % {"husband": label(state.persons[m.husband]), "wife": label(wife),
                      "age": wife.age(year)})
    if not couples:
        out.append("#   " + _("(no eligible couple)"))
    out += ["", "# " + _("Marriages: both houses send the same line; or marry to "
                         "minor-nobility.")]
    single = sorted((p for p in state.living()
                     if p.dynasty == house and p.spouse is None and not p.widowed_queen
                     and not p.king_consort and p.age(year_end) >= dyn.marriage_min_age),
                    key=lambda p: p.seq)
    for p in single:
        who = (_("%(who)s, man of %(age)s") if p.sex == Sex.MALE
               else _("%(who)s, woman of %(age)s")) % {"who": label(p), "age": p.age(year_end)}
        out.append(f"# marry {_ref(state, p.id)} to minor-nobility   # {who}")
    if not single:
        out.append("#   " + _("(nobody free to marry)"))
    out += ["", "# " + _("Command: men of %(age)s and more are assigned automatically if you "
                         "say nothing.") % {"age": dyn.compulsory_age}]
    units = faction_units(state, house)
    for p in sorted(state.living(), key=lambda p: p.seq):
        if p.dynasty == house and p.sex == Sex.MALE and not p.unit and not p.prisoner_of \
                and p.age(year_end) >= dyn.voluntary_age and not reigns(state, p.id):
            due = must_command(state, p, p.age(year_end), dyn.compulsory_age)
            target = min(units, key=lambda u: (len(u.commanders), u.id)).id if units else "?"
            note = (_("%(who)s (must command)") if due else _("%(who)s (may command)")) \
                % {"who": label(p)}
            out.append(f"# assign {_ref(state, p.id)} to {target}   # {note}")
    for u in units:
        names = ", ".join(label(state.persons[c]) for c in u.commanders) or _("no commander")
        out.append(f"#   unit {u.id} ({u.type}): {names}")
    prisoners = sorted((p for p in state.living() if p.prisoner_of == house), key=lambda p: p.seq)
    out += ["", "# " + _("Prisoners you hold: release [ransom N] | execute | keep (the "
                         "default).")]
    for p in prisoners:
        out.append(f"# prisoner {_ref(state, p.id)} keep   # {label(p)}")
    ours = sorted((p for p in state.living() if p.dynasty == house and p.prisoner_of),
                  key=lambda p: p.seq)
    for p in ours:
        held = _("%(who)s, held by %(house)s") % {"who": label(p), "house": p.prisoner_of}
        out.append(f"# pay ransom {_ref(state, p.id)} 20   # {held}")
    if not prisoners and not ours:
        out.append("#   " + _("(no prisoners)"))
    return "\n".join(out) + "\n"


def _attempts(count: int, _: Gettext) -> str:
    return (_("%(count)s attempt") if count == 1 else _("%(count)s attempts")) % {"count": count}


def _either(choices: list[str], _: Gettext) -> str:
    if len(choices) == 1:
        return choices[0]
    return _("%(some)s or %(last)s") % {"some": ", ".join(choices[:-1]), "last": choices[-1]}


def _ref(state: GameState, pid: str) -> str:
    person = state.persons[pid]
    if person.refs:
        return sorted(person.refs.values())[0]
    return f'"{person.name}"'

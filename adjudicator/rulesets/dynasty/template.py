"""The ready-to-edit order file a house receives for the next turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.rulesets.dynasty.births import couple_house, eligible_couples
from adjudicator.rulesets.dynasty.command import faction_units, must_command, reigns
from adjudicator.rulesets.dynasty.lookup import label
from adjudicator.rulesets.dynasty.people import dynasty_rules
from adjudicator.state import GameState, Sex


def dynasty_template(state: GameState, house: str, rules: Mapping[str, Any]) -> str:
    """Lists eligible couples, men due for command, prisoners and units (DESIGN.md)."""
    dyn = dynasty_rules(rules)
    year = state.year_of(state.turn + 1)
    year_end = state.year_ending(state.turn + 1)
    out = [f"house {house}", f"# Orders for turn {state.turn + 1} ({year}).",
           "# Lines starting with # are comments. Remove the # to give an order.", ""]
    others = [str(n) for n in range(dyn.min_attempts, dyn.max_attempts + 1)
              if n != dyn.default_attempts]
    out.append(f"# Births: every eligible couple makes {_attempts(dyn.default_attempts)} "
               f"unless you order {_either(others)};" if others else
               f"# Births: every eligible couple makes {_attempts(dyn.default_attempts)};")
    out.append(f"# each attempt after the first adds {dyn.extra_attempt_penalty} to the "
               "mother's survival difficulty.")
    couples = [m for m in eligible_couples(state, year, dyn.max_mother_age)
               if couple_house(state, m) == house]
    for m in couples:
        wife = state.persons[m.wife]
        out.append(f"# birth {_ref(state, m.husband)} attempts {dyn.default_attempts}   "
                   f"# {label(state.persons[m.husband])} and {label(wife)} "
                   f"(she is {wife.age(year)})")
    if not couples:
        out.append("#   (no eligible couple)")
    out += ["", "# Marriages: both houses send the same line; or marry to minor-nobility."]
    single = sorted((p for p in state.living()
                     if p.dynasty == house and p.spouse is None and not p.widowed_queen
                     and not p.king_consort and p.age(year_end) >= dyn.marriage_min_age),
                    key=lambda p: p.seq)
    for p in single:
        out.append(f"# marry {_ref(state, p.id)} to minor-nobility   # {label(p)}, "
                   f"{'man' if p.sex == Sex.MALE else 'woman'} of {p.age(year_end)}")
    if not single:
        out.append("#   (nobody free to marry)")
    out += ["", f"# Command: men of {dyn.compulsory_age} and more are assigned automatically "
            "if you say nothing."]
    units = faction_units(state, house)
    for p in sorted(state.living(), key=lambda p: p.seq):
        if p.dynasty == house and p.sex == Sex.MALE and not p.unit and not p.prisoner_of \
                and p.age(year_end) >= dyn.voluntary_age and not reigns(state, p.id):
            due = must_command(state, p, p.age(year_end), dyn.compulsory_age)
            target = min(units, key=lambda u: (len(u.commanders), u.id)).id if units else "?"
            out.append(f"# assign {_ref(state, p.id)} to {target}   # {label(p)}"
                       f"{' (must command)' if due else ' (may command)'}")
    for u in units:
        names = ", ".join(label(state.persons[c]) for c in u.commanders) or "no commander"
        out.append(f"#   unit {u.id} ({u.type}): {names}")
    prisoners = sorted((p for p in state.living() if p.prisoner_of == house), key=lambda p: p.seq)
    out += ["", "# Prisoners you hold: release [ransom N] | execute | keep (the default)."]
    for p in prisoners:
        out.append(f"# prisoner {_ref(state, p.id)} keep   # {label(p)}")
    ours = sorted((p for p in state.living() if p.dynasty == house and p.prisoner_of),
                  key=lambda p: p.seq)
    for p in ours:
        out.append(f"# pay ransom {_ref(state, p.id)} 20   # {label(p)}, held by {p.prisoner_of}")
    if not prisoners and not ours:
        out.append("#   (no prisoners)")
    return "\n".join(out) + "\n"


def _attempts(count: int) -> str:
    return f"{count} attempt{'' if count == 1 else 's'}"


def _either(choices: list[str]) -> str:
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def _ref(state: GameState, pid: str) -> str:
    person = state.persons[pid]
    if person.refs:
        return sorted(person.refs.values())[0]
    return f'"{person.name}"'

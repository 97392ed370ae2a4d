"""The sentences of the events every ruleset may record: the arbiter's rulings.

A ruling's sentence depends on its directive; each ruleset's sentences
register their own directives with ``directive``.
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import Markup

from adjudicator.events import Ruling
from chronicle.errors import NarrationError
from chronicle.narration.narrator import Narrator, Payload, Sentence, load_all, says

#: A directive -> the sentence telling its ruling; a ruleset's module adds its own.
DIRECTIVES: dict[str, Sentence] = {}


def directive(*names: str) -> Callable[[Sentence], Sentence]:
    """Register the decorated function as the sentence of the rulings ``names``."""
    def register(sentence: Sentence) -> Sentence:
        for name in names:
            if name in DIRECTIVES:
                raise TypeError(f"the directive {name!r} has two sentences")
            DIRECTIVES[name] = sentence
        return sentence
    return register


@says(Ruling)
def ruling(n: Narrator, pl: Payload) -> Markup | None:
    """The arbiter's rulings are part of the chronicle (DESIGN.md "Arbiter directives")."""
    sentence = DIRECTIVES.get(str(pl["directive"]))
    if sentence is None:
        # A ruleset's own directive ("control") is told by its module, which loads
        # with the first of its events told; a ruling comes first in a turn.
        load_all()
        sentence = DIRECTIVES.get(str(pl["directive"]))
    if sentence is None:
        raise NarrationError(f"no sentence for the arbiter's directive {pl['directive']!r}")
    return sentence(n, pl)

"""Events told as sentences: one narrator for the site and the private reports.

``narrator`` holds the ``Narrator`` and the registry of sentences; each
ruleset's module below fills the registry for its own event classes, and
``plain`` tells a turn's events as text for the reports and the terminal.
A ruleset's sentences load the first time one of its events is told
(``event_class``): its descriptor names them (``Descriptor.sentences``).
Importing this package checks the registry for the engines loaded so far:
a public event class without a sentence fails here, not on a page
(tests/test_narration.py checks every ruleset's).
"""

from __future__ import annotations

from chronicle.errors import NarrationError
from chronicle.narration.narrator import (
    IN_A_LIFE,
    ROOT,
    SENTENCES,
    CardNote,
    Glossary,
    Narrator,
    in_a_life,
    says,
    told_elsewhere,
)
from chronicle.narration.narrator import missing as _missing

__all__ = ["IN_A_LIFE", "ROOT", "SENTENCES", "CardNote", "Glossary", "NarrationError",
           "Narrator", "in_a_life", "says", "told_elsewhere"]

if _missing():
    raise TypeError("event classes without a sentence: "
                    + ", ".join(cls.__name__ for cls in _missing()))

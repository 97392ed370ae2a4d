"""Events told as sentences: one narrator for the site and the private reports.

``narrator`` holds the ``Narrator`` and the registry of sentences; each
ruleset's module below fills the registry for its own event classes, and
``plain`` tells a turn's events as text for the reports and the terminal.
The common events' sentences (``dynasty``) load with this package; a
ruleset's own, the first time one of its events is told (``event_class``).
Importing this package checks the registry for the engines loaded so far:
a public event class without a sentence fails here, not on a page
(tests/test_narration.py checks every ruleset's).
"""

from __future__ import annotations

# Imported for what it does: it fills SENTENCES with the common events' sentences.
from chronicle.narration import dynasty  # noqa: F401
from chronicle.narration.narrator import (
    IN_A_LIFE,
    ROOT,
    SENTENCES,
    CardNote,
    Glossary,
    NarrationError,
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

"""When two names are the same name (DESIGN.md "Orders": a person's unique name).

Players name people in quotes, so a name must not pass for another: ``Edwаrd``
with a Cyrillic ``а`` beside ``Edward`` would let one house's orders, or the
chronicle's readers, take one person for the other. ``name_key`` is a
confusable skeleton in the manner of Unicode TR39: NFKC (fullwidth letters,
ligatures, the long s), then every look-alike letter replaced by the Latin
letter it imitates, then case folded. Two names with one key are one name.

The table is ours and small: the published packages either only detect
mixed scripts or are no longer kept up, and the names of these games are
Latin-script names. It holds the Cyrillic and Greek letters drawn like Latin
ones and the Latin letters drawn like others (dotless i, script g, alpha-like
a). Characters drawn as nothing (``hidden``) are dropped.
"""

from __future__ import annotations

import unicodedata

from adjudicator.orders import hidden

_LOOK_ALIKES = {
    # Cyrillic capitals and small letters
    "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
    "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q",
    "Ԝ": "W", "Ү": "Y", "Ӏ": "I", "Ԁ": "D",
    "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "ѕ": "s",
    "і": "i", "ј": "j", "ԁ": "d", "һ": "h", "ӏ": "l", "ԛ": "q", "ԝ": "w", "ү": "y",
    # Greek capitals and small letters
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
    "α": "a", "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "υ": "u",
    # Latin letters drawn like other Latin letters
    "ı": "i", "ɡ": "g", "ɑ": "a", "ǀ": "l",
}
_TABLE = str.maketrans(_LOOK_ALIKES)


def name_key(name: str) -> str:
    """The skeleton that two names share when they look alike (or differ in case)."""
    if name.isascii() and name.isprintable():
        # No look-alike, hidden or compatibility character is ASCII: only case
        # is left, and the key of every name in the chronicle is made per turn.
        return name.lower()
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if not hidden(ch))
    # Mapped before and after folding: a capital's small letter may be the look-alike.
    return text.translate(_TABLE).casefold().translate(_TABLE)

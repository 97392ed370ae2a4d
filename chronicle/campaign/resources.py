"""Where the installed content packs and themes are (package data).

The checkout keeps them at its top (``content/``, ``themes/``); an install,
editable or from a wheel, maps them to ``chronicle.content`` and
``chronicle.themes``, so the same lookup serves a checkout, ``pip install .``,
a wheel and ``pipx``. They are read as files (Jinja's loader and the theme
layers need paths), so a zipped install is not supported.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from chronicle.i18n.localnames import check_names


@cache
def content_dir() -> Path:
    """The content packs' folder: ``rulesets/`` and what lies beside it."""
    return Path(str(files("chronicle.content")))


@cache
def themes_dir() -> Path:
    """The installed themes, one folder each."""
    return Path(str(files("chronicle.themes")))


def rulesets_dir() -> Path:
    return content_dir() / "rulesets"


def ruleset_table(*parts: str) -> dict[str, Any]:
    """One TOML file of the installed content packs, e.g. ``("westeros", "world.toml")``.

    These files ship with the program: an error in their TOML is a bug, not
    the arbiter's input, so it is not dressed as a refusal. Their names in
    other languages are checked all the same (``check_names``: a
    ``ContentError`` naming the file and line), as someone translating a
    pack edits them by hand.
    """
    text = rulesets_dir().joinpath(*parts).read_text("utf-8")
    table = tomllib.loads(text)
    check_names(table, text, "/".join(parts))
    return table

"""Every user-facing string goes through gettext; the French catalog is complete."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po
from repo_paths import REPO
from site_fixture import build_fixture

from chronicle.i18n.catalogue import catalog_path, translations
from chronicle.site import build_site

ROOT = REPO


#: ``_("...")`` with a literal, which Babel's extractor misses inside an f-string.
_CALL = re.compile(r"""\b_\((?:"([^"\\]+)"|'([^'\\]+)')\)""")


def extracted() -> set[str | tuple[str, str]]:
    """The msgids of the generator's code, of the narrator, of the command line
    (issue 19: "command-line messages go through the catalogue") and of the
    default theme's and the rulesets' templates."""
    keywords = {**DEFAULT_KEYWORDS, "fmt": None, "n_fmt": (1, 2), "say": None}
    found: set[str | tuple[str, str]] = set()
    for folder in ("chronicle/publish", "chronicle/narration"):
        for path in (ROOT / folder).rglob("*.py"):
            found.update(a or b for a, b in _CALL.findall(path.read_text(encoding="utf-8")))
    sources = ((ROOT / "chronicle/publish", [("**.py", "python")]),
               (ROOT / "chronicle/narration", [("**.py", "python")]),
               # The private reports, their rulesets' sections and the order templates
               # are in the campaign's language too (issue 17 item 7).
               (ROOT / "chronicle", [("reports.py", "python"), ("rulesets/**.py", "python")]),
               (ROOT / "adjudicator/rulesets", [("**/template.py", "python")]),
               (ROOT / "chronicle", [("cli.py", "python"), ("mail/**.py", "python")]),
               (ROOT / "themes/default/templates", [("**.html", "jinja2")]),
               (ROOT / "chronicle/rulesets", [("*/templates/**.html", "jinja2")]))
    for folder, method_map in sources:
        options = {"**.html": {"extensions": "jinja2.ext.i18n", "trim_blocks": "true",
                               "lstrip_blocks": "true"}}
        for _file, _line, message, _comments, _context in extract_from_dir(
                str(folder), method_map, keywords=keywords, options_map=options):
            found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def test_french_catalog_translates_every_string() -> None:
    with catalog_path("fr").open("rb") as fh:
        catalog = read_po(fh)
    translated = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog
                  if m.id and m.string and (isinstance(m.string, str) or all(m.string))}
    assert extracted() - translated == set()


@pytest.mark.parametrize("text", ["Houses", "Round %(n)s", "natural causes"])
def test_french_translations_keep_their_placeholders(text: str) -> None:
    french = translations("fr").gettext(text)
    assert french != text
    assert re.findall(r"%\((\w+)\)s", text) == re.findall(r"%\((\w+)\)s", french)


def test_a_french_campaign_publishes_in_french(tmp_path: Path) -> None:
    campaign = build_fixture(tmp_path / "guerre", turns=2, language="fr", slug="guerre")
    build_site([campaign], tmp_path / "site")
    home = (tmp_path / "site/guerre/index.html").read_text(encoding="utf-8")
    assert '<html lang="fr">' in home and "Souverains" in home and "Rulers" not in home

"""The engine's reasons and private notices in the campaign's language.

Issue 17 item 7, "Reports and templates are in the campaign's language", and its
last gap: the rules engine's rejection reasons and private notices. The engine
gives each as a template and its values (adjudicator/messages.py); the store
and the JSON export keep the English text (DESIGN.md "JSON export"), and the
reports, ``check``, ``adjudicate`` and ``status`` show it translated.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import sqlite3
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from cli_support import run
from repo_paths import REPO

from adjudicator.messages import Message, Name, either, msg, msg_in
from adjudicator.orders import Rejection, parse_orders
from adjudicator.rulesets.blood_royale.ruleset import BLOOD_ROYALE_GRAMMAR
from chronicle.i18n.catalogue import catalog_path
from chronicle.i18n.localnames import LocalNames
from chronicle.i18n.reasons import engine_words, rejected_line

ROOT = REPO
KEYWORDS = {"msg": None, "msg_in": ((1, "c"), 2)}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _engine_templates() -> set[tuple[str | None, str]]:
    """Every template the engine writes a reason or a notice with: (context, msgid)."""
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
            str(ROOT / "adjudicator"), [("**.py", "python")], keywords=KEYWORDS):
        found.add((context, message))
    return found


def test_every_message_call_of_the_engine_has_a_literal_template() -> None:
    """The catalogue can only hold what the extractor sees: a template written as a
    literal string in the call (a variable or an f-string would escape it)."""
    bad = []
    for path in sorted((ROOT / "adjudicator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KEYWORDS):
                continue
            literals = node.args[: 2 if node.func.id == "msg_in" else 1]
            if not all(isinstance(a, ast.Constant) and isinstance(a.value, str)
                       for a in literals):
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert bad == []
    assert len(_engine_templates()) > 200


def test_every_engine_message_has_a_french_translation_with_its_blanks() -> None:
    """Issue 17: "every engine message template has a French translation" — and the
    translation fills the same blanks, so that it can be filled at all."""
    with catalog_path("fr").open("rb") as fh:
        catalogue = {(m.context, m.id): m.string for m in read_po(fh) if m.id}
    missing, unlike = [], []
    for key in sorted(_engine_templates(), key=lambda k: (k[0] or "", k[1])):
        french = catalogue.get(key)
        if not french:
            missing.append(key)
        elif sorted(PLACEHOLDER.findall(key[1])) != sorted(PLACEHOLDER.findall(str(french))):
            unlike.append(key)
    assert missing == [] and unlike == []


def test_a_message_is_its_english_sentence() -> None:
    """English output does not change: a message is the very text the engine wrote
    before, as its ``str`` and as the stored and exported text."""
    province = Name("province", "anjou", "Anjou")
    reason = msg("%(province)s is not in revolt", province=province)
    assert reason == "Anjou is not in revolt" and isinstance(reason, str)
    assert json.dumps({"reason": reason}) == '{"reason": "Anjou is not in revolt"}'
    assert str(either(["keep", "release"])) == "'keep' or 'release'"
    listed = msg("units of %(houses)s stand in %(province)s",
                 houses=(Name("house", "england", "england"), Name("house", "spain", "spain")),
                 province=province)
    assert listed == "units of england, spain stand in Anjou"
    line = Rejection("england.orders", 4, "pay revolt anjou", reason, "england")
    assert str(line) == "england.orders:4: pay revolt anjou: Anjou is not in revolt"
    assert rejected_line(line, engine_words("en")) == str(line)


def test_french_names_contractions_and_nested_messages() -> None:
    """The values that are names are shown in the reader's language: houses and
    provinces by the pack's ``name_fr``, unit types by the catalogue; "en" before a
    name with its own article becomes "dans le" (chronicle/i18n/grammar.py)."""
    names = LocalNames(by_kind={"house": {"england": "la Maison Plantagenêt"},
                                "province": {"strait": "Le Détroit de Gibraltar",
                                             "anjou": "Anjou"}},
                       catalogued={"unit-type": "unit type"})
    say = engine_words("fr", names)
    stopped = msg("units of %(houses)s stand in %(province)s",
                  houses=(Name("house", "england", "england"),),
                  province=Name("province", "strait", "Strait of Gibraltar"))
    assert say(stopped) == ("des unités de la Maison Plantagenêt se tiennent "
                            "dans le Détroit de Gibraltar")
    fleet = msg("%(province)s has no coast for a %(type)s",
                province=Name("province", "anjou", "Anjou"),
                type=Name("unit-type", "fleet", "fleet"))
    assert say(fleet) == "Anjou n’a pas de côte pour une unité de type flotte"
    unit = msg("%(what)s has %(legs)s legs, but a turn has %(rounds)s rounds",
               what=msg_in("subject", "unit %(unit)s", unit="E-1"), legs=3, rounds=2)
    assert say(unit) == "l’unité E-1 compte 3 étapes, mais un tour n’a que 2 manches"
    assert str(unit) == "unit E-1 has 3 legs, but a turn has 2 rounds"
    # Not a message (a chronicle-side text): shown as it is.
    assert say("england.orders: not UTF-8 text") == "england.orders: not UTF-8 text"


def test_player_text_in_a_reason_is_shown_visibly_in_every_language() -> None:
    """A reason quoting a hidden character spells it out (an echoed line must read as
    it is: a right-to-left override could disguise it); the French reason keeps that."""
    bad = parse_orders("house england\ntax \u202esometimes\n", BLOOD_ROYALE_GRAMMAR,
                       filename="england.orders").rejections[0]
    assert isinstance(bad.reason, Message) and "\\u202e" in bad.reason
    assert "\\u202e" in engine_words("fr")(bad.reason)
    assert "\u202e" not in engine_words("fr")(bad.reason)


ORDERS = """house england
move E-1 to nowhere
move E-9 to normandy
raise 3 in normandy
frobnicate
tax sometimes
pay 5000 crowns to france
split 9 from E-1
marry "Nobody" to "Someone"
raise 1 fleet in anjou
"""
FRENCH = ["il n’existe aucune province 'nowhere'", "il n’existe aucune unité E-9",
          "Normandie n’est pas une province de votre royaume",
          "ordre inconnu 'frobnicate' (ordres connus : ",
          "on attendait 'normal' ou 'extraordinary', et non 'sometimes'",
          "le trésor contient 150 couronnes, il en faut 5000",
          "personne ne s’appelle 'Nobody'"]


def _english_fragments() -> set[str]:
    """The words of the engine's templates between their blanks, long enough to be
    English only (the order language's words, quoted, are the same in French)."""
    found = set()
    for _context, template in _engine_templates():
        for piece in PLACEHOLDER.split(template)[::2]:
            piece = piece.strip(" :;,()")
            if len(piece) >= 12 and " " in piece and "'" not in piece and "<" not in piece:
                found.add(piece)
    return found


def _language(root: Path, language: str) -> None:
    toml = root / "campaign.toml"
    text = re.sub(r'(?m)^language = ".*"$', f'language = "{language}"',
                  toml.read_text(encoding="utf-8"))
    toml.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def campaigns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same Blood Royale turn with refused orders, in an English and a French campaign."""
    base = tmp_path_factory.mktemp("reasons")
    english = base / "en"
    assert run("new", english, "--ruleset", "blood-royale", "--seed", "reasons").exit_code == 0
    folder = english / "orders" / "turn-001"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "england.orders").write_text(ORDERS, encoding="utf-8")
    (folder / "france.orders").write_text("house england\n", encoding="utf-8")
    french = base / "fr"
    shutil.copytree(english, french)
    _language(french, "fr")
    return {"en": english, "fr": french}


def test_check_of_a_french_campaign_gives_the_reasons_in_french(
        campaigns: dict[str, Path]) -> None:
    """Issue 17: "a French campaign's ... `check` output of orders with refused orders
    contain the French reasons and none of the English templates"; each line still
    ``file:line: text: reason`` (DESIGN.md "Errors")."""
    english, french = run("check", campaigns["en"]), run("check", campaigns["fr"])
    assert english.exit_code == french.exit_code == 1
    assert ("england.orders:4: raise 3 in normandy: Normandy is not a province of your "
            "home kingdom") in english.output
    assert "england.orders:4: raise 3 in normandy: Normandie n’est pas" in french.output
    assert ("france.orders:1: ce fichier se dit de la maison 'england', mais il a été "
            "classé comme 'france'") in french.output
    assert "tour 1 : 2 fichiers d’ordres, 1 lignes acceptées, 8 refusées" in french.output
    for text in FRENCH[:5]:
        assert text in french.output
    leaked = [f for f in _english_fragments() if f in french.output]
    assert leaked == []
    # ``status`` quotes why a file is refused, in French too.
    status = run("status", campaigns["fr"]).output
    assert ("france: ordres refusés le " in status and "(france.orders:1: ce fichier se dit "
            "de la maison 'england', mais il a été classé comme 'france')" in status)
    # The same look finds them in the English campaign's check.
    assert len([f for f in _english_fragments() if f in english.output]) >= 5


def test_a_french_report_gives_the_reasons_in_french_and_the_store_keeps_english(
        campaigns: dict[str, Path]) -> None:
    """Issue 17 item 7 in a French campaign: the house's report and the arbiter's, and
    ``adjudicate``'s summary, give the engine's reasons in French; the store keeps the
    English text, as the export does (DESIGN.md "JSON export" does not change)."""
    for language, root in campaigns.items():
        (root / "orders" / "turn-001" / "france.orders").unlink(missing_ok=True)
        done = run("adjudicate", root, "--yes")
        assert done.exit_code == 0, done.output
        if language == "fr":
            summary = done.output
    report = (campaigns["fr"] / "reports" / "turn-001" / "england.md").read_text(
        encoding="utf-8")
    arbiter = (campaigns["fr"] / "reports" / "turn-001" / "arbiter.md").read_text(
        encoding="utf-8")
    for text in FRENCH:
        assert text in report and text in arbiter and text in summary
    for fragment in _english_fragments():
        assert fragment not in report and fragment not in arbiter and fragment not in summary
    stored = {}
    for language, root in campaigns.items():
        with sqlite3.connect(root / "chronicle.sqlite") as db:
            stored[language] = sorted(db.execute("SELECT file, line, reason FROM rejections"))
    assert stored["fr"] == stored["en"]
    assert ("england.orders", 7, "the treasury holds 150 crowns, 5000 needed") in stored["fr"]


def test_private_notices_are_in_french_in_a_french_report(tmp_path: Path) -> None:
    """The engine's private notices ("For your eyes only") in a French campaign's
    reports: the demo's moves that ended short and units gone before they moved."""
    root = tmp_path / "demo"
    assert run("demo", "--turns", "5", "--out", root, "--no-site").exit_code == 0
    _language(root, "fr")
    assert run("reports", root, "--turn", "5").exit_code == 0
    report = (root / "reports" / "turn-005" / "italy.md").read_text(encoding="utf-8")
    notices = report.split("## Pour vous seul\n")[1].split("\n\n")[0]
    assert "l’unité I-4 n’existe plus" in notices
    assert "le tour s’est achevé avec encore 1 province à parcourir (dernier arrêt : " \
           "des unités de la Maison Plantagenêt se tiennent dans le Détroit de Gibraltar)" \
           in notices
    assert "no longer exists" not in report and "still to go" not in report
    with sqlite3.connect(root / "chronicle.sqlite") as db:
        texts = [json.loads(p)["text"] for (p,) in
                 db.execute("SELECT payload FROM events WHERE kind = 'notice'")]
    assert any(t.endswith(": unit I-4 no longer exists") for t in texts)


def _documented_directives() -> list[str]:
    """The directive lines of docs/orders.md's arbiter example, and ``control``."""
    text = (ROOT / "docs" / "orders.md").read_text(encoding="utf-8")
    block = text.split("```orders-arbiter\n")[1].split("```")[0]
    lines = [ln.split("#")[0].strip() for ln in block.splitlines()[1:]]
    return [ln for ln in lines if ln] + ["control normandy by england"]


def test_les_familles_nobles_refuses_each_arbiter_directive_with_its_reason(
        tmp_path: Path) -> None:
    """Issue 17: in *Les familles nobles* "an arbiter file is read with the players'
    grammar, so `control` there is refused as an unknown order rather than with a
    reason of its own". DESIGN.md "Arbiter directives": the file holds the directives;
    this game has no people, units, treasuries or provinces to rule on, so each is
    refused as ``file:line: text: reason``, the reason its own (in French too)."""
    root = tmp_path / "familles"
    assert run("new", root, "--ruleset", "familles", "--seed", "arbiter").exit_code == 0
    folder = root / "orders" / "turn-001"
    folder.mkdir(parents=True, exist_ok=True)
    directives = _documented_directives()
    assert {d.split()[0] for d in directives} >= {"kill", "retreat", "grant", "control"}
    (folder / "arbiter.orders").write_text(
        "house arbiter\n" + "\n".join(directives) + "\nshuffle the deck\n", encoding="utf-8")
    checked = run("check", root)
    assert checked.exit_code == 1
    lines = checked.output.splitlines()
    for number, directive in enumerate(directives, start=2):
        line = next(ln for ln in lines if ln.startswith(f"arbiter.orders:{number}: "))
        assert line.startswith(f"arbiter.orders:{number}: {directive}: ")
        assert "unknown order" not in line and "Les familles nobles" in line
    assert ("arbiter.orders:2: kill E1000 cause \"fell from his horse\": 'kill' rules on a "
            "person, and Les familles nobles has none: its cards are not people") in lines
    assert (f"arbiter.orders:{len(directives) + 1}: control normandy by england: Les "
            "familles nobles has no provinces: there is no control to rule") in lines
    # What is no directive at all is still an unknown order.
    assert any(ln.startswith(f"arbiter.orders:{len(directives) + 2}: shuffle the deck: "
                             "unknown order 'shuffle'") for ln in lines)
    _language(root, "fr")
    french = run("check", root).output
    assert ("Les familles nobles n’ont pas de provinces : il n’y a pas de contrôle à "
            "décider") in french
    assert "« kill » décide du sort d’une personne" in french and "rules on" not in french
    # The turn is adjudicated all the same: the refused lines are skipped.
    assert run("adjudicate", root, "--yes").exit_code == 0

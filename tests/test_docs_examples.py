"""The order examples of the player documentation parse and validate.

DESIGN.md, "Orders (contract)": "Plain text, one order per line, `#` starts a
comment. [...] Every rejected line is reported with its file, line number,
the text and the reason."

The documentation shows players what to write, so every example it shows
must be a line the adjudicator accepts. A fenced block is checked when its
language tag names a grammar:

* ```` ```orders ````: dynasty orders, valid in every dynastic ruleset;
* ```` ```orders-blood-royale ````: a Blood Royale house's file;
* ```` ```orders-arbiter ````: the arbiter's directives;
* ```` ```orders-arbiter-blood-royale ````: the directives of Blood Royale alone;
* ```` ```orders-familles ````: the moves of Les familles nobles;
* ```` ```rejections-blood-royale ````: ``file:line: text: reason`` lines that
  a fresh Blood Royale campaign must refuse, with exactly these reasons.

Blocks without a ``house`` line are checked as if one preceded them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from adjudicator.dice import SeededDice
from adjudicator.dynastic import orders as dynasty_orders
from adjudicator.dynastic import rulings as dynasty_rulings
from adjudicator.orders import Grammar, Order, OrderSheet, parse_orders
from adjudicator.rulesets import Ruleset
from adjudicator.rulesets.blood_royale import battle_orders as br_battle_orders
from adjudicator.rulesets.blood_royale import orders as br_orders
from adjudicator.rulesets.blood_royale import rulings as br_rulings
from adjudicator.rulesets.blood_royale.standing import EndKind, Stance
from adjudicator.rulesets.familles import moves as familles_moves
from adjudicator.state import GameState
from chronicle.campaign.folder import load_rules
from chronicle.campaign.scaffold import campaign_spec
from chronicle.rulesets import descriptor

DOCS = Path(__file__).resolve().parent.parent / "docs"
DOC_FILES = ("orders.md", "players.md")
FENCE = re.compile(r"^```\s*([\w-]*)\s*$")
SAMPLE_HEADING = "### A complete order file"

# tag -> (ruleset, house whose grammar reads the block), one pair per grammar to try
GRAMMARS: dict[str, tuple[tuple[str, str], ...]] = {
    "orders": (("dynasty", "england"), ("blood-royale", "england")),
    "orders-blood-royale": (("blood-royale", "england"),),
    "orders-arbiter": (("dynasty", "arbiter"), ("blood-royale", "arbiter")),
    "orders-arbiter-blood-royale": (("blood-royale", "arbiter"),),
    "orders-familles": (("familles", "alice"),),
}
REJECTIONS_TAG = "rejections-blood-royale"


@dataclass(frozen=True)
class Block:
    doc: str
    tag: str
    start: int  # the document line of the block's first content line
    lines: tuple[str, ...]

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.start}"


def fenced_blocks(doc: str) -> list[Block]:
    """Every fenced block of ``docs/<doc>`` with its tag and position."""
    text = (DOCS / doc).read_text(encoding="utf-8").split("\n")
    blocks: list[Block] = []
    tag: str | None = None
    start = 0
    body: list[str] = []
    for number, line in enumerate(text, start=1):
        match = FENCE.match(line)
        if tag is None and match:
            tag, start, body = match.group(1), number + 1, []
        elif tag is not None and line.strip() == "```":
            blocks.append(Block(doc, tag, start, tuple(body)))
            tag = None
        elif tag is not None:
            body.append(line)
    assert tag is None, f"docs/{doc}: a fenced block is not closed"
    return blocks


def all_blocks() -> list[Block]:
    return [b for doc in DOC_FILES if (DOCS / doc).exists() for b in fenced_blocks(doc)]


def checked_blocks() -> list[Block]:
    return [b for b in all_blocks() if b.tag in GRAMMARS]


@cache
def ruleset(ruleset_id: str) -> Ruleset:
    spec = {"world": "blood-royale"} if ruleset_id == "blood-royale" else {}
    return descriptor(ruleset_id).engine(load_rules(ruleset_id, spec))


def blood_royale_start() -> GameState:
    """A fresh Blood Royale campaign, before turn 1, as ``chronicle new`` makes it."""
    spec = campaign_spec("blood-royale", world=None, title=None, seed="x")
    return ruleset("blood-royale").setup(spec, SeededDice("x", 0))


def as_file(block: Block, house: str) -> tuple[str, int]:
    """The block as an order file, and how many lines were added in front of it."""
    first = next((ln.split("#")[0].split() for ln in block.lines
                  if ln.split("#")[0].strip()), [])
    if first[:1] and first[0].lower() == "house":
        return "\n".join(block.lines), 0
    return "\n".join([f"house {house}", *block.lines]), 1


def parse_block(block: Block, ruleset_id: str, house: str) -> tuple[OrderSheet, int]:
    text, added = as_file(block, house)
    grammar: Grammar = ruleset(ruleset_id).grammar_for(house)
    sheet = parse_orders(text, grammar, filename=f"{house}.orders", expected_house=None)
    return sheet, added


def explain(sheet: OrderSheet, block: Block, added: int) -> list[str]:
    return [f"docs/{block.doc}:{block.start + r.line - 1 - added}: {r.text}: {r.reason}"
            for r in sheet.rejections]


@pytest.mark.parametrize("block", checked_blocks(), ids=lambda b: f"{b.where}-{b.tag}")
def test_design_orders_every_documented_example_parses(block: Block) -> None:
    """DESIGN.md "Orders": "People are named by reference number (`E1100`) or by
    their unique name in quotes" — and every line the docs show is a valid order."""
    for ruleset_id, house in GRAMMARS[block.tag]:
        sheet, added = parse_block(block, ruleset_id, house)
        assert sheet.refused is None, f"{block.where} ({ruleset_id}): {sheet.refused}"
        assert not sheet.rejections, f"{ruleset_id}: " + "; ".join(explain(sheet, block, added))
        assert sheet.orders, f"{block.where}: the block holds no order"


def _documented_orders() -> dict[str, list[Order]]:
    found: dict[str, list[Order]] = {}
    for block in checked_blocks():
        ruleset_id, house = GRAMMARS[block.tag][-1]
        sheet, _ = parse_block(block, ruleset_id, house)
        found.setdefault(block.tag, []).extend(sheet.orders)
    return found


def _order_classes(*modules: object) -> set[type[Order]]:
    return {value for module in modules for value in vars(module).values()
            if isinstance(value, type) and issubclass(value, Order) and value is not Order
            and value.__module__ == getattr(module, "__name__", None)}


def test_design_orders_every_kind_of_order_has_an_example() -> None:
    """DESIGN.md "Orders": the docs are "the whole order language": each kind of
    order of each grammar appears in at least one checked example."""
    documented = _documented_orders()
    shown = {type(o) for orders in documented.values() for o in orders}
    expected = (_order_classes(dynasty_orders, br_orders, br_battle_orders, familles_moves,
                               dynasty_rulings, br_rulings))
    assert expected - shown == set()
    end_kinds = {o.kind for o in documented["orders-blood-royale"]
                 if isinstance(o, br_battle_orders.EndOrder)}
    assert end_kinds == set(EndKind)
    stances = {o.stance for o in documented["orders-blood-royale"]
               if isinstance(o, br_battle_orders.StanceOrder)}
    assert stances == set(Stance)
    passages = {o.allowed for o in documented["orders-blood-royale"]
                if isinstance(o, br_orders.PassageOrder)}
    assert passages == {True, False}


def sample_block() -> Block:
    """The fenced block right after the heading of the complete sample file."""
    text = (DOCS / "orders.md").read_text(encoding="utf-8").split("\n")
    heading = next(i for i, line in enumerate(text, start=1) if line.startswith(SAMPLE_HEADING))
    return next(b for b in fenced_blocks("orders.md") if b.start > heading)


def test_b2_complete_sample_file_is_obeyed_in_a_fresh_campaign() -> None:
    """RULES.md B2: "One order deadline per turn. Each house's orders cover the
    whole turn." The documented sample file validates against a fresh Blood
    Royale campaign, and a whole turn played with it refuses none of its lines."""
    block = sample_block()
    assert block.tag == "orders-blood-royale"
    state = blood_royale_start()
    br = ruleset("blood-royale")
    sheet, _ = parse_block(block, "blood-royale", "england")
    assert sheet.house == "england" and sheet.refused is None
    parsed = len(sheet.orders)
    br.validate(state, {"england": sheet})
    assert not sheet.rejections, "; ".join(explain(sheet, block, 0))
    assert len(sheet.orders) == parsed >= 20
    played, _ = parse_block(block, "blood-royale", "england")
    result = br.resolve(state, {"england": played}, SeededDice("x", 1))
    assert [str(r) for r in result.rejections] == []
    units = {u.id: u for u in result.state.units.values() if u.house == "england"}
    assert {uid: (u.type, u.armies) for uid, u in units.items()} == {
        "E-1": ("army", 6), "E-2": ("fleet", 2), "E-3": ("army", 2)}


LISTED = re.compile(r"^(?P<file>[\w.-]+):(?P<line>\d+): (?P<text>.*?): (?P<reason>.*)$")


def test_b4_documented_rejections_are_the_adjudicators() -> None:
    """DESIGN.md "Orders": "Every rejected line is reported with its file, line
    number, the text and the reason." The typical rejections the docs list are
    exactly those a fresh Blood Royale campaign gives for those lines."""
    blocks = [b for b in all_blocks() if b.tag == REJECTIONS_TAG]
    assert blocks, f"no ```{REJECTIONS_TAG} block in the docs"
    br = ruleset("blood-royale")
    for block in blocks:
        listed = []
        for entry in block.lines:
            match = LISTED.match(entry)
            assert match, f"{block.where}: not a 'file:line: text: reason' line: {entry!r}"
            listed.append((match["file"], int(match["line"]), match["text"], match["reason"]))
        files = {f for f, *_ in listed}
        assert files == {"england.orders"}, files
        lines = ["house england"] + [""] * max(n for _, n, _, _ in listed)
        for _, number, text, _ in listed:
            lines[number - 1] = text
        for number, text in _accepted_lines(block):
            lines[number - 1] = text
        sheet = parse_orders("\n".join(lines), br.grammar_for("england"),
                             filename="england.orders", expected_house="england")
        br.validate(blood_royale_start(), {"england": sheet})
        got = sorted((r.file, r.line, r.text, r.reason) for r in sheet.rejections)
        assert got == sorted(listed)


ACCEPTED = re.compile(r"Lines? (?P<numbers>[\d, and]+), (?P<texts>(?:`[^`]+`(?:,| and)? ?)+)"
                      r" (?:was|were) accepted")


def _accepted_lines(block: Block) -> list[tuple[int, str]]:
    """The lines the text after the block says were accepted ("Lines 11 and 23, `…`
    and `…`, were accepted."), so the checked file is the one the docs describe."""
    text = (DOCS / block.doc).read_text(encoding="utf-8").split("\n")
    after = " ".join(text[block.start + len(block.lines): block.start + len(block.lines) + 4])
    match = ACCEPTED.search(after)
    if match is None:
        return []
    numbers = [int(n) for n in re.findall(r"\d+", match["numbers"])]
    texts = re.findall(r"`([^`]+)`", match["texts"])
    assert len(numbers) == len(texts), match.group(0)
    return list(zip(numbers, texts, strict=True))

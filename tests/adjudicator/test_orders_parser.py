"""The order language (DESIGN.md "Orders"): parse_orders never raises, rejections carry
the right line numbers, and validate/resolve survive whatever parses."""

from __future__ import annotations

import re

import pytest
from dynasty_helpers import build, two_houses
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.dice import SeededDice
from adjudicator.dynastic.orders import (
    ARBITER_GRAMMAR,
    DYNASTY_GRAMMAR,
    BirthOrder,
    MarryOrder,
    NameOrder,
    PayRansomOrder,
    PrisonerOrder,
)
from adjudicator.orders import MAX_LINE, OrderSheet, parse_orders, visible

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])
KEYWORDS = ["house", "england", "france", "arbiter", "birth", "births", "attempts", "marry",
            "to", "with", "minor-nobility", "minor", "nobility", "children", "mother",
            "father", "renounce", "in", "assign", "lend", "prisoner", "release", "ransom",
            "execute", "keep", "pay", "name", "newborn", "son", "daughter", "of", "kill",
            "cause", "retreat", "by", "E", "F", "E1000", "E1100", "F1000", "F1a00", "E-1",
            "E-2", "F-1", "0", "1", "2", "3", "4", "40", "-1", "99999999999", '"Richard"',
            '"Queen of England"', '"', '""', "#", "“Jeanne”", "\t", "ÉDOUARD", "ß"]


def _lines(text: str) -> list[str]:
    """Lines as an editor counts them: only CR and LF end a line."""
    return re.split(r"\r\n|\r|\n", text)


def _check_sheet(text: str, sheet: OrderSheet) -> None:
    """Each rejection and order names a real line, and shows that line's text."""
    lines = _lines(text)
    for rejection in sheet.rejections:
        assert 1 <= rejection.line <= len(lines)
        shown = visible(lines[rejection.line - 1].strip())
        if len(shown) > MAX_LINE:
            shown = shown[:MAX_LINE] + "…"
        assert rejection.text == shown
        assert str(rejection).startswith(f"{sheet.file}:{rejection.line}: ")
    for order in sheet.orders:
        assert 1 <= order.line <= len(lines)
        assert order.text == visible(lines[order.line - 1].strip())
    numbers = [r.line for r in sheet.rejections] + [o.line for o in sheet.orders]
    assert len(numbers) == len(set(numbers)), "a line is both accepted and rejected"
    if sheet.refused is None:
        assert sheet.house  # a readable header was found


@FUZZ
@given(st.text())
def test_orders_random_text_never_raises(body: str) -> None:
    """DESIGN.md: rejected lines are skipped; parse_orders "never raises on bad text"."""
    for text in (body, "house england\n" + body):
        sheet = parse_orders(text, DYNASTY_GRAMMAR, filename="england.orders",
                             expected_house="england")
        _check_sheet(text, sheet)


@FUZZ
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=600))
def test_orders_random_unicode_never_raises(body: str) -> None:
    """Any Unicode, including surrogates-free controls and quotes, is handled."""
    text = "house arbiter\n" + body
    _check_sheet(text, parse_orders(text, ARBITER_GRAMMAR, filename="arbiter.orders",
                                    expected_house="arbiter"))


token_line = st.lists(st.sampled_from(KEYWORDS), min_size=0, max_size=9).map(" ".join)


@FUZZ
@given(st.lists(token_line, max_size=25), st.sampled_from(["\n", "\r\n"]))
def test_orders_keyword_soup_gives_orders_or_rejections(lines: list[str], eol: str) -> None:
    """Token soups from real keywords: every non-blank, non-comment line after the header
    becomes exactly one order or one rejection, on its own line number."""
    text = eol.join(["house england", *lines]) + eol
    sheet = parse_orders(text, DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    _check_sheet(text, sheet)
    expected = {n for n, line in enumerate(_lines(text), start=1)
                if n > 1 and line.split("#")[0].strip()}
    got = {r.line for r in sheet.rejections} | {o.line for o in sheet.orders}
    # a line whose only content is an unclosed quote before '#' is still rejected
    assert got <= set(range(2, len(_lines(text)) + 1))
    assert {n for n in expected if '"' not in _lines(text)[n - 1]
            and "“" not in _lines(text)[n - 1]} <= got


def test_orders_every_dynasty_order_parses() -> None:
    """DESIGN.md's example order file, line by line."""
    text = """house england
birth E1000 attempts 2                 # couple named by either spouse; 1..3, default 1
marry E1200 to F1a00                   # both houses must send the same line
marry E1300 to F1b00 children mother renounce F1b00 in F
marry E1400 to minor-nobility          # if the ruleset allows
renounce E1a00 in E
assign E1200 to E-2                    # commander to unit
prisoner F1300 release ransom 40       # or: execute | keep
name newborn of E1100 "Richard"        # optional names for this turn's births
lend E1500 to F-1
pay ransom E1600 25
BIRTH "Queen of England"
"""
    sheet = parse_orders(text, DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    assert sheet.rejections == []
    assert [o.line for o in sheet.orders] == list(range(2, 13))
    marry = sheet.orders[2]
    assert isinstance(marry, MarryOrder)
    assert (marry.children, marry.renounce) == ("mother", (("F1b00", "F"),))
    assert isinstance(sheet.orders[3], MarryOrder) and sheet.orders[3].second is None
    assert isinstance(sheet.orders[6], PrisonerOrder) and sheet.orders[6].ransom == 40
    assert isinstance(sheet.orders[7], NameOrder) and sheet.orders[7].names == ("Richard",)
    assert isinstance(sheet.orders[9], PayRansomOrder) and sheet.orders[9].amount == 25
    assert isinstance(sheet.orders[10], BirthOrder) and sheet.orders[10].attempts is None


def test_orders_arbiter_directives_parse() -> None:
    """DESIGN.md: `kill E1000 cause "fell from his horse"` and `retreat E-1 by F`."""
    text = 'house arbiter\nkill E1000 cause "fell from his horse"\nretreat e-1 by F\n'
    sheet = parse_orders(text, ARBITER_GRAMMAR, filename="arbiter.orders",
                         expected_house="arbiter")
    assert sheet.rejections == [] and len(sheet.orders) == 2
    assert sheet.orders[1].unit == "E-1"  # type: ignore[attr-defined]


def test_orders_misfiled_and_headerless_files_are_refused() -> None:
    """DESIGN.md: "The first non-comment line is `house <house-id>`; a file misfiled under
    another house is rejected." """
    sheet = parse_orders("# hi\nhouse france\nbirth E1000\n", DYNASTY_GRAMMAR,
                         filename="england.orders", expected_house="england")
    assert sheet.refused and "england.orders:2" in sheet.refused and not sheet.orders
    sheet = parse_orders("birth E1000\n", DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    assert sheet.refused and "house <house-id>" in sheet.refused
    sheet = parse_orders("", DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    assert sheet.refused == "england.orders: the file holds no 'house <house-id>' line"


def test_orders_keywords_are_case_insensitive_and_errors_name_the_line() -> None:
    """DESIGN.md: "Keywords are case-insensitive"; errors are `file:line: text: reason`."""
    text = "HOUSE England\nMarry E1100 TO F1a00\nassign E1100\nbirth E1000 attempts nine\n"
    sheet = parse_orders(text, DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    assert len(sheet.orders) == 1
    assert [str(r) for r in sheet.rejections] == [
        "england.orders:3: assign E1100: 'to' is missing",
        "england.orders:4: birth E1000 attempts nine: the number of attempts must be a whole "
        "number, not 'nine'"]


EDITOR_BREAKS = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("sep", EDITOR_BREAKS)
def test_orders_line_numbers_follow_the_file_newlines(sep: str) -> None:
    """DESIGN.md: "Every rejected line is reported with its file, line number". A line is
    ended by a newline (\\n, \\r\\n or \\r), as every editor and `open()` count them."""
    text = f"house england\nbirth E1000 {sep} attempts 2\nbirth E1000 attempts nine\n"
    sheet = parse_orders(text, DYNASTY_GRAMMAR, filename="england.orders",
                         expected_house="england")
    file_lines = re.split(r"\r\n|\r|\n", text)
    bad = [r for r in sheet.rejections if "attempts nine" in r.text]
    assert bad and file_lines[bad[0].line - 1] == "birth E1000 attempts nine"


# -- validation and resolution fuzz -----------------------------------------------------

RULESET, STATE = build(two_houses())
PEOPLE = [ref for p in STATE.persons.values() for ref in p.refs.values()] + \
    [f'"{p.name}"' for p in STATE.persons.values()] + ["E1100", "Z9999", '"Nobody"']
UNITS = ["E-1", "E-2", "F-1", "F-2", "X-1"]
DYNS = ["E", "F", "england", "france", "Q"]
NUMS = ["1", "2", "3", "0", "40", "100000"]


def _line(kind: str, draw: st.DrawFn) -> str:
    p = lambda: draw(st.sampled_from(PEOPLE))  # noqa: E731
    match kind:
        case "birth":
            return f"birth {p()} attempts {draw(st.sampled_from(['1', '2', '3']))}"
        case "marry":
            clause = draw(st.sampled_from(["", " children mother", " children father",
                                           f" renounce {p()} in {draw(st.sampled_from(DYNS))}"]))
            return f"marry {p()} to {draw(st.sampled_from([*PEOPLE, 'minor-nobility']))}{clause}"
        case "renounce":
            return f"renounce {p()} in {draw(st.sampled_from(DYNS))}"
        case "assign" | "lend":
            return f"{kind} {p()} to {draw(st.sampled_from(UNITS))}"
        case "prisoner":
            action = draw(st.sampled_from(["keep", "execute", "release",
                                           f"release ransom {draw(st.sampled_from(NUMS[1:]))}"]))
            return f"prisoner {p()} {action}"
        case "pay":
            return f"pay ransom {p()} {draw(st.sampled_from(NUMS[1:]))}"
        case "kill":
            return f'kill {p()} cause "fuzz"'
        case "retreat":
            return f"retreat {draw(st.sampled_from(UNITS))} by {draw(st.sampled_from(DYNS))}"
        case _:
            return f'name {draw(st.sampled_from(["newborn", "son", "daughter"]))} of {p()} "Fuzz"'


@st.composite
def order_sheets(draw: st.DrawFn) -> dict[str, str]:
    kinds = ["birth", "marry", "renounce", "assign", "lend", "prisoner", "pay", "name"]
    texts = {}
    for hid in ("england", "france"):
        n = draw(st.integers(0, 8))
        texts[hid] = "\n".join([f"house {hid}",
                                *(_line(draw(st.sampled_from(kinds)), draw) for _ in range(n))])
    n = draw(st.integers(0, 3))
    texts["arbiter"] = "\n".join(["house arbiter", *(_line(draw(st.sampled_from(
        ["kill", "retreat"])), draw) for _ in range(n))])
    return texts


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order_sheets(), st.integers(0, 10**6))
def test_orders_validate_and_resolve_never_raise(texts: dict[str, str], seed: int) -> None:
    """Whatever parses, `DynastyRuleset.validate` and `resolve` handle: illegal orders
    become rejections, never exceptions; resolve never mutates its input."""
    state = STATE.copy()
    state.persons["england-queen"].prisoner_of = "france"
    for unit, pid in (("E-1", "england-king"), ("F-1", "france-king")):
        state.units[unit].commanders.append(pid)
        state.persons[pid].unit = unit
    before = state.to_dict()
    sheets = {h: parse_orders(t, RULESET.grammar_for(h), filename=f"{h}.orders",
                              expected_house=h) for h, t in texts.items()}
    check = {h: OrderSheet(s.house, s.file, list(s.orders), list(s.rejections), s.refused)
             for h, s in sheets.items()}
    RULESET.validate(state, check)
    result = RULESET.resolve(state, sheets, SeededDice(str(seed), 1))
    assert state.to_dict() == before
    assert result.state.turn == 1
    for rejection in result.rejections:
        assert rejection.line >= 1 and rejection.file.endswith(".orders")
    # a second turn on the result still resolves
    RULESET.resolve(result.state, {}, SeededDice(str(seed), 2))

"""The order language: tokens, order values, rejections and grammars.

``parse_orders`` turns an order file's text into an ``OrderSheet``: the house
it claims to be from, the orders that parsed, and a ``Rejection`` for every
line that did not. It never raises on bad text. Validation against the state
is the ruleset's job (``Ruleset.validate``); it adds more rejections.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from adjudicator.errors import OrderSyntaxError
from adjudicator.messages import Message, either, msg, reason_of

MAX_LINE = 500
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# int() also reads "３", "٣" and "1_000"; a number in an order is written in ASCII
# digits, so that it reads the same to every player and to the arbiter.
_WHOLE = re.compile(r"-?[0-9]+")
# Unicode's default-ignorable letters and marks: drawn as nothing, yet printable
# to str.isprintable (fillers, the grapheme joiner, variation selectors).
_IGNORABLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0"
                       + "".join(map(chr, [*range(0x180B, 0x1810), *range(0xFE00, 0xFE10),
                                           *range(0xE0100, 0xE01F0)])))

T = TypeVar("T", bound="Order")


@dataclass(frozen=True, kw_only=True)
class Order:
    """Base of every order: where it came from, for error messages."""

    line: int
    text: str


@dataclass(frozen=True)
class Rejection:
    """One refused line: ``file:line: text: reason``."""

    file: str
    line: int
    text: str
    reason: str
    house: str | None = None

    def __post_init__(self) -> None:
        # A reason quotes player text too; it must read as it is, like the echoed line.
        reason = self.reason
        if visible(reason) is reason:
            return  # nothing hidden in it (the common case), so nothing to spell out
        shown = reason.mapped(visible) if isinstance(reason, Message) else visible(reason)
        object.__setattr__(self, "reason", shown)

    def __str__(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}: {self.text}: {self.reason}"
        return f"{self.file}: {self.reason}"


@dataclass
class OrderSheet:
    """The parsed orders of one house for one turn."""

    house: str
    file: str
    orders: list[Order] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    refused: str | None = None
    defaulted: bool = False

    def reject(self, order: Order, reason: str) -> None:
        self.rejections.append(Rejection(self.file, order.line, order.text, reason, self.house))

    def of_type(self, kind: type[T]) -> list[T]:
        return [o for o in self.orders if isinstance(o, kind)]


@dataclass(frozen=True)
class Token:
    text: str
    quoted: bool = False

    @property
    def word(self) -> str:
        return self.text.lower()


def tokenize(line: str) -> list[Token]:
    """Split a line into words and quoted strings, dropping a ``#`` comment."""
    tokens: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        ch = line[i]
        if ch.isspace():
            i += 1
        elif ch == "#":
            break
        elif ch in "\"“”":
            end = i + 1
            while end < n and line[end] not in "\"“”":
                end += 1
            if end >= n:
                raise OrderSyntaxError(msg("a quoted name is not closed"))
            value = line[i + 1 : end].strip()
            if not value:
                raise OrderSyntaxError(msg("an empty quoted name"))
            tokens.append(Token(value, quoted=True))
            i = end + 1
        else:
            end = i
            while end < n and not line[end].isspace() and line[end] not in "#\"“”":
                end += 1
            tokens.append(Token(line[i:end]))
            i = end
    return tokens


RuleFn = Callable[["Cursor"], Order]


class Cursor:
    """Reads the tokens of one line; grammar rules pull words from it."""

    def __init__(self, tokens: list[Token], line: int, text: str) -> None:
        self.tokens = tokens
        self.pos = 0
        self.line = line
        self.text = text

    def at_end(self) -> bool:
        return self.pos >= len(self.tokens)

    def peek(self) -> str | None:
        if self.at_end():
            return None
        tok = self.tokens[self.pos]
        return None if tok.quoted else tok.word

    def next(self, what: str) -> Token:
        if self.at_end():
            raise OrderSyntaxError(msg("%(what)s is missing", what=what))
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def word(self, what: str) -> str:
        tok = self.next(what)
        if tok.quoted:
            raise OrderSyntaxError(msg("expected %(what)s, found a quoted name", what=what))
        return tok.word

    def expect(self, *words: str) -> str:
        # The alternatives are spelled out only for a line that is refused.
        tok = self.tokens[self.pos] if not self.at_end() else None
        if tok is None or tok.quoted or tok.word not in words:
            found = self.word(either(words))
            raise OrderSyntaxError(msg("expected %(what)s, found %(found)s",
                                       what=either(words), found=repr(found)))
        self.pos += 1
        return tok.word

    def accept(self, *words: str) -> str | None:
        if self.peek() in words:
            self.pos += 1
            return self.tokens[self.pos - 1].word
        return None

    def person(self) -> str:
        """A reference number (``E1100``) or a quoted unique name."""
        tok = self.next(msg("a person (reference number or quoted name)"))
        return tok.text

    def name(self, what: str | None = None) -> str:
        what = what or msg("a quoted name")
        tok = self.next(what)
        if not tok.quoted:
            raise OrderSyntaxError(msg("%(what)s must be in double quotes", what=what))
        return tok.text

    def ident(self, what: str) -> str:
        tok = self.next(what)
        if tok.quoted:
            raise OrderSyntaxError(msg("expected %(what)s, found a quoted name", what=what))
        return tok.text

    def integer(self, what: str, low: int | None = None, high: int | None = None) -> int:
        tok = self.next(what)
        value = whole_number(tok.text)
        if value is None:
            raise OrderSyntaxError(msg("%(what)s must be a whole number, not %(found)s",
                                       what=what, found=repr(tok.text)))
        if (low is not None and value < low) or (high is not None and value > high):
            if high is not None:
                raise OrderSyntaxError(msg("%(what)s must be %(low)s to %(high)s, not %(value)s",
                                           what=what, low=low, high=high, value=value))
            raise OrderSyntaxError(msg("%(what)s must be at least %(low)s, not %(value)s",
                                       what=what, low=low, value=value))
        return value

    def rest(self) -> list[Token]:
        rest = self.tokens[self.pos :]
        self.pos = len(self.tokens)
        return rest

    def done(self) -> None:
        if not self.at_end():
            extra = " ".join(t.text for t in self.tokens[self.pos :])
            raise OrderSyntaxError(msg("unexpected words at the end: %(extra)s", extra=repr(extra)))


@dataclass
class Grammar:
    """Keyword → rule. Rulesets build theirs by extending another's."""

    rules: dict[str, RuleFn] = field(default_factory=dict)

    def rule(self, *keywords: str) -> Callable[[RuleFn], RuleFn]:
        def register(fn: RuleFn) -> RuleFn:
            for kw in keywords:
                self.rules[kw] = fn
            return fn
        return register

    def extended(self) -> Grammar:
        return Grammar(dict(self.rules))

    def parse_line(self, tokens: list[Token], line: int, text: str) -> Order:
        head = tokens[0]
        rule = None if head.quoted else self.rules.get(head.word)
        if rule is None:
            known = tuple(sorted(self.rules))
            raise OrderSyntaxError(msg("unknown order %(order)s (known orders: %(known)s)",
                                       order=repr(head.text), known=known))
        cursor = Cursor(tokens, line, text)
        cursor.pos = 1
        order = rule(cursor)
        cursor.done()
        return order


def whole_number(text: str) -> int | None:
    """``text`` as an integer written in ASCII digits, or None."""
    return int(text) if _WHOLE.fullmatch(text) else None


def hidden(ch: str) -> bool:
    """Whether ``ch`` is there but not seen: a control, a format character such
    as a bidi override, a separator other than the space, or a default ignorable."""
    return not ch.isprintable() or ch in _IGNORABLE


def visible(text: str) -> str:
    """``text`` with its hidden characters spelled out.

    A line echoed in an error message must read as it is: a right-to-left
    override or a zero-width character could otherwise disguise it.
    """
    if text.isprintable() and _IGNORABLE.isdisjoint(text):
        return text
    return "".join(f"\\u{ord(ch):04x}" if hidden(ch) and ch != "\t" else ch for ch in text)


def parse_orders(
    text: str,
    grammar: Grammar,
    *,
    filename: str,
    expected_house: str | None = None,
) -> OrderSheet:
    """Parse an order file. Never raises: bad lines become rejections.

    The first non-comment line must be ``house <id>``; when it names a house
    other than ``expected_house`` the whole sheet is refused (a misfiled file).
    """
    sheet = OrderSheet(house=expected_house or "", file=filename)
    seen_header = False
    # Only CR/LF end a line: str.splitlines would also split on form feeds and
    # Unicode separators, and the line numbers would no longer match an editor's.
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        shown = visible(raw.strip())
        if len(shown) > MAX_LINE:
            shown = shown[:MAX_LINE] + "…"
        if any(ord(ch) < 32 and ch != "\t" for ch in raw):
            sheet.rejections.append(Rejection(filename, number, shown,
                                              msg("the line holds control characters"),
                                              sheet.house))
            continue
        try:
            tokens = tokenize(raw)
        except OrderSyntaxError as err:
            sheet.rejections.append(Rejection(filename, number, shown, reason_of(err), sheet.house))
            continue
        if not tokens:
            continue
        if not seen_header:
            seen_header = True
            if tokens[0].quoted or tokens[0].word != "house" or len(tokens) != 2:
                sheet.refused = msg("%(file)s:%(line)s: the first line must be "
                                    "'house <house-id>', found %(found)s",
                                    file=filename, line=number, found=repr(shown))
                return sheet
            claimed = tokens[1].text.lower()
            if expected_house is not None and claimed != expected_house.lower():
                sheet.refused = msg("%(file)s:%(line)s: this file says it is from house "
                                    "%(claimed)s, but it was filed as %(expected)s",
                                    file=filename, line=number, claimed=repr(claimed),
                                    expected=repr(expected_house))
                return sheet
            sheet.house = claimed
            continue
        if len(raw) > MAX_LINE:
            sheet.rejections.append(Rejection(filename, number, shown,
                                              msg("the line is longer than %(most)s characters",
                                                  most=MAX_LINE),
                                              sheet.house))
            continue
        try:
            sheet.orders.append(grammar.parse_line(tokens, number, shown))
        except OrderSyntaxError as err:
            sheet.rejections.append(Rejection(filename, number, shown, reason_of(err), sheet.house))
    if not seen_header:
        sheet.refused = msg("%(file)s: the file holds no 'house <house-id>' line",
                            file=filename)
    return sheet

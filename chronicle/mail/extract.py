"""A received message's orders (DESIGN.md "Mailed orders").

From each message Chronicle takes the ``text/plain`` body, or the first
``text/plain`` attachment when the body holds no ``house`` line. It drops
everything before the first line starting with ``house``, every line quoted
with ``>`` (and the "... wrote:" line that introduces a quotation), and
everything from a signature line (``-- ``) on. The first line may carry the
house's passphrase, ``house england passphrase "correct horse"``; the copy
filed leaves it out. The sender and the passphrase are checked against
``contacts.toml``; the model is Eressea's faction password.

Nothing here raises on a message: every way a message can be unusable is a
``Refusal`` with the reason the acknowledgement gives.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage, Message
from typing import Any

from adjudicator.orders import tokenize
from chronicle.errors import OrderSyntaxError
from chronicle.mail.contacts import Contacts, normal_address

#: Orders are short: a message body longer than this is not an order file.
MAX_TEXT = 256 * 1024
_ATTRIBUTION = re.compile(r"(wrote|a écrit|schrieb)\s*:\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Filed:
    """An accepted message: the house and the order text to file."""

    house: str
    text: str


@dataclass(frozen=True)
class Refusal:
    """A refused message, and why: ``reason`` is the catalogue's English sentence,
    filled in by ``values``, which the acknowledgement says in the campaign's
    language (``said``)."""

    reason: str
    house: str | None = None
    values: Mapping[str, Any] = field(default_factory=dict)

    def said(self, say: Callable[..., str]) -> str:
        return say(self.reason, **self.values)


def sender_of(message: Message) -> str:
    """The bare address the message came from (``Reply-To`` is not trusted for orders)."""
    return normal_address(str(message.get("From", "")))


def _decoded(part: Message) -> str | None:
    try:
        content = part.get_content() if isinstance(part, EmailMessage) else None
    except (LookupError, UnicodeError, ValueError, AssertionError):
        return None
    return content if isinstance(content, str) else None


def _has_house_line(text: str) -> bool:
    return any(line.lstrip().lower().startswith("house") for line in text.splitlines())


def _plain_parts(message: EmailMessage) -> tuple[list[Message], bool]:
    """The message's ``text/plain`` candidates in order (body first), and whether it has HTML."""
    body = message.get_body(preferencelist=("plain",))
    parts: list[Message] = [body] if body is not None else []
    html = False
    for part in message.walk():
        kind = part.get_content_type()
        if kind == "text/html":
            html = True
        elif kind == "text/plain" and part is not body:
            parts.append(part)
    return parts, html


def order_text(message: EmailMessage) -> str | Refusal:
    """The text holding the orders, before stripping; or why there is none to read."""
    parts, html = _plain_parts(message)
    if not parts:
        if html:
            return Refusal("the message holds only HTML; send your orders as plain text "
                           "(in your mail program: \"plain text\" mode, or attach the "
                           ".orders file)")
        return Refusal("the message holds no plain text (text/plain) to read orders from")
    first: str | None = None
    for part in parts:
        text = _decoded(part)
        if text is None:
            continue
        if first is None:
            first = text
        if _has_house_line(text):
            return text
    if first is None:
        return Refusal("the order text cannot be read: its character set is unknown or "
                       "its bytes do not match it")
    return first


def strip_mail(text: str) -> list[str]:
    """The order lines of a mail text: from the ``house`` line, quotes and signature gone."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next((i for i, line in enumerate(lines)
                  if line.lstrip().lower().startswith("house")), None)
    if start is None:
        return []
    kept: list[str] = []
    for index in range(start, len(lines)):
        line = lines[index]
        if line.rstrip() == "--":
            break
        if line.lstrip().startswith(">"):
            continue
        following = next((x for x in lines[index + 1:] if x.strip()), "")
        if _ATTRIBUTION.search(line) and following.lstrip().startswith(">"):
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1].strip():
        kept.pop()
    return kept


def _first_line(line: str) -> tuple[str | None, str | None, Refusal | None]:
    """(house, passphrase, problem) of ``house <id> [passphrase "..."]``."""
    try:
        tokens = tokenize(line)
    except OrderSyntaxError as err:
        return None, None, Refusal("the first line, %(line)r: %(why)s",
                                   values={"line": line.strip(), "why": str(err)})
    words = [t.word for t in tokens]
    if len(tokens) == 2 and words[0] == "house" and not tokens[1].quoted:
        return words[1], None, None
    if len(tokens) == 4 and words[0] == "house" and words[2] == "passphrase" \
            and tokens[3].quoted:
        return words[1], tokens[3].text, None
    return None, None, Refusal("the first line must be 'house <house-id>' or 'house "
                               "<house-id> passphrase \"...\"', not %(line)r",
                               values={"line": line.strip()})


def read_message(message: EmailMessage, contacts: Contacts, houses: set[str],
                 *, size: int) -> Filed | Refusal:
    """Check one received message and return the orders to file, or the refusal."""
    if size > MAX_TEXT * 4:
        return Refusal("the message is %(size)s KiB; orders fit in %(most)s KiB of plain "
                       "text", values={"size": size // 1024, "most": MAX_TEXT // 1024})
    text = order_text(message)
    if isinstance(text, Refusal):
        return text
    if "\x00" in text or len(text.encode("utf-8")) > MAX_TEXT:
        return Refusal("the order text cannot be read: it is binary or too large")
    lines = strip_mail(text)
    if not lines:
        return Refusal("no line starting with 'house' was found: an order file begins "
                       "with 'house <house-id>'")
    house, passphrase, problem = _first_line(lines[0])
    if house is None:
        return problem or Refusal("no house line")
    if house not in houses:
        return Refusal("there is no house %(house)r in this campaign",
                       values={"house": house})
    contact = contacts.house(house)
    sender = sender_of(message)
    if not contact.accepts(sender):
        if not sender:
            return Refusal("this sender is not an address of house %(house)s; orders are "
                           "accepted only from the house's own addresses", house,
                           {"house": house})
        return Refusal("%(sender)s is not an address of house %(house)s; orders are "
                       "accepted only from the house's own addresses", house,
                       {"sender": sender, "house": house})
    if contact.passphrase is not None:
        if passphrase is None:
            return Refusal("house %(house)s's orders must carry its passphrase: "
                           "'house %(house)s passphrase \"...\"'", house, {"house": house})
        if not hmac.compare_digest(passphrase.encode("utf-8"),
                                   contact.passphrase.encode("utf-8")):
            return Refusal("the passphrase for house %(house)s is wrong", house,
                           {"house": house})
    body = [f"house {house}", *lines[1:]]
    return Filed(house=house, text="\n".join(body) + "\n")

"""``chronicle mail import``: orders from Maildir folders, mbox files and ``.eml`` files.

Each message is kept in ``mail/`` (by the hash of its bytes, so importing
the same mailbox twice imports nothing twice), read (``extract``), filed as
``orders/turn-NNN/<house>.orders`` for the next turn when accepted, and
acknowledged by an ``.eml`` in ``outbox/`` addressed to its sender: accepted
or refused, and for an accepted file exactly what ``chronicle check`` says of
that house's file. Messages are taken in the order they were sent (their
``Date``), so a house's later message replaces an earlier one, whatever order
the mailboxes hold them in. ``mail/index.json`` records, per turn and house,
the message filed or refused and when it was sent (``chronicle status``).
"""

from __future__ import annotations

import hashlib
import json
import mailbox
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.errors import MessageError
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any

from chronicle.campaign.folder import Campaign, read_input, write_inside
from chronicle.errors import CampaignError
from chronicle.i18n.words import Say, as_written, words
from chronicle.mail.contacts import load_contacts
from chronicle.mail.extract import Filed, Refusal, read_message, sender_of
from chronicle.mail.outbox import new_message, queue, write_private
from chronicle.store.lock import campaign_lock
from chronicle.turn import runner

MAIL = "mail"
INDEX = "index.json"
#: No message is larger (a mailbox may hold anything).
MAX_MESSAGE = 4 * 1024 * 1024


@dataclass(frozen=True)
class Received:
    """One message as read from a source, before it is judged."""

    raw: bytes
    source: str

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.raw).hexdigest()


@dataclass(frozen=True)
class Imported:
    """What became of one message (one line of the command's output)."""

    source: str
    sender: str
    house: str | None
    accepted: bool
    reason: str
    check: tuple[str, ...] = ()
    duplicate: bool = False

    def line(self, say: Say = as_written) -> str:
        """The command's line for this message, in the words of ``say``."""
        who = self.sender or say("(no sender)")
        if self.duplicate:
            return say("%(source)s: from %(who)s: imported before; skipped",
                       source=self.source, who=who)
        if self.accepted:
            return say("%(source)s: from %(who)s: %(house)s: accepted; %(why)s",
                       source=self.source, who=who, house=self.house, why=self.reason)
        return say("%(source)s: from %(who)s: refused: %(why)s", source=self.source, who=who,
                   why=self.reason)


def read_sources(sources: list[Path]) -> list[Received]:
    """Every message of the given Maildir folders, mbox files and ``.eml`` files."""
    found: list[Received] = []
    for source in sources:
        if source.is_dir():
            if not all((source / sub).is_dir() for sub in ("cur", "new", "tmp")):
                raise CampaignError(f"{source}: a folder, but not a Maildir (no cur/, new/ "
                                    "and tmp/ in it)")
            box: mailbox.Mailbox = mailbox.Maildir(source, factory=None, create=False)
        elif not source.is_file():
            raise CampaignError(f"{source}: no such mailbox or message file")
        elif _looks_like_mbox(source):
            box = mailbox.mbox(source, factory=None, create=False)
        else:
            raw = source.read_bytes()[: MAX_MESSAGE + 1]
            found.append(Received(raw, source.name))
            continue
        for key in sorted(box.keys()):
            found.append(Received(box.get_bytes(key), f"{source.name}[{key}]"))
        box.close()
    return found


def _looks_like_mbox(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(5) == b"From "


def _parse(raw: bytes) -> EmailMessage | None:
    try:
        message = BytesParser(policy=policy.default).parsebytes(raw)
    except (MessageError, ValueError, LookupError, IndexError):
        return None
    return message if isinstance(message, EmailMessage) else None


def _sent_at(message: EmailMessage | None) -> datetime | None:
    if message is None:
        return None
    try:
        when = parsedate_to_datetime(str(message.get("Date", "")))
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC)


def _stamp(when: datetime) -> str:
    return when.strftime("%Y-%m-%dT%H:%M:%SZ")


def load_index(campaign: Campaign) -> dict[str, Any]:
    """``mail/index.json``: ``{"turn-003": {"england": {"status", "sent_at", "message"}}}``."""
    raw = read_input(campaign.root, campaign.root / MAIL / INDEX, f"{MAIL}/{INDEX}")
    if raw is None:
        return {}
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CampaignError(f"{MAIL}/{INDEX}: not readable ({err}); remove it and import "
                            "the mail again") from None
    return data if isinstance(data, dict) else {}


def import_mail(campaign: Campaign, sources: list[Path]) -> tuple[int, list[Imported]]:
    """Import every message of ``sources`` for the next turn; returns (turn, outcomes)."""
    received = read_sources(sources)
    ruleset = runner.ruleset_of(campaign)
    say = words(campaign.language)
    with campaign_lock(campaign.root, "mail import"):
        state = _open_state(campaign, ruleset)
        turn = runner.next_turn(state)
        houses = set(state.houses)
        contacts = load_contacts(campaign, houses)
        sender = contacts.smtp.sender if contacts.smtp else None
        index = load_index(campaign)
        filed: dict[str, Any] = index.setdefault(f"turn-{turn:03d}", {})
        parsed = [(r, _parse(r.raw)) for r in received]
        # In the order they were sent; a message without a date counts as the oldest.
        parsed.sort(key=lambda pair: (_sent_at(pair[1]) or datetime.min.replace(tzinfo=UTC),
                                      pair[0].digest))
        results = []
        for item, message in parsed:
            results.append(_one(campaign, ruleset, state, turn, item, message, contacts,
                                houses, filed, sender, say))
        write_inside(campaign.root, campaign.root / MAIL / INDEX,
                     json.dumps(index, indent=1, sort_keys=True) + "\n")
    return turn, results


def _open_state(campaign: Campaign, ruleset: Any) -> Any:
    if campaign.store_path.exists():
        store = runner.open_store(campaign, ruleset)
        try:
            runner.refuse_if_ended(store, "no more orders can be imported")
            state = store.state_to_play()
        finally:
            store.close()
    else:
        state = runner.initial_state(campaign, ruleset)
    over = runner.over_reason(state)
    if over is not None:
        raise CampaignError("the campaign is over (%(why)s): no more orders are needed; run "
                            "'chronicle end' to reveal the seed", why=runner.over_phrase(state))
    return state


def _one(campaign: Campaign, ruleset: Any, state: Any, turn: int, item: Received,
         message: EmailMessage | None, contacts: Any, houses: set[str],
         filed: dict[str, Any], arbiter: str | None, say: Say = as_written) -> Imported:
    kept = campaign.root / MAIL / f"{item.digest[:24]}.eml"
    who = sender_of(message) if message is not None else ""
    if kept.exists():
        return Imported(item.source, who, None, False, "", duplicate=True)
    write_private(campaign.root, kept, item.raw)
    sent_at = _sent_at(message)
    when = _stamp(sent_at or datetime.now(UTC))
    if message is None:
        verdict: Filed | Refusal = Refusal("the message cannot be read as e-mail")
    else:
        verdict = read_message(message, contacts, houses, size=len(item.raw))
    check: tuple[str, ...] = ()
    if isinstance(verdict, Filed):
        earlier = filed.get(verdict.house)
        if earlier and earlier.get("status") == "received" and earlier["sent_at"] > when:
            verdict = Refusal("a message house %(house)s sent later (%(at)s) is already filed "
                              "for turn %(turn)s; this earlier one replaces nothing",
                              verdict.house, {"house": verdict.house,
                                              "at": earlier["sent_at"], "turn": turn})
    if isinstance(verdict, Filed):
        path = campaign.orders_dir(turn) / f"{verdict.house}.orders"
        write_inside(campaign.root, path, verdict.text)
        check = tuple(runner.check(campaign, ruleset=ruleset, state=state)
                      .house_lines(verdict.house))
        filed[verdict.house] = {"status": "received", "sent_at": when, "message": kept.name}
        reason = say("filed as orders/turn-%(padded)s/%(file)s: %(check)s",
                     padded=f"{turn:03d}", file=path.name, check=check[-1])
        outcome = Imported(item.source, who, verdict.house, True, reason, check)
    else:
        house = verdict.house
        why = verdict.said(say)
        if house is not None and filed.get(house, {}).get("status") != "received":
            filed[house] = {"status": "refused", "sent_at": when, "message": kept.name,
                            "reason": why}
        outcome = Imported(item.source, who, house, False, why)
    if who:
        _acknowledge(campaign, turn, item, message, outcome, arbiter, say)
    return outcome


def _acknowledge(campaign: Campaign, turn: int, item: Received, message: EmailMessage | None,
                 outcome: Imported, arbiter: str | None, say: Say = as_written) -> None:
    """The player's acknowledgement, in the campaign's language (``say``)."""
    original = str(message.get("Subject", "")) if message is not None else ""
    if outcome.accepted:
        subject = say("Orders for turn %(turn)s accepted (%(house)s)", turn=turn,
                      house=outcome.house)
        body = [say("Your orders for turn %(turn)s were received and filed for house "
                    "%(house)s.", turn=turn, house=outcome.house), "",
                say("chronicle check says of your file:"), "",
                *(f"  {line}" for line in outcome.check), "",
                say("A later message from you before the deadline replaces this file.")]
    else:
        subject = say("Orders for turn %(turn)s refused", turn=turn)
        body = [say("Your message was not filed as orders for turn %(turn)s:", turn=turn), "",
                f"  {outcome.reason}", "",
                say("Nothing from it will be adjudicated. Mend it and send the whole file "
                    "again.")]
    if original:
        body += ["", say("(Your message: %(subject)r)", subject=original)]
    reply = new_message(sender=arbiter, to=[outcome.sender], subject=subject,
                        body="\n".join(body) + "\n",
                        reply_to_id=str(message.get("Message-ID", "")) or None
                        if message is not None else None)
    queue(campaign.root, f"ack-turn-{turn:03d}-{item.digest[:24]}.eml", reply)

"""``chronicle mail send``: the last turn's reports and next templates, then the outbox.

Reports of earlier turns go too when no message carries them yet, from the
first turn ever mailed on: turns played at once, or again after a rollback.

Each house's report and its order template for the next turn are queued as
one message to the house's own addresses (``contacts.toml``), named after the
turn, the reports' identity and the house: a message waiting or sent already
is never queued again, and a turn adjudicated again after a rollback (new
reports, a new identity) is mailed again. Then every ``.eml`` waiting in
``outbox/`` is sent by SMTP (STARTTLS, SSL, or plain on a trusted link) and
moved to ``outbox/sent/`` as soon as the server has taken it.
"""

from __future__ import annotations

import re
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import TYPE_CHECKING

from chronicle.campaign.folder import Campaign, read_inside
from chronicle.errors import CampaignError
from chronicle.i18n.words import Say, as_written
from chronicle.mail.contacts import Contacts, Smtp, load_contacts, normal_address
from chronicle.mail.outbox import (
    is_queued,
    mark_sent,
    new_message,
    outbox_dir,
    pending,
    queue,
    read_queued,
    sent_dir,
)
from chronicle.store.lock import campaign_lock
from chronicle.turn import runner
from chronicle.turn.reports import report_subject, template_for

if TYPE_CHECKING:
    from chronicle.store.turns import Store

TIMEOUT = 60
_REPORT = re.compile(r"report-turn-(\d{3})-([0-9a-f]{12})-.+\.eml")


@dataclass(frozen=True)
class Planned:
    """One report message to queue (``name`` in the outbox)."""

    name: str
    house: str
    message: EmailMessage


def plan_reports(campaign: Campaign, contacts: Contacts,
                 say: Say = as_written) -> tuple[list[Planned], list[str]]:
    """The report messages not yet queued or sent, and the houses skipped: the last
    turn's, with the next turn's template, and those of earlier turns that no
    message carries since mail began (``unmailed_turns``)."""
    if not campaign.store_path.exists():
        return [], []
    ruleset = runner.ruleset_of(campaign)
    store = runner.open_store(campaign, ruleset)
    try:
        last = store.last_turn()
        if last == 0:
            return [], []
        state = store.state_to_play()
        identities = {turn: runner.reports_identity(store, turn)
                      for turn in (*unmailed_turns(campaign.root, store, last), last)}
    finally:
        store.close()
    sender = contacts.smtp.sender if contacts.smtp else None
    planned, skipped = [], []
    for house in sorted(state.houses):
        emails = list(contacts.house(house).emails)
        if not emails:
            skipped.append(say("%(house)s: no address in contacts.toml; its report is not "
                               "mailed", house=house))
            continue
        for turn, identity in identities.items():
            name = f"report-turn-{turn:03d}-{identity[:12]}-{house}.eml"
            if is_queued(campaign.root, name):
                continue
            shown = f"reports/turn-{turn:03d}/{house}.md"
            report = read_inside(campaign.root, campaign.reports_dir(turn) / f"{house}.md",
                                 shown)
            if report is None:
                raise CampaignError("%(report)s: missing; run 'chronicle reports' first",
                                    report=shown)
            message = new_message(sender=sender, to=emails,
                                  subject=report_subject(campaign, turn, state.year_of(turn)),
                                  body=report)
            house_row = state.houses[house]
            if (turn == last and runner.over_reason(state) is None
                    and not house_row.eliminated):
                message.add_attachment(template_for(campaign, ruleset, state, house),
                                       subtype="plain", filename=f"{house}.orders")
            planned.append(Planned(name, house, message))
    return planned, skipped


def unmailed_turns(root: Path, store: Store, last: int) -> list[int]:
    """Turns before ``last`` whose reports, as adjudicated now, no message carries,
    from the first turn ever mailed on: turns played at once (``adjudicate
    --through``), or again after a rollback, whose corrected reports the houses
    must get. Before the first mailed turn, the arbiter did not use mail."""
    mailed: set[tuple[int, str]] = set()
    for folder in (outbox_dir(root), sent_dir(root)):
        if folder.is_dir():
            mailed |= {(int(found[1]), found[2]) for found in
                       (_REPORT.fullmatch(path.name) for path in folder.iterdir()) if found}
    if not mailed:
        return []
    first = min(turn for turn, _identity in mailed)
    return [turn for turn in range(first, last)
            if (turn, runner.reports_identity(store, turn)[:12]) not in mailed]


def recipients(message: EmailMessage) -> list[str]:
    fields = [str(v) for key in ("To", "Cc") for v in message.get_all(key, [])]
    return [address for _name, address in getaddresses(fields) if address]


def _connect(smtp: Smtp) -> smtplib.SMTP:
    context = ssl.create_default_context()
    if smtp.security == "ssl":
        server: smtplib.SMTP = smtplib.SMTP_SSL(smtp.host, smtp.port, timeout=TIMEOUT,
                                                context=context)
    else:
        server = smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT)
    try:
        server.ehlo()
        if smtp.security == "starttls":
            if not server.has_extn("starttls"):
                raise CampaignError(f"SMTP {smtp.host}:{smtp.port} does not offer STARTTLS; "
                                    "nothing was sent (set security in contacts.toml)")
            server.starttls(context=context)
            server.ehlo()
        if smtp.user:
            if smtp.password is None:
                raise CampaignError("contacts.toml names an SMTP user: set its password in "
                                    "the CHRONICLE_SMTP_PASSWORD environment variable")
            server.login(smtp.user, smtp.password)
    except BaseException:
        server.close()
        raise
    return server


def send_mail(campaign: Campaign, *, smtp_override: tuple[str, int] | None = None,
              dry_run: bool = False, say: Say = as_written) -> list[str]:
    """Queue the reports, then send the outbox; returns the lines to print, in the
    words of ``say`` (the command line's, in the campaign's language)."""
    contacts = load_contacts(campaign, _houses(campaign))
    smtp = contacts.smtp
    if smtp is not None and smtp_override is not None:
        smtp = Smtp(host=smtp_override[0], port=smtp_override[1], sender=smtp.sender,
                    security=smtp.security, user=smtp.user)
    if smtp is None and not dry_run:
        raise CampaignError("contacts.toml has no [smtp] settings (host, port, from, "
                            "security): nothing was queued or sent")
    runner.recover(campaign)
    with campaign_lock(campaign.root, "mail send"):
        planned, lines = plan_reports(campaign, contacts, say)
        if dry_run:
            waiting = pending(campaign.root)
            lines += [say("would queue %(file)s to %(to)s", file=p.name,
                          to=", ".join(recipients(p.message))) for p in planned]
            lines += [say("would send %(file)s to %(to)s", file=path.name,
                          to=", ".join(recipients(read_queued(path)))) for path in waiting]
            lines.append(say("dry run: %(planned)s to queue, %(waiting)s waiting; nothing "
                             "was queued or sent", planned=len(planned), waiting=len(waiting)))
            return lines
        assert smtp is not None
        for item in planned:
            queue(campaign.root, item.name, item.message)
        return lines + _send_outbox(campaign, smtp, say)


def _houses(campaign: Campaign) -> set[str]:
    return {str(h["id"]) for h in campaign.spec.get("house", []) if "id" in h} \
        or set(runner.initial_state(campaign, runner.ruleset_of(campaign)).houses)


def _send_outbox(campaign: Campaign, smtp: Smtp, say: Say) -> list[str]:
    waiting = pending(campaign.root)
    if not waiting:
        return [say("nothing to send")]
    lines: list[str] = []
    sent = 0
    server: smtplib.SMTP | None = None
    try:
        server = _connect(smtp)
        for path in waiting:
            message = read_queued(path)
            if "From" not in message:
                message["From"] = smtp.sender
            to = recipients(message)
            if not to:
                lines.append(say("%(file)s: no recipient; left in outbox/", file=path.name))
                continue
            server.send_message(message, from_addr=normal_address(smtp.sender), to_addrs=to)
            mark_sent(campaign.root, path)
            sent += 1
            lines.append(say("sent %(file)s to %(to)s", file=path.name, to=", ".join(to)))
    except (smtplib.SMTPException, OSError, ssl.SSLError) as err:
        left = len(waiting) - sent
        raise CampaignError(f"SMTP {smtp.host}:{smtp.port}: {err}; {sent} sent, {left} left "
                            f"in outbox/ (run 'chronicle mail send' again)") from None
    finally:
        if server is not None:
            try:
                server.quit()
            except (smtplib.SMTPException, OSError):
                server.close()
    lines.append(say("%(sent)s sent", sent=sent))
    return lines


def parse_hostport(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CampaignError(f"--smtp: {text!r} is not HOST:PORT")
    return host.strip("[]"), int(port)

"""A campaign with contacts, and messages as players' mail programs send them."""

from __future__ import annotations

import mailbox
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from chronicle.campaign.scaffold import scaffold

CONTACTS = """\
[smtp]
host = "127.0.0.1"
port = 25
from = "Arbiter <arbiter@example.org>"
security = "none"

[house.england]
email = ["alice@example.org", "Alice.Two@Example.org"]
passphrase = "correct horse"

[house.france]
email = ["bob@example.org"]

[house.castile]
email = ["carol@example.org"]
"""


def campaign(tmp_path: Path, contacts: str = CONTACTS) -> Path:
    root = scaffold(tmp_path / "camp", "dynasty", seed="mail-seed")
    (root / "contacts.toml").write_text(contacts, encoding="utf-8")
    return root


def message(sender: str, body: str | None, *, html: str | None = None,
            sent: datetime = datetime(2026, 12, 1, 10, 0, tzinfo=UTC),
            subject: str = "orders", attachment: str | None = None) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = "arbiter@example.org"
    mail["Subject"] = subject
    mail["Date"] = format_datetime(sent)
    mail["Message-ID"] = f"<{abs(hash((sender, body, sent)))}@example.org>"
    if body is not None:
        mail.set_content(body)
        if html is not None:
            mail.add_alternative(html, subtype="html")
    elif html is not None:
        mail.set_content(html, subtype="html")
    if attachment is not None:
        mail.add_attachment(attachment, subtype="plain", filename="england.orders")
    return mail


def maildir(folder: Path, messages: list[EmailMessage]) -> Path:
    box = mailbox.Maildir(folder, create=True)
    for mail in messages:
        box.add(mail.as_bytes())
    box.close()
    return folder

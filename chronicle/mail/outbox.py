"""``outbox/``: mail waiting to be sent, as ``.eml`` files; ``outbox/sent/`` once sent.

Every message has a name that says what it is (``report-turn-003-<id>-england.eml``,
``ack-<message>.eml``), so a message already waiting or already sent is
never queued again: running a command twice mails nothing twice.
"""

from __future__ import annotations

import os
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import formatdate, make_msgid
from pathlib import Path

from chronicle.campaign.folder import check_folder_inside
from chronicle.errors import CampaignError

OUTBOX = "outbox"
SENT = "sent"


def outbox_dir(root: Path) -> Path:
    return root / OUTBOX


def sent_dir(root: Path) -> Path:
    return root / OUTBOX / SENT


def is_queued(root: Path, name: str) -> bool:
    """Whether ``name`` waits in the outbox or was sent already."""
    return (outbox_dir(root) / name).exists() or (sent_dir(root) / name).exists()


def write_private(root: Path, path: Path, data: bytes) -> None:
    """Write a private file of the campaign (mode 0600), never through a link."""
    folder = path.parent
    check_folder_inside(root, folder)
    folder.mkdir(parents=True, exist_ok=True)
    fresh = folder / f".{path.name}.tmp"
    fresh.unlink(missing_ok=True)
    fd = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
    os.replace(fresh, path)


def queue(root: Path, name: str, message: EmailMessage) -> bool:
    """Put ``message`` in the outbox as ``name``; False (and nothing written) if it
    waits there already or was sent."""
    if is_queued(root, name):
        return False
    write_private(root, outbox_dir(root) / name, message.as_bytes(policy=policy.SMTP))
    return True


def pending(root: Path) -> list[Path]:
    """The messages waiting to be sent, by name."""
    folder = outbox_dir(root)
    if not folder.is_dir():
        return []
    check_folder_inside(root, folder)
    return sorted(p for p in folder.iterdir()
                  if p.suffix == ".eml" and p.is_file() and not p.is_symlink()
                  and not p.name.startswith("."))


def read_queued(path: Path) -> EmailMessage:
    try:
        message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    except (ValueError, LookupError) as err:
        raise CampaignError(f"{OUTBOX}/{path.name}: not a readable message ({err})") from None
    assert isinstance(message, EmailMessage)
    return message


def mark_sent(root: Path, path: Path) -> None:
    folder = sent_dir(root)
    check_folder_inside(root, folder)
    folder.mkdir(parents=True, exist_ok=True)
    os.replace(path, folder / path.name)


def new_message(*, sender: str | None, to: list[str], subject: str, body: str,
                reply_to_id: str | None = None) -> EmailMessage:
    """A plain-text message (``From`` is filled in when sent, if not known yet)."""
    message = EmailMessage()
    if sender:
        message["From"] = sender
    message["To"] = ", ".join(to)
    message["Subject"] = subject
    message["Date"] = formatdate(localtime=False, usegmt=True)
    message["Message-ID"] = make_msgid(domain=_domain(sender))
    if reply_to_id:
        message["In-Reply-To"] = reply_to_id
        message["References"] = reply_to_id
    message.set_content(body)
    return message


def _domain(sender: str | None) -> str:
    if sender and "@" in sender:
        return sender.rsplit("@", 1)[1].strip(" >") or "chronicle.invalid"
    return "chronicle.invalid"

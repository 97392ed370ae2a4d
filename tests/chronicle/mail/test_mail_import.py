"""``chronicle mail import`` (issue 17 item 2; DESIGN.md "Mailed orders", "Acknowledgements").

"A Maildir of messages is imported: a good file, a wrong passphrase, a
stranger's address, a quoted reply with a signature, an HTML-only message,
two versions from one house. Then the filed orders and the acknowledgements
are compared."
"""

from __future__ import annotations

import mailbox
import os
import stat
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

from cli_support import run
from mail_support import campaign, maildir, message

GOOD = 'house england passphrase "correct horse"\nbirth E1000 attempts 2\n'


def _body(mail: EmailMessage) -> str:
    part = mail.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def _the_maildir(tmp_path: Path) -> Path:
    day = datetime(2026, 12, 1, tzinfo=UTC)
    return maildir(tmp_path / "Maildir", [
        # The good file, from England's second address, in a different case.
        message("Alice <alice.two@EXAMPLE.org>", "Hello arbiter,\n\n" + GOOD
                + "marry E9999 to minor-nobility\n", sent=day.replace(hour=9)),
        # A wrong passphrase, from England's own address.
        message("alice@example.org", 'house england passphrase "wrong horse"\n',
                sent=day.replace(hour=8)),
        # A stranger writing as France.
        message("mallory@evil.example", "house france\nbirth F1000 attempts 3\n",
                sent=day.replace(hour=8)),
        # France's reply, quoting the template mail, with a signature.
        message("Bob <bob@example.org>",
                "house france\nbirth F1000 attempts 3\n\n"
                "On Mon, 30 Nov 2026, Arbiter wrote:\n> house france\n> # Orders for turn 1\n"
                "\n-- \nBob, King of France\nhouse castile\n", sent=day.replace(hour=11)),
        # Castile's mail program sent HTML only.
        message("carol@example.org", None, html="<p>house castile</p>",
                sent=day.replace(hour=7)),
        # England again, later: this version replaces the good file.
        message("alice@example.org", "house england passphrase \"correct horse\"\n"
                "birth E1000 attempts 3\n", sent=day.replace(hour=12)),
    ])


def test_mail_import_files_the_orders_and_acknowledges_every_message(tmp_path: Path) -> None:
    """DESIGN.md "Mailed orders": "A message is refused, with the reason in its
    acknowledgement, when its sender is not among the house's `email` addresses (if
    any are set), when the passphrase is missing or wrong (if one is set) ... A later
    accepted message for the same house and turn replaces the earlier file; every
    message stays in `mail/`." And "Acknowledgements": "accepted or refused, and for
    an accepted file exactly what `chronicle check` says of that house's file"."""
    root = campaign(tmp_path)
    box = _the_maildir(tmp_path)
    result = run("mail", "import", root, box)
    assert result.exit_code == 0, result.output
    assert "turn 1: 6 messages, 3 filed, 3 refused" in result.output

    folder = root / "orders" / "turn-001"
    # England's later version replaced the earlier; the passphrase is left out.
    assert (folder / "england.orders").read_text("utf-8") == (
        "house england\nbirth E1000 attempts 3\n")
    # France: the quoted template, the attribution line and the signature are gone.
    assert (folder / "france.orders").read_text("utf-8") == (
        "house france\nbirth F1000 attempts 3\n")
    assert not (folder / "castile.orders").exists()
    # Every message is kept, readable, and private.
    kept = sorted((root / "mail").glob("*.eml"))
    assert len(kept) == 6
    assert all(stat.S_IMODE(os.stat(p).st_mode) == 0o600 for p in kept)

    acks = sorted((root / "outbox").glob("ack-*.eml"))
    assert len(acks) == 6
    by_to: dict[str, list[tuple[str, str]]] = {}
    for path in acks:
        mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        assert isinstance(mail, EmailMessage)
        assert mail["From"] == "Arbiter <arbiter@example.org>"
        by_to.setdefault(str(mail["To"]), []).append((str(mail["Subject"]), _body(mail)))
    assert sorted(by_to) == ["alice.two@example.org", "alice@example.org",
                             "bob@example.org", "carol@example.org",
                             "mallory@evil.example"]
    # The first good file: what check said of it then, its bad line included.
    (subject, body), = by_to["alice.two@example.org"]
    assert subject == "Orders for turn 1 accepted (england)"
    assert "england.orders:3: marry E9999 to minor-nobility:" in body
    assert "england.orders: 1 lines accepted, 1 rejected" in body
    alice = dict(by_to["alice@example.org"])
    assert "the passphrase for house england is wrong" in alice["Orders for turn 1 refused"]
    assert "england.orders: 1 lines accepted, 0 rejected" in alice[
        "Orders for turn 1 accepted (england)"]
    (subject, body), = by_to["mallory@evil.example"]
    assert "mallory@evil.example is not an address of house france" in body
    (subject, body), = by_to["bob@example.org"]
    assert "france.orders: 1 lines accepted, 0 rejected" in body
    (subject, body), = by_to["carol@example.org"]
    assert subject == "Orders for turn 1 refused"
    assert "the message holds only HTML; send your orders as plain text" in body

    # The acknowledgement says exactly what check says of that house's file.
    checked = run("check", root)
    assert "turn 1: 2 order files, 2 lines accepted, 0 rejected, 0 file problems" \
        in checked.output
    assert "no orders yet from: castile" in checked.output


def test_mail_import_twice_imports_nothing_twice(tmp_path: Path) -> None:
    """DESIGN.md "Acknowledgements": "Each imported message gets an acknowledgement":
    one, even when the same mailbox is imported again."""
    root = campaign(tmp_path)
    box = _the_maildir(tmp_path)
    run("mail", "import", root, box)
    again = run("mail", "import", root, box)
    assert again.exit_code == 0
    assert again.output.count("imported before; skipped") == 6
    assert len(list((root / "outbox").glob("ack-*.eml"))) == 6


def test_mail_import_older_message_replaces_nothing(tmp_path: Path) -> None:
    """DESIGN.md "Mailed orders": "A later accepted message for the same house and
    turn replaces the earlier file": later by when it was sent, not by when it is
    imported."""
    root = campaign(tmp_path)
    late = message("bob@example.org", "house france\nbirth F1000 attempts 2\n",
                   sent=datetime(2026, 12, 2, tzinfo=UTC))
    early = message("bob@example.org", "house france\nbirth F1000 attempts 3\n",
                    sent=datetime(2026, 12, 1, tzinfo=UTC))
    (tmp_path / "late.eml").write_bytes(late.as_bytes())
    (tmp_path / "early.eml").write_bytes(early.as_bytes())
    run("mail", "import", root, tmp_path / "late.eml")
    result = run("mail", "import", root, tmp_path / "early.eml")
    assert "is already filed for turn 1; this earlier one replaces nothing" in result.output
    assert "attempts 2" in (root / "orders" / "turn-001" / "france.orders").read_text()


def test_mail_import_reads_mbox_and_attachments(tmp_path: Path) -> None:
    """DESIGN.md "Mailed orders": "takes ... the `text/plain` body (or the first
    `text/plain` attachment when the body holds no `house` line)", from "mbox files"."""
    root = campaign(tmp_path)
    box = mailbox.mbox(tmp_path / "inbox.mbox", create=True)
    box.add(message("alice@example.org", "My orders are attached.\n",
                    attachment=GOOD).as_bytes())
    box.close()
    result = run("mail", "import", root, tmp_path / "inbox.mbox")
    assert result.exit_code == 0, result.output
    assert (root / "orders" / "turn-001" / "england.orders").read_text() == (
        "house england\nbirth E1000 attempts 2\n")


def test_mail_import_missing_passphrase_and_no_house_line(tmp_path: Path) -> None:
    """DESIGN.md "Mailed orders": refused "when the passphrase is missing or wrong
    (if one is set), or when the order text cannot be read"."""
    root = campaign(tmp_path)
    (tmp_path / "a.eml").write_bytes(
        message("alice@example.org", "house england\n").as_bytes())
    (tmp_path / "b.eml").write_bytes(message("bob@example.org", "hi there\n").as_bytes())
    result = run("mail", "import", root, tmp_path / "a.eml", tmp_path / "b.eml")
    assert "house england's orders must carry its passphrase" in result.output
    assert "no line starting with 'house' was found" in result.output
    assert not (root / "orders" / "turn-001" / "england.orders").exists()


def test_contacts_errors_name_file_and_line(tmp_path: Path) -> None:
    """BRIEF standard 3: "any file a player or arbiter writes gets `file:line: what
    and why`"; contacts.toml names a house the campaign does not have."""
    root = campaign(tmp_path, '[house.england]\nemail = ["a@example.org"]\n\n'
                              '[house.narnia]\nemail = ["b@example.org"]\n')
    (tmp_path / "a.eml").write_bytes(message("a@example.org", GOOD).as_bytes())
    result = run("mail", "import", root, tmp_path / "a.eml")
    assert result.exit_code == 1
    assert "contacts.toml:4: [house.narnia]: there is no house 'narnia'" in result.output
    bad = campaign(tmp_path / "x", '[house.england]\nemail = ["not an address"]\n')
    result = run("mail", "import", bad, tmp_path / "a.eml")
    assert "contacts.toml:2: [house.england] email: 'not an address' is not an e-mail" \
        in result.output


def test_new_makes_private_files_and_ignores_them(tmp_path: Path) -> None:
    """Issue 17 item 1: "never published, never in any bundle, git-ignored by
    `chronicle new`, created with mode 0600 (and `secrets.toml` too)"."""
    result = run("new", tmp_path / "c", "--ruleset", "dynasty")
    assert result.exit_code == 0
    for name in ("contacts.toml", "secrets.toml"):
        assert stat.S_IMODE(os.stat(tmp_path / "c" / name).st_mode) == 0o600
    ignored = (tmp_path / "c" / ".gitignore").read_text().splitlines()
    for name in ("contacts.toml", "secrets.toml", "mail/", "outbox/", "reports/"):
        assert name in ignored

"""``chronicle mail send`` against a real SMTP server on loopback (issue 17 item 3).

"`mail send` runs against a loopback SMTP server: messages are counted per
recipient, and a second run must send nothing." The server is aiosmtpd,
listening on 127.0.0.1; STARTTLS and SSL are tested with a certificate made
for the test, which the client trusts through ``SSL_CERT_FILE``.
"""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
from collections import Counter
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from cli_support import run
from mail_support import CONTACTS, campaign, message


class Recorder:
    """An SMTP handler keeping every message it is given, with its envelope."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = BytesParser(policy=policy.default).parsebytes(envelope.content)
        assert isinstance(mail, EmailMessage)
        self.received.append((list(envelope.rcpt_tos), mail))
        return "250 Message accepted for delivery"

    def per_recipient(self) -> Counter[str]:
        return Counter(r for to, _ in self.received for r in to)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def smtp_server() -> Iterator[tuple[Recorder, int]]:
    recorder = Recorder()
    port = _free_port()
    controller = Controller(recorder, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield recorder, port
    finally:
        controller.stop()


def _played(tmp_path: Path, contacts: str = CONTACTS) -> Path:
    """A campaign whose first turn was played from mailed orders."""
    root = campaign(tmp_path, contacts)
    (tmp_path / "o.eml").write_bytes(message(
        "bob@example.org", "house france\nbirth F1000 attempts 2\n").as_bytes())
    assert run("mail", "import", root, tmp_path / "o.eml").exit_code == 0
    assert run("adjudicate", root).exit_code == 0
    return root


def test_mail_send_each_house_its_own_report_once(tmp_path: Path,
                                                  smtp_server: tuple[Recorder, int]) -> None:
    """DESIGN.md: `mail send` "queue[s] the last adjudicated turn's reports and next
    templates (each house's to its own addresses only, once), then send[s] every
    unsent `.eml` in `outbox/` by SMTP and move[s] it to `outbox/sent/`"."""
    recorder, port = smtp_server
    root = _played(tmp_path)
    result = run("mail", "send", root, "--smtp", f"127.0.0.1:{port}")
    assert result.exit_code == 0, result.output
    # France's acknowledgement, then one report per house to the house's addresses.
    assert recorder.per_recipient() == Counter({
        "bob@example.org": 2, "alice@example.org": 1, "Alice.Two@Example.org": 1,
        "carol@example.org": 1})
    reports = {tuple(to): mail for to, mail in recorder.received
               if "your report for turn 1" in str(mail["Subject"])}
    assert len(reports) == 3
    england = reports[("alice@example.org", "Alice.Two@Example.org")]
    body = england.get_body(preferencelist=("plain",))
    assert body is not None and str(body.get_content()).startswith("# House Plantagenet")
    attachments = {a.get_filename(): a.get_content().replace("\r\n", "\n")
                   for a in england.iter_attachments()}
    assert list(attachments) == ["england.orders"]
    assert attachments["england.orders"].startswith("house england\n# Orders for turn 2")
    # Nobody receives another house's report.
    for to, mail in recorder.received:
        part = mail.get_body(preferencelist=("plain",))
        assert part is not None
        text = str(part.get_content())
        if "report" in str(mail["Subject"]):
            house = {"bob@example.org": "Capet", "carol@example.org": "Castile"}.get(
                to[0], "Plantagenet")
            assert text.splitlines()[0].startswith("# House") and house in text.splitlines()[0]
    assert not list((root / "outbox").glob("*.eml"))
    assert len(list((root / "outbox" / "sent").glob("*.eml"))) == 4

    again = run("mail", "send", root, "--smtp", f"127.0.0.1:{port}")
    assert again.exit_code == 0, again.output
    assert "nothing to send" in again.output
    assert len(recorder.received) == 4


def test_mail_send_dry_run_and_no_settings(tmp_path: Path,
                                           smtp_server: tuple[Recorder, int]) -> None:
    """DESIGN.md: "`--dry-run` lists what would be sent; without SMTP settings it exits
    1 and leaves the outbox as it is"."""
    recorder, _port = smtp_server
    root = _played(tmp_path)
    dry = run("mail", "send", root, "--dry-run")
    assert dry.exit_code == 0, dry.output
    assert "would queue report-turn-001-" in dry.output
    assert "would send ack-turn-001-" in dry.output
    assert "dry run: 3 to queue, 1 waiting; nothing was queued or sent" in dry.output
    assert recorder.received == []
    before = sorted(p.name for p in (root / "outbox").iterdir())
    no_smtp = CONTACTS.split("[house.england]")[0].split("[smtp]")[0] + \
        "[house.england]" + CONTACTS.split("[house.england]")[1]
    (root / "contacts.toml").write_text(no_smtp, encoding="utf-8")
    refused = run("mail", "send", root)
    assert refused.exit_code == 1
    assert "contacts.toml has no [smtp] settings" in refused.output
    assert sorted(p.name for p in (root / "outbox").iterdir()) == before


def test_mail_send_refuses_starttls_the_server_does_not_offer(
        tmp_path: Path, smtp_server: tuple[Recorder, int]) -> None:
    """Issue 17 item 3: "by SMTP with STARTTLS or SSL": a server without STARTTLS gets
    nothing in clear text when the settings ask for STARTTLS."""
    recorder, port = smtp_server
    root = _played(tmp_path, CONTACTS.replace('security = "none"', 'security = "starttls"'))
    result = run("mail", "send", root, "--smtp", f"127.0.0.1:{port}")
    assert result.exit_code == 1
    assert "does not offer STARTTLS; nothing was sent" in result.output
    assert recorder.received == []
    assert len(list((root / "outbox").glob("*.eml"))) == 4


@pytest.fixture
def certificate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ssl.SSLContext:
    """A certificate for 127.0.0.1 the client trusts (through SSL_CERT_FILE)."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl tool is needed to make a test certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"],
                   check=True, capture_output=True)
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


@pytest.mark.parametrize("security", ["starttls", "ssl"])
def test_mail_send_over_tls(tmp_path: Path, certificate: ssl.SSLContext, security: str,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 17 item 3: "`chronicle mail send` by SMTP with STARTTLS or SSL", each
    against a real server that speaks it, with a password from the environment."""
    recorder = Recorder()
    port = _free_port()
    logins: list[tuple[bytes, bytes]] = []

    def authenticate(server: Any, session: Any, envelope: Any, mechanism: str,
                     data: Any) -> Any:
        from aiosmtpd.smtp import AuthResult, LoginPassword

        assert isinstance(data, LoginPassword)
        logins.append((data.login, data.password))
        return AuthResult(success=data.password == b"s3cret")

    # Under SSL the whole connection is TLS, which the server's SMTP layer cannot see:
    # it must offer AUTH without waiting for STARTTLS.
    tls: dict[str, Any] = ({"tls_context": certificate, "require_starttls": True,
                            "auth_require_tls": True}
                           if security == "starttls"
                           else {"ssl_context": certificate, "auth_require_tls": False})
    controller = Controller(recorder, hostname="127.0.0.1", port=port,
                            authenticator=authenticate, **tls)
    controller.start()
    try:
        settings = CONTACTS.replace('security = "none"', f'security = "{security}"').replace(
            'port = 25', f'port = {port}\nuser = "arbiter"')
        root = _played(tmp_path, settings)
        monkeypatch.setenv("CHRONICLE_SMTP_PASSWORD", "s3cret")
        result = run("mail", "send", root)
        assert result.exit_code == 0, result.output
        assert logins == [(b"arbiter", b"s3cret")]
        assert sum(recorder.per_recipient().values()) == 5
    finally:
        controller.stop()


def test_the_corrected_reports_of_turns_played_again_are_mailed(
        tmp_path: Path, smtp_server: tuple[Recorder, int]) -> None:
    """docs/arbiter.md: after a rollback, `adjudicate --through` plays the turns again
    and `mail send` mails "the corrected reports". It mailed the last turn's only:
    the houses never got their corrected reports of the turns before it. Turns no
    message carries are mailed too, from the first turn ever mailed on; only the
    last one's message carries the next turn's template."""
    recorder, port = smtp_server
    root = _played(tmp_path)
    assert run("mail", "send", root, "--smtp", f"127.0.0.1:{port}").exit_code == 0
    for turn in (2, 3):
        (root / "orders" / f"turn-{turn:03d}").mkdir()
        assert run("adjudicate", root, "--yes").exit_code == 0
    assert run("mail", "send", root, "--smtp", f"127.0.0.1:{port}").exit_code == 0
    assert run("rollback", root, "--to", "1").exit_code == 0
    # Corrected orders, so that turn 2 (and so turn 3) is played otherwise.
    (root / "orders" / "turn-002" / "france.orders").write_text(
        "house france\nbirth F1000 attempts 3\n", encoding="utf-8")
    assert run("adjudicate", root, "--through", "3", "--yes").exit_code == 0
    recorder.received.clear()
    result = run("mail", "send", root, "--smtp", f"127.0.0.1:{port}")
    assert result.exit_code == 0, result.output
    to_england = [mail for to, mail in recorder.received if "alice@example.org" in to]
    turns = sorted(str(mail["Subject"]).split("turn ")[1].split()[0].strip(",:")
                   for mail in to_england)
    assert turns == ["2", "3"]
    attached = {str(mail["Subject"]).split("turn ")[1].split()[0].strip(",:"):
                [a.get_filename() for a in mail.iter_attachments()] for mail in to_england}
    assert attached == {"2": [], "3": ["england.orders"]}
    recorder.received.clear()
    assert run("mail", "send", root, "--smtp", f"127.0.0.1:{port}").exit_code == 0
    assert recorder.received == []

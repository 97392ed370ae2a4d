"""``contacts.toml``: what the arbiter knows of the players and must never publish.

The file is optional. It holds the SMTP settings and, per house, the
addresses mail is accepted from and sent to, and an optional passphrase.
It is read fresh by every command that needs it, so a change (a player
replaced) takes effect at the next command. Nothing here reaches the store,
the site or an archive.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from email.headerregistry import Address
from email.utils import getaddresses, parseaddr
from typing import Any

from chronicle.campaign.folder import Campaign, read_toml_text
from chronicle.campaign.spec import locate
from chronicle.errors import CampaignError

CONTACTS_FILE = "contacts.toml"
SECURITY = ("starttls", "ssl", "none")
PASSWORD_VARIABLE = "CHRONICLE_SMTP_PASSWORD"
SMTP_KEYS = {"host": str, "port": int, "user": str, "from": str, "security": str}
HOUSE_KEYS = {"email": list, "passphrase": str}


@dataclass(frozen=True)
class Smtp:
    host: str
    port: int
    sender: str
    security: str = "starttls"
    user: str | None = None

    @property
    def password(self) -> str | None:
        """From the environment, never from a file (the file may be copied about)."""
        return os.environ.get(PASSWORD_VARIABLE) or None


@dataclass(frozen=True)
class HouseContact:
    emails: tuple[str, ...] = ()
    passphrase: str | None = None

    def accepts(self, sender: str) -> bool:
        """Whether mail from ``sender`` may carry this house's orders (any, if no address is set)."""
        return not self.emails or normal_address(sender) in {normal_address(e)
                                                           for e in self.emails}


@dataclass(frozen=True)
class Contacts:
    smtp: Smtp | None = None
    houses: dict[str, HouseContact] = field(default_factory=dict)

    def house(self, house: str) -> HouseContact:
        return self.houses.get(house, HouseContact())


def normal_address(address: str) -> str:
    """The bare address, lower case: ``"Alice <Alice@Example.org>"`` is ``alice@example.org``."""
    return parseaddr(address)[1].strip().lower()


def _valid_address(text: str) -> bool:
    name, address = parseaddr(text)
    if not address or "@" not in address or len(getaddresses([text])) != 1:
        return False
    local, _, domain = address.rpartition("@")
    try:
        Address(display_name=name, username=local, domain=domain)
    except (ValueError, IndexError):
        return False
    return (bool(local) and "." in domain) or domain == "localhost"


def load_contacts(campaign: Campaign, houses: set[str] | None = None) -> Contacts:
    """Read ``contacts.toml`` (an empty ``Contacts`` if there is none).

    ``houses``: the campaign's houses, to refuse a table for a house that
    does not exist (a typo would silently accept mail from anyone).
    """
    path = campaign.root / CONTACTS_FILE
    if not path.exists() and not path.is_symlink():
        return Contacts()
    spec, text = read_toml_text(path, CONTACTS_FILE, inside=campaign.root, secret=True)

    def refuse(message: str, key: str | None, near: str | None = None) -> CampaignError:
        """``key``: the key set in the table headed ``near``; None: the header itself."""
        if key is None:
            line = next((i for i, row in enumerate(text.splitlines(), 1)
                         if near and row.split("#", 1)[0].strip().replace(" ", "") == near),
                        None)
        else:
            line = locate(text, key, near)
        where = f"{CONTACTS_FILE}:{line}" if line else CONTACTS_FILE
        return CampaignError(f"{where}: {message}")

    unknown = sorted(set(spec) - {"smtp", "house"})
    if unknown:
        raise refuse(f"unknown key {unknown[0]!r} (the file holds [smtp] and [house.<id>] "
                     "tables)", unknown[0])
    return Contacts(smtp=_smtp(spec.get("smtp"), refuse),
                    houses=_houses(spec.get("house", {}), houses, refuse))


def _smtp(table: Any, refuse: Any) -> Smtp | None:
    if table is None:
        return None
    if not isinstance(table, dict):
        raise refuse("smtp must be a table: [smtp]", "smtp")
    for key, value in table.items():
        wanted = SMTP_KEYS.get(key)
        if wanted is None:
            raise refuse(f"[smtp] has no key {key!r} (keys: {', '.join(SMTP_KEYS)}; the "
                         f"password comes from the {PASSWORD_VARIABLE} environment variable)",
                         key, "[smtp]")
        if not isinstance(value, wanted) or isinstance(value, bool):
            kind = "a whole number" if wanted is int else "text"
            raise refuse(f"[smtp] {key} must be {kind}, not {value!r}", key, "[smtp]")
    host = table.get("host")
    if not host:
        raise refuse("[smtp] needs a host", "smtp")
    security = table.get("security", "starttls")
    if security not in SECURITY:
        raise refuse(f"[smtp] security must be one of {', '.join(SECURITY)}, not {security!r}",
                     "security", "[smtp]")
    port = table.get("port", 465 if security == "ssl" else 587)
    if not 0 < port < 65536:
        raise refuse(f"[smtp] port must be between 1 and 65535, not {port}", "port", "[smtp]")
    sender = table.get("from") or table.get("user")
    if not sender or not _valid_address(sender):
        raise refuse("[smtp] from must be the address mail is sent from, e.g. "
                     "\"Arbiter <arbiter@example.org>\"", "from" if "from" in table else "smtp",
                     "[smtp]")
    return Smtp(host=host, port=port, sender=sender, security=security,
                user=table.get("user"))


def _houses(table: Any, known: set[str] | None, refuse: Any) -> dict[str, HouseContact]:
    if not isinstance(table, dict):
        raise refuse("house must hold one table per house: [house.<id>]", "house")
    found: dict[str, HouseContact] = {}
    for house, entry in table.items():
        header = f"[house.{house}]"
        if known is not None and house not in known:
            raise refuse(f"{header}: there is no house {house!r} in this campaign (houses: "
                         f"{', '.join(sorted(known))})", None, header)
        if not isinstance(entry, dict):
            raise refuse(f"house.{house} must be a table: {header}", "house")
        for key in entry:
            if key not in HOUSE_KEYS:
                raise refuse(f"{header} has no key {key!r} (keys: email, passphrase)", key,
                             header)
        emails = entry.get("email", [])
        if isinstance(emails, str):
            emails = [emails]
        if not isinstance(emails, list) or not all(isinstance(e, str) for e in emails):
            raise refuse(f"{header} email must be a list of addresses", "email", header)
        for address in emails:
            if not _valid_address(address):
                raise refuse(f"{header} email: {address!r} is not an e-mail address", "email",
                             header)
        passphrase = entry.get("passphrase")
        if passphrase is not None and (not isinstance(passphrase, str) or not passphrase
                                       or '"' in passphrase or "\n" in passphrase):
            raise refuse(f"{header} passphrase must be non-empty text on one line, without "
                         "a double quote", "passphrase", header)
        found[house] = HouseContact(emails=tuple(emails), passphrase=passphrase)
    return found

"""``chronicle new``: a ready-to-play campaign folder."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import tomli_w

from chronicle.campaign.folder import seed_commitment
from chronicle.errors import CampaignError, RulesetError
from chronicle.i18n.words import words
from chronicle.rulesets import descriptor


def campaign_spec(ruleset: str, *, world: str | None, title: str | None,
                  seed: str, language: str = "en") -> dict[str, Any]:
    """The ``campaign.toml`` of a new campaign: the common keys, then the ruleset's own."""
    kind = descriptor(ruleset)
    try:
        world = kind.world({} if world is None else {"world": world})
    except RulesetError as err:
        raise CampaignError(f"--world: {err}") from None
    spec: dict[str, Any] = {"title": title or words(language)("A new chronicle"),
                            "ruleset": ruleset,
                            "start_year": 1300, "language": language,
                            "seed_commitment": seed_commitment(seed)}
    spec.update(kind.campaign_spec(world))
    return spec


#: What a campaign's repository never holds: secrets, private mail and reports,
#: and what commands regenerate.
GITIGNORE = """\
secrets.toml
contacts.toml
chronicle.sqlite
reports/
templates/
mail/
outbox/
rolled-back/
.cache/
.chronicle.store.lock
.chronicle.sqlite.new
"""


def _write_private(path: Path, text: str) -> None:
    """A file only its owner may read (mode 0600 from its creation, never wider)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)


def contacts_text(spec: dict[str, Any]) -> str:
    """A ``contacts.toml`` to fill in: every house's table, commented out."""
    lines = ["# Never publish this file, never mail it: players' addresses and passphrases.",
             "# See docs/arbiter.md, \"Orders by mail\".", "",
             "# [smtp]", '# host = "smtp.example.org"', "# port = 587",
             '# user = "arbiter@example.org"', '# from = "Arbiter <arbiter@example.org>"',
             '# security = "starttls"   # starttls | ssl | none; the password comes from',
             "#                         # the CHRONICLE_SMTP_PASSWORD environment variable"]
    for house in spec.get("house", []):
        lines += ["", f"# [house.{house['id']}]",
                  '# email = ["player@example.org"]', '# passphrase = "a phrase of your own"']
    return "\n".join(lines) + "\n"


def scaffold(directory: Path, ruleset: str, *, world: str | None = None,
             title: str | None = None, seed: str | None = None, language: str = "en") -> Path:
    if directory.exists() and any(directory.iterdir()):
        raise CampaignError(f"{directory}: the folder exists and is not empty")
    seed = seed or secrets.token_hex(16)
    spec = campaign_spec(ruleset, world=world, title=title, seed=seed, language=language)
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "campaign.toml").write_text(
        "# Chronicle campaign. See docs/arbiter.md for every key.\n" + tomli_w.dumps(spec),
        encoding="utf-8")
    _write_private(directory / "secrets.toml",
                   "# Never publish this file: the seed decides every die.\n"
                   + tomli_w.dumps({"seed": seed}))
    _write_private(directory / "contacts.toml", contacts_text(spec))
    (directory / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
    for sub in ("orders/turn-001", "commentary", "reports"):
        (directory / sub).mkdir(parents=True, exist_ok=True)
    return directory

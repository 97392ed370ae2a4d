"""Issue 18 items 1 and 2, and DESIGN.md "The archive bundle (contract, `chronicle archive`)".

The contract: "A zip file holding, under one top folder named after the campaign
slug: `campaign/` [...]; `export.json` and `genealogy.ged` (the two exports);
`site/`: the built site of this campaign; `SHA256SUMS`: one line per other file,
in the format `sha256sum -c` reads. Before `chronicle end` the bundle holds only
what is public: no `secrets.toml`, no order files of unpublished turns, no
reports. The site links the bundle of an ended campaign from its home page."

The issue's "How it will be checked": "A demo campaign is ended and archived;
its bundle must pass `sha256sum -c` and `verify`. Then one order file is
altered and `verify` must fail." And `chronicle verify`: "Exit 0 when they
match, 1 otherwise (and 1 when the seed is not yet revealed)."
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from cli_support import run
from repo_paths import REPO

from chronicle.archival.bundle import sums_line
from chronicle.play.demo import run_demo

SEED = "archive-SECRET-seed-3f09"
DOCS = REPO / "docs"
SHA256SUM = shutil.which("sha256sum")


def _demo(folder: Path, turns: int = 8) -> Path:
    return run_demo(ruleset="blood-royale", turns=turns, seed=SEED, out=folder, site=None,
                    quiet=True)


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo campaign 8 turns in, not ended."""
    return _demo(tmp_path_factory.mktemp("running") / "europe")


@pytest.fixture(scope="module")
def ended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A demo campaign 8 turns in, ended, with the files that are never published."""
    root = _demo(tmp_path_factory.mktemp("ended") / "europe")
    (root / "contacts.toml").write_text('[house.england]\nemail = ["alice@example.org"]\n',
                                        encoding="utf-8")
    for folder in ("mail", "outbox/sent"):
        (root / folder).mkdir(parents=True)
        (root / folder / "1.eml").write_text("From: alice@example.org\n\nhouse england\n",
                                             encoding="utf-8")
    assert run("end", root).exit_code == 0
    return root


@pytest.fixture(scope="module")
def bundle(ended: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("bundle") / "europe.zip"
    result = run("archive", ended, "-o", out)
    assert result.exit_code == 0, result.output
    return out


def _unzip(bundle: Path, into: Path) -> Path:
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(into)
    (top,) = list(into.iterdir())
    return top


def test_the_bundle_holds_the_contracts_layout(bundle: Path) -> None:
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
    assert all(name.startswith("europe/") for name in names)
    inside = {name.removeprefix("europe/") for name in names}
    for expected in ("SHA256SUMS", "export.json", "genealogy.ged", "site/index.html",
                     "site/europe/index.html", "campaign/campaign.toml",
                     "campaign/secrets.toml", "campaign/chronicle.sqlite",
                     "campaign/orders/turn-001/england.orders",
                     "campaign/reports/turn-008/england.md",
                     "campaign/commentary/turn-001.md"):
        assert expected in inside, expected


@pytest.mark.skipif(SHA256SUM is None, reason="no sha256sum on this machine")
def test_the_bundle_passes_sha256sum_c(bundle: Path, tmp_path: Path) -> None:
    top = _unzip(bundle, tmp_path)
    done = subprocess.run([str(SHA256SUM), "-c", "--strict", "SHA256SUMS"], cwd=top,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = done.stdout.count(": OK")
    files = [p for p in top.rglob("*") if p.is_file() and p.name != "SHA256SUMS"]
    assert listed == len(files) > 100


def test_after_end_everything_but_contacts_mail_and_outbox(bundle: Path) -> None:
    """Issue 18: "after it, everything but `contacts.toml`, `mail/` and `outbox/`"."""
    with zipfile.ZipFile(bundle) as archive:
        names = archive.namelist()
        blob = b"".join(archive.read(n) for n in names)
    campaign = [n.removeprefix("europe/campaign/") for n in names
                if n.startswith("europe/campaign/")]
    assert not [n for n in campaign if n == "contacts.toml" or n.startswith(("mail/",
                                                                              "outbox/"))]
    assert b"alice@example.org" not in blob
    # The machine's own working files stay out: the lock, the demo's mark, the
    # reports' completion marks.
    assert not [n for n in campaign if any(part.startswith(".") for part in n.split("/"))]


def test_the_bundle_is_verified_and_an_altered_order_file_is_not(
        bundle: Path, ended: Path, tmp_path: Path) -> None:
    result = run("verify", bundle)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("verified: 8 turns replayed")
    # The campaign folder itself verifies too...
    assert run("verify", ended).exit_code == 0
    # ...but not once one order file says otherwise.
    altered = tmp_path / "europe"
    shutil.copytree(ended, altered)
    path = altered / "orders" / "turn-003" / "england.orders"
    path.write_text("house england\n", encoding="utf-8")
    failed = run("verify", altered)
    assert failed.exit_code == 1
    # Turns 1 and 2 replay as stored; turn 3, whose orders changed, is the first not to.
    assert failed.output.startswith("the replay differs from the store from turn 3 on: at ")
    assert "the store says" in failed.output and ", the replay " in failed.output


def test_an_altered_bundle_fails_its_sums_then_its_replay(bundle: Path,
                                                          tmp_path: Path) -> None:
    """Altered inside the bundle, an order file fails SHA256SUMS; with the sums made
    again to match, it fails the replay."""
    top = _unzip(bundle, tmp_path / "x")
    order = top / "campaign" / "orders" / "turn-002" / "france.orders"
    order.write_text("house france\n", encoding="utf-8")

    def rezip(name: str) -> Path:
        out = tmp_path / name
        with zipfile.ZipFile(out, "w") as archive:
            for path in sorted(top.rglob("*")):
                if path.is_file():
                    archive.write(path, path.relative_to(top.parent).as_posix())
        return out

    failed = run("verify", rezip("tampered.zip"))
    assert failed.exit_code == 1
    assert "campaign/orders/turn-002/france.orders: its SHA-256 is not" in failed.output
    sums = "".join(sums_line(hashlib.sha256(p.read_bytes()).hexdigest(),
                             p.relative_to(top).as_posix())
                   for p in sorted(top.rglob("*")) if p.is_file() and p.name != "SHA256SUMS")
    (top / "SHA256SUMS").write_text(sums, encoding="utf-8")
    failed = run("verify", rezip("resummed.zip"))
    assert failed.exit_code == 1
    assert failed.output.startswith("the replay differs from the store from turn 2 on: at ")


def test_archiving_twice_gives_the_same_bytes(ended: Path, bundle: Path,
                                              tmp_path: Path) -> None:
    again = tmp_path / "again.zip"
    assert run("archive", ended, "-o", again).exit_code == 0
    assert again.read_bytes() == bundle.read_bytes()
    with zipfile.ZipFile(bundle) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos if not i.is_dir()} == {0o100644}
    # Order folders are entries of their own (an empty one must survive the zip).
    assert {i.external_attr >> 16 for i in infos if i.is_dir()} == {0o040755}


def test_before_end_only_what_is_public(running: Path, tmp_path: Path) -> None:
    """DESIGN.md: "Before `chronicle end` the bundle holds only what is public: no
    `secrets.toml`, no order files of unpublished turns, no reports." The store
    holds the secret dice and the orders while the campaign runs, so it waits too."""
    out = tmp_path / "public.zip"
    result = run("archive", running, "-o", out)
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        blob = b"".join(archive.read(n) for n in names)
    campaign = sorted(n.removeprefix("europe/campaign/") for n in names
                      if n.startswith("europe/campaign/"))
    assert campaign == ["campaign.toml", "commentary/turn-001.md"]
    assert SEED.encode() not in blob
    assert b"built-in player" not in blob  # the text of every order file
    export = json.loads(zipfile.ZipFile(out).read("europe/export.json"))
    assert "seed" not in export["campaign"] and "epidemic_threshold" not in export["campaign"]
    home = zipfile.ZipFile(out).read("europe/site/europe/index.html").decode()
    assert "europe.zip" not in home
    refused = run("verify", out)
    assert refused.exit_code == 1 and "nothing can be replayed" in refused.output
    unrevealed = run("verify", running)
    assert unrevealed.exit_code == 1 and "the seed is not revealed yet" in unrevealed.output


def test_the_home_page_of_an_ended_campaign_links_its_bundle(bundle: Path) -> None:
    home = zipfile.ZipFile(bundle).read("europe/site/europe/index.html").decode()
    assert 'href="europe.zip"' in home


def test_a_link_in_the_campaign_folder_stops_the_archive(ended: Path,
                                                         tmp_path: Path) -> None:
    """Never read through links (chronicle/campaign/folder.py read_input)."""
    copy = tmp_path / "europe"
    shutil.copytree(ended, copy, symlinks=True)
    outside = tmp_path / "private.txt"
    outside.write_text("PRIVATE-OUTSIDE-TEXT", encoding="utf-8")
    os.symlink(outside, copy / "commentary" / "turn-002.md")
    result = run("archive", copy, "-o", tmp_path / "out.zip")
    assert result.exit_code == 1
    assert "commentary/turn-002.md: is a link" in result.output
    assert not (tmp_path / "out.zip").exists()


def test_the_documented_reroll_script_agrees_with_the_recorded_dice(
        ended: Path, tmp_path: Path) -> None:
    """Issue 18 item 2: "Document the dice derivation in `docs/archivists.md` precisely
    enough that an independent script could re-roll a turn's dice, and ship such a
    short script in `docs/` as an example, with a test that it agrees." """
    store = ended / "chronicle.sqlite"
    con = sqlite3.connect(store)
    count = con.execute("SELECT count(*) FROM rolls").fetchone()[0]
    turn_7 = con.execute("SELECT count(*) FROM rolls WHERE turn = 7").fetchone()[0]
    con.close()
    script = DOCS / "reroll.py"
    done = subprocess.run([sys.executable, str(script), str(store)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout
    assert done.stdout.strip() == f"{count} rolls re-rolled, 0 differ"
    one = subprocess.run([sys.executable, str(script), str(store), "--turn", "7"],
                         capture_output=True, text=True, check=False)
    assert one.stdout.strip() == f"{turn_7} rolls re-rolled, 0 differ" and turn_7 > 0
    # One face changed in a copy of the store: the script finds that die.
    changed = tmp_path / "changed.sqlite"
    shutil.copy(store, changed)
    con = sqlite3.connect(changed)
    seq, faces = con.execute("SELECT seq, faces FROM rolls WHERE turn = 5 "
                                   "AND dice = '2d6' ORDER BY seq LIMIT 1").fetchone()
    first = json.loads(faces)
    first[0] = first[0] % 6 + 1
    con.execute("UPDATE rolls SET faces = ? WHERE turn = 5 AND seq = ?",
                (json.dumps(first), seq))
    con.commit()
    con.close()
    caught = subprocess.run([sys.executable, str(script), str(changed)], capture_output=True,
                            text=True, check=False)
    assert caught.returncode == 1
    assert f"turn 5 roll {seq} " in caught.stdout and "1 differ" in caught.stdout


@pytest.mark.parametrize("name", ["europe/../../evil.txt", "/etc/evil.txt", "europe/link"])
def test_verify_refuses_a_bundle_that_would_write_outside_or_holds_a_link(
        tmp_path: Path, name: str) -> None:
    """Standard 5: a received bundle is untrusted input; no path leaves the folder it is
    unpacked in, and no link is made."""
    out = tmp_path / "bad.zip"
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("europe/SHA256SUMS", "")
        info = zipfile.ZipInfo(name)
        if name.endswith("link"):
            info.create_system = 3
            info.external_attr = 0o120777 << 16
        archive.writestr(info, "/etc/passwd" if name.endswith("link") else "evil")
    result = run("verify", out)
    assert result.exit_code == 1
    assert "refused" in result.output or "one top folder" in result.output
    assert not (tmp_path.parent / "evil.txt").exists()


def test_verify_refuses_what_is_not_a_bundle(tmp_path: Path) -> None:
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip", encoding="utf-8")
    result = run("verify", junk)
    assert result.exit_code == 1 and "not an archive bundle" in result.output

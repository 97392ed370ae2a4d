"""What the arbiter does between turns, as DESIGN.md's contracts say it works.

- The campaign folder: "`player` and contact changes made after turn 1 take
  effect at the next command."
- The command line: `chronicle end` ends the campaign, "from then on
  `adjudicate`, `preview` and `mail import` refuse"; and `chronicle verify`
  of a bundle: "exit 0 when the replay's export equals the stored one".
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from cli_support import run


def _new(folder: Path, seed: str) -> Path:
    assert run("new", folder, "--ruleset", "dynasty", "--seed", seed).exit_code == 0
    return folder


def _set_first_player(campaign: Path, old: str, new: str) -> None:
    toml = campaign / "campaign.toml"
    text = toml.read_text(encoding="utf-8")
    assert f'player = "{old}"' in text
    toml.write_text(text.replace(f'player = "{old}"', f'player = "{new}"', 1), encoding="utf-8")


def test_a_new_player_s_name_shows_from_the_next_command_and_verifies(tmp_path: Path) -> None:
    """A house changes hands after turn 1: the next build and export name the new
    player, and the ended campaign still verifies (the replay reads the same
    campaign.toml; the store kept the name the campaign started with)."""
    campaign, site = _new(tmp_path / "c", "players"), tmp_path / "site"
    _set_first_player(campaign, "", "Alice Smith")
    assert run("adjudicate", campaign, "--yes").exit_code == 0
    assert run("build", campaign, "-o", site).exit_code == 0
    house = site / "c" / "houses" / "england" / "index.html"
    assert "Alice Smith" in house.read_text(encoding="utf-8")

    _set_first_player(campaign, "Alice Smith", "Bob Jones")
    assert run("build", campaign, "-o", site).exit_code == 0
    page = house.read_text(encoding="utf-8")
    assert "Bob Jones" in page and "Alice Smith" not in page
    exported = run("export", campaign, "--format", "json")
    assert exported.exit_code == 0
    players = {h["id"]: h["player"] for h in json.loads(exported.output)["houses"]}
    assert players["england"] == "Bob Jones"

    (campaign / "orders" / "turn-002").mkdir()
    assert run("adjudicate", campaign, "--yes").exit_code == 0
    assert run("end", campaign).exit_code == 0
    verified = run("verify", campaign)
    assert verified.exit_code == 0, verified.output


def test_an_ended_campaign_refuses_a_rollback_and_keeps_its_turns(tmp_path: Path) -> None:
    """After `chronicle end`, `adjudicate` refuses; a rollback would remove turns
    that nothing could play again, so it refuses too and the store keeps them."""
    campaign = _new(tmp_path / "c", "ended")
    for turn in (1, 2):
        (campaign / "orders" / f"turn-{turn:03d}").mkdir(exist_ok=True)
        assert run("adjudicate", campaign, "--yes").exit_code == 0
    assert run("end", campaign).exit_code == 0
    refused = run("rollback", campaign, "--to", "1")
    assert refused.exit_code == 1
    assert "the campaign has ended" in refused.output and "rolled back" in refused.output
    assert len(refused.output.strip().splitlines()) == 1
    status = run("status", campaign, "--json")
    assert json.loads(status.output)["turn"] == 3
    assert run("verify", campaign).exit_code == 0


def test_the_bundle_of_a_turn_played_without_orders_verifies(tmp_path: Path) -> None:
    """A turn adjudicated with `--yes` on an empty order folder (every house on its
    defaults): the bundle keeps that empty folder, and its replay verifies."""
    campaign = _new(tmp_path / "c", "empty-turn")
    assert not any((campaign / "orders" / "turn-001").iterdir())
    assert run("adjudicate", campaign, "--yes").exit_code == 0
    assert run("end", campaign).exit_code == 0
    bundle = tmp_path / "c.zip"
    assert run("archive", campaign, "-o", bundle).exit_code == 0
    verified = run("verify", bundle)
    assert verified.exit_code == 0, verified.output


def test_a_turn_folder_that_is_a_link_is_refused_whole(tmp_path: Path) -> None:
    """Standard 5: "no input goes through a link". A turn's order folder that is a
    link is refused with one line, and nothing is adjudicated (not every house
    on its defaults, which would throw away the orders behind the link)."""
    campaign = _new(tmp_path / "c", "linked")
    real = tmp_path / "elsewhere"
    (campaign / "orders" / "turn-001").rename(real)
    (real / "england.orders").write_text("house england\n", encoding="utf-8")
    (campaign / "orders" / "turn-001").symlink_to(real, target_is_directory=True)
    for args in ([], ["--yes"]):
        refused = run("adjudicate", campaign, *args)
        assert refused.exit_code == 1, refused.output
        assert refused.output.strip() == ("error: orders/turn-001/: is a link; Chronicle "
                                          "reads the campaign folder's own files only, never "
                                          "through a link")
    assert not (campaign / "chronicle.sqlite").exists()
    assert (real / "england.orders").is_file()


def _checked_after_a_death(tmp_path: Path, who: str, house: str, orders: str) -> Any:
    """`check` of ``house``'s ``orders`` for turn 2, ``who`` killed by a ruling in turn 1."""
    campaign = _new(tmp_path / "c", f"after-{who}")
    (campaign / "orders" / "turn-001" / "arbiter.orders").write_text(
        f"house arbiter\nkill {who}\n", encoding="utf-8")
    assert run("adjudicate", campaign, "--yes").exit_code == 0
    (campaign / "orders" / "turn-002").mkdir()
    (campaign / "orders" / "turn-002" / f"{house}.orders").write_text(
        f"house {house}\n{orders}", encoding="utf-8")
    return run("check", campaign)


def test_an_order_for_someone_dead_says_so(tmp_path: Path) -> None:
    """An order naming a dead person gave another reason ("is not married", "does not
    belong to this house"): it is refused because they are dead."""
    checked = _checked_after_a_death(
        tmp_path, "Margaret", "england",
        'birth Margaret attempts 2\nmarry "Margaret" to minor-nobility\n')
    assert checked.exit_code == 1
    refused = [line for line in checked.output.splitlines() if "england.orders:" in line]
    assert len(refused) == 2, checked.output
    assert all("Margaret is already dead" in line for line in refused), checked.output


def test_the_orders_of_a_house_out_of_play_count_no_line_accepted(tmp_path: Path) -> None:
    """`check` of a file from a house no longer in play: the file is refused, and its
    lines were still counted as accepted."""
    checked = _checked_after_a_death(tmp_path, "C1000", "castile", "birth C1000 attempts 2\n")
    assert checked.exit_code == 1
    assert "castile.orders: house 'castile' is not in play" in checked.output
    assert "1 order files, 0 lines accepted, 0 rejected, 1 file problems" in checked.output


def test_verify_says_what_a_folder_without_a_store_is(tmp_path: Path) -> None:
    """`verify` of a campaign folder with no turn played, or of an unpacked bundle,
    said "a bundle made before 'chronicle end' holds no store"."""
    campaign = _new(tmp_path / "c", "no-store")
    fresh = run("verify", campaign)
    assert fresh.exit_code == 1
    assert "no turn of this campaign has been adjudicated" in fresh.output
    assert run("adjudicate", campaign, "--yes").exit_code == 0
    assert run("end", campaign).exit_code == 0
    bundle = tmp_path / "c.zip"
    assert run("archive", campaign, "-o", bundle).exit_code == 0
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(tmp_path / "unpacked")
    top = next((tmp_path / "unpacked").iterdir())
    unpacked = run("verify", top)
    assert unpacked.exit_code == 1
    assert "an unpacked bundle: verify the bundle itself" in unpacked.output
    assert run("verify", top / "campaign").exit_code == 0


def test_a_reader_that_goes_away_is_no_error(tmp_path: Path) -> None:
    """`chronicle adjudicate … | head -1`: the reader closes the pipe, and the command
    said "error: Broken pipe" and exited 1 though the turn was stored. The turn is
    stored, and nothing is said (a real pipe, closed before anything is read)."""
    campaign = _new(tmp_path / "c", "pipe")
    child = subprocess.Popen([sys.executable, "-m", "chronicle.commands.cli", "adjudicate",
                              str(campaign), "--yes"], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    said = child.stderr.read().decode()
    assert child.wait() == 0 and said == ""
    assert json.loads(run("status", campaign, "--json").output)["turn"] == 2

"""``chronicle demo``: a whole campaign played by built-in players."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from chronicle import runner
from chronicle.campaign import CampaignError, load_campaign
from chronicle.players import PERSONALITIES, orders_for
from chronicle.rulesets import descriptor
from chronicle.scaffold import scaffold

MARKER = ".chronicle-demo"
COMMENTARY = """\
The chronicle opens in the year of grace {year}. The arbiter will add a word
here each turn; this page shows how the *arbiter's commentary* appears.
"""


def _prepare(out: Path) -> None:
    """An empty folder or an earlier demo's is used; anything else is left alone."""
    if out.exists():
        if not out.is_dir():
            raise CampaignError(f"{out}: is a file; choose another --out")
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise CampaignError(f"{out}: exists and is not a demo folder; choose another --out")
        shutil.rmtree(out)


def run_demo(*, ruleset: str, turns: int | None, seed: str, out: Path, site: Path | None,
             world: str | None = None, quiet: bool = False, end: bool = False) -> Path:
    """Play the demo campaign; ``end``: end it (``chronicle end``) before the site is
    built, so the site shows the seed and every threshold revealed."""
    started = time.perf_counter()
    _prepare(out)
    kind = descriptor(ruleset)
    scaffold(out, ruleset, world=world, title=kind.demo_title(world), seed=seed)
    (out / MARKER).write_text("made by chronicle demo; safe to delete\n", encoding="utf-8")
    (out / "commentary" / "turn-001.md").write_text(COMMENTARY.format(year=1300),
                                                    encoding="utf-8")
    played = play_turns(out, turns or kind.demo_turns, seed, quiet=quiet)
    if end:
        runner.end(load_campaign(out))
    if site is not None:
        from chronicle.publish import build_site

        if not quiet:
            click.echo("Building the site…")
        build_site([out], site)
    if not quiet:
        elapsed = time.perf_counter() - started
        click.echo(f"Played {played} turns of {ruleset} in {elapsed:.1f} s; "
                   f"the campaign folder is {out}/")
        if site is not None:
            click.echo(f"The site is in {site}/: open {site}/index.html in a browser, "
                       f"or run 'chronicle serve {site}' and visit http://127.0.0.1:8000/")
    return out


def play_turns(folder: Path, turns: int, seed: str, *, quiet: bool = True,
               personalities: tuple[str, ...] = PERSONALITIES) -> int:
    """Play up to ``turns`` turns of a campaign folder with built-in players.

    Each turn the players write real order files into the turn's folder, then
    the turn is adjudicated and stored like any other. Returns turns played.
    """
    campaign = load_campaign(folder)
    ruleset = runner.ruleset_of(campaign)
    played = 0
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), disable=quiet, transient=False) as progress:
        task = progress.add_task("Playing turns", total=turns)
        state = runner.current_state(campaign, ruleset)
        for _ in range(turns):
            if runner.over_reason(state) is not None:
                break
            folder_n = campaign.orders_dir(state.turn + 1)
            folder_n.mkdir(parents=True, exist_ok=True)
            ordering = set(ruleset.ordering_houses(state))
            for index, house in enumerate(sorted(state.houses)):
                if house in ordering:
                    text = orders_for(campaign.ruleset, state, house, campaign.rules,
                                      personalities[index % len(personalities)],
                                      f"{seed}:{state.turn}:{house}")
                    (folder_n / f"{house}.orders").write_text(text, encoding="utf-8")
            state = runner.adjudicate(campaign, state=state).result.state
            played += 1
            progress.advance(task)
        progress.update(task, total=played, completed=played)
    return played


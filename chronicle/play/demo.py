"""``chronicle demo``: a whole campaign played by built-in players."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from chronicle.campaign.folder import load_campaign
from chronicle.campaign.scaffold import scaffold
from chronicle.errors import CampaignError
from chronicle.i18n.words import Say, as_written, words
from chronicle.play.players import orders_for, personalities_of
from chronicle.rulesets import descriptor
from chronicle.turn import runner

MARKER = ".chronicle-demo"
#: The arbiter's word on the first turn, in the campaign's language (a catalogue entry).
COMMENTARY = ("The chronicle opens in the year of grace %(year)s. The arbiter will add a word\n"
              "here each turn; this page shows how the *arbiter's commentary* appears.\n")


def _prepare(out: Path) -> None:
    """An empty folder or an earlier demo's is used; anything else is left alone."""
    if out.exists():
        if not out.is_dir():
            raise CampaignError("%(out)s: is a file; choose another --out", out=out)
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise CampaignError("%(out)s: exists and is not a demo folder; choose another "
                                "--out", out=out)
        shutil.rmtree(out)


def run_demo(*, ruleset: str, turns: int | None, seed: str, out: Path, site: Path | None,
             world: str | None = None, quiet: bool = False, end: bool = False,
             language: str = "en") -> Path:
    """Play the demo campaign; ``end``: end it (``chronicle end``) before the site is
    built, so the site shows the seed and every threshold revealed. Its title, the
    arbiter's commentary and what the command says are in ``language``."""
    started = time.perf_counter()
    _ = words(language)
    _prepare(out)
    kind = descriptor(ruleset)
    scaffold(out, ruleset, world=world, title=_(kind.demo_title(world)), seed=seed,
             language=language)
    (out / MARKER).write_text("made by chronicle demo; safe to delete\n", encoding="utf-8")
    (out / "commentary" / "turn-001.md").write_text(_(COMMENTARY, year=1300),
                                                    encoding="utf-8")
    played = play_turns(out, turns or kind.demo_turns, seed, quiet=quiet, say=_)
    if end:
        runner.end(load_campaign(out))
    if site is not None:
        from chronicle.site import build_site

        if not quiet:
            click.echo(_("Building the site…"))
        slug = build_site([out], site).campaigns[0]
        if end:
            # An ended campaign's home page links its bundle: made as the arbiter
            # would (docs/arbiter.md), so that the link leads somewhere.
            from chronicle.archival.bundle import make_bundle
            from chronicle.views.data import bundle_name

            make_bundle(load_campaign(out), site / slug / bundle_name(slug))
    if not quiet:
        elapsed = time.perf_counter() - started
        click.echo(_("Played %(turns)s turns of %(ruleset)s in %(seconds)s s; the campaign "
                     "folder is %(out)s/", turns=played, ruleset=ruleset,
                     seconds=f"{elapsed:.1f}", out=out))
        if site is not None:
            click.echo(_("The site is in %(site)s/: open %(site)s/index.html in a browser, or "
                         "run 'chronicle serve %(site)s' and visit http://127.0.0.1:8000/",
                         site=site))
    return out


def play_turns(folder: Path, turns: int, seed: str, *, quiet: bool = True,
               personalities: tuple[str, ...] | None = None,
               say: Say = as_written) -> int:
    """Play up to ``turns`` turns of a campaign folder with built-in players.

    Each turn the players write real order files into the turn's folder, then
    the turn is adjudicated and stored like any other. Returns turns played.
    """
    campaign = load_campaign(folder)
    ruleset = runner.ruleset_of(campaign)
    moods = personalities or personalities_of(campaign.ruleset)
    played = 0
    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), disable=quiet, transient=False) as progress:
        task = progress.add_task(say("Playing turns"), total=turns)
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
                                      moods[index % len(moods)],
                                      f"{seed}:{state.turn}:{house}")
                    (folder_n / f"{house}.orders").write_text(text, encoding="utf-8")
            state = runner.adjudicate(campaign, state=state).result.state
            played += 1
            progress.advance(task)
        progress.update(task, total=played, completed=played)
    return played


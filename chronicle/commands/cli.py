"""The ``chronicle`` command line (DESIGN.md "Command line").

Exit codes: 0 success; 1 the input was refused (a campaign file, or orders
under ``check``); 2 a usage error. Anything a user can type or write gets a
message, never a traceback.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

# Only the registry at the top: ``chronicle --version`` and ``--help`` must
# start at once. Every command imports what it uses, inside its function, so
# none pays for the store's database library or the site generator unless it
# needs them (tests/test_cli_imports.py checks which modules each one loads).
from chronicle import __version__
from chronicle.i18n.words import Say, as_written, words
from chronicle.rulesets import DEFAULT, all_personalities, all_worlds, descriptor, ruleset_ids

F = TypeVar("F", bound=Callable[..., Any])

#: Where a command notes the language it speaks once it knows it (the click
#: context's ``meta``, shared by the command and its group).
SPOKEN = "chronicle.language"


def speak(language: str) -> Say:
    """The words of ``language``, which the command's errors speak from now on too.

    Before a command knows a campaign's language (a campaign.toml that does
    not read, a folder that is not a campaign), its errors are in English.
    """
    context = click.get_current_context(silent=True)
    if context is not None:
        context.meta[SPOKEN] = language
    return words(language)


def refusals(fn: F) -> F:
    """Turn refused input into a message and exit code 1."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BrokenPipeError:
            # The reader went away (``chronicle adjudicate … | head``): what was done
            # is done, and there is nobody left to tell. Python would complain again
            # when it flushes stdout at exit, so stdout goes nowhere from here.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except Exception as err:
            context = click.get_current_context(silent=True)
            say = words(str(context.meta.get(SPOKEN, "en")) if context is not None else "en")
            message = refusal(err, say)
            if message is None:
                raise
            click.echo(say("error: %(message)s", message=message), err=True)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def refusal(err: Exception, say: Say = as_written) -> str | None:
    """The one-line message for an error that is the input's fault or the machine's.

    Every ``ChronicleError`` is one (``chronicle.errors`` draws the tree),
    but ``NarrationError``; so are the machine's refusals (a full disk, a
    read-only store). None for anything else (a bug, which keeps its traceback).
    """
    from chronicle.campaign.folder import STORE_FILE
    from chronicle.errors import CampaignError, ChronicleError, NarrationError

    if isinstance(err, CampaignError):
        return err.said(say)
    if isinstance(err, ChronicleError) and not isinstance(err, NarrationError):
        return str(err)
    if "chronicle.store.file" in sys.modules:  # else no store was opened, and none failed
        import sqlite3

        from chronicle.store.file import store_failure

        # What was being written is rolled back by SQLite; say why in a line.
        # The ORM wraps SQLite's own errors in its own class.
        orm = sys.modules.get("sqlalchemy.exc")
        failed = (sqlite3.OperationalError,) + ((orm.OperationalError,) if orm else ())
        why = store_failure(err) if isinstance(err, failed) else None
        if why is not None:
            return f"{STORE_FILE}: {why}"
    if isinstance(err, OSError):
        # A full disk, a file too large, a read-only folder: the machine's
        # refusal, not a bug. Each writer leaves what it replaces whole.
        where = f"{err.filename}: " if err.filename else ""
        return f"{where}{err.strerror or err}"
    if isinstance(err, OverflowError):
        return say("a number grew too large to be stored (a treasury or a year beyond any "
                   "real campaign?); nothing was stored")
    return None


def _load(folder: Path) -> Any:
    """The campaign in ``folder``, whose language the command speaks from now on."""
    from chronicle.campaign.folder import load_campaign

    camp = load_campaign(folder)
    speak(camp.language)
    return camp


CAMPAIGN = click.argument("campaign", type=click.Path(file_okay=False, path_type=Path))


class Registered(click.Choice):  # type: ignore[type-arg]
    """The registered rulesets (or their worlds), read when the command runs.

    The registry decides, not a list written here: a ruleset added to it,
    even at run time, is a choice at once.
    """

    def __init__(self, options: Callable[[], Sequence[str]]) -> None:
        super().__init__(())
        self._options = options

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        return tuple(self._options())

    @choices.setter
    def choices(self, _value: Sequence[str]) -> None:
        pass


def _simulated() -> tuple[str, ...]:
    return tuple(r for r in ruleset_ids() if descriptor(r).statistics() is not None)


def _personalities() -> tuple[str, ...]:
    return all_personalities()


def _languages() -> tuple[str, ...]:
    from chronicle.i18n.localnames import LANGUAGES

    return LANGUAGES


RULESET = Registered(ruleset_ids)
LANGUAGE = Registered(_languages)
WORLD = Registered(all_worlds)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="chronicle")
def cli() -> None:
    """Adjudicate and publish play-by-email dynasty games."""


@cli.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--ruleset", type=RULESET, default=DEFAULT, show_default=True)
@click.option("--world", type=WORLD, default=None,
              help="The content pack (world) of a ruleset that has several.")
@click.option("--title", default=None)
@click.option("--seed", default=None, help="Use this seed instead of a random one.")
@click.option("--language", type=LANGUAGE, default="en", show_default=True,
              help="The campaign's language (campaign.toml's language), which this "
                   "command speaks too.")
@refusals
def new(directory: Path, ruleset: str, world: str | None, title: str | None,
        seed: str | None, language: str) -> None:
    """Scaffold a campaign folder."""
    from chronicle import api

    _ = speak(language)
    api.new_campaign(directory, ruleset, world=world, title=title, seed=seed, language=language)
    click.echo(_("Created %(directory)s/ (%(ruleset)s). Keep secrets.toml to yourself.",
                 directory=directory, ruleset=ruleset))
    click.echo(_("Next: put order files in %(directory)s/orders/turn-001/, then "
                 "'chronicle check %(directory)s' and 'chronicle adjudicate %(directory)s'.",
                 directory=directory))


@cli.command()
@CAMPAIGN
@refusals
def check(campaign: Path) -> None:
    """Parse and validate the next turn's orders; adjudicate nothing."""
    from chronicle import api

    camp = _load(campaign)
    _recover(camp)
    checked = api.check(camp)
    for line in checked.lines():
        click.echo(line)
    if checked.failed:
        sys.exit(1)


def _recover(camp: Any) -> None:
    """Finish what an interrupted command left undone before reading the campaign."""
    from chronicle import api

    turn = api.recover(camp)
    if turn is not None:
        _ = words(camp.language)
        click.echo(_("The reports of turn %(turn)s were left unwritten by an interrupted "
                     "command; they are written now.", turn=turn), err=True)


def _summary(camp: Any, outcome: Any) -> None:
    from chronicle.i18n.reasons import as_written, engine_words, rejected_line
    from chronicle.narration.plain import plain_sentences

    _ = words(camp.language)
    result = outcome.result
    state = result.state
    click.echo(_("Turn %(turn)s (%(year)s) adjudicated.", turn=outcome.turn, year=outcome.year))
    problems = outcome.orders.problems + outcome.orders.refused()
    rejections = sorted(result.rejections, key=lambda r: (r.file, r.line))
    # The pack's names are read only when a reason may name something.
    say = (engine_words(camp.language, camp.descriptor.local_names(camp.spec, camp.language))
           if (problems or rejections) and camp.language != "en" else as_written)
    for problem in problems:
        click.echo(f"  {say(problem)}")
    for rejection in rejections:
        click.echo("  " + _("rejected: %(line)s", line=rejected_line(rejection, say)))
    if result.defaulted:
        click.echo("  " + _("defaults applied for: %(houses)s",
                            houses=", ".join(result.defaulted)))
    told = outcome.told
    if told is None:  # no reports were written (a preview)
        told = plain_sentences(state, result.events, camp.language,
                               camp.descriptor.local_names(camp.spec, camp.language))
    for text in told:
        click.echo(f"  {text}")


@cli.command()
@CAMPAIGN
@click.option("--yes", is_flag=True,
              help="Adjudicate even a turn folder holding no order file at all.")
@click.option("--through", "through", type=click.IntRange(min=1), default=None, metavar="N",
              help="Adjudicate every turn up to N whose order folder exists "
                   "(after a rollback, say).")
@refusals
def adjudicate(campaign: Path, yes: bool, through: int | None) -> None:
    """Adjudicate the next turn, write the store and the private reports."""
    from chronicle import api

    camp = _load(campaign)
    _ = words(camp.language)

    def told(outcome: Any) -> None:
        _summary(camp, outcome)
        click.echo(_("Reports: %(folder)s", folder=camp.reports_dir(outcome.turn)))
        over = api.over_reason(outcome, _)
        if over is not None:
            click.echo(_("The campaign is over (%(why)s): run 'chronicle end %(campaign)s' "
                         "to reveal the seed and end it.", why=over, campaign=campaign))

    api.adjudicate(camp, through=through, allow_empty=yes, each=told)


@cli.command()
@CAMPAIGN
@refusals
def preview(campaign: Path) -> None:
    """Adjudicate into a throw-away copy and show what would happen."""
    from chronicle import api

    camp = _load(campaign)
    _recover(camp)
    outcome = api.preview(camp)
    _summary(camp, outcome)
    click.echo(words(camp.language)("(preview only: nothing was stored)"))


@cli.command()
@CAMPAIGN
@click.option("--to", "to", type=click.IntRange(min=0), required=True,
              help="The last turn to keep (0: back to the start).")
@refusals
def rollback(campaign: Path, to: int) -> None:
    """Return the store to the end of turn N."""
    from chronicle import api

    camp = _load(campaign)
    _ = words(camp.language)
    done = api.rollback(camp, to)
    last, moved = done.last, done.moved
    click.echo(_("The store is back at the end of turn %(turn)s (turns %(first)s-%(last)s "
                 "removed).", turn=to, first=to + 1, last=last))
    if moved:
        click.echo(_("Moved aside, so that they cannot be mailed by mistake:"))
        for line in moved:
            click.echo(f"  {line}")
    click.echo(_("The order folders are kept: 'chronicle adjudicate %(campaign)s --through "
                 "%(last)s' plays them again.", campaign=campaign, last=last))


@cli.command()
@CAMPAIGN
@click.option("--format", "fmt", type=click.Choice(["json", "gedcom", "gedcom7"]),
              default="json", show_default=True,
              help="json (DESIGN.md), gedcom (GEDCOM 5.5.1) or gedcom7 (GEDCOM 7.0).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None)
@refusals
def export(campaign: Path, fmt: str, output: Path | None) -> None:
    """Machine-readable exports of the last adjudicated turn."""
    from chronicle import api

    text = api.export(_load(campaign), fmt)  # type: ignore[arg-type]  # click checked the choice
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@cli.command()
@CAMPAIGN
@click.option("--auto", "auto", multiple=True, metavar="HOUSE",
              help="Let a built-in player write HOUSE's orders for the next turn.")
@click.option("--personality", type=Registered(lambda: _personalities()),
              default="cautious", show_default=True)
@click.option("--force", is_flag=True, help="Overwrite an existing order file with --auto.")
@refusals
def template(campaign: Path, auto: tuple[str, ...], personality: str, force: bool) -> None:
    """Write next turn's order templates per house (templates/turn-NNN/)."""
    from chronicle.campaign.folder import write_inside
    from chronicle.errors import CampaignError
    from chronicle.play.players import write_auto_orders
    from chronicle.turn import runner
    from chronicle.turn.reports import template_for

    camp = _load(campaign)
    _ = words(camp.language)
    _recover(camp)
    ruleset = runner.ruleset_of(camp)
    state = runner.current_state(camp, ruleset)
    turn = state.turn + 1
    for house in auto:
        if house not in state.houses:
            raise CampaignError("--auto: there is no house %(house)r", house=house)
        path = write_auto_orders(camp, state, house, personality, force=force)
        click.echo(_("%(house)s: built-in orders written to %(path)s", house=house, path=path))
    folder = camp.root / "templates" / f"turn-{turn:03d}"
    for house in ruleset.ordering_houses(state):
        write_inside(camp.root, folder / f"{house}.orders",
                     template_for(camp, ruleset, state, house))
    click.echo(_("Templates for turn %(turn)s written to %(folder)s/", turn=turn, folder=folder))


def _absolute_url(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    """A base URL is a full address: a sitemap's <loc> and a feed's links must be."""
    if value and not value.startswith(("https://", "http://")):
        raise click.BadParameter(f"{value!r}: give the full address, https://...")
    return value


def _site_facts(campaigns: tuple[Path, ...]) -> tuple[str, str]:
    """What the campaigns' ``campaign.toml`` say of the site, read before anything
    heavy: its address (``base_url``), for a build not given ``--base-url`` (the
    reports link the very pages it makes), and the first one's language, which
    the build's messages speak (as the archive's index does)."""
    from chronicle.i18n.localnames import LANGUAGES
    from chronicle.site.incremental.inputs import campaign_facts

    found, languages = set(), []
    for folder in campaigns:
        # A file that does not read well is refused when the campaign loads.
        spec = campaign_facts(folder)
        value, language = spec.get("base_url"), spec.get("language")
        if isinstance(value, str) and value:
            found.add(value)
        languages.append(language if language in LANGUAGES else "en")
    if len(found) > 1:
        raise click.UsageError(f"the campaigns give different base_url values "
                               f"({', '.join(sorted(found))}): give the site's with --base-url")
    return (found.pop() if found else ""), (languages[0] if languages else "en")


@cli.command()
@click.argument("campaigns", nargs=-1, required=True,
                type=click.Path(file_okay=False, path_type=Path))
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              default=Path("site"), show_default=True)
@click.option("--base-url", default="", metavar="URL", callback=_absolute_url,
              help="Where the site will live (https://...), for absolute links in the "
                   "feed and a sitemap (written only then: it needs full addresses). "
                   "Default: the campaigns' base_url in campaign.toml, if they give one.")
@refusals
def build(campaigns: tuple[Path, ...], output: Path, base_url: str) -> None:
    """Publish the static site; several campaigns form one archive."""
    from chronicle.site.incremental.inputs import up_to_date

    published, language = _site_facts(campaigns)
    base_url = base_url or published
    _ = speak(language)
    # Before anything heavy is imported: a site made from these very inputs
    # is left as it is (the whole command then costs a hash of the stores).
    files = up_to_date(list(campaigns), output, base_url)
    if files is not None:
        click.echo(_("Site in %(output)s/ is up to date: %(files)s files, 0 changed.",
                     output=output, files=files))
        return
    from chronicle import api

    report = api.build_site(campaigns, output, base_url=base_url)
    click.echo(_("Site written to %(output)s/: %(files)s files, %(changed)s changed, "
                 "%(removed)s removed. Open %(output)s/index.html.", output=output,
                 files=report.files, changed=len(report.changed),
                 removed=len(report.removed)))


@cli.command()
@CAMPAIGN
@click.option("--turn", type=click.IntRange(min=1), default=None,
              help="The turn whose reports to write (default: the last).")
@refusals
def reports(campaign: Path, turn: int | None) -> None:
    """Write a turn's private reports again, from the store."""
    from chronicle import api

    camp = _load(campaign)
    number, folder = api.write_reports(camp, turn)
    click.echo(words(camp.language)("The reports of turn %(turn)s are written again in %(folder)s/",
                           turn=number, folder=folder))


@cli.command()
@CAMPAIGN
@refusals
def end(campaign: Path) -> None:
    """End a campaign: reveal the seed in the store, for the archive."""
    from chronicle import api

    camp = _load(campaign)
    api.end(camp)
    click.echo(words(camp.language)("The campaign has ended. The seed is revealed; the next build "
                           "publishes it and the epidemic thresholds. From now on adjudicate, "
                           "preview and mail import refuse."))


@cli.command()
@CAMPAIGN
@click.option("--json", "as_json", is_flag=True, help="Print the status as JSON.")
@refusals
def status(campaign: Path, as_json: bool) -> None:
    """The next turn, its deadline, and who has sent orders."""
    import json

    from chronicle.turn.status import campaign_status

    camp = _load(campaign)
    found = campaign_status(camp, as_written if as_json else words(camp.language))
    if as_json:
        click.echo(json.dumps(found.as_json(), indent=1))
        return
    from chronicle.i18n.reasons import engine_words

    _ = words(camp.language)
    say = engine_words(camp.language, camp.descriptor.local_names(camp.spec, camp.language))
    click.echo(_("Next: turn %(turn)s (%(year)s); deadline: %(deadline)s", turn=found.turn,
                 year=found.year, deadline=found.deadline or _("none set")))
    if found.over:
        click.echo(found.over)
    states = {"received": _("received"), "missing": _("missing"), "refused": _("refused")}
    for house in found.houses:
        when = " " + _("at %(time)s", time=house.received_at) if house.received_at else ""
        why = f" ({say(house.why)})" if house.why and house.orders == "refused" else ""
        click.echo(f"  {house.id}: {states.get(house.orders, house.orders)}{when}{why}; "
                   f"NMR {house.nmr}")


@cli.group()
def mail() -> None:
    """Orders by mail in, acknowledgements and reports out."""


@mail.command("import")
@CAMPAIGN
@click.argument("sources", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@refusals
def mail_import(campaign: Path, sources: tuple[Path, ...]) -> None:
    """Read orders from Maildir folders, mbox files or .eml files."""
    from chronicle.mail.importing import import_mail

    camp = _load(campaign)
    turn, results = import_mail(camp, list(sources))
    _ = words(camp.language)
    for result in results:
        click.echo(result.line(_))
    accepted = sum(r.accepted for r in results)
    refused = sum(not r.accepted and not r.duplicate for r in results)
    click.echo(words(camp.language)("turn %(turn)s: %(messages)s messages, %(filed)s filed, %(refused)s "
                           "refused; acknowledgements are in %(campaign)s/outbox/ ('chronicle "
                           "mail send' sends them)", turn=turn, messages=len(results),
                           filed=accepted, refused=refused, campaign=campaign))


@mail.command("send")
@CAMPAIGN
@click.option("--smtp", "smtp", default=None, metavar="HOST:PORT",
              help="Send through this server instead of contacts.toml's host and port.")
@click.option("--dry-run", is_flag=True, help="List what would be sent; send nothing.")
@refusals
def mail_send(campaign: Path, smtp: str | None, dry_run: bool) -> None:
    """Queue the last turn's reports and templates, then send the outbox by SMTP."""
    from chronicle.mail.sending import parse_hostport, send_mail

    override = parse_hostport(smtp) if smtp else None
    camp = _load(campaign)
    for line in send_mail(camp, smtp_override=override, dry_run=dry_run, say=words(camp.language)):
        click.echo(line)


@cli.command()
@CAMPAIGN
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              required=True, help="The bundle to write (FILE.zip).")
@refusals
def archive(campaign: Path, output: Path) -> None:
    """The archivist's bundle: campaign folder, exports, site and SHA256SUMS."""
    from chronicle import api

    camp = _load(campaign)
    bundle = api.archive(camp, output)
    _ = words(camp.language)
    what = (_("the whole campaign (ended)") if bundle.ended else
            _("what is public so far: no seed, orders, reports or store until 'chronicle end'"))
    click.echo(_("Bundle written to %(path)s: %(files)s files, %(what)s.", path=bundle.path,
                 files=bundle.files, what=what))


@cli.command()
@click.argument("target", metavar="CAMPAIGN-OR-BUNDLE",
                type=click.Path(exists=True, path_type=Path))
@refusals
def verify(target: Path) -> None:
    """Replay every turn from the revealed seed and compare it with the store."""
    from chronicle import api

    verdict = api.verify(target)
    click.echo(speak(verdict.language)(verdict.message, **verdict.values))
    if not verdict.ok:
        sys.exit(1)


@cli.command()
@click.option("--ruleset", type=RULESET, default=DEFAULT, show_default=True)
@click.option("--turns", type=click.IntRange(min=1), default=None,
              help="Turns to play (default: the whole campaign).")
@click.option("--seed", default="chronicle-demo", show_default=True)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo"),
              show_default=True, help="Where to keep the campaign folder.")
@click.option("--site", "site", type=click.Path(file_okay=False, path_type=Path),
              default=Path("site"), show_default=True)
@click.option("--no-site", is_flag=True, help="Play and store only; build no site.")
@click.option("--world", type=WORLD, default=None)
@click.option("--language", type=LANGUAGE, default="en", show_default=True,
              help="The campaign's language: its site's, and this command's.")
@refusals
def demo(ruleset: str, turns: int | None, seed: str, out: Path, site: Path, no_site: bool,
         world: str | None, language: str) -> None:
    """Play a sample campaign with built-in players, then build the site."""
    from chronicle.play.demo import run_demo

    speak(language)
    run_demo(ruleset=ruleset, turns=turns, seed=seed, out=out,
             site=None if no_site else site, world=world, end=True, language=language)


@cli.command()
@click.option("--ruleset", type=Registered(_simulated), default=DEFAULT,
              show_default=True)
@click.option("--runs", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--turns", type=click.IntRange(min=1), default=20, show_default=True)
@click.option("--seed", default="simulate", show_default=True)
@click.option("--world", type=WORLD, default=None,
              help="The content pack (world) to play, for a ruleset that has several.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Worker processes (default: every core).")
@click.option("--json", "as_json", type=click.Path(dir_okay=False, path_type=Path),
              default=None, help="Also write the report as JSON to this file.")
@refusals
def simulate(ruleset: str, runs: int, turns: int, seed: str, world: str | None,
             jobs: int | None, as_json: Path | None) -> None:
    """Monte Carlo report for balancing a campaign before it starts."""
    from chronicle.play.simulate import run_simulation

    run_simulation(ruleset=ruleset, runs=runs, turns=turns, seed=seed, jobs=jobs,
                   json_path=as_json, world=world)


@cli.command()
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path), default=Path("site"))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--watch", is_flag=True,
              help="FOLDER is a campaign: build its site into --output, build it again "
                   "whenever its store changes, and reload the open pages.")
@click.option("-o", "--output", type=click.Path(file_okay=False, path_type=Path),
              default=Path("site"), show_default=True, help="With --watch: the site's folder.")
@click.option("--interval", type=click.FloatRange(min=0.1), default=1.0, show_default=True,
              help="With --watch: seconds between looks at the store.")
@refusals
def serve(folder: Path, port: int, watch: bool, output: Path, interval: float) -> None:
    """Preview a built site on http://127.0.0.1:PORT/ (loopback only).

    Only the site's own files are served, never through a link.
    """
    from chronicle.site.serve import Watcher, make_server

    watcher = None
    site = folder
    # A site alone says nothing of its language: only a watched campaign does.
    _ = words("en")
    if watch:
        _ = words(_load(folder).language)
        site = output
        watcher = Watcher(folder, output, click.echo, interval=interval)
        if not watcher.build():
            sys.exit(1)
        watcher.start()
    if not (site / "index.html").is_file():
        click.echo(_("error: %(message)s", message=_(
            "%(site)s/index.html not found; run 'chronicle build' first", site=site)), err=True)
        sys.exit(1)
    with make_server(site, port, watcher) as server:
        address = f"http://127.0.0.1:{server.server_port}/"
        click.echo(_("Serving %(site)s/ on %(address)s (watching the campaign; Ctrl-C to stop)",
                     site=site, address=address) if watcher else
                   _("Serving %(site)s/ on %(address)s (Ctrl-C to stop)", site=site,
                     address=address))
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo(_("stopped"))
        finally:
            if watcher is not None:
                watcher.stop()


def main() -> None:
    cli()


if __name__ == "__main__":
    main()

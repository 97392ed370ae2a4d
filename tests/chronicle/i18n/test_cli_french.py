"""Issue 19, item 4: "Reports, templates and command-line messages go through the
catalogue": on a French campaign, ``new``, ``demo``, ``verify`` and ``serve`` speak
French, and so do the errors of a command once it has read the campaign's language,
in the ``file:line: what and why`` shape (standard 3). Errors that come before any
campaign is read stay English.
"""

from __future__ import annotations

import queue
import re
import time
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from cli_support import run, serve_process

from chronicle.i18n.catalogue import catalog_path

CATALOGUE = catalog_path("fr")


def _english_sentences() -> list[re.Pattern[str]]:
    """Every English message of the catalogue as a pattern of the line it prints,
    each blank (``%(turn)s``) standing for anything. Only messages of three words or
    more outside their blanks: a word alone ("stopped") may be French too."""
    with CATALOGUE.open("rb") as handle:
        catalogue = read_po(handle, locale="fr")
    patterns = []
    for message in catalogue:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for msgid in ids:
            if not msgid or len(re.sub(r"%\(\w+\)[sdr]", " ", msgid).split()) < 3:
                continue
            parts = re.split(r"%\(\w+\)[sdr]", msgid.strip())
            patterns.append(re.compile(".*".join(map(re.escape, parts))))
    return patterns


ENGLISH = _english_sentences()


def _english_in(output: str) -> list[str]:
    return [line for line in output.splitlines() for p in ENGLISH if p.search(line)]


def test_the_list_of_english_messages_finds_english() -> None:
    """The check below can fail: the English of the same commands is found."""
    assert len(ENGLISH) > 300
    assert _english_in("Created g/ (blood-royale). Keep secrets.toml to yourself.")
    assert _english_in("error: orders/turn-001/: holds no order file at all, so every "
                       "house would get the defaults; run again with --yes if that is "
                       "what you want")


def _french_campaign(tmp_path: Path) -> tuple[Path, list[str]]:
    folder = tmp_path / "guerre"
    made = run("new", folder, "--language", "fr", "--seed", "en-français")
    assert made.exit_code == 0, made.output
    toml = (folder / "campaign.toml").read_text(encoding="utf-8")
    assert 'language = "fr"' in toml and 'title = "Une nouvelle chronique"' in toml
    return folder, [made.output]


def test_new_speaks_the_language_of_the_campaign_it_makes(tmp_path: Path) -> None:
    _, said = _french_campaign(tmp_path)
    assert said[0].startswith(f"{tmp_path / 'guerre'}/ est créé (blood-royale). Gardez "
                              "secrets.toml pour vous seul.\nEnsuite : mettez les fichiers")
    assert _english_in(said[0]) == []
    english = run("new", tmp_path / "war")
    assert "Keep secrets.toml to yourself." in english.output


def test_a_french_campaigns_errors_are_french_and_keep_their_shape(tmp_path: Path) -> None:
    """Standard 3's ``file: what and why`` in French, exit code 1, no traceback."""
    folder, _ = _french_campaign(tmp_path)
    empty = run("adjudicate", folder)
    assert empty.exit_code == 1
    assert empty.output == ("erreur : orders/turn-001/ : ne contient aucun fichier d’ordres, "
                            "et chaque maison recevrait les ordres par défaut ; relancez "
                            "avec --yes si c’est ce que vous voulez\n")
    back = run("rollback", folder, "--to", "3")
    assert back.exit_code == 1
    assert back.output == ("erreur : chronicle.sqlite : pas encore de chronique ; arbitrez "
                           "d’abord un tour\n")
    assert run("adjudicate", folder, "--yes").exit_code == 0
    through = run("adjudicate", folder, "--through", "1")
    assert through.output.startswith("erreur : --through 1 : le tour 1 est déjà arbitré")
    auto = run("template", folder, "--auto", "nobody")
    assert auto.output == "erreur : --auto : il n’y a pas de maison 'nobody'\n"
    report = run("reports", folder, "--turn", "9")
    assert report.output == "erreur : --turn 9 : la chronique contient les tours 1 à 1\n"
    gone = run("rollback", folder, "--to", "4")
    assert gone.output.startswith("erreur : impossible de revenir au tour 4")
    assert run("end", folder).exit_code == 0
    ended = run("adjudicate", folder, "--yes")
    assert ended.exit_code == 1
    assert ended.output == ("erreur : la campagne est finie (chronicle end) : sa graine est "
                            "publique, et plus aucun tour ne peut être arbitré\n")
    status = run("status", folder)
    assert "la campagne est finie (chronicle end)" in status.output
    said = [empty, back, through, auto, report, gone, ended, status]
    assert [line for r in said for line in _english_in(r.output)] == []


def test_errors_before_the_campaign_is_read_stay_english(tmp_path: Path) -> None:
    folder, _ = _french_campaign(tmp_path)
    toml = folder / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace("start_year = 1300",
                                                             "start_year = 'x'"),
                    encoding="utf-8")
    broken = run("adjudicate", folder, "--yes")
    assert broken.exit_code == 1 and broken.output.startswith("error: campaign.toml:")


def _serve_lines(*args: str | Path) -> list[str]:
    """What ``chronicle serve ARGS --port 0`` says until it serves, then it is stopped."""
    process, lines = serve_process(*args)
    said: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while not any("http://127.0.0.1:" in line for line in said):
            assert time.monotonic() < deadline and process.poll() is None, said
            try:
                said.append(lines.get(timeout=1).rstrip("\n"))
            except queue.Empty:
                continue
    finally:
        process.terminate()
        process.wait(timeout=30)
    return said


@pytest.mark.slow
def test_demo_verify_and_serve_speak_french(tmp_path: Path) -> None:
    demo = run("demo", "--language", "fr", "--turns", "2", "--out", tmp_path / "demo",
               "--site", tmp_path / "site")
    assert demo.exit_code == 0, demo.output
    assert "Construction du site…" in demo.output
    assert re.search(r"^2 tours de blood-royale joués en [\d.]+ s ; le dossier de la "
                     r"campagne est .*/demo/$", demo.output, re.M)
    assert f"Le site est dans {tmp_path / 'site'}/ : ouvrez " in demo.output
    toml = (tmp_path / "demo/campaign.toml").read_text(encoding="utf-8")
    assert 'language = "fr"' in toml and "Blood Royale : l’Europe de 1300 à 1400" in toml
    commentary = (tmp_path / "demo/commentary/turn-001.md").read_text(encoding="utf-8")
    assert commentary.startswith("La chronique s’ouvre en l’an de grâce 1300.")
    verified = run("verify", tmp_path / "demo")
    assert verified.exit_code == 0
    assert re.fullmatch(r"vérifié : 2 tours rejoués depuis la graine révélée donnent "
                        r"l’export enregistré, et les \d+ dés aussi\n", verified.output)
    again = run("demo", "--language", "fr", "--out", tmp_path / "site")
    assert again.exit_code == 1
    assert again.output == (f"erreur : {tmp_path / 'site'} : existe et n’est pas un dossier "
                            "de démo ; choisissez un autre --out\n")
    served = _serve_lines("--watch", tmp_path / "demo", "-o", tmp_path / "watched")
    assert served[0].startswith(f"Site écrit dans {tmp_path / 'watched'}/ : ")
    assert re.fullmatch(r".*/watched/ est servi sur http://127\.0\.0\.1:\d+/ \(la campagne "
                        r"est surveillée ; Ctrl-C pour arrêter\)", served[-1])
    said = [demo.output, verified.output, again.output, *served]
    assert [line for text in said for line in _english_in(text)] == []
    # A site alone tells no language: serving it, like its errors, stays English.
    plain = _serve_lines(tmp_path / "site")
    assert plain[-1].startswith(f"Serving {tmp_path / 'site'}/ on http://127.0.0.1:")


def test_mail_import_and_its_acknowledgements_speak_french(tmp_path: Path) -> None:
    """``mail import``'s lines, its refusals and the acknowledgements mailed to the
    players are in the campaign's language (DESIGN.md "Acknowledgements": "accepted or
    refused, with the reason")."""
    from email import policy
    from email.parser import BytesParser

    from mail_support import campaign, maildir, message

    root = campaign(tmp_path)
    toml = root / "campaign.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('language = "en"',
                                                             'language = "fr"'),
                    encoding="utf-8")
    box = maildir(tmp_path / "box", [
        message("bob@example.org", "house france\nbirth F1000 attempts 3\n"),
        message("alice@example.org", 'house england passphrase "wrong"\n'),
        message("mallory@evil.example", "house france\nbirth F1000 attempts 3\n"),
        message("carol@example.org", None, html="<p>house castile</p>")])
    done = run("mail", "import", root, box)
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert any(re.fullmatch(r".*: de bob@example\.org : france : accepté ; classé sous "
                            r"orders/turn-001/france\.orders : .*", line) for line in lines)
    # "de" elided before a vowel, an address's too.
    assert any(line.endswith(": d’alice@example.org : refusé : la phrase secrète de la "
                             "maison england est fausse") for line in lines)
    assert any(line.endswith(": de mallory@evil.example : refusé : mallory@evil.example "
                             "n’est pas une adresse de la maison france ; les ordres ne sont "
                             "acceptés que des adresses de la maison") for line in lines)
    assert any("refusé : le message ne contient que du HTML" in line for line in lines)
    assert lines[-1].startswith("tour 1 : 4 messages, 1 classés, 3 refusés ; les accusés de "
                                "réception sont dans ")
    refused = [line for line in lines if "accepté" not in line]
    assert [line for line in refused for _ in _english_in(line)] == []
    again = run("mail", "import", root, box)
    assert sum(line.endswith("déjà importé ; ignoré") for line in again.output.splitlines()) == 4
    acks = {}
    for path in sorted((root / "outbox").glob("ack-*.eml")):
        mail = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
        body = mail.get_body(preferencelist=("plain",))
        assert body is not None
        acks[str(mail["To"])] = (str(mail["Subject"]), body.get_content().replace("\r\n", "\n"))
    subject, text = acks["bob@example.org"]
    assert subject == "Ordres du tour 1 acceptés (france)"
    assert text.startswith("Vos ordres du tour 1 ont été reçus et classés pour la maison "
                           "france.\n\nchronicle check dit de votre fichier :\n")
    subject, text = acks["alice@example.org"]
    assert subject == "Ordres du tour 1 refusés"
    assert text.startswith("Votre message n’a pas été classé comme ordres du tour 1 :\n\n"
                           "  la phrase secrète de la maison england est fausse\n\n"
                           "Rien n’en sera arbitré. Corrigez-le et renvoyez le fichier "
                           "entier.\n\n(Votre message : 'orders')")

"""The writer guards the output folder and writes only what changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from chronicle.errors import PublishError
from chronicle.site.writer import JOURNAL, MANIFEST, Writer


def test_writer_refuses_a_path_outside_the_site(tmp_path: Path) -> None:
    writer = Writer(tmp_path / "site")
    for bad in ("../evil.html", "/etc/passwd", "a/../../x", "a\\..\\x", "", MANIFEST):
        with pytest.raises(PublishError):
            writer.write(bad, "x")
    assert not (tmp_path / "evil.html").exists()


def test_writer_refuses_to_write_through_a_link_out_of_the_site(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "site/people").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(PublishError, match="link"):
        Writer(tmp_path / "site").write("people/x/index.html", "x")
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_writer_refuses_a_path_written_twice(tmp_path: Path) -> None:
    writer = Writer(tmp_path)
    writer.write("a/index.html", "one")
    with pytest.raises(PublishError, match="twice"):
        writer.write("a/index.html", "two")


def test_writer_leaves_unchanged_files_alone(tmp_path: Path) -> None:
    first = Writer(tmp_path)
    first.write("a.html", "same")
    first.write("b.html", "old")
    first.finish()
    stamp = (tmp_path / "a.html").stat().st_mtime_ns
    second = Writer(tmp_path)
    second.write("a.html", "same")
    second.write("b.html", "new")
    second.finish()
    assert second.changed == ["b.html"]
    assert (tmp_path / "a.html").stat().st_mtime_ns == stamp
    assert (tmp_path / "b.html").read_text() == "new"


def test_writer_removes_stale_files_it_wrote_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("not the writer's")
    first = Writer(tmp_path)
    first.write("old/page/index.html", "x")
    first.write("kept.html", "y")
    first.finish()
    second = Writer(tmp_path)
    second.write("kept.html", "y")
    assert second.finish() == ["old/page/index.html"]
    assert not (tmp_path / "old").exists()
    assert (tmp_path / "mine.txt").exists()


def test_a_manifest_naming_a_file_through_a_link_removes_nothing_elsewhere(
        tmp_path: Path) -> None:
    """An output folder received with a planted link and manifest: stale-file removal
    never reaches outside the site."""
    site, elsewhere = tmp_path / "site", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "precious.txt").write_text("keep me")
    site.mkdir()
    (site / "people").symlink_to(elsewhere, target_is_directory=True)
    (site / MANIFEST).write_text('{"files": ["people/precious.txt"]}')
    assert Writer(site).finish() == []
    assert (elsewhere / "precious.txt").read_text() == "keep me"


def test_writer_keeps_an_unchanged_group_only_if_its_files_are_there(tmp_path: Path) -> None:
    first = Writer(tmp_path)
    first.begin_group("c", "print-1")
    first.write("c/index.html", "x")
    first.end_group()
    first.finish()
    second = Writer(tmp_path)
    assert second.previous_group("print-1") == ("c", {})
    assert second.keep_group("c")
    assert second.finish() == []
    assert (tmp_path / "c/index.html").exists()
    (tmp_path / "c/index.html").unlink()
    assert not Writer(tmp_path).keep_group("c")


def test_writer_writes_every_byte_when_the_system_takes_them_in_pieces(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A write may take fewer bytes than given (a signal, a full pipe): the rest follows.
    Folders several levels deep that do not exist yet are made on the way."""
    import os

    from chronicle.site import writer as writer_module

    real_write = os.write
    calls = []

    def in_pieces(fd: int, data: bytes | memoryview) -> int:
        calls.append(len(data))
        return real_write(fd, bytes(data[:7]))

    monkeypatch.setattr(writer_module.os, "write", in_pieces)
    text = "Édouard ⚭ Philippa, 1328. " * 40
    writer = Writer(tmp_path / "site")
    writer.write("people/e1100-edward/deeper/index.html", text)
    writer.finish()
    monkeypatch.undo()
    assert (tmp_path / "site/people/e1100-edward/deeper/index.html").read_text(
        encoding="utf-8") == text
    assert len(calls) > 100


@pytest.mark.parametrize("new", ["a/new.html", "fresh/new.html", "top.html"])
def test_writer_a_build_stopped_halfway_is_undone_by_the_next(tmp_path: Path, new: str) -> None:
    """Issue 15's incremental builds, stopped halfway: the files the stopped build
    added (in a folder the site had, a folder it made, or the top) are removed
    by the next build that does not write them, and nothing the stopped build
    overwrote is kept by its print."""
    first = Writer(tmp_path)
    first.begin_group("camp", "print-1")
    first.write("a/index.html", "turn 1")
    first.page_prints["a/index.html"] = "page-print-1"
    first.end_group()
    first.finish()
    stopped = Writer(tmp_path)
    stopped.begin_group("camp", "print-2")
    stopped.write("a/index.html", "turn 2")
    stopped.write(new, "added by the stopped build")
    # ... and it stops here: no ``finish``.
    assert (tmp_path / JOURNAL).is_file()
    again = Writer(tmp_path)
    assert not again.has_fingerprints()
    assert not again.keep_page("a/index.html", "page-print-1")  # overwritten: not trusted
    again.begin_group("camp", "print-1")
    again.write("a/index.html", "turn 1")
    again.end_group()
    assert again.finish() == [new]
    assert not (tmp_path / new).exists() and not (tmp_path / JOURNAL).exists()
    assert (tmp_path / "a/index.html").read_text() == "turn 1"

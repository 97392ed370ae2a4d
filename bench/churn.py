"""What a rebuild wrote, and why: two builds of a site compared, page by page.

    python bench/churn.py OLD_SITE NEW_SITE

Issue 15 asks a rebuild after one new turn to write at most 15 % of the
site's files. Whether that can be met depends on what the pages show, so
this tells which parts of the pages changed:

- the files written (new or changed), by folder;
- for the changed pages, the parts that changed: a page is cut at its
  ``<h2 id>`` and ``<h3 id>`` headings (what comes before the first is its
  top: title, lede, facts), and each part is named by its folder and its
  heading's id, as ``people#refs``;
- the share of the site's files the rebuild would have written had a change
  in some parts not made their page change, the parts taken one at a time,
  each time the one that spares the most pages: so it reads as "without the
  claims' ranks, 23 %; without the charts as well, 18 %";
- for the family-tree parts (``genealogy/*.html``): how many changed in
  their drawing's structure (its nodes or its edges) and how many only in
  their labels.

It reads only the two folders; what it reports is a description of one
rebuild, not a measurement of speed.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

MANIFEST = ".chronicle-manifest"
_HEADING = re.compile(r'<h([23]) id="([^"]+)"')
_NODE = re.compile(r'<g id="([^"]*)" class="node')
_EDGE = re.compile(r'class="edge[^"]*">\s*<title>([^<]*)</title>')


def files_of(site: Path) -> dict[str, Path]:
    """Every file of a built site by its path in the site, the manifest left out."""
    return {path.relative_to(site).as_posix(): path for path in sorted(site.rglob("*"))
            if path.is_file() and MANIFEST not in path.relative_to(site).parts}


def parts_of(html: str) -> dict[str, str]:
    """A page cut at its ``<h2 id>`` and ``<h3 id>`` headings, by heading id;
    ``top`` is what comes before the first heading."""
    cuts = [(m.start(), m.group(2)) for m in _HEADING.finditer(html)]
    starts = [0, *(start for start, _ in cuts)]
    names = ["top", *(name for _, name in cuts)]
    ends = [*starts[1:], len(html)]
    return {name: html[start:end] for name, start, end in zip(names, starts, ends, strict=True)}


def folder_of(path: str) -> str:
    """The folder a page belongs to: ``people`` for ``<campaign>/people/x/index.html``."""
    bits = path.split("/")
    return bits[1] if len(bits) > 2 else bits[0] if len(bits) > 1 else "."


def changed_parts(old: str, new: str, folder: str) -> frozenset[str]:
    """The parts of a page that differ between two builds, as ``folder#part``."""
    before, after = parts_of(old), parts_of(new)
    return frozenset(f"{folder}#{name}" for name in before.keys() | after.keys()
                     if before.get(name) != after.get(name))


def drawing_structure(html: str) -> tuple[frozenset[str], tuple[tuple[str, int], ...]]:
    """A Graphviz drawing's nodes (their ids) and edges (their titles, counted)."""
    edges = Counter(_EDGE.findall(html))
    return frozenset(_NODE.findall(html)), tuple(sorted(edges.items()))


def spared(causes: Iterable[frozenset[str]], total: int, fixed: int,
           steps: int = 6) -> list[tuple[str, int, float]]:
    """Parts taken out one at a time, each the one whose changes alone made the most
    pages change: each step gives that part, the pages still written, and the
    share of the site's ``total`` files written with the ``fixed`` ones (new files,
    which no part can spare)."""
    left = [cause for cause in causes if cause]
    out: list[str] = []
    result = []
    for _ in range(steps):
        gains: Counter[str] = Counter()
        for cause in left:
            rest = cause - set(out)
            if len(rest) == 1:
                gains[next(iter(rest))] += 1
        if not gains:
            break
        # The most pages spared; ties by name, so that the report is the same every time.
        best = min(gains, key=lambda part: (-gains[part], part))
        out.append(best)
        still = sum(1 for cause in left if cause - set(out))
        result.append((best, still, 100 * (still + fixed) / total))
    return result


def report(old_site: Path, new_site: Path) -> list[str]:
    """The report's lines for a rebuild of ``old_site`` into ``new_site``."""
    old, new = files_of(old_site), files_of(new_site)
    added = sorted(new.keys() - old.keys())
    removed = sorted(old.keys() - new.keys())
    changed = sorted(path for path in new.keys() & old.keys()
                     if new[path].read_bytes() != old[path].read_bytes())
    written = len(added) + len(changed)
    lines = [f"files written {written:,} of {len(new):,} ({100 * written / len(new):.1f} %): "
             f"{len(added):,} new, {len(changed):,} changed; {len(removed):,} removed"]
    by_folder: Counter[str] = Counter(folder_of(path) for path in (*added, *changed))
    lines.append("written, by folder: " + ", ".join(
        f"{folder} {count:,}" for folder, count in sorted(by_folder.items(),
                                                          key=lambda kv: (-kv[1], kv[0]))))
    causes: list[frozenset[str]] = []
    structure = labels = 0
    for path in changed:
        if not path.endswith(".html"):
            causes.append(frozenset({f"{folder_of(path)}#file"}))
            continue
        before = old[path].read_text(encoding="utf-8")
        after = new[path].read_text(encoding="utf-8")
        causes.append(changed_parts(before, after, folder_of(path)))
        if folder_of(path) == "genealogy":
            if drawing_structure(before) == drawing_structure(after):
                labels += 1
            else:
                structure += 1
    every: Counter[str] = Counter(part for cause in causes for part in cause)
    alone: Counter[str] = Counter(next(iter(cause)) for cause in causes if len(cause) == 1)
    lines.append("changed pages, by part that changed (alone): " + "; ".join(
        f"{part} {count:,} ({alone[part]:,})" for part, count in
        sorted(every.items(), key=lambda kv: (-kv[1], kv[0]))[:12]))
    steps = spared(causes, len(new), len(added))
    if steps:
        lines.append("files written had a change in these parts not made their page "
                     "change, one more each time: " + "; ".join(
                         f"{part} {share:.1f} %" for part, _still, share in steps))
    if structure or labels:
        lines.append(f"family-tree parts changed: {structure:,} in their drawing's nodes or "
                     f"edges, {labels:,} in its labels only")
    return lines


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or not all(Path(arg).is_dir() for arg in args):
        sys.exit("usage: python bench/churn.py OLD_SITE NEW_SITE (two built sites)")
    print("\n".join(report(Path(args[0]), Path(args[1]))))


if __name__ == "__main__":
    main()

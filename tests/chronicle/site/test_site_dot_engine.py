"""The in-process ``dot`` engine (site design, "genealogy.py": determinism and speed).

Genealogies must be byte-identical for the same store; the engine sizes text
with Graphviz's built-in metrics, so the fonts a machine has must not matter.
"""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from chronicle.errors import GraphvizError
from chronicle.site import dot_engine
from chronicle.site.dot_engine import engine
from chronicle.site.genealogy import (
    DiagramPart,
    TreeMarriage,
    TreePerson,
    diagram_dot,
    graphviz_cache,
    render_svg,
)
from chronicle.views.data import HouseStyle

LINUX = sys.platform.startswith("linux")

DOT = diagram_dot(
    DiagramPart("england", "england.svg", "England", None, ("E1", "E3")),
    [TreePerson("E1", "Édouard ♔ <b>&amp;", "M", 1239, 1307, "england", refs={"england": "E1"},
                was_ruler=True),
     TreePerson("F7", "Isabelle", "F", 1245, None, "france", refs={"france": "F7"}),
     TreePerson("E3", "Édouard II", "M", 1270, None, "england", "E1", "F7",
                refs={"england": "E3"})],
    [TreeMarriage("E1", "F7", 1265)],
    {"england": HouseStyle("england", "England", "#9b1b30"),
     "france": HouseStyle("france", "France", "#1f3f8f")},
    lambda pid: f"../people/{pid.lower()}/index.html")


BUNDLED = any(folder.is_dir() for folder in dot_engine._library_folders())


@pytest.mark.skipif(not (LINUX and BUNDLED), reason="no wheel-bundled Graphviz libraries")
def test_the_wheels_graphviz_is_loaded_in_process() -> None:
    assert engine() is not None
    assert "built-in metrics" in graphviz_cache(Path("unused")).salt


def test_engine_draws_real_graphviz_svg() -> None:
    svg = render_svg(DOT)
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    titles = {t.text for t in root.iter("{http://www.w3.org/2000/svg}title")}
    assert {"p_E1", "p_F7", "p_E3"} <= titles
    assert "Édouard ♔ &lt;b&gt;&amp;amp;" in svg  # escaped once, shown as written
    assert "<!--" not in svg and "DOCTYPE" not in svg


@pytest.mark.skipif(engine() is None, reason="no in-process engine on this platform")
def test_bad_dot_is_an_error_not_a_crash() -> None:
    current = engine()
    assert current is not None
    with pytest.raises(GraphvizError):
        current.svg("digraph { a -> ")
    # The context survives a failure.
    assert current.svg("digraph { a -> b }").startswith(b"<?xml")


@pytest.mark.skipif(engine() is None, reason="no in-process engine on this platform")
def test_layout_does_not_depend_on_the_fonts_installed(tmp_path: Path) -> None:
    """A machine with no fonts at all lays the diagram out to the same bytes."""
    (tmp_path / "fonts.conf").write_text(
        '<?xml version="1.0"?><fontconfig><dir>/nonexistent</dir></fontconfig>',
        encoding="utf-8")
    (tmp_path / "dot.txt").write_text(DOT, encoding="utf-8")
    script = ("import sys; from pathlib import Path; "
              "from chronicle.site.genealogy import render_svg; "
              "sys.stdout.write(render_svg(Path(sys.argv[1]).read_text(encoding='utf-8')))")
    env = {**os.environ, "FONTCONFIG_FILE": str(tmp_path / "fonts.conf")}
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "dot.txt")],
                          env=env, capture_output=True, check=True)
    assert done.stdout.decode("utf-8") == render_svg(DOT)


def _render_in_child(queue: multiprocessing.Queue[str]) -> None:
    queue.put(render_svg(DOT))


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="no fork")
def test_a_forked_worker_makes_its_own_context() -> None:
    expected = render_svg(DOT)  # the parent's context exists before the fork
    context = multiprocessing.get_context("fork")
    queue: multiprocessing.Queue[str] = context.Queue()
    child = context.Process(target=_render_in_child, args=(queue,))
    child.start()
    got = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert got == expected


def test_missing_libraries_fall_back_to_pygraphviz(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dot_engine, "_library_folders", lambda: [])
    assert dot_engine._load() is None
    monkeypatch.setattr("chronicle.site.genealogy.engine", lambda: None)
    svg = render_svg(DOT)
    assert "p_E1" in svg and "../people/e1/index.html" in svg

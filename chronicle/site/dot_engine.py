"""Graphviz's ``dot`` layout, called in-process with font-independent text sizes.

``pygraphviz.AGraph.draw`` builds a new Graphviz context for every diagram,
with every plugin the wheel carries, Pango among them. Pango then measures
each label with whatever fonts the machine has (through fontconfig), which
has two costs: a third of the layout time, and layouts, hence SVG bytes, that
change from one machine to another with the fonts installed there.

This module loads only the two plugins a genealogy needs (the ``dot``
layout and the core SVG renderer) from the libraries the wheel already put
in this process, into one context kept for the life of the process. Without
Pango, Graphviz sizes text from its own built-in font metrics: the same
numbers everywhere, and no font lookups. Graphviz's warnings (such as the
estimate falling back for a character it has no width for) are silenced;
its errors still reach the caller as exceptions.

Where those libraries cannot be found (a wheel laid out differently, a
pygraphviz built against another Graphviz), :func:`engine` returns None and
the caller keeps ``pygraphviz``'s own drawing, which gives the same
diagrams with Pango's text sizes.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading
from pathlib import Path

import pygraphviz  # type: ignore[import-untyped]

from chronicle.errors import GraphvizError

AGERR = 1  # cgraph's agerrlevel_t: report errors, not warnings

_PLUGINS = (("libgvplugin_core", "gvplugin_core_LTX_library"),
            ("libgvplugin_dot_layout", "gvplugin_dot_layout_LTX_library"))


class _Symbol(ctypes.Structure):
    # lt_symlist_t: the table gvContextPlugins reads built-in plugins from.
    _fields_ = [("name", ctypes.c_char_p), ("address", ctypes.c_void_p)]


def _library_folders() -> list[Path]:
    package = Path(pygraphviz.__file__).resolve().parent
    # auditwheel (Linux) puts the libraries beside the package, delocate
    # (macOS) inside it.
    return [package.parent / "pygraphviz.libs", package / ".dylibs"]


def _find(stem: str) -> Path | None:
    for folder in _library_folders():
        if folder.is_dir():
            found = sorted(p for p in folder.iterdir()
                           if p.name.startswith(stem + "-") or p.name.startswith(stem + "."))
            if found:
                return found[0]
    return None


class DotEngine:
    """One Graphviz context with the core and ``dot`` plugins only."""

    def __init__(self, cgraph: ctypes.CDLL, gvc: ctypes.CDLL,
                 plugins: list[tuple[bytes, int]]) -> None:
        self._cgraph, self._gvc = cgraph, gvc
        cgraph.agmemread.restype = ctypes.c_void_p
        cgraph.agmemread.argtypes = [ctypes.c_char_p]
        cgraph.agclose.argtypes = [ctypes.c_void_p]
        cgraph.agseterr.argtypes = [ctypes.c_int]
        gvc.gvContextPlugins.restype = ctypes.c_void_p
        gvc.gvContextPlugins.argtypes = [ctypes.c_void_p, ctypes.c_int]
        gvc.gvLayout.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p]
        gvc.gvFreeLayout.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
        gvc.gvRenderData.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p,
                                     ctypes.POINTER(ctypes.c_void_p),
                                     ctypes.POINTER(ctypes.c_uint)]
        gvc.gvFreeRenderData.argtypes = [ctypes.c_void_p]
        # Graphviz keeps a pointer to this table, so it lives as long as we do.
        self._table = (_Symbol * (len(plugins) + 1))(
            *(_Symbol(name, address) for name, address in plugins), _Symbol(None, None))
        self._context = gvc.gvContextPlugins(self._table, 0)
        if not self._context:
            raise GraphvizError("Graphviz could not start")
        self._lock = threading.Lock()

    def svg(self, dot: str) -> bytes:
        """Lay out ``dot`` with ``dot`` and return the SVG bytes."""
        # Graphviz keeps global state: one layout at a time per process.
        with self._lock:
            return self._svg(dot)

    def _svg(self, dot: str) -> bytes:
        cgraph, gvc = self._cgraph, self._gvc
        cgraph.agseterr(AGERR)
        graph = cgraph.agmemread(dot.encode("utf-8"))
        if not graph:
            raise GraphvizError("Graphviz could not read the diagram's DOT")
        try:
            if gvc.gvLayout(self._context, graph, b"dot") != 0:
                raise GraphvizError("Graphviz could not lay the diagram out")
            try:
                data, size = ctypes.c_void_p(), ctypes.c_uint()
                if gvc.gvRenderData(self._context, graph, b"svg", ctypes.byref(data),
                                    ctypes.byref(size)) != 0 or not data:
                    raise GraphvizError("Graphviz could not draw the diagram as SVG")
                try:
                    return ctypes.string_at(data, size.value)
                finally:
                    gvc.gvFreeRenderData(data)
            finally:
                gvc.gvFreeLayout(self._context, graph)
        finally:
            cgraph.agclose(graph)


def _load() -> DotEngine | None:
    paths = {stem: _find(stem) for stem in ("libcgraph", "libgvc", *(p for p, _s in _PLUGINS))}
    if any(path is None for path in paths.values()):
        return None
    try:
        # The same files pygraphviz's extension already loaded: the process
        # gets back those handles, so both share one copy of Graphviz.
        libs = {stem: ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
                for stem, path in paths.items()}
        plugins = [(symbol.encode(),
                    ctypes.addressof(ctypes.c_char.in_dll(libs[stem], symbol)))
                   for stem, symbol in _PLUGINS]
        return DotEngine(libs["libcgraph"], libs["libgvc"], plugins)
    except (OSError, ValueError, AttributeError, GraphvizError):
        return None


@functools.cache
def _engine_of(pid: int) -> DotEngine | None:
    return _load()


def engine() -> DotEngine | None:
    """This process's engine, or None where the libraries cannot be loaded.

    Keyed by process: a forked worker makes its own context rather than
    using a copy of its parent's.
    """
    return _engine_of(os.getpid())

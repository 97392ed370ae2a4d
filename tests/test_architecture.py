"""The shape of the code (docs/design.md "Shape"): one-way imports and a pure engine.

Imports inside functions count as much as those at the top of a module: a
deferred import is still a dependency, and a cycle through one is a cycle.
Only ``if TYPE_CHECKING:`` blocks, which never run, are left out.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("adjudicator", "chronicle")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def _is_type_checking(node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imports(path: Path, modules: dict[str, Path]) -> set[str]:
    """The project's modules that ``path`` imports, at module level or inside a
    function (``if TYPE_CHECKING:`` blocks import nothing at run time)."""
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {id(n) for block in ast.walk(tree) if _is_type_checking(block)  # type: ignore[arg-type]
               for n in ast.walk(block)}
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name:
                found.add(name)
    # Importing ``a.b.c`` runs ``a`` and ``a.b`` first.
    for name in list(found):
        while "." in name:
            name = name.rpartition(".")[0]
            if name in modules:
                found.add(name)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imports(path, modules) - {name} for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def _is_ancestor(parent: str, child: str) -> bool:
    return child.startswith(parent + ".")


def test_no_import_cycles() -> None:
    """A package's ``__init__`` importing its own modules is not a cycle; anything else is."""
    graph = {name: {d for d in deps if not _is_ancestor(name, d) and not _is_ancestor(d, name)}
             for name, deps in _graph().items()}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_engine_imports_nothing_of_the_application() -> None:
    """DESIGN.md: ``adjudicator/`` is pure game logic, with no database, file or network I/O."""
    banned = ("chronicle", "sqlmodel", "sqlalchemy", "sqlite3", "jinja2", "click", "os",
              "pathlib", "socket", "subprocess", "shutil", "io")
    offenders = []
    for path in sorted((ROOT / "adjudicator").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names
                          if n.split(".")[0] in banned]
            # Seeded generators only: ``random.Random(...)``, never the module's global one.
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == "random" and node.attr != "Random":
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: random.{node.attr}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("open", "print", "input"):
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}()")
    assert offenders == []


def test_every_package_is_listed_for_the_install() -> None:
    """pyproject.toml lists the packages (content and themes are mapped into ``chronicle``):
    a package missing from the list would be missing from a wheel."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    listed = set(config["packages"])
    present = {_module_name(p.parent / "__init__.py")
               for package in PACKAGES for p in (ROOT / package).rglob("__init__.py")}
    mapped = {name for name, folder in config["package-dir"].items()
              if (ROOT / folder / "__init__.py").is_file()}
    assert listed == present | mapped


def test_every_error_hangs_under_one_root() -> None:
    """One exception root (``chronicle.errors``): every exception class the project
    defines derives from ``ChronicleError``, and is defined in one of the two
    errors modules, whose docstrings draw the tree."""
    import importlib

    from chronicle.errors import ChronicleError

    defined = []
    for path in sorted([*(ROOT / "adjudicator").rglob("*.py"), *(ROOT / "chronicle").rglob("*.py")]):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and any(
                    isinstance(b, ast.Name) and (b.id.endswith(("Error", "Exception"))
                                                 or b.id in ("ChronicleError",))
                    for b in node.bases):
                defined.append((_module_name(path), node.name))
    assert defined, "the scan found no exception class: it cannot be checking anything"
    homes = {module for module, _ in defined}
    assert homes == {"adjudicator.errors", "chronicle.errors"}, homes
    for module, name in defined:
        cls = getattr(importlib.import_module(module), name)
        assert issubclass(cls, ChronicleError), f"{module}.{name}"
        docstring = importlib.import_module("chronicle.errors").__doc__ or ""
        assert name in docstring, f"chronicle/errors.py's tree does not draw {name}"


def test_the_application_is_folders_by_domain() -> None:
    """Folders by domain (issue 33 item 2): at most 8 modules at ``chronicle/``'s top
    level, everything else in a package named after what it does."""
    top = sorted(p.name for p in (ROOT / "chronicle").glob("*.py"))
    assert len(top) <= 8, top
    packages = sorted(p.parent.name for p in (ROOT / "chronicle").glob("*/__init__.py"))
    assert {"campaign", "store", "turn", "mail", "i18n", "narration", "views", "site",
            "commands", "rulesets"} <= set(packages), packages

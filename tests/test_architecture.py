"""The shape of the code (docs/design.md "Shape"): one-way imports and a pure engine.

Imports inside functions count as much as those at the top of a module: a
deferred import is still a dependency, and a cycle through one is a cycle.
Only ``if TYPE_CHECKING:`` blocks, which never run, are left out.
"""

from __future__ import annotations

import ast
import re
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


# -- what belongs to one ruleset stays in its folders -------------------------------------
#: The rulesets whose own event kinds are checked: each engine package's events.
OWNED_BY = ("blood_royale", "familles")
#: The unit types of the dynastic rulesets' units (``unit-types.toml``): a ruleset's word.
UNIT_TYPES = ("army", "fleet", "dragon")
#: Modules outside the site that still name a ruleset's word, as path -> the words they
#: name; every entry must still be needed (the test says so). All fixed on branch
#: leaks-engine (the engine, the archive, narration and the players' tools).
NOT_YET_OWNED: dict[str, set[str]] = {
    # The arbiter's `control` directive and a declared unit's default type are still
    # read by the Part A library (a ruling by directive name, a unit's type).
    "adjudicator/dynastic/rulings.py": {"control"},
    "adjudicator/dynastic/setup.py": {"army"},
    # The JSON export contract's top-level keys, which every ruleset exports.
    "chronicle/rulesets/base.py": {"wealth"},
}
QUOTED = re.compile(r"""(["'])([^"'\n]*)\1""")


#: A ruleset's folders, on either side (not the registries and bases beside them).
RULESET_FOLDER = re.compile(r"(adjudicator|chronicle)/rulesets/[^/]+/")


def _owned_words() -> set[str]:
    """The kinds of the event classes defined in ``adjudicator/rulesets/<r>/`` for the
    rulesets of ``OWNED_BY``, and the unit types."""
    import importlib
    import pkgutil

    from adjudicator.events import EVENT_KINDS

    owned = set(UNIT_TYPES)
    for ruleset in OWNED_BY:
        package = importlib.import_module(f"adjudicator.rulesets.{ruleset}")
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(module.name)
        for cls in EVENT_KINDS.values():
            if cls.__module__.startswith(package.__name__ + ".") and "kind" in cls.__dict__:
                owned.add(cls.kind)
    return owned


def _named_outside(owned: set[str], root: Path = ROOT) -> dict[str, set[str]]:
    """Path -> the ruleset words it names outside the rulesets' folders: string literals
    of the packages' modules (``ast.Constant``), quoted strings of every template."""
    found: dict[str, set[str]] = {}

    def note(path: Path, word: str) -> None:
        rel = path.relative_to(root).as_posix()
        if word in owned and not RULESET_FOLDER.match(rel):
            found.setdefault(rel, set()).add(word)

    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    note(path, node.value)
    templates = [*root.joinpath("themes").rglob("*.html"),
                 *(p for package in PACKAGES for p in root.joinpath(package).rglob("*.html"))]
    for path in sorted(templates):
        for _quote, text in QUOTED.findall(path.read_text(encoding="utf-8")):
            note(path, text)
    return found


def test_no_module_or_template_outside_a_ruleset_s_folders_names_its_kinds_or_unit_types(
        ) -> None:
    """The issue: "no module outside the rulesets' folders names a built-in ruleset's
    event kinds or unit types". Generic code asks the descriptor or the site plug-in."""
    owned = _owned_words()
    assert {"battle", "wealth", "familles-married", "army"} <= owned
    found = _named_outside(owned)
    unexpected = {path: words - NOT_YET_OWNED.get(path, set())
                  for path, words in found.items()}
    assert {path: sorted(words) for path, words in unexpected.items() if words} == {}
    stale = {path: sorted(words - found.get(path, set()))
             for path, words in NOT_YET_OWNED.items() if words - found.get(path, set())}
    assert stale == {}, "no longer named there: remove them from NOT_YET_OWNED"


def test_the_ruleset_words_check_finds_a_word_out_of_its_folder(tmp_path: Path) -> None:
    """The control of the test above: a module and a template planted in a copy of the
    checkout's layout are found; the same words in a ruleset's folder are not."""
    owned = _owned_words()
    plant = {"chronicle/site/leak.py": 'KIND = "battle"\nUNIT = ("army",)\n',
             "themes/default/templates/leak.html": '{% if e.kind == "familles-married" %}',
             "chronicle/rulesets/blood_royale/fine.py": 'KIND = "battle"\n',
             "chronicle/rulesets/familles/templates/fine.html": "{{ 'familles-married' }}"}
    for rel, text in plant.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    assert _named_outside(owned, tmp_path) == {
        "chronicle/site/leak.py": {"battle", "army"},
        "themes/default/templates/leak.html": {"familles-married"}}


def test_every_ruleset_s_theme_layer_ships_in_the_wheel() -> None:
    """A ruleset's templates and static files live in its folder (``theme_layers``):
    pyproject.toml's package data must carry every file there, or a wheel's sites lack
    its pages (``.ci/wheel`` builds one)."""
    from fnmatch import fnmatch

    from chronicle.rulesets import descriptor, ruleset_ids

    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"][
        "package-data"]
    layers = {package for rid in ruleset_ids() for package in descriptor(rid).theme_layers}
    assert layers, "no ruleset has a theme layer: this test checks nothing"
    missing = []
    for package in sorted(layers):
        folder = ROOT.joinpath(*package.split("."))
        files = [p.relative_to(folder).as_posix() for part in ("templates", "static")
                 for p in sorted((folder / part).rglob("*")) if p.is_file()]
        assert files, f"{package} is a theme layer with no templates/ or static/"
        missing += [f"{package}: {name}" for name in files
                    if not any(fnmatch(name, pattern) for pattern in data.get(package, []))]
    assert missing == []

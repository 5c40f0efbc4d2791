"""The house of bot/ (issue 23): one folder per concern, no import circle, no long module; no import
circle in engine/ and renderer/ either (issue 30).

* No import circle among the modules of ``bot/``, counting *every* import: at the top, under
  ``if TYPE_CHECKING:``, and inside functions. A module imports another when it names it (``import
  a.b``, ``from a.b import c``, ``from a import b`` where ``a.b`` is a module); importing ``a.b``
  also runs ``a/__init__.py``, which is why a package's ``__init__`` must not import the modules
  that import it by name.
* No module of ``bot/`` over :data:`MAX_LINES` lines.
* Every package of ``bot/`` says its concern in its ``__init__``'s docstring.

Each check is shown to fail on a small fake package (``tmp_path``).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600


def modules(root: Path, package: str) -> dict[str, tuple[Path, bool]]:
    """Module name → (its file, whether it is a package's ``__init__``) for every module of ``package``."""
    out = {}
    for path in sorted((root / package).rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def _owner(name: str, known: dict[str, tuple[Path, bool]]) -> str | None:
    """The known module ``name`` is, or is inside (``a.b.C`` → ``a.b``)."""
    while name:
        if name in known:
            return name
        name = name.rpartition(".")[0]
    return None


def imported(module: str, path: Path, is_package: bool, known: dict[str, tuple[Path, bool]]) -> set[str]:
    """The known modules ``module`` imports, wherever the import statement stands."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {m for a in node.names if (m := _owner(a.name, known))}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            for a in node.names:
                target = f"{source}.{a.name}" if f"{source}.{a.name}" in known else _owner(source, known)
                if target:
                    out.add(target)
    out.discard(module)
    return out


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    known = modules(root, package)
    return {m: imported(m, path, is_package, known) for m, (path, is_package) in known.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle per strongly connected group of modules, as the path ``[a, b, …, a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:  # the shortest way from the group's first module back to it
        start = min(group)
        paths = {start: [start]}
        frontier = [start]
        found = None
        while frontier and found is None:
            nxt = []
            for v in frontier:
                for w in sorted(graph[v] & group):
                    if w == start:
                        found = [*paths[v], start]
                        break
                    if w not in paths:
                        paths[w] = [*paths[v], w]
                        nxt.append(w)
                if found:
                    break
            frontier = nxt
        out.append(found or sorted(group))
    return sorted(out)


def long_modules(root: Path, package: str, limit: int = MAX_LINES) -> list[str]:
    out = []
    for path, _pkg in modules(root, package).values():
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > limit:
            out.append(f"{path.relative_to(root)}: {count} lines")
    return out


def silent_packages(root: Path, package: str) -> list[str]:
    """Packages whose ``__init__`` has no docstring saying what the folder holds."""
    return [name for name, (path, is_package) in modules(root, package).items()
            if is_package and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))]


# ----------------------------------------------------------------------------- bot/


def test_bot_has_no_import_circle():
    found = circles(import_graph(ROOT, "bot"))
    assert not found, "import circles in bot/ (type-only and function-local imports count):\n" + "\n".join(
        " → ".join(c) for c in found)


def test_no_module_of_bot_is_over_600_lines():
    assert long_modules(ROOT, "bot") == []


def test_every_folder_of_bot_says_its_concern():
    assert silent_packages(ROOT, "bot") == []


def test_the_graph_sees_the_rooms_of_bot():
    graph = import_graph(ROOT, "bot")
    assert {"bot.host.service", "bot.games", "bot.storage.base", "bot.i18n", "bot.discord.cog",
            "bot.offline.table", "bot.processes.cpu", "bot.demos.samples"} <= set(graph)
    assert "bot.host.protocol" in graph["bot.host.turns"]  # a type-only import counts like any
    assert "bot.games.vikings" in graph["bot.games.registry"]  # so does a function-local one
    assert "bot.discord.cog" in graph["bot.discord.app"] and "bot.discord.app" not in graph["bot.discord.cog"]


# ----------------------------------------------------------------------------- engine/ and renderer/


def test_engine_and_renderer_have_no_import_circle():
    """Issue 30 item 7: the circle rule holds for the other two rooms too (engine.vikings.game ↔
    notation and renderer.brianboru ↔ picture were the last circles)."""
    found = [c for package in ("engine", "renderer") for c in circles(import_graph(ROOT, package))]
    assert not found, "import circles (type-only and function-local imports count):\n" + "\n".join(
        " → ".join(c) for c in found)


def test_the_graph_sees_the_rooms_of_engine_and_renderer():
    engine = import_graph(ROOT, "engine")
    assert "engine.vikings.notation" in engine["engine.vikings.game"]  # function-local: counted
    assert "engine.core" in engine["engine.vikings.notation"]
    renderer = import_graph(ROOT, "renderer")
    assert "renderer.picture" in renderer["renderer.brianboru"]
    assert "renderer.palette" in renderer["renderer.picture"]


# ----------------------------------------------------------------------------- the checks can fail


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_the_circle_check_finds_type_only_and_function_local_circles(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": '"""A fake package."""\n',
        "a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n",
        "b.py": "def f():\n    from pkg import a\n    return a\n",
        "c.py": "from . import d\n",  # relative imports count too
        "d.py": "import pkg.c\n",
        "e.py": "import pkg.a\n",  # imports into a circle, but is in none
    })
    found = circles(import_graph(root, "pkg"))
    assert found == [["pkg.a", "pkg.b", "pkg.a"], ["pkg.c", "pkg.d", "pkg.c"]]


def test_the_circle_check_finds_a_package_that_imports_its_importers(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": '"""A fake package."""\n',
        "games/__init__.py": '"""Games."""\ndef registry():\n    from pkg.games.one import One\n    return [One]\n',
        "games/one.py": "from pkg.games import registry\nclass One: ...\n",
    })
    assert circles(import_graph(root, "pkg")) == [["pkg.games", "pkg.games.one", "pkg.games"]]


def test_the_circle_check_passes_a_tree(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": '"""A fake package."""\n',
        "a.py": "import pkg.b\nfrom pkg.c import x\n",
        "b.py": "from pkg import c\n",
        "c.py": "x = 1\n",
    })
    assert circles(import_graph(root, "pkg")) == []


def test_the_length_and_docstring_checks_can_fail(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": '"""A fake package."""\n',
        "long.py": "x = 1\n" * (MAX_LINES + 1),
        "short.py": "x = 1\n" * MAX_LINES,
        "room/__init__.py": "",
    })
    assert long_modules(root, "pkg") == [f"pkg/long.py: {MAX_LINES + 1} lines"]
    assert silent_packages(root, "pkg") == ["pkg.room"]

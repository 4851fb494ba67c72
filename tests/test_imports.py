"""The package's import graph has no cycle, counting every import: module-level, inside a
function (where a cycle used to hide) and under ``TYPE_CHECKING``; and every module imports
alone in a fresh interpreter (what a cycle broken only by import order would fail)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "generator"


def module_name(path: Path) -> str:
    """The import name of a file of generator/: the folder installs as the package ``rulesdoc``."""
    parts = ["rulesdoc", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _owner(name: str) -> str:
    """The module a dotted name is in: ``rulesdoc.io.folders.replacing`` → ``rulesdoc.io.files``."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name


def imports_of(module: str) -> dict[str, int]:
    """The generator modules ``module`` imports, each with the line of its first import.

    A parent package that Python runs first (``rulesdoc.lint`` for ``rulesdoc.lint.model``)
    is not counted: a package importing its own submodules is not a cycle of the code.
    """
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [_owner(alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, up level - 1
                parent = package
                for _ in range(node.level - 1):
                    parent = parent.rpartition(".")[0]
                base = f"{parent}.{base}" if base else parent
            names = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else _owner(base)
                for alias in node.names
            ]
        for name in names:
            if name.startswith("rulesdoc") and name != module:
                found.setdefault(name, node.lineno)
    return found


def find_cycle(graph: dict[str, dict[str, int]]) -> list[str]:
    """One cycle of the graph as its modules in order (the first repeated at the end), or []."""
    state: dict[str, str] = {}  # "open" while on the path, "done" after
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = "open"
        path.append(module)
        for target in graph[module]:
            if state.get(target) == "open":
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = "done"
        return []

    for module in graph:
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return []


def test_the_finder_sees_a_cycle_and_a_function_level_import() -> None:
    assert find_cycle({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b": 1}, "b": {}, "c": {"a": 1}}) == []
    # cli imports most commands inside their functions: those imports count.
    assert "rulesdoc.cli.render_checked" in imports_of("rulesdoc.cli.main")


def test_the_generator_package_has_no_import_cycle() -> None:
    graph = {module: imports_of(module) for module in MODULES}
    cycle = find_cycle(graph)
    steps = [f"{a} imports {b} (line {graph[a][b]})" for a, b in zip(cycle, cycle[1:], strict=False)]
    assert not cycle, "an import cycle: " + "; ".join(steps)


@pytest.mark.slow
@pytest.mark.parametrize("module", sorted(set(MODULES) - {"rulesdoc.__main__"}))  # that one runs the CLI
def test_each_module_imports_alone(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def test_every_subpackage_is_a_named_layer() -> None:
    """The import contract (pyproject.toml, run by ``make test``) covers the whole package: a
    new subpackage outside its layers would be free to import anything."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["importlinter"]
    (layers,) = [c for c in config["contracts"] if c["id"] == "layers"]
    named = {name.strip() for layer in layers["layers"] for name in layer.split("|")}
    present = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    present |= {p.stem for p in PACKAGE.glob("*.py") if p.stem not in {"__init__", "__main__"}}
    assert present == named, (
        f"in generator/ but not in the layers: {sorted(present - named)}; "
        f"named but gone: {sorted(named - present)}"
    )


def test_the_package_list_is_the_folders() -> None:
    """pyproject.toml lists the packages by hand (setuptools finds none under a mapped folder): a
    new subpackage missing from the list would be missing from the wheel."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    assert config["package-dir"] == {"rulesdoc": "generator"}
    folders = {module_name(p) for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts}
    assert set(config["packages"]) == folders


def test_every_name_has_one_import_path() -> None:
    """No module re-exports a name (``from a import N as N``): each name is imported from where it
    is defined, so a reader finds one path and a move breaks loudly in one place."""
    reexported = [
        f"{module}:{node.lineno}: {alias.name}"
        for module, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text("utf-8")))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    ]
    assert reexported == []

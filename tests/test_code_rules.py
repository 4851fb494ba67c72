"""Rules of the codebase that no linter here states: no ``assert`` in the tool (``python -O``
strips it: an invariant or a seam check would pass silently) and no ``except`` that swallows."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from support import ROOT

SOURCES = sorted((ROOT / "generator").rglob("*.py"))


@functools.cache
def nodes(path: Path) -> list[ast.AST]:
    """Every node of a source file, parsed once for all the rules (parsing was their time)."""
    return list(ast.walk(ast.parse(path.read_text("utf-8"))))


def test_the_tool_has_no_assert_statement() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in SOURCES
        for node in nodes(path)
        if isinstance(node, ast.Assert)
    ]
    assert found == []


def test_no_handler_is_a_bare_pass() -> None:
    """An ``except`` whose whole body is ``pass`` hides what went wrong: say why with
    contextlib.suppress, or handle it."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in SOURCES
        for node in nodes(path)
        if isinstance(node, ast.ExceptHandler) and all(isinstance(stmt, ast.Pass) for stmt in node.body)
    ]
    assert found == []


def test_no_handler_only_logs_below_warning() -> None:
    """The command shows warnings and errors only: a failure handled by a debug or info line is
    swallowed as surely as by ``pass`` (the helper process's once were)."""
    found = [
        f"{path.relative_to(ROOT)}:{call.lineno}"
        for path in SOURCES
        for node in nodes(path)
        if isinstance(node, ast.ExceptHandler)
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("debug", "info")
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id in ("log", "logger", "logging", "LOG")
    ]
    assert found == []


def test_the_tests_environment_is_made_in_one_place() -> None:
    """Material's notice variable and the fixed build time are named in tests/support/env.py
    only (they were copied into 13 files)."""
    home = ROOT / "tests" / "support" / "env.py"
    found = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if path not in (home, Path(__file__).resolve())
        for name in ("NO_MKDOCS_2_WARNING", '"SOURCE_DATE_EPOCH": "1700000000"')
        if name in path.read_text("utf-8")
    ]
    assert found == []

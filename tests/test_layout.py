"""One step off the catalog layout: check, `rulesdoc build` and `mkdocs build --strict` refuse in
the same line (issue 29); an empty language folder is the same warning in all three. The one-line errors of check, render and catalog update are in the
bad-input corpus (tests/bad_inputs/cases.yaml, `layout-*`); these are the builds."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from support import copy_project
from support.newlang import build_site

from rulesdoc.catalog.layout import check_layout

pytestmark = pytest.mark.slow


def _flat(root: Path) -> None:
    shutil.copy(root / "locales" / "da" / "LC_MESSAGES" / "messages.po", root / "locales" / "fr.po")


def _compiled_alone(root: Path) -> None:
    (root / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (root / "locales" / "fr" / "LC_MESSAGES" / "messages.mo").write_bytes(b"")


def _check_yaml(root: Path) -> None:
    (root / "locales" / "check.yaml").write_text("min_translated:\n  default: 80\n  DA: 100\n", "utf-8")


@pytest.mark.parametrize(
    ("apply", "line"),
    [
        (_flat, "locales/fr.po: a catalog outside the layout rulesdoc reads: move it to "
                "locales/fr/LC_MESSAGES/messages.po"),
        (_compiled_alone, "locales/fr: a language folder without its catalog: expected "
                 "locales/fr/LC_MESSAGES/messages.po (`rulesdoc catalog init fr`), or remove the folder"),
        (_check_yaml, "locales/check.yaml:3: min_translated: write 'da', not 'DA', as the catalog's "
                      "folder is named"),
    ],
    ids=["flat-po", "compiled-alone", "check-yaml"],
)  # fmt: skip
def test_check_and_every_build_refuse_in_one_line(
    tmp_path: Path, apply: Callable[[Path], None], line: str
) -> None:
    root = copy_project(tmp_path / "project")
    apply(root)
    check = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 2 and check.stderr == f"rulesdoc: error: {line}\n", check.stderr
    build = build_site(root, tmp_path / "site")
    assert build.returncode != 0 and line in build.stdout + build.stderr, build.stderr
    assert "Traceback" not in build.stderr and not (tmp_path / "site").exists()
    command = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "build"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert command.returncode == 2 and line in command.stderr, command.stderr
    assert not (root / "site").exists()


EMPTY = (
    "locales/fr: warning: [empty-folder] an empty language folder, left out of the site: "
    "`rulesdoc catalog init fr` starts its catalog (locales/fr/LC_MESSAGES/messages.po), or remove the folder"
)


def test_an_empty_language_folder_is_one_warning_in_check_and_every_build(tmp_path: Path) -> None:
    """Nothing is lost: check passes, and the strict builds go on, each saying check's line once."""
    root = copy_project(tmp_path / "project")
    (root / "locales" / "fr" / "LC_MESSAGES").mkdir(parents=True)
    (root / "locales" / "fr" / ".gitkeep").write_text("", "utf-8")  # hidden: still empty
    check = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert check.returncode == 0 and check.stdout.count(EMPTY) == 1, check.stdout + check.stderr
    build = build_site(root, tmp_path / "site")
    assert build.returncode == 0 and (build.stdout + build.stderr).count(EMPTY) == 1, build.stderr
    assert (tmp_path / "site" / "da" / "index.html").is_file() and not (tmp_path / "site" / "fr").exists()
    command = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "build"], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert command.returncode == 0 and (command.stdout + command.stderr).count(EMPTY) == 1, command.stderr


def test_the_layout_leaves_glossaries_hidden_files_and_compiled_catalogs_alone(tmp_path: Path) -> None:
    locales = tmp_path / "locales"
    (locales / "da" / "LC_MESSAGES").mkdir(parents=True)
    for name in ("da/LC_MESSAGES/messages.po", "da/LC_MESSAGES/messages.mo", "da/glossary.yaml",
                 "glossary.yaml", "check.yaml", "messages.pot", ".DS_Store"):  # fmt: skip
        (locales / name).write_text("", "utf-8")
    (locales / ".tx").mkdir()
    (locales / ".tx" / "old.po").write_text("", "utf-8")
    check_layout(locales)

"""`rulesdoc new DIR`: a project of the user's own that passes check and a strict build at once
(issue 29). The wheel's copy is tested in tests/test_install.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support.newlang import build_site

pytestmark = pytest.mark.slow


def rulesdoc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_new_then_check_and_a_strict_build(tmp_path: Path) -> None:
    made = rulesdoc("new", "help", "--name", "My game help", "--lang", "da", "--lang", "pt-BR", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "help"
    for name in ("rules.yaml", "babel.cfg", "mkdocs.yml", ".gitignore", "templates/index.md.j2",
                 "templates/scoring.md.j2", "docs/assets/rulesdoc.css", "locales/check.yaml",
                 "locales/messages.pot", "locales/da/LC_MESSAGES/messages.po",
                 "locales/pt_BR/LC_MESSAGES/messages.po"):  # fmt: skip
        assert (project / name).is_file() and not (project / name).is_symlink(), name
    assert 'site_name: "My game help"' in (project / "mkdocs.yml").read_text("utf-8")
    assert [p.name for p in tmp_path.iterdir()] == ["help"]  # no work folder left beside it
    check = rulesdoc("check", cwd=project)
    assert check.returncode == 0 and "check passed" in check.stdout, check.stdout + check.stderr
    built = build_site(project, project / "site")
    assert built.returncode == 0, built.stdout + built.stderr
    for page in ("index.html", "scoring.html", "da/index.html", "pt-BR/scoring.html"):
        text = (project / "site" / page).read_text("utf-8")
        assert "My game help" in text and "Rami help" not in text, page
    site = [
        p.read_text("utf-8", "replace")
        for p in (project / "site").rglob("*")
        if p.suffix in (".html", ".json")
    ]
    assert not [text for text in site if "Rami help" in text]
    # The scoring page's calculator comes with the starter, in every language.
    for page in ("scoring.html", "da/scoring.html"):
        assert 'id="rd-calc-data"' in (project / "site" / page).read_text("utf-8"), page


def test_new_refuses_a_folder_that_holds_files_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "notes.txt").write_text("mine", "utf-8")
    done = rulesdoc("new", "help", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("rulesdoc: error: help: already exists and is not an empty folder")
    assert [p.name for p in (tmp_path / "help").iterdir()] == ["notes.txt"]


def test_new_with_a_bad_language_leaves_nothing(tmp_path: Path) -> None:
    done = rulesdoc("new", "help", "--lang", "da", "--lang", "zz_XX", cwd=tmp_path)
    assert done.returncode == 2 and "CLDR has no locale 'zz_XX'" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []

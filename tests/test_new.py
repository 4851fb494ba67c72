"""`rulesdoc new DIR`: a project of the user's own that passes check and a strict build at once
(issue 29). The wheel's copy is tested in tests/test_install.py."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support.newlang import build_site

from rulesdoc.cli.scaffold import new_project
from rulesdoc.errors import RulesdocError
from rulesdoc.io.files import umask


def rulesdoc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rulesdoc", *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
def test_new_then_check_and_a_strict_build(tmp_path: Path) -> None:
    made = rulesdoc("new", "help", "--name", "My game help", "--lang", "da", "--lang", "pt-BR", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "help"
    for name in ("rules.yaml", "babel.cfg", "mkdocs.yml", ".gitignore", "templates/index.md.j2",
                 "templates/scoring.md.j2", "docs/assets/rulesdoc.css", "locales/check.yaml",
                 "locales/messages.pot", "locales/da/LC_MESSAGES/messages.po",
                 "locales/pt_BR/LC_MESSAGES/messages.po", ".github/workflows/site.yml",
                 ".pre-commit-config.yaml", "requirements.txt"):  # fmt: skip
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


@pytest.mark.slow
def test_new_refuses_a_folder_that_holds_files_and_writes_nothing(tmp_path: Path) -> None:
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "notes.txt").write_text("mine", "utf-8")
    done = rulesdoc("new", "help", cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("rulesdoc: error: help: already exists and is not an empty folder")
    assert [p.name for p in (tmp_path / "help").iterdir()] == ["notes.txt"]


@pytest.mark.slow
def test_new_with_a_bad_language_leaves_nothing(tmp_path: Path) -> None:
    done = rulesdoc("new", "help", "--lang", "da", "--lang", "zz_XX", cwd=tmp_path)
    assert done.returncode == 2 and "CLDR has no locale 'zz_XX'" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and list(tmp_path.iterdir()) == []


def made(tmp_path: Path, name: str | None = "My game help") -> tuple[Path, list[str]]:
    said: list[str] = []
    new_project(tmp_path / "help", name, ["da"], said.append)
    return tmp_path / "help", said


def test_the_pre_commit_hook_is_local_and_runs_check(tmp_path: Path) -> None:
    """No published repository to name: the hook runs the rulesdoc installed where one commits."""
    project, _ = made(tmp_path)
    config = yaml.safe_load((project / ".pre-commit-config.yaml").read_text("utf-8"))
    (repo,) = config["repos"]
    assert repo["repo"] == "local"
    (hook,) = repo["hooks"]
    assert hook["entry"] == "rulesdoc check" and hook["language"] == "system"
    assert hook["pass_filenames"] is False
    files = re.compile(hook["files"])
    read = (
        "rules.yaml",
        "mkdocs.yml",
        "babel.cfg",
        "templates/index.md.j2",
        "locales/da/LC_MESSAGES/messages.po",
    )
    assert [path for path in read if not files.search(path)] == []
    assert not files.search("README.md")


def test_requirements_name_this_install_and_say_when_no_index_has_it(tmp_path: Path) -> None:
    """The test virtualenv's rulesdoc is an editable install of the checkout: the version, and
    one line saying CI finds it only on an index."""
    project, said = made(tmp_path)
    lines = (project / "requirements.txt").read_text("utf-8").splitlines()
    assert lines[-1] == "rulesdoc==0.1.0" and all(line.startswith("#") for line in lines[:-1])
    (note,) = [line for line in said if "requirements.txt:" in line]
    assert "folder" in note and "package index" in note
    # No stub with a placeholder to fill in, nor anything of this checkout's, in the project.
    texts = [p.read_text("utf-8") for p in project.rglob("*") if p.is_file()]
    assert not [t for t in texts if "OWNER" in t or "Rami help" in t or "/work/" in t]


def test_a_name_in_any_script_is_written_as_itself(tmp_path: Path) -> None:
    project, said = made(tmp_path, "Hjælp til spillet \\1 — खेल")
    assert 'site_name: "Hjælp til spillet \\\\1 — खेल"\n' in (project / "mkdocs.yml").read_text("utf-8")
    assert "Hjælp til spillet \\\\1 — खेल" in said[0]  # repr()


@pytest.mark.parametrize("name", ["\udcff\udcfe bad", "a\ufffeb", " ", "x" * 201])
def test_a_name_yaml_cannot_hold_is_refused_before_anything_is_written(tmp_path: Path, name: str) -> None:
    with pytest.raises(RulesdocError, match="^--name: a site name"):
        made(tmp_path, name)
    assert list(tmp_path.iterdir()) == []


def test_the_project_has_the_umasks_modes(tmp_path: Path) -> None:
    """Not mkdtemp's 0700 for the folder it was assembled in."""
    project, _ = made(tmp_path)
    folder, file = 0o777 & ~umask(), 0o666 & ~umask()
    assert stat.S_IMODE(project.stat().st_mode) == folder
    for path in project.rglob("*"):
        assert stat.S_IMODE(path.stat().st_mode) == (folder if path.is_dir() else file), path


@pytest.mark.slow
def test_the_pre_commit_hook_runs_in_the_new_project(tmp_path: Path) -> None:
    """pre-commit itself runs the hook: passing, then failing on a broken catalog line."""
    project, _ = made(tmp_path)
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home")}  # fmt: skip

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(args, cwd=project, env=env, capture_output=True, text=True, timeout=300)

    assert run("git", "init", "-q").returncode == 0
    assert run("git", "add", "-A").returncode == 0
    passed = run(str(bin_dir / "pre-commit"), "run", "--all-files")
    assert passed.returncode == 0 and "rulesdoc check" in passed.stdout and "Passed" in passed.stdout, (
        passed.stdout
    )
    po = project / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    po.write_text(po.read_text("utf-8") + '\nmsgid "broken"\n', "utf-8")
    failed = run(str(bin_dir / "pre-commit"), "run", "--all-files")
    assert failed.returncode != 0 and "Failed" in failed.stdout, failed.stdout
    assert "locales/da/LC_MESSAGES/messages.po" in failed.stdout


def test_new_in_the_empty_folder_one_stands_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rulesdoc new .`: the folder is kept (its mode, the shell's place in it), filled, its name
    the site's; no work folder is left in it."""
    here = tmp_path / "Kortspil"
    here.mkdir(mode=0o750)
    here.chmod(0o750)
    monkeypatch.chdir(here)
    said: list[str] = []
    started = new_project(Path("."), None, ["nl"], said.append)
    assert stat.S_IMODE(here.stat().st_mode) == 0o750
    assert sorted(p.name for p in here.iterdir()) == [
        ".github", ".gitignore", ".pre-commit-config.yaml", "babel.cfg", "docs", "locales", "mkdocs.yml",
        "requirements.txt", "rules.yaml", "templates",
    ]  # fmt: skip
    assert 'site_name: "Kortspil"\n' in (here / "mkdocs.yml").read_text("utf-8")
    assert started == [Path("locales/nl/LC_MESSAGES/messages.po")] and said[0].startswith(".: a new")


def test_a_file_on_the_way_is_one_error_and_nothing_is_left(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("mine", "utf-8")
    with pytest.raises(RulesdocError, match="cannot write") as refused:
        new_project(tmp_path / "notes" / "help", "Help", [], lambda line: None)
    assert "\n" not in str(refused.value)
    assert [p.name for p in tmp_path.iterdir()] == ["notes"]

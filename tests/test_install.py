"""Every install works (issue 19, goal 1): the package as users get it, never the checkout.

A wheel is built from a copy of the package's sources and installed, with its declared dependencies
only, into a fresh virtualenv; a copy of the project (rules, templates, catalogs, site config) then
runs `rulesdoc check`, `render`, `export` and a strict `mkdocs build` with that virtualenv's commands
in a folder without `generator/`. The offered pre-commit hook runs from a consumer repository, and
from one whose project sits in a subfolder, both naming this repository (a committed copy of its
working tree, as `pre-commit try-repo` makes) in their `.pre-commit-config.yaml`: pre-commit
installs it its own way (`pip install .`), once, into the hook environment both share. Both
installs fetch packages through pip (its cache and the configured indexes): minutes, so marked slow.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import ROOT, copy_project

pytestmark = pytest.mark.slow

# What a wheel is built from: the package and the files pyproject.toml names.
PACKAGE_SOURCES = ("pyproject.toml", "README.md", "LICENSE")
TIMEOUT = 900


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without anything that would let the checkout's package leak in."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.pop("RULESDOC_STRICT", None)  # the strict build is what is tested
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return {**env, **extra}


def run(
    args: list[str | Path], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env or clean_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    return result


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, (
        f"{result.args} exited {result.returncode}:\n{result.stdout}\n{result.stderr}"
    )
    return result.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A fresh virtualenv (with its own pip) holding only the wheel and what it declares."""
    tmp = tmp_path_factory.mktemp("install")
    source = tmp / "source"  # a copy: building in the checkout would write build/ and *.egg-info there
    source.mkdir()
    for name in PACKAGE_SOURCES:
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "generator", source / "generator", ignore=shutil.ignore_patterns("__pycache__"))
    env_dir = tmp / "venv"
    ok(run([sys.executable, "-m", "venv", env_dir], cwd=tmp))
    python = env_dir / "bin" / "python"
    ok(run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", tmp / "dist", source], cwd=tmp))
    (wheel,) = (tmp / "dist").glob("rulesdoc-*.whl")
    ok(run([python, "-m", "pip", "install", "--quiet", "--no-compile", wheel], cwd=tmp))
    yield env_dir / "bin"


def test_wheel_carries_every_module_and_template(venv: Path) -> None:
    """Every module and theme template of the checkout is in the installed package, and the package
    imported is the installed one."""
    site = ok(run([venv / "python", "-c", "import rulesdoc; print(rulesdoc.__file__)"], cwd=venv))
    installed = Path(site.strip()).parent
    assert venv.parent in installed.parents, f"imported {installed}, not the wheel's copy"
    wanted = {
        p.relative_to(ROOT / "generator").as_posix()
        for p in (ROOT / "generator").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    present = {p.relative_to(installed).as_posix() for p in installed.rglob("*") if p.is_file()}
    assert wanted - present == set()
    assert {
        "lint/__init__.py",
        "site/theme_templates/main.html",
        "site/theme_templates/partials/alternate.html",
    } <= present


def test_installed_commands_run_the_project(venv: Path, tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    assert not (project / "generator").exists()  # nothing to import but the installed package

    ok(run([venv / "rulesdoc", "check"], cwd=project))

    ok(run([venv / "rulesdoc", "render", "--out", tmp_path / "pages"], cwd=project))
    assert (tmp_path / "pages" / "en" / "scoring.md").is_file()
    assert (tmp_path / "pages" / "hi" / "scoring.md").is_file()

    ok(run([venv / "rulesdoc", "export", "--out", tmp_path / "export"], cwd=project))
    assert {p.name for p in (tmp_path / "export").iterdir()} >= {
        "rules.json",
        "rules.schema.json",
        "conformance.json",
        "scoring.mjs",  # package data: the installed package ships the JavaScript scorer
    }

    out = tmp_path / "site"
    ok(run([venv / "mkdocs", "build", "--strict", "-q", "-d", out], cwd=project))
    for page in ("index.html", "scoring.html", "ms/scoring.html", "pt/index.html", "hi/index.html"):
        assert (out / page).is_file(), page
    # The theme override of the package (generator/site/theme_templates/main.html) was found and used.
    assert 'lang="hi"' in (out / "hi" / "index.html").read_text(encoding="utf-8")


# Who commits in the tests' repositories (git and pre-commit refuse to commit without a name).
GIT_IDENTITY = {k: "rulesdoc tests" for k in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME")} | {
    k: "tests@example.invalid" for k in ("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL")
}


@dataclass(frozen=True)
class Hooks:
    """This repository as a hook repository, and the pre-commit home its environment is made in."""

    repository: Path
    rev: str
    home: Path

    def config(self, *args: str) -> str:
        """A `.pre-commit-config.yaml` running the rulesdoc check hook with ``args``."""
        hook = "  - id: rulesdoc-check\n" + (f"    args: [{', '.join(args)}]\n" if args else "")
        return f"repos:\n- repo: {self.repository}\n  rev: {self.rev}\n  hooks:\n{hook}"

    def run(self, repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
        """`pre-commit run` on ``files`` (every file when none), in the consumer ``repo``."""
        env = clean_env(PRE_COMMIT_HOME=str(self.home), **GIT_IDENTITY)
        which = ["--files", *files] if files else ["--all-files"]
        return run([Path(sys.executable).parent / "pre-commit", "run", *which], cwd=repo, env=env)


@pytest.fixture(scope="module")
def hooks(tmp_path_factory: pytest.TempPathFactory) -> Hooks:
    """This repository as pre-commit clones it, from the working tree (as try-repo does): a git
    repository of the files git sees here, committed. Its tests share one pre-commit home, so the
    hook's environment (this repository and its dependencies, installed by pip) is made once."""
    destination = tmp_path_factory.mktemp("hooks")
    listed = ok(run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT))
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, destination / name)
    env = clean_env(**GIT_IDENTITY)
    for command in (["git", "init", "-q"], ["git", "add", "-A"], ["git", "commit", "-qm", "hook"]):
        ok(run(command, cwd=destination, env=env))
    rev = ok(run(["git", "rev-parse", "HEAD"], cwd=destination)).strip()
    return Hooks(destination, rev, tmp_path_factory.mktemp("pre-commit-home"))


def break_a_placeholder(po: Path) -> None:
    text = po.read_text(encoding="utf-8")
    broken = text.replace('msgstr "%(', 'msgstr "%(nothing_like_it)s %(', 1)
    assert broken != text, f"no placeholder in {po} to break"
    po.write_text(broken, encoding="utf-8")


def test_pre_commit_hook_from_a_consumer_repository(hooks: Hooks, tmp_path: Path) -> None:
    """A project that uses rulesdoc through pre-commit: its own git repository, no generator/."""
    repo = copy_project(tmp_path / "repo")
    (repo / ".pre-commit-config.yaml").write_text(hooks.config(), "utf-8")
    ok(run(["git", "init", "-q"], cwd=repo))
    ok(run(["git", "add", "-A"], cwd=repo))
    result = hooks.run(repo)
    ok(result)
    assert "rulesdoc check" in result.stdout and "Passed" in result.stdout

    # The hook really checks: a broken placeholder in a catalog fails it, naming the file.
    break_a_placeholder(repo / "locales" / "ms" / "LC_MESSAGES" / "messages.po")
    ok(run(["git", "add", "-A"], cwd=repo))
    result = hooks.run(repo)
    assert result.returncode != 0, result.stdout
    assert "Failed" in result.stdout and "locales/ms/LC_MESSAGES/messages.po" in result.stdout


def test_pre_commit_hook_for_a_project_in_a_subfolder(hooks: Hooks, tmp_path: Path) -> None:
    """The project in help/ of its repository: the hook's `files` find its inputs there, and
    `args: [--root, help]` reaches `rulesdoc check` after the command (issue 29)."""
    repo = tmp_path / "repo"
    copy_project(repo / "help")
    (repo / ".pre-commit-config.yaml").write_text(hooks.config("--root", "help"), "utf-8")
    ok(run(["git", "init", "-q"], cwd=repo))
    ok(run(["git", "add", "-A"], cwd=repo))
    result = hooks.run(repo)
    assert result.returncode == 0 and "Passed" in result.stdout, result.stdout + result.stderr

    po = repo / "help" / "locales" / "ms" / "LC_MESSAGES" / "messages.po"
    break_a_placeholder(po)
    ok(run(["git", "add", "-A"], cwd=repo))
    result = hooks.run(repo, str(po.relative_to(repo)))
    assert result.returncode != 0 and "Failed" in result.stdout, result.stdout + result.stderr
    assert "help/locales/ms/LC_MESSAGES/messages.po" in result.stdout


README_MARKER = "<!-- start-your-own-site"


def readme_block() -> str:
    """The README's "Start your own site" commands: the first sh block after its marker."""
    text = (ROOT / "README.md").read_text("utf-8")
    assert text.count(README_MARKER) == 1, "the README's start-your-own-site marker"
    after = text[text.index(README_MARKER) :]
    block = re.search(r"```sh\n(.*?)```", after, re.S)
    assert block is not None and after.index("```sh") < after.index("\n\n"), (
        "no sh block right after the marker"
    )
    return block.group(1)


def test_the_readme_starts_a_site_from_the_wheel(venv: Path, tmp_path: Path) -> None:
    """The README's "Start your own site", run as it is, in a folder outside this repository
    holding the wheel and a generator/ folder of the user's own: a new virtualenv, the wheel
    installed, `rulesdoc new`, check and the strict build (issue 29)."""
    commands = [line for line in readme_block().splitlines() if line.strip()]
    assert len(commands) <= 6 and not [line for line in commands if "OWNER" in line], commands
    (wheel,) = (venv.parent.parent / "dist").glob("rulesdoc-*.whl")
    shutil.copy(wheel, tmp_path / wheel.name)
    (tmp_path / "generator").mkdir()
    (tmp_path / "generator" / "__init__.py").write_text("raise ImportError('the user's own generator')\n")
    # The interpreter that made this virtualenv, and the system's tools: none of the checkout's.
    path = os.pathsep.join([str(Path(sys._base_executable).parent), "/usr/bin", "/bin"])  # type: ignore[attr-defined]
    done = run(["bash", "-e", "-c", readme_block()], cwd=tmp_path, env=clean_env(PATH=path))
    output = ok(done) + done.stderr
    assert "Traceback" not in output
    project = tmp_path / "mysite"
    requirement = (project / "requirements.txt").read_text("utf-8").splitlines()[-1]
    # The wheel it was installed from, and its hash as pip recorded it.
    assert re.fullmatch(
        re.escape(f"rulesdoc @ {(tmp_path / wheel.name).as_uri()}") + "#sha256=[0-9a-f]{64}", requirement
    )
    assert output.count("requirements.txt: it names a file on this machine") == 1, output
    # `python -m` puts the project first on the path: a generator/ package of the user's own in it
    # is never imported, as the installed package is `rulesdoc`.
    (project / "generator").mkdir()
    (project / "generator" / "__init__.py").write_text("raise ImportError('the user's own generator')\n")
    python = tmp_path / ".venv" / "bin" / "python"
    ok(run([python, "-m", "rulesdoc", "check"], cwd=project))
    ok(run([python, "-m", "mkdocs", "build", "--strict", "-q", "-d", tmp_path / "by-mkdocs"], cwd=project))
    for page in ("index.html", "da/index.html", "nl/scoring.html"):
        text = (project / "site" / page).read_text("utf-8")
        assert "<title>" in text and "My game help" in text and "Rami help" not in text, page

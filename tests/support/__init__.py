"""Shared test helpers, one importable package: ``from support import ROOT, copy_project``.

pytest puts ``tests/`` on ``sys.path`` (rootdir conftest, no ``__init__.py`` there), so every test
module, the browser package and helper scripts import this the same way. Fixtures stay in
``tests/conftest.py``; plain constants and functions live here, once.

Two kinds of tests, two sources of rules:

- Unit tests of the engine, the CLI, the export and the report run on ``SEED_RULES``, a frozen
  copy of ``rules.yaml`` as it was when their expected values were worked out by hand (joker 20,
  ace 11, face 10, cap 100, cap fraction 0.5, four worked examples). A rule change in this
  checkout's ``rules.yaml`` (the README's tour) leaves them alone.
- Tests of this checkout (``ROOT``, ``LIVE_RULES``, the ``project`` fixture) assert only what
  holds for any valid values: the page shows what the engine computes, the strict build passes.
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from rulesdoc.catalog import po, po_writer
from rulesdoc.i18n import catalogs, extraction
from rulesdoc.i18n.translate import catalog_codes, catalog_path
from rulesdoc.io.project import Project

ROOT = Path(__file__).resolve().parents[2]
LIVE_RULES = ROOT / "rules.yaml"
# Byte for byte the rules.yaml the hand-worked values assume: tests name its lines (51, 61).
SEED_RULES = ROOT / "tests" / "fixtures" / "rules" / "seed.yaml"
PUBLISHED = ("en", "da", "hi", "ms", "nl", "pt")


def copy_project(destination: Path, rules: Path | None = SEED_RULES) -> Path:
    """A writable copy of everything a render or a site build reads, with ``rules`` as its
    rules.yaml (``None``: this checkout's own).

    Catalogs follow the rules: when the rules' titles or lines differ from this checkout's,
    messages.pot is extracted again and the catalogs updated, as `make update` would; messages
    only this checkout's rules have are dropped rather than kept obsolete, so the copy checks
    clean whatever examples were added here since.

    The first copy for given rules is made once per test process (see :func:`_pristine`); each
    call copies that one, file for file: ~0.01 s instead of ~0.3 s of loading and extracting.
    """
    destination.mkdir(parents=True, exist_ok=True)
    for item in _pristine(rules).iterdir():  # not copytree of the folder: leave destination's own mode
        if item.is_dir():
            shutil.copytree(item, destination / item.name)
        else:
            shutil.copy2(item, destination / item.name)
    return destination


# (rules path, rules bytes) -> the synced copy made from them; the bytes are in the key, so a
# test that passes a rules file and edits it between two copies gets a fresh one.
_PRISTINE: dict[tuple[Path | None, bytes], Path] = {}


def _pristine(rules: Path | None) -> Path:
    """The copy of the project for ``rules``, made on first use in a folder of its own that
    lives as long as the test process: nothing runs at import, and no test writes to it."""
    source = rules or LIVE_RULES
    key = (rules and rules.resolve(), source.read_bytes())
    made = _PRISTINE.get(key)
    if made is None:
        folder = Path(tempfile.mkdtemp(prefix="rulesdoc-pristine-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        made = folder / "project"
        made.mkdir()
        for name in ("babel.cfg", "mkdocs.yml"):
            shutil.copy(ROOT / name, made / name)
        shutil.copy(source, made / "rules.yaml")
        for name in ("templates", "locales", "docs"):
            shutil.copytree(ROOT / name, made / name, ignore=shutil.ignore_patterns("*.mo"))
        if rules is not None:
            sync_catalogs(made)
        _PRISTINE[key] = made
    return made


def sync_catalogs(project: Path) -> None:
    """`make update` in a copy, when its sources no longer give its messages.pot."""
    locales = project / "locales"
    obsolete_before = {
        code: set(po.load(catalog_path(locales, code)).catalog.obsolete) for code in catalog_codes(locales)
    }
    _, changed = extraction.write_template(project, locales)
    if not changed:
        return
    catalogs.update(locales)
    for code, before in obsolete_before.items():
        loaded = po.load(catalog_path(locales, code))
        dropped = [key for key in loaded.catalog.obsolete if key not in before]
        if dropped:
            for key in dropped:
                del loaded.catalog.obsolete[key]
            loaded.path.write_bytes(po_writer.to_bytes(loaded.catalog, loaded.headers))


def lint_error_lines(project: Project) -> list[str]:
    """The error lines `rulesdoc check` reports for a project, through the calls it makes."""
    from rulesdoc import lint
    from rulesdoc.i18n.policy import read_policy
    from rulesdoc.pages.render import Workspace
    from rulesdoc.site.options import site_options

    policy = read_policy(project.locales, site_options(project.root / "mkdocs.yml").languages, project.root)
    return lint.run(lint.gather(Workspace.load(project), policy)).error_lines()


# A committer for throwaway repositories, whatever the machine's git configuration says.
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
}


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args],
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()

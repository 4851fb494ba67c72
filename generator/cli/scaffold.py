"""``rulesdoc new DIR``: a working project of the user's own, from the starter files in the package.

The starter (``generator/cli/starter/``, package data: it ships in the wheel) is a rules.yaml
with one worked example, the page templates, ``babel.cfg``, ``mkdocs.yml``, ``docs/``, a
``.gitignore``, ``locales/check.yaml``, a GitHub workflow and a pre-commit configuration. ``new``
copies it, writes the user's site name into ``mkdocs.yml`` and how rulesdoc was installed into
``requirements.txt`` (:mod:`rulesdoc.cli.requirement`, for CI and the hook), extracts
``messages.pot`` and starts a catalog per ``--lang``: the project passes ``rulesdoc check`` and a
strict build at once. It is assembled in a hidden folder beside DIR and renamed into place
whole: a failure (a bad language code) leaves nothing behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from importlib.resources import files as package_files
from importlib.resources.abc import Traversable
from pathlib import Path

from rulesdoc.cli import requirement
from rulesdoc.errors import CONTROL_CHARACTERS, Location, RulesdocError, display_path, short
from rulesdoc.i18n import catalogs, extraction, theme
from rulesdoc.io.files import umask
from rulesdoc.localedata.cldr import canonical

# Starter files stored under another name: a dotfile is no package data to setuptools' globs.
RENAMED = {
    "gitignore": ".gitignore",
    "github": ".github",
    "pre-commit-config.yaml": ".pre-commit-config.yaml",
}
MAX_NAME = 200


def new_project(
    folder: Path, name: str | None, codes: Sequence[str], say: Callable[[str], None]
) -> list[Path]:
    """Write the starter project into ``folder`` (absent or empty); returns the catalogs started."""
    target = Path(os.path.abspath(folder))  # `new .`: the folder's own name, and its parent
    site_name = _site_name(name, target.name)
    chosen = [canonical(code) for code in codes]  # refused before anything is written
    if os.path.lexists(target) and (not target.is_dir() or target.is_symlink() or any(target.iterdir())):
        raise RulesdocError(
            "already exists and is not an empty folder: `rulesdoc new` starts a project in a new one",
            Location(display_path(folder)),
        )
    installed = requirement.installed()
    try:
        started = _assemble(target, site_name, installed.line, chosen)
    except OSError as error:  # a file on the way, a read-only folder, a full disk: nothing is left
        where = display_path(Path(error.filename)) if error.filename else display_path(folder)
        raise RulesdocError(f"cannot write: {error.strerror or error}", Location(where)) from None
    say(f"{display_path(folder)}: a new rulesdoc project, {site_name!r}")
    if installed.note is not None:
        say(f"{display_path(folder / 'requirements.txt')}: {installed.note}")
    return [folder / path for path in started]


def _assemble(target: Path, site_name: str, requirement_line: str, codes: Sequence[str]) -> list[Path]:
    """The project, made in a hidden folder and put in place whole; the catalogs started, relative.

    A new folder is the hidden one renamed. An existing empty one (``new .``, where the shell
    stands) is kept, its owner's: the project is made inside it and its entries moved up."""
    existing = target.is_dir()
    if not existing:
        target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target if existing else target.parent))
    moved: list[Path] = []
    try:
        os.chmod(work, 0o777 & ~umask())  # the project's folder, not mkdtemp's private 0700
        _copy(package_files("rulesdoc.cli") / "starter", work)
        config = work / "mkdocs.yml"
        text = config.read_text("utf-8")
        # A function, not a replacement string: the name's backslashes are no group references.
        config.write_text(re.sub(r"(?m)^site_name: .*$", lambda _: _site_name_line(site_name), text), "utf-8")
        (work / "requirements.txt").write_text(
            f"# What CI and the pre-commit hook install: how `rulesdoc new` found rulesdoc installed.\n"
            f"{requirement_line}\n",
            "utf-8",
        )
        (work / "docs").mkdir(exist_ok=True)
        extraction.write_template(work, work / "locales")
        started = [catalogs.init(work / "locales", code, root=work) for code in dict.fromkeys(codes)]
        if not existing:
            os.rename(work, target)
        else:
            for entry in sorted(work.iterdir()):
                os.rename(entry, target / entry.name)
                moved.append(target / entry.name)
            work.rmdir()
    except BaseException:
        for path in moved:  # back to the empty folder it was
            shutil.rmtree(path) if path.is_dir() and not path.is_symlink() else path.unlink()
        raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return [path.relative_to(work) for path in started]


def _site_name(name: str | None, folder_name: str) -> str:
    """``--name``, else the folder's name, as mkdocs.yml's site name."""
    given = "--name" if name is not None else f"DIR's name {short(folder_name)!r} (give --name)"
    cleaned = " ".join((name if name is not None else folder_name).split())
    if not cleaned or len(cleaned) > MAX_NAME or CONTROL_CHARACTERS.search(cleaned):
        raise RulesdocError(f"{given}: a site name of 1 to {MAX_NAME} characters, without control characters")
    _site_name_line(cleaned, given)
    return cleaned


def _site_name_line(name: str, given: str = "--name") -> str:
    """mkdocs.yml's line for the name, in the name's own letters; refused unless it reads back
    as the name (a character YAML cannot hold, an undecodable byte of the command line)."""
    line = f"site_name: {json.dumps(name, ensure_ascii=False)}"
    if theme.site_name_in(line) != name:
        raise RulesdocError(f"{given}: a site name YAML cannot hold (a character it does not allow)")
    return line


def _copy(source: Traversable, target: Path) -> None:
    target.mkdir(exist_ok=True)
    for item in source.iterdir():
        if item.name == "__pycache__":
            continue
        destination = target / RENAMED.get(item.name, item.name)
        if item.is_dir():
            _copy(item, destination)
        else:
            destination.write_bytes(item.read_bytes())

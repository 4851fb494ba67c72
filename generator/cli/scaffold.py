"""``rulesdoc new DIR``: a working project of the user's own, from the starter files in the package.

The starter (``generator/cli/starter/``, package data: it ships in the wheel) is a rules.yaml
with one worked example, the page templates, ``babel.cfg``, ``mkdocs.yml``, ``docs/``, a
``.gitignore`` and ``locales/check.yaml``. ``new`` copies it, writes the user's site name into
``mkdocs.yml``, extracts ``messages.pot`` and starts a catalog per ``--lang``: the project passes
``rulesdoc check`` and a strict build at once. It is assembled in a hidden folder beside DIR and
renamed into place whole: a failure (a bad language code) leaves nothing behind.
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

from rulesdoc.errors import CONTROL_CHARACTERS, Location, RulesdocError, display_path
from rulesdoc.i18n import catalogs, extraction
from rulesdoc.i18n.cldr import canonical

# Starter files stored under another name: a dotfile is no package data to setuptools' globs.
RENAMED = {"gitignore": ".gitignore"}
MAX_NAME = 200


def new_project(
    folder: Path, name: str | None, codes: Sequence[str], say: Callable[[str], None]
) -> list[Path]:
    """Write the starter project into ``folder`` (absent or empty); returns the catalogs started."""
    site_name = _site_name(name if name is not None else folder.resolve().name)
    chosen = [canonical(code) for code in codes]  # refused before anything is written
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise RulesdocError(
            "already exists and is not an empty folder: `rulesdoc new` starts a project in a new one",
            Location(display_path(folder)),
        )
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
    try:
        _copy(package_files("rulesdoc.cli") / "starter", work)
        config = work / "mkdocs.yml"
        text = config.read_text("utf-8")
        config.write_text(
            re.sub(r"(?m)^site_name: .*$", f"site_name: {json.dumps(site_name)}", text), "utf-8"
        )
        (work / "docs").mkdir(exist_ok=True)
        extraction.write_template(work, work / "locales")
        started = [catalogs.init(work / "locales", code, root=work) for code in dict.fromkeys(chosen)]
        if folder.exists():
            folder.rmdir()  # empty: checked above
        os.rename(work, folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    say(f"{display_path(folder)}: a new rulesdoc project, {site_name!r}")
    return [folder / path.relative_to(work) for path in started]


def _site_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned or len(cleaned) > MAX_NAME or CONTROL_CHARACTERS.search(cleaned):
        raise RulesdocError(f"--name: a site name of 1 to {MAX_NAME} characters, without control characters")
    return cleaned


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

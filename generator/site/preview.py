"""The preview's site folder between rebuilds: a language whose build did not change is put back
from its last build (MkDocs empties the site folder first). What the rebuilds remember, and
how an entry is keyed, is :mod:`rulesdoc.pages.rebuild_memory`."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from rulesdoc.site.mkdocs_internals import KEPT_BY_CLEAN

# Beside the languages in the site folder: MkDocs' emptying of it keeps this name (a dot name).
BUILDS = KEPT_BY_CLEAN + "rulesdoc-languages"


def restore(site_dir: Path, tags: Iterable[str]) -> None:
    """Put the languages' last builds back into the site folder MkDocs emptied (hard links: cheap)."""
    for tag in tags:
        built = site_dir / BUILDS / tag
        target = site_dir / tag
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(built, target, copy_function=_link)


def _link(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:
        shutil.copy2(source, destination)

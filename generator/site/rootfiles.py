"""The static files only the site root has: the theme's and the docs folder's.

Every language is the same there, so the main build copies them once, to the site root, and
the language builds copy none: their pages point one level up (``../assets/...``), from
theme templates (the ``url`` filter) and from page links alike. Relative URLs: they work
from disk and under any base path.
"""

from __future__ import annotations

import os
import posixpath
import re
import urllib.parse
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel

_root: frozenset[str] = frozenset()  # their paths (src URIs), as the main build of this run found them


def forget() -> None:
    """A new run: the main build lists them again."""
    global _root
    _root = frozenset()


def has(path: str) -> bool:
    return path in _root


def listing(theme_dirs: list[str], keep: Any) -> list[str]:
    """What MkDocs lists of the theme, to copy: a preview's rebuild copies the first build's."""
    return sorted(_root) if _root else _theme_files(theme_dirs, keep)


def note(files: Files, also: tuple[str, ...] = ()) -> None:
    """The static files the main build copies to the site root, the theme's and the docs
    folder's, and ``also`` (rulesdoc's own, :mod:`rulesdoc.site.assets`): every language is the
    same there, so the language builds point at these."""
    global _root
    _root = frozenset(
        f.src_uri
        for f in files
        if not f.generated_by and not f.is_documentation_page() and f.inclusion is not InclusionLevel.EXCLUDED
    ) | frozenset(also)


def share(files: Files) -> None:
    """A language build's docs static files: copied no more (the site root has them); links to
    them are pointed there (:func:`point_at_site_root`)."""
    for file in list(files):
        if file.src_uri in _root and not file.generated_by:
            files.remove(file)
            files.append(_AtSiteRoot(
                file.src_uri, file.src_dir, file.dest_dir, file.use_directory_urls,
                dest_uri=file.dest_uri, inclusion=file.inclusion,
            ))  # fmt: skip


class _AtSiteRoot(File):
    """A docs static file of a language build that only the site root has."""

    def copy_file(self, dirty: bool = False) -> None:
        pass  # the main build copied it to the site root


# A relative link MkDocs wrote into a page: no scheme, no leading slash, not an anchor.
_RELATIVE_LINK = re.compile(r'(\s(?:href|src)=")(?![a-zA-Z][a-zA-Z0-9+.-]*:|/|#)([^"#?]+)')


def point_at_site_root(html: str, page_url: str) -> str:
    """A language build's page: its links to the docs folder's static files, pointed at the
    site root.

    MkDocs resolves a page's links within the language's build, whose root is ``<site>/<tag>/``:
    a link to ``assets/rulesdoc.css`` would be to ``<tag>/assets/rulesdoc.css``, which no
    language build writes. One level up is the site root, where the main build put the file.
    """
    folder = posixpath.dirname(page_url)

    def repoint(match: re.Match[str]) -> str:
        target = posixpath.normpath(posixpath.join(folder, urllib.parse.unquote(match.group(2))))
        if target not in _root:
            return match.group(0)
        up = "../" * (folder.count("/") + 2 if folder else 1)  # out of the page's folder and the language's
        return match.group(1) + up + urllib.parse.quote(target)

    return _RELATIVE_LINK.sub(repoint, html)


def _theme_files(dirs: list[str], keep: Any) -> list[str]:
    """The theme folders' files, skipping hidden folders: MkDocs copies no file under one, and
    Material's icons (``.icons/``, ten thousand templates to include) would be most of the walk."""
    found: set[str] = set()
    for folder in dirs:
        for root, subfolders, names in os.walk(folder):
            subfolders[:] = [name for name in subfolders if not name.startswith(".")]
            relative = Path(root).relative_to(folder).as_posix()
            found.update(name if relative == "." else f"{relative}/{name}" for name in names)
    return sorted(name for name in found if keep is None or keep(name))

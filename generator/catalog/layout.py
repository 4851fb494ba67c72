"""The one layout of catalogs: ``locales/<code>/LC_MESSAGES/messages.po``, and nothing one step off it.

gettext tools accept many layouts (``fr.po`` beside the POT, ``fr/fr.po``, a domain named after
the language); rulesdoc reads one, and a catalog anywhere else would be a language silently
missing from the site. :func:`check_layout` refuses, in one line naming the file and the path it
belongs at: a ``.po`` file outside the layout, a language folder without its catalog that holds
other files, and a catalog folder whose name is no locale code. ``check``, ``render``, every build
and ``catalog update``/``compile`` call it before reading a catalog (through
:func:`rulesdoc.i18n.translate.discover_languages` or themselves).

A language folder holding no file at all (:func:`empty_folders`: what a deleted catalog or a
half-started language leaves, which git does not even keep) loses nothing: it is no error, but
the ``empty-folder`` check's warning, in ``check`` and in every build.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path, PurePosixPath

from babel import Locale

from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.io.project import DOMAIN
from rulesdoc.localedata import cldr

CATALOG_FOLDER = "LC_MESSAGES"
CATALOG_NAME = f"{DOMAIN}.po"
_DEPTH = 4  # how deep under locales/ a stray catalog is looked for (locales/a/b/LC_MESSAGES/x.po)


def check_layout(locales: Path) -> None:
    """Refuse the first thing under ``locales`` one step off the layout (see the module's docstring)."""
    if not locales.is_dir():
        return
    for entry in sorted(os.scandir(locales), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        path = locales / entry.name
        if entry.is_file(follow_symlinks=False) and entry.name.endswith(".po"):
            _stray(locales, path)
        elif entry.is_dir(follow_symlinks=False):
            _language_folder(locales, path)


def empty_folders(locales: Path) -> list[Path]:
    """The language folders under ``locales`` that hold no file (hidden ones aside), in name order."""
    if not locales.is_dir():
        return []
    folders = (locales / e.name for e in os.scandir(locales) if e.is_dir(follow_symlinks=False))
    return sorted(folder for folder in folders if not folder.name.startswith(".") and _empty(folder))


def empty_folder_warning(locales: Path, folder: Path) -> str:
    """The ``empty-folder`` check's words for ``folder``, in ``check`` and every build."""
    code = _code_in(folder.relative_to(locales) / CATALOG_NAME) or "CODE"
    return (
        f"an empty language folder, left out of the site: `rulesdoc catalog init {code}` starts its "
        f"catalog ({_shown(locales, code)}), or remove the folder"
    )


def _empty(folder: Path) -> bool:
    """No file under ``folder``: a symlink is something (a catalog, perhaps), a hidden name nothing."""
    for _top, dirs, names in os.walk(folder):
        links = [name for name in dirs if os.path.islink(os.path.join(_top, name))]
        if [name for name in names + links if not name.startswith(".")]:
            return False
        dirs[:] = [name for name in dirs if not name.startswith(".") and name not in links]
    return True


def _language_folder(locales: Path, folder: Path) -> None:
    catalog = folder / CATALOG_FOLDER / CATALOG_NAME
    strays = sorted(_po_files(folder, _DEPTH))
    for stray in strays:
        if stray != catalog:
            _stray(locales, stray)
    if not os.path.lexists(catalog) and _empty(folder):
        return  # a warning: the empty-folder check
    if not os.path.lexists(catalog):
        code = _code_in(folder.relative_to(locales)) or "CODE"
        raise RulesdocError(
            f"a language folder without its catalog: expected {_shown(locales, code)} "
            f"(`rulesdoc catalog init {code}`), or remove the folder",
            Location(display_path(folder)),
        )
    if folder.name == cldr.PSEUDO_CODE:
        return
    try:
        cldr.canonical(folder.name)
    except RulesdocError as error:
        guess = _guess(folder.name)
        hint = f"; the catalog belongs at {_shown(locales, guess)}" if guess else ""
        raise RulesdocError(error.message + hint, Location(display_path(catalog))) from None


def _stray(locales: Path, path: Path) -> None:
    code = _code_in(path.relative_to(locales)) or "CODE"
    raise RulesdocError(
        f"a catalog outside the layout rulesdoc reads: move it to {_shown(locales, code)}",
        Location(display_path(path)),
    )


def _po_files(folder: Path, depth: int) -> list[Path]:
    """The ``.po`` files under ``folder``, symlinked folders not followed, hidden ones skipped."""
    found = []
    for top, dirs, names in os.walk(folder):
        if len(Path(top).relative_to(folder).parts) >= depth:
            dirs[:] = []
        dirs[:] = [name for name in dirs if not name.startswith(".")]
        found += [Path(top) / name for name in names if name.endswith(".po")]
    return found


def _code_in(relative: Path) -> str | None:
    """The first part of a path under locales/ that names a language (``fr`` of ``fr/fr.po``)."""
    for part in relative.parts[:-1] + (relative.stem,):
        code = _code_of(part) or _guess(part)
        if code:
            return code
    return None


def _code_of(name: str) -> str | None:
    if name in (CATALOG_FOLDER, DOMAIN):
        return None
    try:
        return cldr.canonical(name)
    except RulesdocError:
        return None


def _guess(name: str) -> str | None:
    """A language named in English (``french``): its code."""
    return _english_names().get(name.lower().replace("_", " "))


@cache
def _english_names() -> dict[str, str]:
    return {language.lower(): code for code, language in Locale("en").languages.items() if "_" not in code}


def _shown(locales: Path, code: str) -> str:
    return str(PurePosixPath(display_path(locales)) / code / CATALOG_FOLDER / CATALOG_NAME)

"""The user's cache: work kept between runs, found by what it was made from.

Three kinds of work are most of a run and come out the same from the same input, run after
run: compiling templates (:mod:`rulesdoc.pages.compiled`), extracting their messages
(:mod:`rulesdoc.i18n.extraction`) and parsing catalogs (:mod:`rulesdoc.catalog.kept`). Each
keeps its results here, in a folder of its own under
``RULESDOC_CACHE_DIR``, else ``$XDG_CACHE_HOME/rulesdoc`` or ``~/.cache/rulesdoc``;
``RULESDOC_NO_CACHE=1`` keeps nothing.

An entry is named by a digest of everything it was made from, never by a project's path, so
copies of a project share entries and an entry can never be stale: a changed input is another
name. The cache is a speed-up only, with the same output and errors without it: an entry that
does not load is made again, and a folder that cannot be made, read or written means doing the
work every time, said once as a warning (on rulesdoc's logger: a strict MkDocs build does not
count it); an entry that does not fit on the disk, the quota or the process's file-size limit
is not kept, and not said (the run's own output meets the limit, and its one-line error says
it). The folder must be the user's own, not writable by others: its entries are code
and data this process trusts. Each kind keeps its :data:`KEPT` most recently used entries.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import importlib.metadata
import logging
import os
import stat
import sys
import tempfile
from pathlib import Path

KEPT = 200  # entries of one kind: this checkout takes 8 compiled, 4 extracted, 6 catalogs
MAX_ENTRY_BYTES = 8 * 1024 * 1024  # a template's code, bounded as its source is (1 MiB)
_SUFFIX = ".entry"

# A disk, quota or file-size limit: not the cache's fault, and not said twice (see Store.write).
_NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
log = logging.getLogger("rulesdoc")
_warned: set[Path] = set()  # the folders already said to be unusable, once per process


def root() -> Path | None:
    """Where the user's cache is, or None when the user asked for none."""
    if os.environ.get("RULESDOC_NO_CACHE", "").strip() not in ("", "0"):
        return None
    chosen = os.environ.get("RULESDOC_CACHE_DIR", "").strip()
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "rulesdoc"


def digest(*parts: str | bytes) -> str:
    """An entry's name: the digest of what it is made from, each part's length first (no two
    lists of parts give the same name)."""
    made = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        made.update(b"%d:" % len(data))
        made.update(data)
    return made.hexdigest()


@functools.cache
def made_by(distribution: str) -> str:
    """The installed version of a library whose work is kept, and Python's: part of an entry's
    name, so that another version's work is never used."""
    return f"{distribution} {importlib.metadata.version(distribution)}; Python {sys.version}"


def _unusable(where: Path, why: str) -> None:
    if where not in _warned:
        _warned.add(where)
        log.warning(
            "cache %s not used (%s): working without it; RULESDOC_CACHE_DIR names another folder, "
            "RULESDOC_NO_CACHE=1 turns it off",
            where,
            why,
        )


def _own_folder(path: Path) -> bool:
    """``path`` is a folder of this user's that no one else can write in (made so if missing)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.stat()
    except OSError as error:
        _unusable(path, error.strerror or type(error).__name__)
        return False
    owner = getattr(os, "getuid", lambda: info.st_uid)()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != owner or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        _unusable(path, "not a folder of this user's alone")
        return False
    return True


class Store:
    """One kind of entries, in its own folder of the cache."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def _entry(self, name: str) -> Path:
        return self.directory / f"{name}{_SUFFIX}"

    def read(self, name: str) -> bytes | None:
        """The entry's bytes, or None if it is not kept (or too long to be one of ours)."""
        entry = self._entry(name)
        try:
            with entry.open("rb") as handle:
                data = handle.read(MAX_ENTRY_BYTES + 1)
        except FileNotFoundError:
            return None  # not kept (or gone with another process's pruning): the work is done again
        except OSError as error:
            _unusable(self.directory, error.strerror or type(error).__name__)
            return None
        # Recently used: kept the longest. A folder one may read but not write (a cache shared
        # read-only) is still read; only its pruning order is older.
        with contextlib.suppress(OSError):
            os.utime(entry)
        return data if len(data) <= MAX_ENTRY_BYTES else None

    def write(self, name: str, data: bytes) -> None:
        """Keep ``data`` as the entry ``name``: whole or not at all (another process may read it
        meanwhile), then the oldest entries beyond :data:`KEPT` go."""
        try:
            handle = tempfile.NamedTemporaryFile(dir=self.directory, prefix=".", suffix=".tmp", delete=False)
            try:
                with handle:
                    handle.write(data)
                os.replace(handle.name, self._entry(name))
            finally:
                Path(handle.name).unlink(missing_ok=True)
        except OSError as error:
            if error.errno not in _NO_ROOM:
                _unusable(self.directory, error.strerror or type(error).__name__)
            return  # no room: the run's own output meets the same limit and says so, in one line
        self._prune()

    def _prune(self) -> None:
        try:
            entries = [(p.stat().st_mtime_ns, p) for p in self.directory.glob(f"*{_SUFFIX}")]
        except FileNotFoundError:
            return  # an entry pruned meanwhile by another process: the next write prunes
        if len(entries) > KEPT:
            for _, old in sorted(entries)[: len(entries) - KEPT]:
                old.unlink(missing_ok=True)

    def clear(self) -> None:
        for entry in self.directory.glob(f"*{_SUFFIX}"):
            entry.unlink(missing_ok=True)


def store(kind: str) -> Store | None:
    """The cache's folder for entries of ``kind``, or None (no cache asked for, or unusable)."""
    where = root()
    if where is None:
        return None
    where = where / kind
    return Store(where) if _own_folder(where) else None

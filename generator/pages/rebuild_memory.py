"""What ``mkdocs serve`` keeps between rebuilds, so that saving one catalog rebuilds one language.

A rebuild of the preview reads, renders and builds again only what an edit can have
changed; everything else is taken from the last rebuild. The memory lives in the plugin
object of the serving process and nowhere else (what is kept across runs is the user's cache's,
:mod:`rulesdoc.io.cache`: compiled templates, extractions, parsed catalogs), and every entry is
keyed by what it was made from (a file's size, time and inode; the text of the rules; the
rendered pages), so an entry cannot outlive its inputs.

- a catalog is parsed again only when its file changed, its verdicts judged again only
  when it or the templates changed;
- a language's pages are rendered again only when the rules, the templates, its catalog
  or the status page's counts changed;
- a language's site is built again only when what its build is made of changed; the others
  are linked back into place from the last build (MkDocs empties the site folder first).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from rulesdoc.catalog import po
from rulesdoc.catalog.po import Key, LoadedCatalog
from rulesdoc.errors import Location, RulesdocError, short
from rulesdoc.i18n.verdicts import Verdict

Stamp = tuple[int, int, int]  # size, modification time, inode
T = TypeVar("T")


def stamp(path: Path) -> Stamp | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


def folder_stamp(folder: Path) -> tuple[tuple[str, Stamp | None], ...]:
    return tuple((str(p), stamp(p)) for p in sorted(folder.rglob("*")) if p.is_file())


def digest(*parts: object) -> str:
    return hashlib.sha256(repr(parts).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Memory:
    """One serving process's memory of its last rebuild."""

    catalogs: dict[Path, tuple[Stamp, LoadedCatalog]] = field(default_factory=dict)
    verdicts: dict[str, tuple[object, dict[Key, Verdict]]] = field(default_factory=dict)
    # code → (fingerprint, rendered result, lint report): a language kept is kept with its report
    renders: dict[str, tuple[str, object, object]] = field(default_factory=dict)
    builds: dict[str, str] = field(default_factory=dict)  # tag → fingerprint of its last build
    inputs: str = ""  # rules, templates and extraction inputs of the last rebuild
    environments: dict[Path, Any] = field(default_factory=dict)  # the page templates' Jinja environment

    def load(self, path: Path, root: Path | None = None) -> LoadedCatalog:
        """:func:`rulesdoc.catalog.po.load`, unless the file is the one parsed last time."""
        key = stamp(path)
        known = self.catalogs.get(path)
        if key is not None and known is not None and known[0] == key:
            return known[1]
        loaded = po.load(path, root)
        if known is not None:
            refuse_cut_short(known[1], loaded)
        if key is not None:
            self.catalogs[path] = (key, loaded)
        return loaded

    def environment(self, templates: Path, make: Callable[[Path], T]) -> T:
        """The page templates' environment, kept: it compiles a template again when its file changes."""
        if templates not in self.environments:
            self.environments[templates] = make(templates)
        return self.environments[templates]  # type: ignore[no-any-return]

    def judged(
        self, code: str, loaded: LoadedCatalog, basis: object, judge: Callable[[], dict[Key, Verdict]]
    ) -> dict[Key, Verdict]:
        """A catalog's verdicts, judged again only when the catalog or ``basis`` (the templates) changed."""
        known = self.verdicts.get(code)
        key = (stamp(loaded.path), basis)  # not id(): a new catalog may get a freed one's
        if known is not None and known[0] == key:
            return known[1]
        verdicts = judge()
        self.verdicts[code] = (key, verdicts)
        return verdicts


def refuse_cut_short(before: LoadedCatalog, after: LoadedCatalog) -> None:
    """A catalog saved while still being written (an editor, a sync) can end at an entry boundary
    and parse as a smaller valid catalog: its missing messages would be served in English and
    called stale, and ``make update`` would then make the loss permanent. Translated entries of the
    last good version that are now gone, active or obsolete (``catalog update`` never deletes one:
    it keeps it as ``#~``), are an error, and the preview keeps the last good pages."""
    now = {po.key_of(m) for m in after.messages()} | {po.key_of(m) for m in after.catalog.obsolete.values()}
    gone = [m for m in before.messages() if any(po.forms(m.string)) and po.key_of(m) not in now]
    if gone:
        first = gone[0]
        raise RulesdocError(
            f"{len(gone)} translated entries of the last good version are gone, the first "
            f"{short(po.singular(first.id))!r} (then on line {first.lineno}): cut short while being "
            "saved? The preview keeps the last good pages; restore the file (not `make update`, which "
            "would drop them for good), or restart the preview if you deleted them on purpose",
            Location(after.shown),
        )

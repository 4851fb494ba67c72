"""Parsed catalogs kept between runs, in the user's cache (:mod:`rulesdoc.io.cache`).

Parsing a catalog is about 22 ms of CPU, every run, for each catalog and the template, though
few of them changed since the last run: of a build of six languages, 0.13 s. A catalog parsed
is kept here by what it was made from, its bytes and the code that parsed it (this package's
parser modules, Babel's and Python's versions), and loaded in about a millisecond. Only a
catalog that parsed is kept: a refused one is parsed, and refused, every time. Where the file
lies is not part of an entry: copies of a project share entries, and each load names its own
path.
"""

from __future__ import annotations

import dataclasses
import functools
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rulesdoc.errors import display_path
from rulesdoc.io import cache

KIND = "catalogs"
# The modules a parse runs, under generator/ (tests/test_user_cache.py holds it to po.py's imports).
PARSER_MODULES = (
    "catalog/po.py", "catalog/babel_internals.py", "catalog/plurals.py", "catalog/kept.py",
    "errors.py", "seam.py", "io/files.py", "io/cache.py",
)  # fmt: skip
T = TypeVar("T")


@functools.cache
def _parser() -> str:
    """What decides a parse besides the bytes: the parser's code, Babel's and Python's versions."""
    package = Path(__file__).parent.parent  # read, not imported: po imports this module
    sources = b"".join((package / name).read_bytes() for name in PARSER_MODULES)
    return cache.digest(sources, cache.made_by("babel"))


def parse(data: bytes, path: Path, parsed: Callable[[bytes, Path], T]) -> T:
    """``parsed(data, path)``, kept: the catalog (a dataclass with ``path`` and ``shown``) as an
    earlier run parsed the same bytes, else parsed now and kept."""
    store = cache.store(KIND)
    if store is None:
        return parsed(data, path)
    key = cache.digest(_parser(), data)
    kept = store.read(key)
    if kept is not None:
        try:
            found: Any = pickle.loads(kept)  # noqa: S301  # the user's own folder, as Python's __pycache__
        except Exception:  # noqa: BLE001  # a damaged entry, whatever unpickling raises: parsed again
            found = None
        if dataclasses.is_dataclass(found) and not isinstance(found, type):
            return dataclasses.replace(found, path=path, shown=display_path(path))  # type: ignore[return-value]
    made = parsed(data, path)
    store.write(key, pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    return made

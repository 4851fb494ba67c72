"""What a seam module (one that uses a library's private names) assumes, in one form.

Each seam module exports ``ASSUMPTIONS``, a tuple of :class:`Assumption`, and ``versions()``,
the installed versions of the libraries it is about. An assumption's check probes the library
and raises :class:`SeamChanged`, naming what changed, when it no longer holds; it returns
nothing when it does. ``tests/test_seams.py`` runs every check of every seam.

SeamChanged is raised explicitly, never through ``assert``: ``python -O`` strips those, and
every check would pass.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable
from dataclasses import dataclass


class SeamChanged(Exception):
    """A library's private part no longer behaves as its seam module assumes."""


@dataclass(frozen=True)
class Assumption:
    name: str
    what: str  # the assumption, in a sentence
    check: Callable[[], None]  # raises SeamChanged when the assumption no longer holds

    @classmethod
    def of(cls, check: Callable[[], None]) -> Assumption:
        """The assumption a check states in its docstring, named after it."""
        return cls(check.__name__.strip("_"), " ".join((check.__doc__ or "").split()), check)


def holds(condition: object, broken: str) -> None:
    """Raise SeamChanged(broken) unless ``condition``."""
    if not condition:
        raise SeamChanged(broken)


def installed(*packages: str) -> str:
    """The installed version of each package, for a message: "babel 2.16.0"."""
    found = []
    for package in packages:
        try:
            found.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{package} (not installed)")
    return ", ".join(found)

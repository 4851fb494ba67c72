"""The registry of checks, and the checks a project adds through an entry point.

A check is a function registered with :func:`check` under its id, with a category and a
default severity: the id is written once, there, and the runner stamps it on every
finding the function yields (a finding has the check's severity unless the function
says otherwise). A check takes a :class:`~rulesdoc.lint.inputs.Subject` (one language)
and yields findings. Its docstring's first paragraph is the reason ``check --list`` shows.

A project adds checks without editing rulesdoc, as Babel finds its checkers: a package
declares an entry point in the group :data:`ENTRY_POINT_GROUP` naming a module whose
``@check`` functions register on import (or one such function). :func:`checks` loads
them once per process, for ``check`` and the build alike.
"""

from __future__ import annotations

import enum
import importlib.metadata
import re
import types
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace

from rulesdoc.errors import RulesdocError, short
from rulesdoc.lint.inputs import Subject
from rulesdoc.lint.model import Finding, Severity

SubjectCheck = Callable[[Subject], Iterable[Finding]]
ENTRY_POINT_GROUP = "rulesdoc.checks"
_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # no comma, no space: `--only a,b` can name it


class Category(enum.Enum):
    CATALOG = "catalog"  # a catalog file as a whole: up to date, complete, its plural header
    MESSAGE = "message"  # one translation against its source
    GLOSSARY = "glossary"  # the glossary's terms
    PAGE = "page"  # the rendered pages


class DuplicateCheckError(ValueError):
    """Two checks registered under one id: the second is refused, naming both functions."""


@dataclass(frozen=True)
class Check:
    id: str
    category: Category
    severity: Severity  # the severity of its findings unless a finding says otherwise
    run: SubjectCheck
    needs_pages_dir: bool = False  # drift: only with --pages

    @property
    def reason(self) -> str:
        """The docstring's first paragraph, on one line."""
        paragraph = (self.run.__doc__ or "").strip().split("\n\n")[0]
        return " ".join(paragraph.split()).replace("``", "`")  # reST literals, shown as Markdown's

    @property
    def origin(self) -> str:
        return f"{self.run.__module__}.{self.run.__qualname__}"


REGISTRY: list[Check] = []


def check(
    id: str, *, category: Category, severity: Severity = Severity.ERROR, needs_pages_dir: bool = False
) -> Callable[[SubjectCheck], SubjectCheck]:
    """Register a check under ``id``; a second check with the same id raises :class:`DuplicateCheckError`."""

    def register(function: SubjectCheck) -> SubjectCheck:
        add(Check(id, category, severity, function, needs_pages_dir))
        return function

    return register


def add(entry: Check) -> None:
    if not _ID.fullmatch(entry.id):
        raise ValueError(f"check id {entry.id!r} ({entry.origin}): use lowercase letters, digits and '-'")
    for known in REGISTRY:
        if known.id == entry.id:
            raise DuplicateCheckError(
                f"check id {entry.id!r} is registered twice: by {known.origin} and by {entry.origin}"
            )
    REGISTRY.append(entry)


_plugins_loaded = False


def checks() -> tuple[Check, ...]:
    """Every check: rulesdoc's own, then those of the installed entry points (loaded once)."""
    global _plugins_loaded
    if not _plugins_loaded:
        _plugins_loaded = True
        load_plugins(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    return tuple(REGISTRY)


def load_plugins(entry_points: Iterable[importlib.metadata.EntryPoint]) -> None:
    """Import each entry point; it must name a module or a function registered with :func:`check`."""
    for point in entry_points:
        where = f"the check entry point {point.name!r} ({point.value}, group {ENTRY_POINT_GROUP})"
        try:
            loaded = point.load()
        except Exception as error:  # a plugin's import failing is its own bug: said in one line
            raise RulesdocError(f"{where} cannot be loaded: {type(error).__name__}: {error}") from error
        if not isinstance(loaded, types.ModuleType) and all(c.run is not loaded for c in REGISTRY):
            raise RulesdocError(
                f"{where} names {short(repr(loaded))}, which is neither a module nor a function "
                "registered with @rulesdoc.lint.registry.check"
            )


def run_check(entry: Check, subject: Subject) -> list[Finding]:
    mine = replace(subject, severity=entry.severity)
    return [replace(finding, check=entry.id) for finding in entry.run(mine)]


@dataclass(frozen=True)
class Selection:
    """Which checks run: ``check --only``/``--skip``. A build always runs them all."""

    only: frozenset[str] = frozenset()
    skip: frozenset[str] = frozenset()

    def chosen(self, entry: Check) -> bool:
        return (not self.only or entry.id in self.only) and entry.id not in self.skip

    def skipped(self) -> tuple[str, ...]:
        return tuple(entry.id for entry in checks() if not self.chosen(entry))


EVERY_CHECK = Selection()


def select(only: Collection[str] = (), skip: Collection[str] = ()) -> Selection:
    """A selection of known ids; an unknown one is bad usage, said in one line."""
    known = {entry.id for entry in checks()}
    for option, names in (("--only", only), ("--skip", skip)):
        unknown = sorted(set(names) - known)
        if unknown:
            raise RulesdocError(
                f"{option}: no check {', '.join(map(repr, unknown))}; `rulesdoc check --list` lists them"
            )
    return Selection(frozenset(only), frozenset(skip))

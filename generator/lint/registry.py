"""The registry of checks.

A check is a function registered under its id with :func:`check`; the id is written
once, there, and the runner stamps it on every finding the function yields. A check
takes a :class:`~generator.lint.inputs.Subject` (one language) and yields findings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from generator.lint.inputs import Subject
from generator.lint.model import Finding

SubjectCheck = Callable[[Subject], Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    id: str
    run: SubjectCheck
    needs_pages_dir: bool = False  # drift: only with --pages


REGISTRY: list[Check] = []


def check(id: str, *, needs_pages_dir: bool = False) -> Callable[[SubjectCheck], SubjectCheck]:
    """Register a check under ``id``."""

    def register(function: SubjectCheck) -> SubjectCheck:
        REGISTRY.append(Check(id, function, needs_pages_dir))
        return function

    return register


def run_check(entry: Check, subject: Subject) -> list[Finding]:
    return [replace(finding, check=entry.id) for finding in entry.run(subject)]

"""The linter's data: findings, their severity, the report, and the registry of checks.

A check is a function registered under its id with :func:`check`; the id is written
once, there, and the runner stamps it on every finding the function yields. Checks of
a whole language take a :class:`~generator.lint.inputs.Subject`; checks of one message
at a time (Babel's ``checkers.py`` shape) take the subject and the entry, and are
lifted to the whole catalog by the registry.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from babel.messages.catalog import Message

from generator.errors import Location, printable, short

if TYPE_CHECKING:
    from generator.lint.inputs import Subject


# What to do next, said at the end of a finding about one translation (its file:line leads the line).
FIX = "fix the translation at this line (the page shows the English source until then)"


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One problem: where it is (the .po entry's ``file:line`` where there is one) and why it matters."""

    severity: Severity
    locale: str  # the catalog folder's code ("nl"); "en" for the source (POT, templates)
    path: str
    line: int | None
    msgid: str
    message: str  # one line
    check: str = ""  # stamped by the runner: the id the check was registered under
    detail: str = ""  # e.g. the unified diff of a drifted page

    @property
    def where(self) -> str:
        return str(Location(self.path, self.line))

    def line_text(self) -> str:
        """The finding as one line: the same words in ``check`` and in the build's error."""
        msgid = f" {short(self.msgid)!r}:" if self.msgid else ""
        return printable(f"{self.where}: {self.severity.value}: [{self.check}]{msgid} {self.message}")


SubjectCheck = Callable[["Subject"], Iterable[Finding]]
MessageCheck = Callable[["Subject", Message], Iterable[Finding]]


@dataclass(frozen=True)
class Check:
    id: str
    run: SubjectCheck
    needs_pages_dir: bool = False  # drift: only with --pages


REGISTRY: list[Check] = []


def check(
    id: str, *, per_message: bool = False, needs_pages_dir: bool = False
) -> Callable[[Callable], Callable]:  # type: ignore[type-arg]
    """Register a check under ``id``; ``per_message`` lifts a ``(subject, message)`` check."""

    def register(function: Callable) -> Callable:  # type: ignore[type-arg]
        run: SubjectCheck = _lift(function) if per_message else function
        REGISTRY.append(Check(id, run, needs_pages_dir))
        return function

    return register


def _lift(function: MessageCheck) -> SubjectCheck:
    def run(subject: Subject) -> Iterator[Finding]:
        for message in subject.usable_messages():
            yield from function(subject, message)

    return run


def run_check(entry: Check, subject: Subject) -> list[Finding]:
    return [replace(finding, check=entry.id) for finding in entry.run(subject)]


@dataclass(frozen=True)
class Summary:
    code: str
    name: str
    translated: int
    fuzzy: int
    untranslated: int
    errors: int
    warnings: int
    path: str
    unreviewed: int = 0  # theme strings imported from Material, not yet confirmed


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    summaries: tuple[Summary, ...]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)

    def error_lines(self) -> list[str]:
        return [f.line_text() for f in self.findings if f.severity is Severity.ERROR]

    def gap_lines(self) -> list[str]:
        """The warnings a build shows of the policy's gaps: one line per language that shows some
        English (``check`` lists each message), and each language left out of the switcher."""
        lines = []
        for summary in self.summaries:
            shown = summary.untranslated + summary.fuzzy
            if shown:
                lines.append(
                    f"{summary.path}: warning: [completeness] {shown} message(s) show in English, marked "
                    f"({summary.untranslated} untranslated, {summary.fuzzy} fuzzy): "
                    f"`rulesdoc check --lang {summary.code}` lists them with their lines"
                )
        lines += [f.line_text() for f in self.findings if f.check == "threshold"]
        return lines

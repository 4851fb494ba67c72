"""The linter's data: findings, their severity and the report (the checks' registry is
:mod:`rulesdoc.lint.registry`, which knows the inputs the checks read)."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from rulesdoc.errors import Location, printable, short

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


# Findings of one kind (check and severity) for one file shown before one line counts the rest:
# 120,000 obsolete entries of a catalog printed 22 MB of warnings. Counts stay true.
SHOWN_ALIKE = 20
# The checks whose warnings every build shows too, in check's words (the language left out of the
# switcher, the empty language folder); a language's other warnings are its completeness line.
BUILD_WARNINGS = ("threshold", "empty-folder")


@dataclass(frozen=True)
class Overflow:
    """The findings of one kind for one file past the first :data:`SHOWN_ALIKE`, counted."""

    severity: Severity
    locale: str
    path: str
    check: str
    count: int

    def line_text(self) -> str:
        kind = f"{self.severity.value}s" if self.count > 1 else self.severity.value
        return printable(f"… and {self.count:,} more [{self.check}] {kind} like these in {self.path}")


def shown(findings: Iterable[Finding]) -> tuple[list[Finding], list[Overflow]]:
    """The findings to show, in order, and a count of each kind left out (in the order met)."""
    kept: list[Finding] = []
    seen: dict[tuple[str, str, Severity], int] = {}
    left: dict[tuple[str, str, Severity], tuple[Finding, int]] = {}  # the last left out, and how many
    for finding in findings:
        key = (finding.path, finding.check, finding.severity)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= SHOWN_ALIKE:
            kept.append(finding)
        else:
            left[key] = (finding, left[key][1] + 1 if key in left else 1)
    overflows = [
        Overflow(last.severity, last.locale, last.path, last.check, count) for last, count in left.values()
    ]
    return kept, overflows


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
    skipped: tuple[str, ...] = ()  # checks left out by `check --only`/`--skip` (a build runs all)

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity is Severity.WARNING)

    def error_lines(self) -> list[str]:
        """Each error's line, as ``check`` prints it; past :data:`SHOWN_ALIKE` of a kind, a count."""
        kept, left = shown(f for f in self.findings if f.severity is Severity.ERROR)
        return [f.line_text() for f in kept] + [overflow.line_text() for overflow in left]

    def gap_lines(self) -> list[str]:
        """The warnings a build shows of the policy's gaps: one line per language that shows some
        English (``check`` lists each message), each language left out of the switcher, each empty
        language folder."""
        lines = []
        for summary in self.summaries:
            shown = summary.untranslated + summary.fuzzy
            if shown:
                lines.append(
                    f"{summary.path}: warning: [completeness] {shown} message(s) show in English, marked "
                    f"({summary.untranslated} untranslated, {summary.fuzzy} fuzzy): "
                    f"`rulesdoc check --lang {summary.code}` lists them with their lines"
                )
        lines += [f.line_text() for f in self.findings if f.check in BUILD_WARNINGS]
        return lines

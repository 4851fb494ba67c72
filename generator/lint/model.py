"""The linter's data: findings, their severity and the report (the checks' registry is
:mod:`generator.lint.registry`, which knows the inputs the checks read)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from generator.errors import Location, printable, short

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

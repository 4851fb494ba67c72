"""Report formats: text for people, JSON for tools, GitHub workflow annotations for CI."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence

from rulesdoc.errors import printable, short
from rulesdoc.lint.model import Finding, Overflow, Report, shown
from rulesdoc.lint.registry import Check


def verdict(report: Report) -> str:
    state = "passed" if not report.errors else "failed"
    line = f"check {state}: {report.errors} error(s), {report.warnings} warning(s)"
    if report.skipped:  # a partial check must not read as the build's verdict
        line += f"; skipped {', '.join(report.skipped)} (a build runs every check)"
    return line


def format_text(report: Report) -> str:
    out: list[str] = []
    by_locale: dict[str, list[Finding]] = {}  # once, not once per language (50 × 25,000 findings)
    for finding in report.findings:
        by_locale.setdefault(finding.locale, []).append(finding)
    for summary in report.summaries:
        mine, left = shown(by_locale.get(summary.code, ()))
        if not mine:
            continue
        out.append(printable(f"{summary.code} ({summary.name}): {summary.path}"))
        for finding in mine:
            out.append("  " + finding.line_text())
            if finding.detail:
                out.extend("    " + printable(line) for line in finding.detail.splitlines())
        out.extend("  " + overflow.line_text() for overflow in left)
        out.append("")
    out += [table(report), "", verdict(report)]
    return "\n".join(out)


def table(report: Report) -> str:
    head = ("language", "translated", "fuzzy", "untranslated", "theme-unreviewed", "errors", "warnings")
    rows = [
        (s.code, str(s.translated), str(s.fuzzy), str(s.untranslated), str(s.unreviewed), str(s.errors),
         str(s.warnings))
        for s in report.summaries
    ]  # fmt: skip
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    return "\n".join(
        "  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)])
        for row in [head, *rows]
    )


def format_json(report: Report) -> str:
    """Findings bounded as in text: past SHOWN_ALIKE of a kind for a file, ``more`` counts them."""
    kept, left = shown(report.findings)
    findings = [dataclasses.asdict(f) | {"severity": f.severity.value} for f in kept]
    more = [dataclasses.asdict(o) | {"severity": o.severity.value} for o in left]
    return json.dumps(
        {
            "findings": findings,
            "more": more,
            "languages": [
                {key: value for key, value in dataclasses.asdict(s).items() if key != "path"}
                for s in report.summaries
            ],
            "errors": report.errors,
            "warnings": report.warnings,
            "skipped": list(report.skipped),
        },
        ensure_ascii=False,
        indent=2,
    )


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: Report) -> str:
    """Workflow commands: each finding becomes an annotation on its file and line."""
    out = []
    kept, left = shown(report.findings)
    for f in kept:
        properties = [f"file={_escape_property(f.path)}"]
        if f.line:
            properties.append(f"line={f.line}")
        properties.append(f"title={_escape_property(f'rulesdoc {f.check} ({f.locale})')}")
        msgid = f"{short(f.msgid)!r}: " if f.msgid else ""
        line = f"::{f.severity.value} {','.join(properties)}::{_escape_data(msgid + f.message)}"
        out.append(printable(line))
    out.extend(_github_overflow(overflow) for overflow in left)
    for f in kept:
        if f.detail:
            out += [f"::group::{_escape_data(f.where)}", printable(f.detail), "::endgroup::"]
    out += [table(report), verdict(report)]
    return "\n".join(out)


def _github_overflow(overflow: Overflow) -> str:
    title = _escape_property(f"rulesdoc {overflow.check} ({overflow.locale})")
    properties = f"file={_escape_property(overflow.path)},title={title}"
    return printable(f"::{overflow.severity.value} {properties}::{_escape_data(overflow.line_text())}")


def check_list(checks: Sequence[Check]) -> str:
    """``check --list``: one line per check, its id, category, default severity and reason."""
    rows = [("id", "category", "severity", "reason")] + [
        (c.id, c.category.value, c.severity.value, c.reason or "(no docstring)") for c in checks
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(
        printable("  ".join([*(cell.ljust(w) for cell, w in zip(row, widths, strict=False)), row[3]]))
        for row in rows
    )


FORMATS: dict[str, Callable[[Report], str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
}

"""``rulesdoc check``: the translation and drift linter, as a registry of small checks.

Shaped like Babel's ``checkers.py`` and translate-toolkit's pofilter: each check is a
small function registered under its id (:func:`generator.lint.registry.check`), reading
only what :mod:`generator.lint.inputs` gathered (the same workspace and render the
build uses: nothing is re-read or re-rendered). Catalog checks live in
:mod:`~generator.lint.catalog`, message checks in :mod:`~generator.lint.messages`,
page checks in :mod:`~generator.lint.pages`, output formats in :mod:`~generator.lint.report`.

:func:`run` is what both ``check`` and the strict build call: the build refuses
exactly the errors ``check`` reports, in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence

from generator.lint import catalog, messages, pages  # noqa: F401  (registers the checks)
from generator.lint.inputs import Shared, Subject, gather, share, subject
from generator.lint.model import Finding, Report, Severity, Summary
from generator.lint.registry import REGISTRY, run_check

__all__ = ["REGISTRY", "Report", "Severity", "Shared", "gather", "run", "share", "subject"]


def run(subjects: Sequence[Subject]) -> Report:
    """Every registered check on every subject: the report ``check`` prints and the build obeys."""
    parts = [_run_subject(subject) for subject in subjects]
    return Report(tuple(f for findings, _ in parts for f in findings), tuple(summary for _, summary in parts))


def _run_subject(subject: Subject) -> tuple[list[Finding], Summary]:
    """One language's findings and its row of the summary table."""
    with_pages = subject.shared.pages_dir is not None
    mine = [
        f for entry in REGISTRY if with_pages or not entry.needs_pages_dir for f in run_check(entry, subject)
    ]
    stats = subject.stats
    errors = sum(f.severity is Severity.ERROR for f in mine)
    summary = Summary(
        subject.code, subject.language.name, stats.translated, stats.fuzzy, stats.untranslated,
        errors, len(mine) - errors, subject.shown_path, stats.unreviewed,
    )  # fmt: skip
    return mine, summary

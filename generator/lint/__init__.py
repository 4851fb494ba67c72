"""``rulesdoc check``: the translation and drift linter, as a registry of small checks.

Shaped like Babel's ``checkers.py`` and translate-toolkit's pofilter: each check is a
small function registered under its id, with a category and a default severity
(:func:`rulesdoc.lint.registry.check`; a project adds its own through the entry point
group ``rulesdoc.checks``), reading only what :mod:`rulesdoc.lint.inputs` gathered (the
same workspace and render the build uses: nothing is re-read or re-rendered). Catalog
checks live in :mod:`~rulesdoc.lint.catalog`, message checks in
:mod:`~rulesdoc.lint.messages` and :mod:`~rulesdoc.lint.wording` (pofilter's text checks),
page checks in :mod:`~rulesdoc.lint.pages`, output formats in :mod:`~rulesdoc.lint.report`.

:func:`run` is what both ``check`` and the strict build call: the build refuses
exactly the errors ``check`` reports, in the same words. Only ``check`` may run a
selection of the checks (``--only``/``--skip``, said in its verdict); a build runs them all.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulesdoc.lint import catalog, messages, pages, wording  # noqa: F401  (registers the checks)
from rulesdoc.lint.inputs import Shared, Subject, gather, share, subject
from rulesdoc.lint.model import Finding, Report, Severity, Summary
from rulesdoc.lint.registry import EVERY_CHECK, REGISTRY, Check, Selection, checks, run_check, select

__all__ = [
    "REGISTRY", "Report", "Selection", "Severity", "Shared", "checks", "gather", "run", "select", "share",
    "subject",
]  # fmt: skip


def run(subjects: Sequence[Subject], selection: Selection = EVERY_CHECK) -> Report:
    """The checks on every subject: the report ``check`` prints and the build obeys (every check:
    a build passes no selection)."""
    chosen = [entry for entry in checks() if selection.chosen(entry)]
    parts = [_run_subject(subject, chosen) for subject in subjects]
    return Report(
        tuple(f for findings, _ in parts for f in findings),
        tuple(summary for _, summary in parts),
        selection.skipped(),
    )


def _run_subject(subject: Subject, chosen: Sequence[Check]) -> tuple[list[Finding], Summary]:
    """One language's findings and its row of the summary table."""
    with_pages = subject.shared.pages_dir is not None
    mine = [
        f for entry in chosen if with_pages or not entry.needs_pages_dir for f in run_check(entry, subject)
    ]
    stats = subject.stats
    errors = sum(f.severity is Severity.ERROR for f in mine)
    summary = Summary(
        subject.code, subject.language.name, stats.translated, stats.fuzzy, stats.untranslated,
        errors, len(mine) - errors, subject.shown_path, stats.unreviewed,
    )  # fmt: skip
    return mine, summary

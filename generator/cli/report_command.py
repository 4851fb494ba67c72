"""``rulesdoc report``: what a rule change does, as a pull-request comment or JSON.

Its imports (git, Babel's extraction) are made only when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rulesdoc.io.project import Project

REPORT_FORMATS = ("markdown", "json")  # rulesdoc.report.formats.FORMATS


def add_parser(commands: Any) -> None:
    """The ``report`` command's arguments (``commands``: argparse's subparsers)."""
    report = commands.add_parser(
        "report",
        help="what a rule change does, against a git revision: values, examples, targets, translations",
        description="Values before and after, every worked example's scores, the target and cap per "
        "player count, and per language the messages that become fuzzy or new once the catalogs are "
        "updated. Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY, JSON for tools. "
        "Nothing is written but --full-report.",
    )
    report.add_argument(
        "--base", required=True, metavar="REV", help="git revision to compare with, e.g. origin/main"
    )
    report.add_argument(
        "--format", choices=REPORT_FORMATS, default="markdown", help="markdown (default) or json"
    )
    report.add_argument("--rules", type=Path, help="rules file (default: ROOT/rules.yaml)")
    report.add_argument(
        "--full-report",
        type=Path,
        metavar="FILE",
        help="write the whole Markdown report to FILE (for the run's artifacts); standard output is "
        "then cut to what a GitHub comment holds (65,536 characters), with a line naming FILE",
    )


def run(args: argparse.Namespace, root: Path, project: Project) -> str:
    """The report's text for standard output."""
    from rulesdoc.report import changes  # git, Babel's extraction: only for `report`
    from rulesdoc.report.formats import FORMATS, comment

    text = FORMATS[args.format](changes.compare(root, project.rules, project.locales, args.base))
    if args.full_report is None:
        return text
    return comment(text, args.full_report)

"""The ``check`` command: lint a project (:mod:`rulesdoc.lint`), list its checks, select them.

``--only``/``--skip`` choose among the checks for this run alone; a build (``render``,
``build``, the MkDocs plugin) always runs every check, so a selection never lets a build
pass what the full check calls an error: the verdict line names what was skipped.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from rulesdoc.errors import RulesdocError
from rulesdoc.io.project import Project

EXIT_OK, EXIT_FINDINGS = 0, 1


def add_selection(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--list", action="store_true", help="list the checks (id, category, severity, reason) and exit"
    )
    check.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="ID[,ID]",
        help="run only these checks (repeatable; a build always runs every check)",
    )
    check.add_argument(
        "--skip", action="append", default=[], metavar="ID[,ID]", help="leave these checks out (repeatable)"
    )


def ids(values: Sequence[str]) -> list[str]:
    """``--only a,b --only c`` → ``[a, b, c]``."""
    return [name.strip() for value in values for name in value.split(",") if name.strip()]


def run(args: argparse.Namespace, root: Path, project: Project, say: Callable[[str], None]) -> int:
    from rulesdoc import lint  # the linter's imports cost `render` nothing
    from rulesdoc.i18n.translate import select_languages
    from rulesdoc.lint.report import FORMATS, check_list
    from rulesdoc.pages.render import Workspace
    from rulesdoc.site.options import site_options

    if args.list:
        say(check_list(lint.checks()))
        return EXIT_OK
    selection = lint.select(ids(args.only), ids(args.skip))  # bad usage (exit 2) before any work
    if args.site is not None:
        from rulesdoc.cli.site_commands import check_site

        if selection.only or selection.skip:
            raise RulesdocError("--only/--skip choose among the catalog and page checks; --site runs its own")

        return check_site(project, args.site, say)
    options = site_options(root / "mkdocs.yml")
    workspace = Workspace.load(project, [code.replace("-", "_") for code in args.lang] if args.lang else None)
    policy = workspace.policy.publishing(options.languages)
    codes = (
        [language.code for language in select_languages(workspace.languages, args.lang)] if args.lang else []
    )
    report = lint.run(lint.gather(workspace, policy, codes or None, args.pages), selection)
    say(FORMATS[args.format](report))
    return EXIT_FINDINGS if report.errors else EXIT_OK

"""``python -m rulesdoc`` / ``rulesdoc``: render pages, score rounds, manage catalogs, check."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from rulesdoc.cli import check_command, report_command
from rulesdoc.cli.arguments import EXIT_BAD_INPUT
from rulesdoc.cli.arguments import parser as _parser  # tests call cli._parser()
from rulesdoc.errors import MAX_LINE, Location, RulesdocError, display_path, printable, short
from rulesdoc.io.project import Project
from rulesdoc.spec.rules import load_rules

EXIT_OK, EXIT_FINDINGS = 0, 1
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE  # 141: what a shell shows for a tool its reader left


def _score(args: argparse.Namespace, project: Project) -> int:
    from rulesdoc.score import reading, writing  # score's imports cost the other commands nothing

    rules = load_rules(project.rules, project.root)
    text, name = reading.read_input(args.file)
    writing.score(rules, reading.RoundStream(text, name), args.format == "text", write)
    return EXIT_OK


def _catalog(args: argparse.Namespace, root: Path, project: Project) -> int:
    # The catalog workflow's imports (Babel's extraction, the pseudo-locale) cost `render` nothing.
    from rulesdoc.i18n import catalogs, extraction, mo, pseudo

    locales = project.locales
    if args.step == "extract":
        path, changed = extraction.write_template(root, locales, _value_notes(project))
        say(f"{display_path(path)}: {'updated' if changed else 'up to date'}")
    elif args.step == "update":
        notes = _value_notes(project)  # they follow rules.yaml: refreshed before the merge
        if notes is not None and extraction.refresh_value_notes(root, locales, notes):
            say(f"{display_path(project.pot)}: notes with the current rules' values refreshed")
        updates = catalogs.update(
            locales, args.lang, force=args.force, cldr_plural_forms=args.plural_forms == "cldr", root=root
        )
        for update in updates:
            say(f"{display_path(update.path)}: {update.summary()}")
    elif args.step == "compile":
        for path in mo.compile_catalogs(locales, root):
            say(f"{display_path(path)}: compiled")
    elif args.step == "init":
        path = catalogs.init(locales, args.lang, args.locale, root)
        say(f"{display_path(path)}: created; translate it, then `rulesdoc build`")
    elif args.step == "pseudo":
        path = pseudo.write_pseudo(locales, args.out)
        say(f"{display_path(path)}: written; `rulesdoc render --locales {display_path(args.out)}` renders it")
    return EXIT_OK


def _value_notes(project: Project) -> dict[tuple[str, str | None], str] | None:
    """Each message filled in with the current rules' values, for its note to translators."""
    from rulesdoc.pages.renderings import project_value_notes

    return project_value_notes(project)


def _render(args: argparse.Namespace, project: Project) -> int:
    from rulesdoc.cli.render_checked import render_all
    from rulesdoc.localedata.cldr import SOURCE_LANGUAGE
    from rulesdoc.pages.render import write_pages

    if args.locales is not None:  # another catalog folder (the pseudo-locale's), beside the English source
        project = Project(project.rules, project.templates, args.locales, project.root)
    codes = [SOURCE_LANGUAGE, *args.lang] if args.lang else []
    pages = render_all(project, codes, strict=args.strict)
    for path in write_pages(pages, args.out):
        say(display_path(path))
    return EXIT_OK


def _export(args: argparse.Namespace, project: Project) -> int:
    from rulesdoc.export import bundle as export  # the bundle's imports cost `render` nothing

    rules = load_rules(project.rules, project.root)
    for path in export.write_bundle(export.bundle(rules), args.out):
        say(display_path(path))
    return EXIT_OK


def _require_project(args: argparse.Namespace, project: Project) -> None:
    """Outside a project, say so, rather than "rules.yaml: file not found"."""
    # lexists: a dangling or looping rules.yaml is the project's, with an error of its own.
    if getattr(args, "rules", None) is None and not os.path.lexists(project.rules):
        raise RulesdocError(
            "not found: rulesdoc works in a project folder (one with rules.yaml); "
            "run it there or point at one with --root DIR",
            Location(display_path(project.rules)),
        )


def run(argv: Sequence[str] | None = None) -> int:
    try:
        with _writing():  # --help and --version write too
            args = _parser().parse_args(argv)
    except SystemExit as done:  # after --help, --version or bad usage: still flush in main
        return done.code if isinstance(done.code, int) else EXIT_OK
    if args.command == "new":
        from rulesdoc.cli.scaffold import new_project

        for path in new_project(args.dir, args.name, args.lang, say):
            say(f"{display_path(path)}: created; translate it, then `rulesdoc build`")
        return EXIT_OK
    root: Path = args.root
    project = Project.at(root, getattr(args, "rules", None))
    if not (args.command == "check" and args.list):  # the list of checks needs no project
        _require_project(args, project)
    if args.command == "render":
        return _render(args, project)
    if args.command == "check":
        return check_command.run(args, root, project, say)
    if args.command == "score":
        return _score(args, project)
    if args.command == "catalog":
        return _catalog(args, root, project)
    if args.command == "export":
        return _export(args, project)
    if args.command == "report":
        write(report_command.run(args, root, project))
        return EXIT_OK
    if args.command in ("site-source", "build", "screenshots"):
        from rulesdoc.cli import site_commands

        if args.command == "screenshots":
            site_commands.screenshots(project, args.lang, args.out, say, args.site)
        elif args.command == "site-source":
            site_commands.write_site_source(project, args.out, args.strict, say)
        else:
            site_commands.build_site(project, args.engine or site_commands.default_engine(), args.strict, say)
        return EXIT_OK
    raise AssertionError(args.command)


# ---------------------------------------------------------------- standard output


STDOUT = Location("<stdout>")


class _ClosedPipe(Exception):
    """Standard output's reader has gone (``rulesdoc check | head -1``)."""


@contextlib.contextmanager
def _writing() -> Iterator[None]:
    """A failed write to standard output: a one-line error, or, for a closed pipe, a quiet end."""
    try:
        yield
    except BrokenPipeError:
        raise _ClosedPipe from None
    except OSError as error:  # ENOSPC (/dev/full, a full disk), EBADF (opened read-only), EIO...
        raise RulesdocError(f"cannot write: {error.strerror or error}", STDOUT) from None


def write(text: str) -> None:
    """Write to standard output (buffered: the failure may show at a later write, or at the flush)."""
    with _writing():
        sys.stdout.write(text)


def say(line: str) -> None:
    write(line + "\n")


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that the interpreter's last flush of what is left in
    the buffer cannot fail again, with a traceback, after we have said what happened."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (tests capture it): nothing to flush
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


class _PrintableFormatter(logging.Formatter):
    """A warning may quote catalog or rules text: one bounded line, control characters escaped."""

    def format(self, record: logging.LogRecord) -> str:
        return short(printable(" ".join(super().format(record).split())), MAX_LINE)


@contextlib.contextmanager
def _warnings_to_stderr() -> Iterator[None]:
    """Log records of WARNING and above as one ``rulesdoc: warning:`` line each on stderr, for
    this run only: a caller that runs ``main`` in its own process (the tests) gets its root
    logger back as it was. A root logger that already has handlers is left to them."""
    root = logging.getLogger()
    if root.handlers:
        yield
        return
    handler = logging.StreamHandler()
    handler.setFormatter(_PrintableFormatter("rulesdoc: warning: %(message)s"))
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def main(argv: Sequence[str] | None = None) -> int:
    with _warnings_to_stderr():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    try:
        if sys.stdout is None:  # started with it closed (`>&-`): whatever we wrote would be lost
            raise RulesdocError("standard output is closed; nothing was done (send it to /dev/null)", STDOUT)
        status = run(argv)
        with _writing():  # what is still buffered: a full disk shows here at the latest, while we can say so
            sys.stdout.flush()
        return status
    except _ClosedPipe:  # as Unix tools end when their reader has gone: no message, status 128 + SIGPIPE
        _drop_stdout()
        return EXIT_CLOSED_PIPE
    except RulesdocError as error:
        if error.location == STDOUT:
            _drop_stdout()
        print(f"rulesdoc: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130

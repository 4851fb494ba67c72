"""``python -m generator`` / ``rulesdoc``: render pages, score rounds, manage catalogs, check."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from generator import __version__
from generator.cli import report_command
from generator.errors import MAX_LINE, Location, RulesdocError, display_path, printable, short
from generator.io.project import Project
from generator.spec.rules import load_rules

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_OK, EXIT_FINDINGS, EXIT_BAD_INPUT = 0, 1, 2
EXIT_CLOSED_PIPE = 128 + signal.SIGPIPE  # 141: what a shell shows for a tool its reader left
CHECK_FORMATS = ("text", "json", "github")  # generator.lint.report.FORMATS, imported only by `check`
# The top-level help: plain text (the module docstring above is reST, for the code's readers).
DESCRIPTION = (
    "rulesdoc: the rules of Rami from one spec (rules.yaml) and a real scoring engine, "
    "as a multilingual help site, a scoring command and a bundle apps test against."
)
SCORE_INPUT = """\
input: one round, a list of rounds, or a game, as YAML or JSON (a file, or - for stdin)

  hands:                    # one hand per seat, seat 0 first
    - cards: []             # the seat that went out holds nothing
    - cards: [AH, JK, 5C]   # rank A 2-10 J Q K, then suit C D H S (any case); JK: joker
      opened: false         # never opened (default: true)
  went_out: 0               # the seat that went out; leave it out for a blocked round
  hand_rummy: false         # went out in one turn (default: false)

  [{hands: ...}, {hands: ...}]     a list of rounds, each scored on its own
  {rounds: [{hands: ...}, ...]}    a game: totals, finished, winner, extra_round

example, where rules.yaml has joker 20, ace 11 and target per_opponent 100 (yours may differ):
  $ echo '{hands: [{cards: []}, {cards: [AH, JK, 5C]}], went_out: 0}' | rulesdoc score --format text
  Seat  Opened  Cards     Hand  Score  Rule
     0  yes     -            0      0  went out
     1  yes     AH JK 5C    36     36  cards in hand
  (2 players, game target 100)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse exits 2 on bad usage too; keep its one-line message, drop the usage dump.
        self.exit(EXIT_BAD_INPUT, f"rulesdoc: {message}\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse ignores a failed write: `--help > /dev/full` would exit 0 with nothing shown.
        if message and file is sys.stdout:
            file.write(message)
        else:
            super()._print_message(message, file)


UPDATE = (
    "New messages are added, changed ones become fuzzy (the old source kept as #|), vanished ones are "
    "kept as obsolete #~ entries. A catalog whose messages did not change is left untouched."
)
PSEUDO_HELP = "write the pseudo-locale en-XA ([Ŵîññéŕ ···]) for layout tests, not in locales/"
PSEUDO = (
    "Every message accented, about 40 % longer and bracketed, placeholders kept. Written to "
    "DIR/en-XA/ (never locales/, which would publish it); render it with `render --locales DIR`. "
    "Babel has no en-XA locale data: it formats numbers and plurals as en_001."
)


def _out_option(command: argparse.ArgumentParser, default: str) -> None:
    command.add_argument(
        "--out", type=Path, default=Path(default), metavar="DIR", help=f"folder (default: {default})"
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulesdoc", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"rulesdoc {__version__}")
    parser.add_argument("--root", type=Path, default=Path("."), help="project folder (default: .)")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    render = commands.add_parser("render", help="write DIR/<lang>/<page>.md for every language")
    render.add_argument("--rules", type=Path, help="rules file (default: ROOT/rules.yaml)")
    render.add_argument("--out", type=Path, default=Path("build/pages"), help="output folder")
    render.add_argument("--lang", action="append", default=[], metavar="CODE", help="only this language")
    render.add_argument(
        "--locales",
        type=Path,
        metavar="DIR",
        help="catalogs to render from, e.g. build/pseudo (default: ROOT/locales); English always renders",
    )
    render.add_argument(
        "--no-strict",
        dest="strict",
        action="store_false",
        help="write the pages even when `check` reports errors (a refused translation shows in "
        "English); missing or fuzzy translations never fail: they show in English, marked",
    )

    score = commands.add_parser(
        "score",
        help="score rounds or a game given as YAML or JSON",
        description="Score rounds or a game with the rules of rules.yaml.",
        epilog=SCORE_INPUT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    score.add_argument("--rules", type=Path, help="rules file (default: ROOT/rules.yaml)")
    score.add_argument(
        "--format", choices=("json", "text"), default="json", help="output: json (default) or a text table"
    )
    score.add_argument("file", nargs="?", default="-", help="input file, or - for standard input")

    export = commands.add_parser(
        "export",
        help="write the rules bundle apps test against: rules.json, rules.schema.json, conformance.json",
        description="The values of rules.yaml, its JSON Schema and conformance vectors (inputs with "
        "the expected scores, winners and reasons), versioned. DIR is replaced as a whole, or left "
        "as it was; a folder holding other files is refused.",
    )
    export.add_argument("--rules", type=Path, help="rules file (default: ROOT/rules.yaml)")
    _out_option(export, "build/export")

    report_command.add_parser(commands)

    catalog = commands.add_parser("catalog", help="the gettext workflow")
    steps = catalog.add_subparsers(dest="step", required=True, parser_class=_Parser)
    steps.add_parser("extract", help="write locales/messages.pot from templates and rules.yaml")
    update = steps.add_parser("update", help="merge messages.pot into every catalog", description=UPDATE)
    update.add_argument("--lang", action="append", default=[], metavar="CODE")
    update.add_argument(
        "--force", action="store_true", help="accept a messages.pot that lacks most of a catalog's messages"
    )
    update.add_argument(
        "--plural-forms",
        choices=("cldr",),
        help="set CLDR's Plural-Forms header, moving each plural entry's forms to those that mean the same",
    )
    steps.add_parser("compile", help="write messages.mo beside each catalog")
    init = steps.add_parser("init", help="start the catalog of a new language")
    init.add_argument("lang", help="a CLDR language code: fr, pt_BR, zh-Hant, sr_Latn ...")
    init.add_argument("--locale", help="formatting locale if not the code itself, e.g. pt_PT")
    pseudo_step = steps.add_parser("pseudo", help=PSEUDO_HELP, description=PSEUDO)
    _out_option(pseudo_step, "build/pseudo")

    check = commands.add_parser(
        "check",
        help="lint catalogs, glossary terms and rendered pages; exit 1 on errors",
        description="Stale catalogs, completeness, placeholders, markup, plural forms, terminology, "
        "rendering and (with --pages) drift of committed pages. Exit 0 clean, 1 errors, 2 bad input.",
    )
    check.add_argument(
        "--format", choices=CHECK_FORMATS, default="text", help="output: text, json, or github annotations"
    )
    check.add_argument(
        "--pages", type=Path, metavar="DIR", help="also compare DIR/<lang>/<page>.md with a fresh render"
    )
    check.add_argument("--lang", action="append", default=[], metavar="CODE", help="only this language")
    check.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="verify the built site DIR instead: every language, page, index, 404",
    )
    from generator.cli.site_commands import add_parsers

    add_parsers(commands, _out_option)
    return parser


def _score(args: argparse.Namespace, project: Project) -> int:
    from generator.spec import (
        score_input,
        scoring_io,  # score's imports cost the other commands nothing
    )

    rules = load_rules(project.rules, project.root)
    text, name = score_input.read_input(args.file)
    scoring_io.score(rules, score_input.RoundStream(text, name), args.format == "text", write)
    return EXIT_OK


def _catalog(args: argparse.Namespace, root: Path, project: Project) -> int:
    # The catalog workflow's imports (Babel's extraction, the pseudo-locale) cost `render` nothing.
    from generator.i18n import catalogs, mo, pseudo

    locales = project.locales
    if args.step == "extract":
        path, changed = catalogs.write_template(root, locales)
        say(f"{display_path(path)}: {'updated' if changed else 'up to date'}")
    elif args.step == "update":
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


def _render(args: argparse.Namespace, project: Project) -> int:
    from generator.cli.render_checked import render_all
    from generator.i18n.cldr import SOURCE_LANGUAGE
    from generator.pages.render import write_pages

    if args.locales is not None:  # another catalog folder (the pseudo-locale's), beside the English source
        project = Project(project.rules, project.templates, args.locales, project.root)
    codes = [SOURCE_LANGUAGE, *args.lang] if args.lang else []
    pages = render_all(project, codes, strict=args.strict)
    for path in write_pages(pages, args.out):
        say(display_path(path))
    return EXIT_OK


def _check(args: argparse.Namespace, root: Path, project: Project) -> int:
    from generator import lint  # the linter's imports cost `render` nothing
    from generator.i18n.translate import select_languages
    from generator.lint.report import FORMATS
    from generator.pages.render import Workspace
    from generator.site.options import site_options

    if args.site is not None:
        from generator.cli.site_commands import check_site

        return check_site(project, args.site, say)
    options = site_options(root / "mkdocs.yml")
    workspace = Workspace.load(project, [code.replace("-", "_") for code in args.lang] if args.lang else None)
    policy = workspace.policy.publishing(options.languages)
    codes = (
        [language.code for language in select_languages(workspace.languages, args.lang)] if args.lang else []
    )
    report = lint.run(lint.gather(workspace, policy, codes or None, args.pages))
    say(FORMATS[args.format](report))
    return EXIT_FINDINGS if report.errors else EXIT_OK


def _export(args: argparse.Namespace, project: Project) -> int:
    from generator.export import bundle as export  # the bundle's imports cost `render` nothing

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
    root: Path = args.root
    project = Project.at(root, getattr(args, "rules", None))
    _require_project(args, project)
    if args.command == "render":
        return _render(args, project)
    if args.command == "check":
        return _check(args, root, project)
    if args.command == "score":
        return _score(args, project)
    if args.command == "catalog":
        return _catalog(args, root, project)
    if args.command == "export":
        return _export(args, project)
    if args.command == "report":
        write(report_command.run(args, root, project))
        return EXIT_OK
    if args.command in ("site-source", "build"):
        from generator.cli import site_commands

        if args.command == "site-source":
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


def main(argv: Sequence[str] | None = None) -> int:
    handler = logging.StreamHandler()
    handler.setFormatter(_PrintableFormatter("rulesdoc: warning: %(message)s"))
    logging.basicConfig(handlers=[handler], level=logging.WARNING)
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

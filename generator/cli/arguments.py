"""The command line's grammar: every command and option of ``rulesdoc``, and nothing they do.

``--root DIR`` is accepted before the command and after it (``rulesdoc check --root help``, as a
pre-commit hook's ``args`` give it), and after a ``catalog`` step.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rulesdoc import __version__
from rulesdoc.cli import report_command
from rulesdoc.cli.check_command import add_selection

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

EXIT_BAD_INPUT = 2
ROOT_HELP = "project folder (default: .); before or after the command"
CHECK_FORMATS = ("text", "json", "github")  # rulesdoc.lint.report.FORMATS, imported only by `check`
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


def parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="rulesdoc", description=DESCRIPTION)
    parser.add_argument("--version", action="version", version=f"rulesdoc {__version__}")
    parser.add_argument("--root", type=Path, default=Path("."), help=ROOT_HELP)
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
        description="Stale catalogs, completeness, placeholders, markup, numbers, wording, plural forms, "
        "terminology, rendering and (with --pages) drift of committed pages; --list names every check. "
        "Exit 0 clean, 1 errors, 2 bad input.",
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
    add_selection(check)
    new = commands.add_parser(
        "new",
        help="start a project of your own in DIR: rules, templates, catalogs, mkdocs.yml",
        description="A working project from the starter files: rules.yaml with one worked example, "
        "the page templates, babel.cfg, mkdocs.yml with your site's name, docs/, .gitignore, "
        "locales/ with messages.pot and a catalog per --lang; a GitHub workflow that checks and "
        "builds the site, a pre-commit hook running `rulesdoc check`, and requirements.txt naming "
        "this rulesdoc for both. It passes `rulesdoc check` and a strict `rulesdoc build` at once.",
    )
    new.add_argument("dir", type=Path, metavar="DIR", help="a folder that does not exist yet, or is empty")
    new.add_argument("--name", help="the site's name (mkdocs.yml site_name; default: DIR's name)")
    new.add_argument("--lang", action="append", default=[], metavar="CODE", help="start this catalog")
    from rulesdoc.cli.site_commands import add_parsers

    add_parsers(commands, _out_option)
    for command in [*commands.choices.values(), *steps.choices.values()]:
        if command is new:  # DIR is where it writes: no project to point at
            continue
        # After the command too: its value, when given there, replaces the one before it.
        command.add_argument("--root", type=Path, default=argparse.SUPPRESS, help=ROOT_HELP)
    return parser

"""The catalog loader against GNU gettext: what ``msgfmt -c --check-format`` refuses, ``check`` refuses.

tests/msgfmt_parity/ holds small catalogs named for the verdict both tools must reach:
``accept-*`` (both accept), ``reject-*`` (both refuse), ``stricter-*`` (msgfmt accepts, we refuse
on purpose: a control character, a numeric escape Babel would show as typed, a second header
Babel would read, no Plural-Forms header). "Ours" is what ``check`` asks of a catalog on its own: the loader, every
entry's verdict and a usable Plural-Forms header (stale and completeness depend on the project).

Plural-Forms bombs run in a subprocess whose address space is bounded (RLIMIT_AS 1.5 GB): before
the guard, ``nplurals=1000000000`` grew past 3.8 GB and ended in MemoryError after a minute.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import ROOT, copy_project, git

from rulesdoc.catalog import po
from rulesdoc.errors import MAX_LINE, Location, RulesdocError, printable, short
from rulesdoc.i18n.translate import judge_catalog
from rulesdoc.lint.model import Finding, Severity

PARITY = Path(__file__).resolve().parent / "msgfmt_parity"
CASES = sorted(PARITY.glob("*.po"))
MSGFMT = shutil.which("msgfmt")
needs_msgfmt = pytest.mark.skipif(MSGFMT is None, reason="GNU gettext's msgfmt is not installed")
RLIMIT_AS = 1_500_000_000


def msgfmt_accepts(path: Path) -> bool:
    assert MSGFMT is not None
    done = subprocess.run(
        [MSGFMT, "-c", "--check-format", "-o", "/dev/null", str(path)], capture_output=True, text=True
    )
    return done.returncode == 0


def our_error(path: Path) -> str | None:
    """Why ``check`` refuses this catalog on its own, or None."""
    try:
        loaded = po.load(path)
    except RulesdocError as error:
        return str(error)
    if loaded.plural_forms is None:
        return loaded.plural_error
    for key, verdict in judge_catalog(loaded, {}).items():
        if verdict.problems:
            return f"{key[0]!r}: {verdict.problems[0].text}"
    return None


def test_the_parity_folder_covers_each_verdict() -> None:
    kinds = {case.name.split("-")[0] for case in CASES}
    assert kinds == {"accept", "reject", "stricter"}
    assert len(CASES) >= 40


@pytest.mark.slow
@needs_msgfmt
@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_msgfmt_and_check_agree(case: Path) -> None:
    kind = case.name.split("-")[0]
    error = our_error(case)
    assert msgfmt_accepts(case) is (kind == "accept" or kind == "stricter")
    if kind == "accept":
        assert error is None, error
    else:
        assert error is not None, "check accepts what it must refuse"


@pytest.mark.parametrize(
    ("case", "says"),
    [
        ("reject-escape-letter", "parity/reject-escape-letter.po:15: invalid catalog: invalid escape \\q"),
        ("reject-escape-in-msgid", ":14: invalid catalog: invalid escape \\q"),
        (
            "reject-newline-end",
            ":15: invalid catalog: 'msgid' and 'msgstr' entries do not both end with '\\n'",
        ),
        ("reject-newline-start", ":15: invalid catalog: 'msgid' and 'msgstr' entries do not both begin with"),
        (
            "reject-newline-plural-form",
            ":17: invalid catalog: 'msgid' and 'msgstr[1]' entries do not both end",
        ),
        (
            "reject-newline-msgid-plural",
            ":15: invalid catalog: 'msgid' and 'msgid_plural' entries do not both",
        ),
        (
            "reject-duplicate-header",
            ':14: invalid catalog: a second header entry (msgid ""); the header is on line 2',
        ),
        ("reject-forms-out-of-order", ":15: invalid catalog: msgstr[1] where msgstr[0] comes next"),
        ("reject-index-without-plural", ":14: invalid catalog: msgstr[0] without a msgid_plural before it"),
        (
            "reject-second-msgctxt",
            ":14: invalid catalog: a second msgctxt for one entry (msgfmt: syntax error)",
        ),
        ("reject-obsolete-second-msgctxt", ":14: invalid catalog: a second msgctxt for one entry"),
        ("reject-second-msgid-plural", ":15: invalid catalog: a second msgid_plural for one entry"),
        ("reject-msgid-plural-after-msgstr", ":15: invalid catalog: msgid_plural not right after a msgid"),
        ("reject-second-msgid", ":13: invalid catalog: missing msgstr for msgid 'a'"),
        ("reject-obsolete-duplicate", ":16: invalid catalog: msgid 'a' is defined twice (first on line 13)"),
        (
            "reject-empty-msgid-plural",
            ':13: invalid catalog: an empty msgid with a msgid_plural; msgid "" is',
        ),
        (
            "stricter-raw-escape-character",
            ":15: invalid catalog: control character U+001B; a catalog string may",
        ),
        ("stricter-raw-c1-character", ":15: invalid catalog: control character U+009B"),
        ("stricter-control-escape", ":15: invalid catalog: the escape \\a is a control character U+0007"),
        ("stricter-octal-escape", ":15: invalid catalog: numeric escape \\3...: write the character itself"),
        (
            "stricter-header-with-msgctxt",
            ":15: invalid catalog: a second header entry (msgctxt 'x' and an empty",
        ),
    ],
)
def test_each_refusal_names_the_file_and_line(case: str, says: str) -> None:
    error = our_error(PARITY / f"{case}.po")
    assert error is not None and says in error, error


def test_a_lone_msgctxt_header_is_refused() -> None:
    text = HEADER.replace('msgid ""', 'msgctxt "x"\nmsgid ""', 1)
    with pytest.raises(
        RulesdocError, match=r"^x.po:3: invalid catalog: an entry with msgctxt 'x' and an empty msgid"
    ):
        po.parse(text.encode(), Path("x.po"))


@pytest.mark.slow
@needs_msgfmt
def test_every_shipped_catalog_and_the_template_pass_msgfmt() -> None:
    shipped = [
        *sorted((ROOT / "locales").glob("*/LC_MESSAGES/messages.po")),
        ROOT / "locales" / "messages.pot",
    ]
    assert len(shipped) >= 6
    for path in shipped:
        assert msgfmt_accepts(path), path


@pytest.mark.slow
@needs_msgfmt
def test_a_catalog_written_by_catalog_init_passes_msgfmt(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(project), "catalog", "init", "sw"],
        capture_output=True, text=True, cwd=project, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = project / "locales" / "sw" / "LC_MESSAGES" / "messages.po"
    assert msgfmt_accepts(written)
    assert our_error(written) is None


@pytest.mark.slow
@needs_msgfmt
def test_the_pseudo_catalog_passes_msgfmt(tmp_path: Path) -> None:
    out = tmp_path / "pseudo"
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "catalog", "pseudo", "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = out / "en-XA" / "LC_MESSAGES" / "messages.po"
    assert msgfmt_accepts(written)
    assert our_error(written) is None


# ---------------------------------------------------------------- Plural-Forms bombs

HEADER = textwrap.dedent(
    """\
    # Swedish
    msgid ""
    msgstr ""
    "Language: sv\\n"
    "Plural-Forms: nplurals=2; plural=(n != 1);\\n"
    "Content-Type: text/plain; charset=UTF-8\\n"

    """
)
BOMB = "nplurals=1000000000; plural=0;"
PLURAL = (
    'msgid "%(n)s point"\nmsgid_plural "%(n)s points"\nmsgstr[0] "%(n)s poäng"\nmsgstr[1] "%(n)s poäng"\n'
)
# Each a way Babel takes an entry as the header where a look at the first `msgid ""` line would not.
BOMBS = {
    "two-spaces": HEADER.replace('msgid ""', 'msgid  ""').replace("nplurals=2; plural=(n != 1);", BOMB)
    + PLURAL,
    "tab": HEADER.replace('msgid ""', 'msgid\t""').replace("nplurals=2; plural=(n != 1);", BOMB) + PLURAL,
    "continued-msgid": HEADER.replace('msgid ""', 'msgid ""\n""').replace(
        "nplurals=2; plural=(n != 1);", BOMB
    )
    + PLURAL,
    "second-with-msgctxt": HEADER + f'msgctxt "x"\nmsgid ""\nmsgstr "Plural-Forms: {BOMB}\\n"\n\n' + PLURAL,
    "second-plain": HEADER + f'msgid ""\nmsgstr "Plural-Forms: {BOMB}\\n"\n\n' + PLURAL,
    "header-last": PLURAL
    + "\n"
    + HEADER.replace("nplurals=2; plural=(n != 1);", BOMB).split("\n", 1)[1]
    + PLURAL.replace("point", "card"),
    "folded-field": HEADER.replace(
        "nplurals=2; plural=(n != 1);\\n", f'nplurals=2; plural=(n != 1);\\n"\n"\\t{BOMB}\\n'
    )
    + PLURAL,
    "comments-only-then-bomb": f'# a comment\n\nmsgid ""\nmsgstr "Plural-Forms: {BOMB}\\n"\n\n' + PLURAL,
}

BOUNDED_PARSE = """
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
from pathlib import Path
from rulesdoc.catalog import po
from rulesdoc.errors import RulesdocError
try:
    loaded = po.parse(sys.stdin.buffer.read(), Path("bomb.po"))
except RulesdocError as error:
    print("refused:", error)
else:
    print("usable:", loaded.plural_error, loaded.catalog.num_plurals)
"""


@pytest.mark.slow
@pytest.mark.parametrize("name", list(BOMBS))
def test_no_header_babel_reads_can_size_entries_past_cldrs_forms(name: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BOUNDED_PARSE.format(limit=RLIMIT_AS)],
        input=BOMBS[name].encode(), capture_output=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    # Refused outright, or kept as a fact the linter reports (the header cannot be used)
    assert out.startswith("refused: bomb.po:") or out.startswith("usable: nplurals=1000000000: a language"), (
        out
    )


def test_the_first_header_spelled_with_two_spaces_is_read_as_the_header() -> None:
    loaded = po.parse(BOMBS["two-spaces"].encode(), Path("bomb.po"))
    assert loaded.plural_forms is None
    assert loaded.plural_error == "nplurals=1000000000: a language has 1 to 6 plural forms (CLDR)"
    assert loaded.header_lines["Plural-Forms"] == 5
    assert loaded.catalog.num_plurals == 2  # Babel saw the harmless stand-in


BOUNDED_CLI = (
    f"import resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({RLIMIT_AS}, {RLIMIT_AS}))\n"
    "from rulesdoc.cli.main import main\nsys.exit(main(sys.argv[1:]))\n"
)
SECOND_HEADER = f'\nmsgctxt "x"\nmsgid ""\nmsgstr "Plural-Forms: {BOMB}\\n"\n'


def bounded_rulesdoc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``rulesdoc --root PROJECT ARGS`` in an address space of 1.5 GB."""
    return subprocess.run(
        [sys.executable, "-c", BOUNDED_CLI, "--root", str(project), *args],
        capture_output=True, text=True, cwd=project, timeout=120,
    )  # fmt: skip


@pytest.mark.slow
def test_check_refuses_a_bomb_in_a_second_header_within_bounded_memory(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    catalog = project / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    catalog.write_text(catalog.read_text("utf-8") + SECOND_HEADER, "utf-8")
    done = bounded_rulesdoc(project, "check")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("rulesdoc: error: locales/da/LC_MESSAGES/messages.po:"), done.stderr
    assert "a second header entry (msgctxt 'x' and an empty msgid)" in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.slow
def test_report_refuses_a_bomb_in_the_base_revision_within_bounded_memory(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    catalog = project / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    good = catalog.read_text("utf-8")
    catalog.write_text(good + SECOND_HEADER, "utf-8")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "a catalog with a second header")
    catalog.write_text(good, "utf-8")
    git(project, "commit", "-q", "-am", "the second header removed")
    done = bounded_rulesdoc(project, "report", "--base", "HEAD~1")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("rulesdoc: error: "), done.stderr
    assert "invalid catalog in the base revision: " in done.stderr
    assert "a second header entry (msgctxt 'x' and an empty msgid)" in done.stderr
    assert len(done.stderr.splitlines()) == 1


# ---------------------------------------------------------------- terminal output


def test_printable_escapes_what_a_terminal_acts_on() -> None:
    assert printable("a\x1b]0;owned\x07b\x9b31mc\x7f\x00") == "a\\x1b]0;owned\\x07b\\x9b31mc\\x7f\\x00"
    assert printable("tab\tand\nnewline, ä, 😀") == "tab\tand\nnewline, ä, 😀"


def test_short_is_the_one_truncation() -> None:
    assert short("x" * 60) == "x" * 60
    assert short("x" * 61) == "x" * 59 + "…"
    assert short("abcdef", 4) == "abc…"


def test_an_error_line_is_escaped_and_bounded_whatever_it_quotes() -> None:
    error = RulesdocError(
        f"went_out must be a whole number, not {'x' * 20_000_000!r}\x1b[8m", Location("r.yaml", 2)
    )
    line = str(error)
    assert len(line) <= MAX_LINE
    assert "\x1b" not in line and "\n" not in line
    assert line.startswith("r.yaml:2: went_out must be a whole number, not 'xxx")


def test_a_finding_line_is_escaped() -> None:
    finding = Finding(Severity.ERROR, "da", "messages.po", 3, "a\x1b[2Jb", "odd \x07 text", check="markup")
    assert finding.line_text() == "messages.po:3: error: [markup] 'a\\x1b[2Jb': odd \\x07 text"


@pytest.mark.slow
def test_a_2_mb_value_gives_one_short_line(tmp_path: Path) -> None:
    rounds = tmp_path / "round.yaml"  # just within the input's limit
    rounds.write_text("hands: [{cards: []}, {cards: [AH]}]\nwent_out: " + "x" * 2_000_000 + "\n", "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "score", str(rounds)],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert len(done.stderr) < 300, len(done.stderr)
    assert done.stderr.startswith("rulesdoc: error: round.yaml:2: went_out must be a whole number, not 'xxx")


@pytest.mark.slow
def test_a_file_name_with_terminal_escapes_is_shown_escaped(tmp_path: Path) -> None:
    name = "rules\x1b]0;owned\x07.yaml"
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(ROOT), "render", "--rules", name, "--out", "out"],
        capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert "\x1b" not in done.stderr and "\x07" not in done.stderr
    assert "rules\\x1b]0;owned\\x07.yaml" in done.stderr

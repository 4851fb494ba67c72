"""``rulesdoc check``: each check fires where it must and stays silent where it must.

Every test works on a copy of the project in a temporary folder (rules, templates,
POT and the committed da/ms/nl/pt catalogs; the Hindi catalog is left out, its
cases use fixture catalogs from ``tests/fixtures/checks/``) and breaks one thing.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml
from support import ROOT
from support.inprocess import run_main

from rulesdoc import lint
from rulesdoc.catalog import po as catalog_file
from rulesdoc.catalog import po_writer
from rulesdoc.cli import main as cli
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n import pseudo
from rulesdoc.i18n.policy import read_policy
from rulesdoc.i18n.translate import discover_languages
from rulesdoc.i18n.verdicts import markup_tokens
from rulesdoc.io.project import Project
from rulesdoc.lint.inputs import gather
from rulesdoc.lint.messages import whole_word
from rulesdoc.lint.model import FIX, Finding, Severity
from rulesdoc.lint.pages import _tables, cells
from rulesdoc.lint.registry import REGISTRY
from rulesdoc.lint.report import FORMATS
from rulesdoc.localedata.cldr import PSEUDO_CODE
from rulesdoc.pages.render import RenderedPage, Workspace
from rulesdoc.site.options import site_options

FIXTURES = ROOT / "tests" / "fixtures" / "checks"
SEEDS = ROOT / "tests" / "fixtures" / "seeds"
COPIED_LANGUAGES = ("da", "ms", "nl", "pt")
CHECK_NAMES = (
    "stale", "completeness", "placeholders", "markup", "plural-forms", "terminology", "rendering", "drift"
)  # fmt: skip


# ---------------------------------------------------------------- helpers


def make_project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    for name in ("rules.yaml", "babel.cfg", "mkdocs.yml"):
        shutil.copy(ROOT / name, root / name)
    shutil.copytree(ROOT / "templates", root / "templates")
    (root / "locales").mkdir()
    for name in ("messages.pot", "glossary.yaml"):
        shutil.copy(ROOT / "locales" / name, root / "locales" / name)
    for code in COPIED_LANGUAGES:
        shutil.copytree(ROOT / "locales" / code, root / "locales" / code)
    return root


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path)


def po(root: Path, code: str) -> Path:
    return root / "locales" / code / "LC_MESSAGES" / "messages.po"


def unwrap(path: Path) -> None:
    """Each string of a catalog on one line (gettext's --no-wrap), so that a test can edit it as text."""
    before = path.read_bytes()
    after = _UNWRAPPED.get(before)
    if after is None:
        loaded = catalog_file.load(path)
        after = _UNWRAPPED[before] = po_writer.to_bytes(loaded.catalog, loaded.headers, width=1 << 30)
    path.write_bytes(after)


# A catalog's bytes -> the same catalog unwrapped: most tests unwrap a committed catalog, the same
# bytes every time, and loading and writing one back costs ~0.15 s (keyed by content: exact).
_UNWRAPPED: dict[bytes, bytes] = {}


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    if path.suffix in (".po", ".pot"):
        unwrap(path)
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def line_of(path: Path, text: str) -> int:
    """The line of a .po entry (its msgid line), or of any text."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line == f'msgid "{text}"' or (not text.startswith("msgid") and line.startswith(text)):
            return number
    raise AssertionError(f"{text!r} not in {path}")


def run(root: Path, *args: str, only: Sequence[str] | None = None) -> list[Finding]:
    """What `rulesdoc check` finds, through the same calls the command makes.

    ``only``: check the source language and these catalogs alone (as `check --lang` does; the
    workspace still reads every catalog), for a test that asserts one language's findings: it
    renders and checks two languages, not five.
    """
    project = Project.at(root)
    pages = None
    if "--pages" in args:
        pages = Path(args[args.index("--pages") + 1])
    policy = read_policy(project.locales, site_options(root / "mkdocs.yml").languages, root)
    return list(lint.run(lint.gather(Workspace.load(project), policy, only, pages)).findings)


def of(findings: list[Finding], check: str, locale: str | None = None) -> list[Finding]:
    return [f for f in findings if f.check == check and (locale is None or f.locale == locale)]


def pot_messages(root: Path) -> int:
    return (
        sum(
            1
            for line in (root / "locales" / "messages.pot").read_text("utf-8").splitlines()
            if line.startswith("msgid ")
        )
        - 1
    )


def cli_check(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`rulesdoc check` as the command runs it, in this process (support.inprocess)."""
    return run_main(["--root", str(root), "check", *args], cwd=ROOT)


# ---------------------------------------------------------------- the clean copy, exit codes


@pytest.mark.slow
def test_clean_copy_passes_every_check(project: Path) -> None:
    findings = run(project)
    assert findings == []
    result = cli_check(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "check passed: 0 error(s), 0 warning(s)" in result.stdout
    # The summary table: one row per language with its counts.
    rows = {
        line.split()[0]: line.split()[1:]
        for line in result.stdout.splitlines()
        if line[:2] in COPIED_LANGUAGES
    }
    assert set(rows) == set(COPIED_LANGUAGES)
    # fuzzy, untranslated, theme-unreviewed, errors, warnings
    assert all(row[1:] == ["0", "0", "0", "0", "0"] for row in rows.values())


@pytest.mark.slow
def test_three_breaks_of_a_real_catalog_exit_1_and_name_all_three(project: Path) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander %(nummer)s"')  # renamed
    edit(catalog, 'msgstr "Winnaar"', 'msgstr ""')  # blanked
    edit(catalog, 'msgstr "In het kort"', 'msgstr "In het kort<script>alert(1)</script>"')  # injected
    result = cli_check(project)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    shown = str(catalog)
    for msgid, check, severity in (
        ("Opponent %(number)s", "placeholders", "error"),
        ("Winner", "completeness", "warning"),  # a gap: the page shows English (the policy)
        ("In short", "markup", "error"),
    ):
        line = line_of(catalog, msgid)
        assert re.search(
            rf"{re.escape(shown)}:{line}: {severity}: \[{check}\] '{re.escape(msgid)}'", result.stdout
        ), msgid


@pytest.mark.slow
def test_syntax_error_exits_2_with_the_line(project: Path) -> None:
    shutil.copy(FIXTURES / "syntax_error.po", po(project, "nl"))
    result = cli_check(project)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert f"{po(project, 'nl')}:10:" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [("--format", "xml"), ("--lang", "xx"), ("--pages", "no/such/folder")],
    ids=["bad format", "unknown language", "missing pages folder"],
)
def test_bad_usage_exits_2(project: Path, args: tuple[str, ...]) -> None:
    result = cli_check(project, *args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "text"),
    [("nl/glossary.yaml", "hand rummy: [handrummy\n"), ("check.yaml", "min_translated:\n  nl: 150\n")],
    ids=["glossary", "check configuration"],
)
def test_unreadable_configuration_exits_2(project: Path, name: str, text: str) -> None:
    (project / "locales" / name).write_text(text, encoding="utf-8")
    result = cli_check(project)
    assert result.returncode == 2
    assert name in result.stderr and "Traceback" not in result.stderr


# ---------------------------------------------------------------- near misses: every check stays silent


@pytest.mark.parametrize(
    ("check", "code", "old", "new"),
    [
        # A .po's own source comments do not make it stale: only its messages count.
        ("stale", "nl", '\nmsgid "Joker"', '\n#: elsewhere:1\nmsgid "Joker"'),
        # A translation equal to the source is a translation.
        ("completeness", "nl", 'msgstr "Spelers"', 'msgstr "Players"'),
        # Another order of the same placeholders.
        ("placeholders", "nl", 'msgstr "Tegenstander %(number)s"', 'msgstr "%(number)s. tegenstander"'),
        # Angle brackets and underscores that are no markup.
        ("markup", "nl", 'msgstr "In het kort"', 'msgstr "In het kort: x <= y, a_b_c, x * y * z"'),
        # The same rule written with other spacing.
        ("plural-forms", "pt", "nplurals=3; plural=(n == 1 ? 0 : n", "nplurals=3;plural=(n == 1 ? 0 : n"),
        # An inflected term: "tegenstanders" contains the stem "tegenstander".
        ("terminology", "nl", "elke tegenstander krijgt", "alle tegenstanders krijgen"),
        # Markdown-looking text in a translation is escaped: no table cell, no template syntax.
        ("rendering", "nl", 'msgstr "In het kort"', 'msgstr "In het | kort * %%"'),
    ],
)
def test_near_misses_stay_silent(project: Path, check: str, code: str, old: str, new: str) -> None:
    edit(po(project, code), old, new)
    findings = run(project)
    assert of(findings, check) == []
    assert findings == []


def test_terminology_needs_whole_english_words() -> None:
    assert whole_word("open", "Open the game")
    assert not whole_word("open", "reopening the game")
    assert whole_word("hand rummy", "Going hand rummy means")


# ---------------------------------------------------------------- 1. stale


def test_stale_template_names_new_and_vanished_messages(project: Path) -> None:
    edit(project / "templates" / "scoring.md.j2", '_("In short")', '_("In brief")')
    found = of(run(project, only=[]), "stale", "en")
    template_line = line_of(project / "templates" / "scoring.md.j2", '## {{ _("In brief")')
    new = [f for f in found if f.msgid == "In brief"]
    gone = [f for f in found if f.msgid == "In short"]
    assert [(f.path, f.line) for f in new] == [(str(project / "templates" / "scoring.md.j2"), template_line)]
    assert [(f.path, f.line) for f in gone] == [
        (str(project / "locales" / "messages.pot"), line_of(project / "locales" / "messages.pot", "In short"))
    ]
    assert all(f.severity is Severity.ERROR for f in found)


def test_source_lines_that_only_moved_are_not_stale(project: Path) -> None:
    """A line above a template's messages, or above `theme:` in mkdocs.yml (the README's own
    `site_url:` step), moves references: no finding; `catalog extract` still writes the new lines."""
    template = project / "templates" / "index.md.j2"
    template.write_text("\n" + template.read_text(encoding="utf-8"), encoding="utf-8")
    edit(project / "mkdocs.yml", "\ntheme:", "\nsite_url: https://example.org/help/\ntheme:")
    assert of(run(project, only=[]), "stale", "en") == []
    theme_line = line_of(project / "mkdocs.yml", "theme:")
    assert cli.main(["--root", str(project), "catalog", "extract"]) == 0
    pot = (project / "locales" / "messages.pot").read_text("utf-8")
    assert f"mkdocs.yml:{theme_line}" in pot and "templates/index.md.j2:3" in pot


def test_stale_template_when_only_a_comment_changed(project: Path) -> None:
    edit(
        project / "templates" / "index.md.j2", "{# Translators: the home page's", "{# Translators: the page's"
    )
    found = of(run(project, only=[]), "stale", "en")
    assert len(found) == 1
    assert "differs from a fresh extraction (comments, source files or plurals)" in found[0].message
    assert "-#. the home page's" in found[0].detail and "+#. the page's" in found[0].detail
    assert "#: templates/index.md.j2\n" in found[0].detail + "\n"  # references without line numbers


def test_stale_catalog_missing_extra_and_obsolete_entries(project: Path) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgid "Players"\nmsgstr "Spelers"\n', 'msgid "Players?"\nmsgstr "Spelers"\n')
    catalog.write_text(
        catalog.read_text(encoding="utf-8") + '\n#~ msgid "Old text"\n#~ msgstr "Oude tekst"\n',
        encoding="utf-8",
    )
    found = of(run(project, only=["nl"]), "stale", "nl")
    by_msgid = {f.msgid: f for f in found}
    assert set(by_msgid) == {"Players", "Players?", "Old text"}
    assert "missing from the catalog" in by_msgid["Players"].message
    assert by_msgid["Players?"].line == line_of(catalog, "Players?")
    assert by_msgid["Players?"].severity is Severity.ERROR
    assert by_msgid["Old text"].severity is Severity.WARNING
    assert by_msgid["Old text"].line == line_of(catalog, '#~ msgid "Old text"')


# ---------------------------------------------------------------- 2. completeness


def test_completeness_untranslated_and_fuzzy(project: Path) -> None:
    catalog = po(project, "da")
    edit(catalog, 'msgstr "Spillere"', 'msgstr ""')
    edit(catalog, 'msgid "Target"\n', '#, fuzzy\nmsgid "Target"\n')
    findings = run(project, only=["da"])
    found = of(findings, "completeness", "da")
    assert {(f.msgid, f.line) for f in found} == {
        ("Players", line_of(catalog, "Players")),
        ("Target", line_of(catalog, "Target")),
    }
    assert all(f.severity is Severity.WARNING for f in found)  # never errors: the page shows English
    untranslated = next(f.message for f in found if f.msgid == "Players")
    assert untranslated.startswith("untranslated:") and "translate it at this line" in untranslated
    fuzzy = next(f.message for f in found if f.msgid == "Target")
    assert fuzzy.startswith("fuzzy:") and "remove the `#, fuzzy` flag" in fuzzy
    assert of(findings, "threshold", "da") == []  # 1 of 173 missing: far above 80 %


@pytest.mark.slow
def test_a_language_below_its_threshold_warns_and_says_how_far(project: Path) -> None:
    (project / "locales" / "check.yaml").write_text("min_translated:\n  default: 100\n", encoding="utf-8")
    catalog = po(project, "da")
    edit(catalog, 'msgstr "Spillere"', 'msgstr ""')
    edit(catalog, 'msgstr "Vinder"', 'msgstr ""')
    total = pot_messages(project)
    found = of(run(project), "threshold")
    assert [(f.locale, f.severity, f.line) for f in found] == [("da", Severity.WARNING, None)]
    assert found[0].message.startswith(
        f"{total - 2} of {total} messages translated ({(total - 2) * 100 // total}%), below the 100%"
    )
    assert (
        "left out of the language switcher and hreflang links; translate 2 more message(s)"
        in found[0].message
    )
    assert cli_check(project).returncode == 0


@pytest.mark.slow
def test_completeness_threshold_and_unpublished_languages_warn(project: Path) -> None:
    edit(po(project, "da"), 'msgstr "Spillere"', 'msgstr ""')
    edit(po(project, "nl"), 'msgstr "Spelers"', 'msgstr ""')
    (project / "locales" / "check.yaml").write_text("min_translated:\n  da: 95\n", encoding="utf-8")
    edit(
        project / "mkdocs.yml",
        "      strict: !ENV [RULESDOC_STRICT, true]\n",
        "      strict: !ENV [RULESDOC_STRICT, true]\n      languages: [en, da, ms, pt]\n",
    )
    findings = run(project)
    assert [f.severity for f in of(findings, "completeness", "da")] == [Severity.WARNING]  # 122/123 ≥ 95 %
    assert [f.severity for f in of(findings, "completeness", "nl")] == [
        Severity.WARNING
    ]  # nl is not published
    assert cli_check(project).returncode == 0


# ---------------------------------------------------------------- 3. placeholders


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            'msgstr "Tegenstander %(number)s"',
            'msgstr "Tegenstander %(nummer)s"',
            "%(nummer)s where the source has",
        ),
        ('msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander"', "lacks %(number)s"),
        (
            'msgstr "Tegenstander %(number)s"',
            'msgstr "Tegenstander %(number)d"',
            "%(number)d where the source",
        ),
        ('msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander %s"', "positional %s"),
        ('msgstr "Tegenstander %(number)s"', 'msgstr "100% Tegenstander %(number)s"', "lone '%'"),
        (
            'msgstr "Tegenstander %(number)s"',
            'msgstr "Tegenstander {{ number }}"',
            "{{ number }} is not filled",
        ),
        ('msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander {number}"', "{number} is not filled"),
    ],
    ids=["renamed", "lost", "conversion", "positional", "lone percent", "jinja", "braces"],
)
def test_placeholders_fire(project: Path, old: str, new: str, says: str) -> None:
    catalog = po(project, "nl")
    edit(catalog, old, new)
    found = of(run(project, only=["nl"]), "placeholders", "nl")
    assert {(f.msgid, f.line) for f in found} == {
        ("Opponent %(number)s", line_of(catalog, "Opponent %(number)s"))
    }
    assert any(says in f.message for f in found), [f.message for f in found]


def test_placeholders_every_plural_form_is_checked(project: Path) -> None:
    catalog = po(project, "pt")
    edit(catalog, 'msgstr[2] "%(points)s pontos"', 'msgstr[2] "%(pontos)s pontos"')
    found = of(run(project, only=["pt"]), "placeholders", "pt")
    assert [(f.msgid, f.line) for f in found] == [("%(points)s point", line_of(catalog, "%(points)s point"))]
    assert found[0].message.startswith("plural form 2:")


def test_a_singular_form_used_for_one_number_may_spell_the_count(project: Path) -> None:
    # Dutch and Portuguese use form 0 for n = 1 only: "één punt", "um ponto" lose nothing.
    edit(po(project, "nl"), 'msgstr[0] "%(points)s punt"', 'msgstr[0] "één punt"')
    edit(po(project, "pt"), 'msgstr[0] "%(points)s ponto"', 'msgstr[0] "um ponto"')
    # ... but only the count: the ace's value must still be printed.
    ace = "Een aas die onderaan een reeks maar %(low)s punt waard was, kost %(ace)s punten"
    edit(
        po(project, "nl"),
        f'msgstr[0] "{ace}',
        'msgstr[0] "Een aas die onderaan een reeks maar één punt waard was, kost 11 punten',
    )
    found = of(run(project), "placeholders")
    assert [(f.locale, f.msgid[:20], f.message) for f in found] == [
        (
            "nl",
            "An ace that was wort",
            f"plural form 0: lacks %(ace)s: the page would leave that value out; {FIX}",
        )
    ]


def test_a_form_used_for_several_numbers_must_print_the_count(project: Path) -> None:
    # Hindi's form 0 serves 0 and 1; Malay's only form serves every number.
    hindi = project / "locales" / "hi" / "LC_MESSAGES"
    hindi.mkdir(parents=True)
    shutil.copy(FIXTURES / "hi_count.po", hindi / "messages.po")
    edit(po(project, "ms"), 'msgstr[0] "%(points)s mata"', 'msgstr[0] "satu mata"')
    found = of(run(project), "placeholders")
    assert {(f.locale, f.line) for f in found} == {
        ("hi", line_of(hindi / "messages.po", "%(points)s point")),
        ("ms", line_of(po(project, "ms"), "%(points)s point")),
    }
    hi = next(f for f in found if f.locale == "hi")
    assert "plural form 0: lacks the count %(points)s, yet this form is used for n = 0, 1" in hi.message


def test_placeholders_silent_when_order_changes(project: Path) -> None:
    old = "Een aas die onderaan een reeks maar %(low)s punten waard was, kost %(ace)s punten"
    edit(
        po(project, "nl"),
        old,
        "Kost %(ace)s punten: een aas die onderaan een reeks maar %(low)s punten waard was",
    )
    assert of(run(project), "placeholders") == []


def test_placeholder_parser() -> None:
    found = printf.scan("%(a)s and %(b)d, 100%% {c} {{ d }} %s and 5% more %(w)99s")
    assert found.named == {"a", "b", "w"}
    assert [p.text for p in found.positional] == ["%s"]
    assert found.lone_percents == 1
    assert set(found.foreign) == {"{c}", "{{ d }}"}
    assert [p.plain for p in found.placeholders] == [True, False, False, False]
    assert not printf.scan("50%% of %(x)s").lone_percents
    assert printf.split("a %(x)s b %% c") == ["a ", "%(x)s", " b ", "%%", " c"]


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ('msgstr "Tegenstander %(number)99999999s"', "a width or precision is unbounded work"),
        ('msgstr "Tegenstander %(number).5s"', "a width or precision is unbounded work"),
        ('msgstr "Tegenstander %(number)r"', "the page would misprint"),
    ],
    ids=["width", "precision", "repr"],
)
def test_a_width_precision_or_other_conversion_is_refused(project: Path, new: str, says: str) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "Tegenstander %(number)s"', new)
    found = of(run(project, only=["nl"]), "placeholders", "nl")
    assert [(f.msgid, f.line) for f in found] == [
        ("Opponent %(number)s", line_of(catalog, "Opponent %(number)s"))
    ]
    assert says in found[0].message


# ---------------------------------------------------------------- 4. markup


@pytest.mark.parametrize(
    ("new", "says"),
    [
        ("In het kort<script>alert(1)</script>", "adds HTML <script> </script>"),
        ('In het <img src="x.png" onerror="alert(1)"> kort', "adds HTML <img onerror=alert(1) src=x.png>"),
        ("In het **kort**", "adds **strong**"),
        ("In het [kort](https://example.com)", "adds link (https://example.com)"),
        ("In het `kort`", "adds `kort`"),
    ],
    ids=["script", "onerror", "strong", "link", "code"],
)
def test_markup_fires(project: Path, new: str, says: str) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "In het kort"', f"msgstr {json.dumps(new, ensure_ascii=False)}")
    found = of(run(project, only=["nl"]), "markup", "nl")
    assert [(f.msgid, f.line) for f in found] == [("In short", line_of(catalog, "In short"))]
    assert says in found[0].message


def test_markup_is_a_multiset_in_any_order() -> None:
    source = 'See <a href="x">the rules</a> and `code`, **not** *this*.'
    assert markup_tokens(source) == markup_tokens('*Dit* en **niet** `code`, zie <a href="x">de regels</a>.')
    assert markup_tokens(source) != markup_tokens('See <a href="y">the rules</a> and `code`, **not** *this*.')
    assert markup_tokens("per_opponent %(per_opponent)s and snake_case_word") == {}


def test_markup_silent_on_plain_text(project: Path) -> None:
    edit(po(project, "nl"), 'msgstr "In het kort"', 'msgstr "In het kort: 5 < 6 en a_b_c"')
    assert of(run(project), "markup") == []


# ---------------------------------------------------------------- 5. plural forms


@pytest.mark.slow
def test_a_conventional_plural_header_is_a_warning_and_the_page_follows_it(project: Path) -> None:
    # What GNU msginit gives Portuguese: two forms, where CLDR has three ("many" for a million).
    catalog = po(project, "pt")
    unwrap(catalog)
    text = catalog.read_text(encoding="utf-8")
    text = text.replace(
        "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
        "nplurals=2; plural=(n != 1);",
    )
    text = re.sub(r'msgstr\[1\] (".*")\nmsgstr\[2\] .*\n', r"msgstr[1] \1\n", text)
    catalog.write_text(text, encoding="utf-8")
    found = of(run(project), "plural-forms", "pt")
    assert [(f.severity, f.line, f.msgid) for f in found] == [
        (Severity.WARNING, line_of(catalog, '"Plural-Forms:'), "")
    ]
    assert "differs from CLDR's" in found[0].message and "form 1: n = 1000000" in found[0].message
    assert "rulesdoc catalog update --lang pt --plural-forms cldr" in found[0].message
    assert cli_check(project).returncode == 0


@pytest.mark.parametrize(
    "header",
    ["nplurals=2; plural=n != 1;", "nplurals=2; plural=(n!=1);", "nplurals=2;plural=(n != 1)"],
    ids=["weblate", "compact", "no final semicolon"],
)
def test_a_plural_header_with_cldrs_meaning_is_silent(project: Path, header: str) -> None:
    edit(po(project, "da"), "nplurals=2; plural=(n != 1);", header)
    assert of(run(project), "plural-forms") == []


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ("nplurals=2; plural=__import__('os').system('id');", "only n, numbers and C operators"),
        ("nplurals=1000000000; plural=0;", "nplurals=1000000000: a language has 1 to 6 plural forms"),
        ("nplurals=2; plural=n > 1 ? 2 : 0;", "picks form 2 for n = 2; nplurals is 2"),
    ],
    ids=["python", "a billion forms", "out of range"],
)
def test_a_plural_header_that_cannot_be_used_is_a_finding_not_an_abort(
    project: Path, header: str, says: str
) -> None:
    catalog = po(project, "da")
    edit(catalog, "nplurals=2; plural=(n != 1);", header)
    found = run(project)
    plural = of(found, "plural-forms", "da")
    assert [(f.severity, f.line) for f in plural] == [(Severity.ERROR, line_of(catalog, '"Plural-Forms:'))]
    assert says in plural[0].message
    assert of(found, "completeness", "en") == []  # the other languages are still checked


def test_plural_entry_with_too_few_forms(project: Path) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr[1] "%(points)s punten"\n', "")
    found = of(run(project, only=["nl"]), "plural-forms", "nl")
    assert [(f.msgid, f.line, f.message) for f in found] == [
        (
            "%(points)s point",
            line_of(catalog, "%(points)s point"),
            f"has 1 plural form(s), the Plural-Forms header says 2; {FIX}",
        )
    ]


# ---------------------------------------------------------------- 6. terminology


def test_terminology_names_the_users_dutch_and_hindi_sentences(project: Path) -> None:
    for code, fixture in (("nl", "nl_seed_terms.po"), ("hi", "hi_seed_terms.po")):
        po(project, code).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURES / fixture, po(project, code))
    shutil.copy(FIXTURES / "hi_glossary.yaml", project / "locales" / "hi" / "glossary.yaml")
    # The sentences are the user's published ones.
    assert "Rami in één beurt met drie spelers" in (SEEDS / "nl.txt").read_text(encoding="utf-8")
    assert "तीन खिलाड़ियों के खेल में एक ही चाल में Rami" in (SEEDS / "hi.txt").read_text(encoding="utf-8")
    found = of(run(project), "terminology")
    title = "Hand rummy with three players"
    assert [(f.locale, f.path, f.line, f.msgid) for f in found] == [
        ("hi", str(po(project, "hi")), line_of(FIXTURES / "hi_seed_terms.po", title), title),
        ("nl", str(po(project, "nl")), line_of(FIXTURES / "nl_seed_terms.po", title), title),
    ]
    assert found[0].line == found[1].line == 10
    assert "(एक ही चाल में रमी)" in found[0].message and "(handrummy)" in found[1].message


def test_terminology_matches_whole_words_after_placeholders_are_removed(project: Path) -> None:
    # "Round points" speaks of the round; "%(surcharge)s" alone does not speak of the surcharge.
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "Punten van de ronde"', 'msgstr "Punten van het spel"')
    found = of(run(project, only=["nl"]), "terminology", "nl")
    assert [(f.msgid, f.line) for f in found] == [("Round points", line_of(catalog, "Round points"))]


def test_glossary_without_a_term_for_a_concept_warns(project: Path) -> None:
    edit(project / "locales" / "da" / "glossary.yaml", "surcharge: [tillæg]\n", "")
    found = of(run(project, only=["da"]), "terminology", "da")
    assert [(f.severity, Path(f.path).name) for f in found] == [(Severity.WARNING, "glossary.yaml")]
    assert "'surcharge'" in found[0].message


# ---------------------------------------------------------------- 7. rendering


def test_rendering_counts_table_cells_like_the_users_dutch_page(project: Path) -> None:
    # The user's Dutch page: each example row broke into a one-cell row and two lone pipes.
    seed = (SEEDS / "nl.txt").read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(seed) if line.startswith("| Situatie"))
    end = next(i for i, line in enumerate(seed) if line == "Het einde van het spel")
    page = RenderedPage("nl", "scoring.md", "# Punten tellen\n\n" + "\n".join(seed[start:end]) + "\n")
    workspace = Workspace.load(Project.at(project))
    subject = gather(workspace, read_policy(workspace.project.locales), ["nl"], extract_sources=False)[1]
    found = [dataclasses.replace(f, check="rendering") for f in _tables(subject, page)]
    rows = page.text.splitlines()[4:]
    assert len(found) == len(rows) == 12
    assert found[0].message == "nl/scoring.md line 5: table row has 1 cell(s), its header has 3"
    assert all(f.check == "rendering" and f.path.endswith("scoring.md.j2") for f in found)
    # The same table with its cells on one row each is fine.
    fixed = "| Situatie | Kaarten | Punten |\n|---|---|---|\n| a \\| b | `c | d` | e |\n"
    assert list(_tables(subject, RenderedPage("nl", "scoring.md", fixed))) == []


def test_table_row_with_a_missing_cell_in_a_template(project: Path) -> None:
    edit(
        project / "templates" / "scoring.md.j2", '| {{ _("Ace") }} | {{ num(f.ace) }} |', '| {{ _("Ace") }} |'
    )
    found = of(run(project), "rendering")
    assert {f.locale for f in found} == {"en", *COPIED_LANGUAGES}
    assert all("table row has 1 cell(s), its header has 2" in f.message for f in found)


def test_cells() -> None:
    assert cells("| a | b |") == 2
    assert cells("a | b") == 2
    assert cells("| a \\| b | `x | y` |") == 2
    assert cells("|") == 1


def test_template_syntax_in_a_translation_is_refused(project: Path) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "Punten tellen"', 'msgstr "Punten tellen {{ page.lang }}"')
    found = run(project)
    assert [(f.check, f.msgid, f.line) for f in found] == [
        ("placeholders", "Counting points", line_of(catalog, "Counting points"))
    ]
    assert "{{ page.lang }} is not filled in by the renderer" in found[0].message


def test_rendering_finds_template_syntax_left_on_the_page(project: Path) -> None:
    edit(project / "templates" / "index.md.j2", '# {{ _("Rami help") }}', '# {{ _("Rami help") }} {{ "{{" }}')
    found = of(run(project), "rendering")
    assert {f.locale for f in found} == {"en", *COPIED_LANGUAGES}
    assert all("index.md line 1: '{{' left on the page" in f.message for f in found)


def test_rendering_finds_english_source_text_on_a_translated_page(project: Path) -> None:
    catalog = po(project, "nl")
    english = "Every opponent pays the value of the cards left in their hand."
    edit(catalog, 'msgstr "In het kort"', f'msgstr "{english}"')
    found = of(run(project, only=["nl"]), "rendering", "nl")
    # The entry that carries the English text is named, and the message it comes from.
    assert [(f.msgid, f.line) for f in found] == [("In short", line_of(catalog, "In short"))]
    assert f"the translation contains the English source of {english[:39]!r}"[:60] in found[0].message


def test_rendering_finds_another_catalogs_sentence(project: Path) -> None:
    danish = "Kortene tilbage på hånden"
    assert danish in po(project, "da").read_text(encoding="utf-8")
    edit(po(project, "nl"), 'msgstr "In het kort"', f'msgstr "{danish}"')
    found = of(run(project, only=["nl"]), "rendering", "nl")
    assert [f.msgid for f in found] == ["In short"]
    assert "the translation contains the 'da' translation of 'The cards left in hand'" in found[0].message


def test_rendering_finds_english_written_into_a_template(project: Path) -> None:
    # Not a message: every translated page shows it in English.
    template = project / "templates" / "index.md.j2"
    template.write_text(template.read_text(encoding="utf-8") + "\nThe end of the game\n", encoding="utf-8")
    found = of(run(project), "rendering")
    assert {f.locale for f in found} == set(COPIED_LANGUAGES)
    nl = next(f for f in found if f.locale == "nl")
    assert (nl.msgid, nl.line) == ("The end of the game", line_of(po(project, "nl"), "The end of the game"))
    assert "nl/index.md: the English source of this message appears on the page" in nl.message


def test_a_refused_translation_hides_no_other_finding(project: Path) -> None:
    # A broken placeholder no longer breaks the page: the message shows in English, and the
    # language's other problems, and the other languages', are still found.
    edit(po(project, "nl"), 'msgstr "Tegenstander %(number)s"', 'msgstr "Tegenstander %(nummer)s"')
    edit(po(project, "nl"), 'msgstr "Winnaar"', 'msgstr ""')
    edit(po(project, "da"), 'msgstr "Spillere"', 'msgstr ""')
    findings = run(project)
    assert {(f.locale, f.check, f.msgid) for f in findings} == {
        ("nl", "placeholders", "Opponent %(number)s"),
        ("nl", "completeness", "Winner"),
        ("da", "completeness", "Players"),
    }


def test_rendering_silent_when_translation_equals_source(project: Path) -> None:
    # "Joker" is "Joker" in Dutch, and so is a whole sentence that happens to be the same.
    assert 'msgid "Joker"\nmsgstr "Joker"' in po(project, "nl").read_text(encoding="utf-8")
    assert of(run(project), "rendering") == []


# ---------------------------------------------------------------- 8. drift


@pytest.mark.slow
def test_drift_silent_on_fresh_pages_and_fires_with_a_diff(project: Path, tmp_path: Path) -> None:
    pages = tmp_path / "published"
    assert cli.main(["--root", str(project), "render", "--out", str(pages)]) == 0
    assert of(run(project, "--pages", str(pages)), "drift") == []

    page = pages / "nl" / "scoring.md"
    lines = page.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[2] = "Een oude zin.\n"
    page.write_text("".join(lines), encoding="utf-8")
    (pages / "da" / "index.md").unlink()
    (pages / "pt" / "old.md").write_text("# Velho\n", encoding="utf-8")

    found = of(run(project, "--pages", str(pages)), "drift")
    by_path = {Path(f.path).relative_to(pages).as_posix(): f for f in found}
    assert set(by_path) == {"nl/scoring.md", "da/index.md", "pt/old.md"}
    assert by_path["nl/scoring.md"].line == 3
    assert "-Een oude zin." in by_path["nl/scoring.md"].detail
    assert "page missing" in by_path["da/index.md"].message

    result = cli_check(project, "--pages", str(pages))
    assert result.returncode == 1
    assert "+++ nl/scoring.md (fresh render)" in result.stdout


@pytest.mark.slow
def test_lang_checks_one_language(project: Path, tmp_path: Path) -> None:
    pages = tmp_path / "published"
    assert cli.main(["--root", str(project), "render", "--out", str(pages)]) == 0
    # Its pages (the status page lists every language) are those `render` wrote.
    result = cli_check(project, "--lang", "nl", "--pages", str(pages))
    assert result.returncode == 0, result.stdout + result.stderr
    assert [line.split()[0] for line in result.stdout.splitlines()[-4:-2]] == ["en", "nl"]
    edit(po(project, "da"), 'msgstr "Modstander %(number)s"', 'msgstr "Modstander %(nummer)s"')
    shutil.copy(FIXTURES / "syntax_error.po", po(project, "ms"))  # not checked: read only if it can be
    assert cli_check(project, "--lang", "nl").returncode == 0
    assert cli_check(project, "--lang", "da").returncode == 1
    assert cli_check(project, "--lang", "ms").returncode == 2


# ---------------------------------------------------------------- output formats


@pytest.mark.slow
def test_json_and_github_formats(project: Path) -> None:
    catalog = po(project, "nl")
    edit(catalog, 'msgstr "Winnaar"', 'msgstr ""')
    result = cli_check(project, "--format", "json")
    assert result.returncode == 0  # a gap is a warning (the policy)
    data = json.loads(result.stdout)
    assert (data["errors"], data["warnings"]) == (0, 1)
    assert data["findings"] == [
        {
            "severity": "warning",
            "locale": "nl",
            "path": str(catalog),
            "line": line_of(catalog, "Winner"),
            "msgid": "Winner",
            "message": data["findings"][0]["message"],
            "check": "completeness",
            "detail": "",
        }
    ]
    total = pot_messages(project)
    nl = next(row for row in data["languages"] if row["code"] == "nl")
    assert (nl["translated"], nl["fuzzy"], nl["untranslated"], nl["errors"]) == (total - 1, 0, 1, 0)

    result = cli_check(project, "--format", "github")
    assert result.returncode == 0
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    template = project / "templates" / "scoring.md.j2"
    winner_line = line_of(template, "{% if seat.kind == Seat.WINNER %}")
    assert annotations == [
        f"::warning file={catalog},line={line_of(catalog, 'Winner')},title=rulesdoc completeness (nl)::"
        f"'Winner': untranslated: the page shows the English text (used at {template}:"
        f"{winner_line}); translate it at this line (Poedit, Weblate or a text editor), then `rulesdoc build`"
    ]


def test_cli_offers_every_format() -> None:
    from rulesdoc.cli.arguments import CHECK_FORMATS

    assert set(CHECK_FORMATS) == set(FORMATS)


def test_every_check_is_in_the_list() -> None:
    names = {check.id for check in REGISTRY}
    assert names == {
        "stale",
        "completeness",
        "threshold",
        "empty-folder",
        "placeholders",
        "markup",
        "plural-forms",
        "terminology",
        "rendering",
        "drift",
        "numbers",
        "urls",
        "whitespace",
        "doubled-words",
        "end-punctuation",
    }


# ---------------------------------------------------------------- pseudo-locale


def test_pseudo_text_keeps_placeholders_and_grows() -> None:
    text = pseudo.pseudo_text("Winner")
    assert text.startswith("[Ŵîññéŕ ") and text.endswith("]") and text.count("·") >= 3
    long = "Round points are added up: %(per_opponent)s point per opponent, 50%% more."
    shown = pseudo.pseudo_text(long)
    assert "%(per_opponent)s" in shown and "%%" in shown

    def visible(text: str) -> str:
        return re.sub(r"%\(\w+\)s|%%", "", text)

    assert len(visible(shown)) >= 1.4 * len(visible(long))
    assert not re.search(r"[A-Za-z]{2,}", re.sub(r"%\(\w+\)s", "", shown))


def test_pseudo_locale_renders_and_leaves_no_english_sentence(tmp_path: Path) -> None:
    out, pages = tmp_path / "pseudo", tmp_path / "pages"
    assert cli.main(["--root", str(ROOT), "catalog", "pseudo", "--out", str(out)]) == 0
    assert (out / "en-XA" / "LC_MESSAGES" / "messages.po").is_file()
    assert not (ROOT / "locales" / "en-XA").exists()  # never published by default
    assert cli.main(["--root", str(ROOT), "render", "--locales", str(out), "--out", str(pages)]) == 0
    assert sorted(p.name for p in pages.iterdir() if not p.name.startswith(".")) == ["en", "en-XA"]
    for english_page in sorted((pages / "en").glob("*.md")):
        pseudo_page = pages / "en-XA" / english_page.name
        pseudo_text = _visible(pseudo_page.read_text(encoding="utf-8"))
        sentences = [
            s
            for s in _sentences(_visible(english_page.read_text(encoding="utf-8")))
            if len(s.split()) >= 2 and "`" not in s  # "English (`en`)": a language's own name, no message
        ]
        assert sentences, english_page
        left = [s for s in sentences if s in pseudo_text]
        assert left == [], f"{pseudo_page.name}: English left on the pseudo page: {left}"
    # Everything visible on the rules pages comes from the catalog (names of languages aside),
    # but the words CLDR joins a list with in the pseudo-locale's own locale: "2 or 3 players"
    # is said only under some values (a cap fraction of 0.4), and CLDR, not a catalog, says "or".
    language = next(lang for lang in discover_languages(out) if lang.code == PSEUDO_CODE)
    joining = {
        word
        for style in ("standard", "or")
        for pattern in language.locale.list_patterns[style].values()
        for word in re.findall(r"[A-Za-z]{2,}", pattern)
    }
    for name in ("index.md", "scoring.md"):
        text = _visible((pages / "en-XA" / name).read_text(encoding="utf-8"))
        words = [word for word in re.findall(r"[A-Za-z]{2,}", text) if word not in joining]
        assert words == [], f"{name}: untranslatable text {words[:10]}"


def _visible(markdown: str) -> str:
    """The text a reader sees: no tags, link targets, block markers or Markdown escapes."""
    text = re.sub(r"<script\b.*?</script>", " ", markdown, flags=re.S)  # data, not text (the calculator's)
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"\]\([^)]*\)", "] ", text)
    text = re.sub(r"^///.*$", " ", text, flags=re.MULTILINE)
    return re.sub(r"\\(.)", r"\1", text)


def _sentences(text: str) -> list[str]:
    parts = re.split(r"[|\n.:;!?#*]+|\s-\s", text)
    return [" ".join(part.split()) for part in parts if re.search(r"[A-Za-z]{2,}", part)]


def test_check_finds_nothing_wrong_with_the_pseudo_catalog(tmp_path: Path) -> None:
    out = tmp_path / "pseudo"
    pseudo.write_pseudo(ROOT / "locales", out)
    language = next(lang for lang in discover_languages(out) if lang.code == PSEUDO_CODE)
    assert str(language.locale) == "en_001"
    root = make_project(tmp_path)
    shutil.copytree(out / "en-XA", root / "locales" / "en-XA")
    findings = [f for f in run(root, only=["en-XA"]) if f.locale == "en-XA"]
    # The pseudo-locale has no glossary: that one warning, nothing else.
    assert [(f.check, f.severity) for f in findings] == [("terminology", Severity.WARNING)]


# ---------------------------------------------------------------- CI files


@pytest.mark.slow
def test_workflow_runs_real_commands() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "site.yml").read_text(encoding="utf-8"))
    triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    uses = {step["uses"].split("@")[0] for step in steps if "uses" in step}
    assert {"actions/upload-pages-artifact", "actions/deploy-pages"} <= uses
    deploy = workflow["jobs"]["deploy"]
    assert deploy["permissions"]["pages"] == "write" and deploy["permissions"]["id-token"] == "write"
    commands = [
        line.strip()
        for step in steps
        if "run" in step
        for line in step["run"].splitlines()
        if line.strip() and not line.strip().startswith(("#", "export "))
    ]
    assert "rulesdoc check --format github" in commands
    assert "mkdocs build --strict" in commands
    for command in commands:
        words = command.split()
        tool_words = words[3:] if words[:3] == ["python", "-m", "rulesdoc"] else words[1:]
        if words[0] == "rulesdoc" or words[:3] == ["python", "-m", "rulesdoc"]:
            with pytest.raises(SystemExit) as help_exit:
                cli._parser().parse_args([*tool_words, "--help"])
            assert help_exit.value.code == 0, command
        elif words[0] == "mkdocs":
            mkdocs = Path(sys.executable).parent / "mkdocs"
            result = subprocess.run([str(mkdocs), *words[1:2], "--help"], capture_output=True, text=True)
            assert result.returncode == 0 and all(w in result.stdout for w in words[2:]), command


def test_pre_commit_hook() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == "rulesdoc-check")
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    assert hook["entry"] == "rulesdoc check"
    pattern = re.compile(hook["files"])
    assert all(
        pattern.search(p)
        for p in ("rules.yaml", "templates/scoring.md.j2", "locales/nl/LC_MESSAGES/messages.po")
    )
    assert not pattern.search("generator/engine/scoring.py")
    with pytest.raises(SystemExit) as help_exit:
        cli._parser().parse_args([*hook["entry"].split()[1:], "--help"])
    assert help_exit.value.code == 0


# ---------------------------------------------------------------- the repository itself


@pytest.mark.slow
def test_repository_passes() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_threshold_is_met_exactly() -> None:
    """7 of 10 meets 70 %: as floats, 7 / 10 is a hair under Fraction(7, 10) and would miss it."""
    from fractions import Fraction

    from rulesdoc.i18n.policy import DEFAULT_MIN_TRANSLATED, Policy

    seventy = Policy({"default": Fraction(70, 100)})
    assert seventy.offers("da", 7, 10) and not seventy.offers("da", 6, 10)
    assert Policy().threshold("sw") == DEFAULT_MIN_TRANSLATED == Fraction(4, 5)
    assert Policy().offers("sw", 0, 0)  # nothing to translate: nothing missing


# ---------------------------------------------------------------- bounded output (issue 32, item 10)


def obsolete_entries(root: Path, code: str, count: int) -> None:
    with po(root, code).open("a", encoding="utf-8") as catalog:
        catalog.write("".join(f'\n#~ msgid "old {i}"\n#~ msgstr "gammel {i}"\n' for i in range(count)))


def test_findings_of_one_kind_are_counted_past_the_first_ones(project: Path) -> None:
    """120,000 obsolete entries printed 22 MB; now SHOWN_ALIKE lines and one that counts the rest."""
    from rulesdoc.lint.model import SHOWN_ALIKE

    obsolete_entries(project, "da", SHOWN_ALIKE + 30)
    path = str(po(project, "da"))  # as given: --root is absolute
    summary = f"… and 30 more [stale] warnings like these in {path}"
    text = cli_check(project, "--lang", "da")
    stale = [line for line in text.stdout.splitlines() if "[stale]" in line]
    assert len(stale) == SHOWN_ALIKE + 1 and stale[-1] == f"  {summary}"
    assert "0 error(s), 50 warning(s)" in text.stdout  # the verdict keeps the true count

    github = cli_check(project, "--lang", "da", "--format", "github").stdout.splitlines()
    assert sum("[stale]" in line or "rulesdoc stale" in line for line in github) == SHOWN_ALIKE + 1
    assert f"::warning file={path},title=rulesdoc stale (da)::{summary}" in github

    report = json.loads(cli_check(project, "--lang", "da", "--format", "json").stdout)
    assert sum(f["check"] == "stale" for f in report["findings"]) == SHOWN_ALIKE
    assert report["more"] == [
        {"severity": "warning", "locale": "da", "path": path, "check": "stale", "count": 30}
    ]
    assert report["warnings"] == 50

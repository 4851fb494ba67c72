"""pofilter parity (issue 31): what translate-toolkit's ``pofilter`` flags that matters on these
pages, ``rulesdoc check`` reports too.

One fixture catalog seeds one fault per entry (``tests/fixtures/pofilter/nl_faults.po``); each
case asserts that our check reports that entry at its line and, where pofilter is installed
(the test extra), that pofilter flags it with the test the translator's guide's table pairs it with. The
shipped catalogs go through both tools as well: every flag pofilter raises there under a paired
test is either one of ours or one of the two differences the translator's guide explains.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from support import ROOT
from test_lint import line_of, make_project, po, run

from rulesdoc import lint
from rulesdoc.catalog.po import Key, forms, ids, key_of
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.policy import read_policy
from rulesdoc.io.project import Project
from rulesdoc.lint.model import Finding
from rulesdoc.lint.wording import doubled, end_mark, numbers, same_end
from rulesdoc.pages.render import Workspace
from rulesdoc.site.options import site_options

FAULTS = ROOT / "tests" / "fixtures" / "pofilter" / "nl_faults.po"
POFILTER = shutil.which("pofilter", path=str(Path(sys.executable).parent)) or shutil.which("pofilter")

# pofilter test -> our check id, and the entry of nl_faults.po that seeds the fault.
CASES = [
    ("printf", "placeholders", "Opponent %(number)s", None),
    ("pythonbraceformat", "placeholders", "Opponent %(number)s, never opened", None),
    ("xmltags", "markup", "In short", None),
    ("urls", "urls", "Counting points", None),
    ("emails", "urls", "Translation status", None),
    ("numbers", "numbers", "404 - Not found", "theme"),
    ("doublewords", "doubled-words", "Every opponent pays the value of the cards left in their hand.", None),
    ("doublespacing", "whitespace", "Whatever the number of players, the fixed cap is the lower one.", None),
    ("startwhitespace", "whitespace", "Worked examples", None),
    ("endwhitespace", "whitespace", "Three special cases", None),
    ("tabs", "whitespace", "The blocked round", None),
    ("newlines", "whitespace", "Jack, queen, king", None),
    ("endpunc", "end-punctuation", "Note: in hand, the ace costs more than when it is laid down.", None),
    ("endpunc", "end-punctuation", "Two to ten", None),
    ("blank", "whitespace", "Points", None),
    ("untranslated", "completeness", "Winner", None),
    ("isfuzzy", "completeness", "Card", None),
    ("nplurals", "plural-forms", "%(points)s point", None),
]
# pofilter's numbers test counts the source's numbers in the translation: one typed in is
# no difference to it. Ours refuses it (a number on these pages comes from the engine).
MISSED_BY_POFILTER = [("numbers", "numbers", "The cards left in hand", None)]
PAIRED_TESTS = sorted({test for test, *_ in CASES})


def pofilter_flags(catalog: Path, code: str, tests: list[str], out: Path) -> dict[Key, set[str]]:
    """What pofilter flags in ``catalog``: each entry's key with the names of the tests it fails."""
    assert POFILTER is not None
    subprocess.run(
        [
            POFILTER,
            "--progress=none",
            f"--language={code}",
            *(f"--test={t}" for t in tests),
            str(catalog),
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    flags: dict[Key, set[str]] = defaultdict(set)
    if not out.exists():  # pofilter writes nothing when nothing fails
        return flags
    with out.open("rb") as handle:
        for message in read_po(handle):
            for comment in message.user_comments:
                if comment.startswith("(pofilter) "):
                    flags[key_of(message)].add(comment.removeprefix("(pofilter) ").split(":")[0])
    return flags


@pytest.fixture(scope="module")
def ours(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Finding]]:
    root = make_project(tmp_path_factory.mktemp("faults"))
    shutil.copy(FAULTS, po(root, "nl"))
    return po(root, "nl"), run(root, only=["nl"])


@pytest.fixture(scope="module")
def theirs(tmp_path_factory: pytest.TempPathFactory) -> dict[Key, set[str]]:
    if POFILTER is None:
        return {}
    return pofilter_flags(FAULTS, "nl", [], tmp_path_factory.mktemp("pofilter") / "flagged.po")


@pytest.mark.slow
@pytest.mark.parametrize(("test", "check", "msgid", "context"), CASES + MISSED_BY_POFILTER)
def test_check_reports_what_pofilter_flags(
    test: str,
    check: str,
    msgid: str,
    context: str | None,
    ours: tuple[Path, list[Finding]],
    theirs: dict[Key, set[str]],
) -> None:
    catalog, findings = ours
    mine = [f for f in findings if f.locale == "nl" and f.msgid == msgid and f.check == check]
    assert mine, f"[{check}] does not report the seeded {test} fault of {msgid!r}"
    assert {f.line for f in mine} == {line_of(catalog, msgid)}
    if POFILTER is None:
        pytest.skip("pofilter (translate-toolkit, the test extra) is not installed: our half passed")
    flagged = theirs.get((msgid, context), set())
    if (test, check, msgid, context) in MISSED_BY_POFILTER:
        assert test not in flagged  # the day pofilter catches it, move the case to CASES
    else:
        assert test in flagged, f"pofilter flags {sorted(flagged)} on {msgid!r}, not {test}"


@pytest.mark.slow
@pytest.mark.skipif(POFILTER is None, reason="pofilter (translate-toolkit, the test extra) is not installed")
def test_every_pofilter_flag_on_the_shipped_catalogs_is_ours_or_explained(tmp_path: Path) -> None:
    project = Project.at(ROOT)
    policy = read_policy(project.locales, site_options(ROOT / "mkdocs.yml").languages, ROOT)
    workspace = Workspace.load(project)
    report = lint.run(lint.gather(workspace, policy))
    reported = {(f.locale, f.msgid) for f in report.findings}
    unexplained = []
    for language in workspace.languages:
        if language.catalog is None:
            continue
        entries = {key_of(m): m for m in language.catalog.messages()}
        flags = pofilter_flags(
            language.catalog.path, language.code, PAIRED_TESTS, tmp_path / f"{language.code}.po"
        )
        for key, tests in flags.items():
            for test in sorted(tests):
                header = language.catalog.plural_forms
                nplurals = header.count if header is not None else 0
                if (language.code, key[0]) in reported or _explained(test, entries[key], nplurals):
                    continue
                unexplained.append(f"{language.code} [{test}] {key[0]!r}")
    assert unexplained == [], "\n".join(unexplained)


def _explained(test: str, message: object, nplurals: int) -> bool:
    """The translator's guide's differences: a value the translation names twice (pofilter counts printf
    variables; the page fills each name every time), another script's full stop (Hindi's "।"
    where English has ".": pofilter's endpunc compares characters), and the number of plural
    forms (pofilter takes it from its own table, two for Portuguese; the page follows the
    catalog's header, CLDR's three, which the plural-forms check holds to CLDR)."""
    from babel.messages.catalog import Message

    assert isinstance(message, Message)
    sources = ids(message)
    if test == "printf":
        names = {p.name for s in sources for p in printf.scan(s).placeholders}
        return all(
            {p.name for p in printf.scan(form).placeholders} == names for form in forms(message.string)
        )
    if test == "endpunc":
        return all(
            end_mark(form) == end_mark(sources[min(i, len(sources) - 1)])
            for i, form in enumerate(forms(message.string))
        )
    if test == "nplurals":
        return len(forms(message.string)) == nplurals
    return False


# ---------------------------------------------------------------- near misses of the new checks


def test_numbers_are_compared_by_value_in_any_script() -> None:
    assert numbers("४०४ - पृष्ठ नहीं मिला") == numbers("404 - Not found") == {"404"}
    assert numbers("1.000 of 2") == numbers("2, 1 and 000") == {"0", "1", "2"}
    assert numbers("9" * 10_000 + " 07") == {"9" * 10_000, "7"}  # no int(): Python caps its digits


def test_a_word_either_side_of_a_value_is_no_doubled_word() -> None:
    assert doubled(printf.literal_runs("van %(share)s van de spelgrens")) == []
    assert doubled(["de de waarde", "Dat, dat."]) == ["de", "dat"]
    assert doubled(["कि कैसे गिने"]) == []  # a vowel sign is part of its word


@pytest.mark.parametrize(
    ("source", "translation"),
    [
        ("It is laid down.", "यह नीचे रखा जाता है।"),  # Hindi's full stop
        ("Counting points", '"Punten tellen"'),  # quotes around
        ("The *winner* scores 0.", "De *winnaar* krijgt 0."),
        ("See the target (300).", "Zie de spelgrens (300)."),
        ("Note:", "Let op :"),
    ],
)
def test_end_punctuation_past_quotes_brackets_and_scripts(source: str, translation: str) -> None:
    assert end_mark(source) == end_mark(translation)


@pytest.mark.parametrize(
    ("source", "translation", "language", "same"),
    [
        ("It is over.", "จบแล้ว", "th", True),  # Thai ends a sentence without a mark
        ("It is over.", "Het is voorbij", "nl", False),
        ("Is it over?", "Τελείωσε;", "el", True),  # Greek's question mark, typed as ";"
        ("Is it over?", "Is het voorbij;", "nl", False),
        ("Is it over?", "Τελείωσε\u037e", "el", True),  # U+037E itself
    ],
)
def test_end_punctuation_follows_the_languages_rules(
    source: str, translation: str, language: str, same: bool
) -> None:
    assert same_end(source, translation, language) is same


def test_end_punctuation_tells_a_full_stop_from_a_colon_or_none() -> None:
    assert [end_mark(t) for t in ("Over.", "Over:", "Over", "Over…", "Over...", "Over?")] == [
        "full stop", "colon", None, "ellipsis", "ellipsis", "question mark"
    ]  # fmt: skip


def test_a_number_the_source_spells_out_may_be_written_in_digits() -> None:
    from rulesdoc.lint.wording import spelled_numbers

    assert spelled_numbers("Two to ten") == {"2", "10"}
    assert spelled_numbers("An ace worth only one point, the first card") == {"1"}
    assert spelled_numbers("Nonetheless, someone") == set()  # words, not parts of words

"""Catalogs round-trip with the translators' tools: what msgcat, msgmerge, Poedit or pybabel
write, ``catalog update`` turns back into the same bytes; headers say real things."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT
from support.env import dated_env

from rulesdoc.catalog import gettext_po, plurals, po, po_writer
from rulesdoc.cli import main as cli
from rulesdoc.i18n import catalogs, extraction

CATALOGS = sorted((ROOT / "locales").glob("*/LC_MESSAGES/messages.po")) + [ROOT / "locales" / "messages.pot"]
needs_gettext = pytest.mark.skipif(shutil.which("msgcat") is None, reason="GNU gettext is not installed")
ENV = dated_env()


def msgcat(data: bytes, *options: str) -> bytes:
    return subprocess.run(["msgcat", *options, "-"], input=data, capture_output=True, check=True).stdout


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """A copy of this project's inputs under git, to run tools on and diff."""
    for name in ("locales", "templates"):
        shutil.copytree(ROOT / name, tmp_path / name)
    for name in ("babel.cfg", "mkdocs.yml", "pyproject.toml", "rules.yaml"):
        shutil.copy(ROOT / name, tmp_path / name)
    for leftover in (tmp_path / "locales").rglob("*.mo"):
        leftover.unlink()
    git = ["git", "-c", "user.email=t@example.org", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "-A"], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "start"], cwd=tmp_path, check=True)
    return tmp_path


def update(project: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "catalog", "update", *args],
        cwd=project, env=ENV, capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def diff(project: Path) -> str:
    return subprocess.run(["git", "diff"], cwd=project, capture_output=True, text=True, check=True).stdout


# ---------------------------------------------------------------- the writer is msgcat


@pytest.mark.slow
@needs_gettext
@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parent.parent.name if p.suffix == ".po" else "pot")
def test_shipped_catalogs_are_what_msgcat_writes(path: Path) -> None:
    data = path.read_bytes()
    assert msgcat(data) == data
    loaded = po.load(path)
    assert po_writer.to_bytes(loaded.catalog, loaded.headers) == data


HARD_STRINGS = [
    "A very long sentence that certainly goes past the seventy-nine columns of a line, and more.",
    "Ends with a newline that must not be separated from the word before it at the edge of the line\n",
    'Quotes "inside" and a backslash \\ and a tab\there, then words words words words words words',
    "two\nlogical\nlines, the second one long enough to be filled over more than one line of the file",
    "hyphen-ated-words-that-go-on-and-on-and-on-without-a-single-space-until-the-line-must-break-x",
    "%(points)s points for %(count)d cards: the directives stay whole when the line is filled, always",
    "पान का इक्का, चिड़ी की दुक्की और ईंट की बेगम: हिंदी के शब्द भी पंक्ति के अंत पर सही जगह टूटते हैं।",
    "O jogador que fecha a mão ganha 20 pontos — e os outros pagam o valor das cartas (ás = 11).",
    "Kortene tæller: es 11, billedkort 10, joker 20 …  og resten deres pålydende værdi, også 2–9.",
    "A 1 234 567 € total, 50 % off, «quoted» and “curly” and ‘single’ marks ¿question? ¡bang!",
    "x" * 100,
    "",
]


@pytest.mark.slow
@needs_gettext
@pytest.mark.parametrize("prefix", ["", "#~ "])
def test_strings_are_filled_as_msgcat_fills_them(prefix: str) -> None:
    entries = [gettext_po.Entry("", ("Content-Type: text/plain; charset=UTF-8\n",))]
    for index, text in enumerate(HARD_STRINGS):
        entries.append(
            gettext_po.Entry(
                f"{index}: {text}",
                (text[::-1] or "x",),
                msgctxt="ctx" if index % 2 else None,
                references=[(f"templates/some/long/path/name_{n}.md.j2", n * 7) for n in range(index)],
                flags=("python-format", "fuzzy") if index % 3 == 0 else (),
                previous=(text[:50],) if index % 3 == 0 else (),
                translator_comments=("a translator's note",) if index % 4 == 0 else (),
                extracted_comments=(
                    "Translators: a long extracted comment is never wrapped by gettext " * 2,
                ),
                obsolete=bool(prefix),
            )
        )
    entries.append(gettext_po.Entry("one card", ("um", "muitos", ""), msgid_plural="%(n)s cards"))
    data = gettext_po.dumps(entries)
    assert msgcat(data) == data


@pytest.mark.slow
@needs_gettext
@pytest.mark.parametrize("prefix", ["", "#~ "])
def test_strings_at_the_edge_of_a_line_are_laid_out_as_msgcat_does(prefix: str) -> None:
    """Plain ASCII strings one column short of a line, filling it, one over (the writer lays out a
    string that fits at once, without the loop): msgcat must agree, each name and prefix."""
    entries = [gettext_po.Entry("", ("Content-Type: text/plain; charset=UTF-8\n",))]
    for length in range(60, 82):
        word = "w" * (length % 7 + 1)
        text = (f"{word} " * length)[:length]
        entries.append(
            gettext_po.Entry(
                text, (text.upper(),), msgctxt=text[::-1], previous=(text,), obsolete=bool(prefix)
            )
        )
        entries.append(gettext_po.Entry(f"{text}?", (f"{text}!", f"{text}."), msgid_plural=f"{text}s"))
    data = gettext_po.dumps(entries)
    assert msgcat(data) == data


def test_fill_breaks_at_spaces_before_the_limit() -> None:
    # Worked by hand: `msgid "` takes 7 columns, a line holds 77 between its quotes.
    lines = gettext_po.wrap("", "msgid", "word " * 20)
    assert lines[0] == 'msgid ""'
    assert lines[1] == '"' + "word " * 15 + '"'  # 75 columns; one more word would make 80
    assert lines[2] == '"' + "word " * 5 + '"'


def test_an_obsolete_entry_without_translation_is_dropped_as_gettext_does() -> None:
    entries = [
        gettext_po.Entry("kept", ("mantido",), obsolete=True),
        gettext_po.Entry("gone", ("",), obsolete=True),
    ]
    text = gettext_po.dumps(entries).decode()
    assert '#~ msgid "kept"' in text and "gone" not in text


# ---------------------------------------------------------------- round trips through the tools


@pytest.mark.slow
@needs_gettext
def test_msgcat_and_weblate_width_then_update_gives_no_diff(project: Path) -> None:
    catalog = project / "locales/hi/LC_MESSAGES/messages.po"
    for width in ("79", "77"):  # msgcat's and Poedit's width; Weblate's
        catalog.write_bytes(msgcat(catalog.read_bytes(), "-w", width))
        update(project, "--lang", "hi")
        assert diff(project) == ""


@pytest.mark.slow
@needs_gettext
def test_msgmerge_then_update_gives_no_diff(project: Path) -> None:
    catalog = project / "locales/nl/LC_MESSAGES/messages.po"
    subprocess.run(
        ["msgmerge", "-q", "-U", "--backup=none", str(catalog), str(project / "locales/messages.pot")],
        check=True,
    )
    update(project, "--lang", "nl")
    assert diff(project) == ""


@pytest.mark.slow
def test_pybabel_update_then_update_gives_no_diff(project: Path) -> None:
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "update", "-i", "locales/messages.pot", "-d", "locales", "-D", "messages", "-l", "pt"],
        cwd=project, capture_output=True, check=True,
    )  # fmt: skip
    assert diff(project) != ""  # Babel fills at 76 and writes its own header
    update(project, "--lang", "pt")
    assert diff(project) == ""


@pytest.mark.slow
def test_a_poedit_save_keeps_its_headers_and_a_changed_entry_is_the_only_diff(project: Path) -> None:
    catalog = project / "locales/da/LC_MESSAGES/messages.po"
    text = catalog.read_text(encoding="utf-8")
    text = text.replace(
        '"Content-Transfer-Encoding: 8bit\\n"\n',
        '"Content-Transfer-Encoding: 8bit\\n"\n"X-Generator: Poedit 3.4.2\\n"\n',
        1,
    )
    text = text.replace('msgstr "Gå til indholdet"', 'msgstr "Spring til indholdet"', 1)
    catalog.write_text(text, encoding="utf-8")
    update(project, "--lang", "da")
    changed = [
        line for line in diff(project).splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    assert changed == [
        '+"X-Generator: Poedit 3.4.2\\n"',
        '-msgstr "Gå til indholdet"',
        '+msgstr "Spring til indholdet"',
    ]


# ---------------------------------------------------------------- headers


def test_headers_carry_real_values_and_no_template_text() -> None:
    for path in CATALOGS:
        text = path.read_text(encoding="utf-8")
        for placeholder in (
            "1970",
            "ORGANIZATION",
            "FIRST AUTHOR",
            "EMAIL@ADDRESS",
            "YEAR-MO-DA",
            "LL@li.org",
        ):
            assert placeholder not in text, (path, placeholder)
        fields = dict(po.load(path).headers)
        assert fields["Project-Id-Version"] == "Rami help"  # mkdocs.yml's site_name
        comment = text.partition('msgid ""')[0]  # the project's words, not this checkout's licence
        assert "license" not in comment and "rulesdoc project" not in comment, path
        assert "Generated-By" not in fields
    pt = dict(po.load(ROOT / "locales/pt/LC_MESSAGES/messages.po").headers)
    assert pt["Language"] == "pt_PT" and pt["Language-Team"].startswith("Portuguese (Portugal)")


def test_the_bugs_address_comes_from_the_project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "rami-help"\nversion = "2.3"\n[project.urls]\nIssues = "https://example.org/rami/issues"\n'
    )
    assert extraction.project_info(tmp_path) == extraction.ProjectInfo(
        tmp_path.name, "", "https://example.org/rami/issues"
    )
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nrepo_url: https://example.org/rami/\n")
    assert extraction.project_info(tmp_path).bugs == "https://example.org/rami/issues"


def test_the_project_is_named_by_its_site_name_never_rulesdoc(tmp_path: Path) -> None:
    """Project-Id-Version is the site's name (mkdocs.yml), else the folder's; never rulesdoc's name
    and version, nor a pyproject.toml's, which may be a tool's (this checkout's is rulesdoc's)."""
    (tmp_path / "mkdocs.yml").write_text("# my site\nsite_name: 'My game help'\ntheme:\n  name: material\n")
    assert extraction.project_info(tmp_path) == extraction.ProjectInfo("My game help", "", "")
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "rulesdoc"\nversion = "0.1.0"\n')
    assert extraction.project_info(tmp_path) == extraction.ProjectInfo("My game help", "", "")
    (tmp_path / "mkdocs.yml").unlink()
    assert extraction.project_info(tmp_path).name == tmp_path.name


@pytest.mark.parametrize("site_name", ["My game help", "Help"])
def test_init_stamps_the_projects_site_name(project: Path, site_name: str) -> None:
    config = project / "mkdocs.yml"
    config.write_text(
        config.read_text("utf-8").replace("site_name: Rami help", f"site_name: {site_name}"), "utf-8"
    )
    assert cli.main(["--root", str(project), "catalog", "extract"]) == 0
    assert cli.main(["--root", str(project), "catalog", "init", "fr"]) == 0
    for path in (
        project / "locales" / "messages.pot",
        project / "locales" / "fr" / "LC_MESSAGES" / "messages.po",
    ):
        text = path.read_text("utf-8")
        assert f'"Project-Id-Version: {site_name}\\n"' in text, text[:400]
        assert "rulesdoc 0" not in text and "license" not in text and "VERSION" not in text
    fr = (project / "locales" / "fr" / "LC_MESSAGES" / "messages.po").read_text("utf-8")
    assert fr.startswith(f"# French translations of the {site_name} pages.\nmsgid")


@pytest.mark.slow
def test_dates_change_only_when_an_entry_changes(project: Path) -> None:
    env = {**ENV, "SOURCE_DATE_EPOCH": "1800000000"}  # a later commit
    run = [sys.executable, "-m", "rulesdoc", "catalog"]
    subprocess.run([*run, "extract"], cwd=project, env=env, check=True, capture_output=True)
    subprocess.run([*run, "update"], cwd=project, env=env, check=True, capture_output=True)
    assert diff(project) == ""  # same messages: no date moved
    pot = project / "locales/messages.pot"
    loaded = po.load(pot)
    dropped = next(iter(loaded.messages()))
    loaded.catalog.delete(dropped.id, context=dropped.context)
    pot.write_bytes(po_writer.to_bytes(loaded.catalog, loaded.headers))
    subprocess.run([*run, "extract"], cwd=project, env=env, check=True, capture_output=True)
    changed = [
        line for line in diff(project).splitlines() if line[:1] in "+-" and line[:3] not in ("+++", "---")
    ]
    old = next(
        line for line in (ROOT / "locales/messages.pot").read_text().splitlines() if "POT-Creation" in line
    )
    assert changed == ["-" + old, '+"POT-Creation-Date: 2027-01-15 08:00+0000\\n"']


@pytest.mark.slow
def test_a_new_catalog_takes_the_template_date_not_today(project: Path) -> None:
    path = catalogs.init(project / "locales", "sw", root=project)
    fields = dict(po.load(path).headers)
    template = dict(po.load(project / "locales/messages.pot").headers)
    assert fields["PO-Revision-Date"] == fields["POT-Creation-Date"] == template["POT-Creation-Date"]
    assert "EMAIL@ADDRESS" not in path.read_text(encoding="utf-8")


# ---------------------------------------------------------------- issue 21: 2 and 3


@pytest.mark.slow
def test_revived_theme_messages_keep_their_translation_and_count_once(project: Path) -> None:
    catalog = project / "locales/pt/LC_MESSAGES/messages.po"
    pot = project / "locales/messages.pot"
    full = pot.read_bytes()
    loaded = po.load(pot)
    theme = [m for m in loaded.messages() if m.context == "theme"]
    truncated = loaded.catalog
    for message in theme:
        truncated.delete(message.id, context=message.context)
    pot.write_bytes(po_writer.to_bytes(truncated, loaded.headers))
    update(project, "--lang", "pt", "--force")
    assert '#~ msgctxt "theme"' in catalog.read_text(encoding="utf-8")
    pot.write_bytes(full)
    said = update(project, "--lang", "pt")
    assert f"{len(theme)} restored" in said and "new" not in said
    assert diff(project) == ""  # every translator's wording is back, untouched


def test_cldr_plural_forms_never_erase_a_written_form() -> None:
    three = plurals.parse("nplurals=3; plural=(n == 1 ? 0 : n == 0 ? 2 : 1);")
    two = plurals.parse("nplurals=2; plural=(n != 1);")
    # The header says three forms, the entry has two: they stay where they are.
    assert plurals.remap_forms(("één kaart", "%(n)s kaarten"), three, two) == ("één kaart", "%(n)s kaarten")
    # Header and entry agree: each form moves to the form that means the same.
    swapped = plurals.parse("nplurals=2; plural=(n == 1 ? 1 : 0);")
    assert plurals.remap_forms(("many", "one"), swapped, two) == ("one", "many")


@pytest.mark.slow
def test_cldr_update_on_a_catalog_whose_header_says_more_forms(project: Path) -> None:
    catalog = project / "locales/nl/LC_MESSAGES/messages.po"

    def plural_forms() -> dict[po.Key, tuple[str, ...]]:
        return {po.key_of(m): po.forms(m.string) for m in po.load(catalog).messages() if m.pluralizable}

    before = plural_forms()
    assert before and all(len(texts) == 2 and all(texts) for texts in before.values())
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(
        text.replace("nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n == 1 ? 0 : n == 0 ? 2 : 1);"),
        encoding="utf-8",
    )
    update(project, "--lang", "nl", "--plural-forms", "cldr")
    assert plural_forms() == before
    assert diff(project) == ""


@pytest.mark.parametrize(
    ("rule", "at"),
    [("n%0", 0), ("n/0", 0), ("(n%(2-2))", 0), ("n % (n - 5) ? 1 : 0", 5), ("n > 1 ? n/(n-1000) : 0", 1000)],
)
def test_a_plural_rule_that_divides_by_zero_is_unusable(rule: str, at: int) -> None:
    # msgfmt -c: "plural expression can produce division by zero"; Python's gettext raises there.
    with pytest.raises(plurals.PluralFormsError, match=rf"divides by zero for n = {at} \(msgfmt -c refuses"):
        plurals.parse(f"nplurals=2; plural={rule};")


def test_compile_refuses_a_rule_that_divides_by_zero_and_writes_no_mo(project: Path) -> None:
    catalog = project / "locales/da/LC_MESSAGES/messages.po"
    catalog.write_text(catalog.read_text().replace("plural=(n != 1);", "plural=n%0;"))
    line = catalog.read_text().split("\n").index('"Plural-Forms: nplurals=2; plural=n%0;\\n"') + 1
    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(project), "catalog", "compile"],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == (
        f"rulesdoc: error: locales/da/LC_MESSAGES/messages.po:{line}: [plural-forms] the plural "
        "expression divides by zero for n = 0 (msgfmt -c refuses it; gettext would crash); no .mo written\n"
    )
    assert not list((project / "locales").rglob("*.mo")), "a .mo was written (one catalog's is a half result)"


def test_compile_writes_mo_files_gettext_reads(project: Path) -> None:
    import gettext

    done = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(project), "catalog", "compile"],
        capture_output=True,
        text=True,
        cwd=project,
    )
    assert done.returncode == 0, done.stderr
    with (project / "locales/da/LC_MESSAGES/messages.mo").open("rb") as mo:
        danish = gettext.GNUTranslations(mo)
    assert danish.gettext("Counting points") == "Tælle point"
    assert danish.ngettext("%(points)s point", "%(points)s points", 0) == "%(points)s point"


@pytest.mark.parametrize(
    ("code", "lost", "said"),
    [
        ("da", '"Language: da\\n"\n', "Language set to 'da' (its folder)"),
        (
            "nl",
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n',
            "Plural-Forms set to CLDR's (2 forms), the header had none",
        ),
    ],
    ids=["language", "plural-forms"],
)
def test_update_repairs_a_header_field_the_catalog_lost_and_says_so(
    project_copy: Path, code: str, lost: str, said: str
) -> None:
    """Without Language, Babel wrote the catalog back without Plural-Forms too; without
    Plural-Forms, update refused. Both come from the folder's code and CLDR: put back, said."""
    path = project_copy / "locales" / code / "LC_MESSAGES" / "messages.po"
    whole = path.read_text("utf-8")
    assert lost in whole
    path.write_text(whole.replace(lost, ""), "utf-8")
    (update,) = catalogs.update(project_copy / "locales", [code], root=project_copy)
    assert update.summary() == said
    assert path.read_text("utf-8") == whole  # every translation, every form, and the header back


# ---------------------------------------------------------------- bounded time (issue 32, item 9)


def test_fuzzy_matching_is_left_out_past_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Babel compares each new message with every translated one: 85,000 entries took 30 s."""
    from babel.messages.catalog import Catalog

    from rulesdoc.i18n import catalogs

    def merged() -> tuple[int, Catalog]:
        catalog = Catalog(locale="da")
        catalog.add("The joker is worth 20", "Jokeren er 20 værd")
        catalog.add("An ace is worth 11", "Et es er 11 værd")
        template = Catalog()
        template.add("The joker is worth 25")
        return catalogs.merge(catalog, template), catalog

    comparisons, catalog = merged()  # 1 new x 2 translated: within the bound
    assert comparisons == 0
    assert catalog["The joker is worth 25"].fuzzy  # matched, the old translation kept for review
    monkeypatch.setattr(catalogs, "MAX_FUZZY_COMPARISONS", 1)
    comparisons, catalog = merged()
    assert comparisons == 2
    new = catalog["The joker is worth 25"]
    assert not new.fuzzy and not new.string  # untranslated, as `catalog update` then says
    summary = catalogs.Update(Path("da.po"), 1, 0, 2, 0, written=True, comparisons=2).summary()
    assert summary == (
        "1 new, 2 obsolete, no fuzzy matching (2 comparisons, over 1): new messages start untranslated"
    )


def test_fuzzy_matching_is_bounded_over_the_whole_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seven catalogs each under the bound took `report` 25 s: the bound is the run's, all catalogs'."""
    from babel.messages.catalog import Catalog

    from rulesdoc.i18n import catalogs

    monkeypatch.setattr(catalogs, "MAX_FUZZY_COMPARISONS", 3)
    budget = catalogs.FuzzyBudget()
    template = Catalog()
    template.add("The joker is worth 25")
    merged = []
    for _ in range(2):  # 1 new x 2 translated each: the first fits, the second not in what is left
        catalog = Catalog(locale="da")
        catalog.add("The joker is worth 20", "Jokeren er 20 værd")
        catalog.add("An ace is worth 11", "Et es er 11 værd")
        merged.append((catalogs.merge(catalog, template, budget), catalog["The joker is worth 25"].fuzzy))
    assert merged == [(0, True), (2, False)]
    summary = catalogs.Update(Path("da.po"), 1, 0, 0, 0, written=True, comparisons=2, room=1).summary()
    assert summary == (
        "1 new, no fuzzy matching (2 comparisons, over the 1 left of a run's 3): new messages start untranslated"
    )

"""The theme's strings are reviewed like ours: imported from Material as unreviewed, counted
apart until a translator confirms them, and the seed languages' reviewed wording."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from support import ROOT, copy_project
from support.newlang import build_site, fill

from rulesdoc import lint
from rulesdoc.i18n import catalogs, theme
from rulesdoc.i18n.stats import CatalogStats
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import catalog_path
from rulesdoc.i18n.verdicts import THEME_ORIGIN
from rulesdoc.io.project import Project
from rulesdoc.lint.model import Finding
from rulesdoc.localedata import material_partials
from rulesdoc.pages.render import Workspace
from rulesdoc.site.languages import ConfigTexts, _language_site


def read(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as handle:
        return read_po(handle)


def write(path: Path, catalog) -> None:  # type: ignore[no-untyped-def]
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)


def stats(root: Path, code: str) -> CatalogStats:
    workspace = Workspace.load(Project.at(root))
    return workspace.stats(next(language for language in workspace.languages if language.code == code))


def all_findings(root: Path, code: str) -> list[Finding]:
    """check's findings in-process, all of them."""
    workspace = Workspace.load(Project.at(root), [code])
    return list(lint.run(lint.gather(workspace, workspace.policy, [code])).findings)


def check_json(root: Path, code: str) -> dict:  # type: ignore[type-arg]
    result = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(root), "check", "--format", "json", "--lang", code],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    report["language"] = next(row for row in report["languages"] if row["code"] == code)
    return report  # type: ignore[no-any-return]


def theme_entries(catalog):  # type: ignore[no-untyped-def]
    return [m for m in catalog if m.id and m.context == THEME_CONTEXT]


@pytest.mark.slow
def test_a_new_languages_imported_theme_strings_count_as_unreviewed_until_confirmed(
    project_copy: Path,
) -> None:
    path = catalogs.init(project_copy / "locales", "ar")
    catalog = read(path)
    arabic = material_partials.material_strings("ar")
    assert arabic is not None
    imported = [m for m in theme_entries(catalog) if m.string]
    assert len(imported) >= 20  # Material's Arabic answers nearly every key we use
    for entry in imported:
        assert entry.fuzzy and entry.user_comments == [THEME_ORIGIN], entry.id
    # Material's own wording, its hamza error included: nobody has read it yet.
    assert catalog.get("Select language", THEME_CONTEXT).string == arabic["select.language"] == "إختر اللغة"
    ours = catalog.get("Permanent link", THEME_CONTEXT)  # Material has none: ours to translate
    assert ours.string == "" and not ours.fuzzy and not ours.user_comments

    before = stats(project_copy, "ar")
    assert (before.translated, before.fuzzy, before.unreviewed) == (0, 0, len(imported))
    assert before.untranslated == before.total - len(imported)
    report = check_json(project_copy, "ar")
    assert report["language"]["unreviewed"] == len(imported)
    # Every finding, not the first 20 of a kind that check prints (the summary line counts the rest).
    findings = all_findings(project_copy, "ar")
    warned = {f.msgid for f in findings if f.message.startswith("from the theme, unreviewed")}
    assert warned == {m.id for m in imported}
    assert all(f.severity.value == "warning" for f in findings if f.msgid in warned)

    # A translator confirms two as they are and corrects a third: each removes the fuzzy flag.
    confirmed = {"Search", "Table of contents", "Select language"}
    for entry in theme_entries(catalog):
        if entry.id in confirmed:
            entry.flags.discard("fuzzy")
    catalog.get("Select language", THEME_CONTEXT).string = "اختر اللغة"
    write(path, catalog)
    after = stats(project_copy, "ar")
    assert (after.translated, after.unreviewed) == (3, len(imported) - 3)
    assert after.total == before.total
    report = check_json(project_copy, "ar")
    assert report["language"]["unreviewed"] == len(imported) - 3
    still = {f["msgid"] for f in report["findings"] if f["message"].startswith("from the theme")}
    assert not still & confirmed


@pytest.mark.slow
def test_check_prints_the_unreviewed_column(project_copy: Path) -> None:
    catalogs.init(project_copy / "locales", "ar")
    result = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "--root", str(project_copy), "check", "--lang", "ar"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    head = next(line.split() for line in result.stdout.splitlines() if line.startswith("language "))
    row = next(line.split() for line in result.stdout.splitlines() if re.match(r"ar\s+\d", line))
    assert head[:5] == ["language", "translated", "fuzzy", "untranslated", "theme-unreviewed"]
    assert int(row[4]) == stats(project_copy, "ar").unreviewed > 0


def test_unreviewed_strings_are_shown_meanwhile(project_copy: Path) -> None:
    path = catalogs.init(project_copy / "locales", "ar")
    catalog = read(path)
    catalog.get("Select language", THEME_CONTEXT).string = "اختر اللغة"  # corrected, not yet confirmed
    write(path, catalog)
    workspace = Workspace.load(Project.at(project_copy))
    arabic = next(language for language in workspace.languages if language.code == "ar")
    strings = _language_site(workspace, arabic, ConfigTexts("Help")).strings
    assert strings["select.language"] == "اختر اللغة"  # the catalog's text, not English
    assert strings["toc"] == (material_partials.material_strings("ar") or {})["toc"]
    assert strings["rulesdoc.permalink"] == "Permanent link"  # nobody has translated it: English
    assert "rulesdoc.permalink" in strings[theme.ENGLISH_KEYS].split()
    assert "toc" not in strings[theme.ENGLISH_KEYS].split()


def test_update_imports_a_new_theme_string_as_new_and_unreviewed(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalogs.init(locales, "ar")
    catalog = read(path)
    catalog.delete("Back to top", THEME_CONTEXT)  # as if the theme string were new in messages.pot
    write(path, catalog)
    (done,) = catalogs.update(locales, ["ar"])
    assert done.new == 1 and done.fuzzy == 0, done.summary()
    entry = read(path).get("Back to top", THEME_CONTEXT)
    assert entry.string == (material_partials.material_strings("ar") or {})["top"]
    assert entry.fuzzy and entry.user_comments == [THEME_ORIGIN]


def test_update_keeps_a_confirmed_theme_string(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalogs.init(locales, "ar")
    catalog = read(path)
    entry = catalog.get("Back to top", THEME_CONTEXT)
    entry.flags.discard("fuzzy")
    write(path, catalog)
    catalogs.update(locales, ["ar"])
    kept = read(path).get("Back to top", THEME_CONTEXT)
    assert not kept.fuzzy and kept.user_comments == [THEME_ORIGIN]


def test_update_restores_an_obsolete_theme_string_as_the_translator_left_it(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalogs.init(locales, "ar")
    catalog = read(path)
    entry = catalog.get("Back to top", THEME_CONTEXT)
    entry.string = "العودة إلى الأعلى"  # the translator's own wording, confirmed
    entry.flags.discard("fuzzy")
    catalog.delete("Back to top", THEME_CONTEXT)
    catalog.obsolete[("Back to top", THEME_CONTEXT)] = entry  # as `update` left it when the source dropped it
    write(path, catalog)
    assert '#~ msgid "Back to top"' in path.read_text("utf-8")
    (done,) = catalogs.update(locales, ["ar"])
    assert (done.revived, done.new) == (1, 0), done.summary()
    kept = read(path).get("Back to top", THEME_CONTEXT)
    assert kept.string == "العودة إلى الأعلى" and not kept.fuzzy


# The native review of the seed languages (issue 20): the errors Material's strings carried.
REVIEWED = {
    "ms": {"Skip to content": "Langkau ke kandungan", "Initializing search": "Menyediakan carian",
           "Table of contents": "Isi kandungan"},
    "da": {"Initializing search": "Forbereder søgning", "# more on this page": "# flere resultater på denne side"},
    "hi": {"Initializing search": "खोज तैयार हो रही है", "Table of contents": "विषय-सूची",
           "No matching documents": "कोई मेल खाता दस्तावेज़ नहीं मिला",
           "1 matching document": "1 मेल खाता दस्तावेज़", "# matching documents": "# मेल खाते दस्तावेज़",
           "1 more on this page": "इस पृष्ठ पर 1 और", "# more on this page": "इस पृष्ठ पर # और"},
    "nl": {"1 matching document": "1 overeenkomend document", "Header": "Koptekst", "Footer": "Voettekst",
           "Initializing search": "Zoekfunctie wordt geladen"},
    "pt": {"Search": "Pesquisar", "Type to start searching": "Escreva para começar a pesquisar",
           "Share": "Partilhar", "Next": "Seguinte", "Initializing search": "A preparar a pesquisa",
           "Select language": "Selecione o idioma"},  # "Selecione" is European Portuguese too
}  # fmt: skip


@pytest.mark.parametrize("code", sorted(REVIEWED))
def test_the_seed_languages_theme_strings_are_reviewed(code: str) -> None:
    catalog = read(catalog_path(ROOT / "locales", code))
    for english, expected in REVIEWED[code].items():
        entry = catalog.get(english, THEME_CONTEXT)
        assert entry.string == expected and not entry.fuzzy, english
    unreviewed = [m.id for m in theme_entries(catalog) if m.fuzzy]
    assert unreviewed == []  # every theme string confirmed by a reviewer
    for entry in theme_entries(catalog):  # no Brazilian chrome left on the European site
        assert not re.search(r"\b(Buscar|busca|Digite|Compartilhar)\b", entry.string) or code != "pt"


@pytest.mark.slow
def test_untranslated_chrome_falls_back_to_english_marked_as_english(tmp_path: Path) -> None:
    """The 404 heading, the footer notice, the site name, the ¶ links and a palette toggle, left
    untranslated, are English with lang="en"; a new language's imported theme strings are shown
    and counted apart on the status page."""
    project = copy_project(tmp_path / "project")
    path = catalogs.init(project / "locales", "sw")
    fill(path, theme="keep")
    catalog = read(path)
    for english in ("404 - Not found", "Made with %(name)s", "Permanent link", "Switch to dark mode"):
        catalog.get(english, THEME_CONTEXT).string = ""
    catalog.get("Rami help").string = ""
    write(path, catalog)
    catalogs.init(project / "locales", "ar")  # as `catalog init` left it: Material's strings, unreviewed
    result = build_site(project, tmp_path / "site", strict=False)  # a preview shows the gaps
    assert result.returncode == 0, result.stdout + result.stderr
    # The status page counts the unreviewed theme strings apart, as `check` does.
    status = (tmp_path / "site" / "translation-status.html").read_text("utf-8")
    assert "From the theme, unreviewed" in status
    row = re.search(r"<td><a [^>]*>العربية</a> \(<code>ar</code>\)</td>(.*?)</tr>", status, re.S)
    assert row, status
    cells = [int(n) for n in re.findall(r"<td[^>]*>(?:<bdi>)?(\d+)<", row[1])]
    counted = stats(project, "ar")
    assert cells[:4] == [0, 0, counted.untranslated, counted.unreviewed] and counted.unreviewed > 0
    arabic = (tmp_path / "site" / "ar" / "scoring.html").read_text("utf-8")
    assert (
        'placeholder="{}"'.format((material_partials.material_strings("ar") or {})["search.placeholder"])
        in arabic
    )
    missing = (tmp_path / "site" / "sw" / "404.html").read_text("utf-8")
    assert '<h1 lang="en">404 - Not found</h1>' in missing
    assert re.search(
        r'<span lang="en">Made with <a href="[^"]+"[^>]*>Material for MkDocs</a></span>', missing
    )
    for name in ("scoring.html", "404.html"):
        html = (tmp_path / "site" / "sw" / name).read_text("utf-8")
        title = re.search(
            r'<div class="md-header__topic">\s*<span class="md-ellipsis" lang="en">\s*(.*?)\s*<', html
        )
        assert title and title[1] == "Rami help", name
        assert '<label class="md-nav__title" for="__drawer" lang="en">' in html, name
        assert len(re.findall(r'class="md-(?:header|nav)__button md-logo" lang="en"', html)) == 2, name
    scoring = (tmp_path / "site" / "sw" / "scoring.html").read_text("utf-8")
    permalinks = re.findall(r'<a class="headerlink"[^>]*>', scoring)
    assert permalinks and all('title="Permanent link" lang="en"' in link for link in permalinks)
    assert re.search(r'<input class="md-option"[^>]*aria-label="Switch to dark mode" lang="en"', scoring)
    assert re.search(
        r'<label class="md-header__button md-icon" title="Switch to dark mode" lang="en"', scoring
    )
    options = re.findall(r'<input class="md-option"[^>]*>', scoring)
    assert len(options) == 2 and 'aria-label="«Switch to light mode»"' in options[1]
    assert 'lang="en"' not in options[1]  # translated: not marked
    danish = (tmp_path / "site" / "da" / "404.html").read_text("utf-8")
    assert "<h1>404 - Siden blev ikke fundet</h1>" in danish and not re.search(r'\slang="en"', danish)
    english = (tmp_path / "site" / "404.html").read_text("utf-8")
    assert "<h1>404 - Not found</h1>" in english  # the source language marks nothing

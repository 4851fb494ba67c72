"""Any language CLDR knows, by its catalog alone: `catalog init CODE`, translate, `make site`.

Eight languages the first six never needed are added to a copy of the project, each
with every message filled (English text, as a translator's first pass would look to a
test, and the theme's strings marked «…» so that the chrome shows whose they are), and
the whole site is built strictly once:

- sw: Swahili, which Material has no strings for;
- zh_Hant: a script subtag (BCP 47 ``zh-Hant`` in lang, hreflang and the site's folder);
- he: right-to-left, Material has it; ps: right-to-left, Material lacks it, Persian digits;
- ar: six plural forms; ja: a single one;
- fr: with gettext's conventional header, two forms where CLDR has three;
- mr: Marathi, whose CLDR default digits are Devanagari.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel import Locale
from support import PUBLISHED, copy_project
from support.newlang import build_site, fill, marked

from rulesdoc.i18n import catalogs
from rulesdoc.i18n.translate import catalog_path
from rulesdoc.localedata.cldr import Formatter

pytestmark = pytest.mark.slow


@dataclass(frozen=True)
class NewLanguage:
    code: str  # as typed to `catalog init`
    folder: str  # the canonical catalog folder
    tag: str  # BCP 47: lang, hreflang, site folder
    direction: str
    forms: int  # plural forms of the catalog's header
    name: str  # its own name, in the switcher
    lunr: str  # the search pipeline's language


NEW = [
    NewLanguage("sw", "sw", "sw", "ltr", 2, "Kiswahili", "en"),
    NewLanguage("zh-hant", "zh_Hant", "zh-Hant", "ltr", 1, "中文 (繁體)", "zh"),  # the script matters
    NewLanguage("he", "he", "he", "rtl", 3, "עברית", "he"),
    NewLanguage("ps", "ps", "ps", "rtl", 2, "پښتو", "en"),
    NewLanguage("ar", "ar", "ar", "rtl", 6, "العربية", "ar"),
    NewLanguage("ja", "ja", "ja", "ltr", 1, "日本語", "ja"),
    NewLanguage("fr", "fr", "fr", "ltr", 2, "Français", "fr"),
    NewLanguage("mr", "mr", "mr", "ltr", 2, "मराठी", "en"),
]
GETTEXT_FRENCH = "nplurals=2; plural=(n > 1);"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    project = copy_project(tmp_path_factory.mktemp("world") / "project")
    for language in NEW:
        path = catalogs.init(project / "locales", language.code)
        assert path == catalog_path(project / "locales", language.folder)
        fill(
            path, GETTEXT_FRENCH if language.code == "fr" else None, words={"Rami help": marked("Rami help")}
        )
    site = project.parent / "site"
    result = build_site(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return project, site


def page(site: Path, language: NewLanguage, name: str = "scoring.html") -> str:
    return (site / language.tag / name).read_text("utf-8")


@pytest.mark.parametrize("language", NEW, ids=[language.tag for language in NEW])
def test_lang_and_direction(world: tuple[Path, Path], language: NewLanguage) -> None:
    _, site = world
    for name in ("index.html", "scoring.html", "translation-status.html", "404.html"):
        html = page(site, language, name)
        opening = re.search(r"<html[^>]*>", html)
        assert opening and f'lang="{language.tag}"' in opening.group(0), name
        assert ('dir="rtl"' in opening.group(0)) == (language.direction == "rtl"), opening.group(0)
        assert f'<body dir="{language.direction}"' in html  # Material's layout follows it


@pytest.mark.parametrize("language", NEW, ids=[language.tag for language in NEW])
def test_own_search_index_in_its_language(world: tuple[Path, Path], language: NewLanguage) -> None:
    _, site = world
    index = json.loads((site / language.tag / "search" / "search_index.json").read_text("utf-8"))
    assert index["config"]["lang"] == [language.lunr]
    assert {doc["location"].split("#")[0] for doc in index["docs"]} == {
        "index.html", "scoring.html", "translation-status.html"
    }  # fmt: skip


def test_a_script_without_spaces_is_searched_character_by_character(world: tuple[Path, Path]) -> None:
    _, site = world
    zh = json.loads((site / "zh-Hant" / "search" / "search_index.json").read_text("utf-8"))
    sw = json.loads((site / "sw" / "search" / "search_index.json").read_text("utf-8"))
    assert "(?=" in zh["config"]["separator"] and "(?=" not in sw["config"]["separator"]


@pytest.mark.parametrize("language", NEW, ids=[language.tag for language in NEW])
def test_switcher_offers_it_by_its_own_name(world: tuple[Path, Path], language: NewLanguage) -> None:
    _, site = world
    english = (site / "scoring.html").read_text("utf-8")
    link = f'<a href="{language.tag}/scoring.html" hreflang="{language.tag}" class="md-select__link">'
    assert link in english
    after = english[english.index(link) :]
    assert after[len(link) : after.index("</a>")].strip() == language.name
    assert f'<link rel="alternate" href="{language.tag}/scoring.html" hreflang="{language.tag}">' in english


@pytest.mark.parametrize("language", NEW, ids=[language.tag for language in NEW])
def test_no_english_chrome_where_the_theme_messages_are_filled(
    world: tuple[Path, Path], language: NewLanguage
) -> None:
    _, site = world
    html = page(site, language)
    assert f'placeholder="{marked("Search")}"' in html
    assert f'title="{marked("Permanent link")}"' in html  # the ¶ beside each heading
    assert "«Made with <a href=" in html and "Made with Material" not in html
    assert f'aria-label="{marked("Header")}"' in html
    assert marked("Table of contents") in html
    assert f"<h1>{marked('404 - Not found')}</h1>" in page(site, language, "404.html")
    header = re.search(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html, re.S)
    assert header and header[1] == marked("Rami help")  # the site name
    for toggle in ("Switch to dark mode", "Switch to light mode"):  # the palette's buttons
        assert f'aria-label="{marked(toggle)}"' in html and f'title="{marked(toggle)}"' in html
    config = json.loads(
        re.search(r'<script id="__config" type="application/json">(.*?)</script>', html, re.S)[1]
    )
    assert config["translations"]["search.result.none"] == marked("No matching documents")


@pytest.mark.parametrize("language", NEW, ids=[language.tag for language in NEW])
def test_numbers_follow_cldr(world: tuple[Path, Path], language: NewLanguage) -> None:
    _, site = world
    html = page(site, language)
    fmt = Formatter(Locale.parse(language.folder), isolate=language.direction == "rtl")
    # The target table: 100 points per opponent, 2 to 6 players.
    for players in range(2, 7):
        assert fmt.number(100 * (players - 1)) in html, players
    digits = {"ps": "۰۱۲۳۴۵۶۷۸۹", "mr": "०१२३४५६७८९"}.get(language.code, "0123456789")
    five_hundred = re.sub(r"</?bdi>", "", fmt.number(500))
    assert five_hundred[0] == digits[5] and five_hundred[-1] == digits[0], five_hundred


def test_plural_forms_follow_each_catalogs_header(world: tuple[Path, Path]) -> None:
    project, _ = world
    for language in NEW:
        text = catalog_path(project / "locales", language.folder).read_text("utf-8")
        assert f"nplurals={language.forms};" in text, language.code


def test_a_conventional_french_header_is_a_warning_not_an_error(world: tuple[Path, Path]) -> None:
    project, _ = world
    result = subprocess.run(
        [sys.executable, "-m", "rulesdoc", "check", "--lang", "fr"],
        cwd=project, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "warning: [plural-forms]" in result.stdout and "differs from CLDR's for fr" in result.stdout


def test_the_first_six_are_untouched(world: tuple[Path, Path]) -> None:
    _, site = world
    for code in PUBLISHED:
        folder = site if code == "en" else site / code
        assert re.search(rf'<html lang="{code}" class="no-js">', (folder / "scoring.html").read_text("utf-8"))


def test_theme_assets_are_shared_not_copied_per_language(world: tuple[Path, Path]) -> None:
    """The theme's files and the docs folder's (our stylesheet) are at the site root once."""
    _, site = world
    assert (site / "assets" / "javascripts").is_dir() and (site / "assets" / "rulesdoc.css").is_file()
    for language in NEW:
        assert not (site / language.tag / "assets").exists(), language.tag
        html = page(site, language)
        assert 'src="../assets/javascripts/bundle.' in html
        assert 'href="../assets/rulesdoc.css"' in html
        assert not (site / language.tag / "sitemap.xml.gz").exists()  # crawlers read the root's
        assert (site / language.tag / "sitemap.xml").is_file()  # Material's switcher reads it

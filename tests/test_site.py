"""The built multilingual site, read as files: languages, switcher, search, 404, offline."""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
import urllib.parse
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po
from support import PUBLISHED, ROOT, copy_project
from support.calculator import calculator_problems
from support.env import dated_env

from rulesdoc.i18n import catalogs
from rulesdoc.i18n.translate import catalog_path

PAGES = ("index.html", "scoring.html", "translation-status.html", "404.html")
SITEMAP = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML = "http://www.w3.org/1999/xhtml"
pytestmark = pytest.mark.slow


def build_site(project: Path, out: Path) -> subprocess.CompletedProcess[str]:
    env = dated_env()
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=project, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    result = build_site(ROOT, out)
    assert result.returncode == 0, result.stderr
    return out


def language_dir(site: Path, code: str) -> Path:
    return site if code == "en" else site / code


def read(site: Path, code: str, page: str) -> str:
    return (language_dir(site, code) / page).read_text("utf-8")


@pytest.mark.parametrize("code", PUBLISHED)
def test_every_language_has_every_page_with_its_html_lang(site: Path, code: str) -> None:
    for page in PAGES:
        html = read(site, code, page)
        assert re.search(rf'<html lang="{code}"', html), f"{code}/{page}"


@pytest.mark.parametrize(
    ("code", "title", "search_placeholder"),
    [("en", "Counting points", "Search"), ("da", "Tælle point", "Søg"), ("pt", "Contar os pontos", "Pesquisar"),
     ("hi", "अंक गिनना", "खोज"), ("nl", "Punten tellen", "Zoeken"), ("ms", "Mengira mata", "Cari")],
)  # fmt: skip
def test_theme_ui_site_name_and_nav_speak_the_language(
    site: Path, code: str, title: str, search_placeholder: str
) -> None:
    html = read(site, code, "scoring.html")
    assert f'placeholder="{search_placeholder}"' in html
    assert re.search(rf"<title>{re.escape(title)} - [^<]+</title>", html)
    nav = re.search(r'<nav class="md-nav md-nav--primary".*?</nav>', html, re.S)
    assert nav and title in nav.group(0)


@pytest.mark.parametrize("code", PUBLISHED)
def test_switcher_and_hreflang_point_at_the_same_page(site: Path, code: str) -> None:
    html = read(site, code, "scoring.html")
    up = "" if code == "en" else "../"
    for other in PUBLISHED:
        there = "" if other == "en" else f"{other}/"
        href = f"{up}{there}scoring.html"
        assert f'<link rel="alternate" href="{href}" hreflang="{other}">' in html
        assert re.search(rf'<a href="{re.escape(href)}" hreflang="{other}" class="md-select__link">', html)
        assert (language_dir(site, code) / href).resolve().is_file()


@pytest.mark.parametrize("code", PUBLISHED)
def test_search_index_holds_only_its_own_language(site: Path, code: str) -> None:
    index = json.loads((language_dir(site, code) / "search" / "search_index.json").read_text("utf-8"))
    assert index["config"]["lang"] == ["en" if code in ("en", "ms") else code]  # no Malay lunr
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert locations == {"index.html", "scoring.html", "translation-status.html"}
    text = " ".join(doc["title"] + " " + doc["text"] for doc in index["docs"])
    if code != "en":
        assert "Counting points" not in text  # no English page mixed in
    assert "Tælle point" not in text or code == "da"


def test_nothing_is_fetched_from_outside(site: Path) -> None:
    for html_file in site.rglob("*.html"):
        html = html_file.read_text("utf-8")
        assert "fonts.googleapis" not in html and "fonts.gstatic" not in html
        external = re.findall(r'<(?:link|script|img)[^>]+(?:href|src)="(https?:)?//[^"]+"', html)
        assert not external, f"{html_file}: {external}"


def test_translation_status_page_counts_every_catalog(site: Path) -> None:
    html = read(site, "en", "translation-status.html")
    for code in PUBLISHED:
        assert f"<code>{code}</code>" in html
    assert "100%" in html


def test_a_seventh_language_needs_no_code_change(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")  # type: ignore[arg-type]
    locales = project / "locales"
    catalogs.init(locales, "fr")
    path = catalog_path(locales, "fr")
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if message.id:  # a stand-in translation that keeps every placeholder, in each of CLDR's forms
            if isinstance(message.id, tuple):
                message.string = (message.id[0],) + (message.id[1],) * (catalog.num_plurals - 1)
            else:
                message.string = message.id
    message = catalog.get("Counting points")
    message.string = "Compter les points"
    with path.open("wb") as handle:
        write_po(handle, catalog)
    out = tmp_path / "site"
    result = build_site(project, out)
    assert result.returncode == 0, result.stderr
    french = (out / "fr" / "scoring.html").read_text("utf-8")
    assert '<html lang="fr"' in french and "<h1" in french and "Compter les points" in french
    english = (out / "scoring.html").read_text("utf-8")
    assert 'href="fr/scoring.html" hreflang="fr" class="md-select__link"' in english
    assert "Français" in english


def test_the_rules_schema_is_published_once_at_the_site_root(site: Path) -> None:
    from rulesdoc.spec.schema import schema_text

    assert (site / "rules.schema.json").read_text("utf-8") == schema_text()
    assert not (site / "da" / "rules.schema.json").exists()  # one schema for every language


def test_a_site_name_keeps_every_character_in_every_context(tmp_path: Path) -> None:
    """Apostrophes, quotes, ampersands and angle brackets of a translated site name are escaped
    for where they land (text, attributes, <title>), never dropped."""
    project = copy_project(tmp_path / "project")
    path = catalog_path(project / "locales", "da")
    # No digit (the numbers check refuses one the source lacks), no letter after "<" (a tag).
    name = "Ramis \"hjælp\" & mere <> mindre 'nu'"
    text = path.read_text("utf-8")
    assert 'msgstr "Hjælp til Rami"' in text
    path.write_text(
        text.replace('msgstr "Hjælp til Rami"', f"msgstr {json.dumps(name, ensure_ascii=False)}"), "utf-8"
    )
    result = build_site(project, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "site" / "da" / "scoring.html").read_text("utf-8")
    escaped = "Ramis &#34;hjælp&#34; &amp; mere &lt;&gt; mindre &#39;nu&#39;"
    assert f"<title>Tælle point - {escaped}</title>" in html
    assert f'aria-label="{escaped}"' in html and f'title="{escaped}"' in html
    header = re.search(r'<span class="md-ellipsis">\s*(.*?)\s*</span>', html, re.S)
    assert header and header.group(1) == escaped


def test_the_helper_process_changes_no_byte_and_its_failure_only_costs_time(
    site: Path, tmp_path: Path
) -> None:
    """The helper process that compiles the theme and extracts the sources while the main build
    reads is a speed-up only: the site is the same with it, without it (one core) and when it
    fails."""
    failing = (  # the helper process fails at both its jobs; the main process works as before
        "import os, sys; from rulesdoc.site import helper\n"
        "from rulesdoc.i18n import extraction\n"
        "main, extract = os.getpid(), extraction.extract\n"
        "def fail(): raise RuntimeError('the helper failed')\n"
        "def extract_here(root): return extract(root) if os.getpid() == main else fail()\n"
        "helper._compile_theme, extraction.extract = fail, extract_here\n"
        "from mkdocs.__main__ import cli\n"
        "sys.argv = ['mkdocs', 'build', '--strict', '-q', '-d', sys.argv[1]]\n"
        "cli()\n"
    )
    env = dated_env()
    failed = subprocess.run(
        [sys.executable, "-c", failing, str(tmp_path / "failed")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert failed.returncode == 0, failed.stderr
    one_core = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "one-core")],
        cwd=ROOT, env={**env, "RULESDOC_WORKERS": "1"}, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert one_core.returncode == 0, one_core.stderr

    def tree(folder: Path) -> dict[str, bytes]:
        return {
            p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
        }

    expected = tree(site)
    assert tree(tmp_path / "failed") == expected
    assert tree(tmp_path / "one-core") == expected


def test_a_site_url_gives_every_language_its_own_canonical_addresses(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    with (root / "mkdocs.yml").open("a", encoding="utf-8") as config:
        config.write("site_url: https://example.org/help/\n")
    result = build_site(root, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    for code in PUBLISHED:
        prefix = "https://example.org/help/" + ("" if code == "en" else f"{code}/")
        assert f'<link rel="canonical" href="{prefix}scoring.html">' in read(site, code, "scoring.html")
        assert f"<loc>{prefix}scoring.html</loc>" in (language_dir(site, code) / "sitemap.xml").read_text(
            "utf-8"
        )
    # Search engines: every page names itself in every language, absolute, and the x-default.
    for code in PUBLISHED:
        for page in PAGES:
            html = read(site, code, page)
            links = re.findall(r'<link rel="alternate" href="([^"]*)" hreflang="([^"]*)">', html)
            want = [(address(other, page), other) for other in PUBLISHED] + [
                (address("en", page), "x-default")
            ]
            assert sorted(links) == sorted(want), (code, page, links)
    # One root sitemap: every language's pages, each with every language's address of it.
    tree = ElementTree.parse(site / "sitemap.xml").getroot()
    entries = {
        url.findtext(f"{{{SITEMAP}}}loc"): sorted(
            (link.get("hreflang"), link.get("href")) for link in url.findall(f"{{{XHTML}}}link")
        )
        for url in tree.findall(f"{{{SITEMAP}}}url")
    }
    pages = [page for page in PAGES if page != "404.html"]
    assert sorted(entries) == sorted(address(code, page) for code in PUBLISHED for page in pages)
    for loc, alternates in entries.items():
        page = loc.rpartition("/")[2]
        want = sorted(
            [(code, address(code, page)) for code in PUBLISHED] + [("x-default", address("en", page))]
        )
        assert alternates == want, loc
    with gzip.open(site / "sitemap.xml.gz") as packed:
        assert packed.read() == (site / "sitemap.xml").read_bytes()


def address(code: str, page: str) -> str:
    return "https://example.org/help/" + ("" if code == "en" else f"{code}/") + page


@pytest.mark.parametrize("code", PUBLISHED)
def test_every_404_page_has_the_switcher_and_the_x_default(site: Path, code: str) -> None:
    """To every language's 404 page; relative to its own folder (its script makes them the site
    root's wherever a host shows it: tests/browser/test_publishing.py)."""
    html = read(site, code, "404.html")
    links = dict(
        (tag, href)
        for href, tag in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)" class="md-select__link">', html)
    )
    assert sorted(links) == sorted(PUBLISHED)
    for tag, href in links.items():
        assert (language_dir(site, code) / href).resolve() == (language_dir(site, tag) / "404.html").resolve()
    assert re.search(r'<link rel="alternate" href="[^"]*" hreflang="x-default">', html)
    assert 'href="/' not in html  # no address from the host's root: wrong under /REPO/


@pytest.mark.parametrize("code", [code for code in PUBLISHED if code != "en"])
def test_the_palette_is_kept_for_the_whole_site(site: Path, code: str) -> None:
    """Material keeps the reader's palette under its scope: a language's pages name the site root."""
    for page in PAGES[:-1]:
        assert '__md_scope=new URL("./..",location)' in read(site, code, page), page


def test_a_page_links_the_docs_folders_files_in_every_language(tmp_path: Path) -> None:
    """The docs folder's files are at the site root only: a link to one from any language's
    page (a page template's Markdown link) reaches it there."""
    root = copy_project(tmp_path / "project")
    (root / "docs" / "assets" / "rules sheet.txt").write_text("the rules, printable\n", "utf-8")
    with (root / "templates" / "index.md.j2").open("a", encoding="utf-8") as template:
        template.write("\n[CSS](assets/rulesdoc.css) [sheet](assets/rules%20sheet.txt) [top](#top)\n")
    env = dated_env(RULESDOC_STRICT="false")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "site")],
        cwd=root, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    for code in PUBLISHED:
        html = read(site, code, "index.html")
        links = re.findall(r'<a href="([^"]+)">(?:⚠ )?(?:CSS|sheet)</a>', html)
        assert len(links) == 2, (code, links)
        for link in links:
            target = (language_dir(site, code) / urllib.parse.unquote(link)).resolve()
            assert target.is_file() and target.parent == (site / "assets").resolve(), (code, link)
        assert '<a href="#top">' in html
    assert not (site / "da" / "assets").exists()


def test_each_scoring_page_holds_the_calculator_data_its_render_made(site: Path) -> None:
    """The engine built a stand-in for the data block (generator/site/languages.py, engine_pages):
    every finished page holds the JSON itself, byte for byte, and no stand-in is left anywhere."""
    from rulesdoc.io.project import Project
    from rulesdoc.pages.render import Workspace

    workspace = Workspace.load(Project.at(ROOT))
    results = workspace.render(workspace.languages)
    for code in PUBLISHED:
        found = re.search(
            r'<script type="application/json" id="rd-calc-data">(.*?)</script>',
            read(site, code, "scoring.html"),
        )
        assert found is not None and found.group(1) == results[code].calculator, code
    left = [path for path in site.rglob("*.html") if "rulesdoc-calculator-data-" in path.read_text("utf-8")]
    assert not left


def test_the_scoring_page_runs_the_bundles_scorer(site: Path) -> None:
    """The calculator's script and, beside it, the export bundle's scoring.mjs (not a copy)."""
    assert calculator_problems(site) == []

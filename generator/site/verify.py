"""``rulesdoc check --site DIR``: the built site has rulesdoc's pages, whatever engine built it.

An engine that does not run our plugin builds a green, empty site (Zensical on our mkdocs.yml:
a 404 page, assets, an empty search index). After every build, this verifies that every
published language has every page (in its language: ``<html lang>``), its own search index
listing them, and its 404 page. A site without them fails with one line each.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from rulesdoc.errors import display_path
from rulesdoc.i18n.translate import Language
from rulesdoc.site.languages import language_root, page_url
from rulesdoc.site.source import NOT_FOUND

# Where each engine writes a language's search index: Material's search plugin (MkDocs,
# ProperDocs), Zensical's own.
SEARCH_INDEXES = ("search/search_index.json", "search.json")
MAX_PAGE_BYTES = 16 * 1024 * 1024  # a page larger than this is no page of ours
_HTML_LANG = re.compile(r"<html\b[^>]*\blang=\"([^\"]*)\"")


@dataclass(frozen=True)
class Expected:
    languages: tuple[Language, ...]  # every published language, the source first
    pages: tuple[str, ...]  # the page names (index.md ...), every language has them
    directory_urls: bool


def verify(site: Path, expected: Expected) -> list[str]:
    """One line per problem; [] when every language has every page, its search index and 404."""
    if not site.is_dir():
        return [f"{display_path(site)}: no site here: build it first"]
    problems: list[str] = []
    urls = [page_url(name, expected.directory_urls) for name in expected.pages]
    if not any(_page_lang(site / language_root(lang), url) for lang in expected.languages for url in urls):
        return [
            f"{display_path(site)}: none of rulesdoc's pages is in this site (was it built without the "
            "rulesdoc plugin? build it with `rulesdoc build` or an engine that runs the plugin)"
        ]
    for language in expected.languages:
        folder = site / language_root(language)
        where = display_path(folder) if language_root(language) else display_path(site)
        missing = [url or "index.html" for url in urls if _page_lang(folder, url) is None]
        if missing:
            problems.append(
                f"{where}: {language.tag}: missing {', '.join(missing)}: rulesdoc's pages were not "
                "produced (was the site built by the rulesdoc plugin or `rulesdoc build`?)"
            )
        wrong = [
            f"{url or 'index.html'} ({lang})"
            for url in urls
            if (lang := _page_lang(folder, url)) is not None and lang != language.tag
        ]
        if wrong:
            problems.append(
                f"{where}: {language.tag}: pages not in their language (<html lang>): {', '.join(wrong)}"
            )
        if _page_lang(folder, NOT_FOUND) is None:
            problems.append(f"{where}: {language.tag}: no {NOT_FOUND} page of its own")
        problems.extend(_search_problems(folder, where, language, urls))
    return problems


def _page_path(folder: Path, url: str) -> Path:
    return folder / (url + "index.html" if url.endswith("/") or not url else url)


def _page_lang(folder: Path, url: str) -> str | None:
    """The page's ``<html lang>``, or None where there is no page of ours."""
    path = _page_path(folder, url)
    try:
        if not path.is_file() or path.stat().st_size > MAX_PAGE_BYTES:
            return None
        with path.open(encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    found = _HTML_LANG.search(head)
    return found.group(1) if found else None


def _search_problems(folder: Path, where: str, language: Language, urls: list[str]) -> list[str]:
    index = next((folder / name for name in SEARCH_INDEXES if (folder / name).is_file()), None)
    if index is None:
        return [f"{where}: {language.tag}: no search index of its own ({' or '.join(SEARCH_INDEXES)})"]
    try:
        data = json.loads(index.read_bytes()[:MAX_PAGE_BYTES])
        locations = {
            str(item.get("location", "")).split("#")[0] for item in data.get("docs", data.get("items", []))
        }
    except (ValueError, AttributeError, OSError):
        return [f"{display_path(index)}: {language.tag}: not a search index"]
    missing = [url or "index.html" for url in urls if url not in locations and (url or "./") not in locations]
    if missing:
        return [f"{display_path(index)}: {language.tag}: the search index lacks {', '.join(missing)}"]
    return []

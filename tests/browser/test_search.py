"""Search in every language finds that language's words, on its own pages only.

Each language build has its own search index and lunr pipeline; Malay has none in
Material and searches with English's, which must still find Malay words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest
from support import PUBLISHED

from . import expected
from .conftest import Problems

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

# The results of the query just typed are in: a result link highlights that very term.
ANSWERED_JS = """term => [...document.querySelectorAll(".md-search-result__link")]
    .some(link => new URL(link.href).searchParams.get("h") === term)"""


def search(page: Page, term: str) -> list[str]:
    from playwright.sync_api import Error

    box = page.locator(".md-search__input")
    box.click()
    box.fill(term)
    box.press("End")  # Material reads the query on keyup
    try:
        page.wait_for_function(ANSWERED_JS, arg=term.lower(), timeout=10_000)
    except Error:
        shown = page.locator(".md-search-result__meta").inner_text()
        pytest.fail(f"no search result for {term!r}; the search says {shown!r}", pytrace=False)
    links: list[str] = page.locator(".md-search-result__link").evaluate_all(
        "links => links.map(link => link.href)"
    )
    return links


def inside_language(path: str, code: str) -> bool:
    first = path.lstrip("/").split("/")[0]
    if code == "en":
        return first not in PUBLISHED
    return first == code


@pytest.mark.parametrize("code", PUBLISHED)
def test_search_finds_the_language_own_words(
    page: Page, problems: Problems, site_url: str, code: str
) -> None:
    page.goto(expected.page_url(site_url, code), wait_until="networkidle")
    for concept in ("joker", "target"):
        term = expected.glossary_term(code, concept)
        paths = [urlsplit(link).path for link in search(page, term)]
        elsewhere = [path for path in paths if not inside_language(path, code)]
        assert not elsewhere, f"searching {term!r} in {code} finds pages of another language: {elsewhere}"
        assert expected.page_path(code) in paths, f"searching {term!r} in {code} misses the scoring page"
    problems.assert_none()

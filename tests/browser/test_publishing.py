"""The site as a host serves it: GitHub Pages under a base path, 404 pages, the palette.

GitHub Pages serves a project site under ``/REPO/`` and, for every missing address, the
site's root ``404.html`` at that address, with status 404. The server here does the same with
the built site (built without ``site_url``, as the README's first build is).
"""

from __future__ import annotations

import contextlib
import http.server
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from rulesdoc.site.local_server import serving

from .conftest import Problems, site_languages, watched_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

REPO = "rami-help"


class _GitHubPages(http.server.SimpleHTTPRequestHandler):
    """Files under /REPO/; anything missing gets the site root's 404.html, status 404."""

    site: Path

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send_head(self) -> Any:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if path.startswith(f"/{REPO}/"):
            relative = path[len(REPO) + 2 :] or "index.html"
            target = self.site / relative
            if target.is_dir():
                target = target / "index.html"
            if target.is_file():
                self.path = "/" + target.relative_to(self.site).as_posix()
                return super().send_head()
        body = (self.site / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        return None


def github_pages(site: Path) -> contextlib.AbstractContextManager[str]:
    handler = type("Handler", (_GitHubPages,), {"site": site})
    return serving(site, handler, base=f"/{REPO}/")


@pytest.fixture(scope="module")
def pages_url(built_site: Path) -> Iterator[str]:
    with github_pages(built_site) as url:
        yield url


# What the reader sees of a 404 page: its language, whether Material's stylesheet applies (the
# header is fixed or sticky only then), the switcher's links, resolved.
NOT_FOUND_JS = """() => ({
    lang: document.documentElement.lang,
    path: location.pathname,
    styled: ["fixed", "sticky"].includes(getComputedStyle(document.querySelector(".md-header")).position),
    switcher: [...document.querySelectorAll(".md-select__link")].map(a => [a.hreflang, a.href]),
    heading: document.querySelector("article h1").textContent.trim(),
})"""


def _open(page: Page, url: str) -> dict[str, Any]:
    page.goto(url, wait_until="networkidle")
    return page.evaluate(NOT_FOUND_JS)  # type: ignore[no-any-return]


def _unexpected(problems: Problems) -> list[str]:
    """The problems but 404s under the missing address: the page's own status (that is the
    point), and the browser's speculative loads of its stylesheets and scripts, read ahead
    relative to the address before the page's script points them at the site root."""
    return [line for line in problems.all() if f"/{REPO}/missing" not in line and "/missing/" not in line]


def test_a_missing_address_under_a_language_shows_that_languages_404_page(
    browser: Browser, problems: Problems, built_site: Path, pages_url: str
) -> None:
    with watched_page(browser, problems) as page:
        languages = [language for language in site_languages(built_site) if language.root]
        assert languages
        for language in languages:
            found = _open(page, f"{pages_url}{language.root}missing/deeper/page.html")
            assert found["lang"] == language.tag, found
            assert found["path"] == f"/{REPO}/{language.root}404.html", found
            assert found["styled"], found
            origin = pages_url[: -len(f"/{REPO}/")]
            expected = {tag: f"{origin}/{REPO}/{root}404.html" for tag, root in _roots(built_site).items()}
            assert dict(found["switcher"]) == expected, found
    assert not _unexpected(problems), _unexpected(problems)


def _roots(site: Path) -> dict[str, str]:
    return {language.tag: language.root for language in site_languages(site)}


@pytest.mark.parametrize("missing", ["missing.html", "missing/a/b/c.html"])
def test_the_root_404_page_is_styled_and_switches_language_at_any_depth(
    browser: Browser, problems: Problems, built_site: Path, pages_url: str, missing: str
) -> None:
    with watched_page(browser, problems) as page:
        found = _open(page, pages_url + missing)
        assert found["path"] == f"/{REPO}/{missing}"  # shown where the reader asked
        assert found["styled"], found
        origin = pages_url[: -len(f"/{REPO}/")]
        expected = {tag: f"{origin}/{REPO}/{root}404.html" for tag, root in _roots(built_site).items()}
        assert dict(found["switcher"]) == expected, found
        # The switcher's link to a language reaches its 404 page, in that language.
        page.locator(".md-header .md-select").hover()
        page.locator(".md-header .md-select__link[hreflang='da']").click()
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == "da"
    assert not _unexpected(problems), _unexpected(problems)


def test_the_readers_palette_carries_from_one_language_to_another(
    browser: Browser, problems: Problems, built_site: Path, pages_url: str
) -> None:
    """Chosen dark on the English page, the Danish and Hindi pages open dark, and back: Material
    keeps the choice under the site root, not under each language's folder."""
    scheme = "document.body.getAttribute('data-md-color-scheme')"
    with watched_page(browser, problems, color_scheme="light") as page:
        page.goto(pages_url + "scoring.html", wait_until="networkidle")
        assert page.evaluate(scheme) == "default"
        page.locator("[data-md-component=palette] label:visible").click()
        assert page.evaluate(scheme) == "slate"
        for root in ("da/", "hi/"):
            page.goto(f"{pages_url}{root}scoring.html", wait_until="networkidle")
            assert page.evaluate(scheme) == "slate", root
        page.locator("[data-md-component=palette] label:visible").click()  # light again, in Hindi
        page.goto(pages_url + "index.html", wait_until="networkidle")
        assert page.evaluate(scheme) == "default"
        page.goto(pages_url + "da/missing/page.html", wait_until="networkidle")  # its 404 page too
        assert page.evaluate(scheme) == "default"
    assert not _unexpected(problems), _unexpected(problems)

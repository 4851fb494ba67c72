"""The accessibility gate: axe-core finds nothing on any page of any language, light or dark.

Every page of every language the built site offers (read from the site itself, so a language
added to the catalogs is covered without a change here), in the light and the dark scheme as
the reader's system asks for it, on a desktop and on a phone: zero violations of the WCAG 2.0
A/AA and 2.1 A/AA rules (tests/browser/axe_gate.py says which rules, and which are off: none).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import PUBLISHED

from . import axe_gate
from .conftest import Problems, site_languages, watched_page

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

SCHEMES = {"light": "default", "dark": "slate"}  # the reader's setting -> Material's scheme
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 360, "height": 800}}


def open_page(page: Page, url: str, scheme: str) -> None:
    """Load a page and wait until Material has applied the scheme the reader's system asks for."""
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, url
    page.wait_for_function("scheme => document.body.dataset.mdColorScheme === scheme", arg=SCHEMES[scheme])


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("scheme", SCHEMES)
def test_no_page_of_any_language_has_an_accessibility_violation(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, scheme: str, viewport: str
) -> None:
    languages = site_languages(built_site)
    assert {language.tag for language in languages} >= set(PUBLISHED), "languages missing from the site"
    with watched_page(browser, problems, viewport=VIEWPORTS[viewport], color_scheme=scheme) as page:
        found: list[str] = []
        checked = 0
        for language in languages:
            pages = language.pages(built_site)
            assert {language.root + name for name in ("index.html", "scoring.html", "404.html")} <= set(pages)
            for path in pages:
                open_page(page, site_url + path, scheme)
                result = axe_gate.run(page)
                # The gate is not empty: the page's text was measured against its background.
                assert "color-contrast" in result.applied, f"{path}: axe {result.version} checked no contrast"
                found += result.lines(f"{path} ({scheme}, {viewport})")
                checked += 1
    assert not found, f"{len(found)} accessibility violation(s) on {checked} pages:\n" + "\n".join(found)
    problems.assert_none()


def test_the_gate_fails_on_the_footer_contrast_it_was_built_for(
    browser: Browser, problems: Problems, site_url: str
) -> None:
    """Material's own footer colour (4.47:1 on its black) put back: the gate must report it."""
    with watched_page(browser, problems, color_scheme="light") as page:
        open_page(page, site_url + "scoring.html", "light")
        page.add_style_tag(content=".md-copyright { color: var(--md-footer-fg-color--lighter); }")
        result = axe_gate.run(page)
    failing = [
        node["target"]
        for rule in result.violations
        if rule["id"] == "color-contrast"
        for node in rule["nodes"]
    ]
    assert failing == [".md-copyright"], result.lines("scoring.html")

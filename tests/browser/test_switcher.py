"""The language switcher goes from every language to every other one, and stays on the same page."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from support import PUBLISHED

from . import expected
from .conftest import Problems

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("code", PUBLISHED)
def test_switcher_reaches_every_other_language_on_the_same_page(
    page: Page, problems: Problems, site_url: str, code: str
) -> None:
    here = expected.page_url(site_url, code)
    for other in PUBLISHED:
        if other == code:
            continue
        page.goto(here)
        # Material's switcher: a list in the header, shown while the pointer is on its button.
        page.locator(".md-header .md-select").hover()
        link = page.locator(f".md-header .md-select__link[hreflang='{other}']")
        link.click()
        page.wait_for_url(expected.page_url(site_url, other))
        assert page.locator("html").get_attribute("lang") == other, f"{code} → {other}"
    problems.assert_none()

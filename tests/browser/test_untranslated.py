"""A page whose catalog lags behind, in a real browser: English marked the standard way.

A copy of the project loses two Hindi translations (a heading, "Counting points", and
"In short"), the situation of a rule change merged before the translator answers. The
strict build passes (a gap is a warning: generator/i18n/policy.py), and the reader gets the
English text with ``lang="en"`` (screen readers switch voice), one translated notice near
the top, and no marker glyph in the tab title, the heading or the navigation.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from support import copy_project
from support.newlang import build_site

from rulesdoc.i18n.translate import catalog_path
from rulesdoc.site.local_server import serving

from .conftest import Problems, watched_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

NOTICE_HI = "इस पृष्ठ के कुछ हिस्सों का अनुवाद अभी नहीं हुआ है, इसलिए वे अंग्रेज़ी में दिखाए गए हैं।"


@pytest.fixture(scope="module")
def lagging_site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = copy_project(tmp_path_factory.mktemp("lagging") / "project")
    path = catalog_path(project / "locales", "hi")
    text = path.read_text("utf-8")
    for msgid in ("Counting points", "In short"):
        start = text.index(f'msgid "{msgid}"\nmsgstr "') + len(f'msgid "{msgid}"\nmsgstr "')
        text = text[:start] + text[text.index('"\n', start) :]  # msgstr ""
    path.write_text(text, "utf-8")
    site = project.parent / "site"
    result = build_site(project, site)
    assert result.returncode == 0, result.stdout + result.stderr  # warnings, not errors
    with serving(site) as url:
        yield url


def test_english_fallback_is_marked_lang_en_with_one_notice(
    browser: Browser, problems: Problems, lagging_site: str
) -> None:
    with watched_page(browser, problems) as page:
        page.goto(lagging_site + "hi/scoring.html")
        assert page.evaluate("document.documentElement.lang") == "hi"
        heading = page.locator("h1")
        # The English heading: its language is English for the browser (lang inherited by the text).
        assert heading.locator("span.rd-untranslated").inner_text() == "Counting points"
        assert heading.locator("span.rd-untranslated").evaluate("e => e.closest('[lang]').lang") == "en"
        short = page.locator("h2", has_text="In short")
        assert short.locator("[lang=en]").count() == 1
        # No glyph in the tab title, the headings or the navigation.
        title = page.title()
        assert title.startswith("Counting points") and "⚠" not in title
        assert "⚠" not in page.locator("body").inner_text()
        # One notice, translated, near the top: right under the heading, before the first section.
        notice = page.locator("[role=note].rd-untranslated-notice")
        assert notice.count() == 1 and notice.is_visible()
        assert NOTICE_HI in notice.inner_text()
        assert notice.evaluate("e => e.closest('[lang]').lang") == "hi"
        above = page.evaluate(
            "() => document.querySelector('.rd-untranslated-notice').getBoundingClientRect().top"
            " < document.querySelector('h2').getBoundingClientRect().top"
        )
        assert above
        link = notice.locator("a")
        # The status page, at the Hindi list of messages waiting for a translator.
        assert link.get_attribute("href") == "translation-status.html#हिन्दी-hi"
        # A fully translated page has no notice.
        page.goto(lagging_site + "hi/translation-status.html")
        assert page.locator(".rd-untranslated-notice").count() == 0
        assert page.locator("[id='हिन्दी-hi']").inner_text().startswith("हिन्दी (hi)")
        problems.assert_none()

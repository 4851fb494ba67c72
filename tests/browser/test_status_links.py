"""The translator's path in a real browser: from a Danish page's notice to the Danish list on the
status page, and from each listed message to the section of the Danish page where it shows.

A copy of the project (seed rules) loses three Danish translations: a heading ("In short"), a
table header under a translated heading ("Card") and a worked example's title (rules.yaml's, put
on the page by the view model). The strict build passes (gaps are warnings).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import unquote

import pytest
from support import copy_project
from support.newlang import build_site

from rulesdoc.i18n.translate import catalog_path
from rulesdoc.site.local_server import serving
from rulesdoc.spec.rules import load_rules

from .conftest import Problems, watched_page

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

pytestmark = pytest.mark.browser

# The text of a heading's section: the heading and what follows it up to the next heading of its
# level or above.
SECTION_TEXT = """id => {
    const heading = document.getElementById(id);
    if (!heading) return null;
    const level = Number(heading.tagName.slice(1));
    let text = heading.textContent;
    for (let node = heading.nextElementSibling; node; node = node.nextElementSibling) {
        const match = /^H([1-6])$/.exec(node.tagName);
        if (match && Number(match[1]) <= level) break;
        text += "\\n" + node.textContent;
    }
    return text;
}"""
DANISH_LIST = "da/translation-status.html#dansk-da"


def open_the_danish_list(page: Page, url: str, link: Locator, blanked: list[str]) -> Locator:
    """Follow ``link`` (a notice's, a list's, a table's): the Danish status page opens at its list,
    which names each blanked message once. The list's items."""
    link.click()
    page.wait_for_load_state()
    assert unquote(page.url) == url + DANISH_LIST
    danish_list = page.locator("#dansk-da + ul > li")
    assert danish_list.count() == len(blanked)
    return danish_list


@pytest.fixture(scope="module")
def danish_gaps(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, list[str]]]:
    project = copy_project(tmp_path_factory.mktemp("danish-gaps") / "project")
    title = load_rules(project / "rules.yaml").examples[0].title
    path = catalog_path(project / "locales", "da")
    text = path.read_text("utf-8")
    blanked = ["In short", "Card", title]
    for msgid in blanked:
        text, count = re.subn(rf'^(msgid "{re.escape(msgid)}"\nmsgstr )"[^"\n]*"$', r'\1""', text, flags=re.M)
        assert count == 1, msgid
    path.write_text(text, "utf-8")
    site = project.parent / "site"
    result = build_site(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    with serving(site) as url:
        yield url, blanked


def test_each_waiting_message_opens_the_danish_section_where_it_shows(
    browser: Browser, problems: Problems, danish_gaps: tuple[str, list[str]]
) -> None:
    url, blanked = danish_gaps
    with watched_page(browser, problems) as page:
        # The notice's "Help translate them" opens the Danish list of the status page.
        page.goto(url + "da/scoring.html")
        danish_list = open_the_danish_list(page, url, page.locator(".rd-untranslated-notice a"), blanked)
        items = [
            (
                danish_list.nth(i).locator(".rd-quoted").first.inner_text(),
                danish_list.nth(i).locator("a").get_attribute("href"),
            )
            for i in range(danish_list.count())
        ]
        assert sorted(text for text, _ in items) == sorted(blanked)
        for english, href in items:
            assert href is not None and href.startswith("scoring.html#"), (english, href)
            page.goto(url + DANISH_LIST)
            page.locator("#dansk-da + ul > li", has_text=english).locator("a").click()
            page.wait_for_load_state()
            assert unquote(page.url) == url + "da/" + href
            anchor = href.split("#", 1)[1]
            section = page.evaluate(SECTION_TEXT, anchor)
            assert section is not None, f"no element #{anchor} on the Danish page"
            # The message shows there, in English (it waits for its Danish translation).
            assert english in section, (english, anchor)
            assert page.locator(f"[id='{anchor}']").evaluate("e => e.closest('[lang]').lang") == "da"
        problems.assert_none()


def test_other_languages_status_pages_link_to_the_danish_list_and_list_nothing_danish(
    browser: Browser, problems: Problems, danish_gaps: tuple[str, list[str]]
) -> None:
    # Issue 32: each status page lists its own language's messages only; the English page's list
    # and every page's table link to the Danish list on the Danish page, in the site's URL scheme.
    url, blanked = danish_gaps
    with watched_page(browser, problems) as page:
        for start, links in (("translation-status.html", 2), ("nl/translation-status.html", 1)):
            page.goto(url + start)
            assert page.locator(".md-content .rd-quoted").count() == 0  # no English message quoted: no list
            danish = page.locator(".md-content a[hreflang=da]", has_text="Dansk")
            assert danish.count() == links, start
            open_the_danish_list(page, url, danish.first, blanked)
        problems.assert_none()

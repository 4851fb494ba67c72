"""A right-to-left page and a CJK page, in a real browser: the language issue's new scripts.

A copy of the project gets Hebrew (right-to-left), Arabic (right-to-left, its own digits
none: CLDR's Arabic writes Latin ones) and Traditional Chinese (a script subtag, CJK
glyphs) through `catalog init`, their theme chrome prefilled from Material and a few
headings translated, and is built strictly and served like the published site.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from conftest import copy_project
from newlang import build_site, fill

from generator import catalogs

from . import axe_gate
from .conftest import Problems, open_context, serving, site_languages
from .test_accessibility import open_page
from .test_layout import WIDTHS_JS, _platform_fonts

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

WORDS = {
    "he": {"Counting points": "ספירת נקודות", "In short": "בקצרה", "Permanent link": "קישור קבוע",
           "Made with %(name)s": "נבנה עם %(name)s", "404 - Not found": "404 - הדף לא נמצא",
           "Rami help": "עזרה ברמי"},
    "ar": {"Counting points": "حساب النقاط", "In short": "باختصار", "Permanent link": "رابط دائم",
           "Made with %(name)s": "صُنع باستخدام %(name)s", "404 - Not found": "404 - الصفحة غير موجودة",
           "Rami help": "مساعدة رامي"},
    "zh-Hant": {"Counting points": "計算分數", "In short": "簡而言之", "Permanent link": "永久連結",
                "Made with %(name)s": "使用 %(name)s 製作", "404 - Not found": "404 - 找不到頁面",
                "Rami help": "拉米說明"},
}  # fmt: skip


@pytest.fixture(scope="session")
def world_site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("world") / "project")
    for code, words in WORDS.items():
        fill(catalogs.init(project / "locales", code), theme="keep", words=words)
    site = project.parent / "site"
    result = build_site(project, site)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}{result.stderr}", pytrace=False)
    return site


@pytest.fixture(scope="session")
def world_url(world_site: Path) -> Iterator[str]:
    with serving(world_site) as url:
        yield url


DIRECTION_JS = """() => {
    const box = s => { const e = document.querySelector(s); if (!e) return null;
                       const r = e.getBoundingClientRect(); return {left: r.left, right: r.right}; };
    return {html: document.documentElement.dir, body: getComputedStyle(document.body).direction,
            heading: getComputedStyle(document.querySelector("article h1")).textAlign,
            nav: box(".md-sidebar--primary"), content: box(".md-content"),
            chip: document.querySelector(".rd-card").dir};
}"""


@pytest.mark.parametrize("code", ["he", "ar"])
def test_a_right_to_left_page_runs_right_to_left(
    page: Page, problems: Problems, world_url: str, artifacts: Path, code: str
) -> None:
    page.goto(f"{world_url}{code}/scoring.html", wait_until="networkidle")
    found = page.evaluate(DIRECTION_JS)
    assert found["html"] == "rtl" and found["body"] == "rtl"
    assert found["heading"] in ("start", "right")
    # Material's right-to-left layout: the navigation is on the right of the content.
    assert found["nav"]["left"] >= found["content"]["left"], found
    assert found["chip"] == "auto"  # a card chip is isolated: it neither reorders nor is reordered
    assert page.locator("article h1").inner_text().startswith(WORDS[code]["Counting points"])
    page.screenshot(path=str(artifacts / f"scoring-{code}-rtl.png"), full_page=True)
    problems.assert_none()


def test_arabic_renders_in_a_real_font(page: Page, problems: Problems, world_url: str) -> None:
    page.goto(f"{world_url}ar/scoring.html", wait_until="networkidle")
    letters = ["ب", "ح", "ع", "ﻻ"]
    widths = page.evaluate(WIDTHS_JS, letters)
    assert all(width > 0 for width in widths) and len({round(w, 1) for w in widths}) > 1, (
        f"Arabic letters {widths}: boxes, no Arabic font? ({_platform_fonts(page, 'article h1')})"
    )
    problems.assert_none()


def test_a_cjk_page_renders_in_a_real_font(
    page: Page, problems: Problems, world_url: str, artifacts: Path
) -> None:
    page.goto(f"{world_url}zh-Hant/scoring.html", wait_until="networkidle")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("article h1").inner_text().startswith("計算分數")
    assert page.get_attribute("input.md-search__input", "placeholder") == "搜尋"  # Material's, prefilled
    letters = ["計", "一", "數", "說"]
    widths = page.evaluate(WIDTHS_JS, letters)
    fonts = _platform_fonts(page, "article h1")
    # A missing glyph is a box; the fonts list names what drew the heading.
    assert all(width > 0 for width in widths), widths
    assert any("WenQuanYi" in font or "Micro Hei" in font for font in fonts), fonts
    page.screenshot(path=str(artifacts / "scoring-zh-Hant.png"), full_page=True)
    problems.assert_none()


def test_searching_chinese_finds_a_word_inside_a_sentence(page: Page, world_url: str) -> None:
    """No spaces between CJK words: the index is tokenized per character, so a word inside a
    heading still finds it."""
    page.goto(f"{world_url}zh-Hant/scoring.html", wait_until="networkidle")
    box = page.locator(".md-search__input")
    box.click()
    box.fill("分數")
    box.press("End")  # Material reads the query on keyup
    try:
        page.wait_for_selector(".md-search-result__item", timeout=10_000)
    except Exception:
        pytest.fail(f"no result: {page.locator('.md-search-result__meta').inner_text()!r}", pytrace=False)
    titles = page.locator(".md-search-result__item").all_inner_texts()
    assert any("計算分數" in title for title in titles), titles


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_accessibility_gate_holds_for_the_new_scripts(
    browser: Browser, problems: Problems, world_site: Path, world_url: str, scheme: str
) -> None:
    """axe-core's WCAG 2.1 AA rules on every page of the right-to-left and CJK languages."""
    languages = [language for language in site_languages(world_site) if language.tag in WORDS]
    assert {language.tag for language in languages} == set(WORDS)
    context = open_context(browser, problems, color_scheme=scheme)
    found: list[str] = []
    try:
        page = context.new_page()
        problems.watch(page)
        for language in languages:
            for path in language.pages(world_site):
                open_page(page, world_url + path, scheme)
                result = axe_gate.run(page)
                assert "color-contrast" in result.applied, path
                found += result.lines(f"{path} ({scheme})")
    finally:
        context.close()
    assert not found, "\n".join(found)
    problems.assert_none()

"""The scoring page printed: a rules sheet in every language, with no screen chrome on it.

Each language's scoring page is printed to PDF by Chromium on A4 (tests/artifacts/
print-scoring-<lang>.pdf) and read back with pypdf: a sane number of pages, the page's
title and site name in its language as the document's title, every value of the rules and
every example's scores and arithmetic in its text, each example on one page. The print
layout itself is measured with print media emulated at the paper's width: nothing wider
than the paper, no navigation, search, tabs, toggles or footer, the site's name on top.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from . import expected
from .conftest import Problems, site_languages, watched_page

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

MARGIN = "1.5cm"
PAPER = {"format": "A4", "margin": {side: MARGIN for side in ("top", "right", "bottom", "left")}}
PAPER_WIDTH = round((210 - 2 * 15) / 25.4 * 96)  # A4 inside the margins, in CSS pixels
PAGES = range(2, 7)  # a sheet, not a booklet
# What a sheet must not show: the screen's chrome.
CHROME = {
    "navigation": ".md-sidebar--primary",
    "table of contents": ".md-sidebar--secondary",
    "search": ".md-search",
    "header tabs": ".md-tabs",
    "footer": ".md-footer",
    "palette toggle": "[data-md-component=palette]",
    "language menu": ".md-select",
    "menu button": ".md-header__button",
    "back-to-top button": ".md-top",
}

# Per example, what the sheet must hold: each seat's points and the arithmetic's numbers.
SHEET_JS = """() => {
    const table = [...document.querySelectorAll("article table")].find(t => t.querySelector(".rd-hand"));
    return {
        title: document.title,
        siteName: document.querySelector(".md-header__topic").textContent.trim(),
        examples: [...table.tBodies[0].rows].map(row => ({
            points: [...row.querySelectorAll(".rd-points")].map(points => points.lastChild.textContent.trim()),
            sums: [...row.querySelectorAll(".rd-sum small")].map(small => small.textContent.trim()),
            breakInside: getComputedStyle(row).breakInside,
        })),
    };
}"""

# The print layout at the paper's width: what sticks out, what scrolls, what is shown.
LAYOUT_JS = """chrome => {
    const shown = e => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden";
    const topic = document.querySelector(".md-header__topic");
    return {
        pageWidth: document.documentElement.scrollWidth,
        wide: [...document.querySelectorAll("article *")]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + "." + e.className),
        scrolling: [...document.querySelectorAll(".md-typeset__scrollwrap")]
            .filter(e => e.scrollWidth > e.clientWidth + 1).length,
        chrome: Object.entries(chrome).filter(([, selector]) =>
            [...document.querySelectorAll(selector)].some(shown)).map(([name]) => name),
        siteNameShown: shown(topic) && topic.getBoundingClientRect().top < document.querySelector("article h1")
            .getBoundingClientRect().top,
        colors: [...document.querySelectorAll("article p, article td, .rd-suit")]
            .map(e => getComputedStyle(e).color),
    };
}"""


def pdf_pages(data: bytes) -> tuple[list[str], dict[str, Any]]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    return [page.extract_text() or "" for page in reader.pages], dict(reader.metadata or {})


def squeezed(text: str) -> str:
    """Text without any whitespace: PDF text extraction spaces numbers and signs its own way."""
    return re.sub(r"\s+", "", text)


def numeric_part(arithmetic: str) -> str:
    """The sum of an arithmetic line ("10 + 9 + 25 = 74" of "10 + 9 + 25 = 74, capped at 50..."):
    digits survive text extraction in every script, words of some scripts do not."""
    match = re.match(r"[\d\s+=.,\u00a0\u202f]*\d", arithmetic)
    assert match, f"no numbers in the arithmetic {arithmetic!r}"
    return squeezed(match.group(0))


def has_number(text: str, number: str) -> bool:
    """A number as a whole ("50", not the end of "150" nor the start of "50.000"), however the
    extraction spaced its group separators."""
    pattern = r"\s*".join(re.escape(part) for part in number.split())
    return re.search(rf"(?<![\d.,]){pattern}(?![.,]?\d)", text) is not None


def contrast_on_white(css_color: str) -> float:
    """WCAG contrast ratio of an opaque ``rgb(...)`` colour against white paper."""
    channels = [int(value) / 255 for value in re.findall(r"\d+", css_color)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    return 1.05 / (luminance + 0.05)


def test_each_language_prints_a_rules_sheet(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, artifacts: Path
) -> None:
    # A reader whose system is dark still gets dark text on white paper.
    with watched_page(browser, problems, color_scheme="dark") as page:
        for language in site_languages(built_site):
            page.goto(site_url + language.root + "scoring.html", wait_until="networkidle")
            sheet = print_sheet(page, language.tag, artifacts)
            check_sheet(language.tag, sheet)
    problems.assert_none()


def print_sheet(page: Page, tag: str, artifacts: Path) -> dict[str, Any]:
    # First the PDF, as a reader's "Print" makes it (print media; emulating "screen" would win).
    data = page.pdf(path=artifacts / f"print-scoring-{tag}.pdf", **PAPER)
    page.set_viewport_size({"width": PAPER_WIDTH, "height": 1000})
    page.emulate_media(media="print")
    try:
        sheet: dict[str, Any] = page.evaluate(SHEET_JS)
        sheet["layout"] = page.evaluate(LAYOUT_JS, CHROME)
    finally:
        page.emulate_media(media="null")  # no emulation: the next language loads as on a screen
    sheet["pages"], sheet["metadata"] = pdf_pages(data)
    return sheet


def check_sheet(tag: str, sheet: dict[str, Any]) -> None:
    layout, pages = sheet["layout"], sheet["pages"]
    assert layout["pageWidth"] <= PAPER_WIDTH + 1 and not layout["wide"], (
        f"{tag}: wider than the paper: {sorted(set(layout['wide']))[:8]}"
    )
    assert layout["scrolling"] == 0, f"{tag}: {layout['scrolling']} table(s) cut at the paper's edge"
    assert not layout["chrome"], f"{tag}: the sheet shows {layout['chrome']}"
    assert layout["siteNameShown"], (
        f"{tag}: the site's name ({sheet['siteName']!r}) is not on top of the sheet"
    )
    faint = sorted({color for color in layout["colors"] if contrast_on_white(color) < 4.5})
    assert not faint, f"{tag}: text or suits printed too faint for white paper: {faint}"

    assert len(pages) in PAGES, f"{tag}: {len(pages)} pages"
    # The sheet names itself in its language: "Tælle point - Hjælp til Rami".
    assert sheet["metadata"].get("/Title") == sheet["title"] and sheet["siteName"] in sheet["title"], tag

    text = "\n".join(pages)
    # No screen chrome in the PDF either: the footer would say "Made with Material for MkDocs".
    assert "Material for MkDocs" not in text, f"{tag}: the footer is printed"
    # The rules' values: the card values and the target for every number of players.
    for number in expected.card_values(tag):
        assert has_number(text, number), f"{tag}: card value {number} not on the sheet"
    for _, target in expected.targets(tag):
        assert has_number(text, target), f"{tag}: target {target} not on the sheet"

    # Every example's scores and arithmetic, the example whole on one page.
    for number, (example, scores) in enumerate(
        zip(sheet["examples"], expected.round_points(tag), strict=True), 1
    ):
        assert example["points"] == scores, f"{tag}, example {number}: {example['points']} on the page"
        assert example["breakInside"] == "avoid", f"{tag}, example {number} may be split over two pages"
        sums = [numeric_part(line) for line in example["sums"]]
        whole = [
            i
            for i, page in enumerate(pages, 1)
            if all(s in squeezed(page) for s in sums) and all(has_number(page, score) for score in scores)
        ]
        assert whole, f"{tag}, example {number}: its scores {scores} and arithmetic {sums} are on no one page"

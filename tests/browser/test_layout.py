"""How the pages render: Hindi in a real font, the examples table on a narrow screen."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from conftest import PUBLISHED

from . import expected
from .conftest import Problems

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

NARROW = 360  # CSS pixels: a small phone

# Rendered widths of single Devanagari letters, in the article's font.
WIDTHS_JS = """letters => {
    const article = document.querySelector("article");
    return letters.map(letter => {
        const span = document.createElement("span");
        span.textContent = letter;
        span.style.cssText = "position: absolute; white-space: nowrap";
        article.appendChild(span);
        const width = span.getBoundingClientRect().width;
        span.remove();
        return width;
    });
}"""

# The examples table at the current width: its scroll containers, cells and inline items.
TABLE_JS = """() => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
    const table = document.querySelectorAll("article table")[1];
    const containers = [];
    for (let e = table; e && e.tagName !== "ARTICLE"; e = e.parentElement)
        containers.push({name: e.tagName + "." + e.className, overflowX: getComputedStyle(e).overflowX,
                         scrollWidth: e.scrollWidth, clientWidth: e.clientWidth});
    const cells = [...table.querySelectorAll("th, td")];
    const items = [];
    cells.forEach((cell, index) => {
        for (const item of cell.querySelectorAll(".rd-card, strong"))
            items.push({text: item.textContent.trim(), cell: index,  // one box per line it is on
                        boxes: [...item.getClientRects()].map(r => [r.left, r.top, r.right, r.bottom])});
    });
    const clipped = e => {  // inside a container that scrolls or clips sideways
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
            if (getComputedStyle(a).overflowX !== "visible") return true;
        return false;
    };
    const wide = [...document.body.querySelectorAll("*")]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !clipped(e))
        .map(e => e.tagName + "." + e.className);
    return {containers, cells: cells.map(box), items, wide,
            pageWidth: document.documentElement.scrollWidth};
}"""


def overlap(a: list[float], b: list[float], tolerance: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > tolerance and min(a[3], b[3]) - max(a[1], b[1]) > tolerance


def inside(inner: list[float], outer: list[float], tolerance: float = 1.0) -> bool:
    return (inner[0] >= outer[0] - tolerance and inner[2] <= outer[2] + tolerance
            and inner[1] >= outer[1] - tolerance and inner[3] <= outer[3] + tolerance)  # fmt: skip


def test_hindi_renders_in_a_real_font(page: Page, problems: Problems, site_url: str) -> None:
    """Missing glyphs are drawn as boxes of one width: real letters differ."""
    page.goto(expected.page_url(site_url, "hi"), wait_until="networkidle")
    letters = ["क", "ि", "ॐ", "श्र"]
    widths = page.evaluate(WIDTHS_JS, letters)
    fonts = _platform_fonts(page, "article h1")
    assert all(width > 0 for width in widths), dict(zip(letters, widths, strict=True))
    assert len({round(width, 1) for width in widths}) > 1, (
        f"Devanagari letters all {widths[0]:.1f} px wide: boxes, no Devanagari font? (fonts used: {fonts})"
    )
    problems.assert_none()


def _platform_fonts(page: Page, selector: str) -> list[str]:
    """The system fonts Chromium drew an element's text with (for the failure message)."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    cdp.send("CSS.enable")
    fonts: list[dict[str, Any]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    cdp.detach()
    return [f"{font['familyName']} ({font['glyphCount']} glyphs)" for font in fonts]


@pytest.mark.parametrize("code", PUBLISHED)
def test_examples_table_stays_readable_on_a_narrow_screen(
    page: Page, problems: Problems, site_url: str, code: str
) -> None:
    page.set_viewport_size({"width": NARROW, "height": 800})
    page.goto(expected.page_url(site_url, code), wait_until="networkidle")
    found = page.evaluate(TABLE_JS)

    # Either the table scrolls sideways in its container, or it fits and its cells do not overlap.
    scrolls = any(
        c["overflowX"] in ("auto", "scroll") and c["scrollWidth"] > c["clientWidth"]
        for c in found["containers"]
    )
    cells = found["cells"]
    overlapping_cells = [(a, b) for i, a in enumerate(cells) for b in cells[i + 1 :] if overlap(a, b)]
    assert scrolls or not overlapping_cells, f"table cells overlap: {overlapping_cells[:3]}"

    # No text runs into other text or out of its cell: labels and card chips.
    items = found["items"]
    for i, item in enumerate(items):
        for box in item["boxes"]:
            assert inside(box, cells[item["cell"]]), f"{item['text']!r} sticks out of its cell"
            for other in items[i + 1 :]:
                assert not any(overlap(box, o) for o in other["boxes"]), (
                    f"{item['text']!r} overlaps {other['text']!r}"
                )

    # The page itself does not scroll sideways.
    assert found["pageWidth"] <= NARROW + 1, (
        f"the {code} page is {found['pageWidth']} px wide at {NARROW} px; "
        f"sticking out: {sorted(set(found['wide']))[:8]}"
    )
    problems.assert_none()

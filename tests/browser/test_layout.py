"""How the pages render: Hindi in a real font, the worked examples on a phone and on a desktop.

On a phone (below 720 px) each worked example reads as a block: its title and explanation,
then one line per seat (label and cards, the points at the end of the line) and the
arithmetic under it; on wider screens it is a table whose seat labels stay whole. Every
language the built site offers is measured (read from the site, so a new one is too).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from . import expected
from .conftest import Problems, SiteLanguage, site_languages, watched_page

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

NARROW = 360  # CSS pixels: a small phone
WIDE = (720, 1280)  # the narrowest width with the table (Material's tablet breakpoint), a desktop

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


# The worked examples as laid out now: per example its row, title and seats; per seat the
# boxes of its label (one per line it is on), chips, points (the number's own box, not its
# grid area) and arithmetic. Boxes are [left, top, right, bottom] in CSS pixels.
EXAMPLES_JS = """() => {
    const box = r => [r.left, r.top, r.right, r.bottom];
    const lines = e => [...e.getClientRects()].map(box);
    const textBox = node => { const range = document.createRange(); range.selectNodeContents(node);
                              return box(range.getBoundingClientRect()); };
    const table = [...document.querySelectorAll("article table")].find(t => t.querySelector(".rd-hand"));
    const wrap = table.closest(".md-typeset__scrollwrap");
    const examples = [...table.tBodies[0].rows].map(row => ({
        display: getComputedStyle(row).display,
        title: box(row.cells[0].querySelector("strong").getBoundingClientRect()),
        situation: box(row.cells[0].getBoundingClientRect()),
        seats: [...row.cells[1].querySelectorAll(".rd-hand")].map((hand, i) => {
            const points = row.cells[2].querySelectorAll(".rd-points")[i];
            const next = points.nextElementSibling;
            const sum = next && next.classList.contains("rd-sum") ? next.querySelector("small") : null;
            const label = hand.querySelector(":scope > strong");
            return {
                label: label.textContent.trim(), labelLines: lines(label),
                pointsLabelLines: lines(points.querySelector(":scope > strong")),
                points: points.lastChild.textContent.trim(), pointsLines: lines(points),
                number: textBox(points.lastChild),
                chips: [...hand.querySelectorAll(".rd-card")].map(chip => ({text: chip.textContent.trim(),
                                                                          boxes: lines(chip)})),
                sum: sum && {text: sum.textContent.trim(), boxes: lines(sum)},
            };
        }),
    }));
    const clipped = e => {  // inside a container that scrolls or clips sideways
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
            if (getComputedStyle(a).overflowX !== "visible") return true;
        return false;
    };
    const wide = [...document.body.querySelectorAll("*")]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1 && !clipped(e))
        .map(e => e.tagName + "." + e.className);
    return {examples, wide, pageWidth: document.documentElement.scrollWidth, innerWidth,
            tableScroll: [wrap.scrollWidth, wrap.clientWidth]};
}"""


# The examples table wrapped for sideways scrolling, as the theme's script does as it starts.
EXAMPLES_WRAPPED = """() => {
    const table = [...document.querySelectorAll("article table")].find(t => t.querySelector(".rd-hand"));
    return table !== undefined && table.closest(".md-typeset__scrollwrap") !== null;
}"""


def overlap(a: list[float], b: list[float], tolerance: float = 0.5) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > tolerance and min(a[3], b[3]) - max(a[1], b[1]) > tolerance


def same_line(a: list[float], b: list[float]) -> bool:
    """Two boxes on one line: each one's vertical middle within the other's height."""
    return a[1] <= (b[1] + b[3]) / 2 <= a[3] and b[1] <= (a[1] + a[3]) / 2 <= b[3]


def one_line(boxes: list[list[float]]) -> bool:
    """Boxes of one inline element (Chromium gives one per line, and one per child in a line)."""
    return bool(boxes) and all(same_line(boxes[0], box) for box in boxes[1:])


def phone_layout_problems(found: dict[str, Any], where: str) -> list[str]:
    """What keeps the examples from reading as blocks, one line per seat, on a phone."""
    problems = []
    if found["pageWidth"] > found["innerWidth"] + 1:
        problems.append(
            f"{where}: the page is {found['pageWidth']} px wide; sticking out: {sorted(set(found['wide']))[:8]}"
        )
    for number, example in enumerate(found["examples"], 1):
        at = f"{where}, example {number}"
        if example["display"] == "table-row":
            problems.append(f"{at}: still a table row")
            continue
        below = example["situation"][3]  # each seat starts below what came before it
        texts: list[tuple[str, list[float]]] = []
        for seat in example["seats"]:
            lines, name = seat["labelLines"], seat["label"]
            if not one_line(lines):
                problems.append(f"{at}: the label {name!r} is split over {len(lines)} lines")
                continue
            label, points = lines[0], seat["number"]
            if label[1] < below - 1:
                problems.append(f"{at}: {name!r} is not below what comes before it")
            if not (same_line(label, points) and points[0] >= label[2]):
                problems.append(f"{at}: {name!r}'s points {seat['points']!r} are not at the end of its line")
            chips = [box for chip in seat["chips"] for box in chip["boxes"]]
            # The cards follow the label: beside it on its line, then on the lines below.
            if any(
                (box[1] + box[3]) / 2 < label[1] or (same_line(box, label) and box[0] < label[2])
                for box in chips
            ):
                problems.append(f"{at}: {name!r}'s cards do not follow its label")
            below = max(box[3] for box in [label, points, *chips])
            if seat["sum"]:
                if any(box[1] < below - 1 for box in seat["sum"]["boxes"]):
                    problems.append(
                        f"{at}: {name!r}'s arithmetic {seat['sum']['text']!r} is not under its line"
                    )
                below = max(box[3] for box in seat["sum"]["boxes"])
                texts += [(seat["sum"]["text"], box) for box in seat["sum"]["boxes"]]
            texts += [(name, label), (seat["points"], points)]
            texts += [(chip["text"], box) for chip in seat["chips"] for box in chip["boxes"]]
        for i, (text, box) in enumerate(texts):
            if box[0] < -1 or box[2] > found["innerWidth"] + 1:
                problems.append(f"{at}: {text!r} runs off the screen")
            problems += [
                f"{at}: {text!r} overlaps {other!r}" for other, b in texts[i + 1 :] if overlap(box, b)
            ]
    return problems


def scoring_pages(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, viewport: dict[str, int]
) -> Iterator[tuple[SiteLanguage, Page]]:
    """Every language's scoring page in turn, loaded in one tab at the given viewport."""
    with watched_page(browser, problems, viewport=viewport) as page:
        for language in site_languages(built_site):
            page.goto(site_url + language.root + "scoring.html", wait_until="networkidle")
            page.wait_for_function(EXAMPLES_WRAPPED)  # the theme's script wraps tables as it starts
            yield language, page


def test_worked_examples_read_as_blocks_on_a_phone(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, artifacts: Path
) -> None:
    found: list[str] = []
    viewport = {"width": NARROW, "height": 800}
    for language, page in scoring_pages(browser, problems, built_site, site_url, viewport):
        page.screenshot(path=artifacts / f"phone-scoring-{language.tag}.png", full_page=True)
        layout = page.evaluate(EXAMPLES_JS)
        assert len(layout["examples"]) == len(expected.rules().examples), language.tag
        found += phone_layout_problems(layout, f"{language.tag} at {NARROW} px")
        found += table_semantics_problems(page, language)
    assert not found, "\n".join(found)
    problems.assert_none()


def table_semantics_problems(page: Page, language: SiteLanguage) -> list[str]:
    """The examples laid out as blocks are still a table to a screen reader: Chromium's own
    accessibility tree has its rows, column headers and cells."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        tables = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "article table"})["nodeIds"]
        described = [
            cdp.send("DOM.describeNode", {"nodeId": node})["node"]["backendNodeId"] for node in tables
        ]
        tree = cdp.send("Accessibility.getFullAXTree")["nodes"]
    finally:
        cdp.detach()
    nodes = {node["nodeId"]: node for node in tree}
    examples = next(
        (node for node in tree if node.get("backendDOMNodeId") == described[1]), None
    )  # the second table of the page: the worked examples
    if examples is None or examples.get("role", {}).get("value") != "table":
        return [f"{language.tag}: the worked examples are no table in the accessibility tree"]
    roles: dict[str, int] = {}
    stack = [examples]
    while stack:
        node = stack.pop()
        if not node.get("ignored"):
            role = node.get("role", {}).get("value", "")
            roles[role] = roles.get(role, 0) + 1
        stack += [nodes[child] for child in node.get("childIds", []) if child in nodes]
    count = len(expected.rules().examples)
    want = {"row": 1 + count, "columnheader": 3, "cell": 3 * count}
    got = {role: roles.get(role, 0) for role in want}
    return (
        []
        if got == want
        else [f"{language.tag}: the examples table has {got} in the accessibility tree, not {want}"]
    )


@pytest.mark.parametrize("width", WIDE)
def test_seat_labels_stay_whole_on_wider_screens(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, width: int
) -> None:
    found: list[str] = []
    viewport = {"width": width, "height": 900}
    for language, page in scoring_pages(browser, problems, built_site, site_url, viewport):
        layout = page.evaluate(EXAMPLES_JS)
        where = f"{language.tag} at {width} px"
        scroll, room = layout["tableScroll"]
        if scroll > room + 1:
            found.append(f"{where}: the examples table scrolls sideways ({scroll} px in {room} px)")
        for number, example in enumerate(layout["examples"], 1):
            if example["display"] != "table-row":
                found.append(f"{where}, example {number}: not a table row but {example['display']}")
            for seat in example["seats"]:
                for column, lines in (("cards", seat["labelLines"]), ("points", seat["pointsLabelLines"])):
                    if not one_line(lines):
                        found.append(
                            f"{where}, example {number}: {seat['label']!r} split in the {column} column"
                        )
                if not one_line(seat["pointsLines"]):
                    found.append(f"{where}, example {number}: {seat['label']!r} parted from its points")
    assert not found, "\n".join(found)
    problems.assert_none()

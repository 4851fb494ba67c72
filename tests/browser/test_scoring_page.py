"""The scoring page in every language: clean load, language, tables, engine scores, card names."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import PUBLISHED

from . import expected
from .conftest import Problems

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

# Rows and cells of every table in the article, cells as the reader sees their text.
TABLES_JS = """() => [...document.querySelectorAll("article table")].map(table =>
    [...table.rows].map(row => [...row.cells].map(cell => cell.innerText.trim())))"""

# The round points of each example: the text after each bold seat label, up to the next line break.
ROUND_POINTS_JS = """table => [...table.tBodies[0].rows].map(row =>
    [...row.cells[2].querySelectorAll("strong")].map(label => {
        let text = "";
        for (let n = label.nextSibling; n && !["BR", "STRONG"].includes(n.nodeName); n = n.nextSibling)
            text += n.textContent;
        return text.trim();
    }))"""


@pytest.mark.parametrize("code", PUBLISHED)
def test_scoring_page(page: Page, problems: Problems, site_url: str, artifacts: Path, code: str) -> None:
    response = page.goto(expected.page_url(site_url, code), wait_until="networkidle")
    assert response is not None and response.ok
    page.screenshot(path=artifacts / f"scoring-{code}.png", full_page=True)

    # Material emits the theme language, which the build sets to the site's code ("pt", not "pt-PT").
    assert page.locator("html").get_attribute("lang") == code

    # Three tables, each with its number of rows and cells.
    tables = page.evaluate(TABLES_JS)
    shapes = expected.table_shapes()
    assert len(tables) == len(shapes), f"{len(tables)} tables"
    for number, (table, shape) in enumerate(zip(tables, shapes, strict=True), 1):
        assert len(table) == shape.rows, f"table {number}: {len(table)} rows, {shape.rows} expected"
        for row in table:
            assert len(row) == shape.cells, f"table {number}: row {row} has not {shape.cells} cells"
    cards, _, targets = tables
    assert [row[1] for row in cards[1:-1]] == expected.card_values(code)
    for (players, target), row in zip(expected.targets(code), targets[1:], strict=True):
        assert row[0] == players and target in row[1], f"target row {row}: {players} players, {target}"

    # The worked examples show the engine's scores.
    examples = page.locator("article table").nth(1)
    assert examples.evaluate(ROUND_POINTS_JS) == expected.round_points(code)

    # Every card chip is an image named in the page's language, from the catalog.
    from playwright.sync_api import expect

    chips = page.locator("article .rd-card")
    assert chips.count() == sum(
        len(hand.cards) for example in expected.rules().examples for hand in example.situation.hands
    )
    translated = 0
    for index in range(chips.count()):
        chip = chips.nth(index)
        name, english = expected.card_name(code, chip.get_attribute("data-card") or "")
        expect(chip).to_have_role("img")
        expect(chip).to_have_accessible_name(name)
        assert name.strip()
        translated += name != english
    if code != "en":
        assert translated, f"every card name on the {code} page is the English one"

    problems.assert_none()

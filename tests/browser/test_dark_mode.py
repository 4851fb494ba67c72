"""Dark mode: the site follows the reader's system, the toggle speaks the page's language, and
the card chips stay readable in both schemes, in every language the built site offers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from rulesdoc.i18n.theme import EXTRA, THEME_CONTEXT
from rulesdoc.i18n.translate import Language

from . import expected
from .conftest import Problems, site_languages, watched_page

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

# The reader's setting -> Material's scheme, and the toggle shown: the way to the other one.
SCHEMES = {"light": ("default", "rulesdoc.palette.dark"), "dark": ("slate", "rulesdoc.palette.light")}
OTHER = {"light": "dark", "dark": "light"}

# Every chip's colours: its text and its suit symbol, over the chip's own background.
CHIPS_JS = """() => [...document.querySelectorAll("article .rd-card")].map(chip => ({
    card: chip.dataset.card,
    background: getComputedStyle(chip).backgroundColor,
    text: getComputedStyle(chip).color,
    suit: getComputedStyle(chip.querySelector(".rd-suit")).color,
}))"""


# The title of the palette toggle shown. Material's tooltips take it away while the pointer is
# on the button and give it back a moment after it leaves: wait for the name expected.
TOGGLE_TITLE_JS = """name => {
    const shown = [...document.querySelectorAll("[data-md-component=palette] label")].filter(l => !l.hidden);
    return shown.length === 1 && shown[0].title === name;
}"""


def toggle_shows(page: Page, name: str) -> bool:
    from playwright.sync_api import TimeoutError

    try:
        page.wait_for_function(TOGGLE_TITLE_JS, arg=name, timeout=5_000)
    except TimeoutError:
        return False
    return True


def toggle_name(language: Language, key: str) -> str:
    """The toggle's name the catalog gives the language (English for the source language)."""
    english = EXTRA[key][0]
    if language.catalog is None:
        return english
    message = language.catalog.catalog.get(english, context=THEME_CONTEXT)
    assert message is not None and message.string, f"{language.code}: {english!r} untranslated"
    return str(message.string)


def rgba(css: str) -> tuple[float, ...]:
    values = [float(v) for v in re.findall(r"[\d.]+", css)]
    return (*values[:3], values[3] if len(values) > 3 else 1.0)


def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of a colour (its alpha blended over the background) on an opaque one."""

    def luminance(color: tuple[float, ...]) -> float:
        linear = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in color[:3])
        ]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    fg, bg = rgba(foreground), rgba(background)
    seen = tuple(fg[3] * f + (1 - fg[3]) * b for f, b in zip(fg[:3], bg[:3], strict=True))
    lighter, darker = sorted((luminance(seen), luminance(bg)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_site_follows_the_system_and_the_toggle_speaks_the_language(
    browser: Browser, problems: Problems, built_site: Path, site_url: str, artifacts: Path, scheme: str
) -> None:
    by_tag = {language.tag: language for language in expected.languages().values()}
    found: list[str] = []
    with watched_page(browser, problems, color_scheme=scheme) as page:
        for site_language in site_languages(built_site):
            language = by_tag[site_language.tag]
            page.goto(site_url + site_language.root + "scoring.html", wait_until="networkidle")
            if site_language.tag == "en":
                page.screenshot(path=artifacts / f"desktop-scoring-{scheme}.png")
            where = f"{site_language.tag} ({scheme})"
            material_scheme, key = SCHEMES[scheme]
            body = page.locator("body")
            if body.get_attribute("data-md-color-scheme") != material_scheme:
                found.append(f"{where}: Material's scheme is not {material_scheme}")
            # The one toggle shown offers the other scheme, by its name in the page's language.
            toggle = page.locator("[data-md-component=palette] label:visible")
            name = toggle_name(language, key)
            if not toggle_shows(page, name):
                found.append(f"{where}: the toggle is not named {name!r}")
                continue
            target = page.locator(f"#{toggle.get_attribute('for')}")
            if target.get_attribute("aria-label") != toggle_name(language, SCHEMES[OTHER[scheme]][1]):
                found.append(f"{where}: the scheme the toggle turns on is not named in the language")
            for chip in page.evaluate(CHIPS_JS):
                for part in ("text", "suit"):
                    ratio = contrast(chip[part], chip["background"])
                    if rgba(chip["background"])[3] < 1 or ratio < 4.5:
                        found.append(
                            f"{where}: {chip['card']} {part} {chip[part]} on {chip['background']}: {ratio:.2f}"
                        )
            # Clicking it switches the page to the other scheme, and the toggle to its other name.
            toggle.click()
            other_scheme, other_key = SCHEMES[OTHER[scheme]]
            page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=other_scheme)
            page.mouse.move(0, 600)
            if not toggle_shows(page, toggle_name(language, other_key)):
                found.append(f"{where}: after the switch the toggle is not named for going back")
            # The choice is remembered: undo it for the next language.
            page.locator("[data-md-component=palette] label:visible").click()
            page.wait_for_function("s => document.body.dataset.mdColorScheme === s", arg=material_scheme)
    assert not found, "\n".join(found)
    problems.assert_none()

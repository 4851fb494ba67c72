"""The README's pictures of the site as readers see it: desktop (dark), phone and print, and the
calculator with a round entered (in Danish here; in Arabic, right to left, in test_world.py).

Every run takes them into tests/artifacts/readme-<kind>.png. The README shows copies
committed in docs/readme/ (kept out of the built site by mkdocs.yml's exclude_docs);
to refresh those after a change of look, run

    RULESDOC_README_IMAGES=1 .venv/bin/python -m pytest tests/browser/test_readme_images.py \
        tests/browser/test_world.py -k "readme or sideways"

(the Arabic and Japanese pictures come from test_world.py's site, which has those languages; the
calculator's are made smaller by pngquant, `apt-get install pngquant`) and commit
docs/readme/*.png. Each picture must stay small: the repository carries it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import ROOT

from .conftest import Problems, watched_page
from .test_calculator import enter_the_capped_danish_round, scoring_page

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.browser

README_IMAGES = ROOT / "docs" / "readme"
MAX_BYTES = 150_000
MAX_CALCULATOR_BYTES = 40_000  # two of them in one row of the README
# kind -> (browser context options, CSS media)
VIEWS = {
    "desktop": ({"viewport": {"width": 1100, "height": 620}, "color_scheme": "dark"}, "screen"),
    "phone": ({"viewport": {"width": 360, "height": 640}, "device_scale_factor": 1}, "screen"),
    "print": ({"viewport": {"width": 680, "height": 760}}, "print"),
}


@pytest.mark.parametrize("kind", VIEWS)
def test_readme_image(
    browser: Browser, problems: Problems, site_url: str, artifacts: Path, kind: str
) -> None:
    options, media = VIEWS[kind]
    with watched_page(browser, problems, **options) as page:
        page.goto(site_url + "scoring.html", wait_until="networkidle")
        page.emulate_media(media=media)  # type: ignore[arg-type]
        # The worked examples, their heading at the top of the picture (below the header on screen).
        page.locator("#worked-examples").evaluate(
            "(heading, offset) => window.scrollTo(0, heading.getBoundingClientRect().top + scrollY - offset)",
            0 if media == "print" else 70,
        )
        page.wait_for_timeout(300)  # Material's header reacts to the scroll
        path = artifacts / f"readme-{kind}.png"
        page.screenshot(path=path)
    size = path.stat().st_size
    assert size <= MAX_BYTES, f"{path.name} is {size} bytes: too big to commit"
    if os.environ.get("RULESDOC_README_IMAGES") == "1":
        README_IMAGES.mkdir(exist_ok=True)
        shutil.copyfile(path, README_IMAGES / f"{kind}.png")
    assert (README_IMAGES / f"{kind}.png").is_file(), (
        f"run with RULESDOC_README_IMAGES=1 to create docs/readme/{kind}.png"
    )
    problems.assert_none()


# The calculator's pictures: narrow, so that two sit side by side in the README; tall enough
# that the calculator needs no scrolling (the sticky header would cover part of it).
CALCULATOR_VIEW = {"viewport": {"width": 600, "height": 2000}, "device_scale_factor": 1}


def calculator_picture(page: Page, artifacts: Path, name: str) -> None:
    """The calculator alone and a margin, the round on it added to the game, no control focused
    (a picture shows no focus ring). Kept in docs/readme/<name>.png when asked to, its colours
    reduced by pngquant (a third of the bytes, the text as sharp)."""
    page.click("#rd-calc-add-round")
    page.evaluate("document.activeElement.blur()")
    box = page.locator("#rd-calc").bounding_box()
    assert box is not None
    margin = 8
    shot = artifacts / f"readme-{name}.png"
    clip = {"x": box["x"] - margin, "y": box["y"] - margin}
    clip |= {"width": box["width"] + 2 * margin, "height": box["height"] + 2 * margin}
    page.screenshot(path=shot, clip=clip, animations="disabled")  # type: ignore[arg-type]
    kept = README_IMAGES / f"{name}.png"
    if os.environ.get("RULESDOC_README_IMAGES") == "1":
        pngquant = shutil.which("pngquant")
        assert pngquant, (
            "the README's calculator pictures are made smaller by pngquant (apt-get install pngquant)"
        )
        command = [
            pngquant,
            "--quality=70-90",
            "--speed=1",
            "--strip",
            "--force",
            "--output",
            str(kept),
            str(shot),
        ]
        subprocess.run(command, check=True, timeout=60)
    assert kept.is_file(), f"run with RULESDOC_README_IMAGES=1 to create docs/readme/{name}.png"
    size = kept.stat().st_size
    assert size <= MAX_CALCULATOR_BYTES, f"{kept.name} is {size} bytes: too big to commit"


def test_readme_calculator_in_danish(
    browser: Browser, problems: Problems, site_url: str, artifacts: Path
) -> None:
    """Two players, the second never opened and capped at half the target (the Danish line)."""
    with watched_page(browser, problems, **CALCULATOR_VIEW) as page:
        scoring_page(page, site_url, "da")
        enter_the_capped_danish_round(page)
        calculator_picture(page, artifacts, "calculator-da")
    problems.assert_none()

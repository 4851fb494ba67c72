"""The README's pictures of the site as readers see it: desktop (dark), phone and print.

Every run takes them into tests/artifacts/readme-<kind>.png. The README shows copies
committed in docs/readme/ (kept out of the built site by mkdocs.yml's exclude_docs);
to refresh those after a change of look, run

    RULESDOC_README_IMAGES=1 .venv/bin/python -m pytest tests/browser/test_readme_images.py

and commit docs/readme/*.png. Each picture must stay small: the repository carries it.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from support import ROOT

from .conftest import Problems, open_context

if TYPE_CHECKING:  # playwright is imported by the fixtures, which skip without it
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

README_IMAGES = ROOT / "docs" / "readme"
MAX_BYTES = 150_000
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
    context = open_context(browser, problems, **options)
    try:
        page = context.new_page()
        problems.watch(page)
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
    finally:
        context.close()
    size = path.stat().st_size
    assert size <= MAX_BYTES, f"{path.name} is {size} bytes: too big to commit"
    if os.environ.get("RULESDOC_README_IMAGES") == "1":
        README_IMAGES.mkdir(exist_ok=True)
        shutil.copyfile(path, README_IMAGES / f"{kind}.png")
    assert (README_IMAGES / f"{kind}.png").is_file(), (
        f"run with RULESDOC_README_IMAGES=1 to create docs/readme/{kind}.png"
    )
    problems.assert_none()

"""The Material seam for HTML (generator/site/chrome.py): the markup rulesdoc rewrites is checked
on every page, and a theme whose markup changed stops the build with one line naming the piece."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import copy_project
from support.newlang import build_site

from rulesdoc.site.chrome import MARKUP, ThemeMarkupChanged, check_markup

# The pieces as Material 9.x writes them (the header, the drawer, base.html's hreflang links).
PAGE = """<!doctype html>
<html lang="da" class="no-js">
<head>
<link rel="alternate" href="./" hreflang="en">
<link rel="alternate" href="./da/" hreflang="da">
</head>
<body>
<a href="." title="Help" class="md-header__button md-logo" aria-label="Help" data-md-component="logo">
<div class="md-header__topic">
  <span class="md-ellipsis">Help</span>
</div>
<label class="md-nav__title" for="__drawer">
<a href="." title="Help" class="md-nav__button md-logo" aria-label="Help" data-md-component="logo">
</label>
</body>
</html>
"""

PIECES = [
    ('<html lang="da" class="no-js">', "<html> element"),
    ('<div class="md-header__topic">', "site name in the header"),
    ("md-logo", "logo link"),
    ('<label class="md-nav__title" for="__drawer">', "site name in the drawer"),
    ("hreflang=", "hreflang links"),
]


def test_the_page_as_material_writes_it_passes() -> None:
    check_markup(PAGE, "da/index.html")


@pytest.mark.parametrize(("markup", "named"), PIECES, ids=[named for _, named in PIECES])
def test_a_page_without_one_piece_is_refused_naming_it(markup: str, named: str) -> None:
    page = PAGE.replace(markup, "<x" + markup[1:].replace("md-", "xx-").replace("hreflang", "lang"))
    with pytest.raises(ThemeMarkupChanged) as raised:
        check_markup(page, "da/scoring.html")
    assert re.match(rf"da/scoring\.html: the theme's page lacks its {re.escape(named)}", str(raised.value))


def test_every_piece_is_named_once() -> None:
    assert len({what for what, _ in MARKUP}) == len(MARKUP) == len(PIECES)


@pytest.mark.slow
def test_a_theme_override_that_drops_the_header_stops_the_build(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    overrides = project / "overrides" / "partials"
    overrides.mkdir(parents=True)
    (overrides / "header.html").write_text("<header></header>\n", encoding="utf-8")
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        text.replace("  name: material\n", "  name: material\n  custom_dir: overrides\n"), "utf-8"
    )
    out = tmp_path / "site"
    (out / "old").mkdir(parents=True)

    result = build_site(project, out)

    assert result.returncode != 0
    assert re.search(
        r"\S+\.html: the theme's page lacks its site name in the header \(partials/header\.html\): its markup changed, a theme version rulesdoc does not support \(rulesdoc's publisher's guide, \"Platform\"\)$",
        result.stderr,
        re.M,
    )
    assert "Traceback" not in result.stderr
    assert sorted(path.name for path in out.iterdir()) == ["old"]  # the old site is whole

"""The end of a list of alternatives ("two, three, or four") is each language's translator's: a
message (context "list of alternatives"), no longer a Python constant per language. The Malay
catalog's translation gives Malay's usage (no comma before "atau"); a catalog that translates it
otherwise changes the page; a catalog without it gets CLDR's end, never English."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import SEED_RULES, copy_project

from rulesdoc.cli.render_checked import render_all
from rulesdoc.i18n.translate import LIST_CONTEXT, LIST_END_OR, catalog_path
from rulesdoc.io.project import Project

# The seed rules with a target share under the cap at two to five players (20 points a player
# against a cap of 100), equal at six: "With two, three, four, or five players, this last cap is
# the lower one." The example of the fixed cap no longer holds at these values: left out.
FOUR_COUNTS = {"per_opponent: 100": "per_opponent: 40"}


def rules_with_four_counts(folder: Path) -> Path:
    text = SEED_RULES.read_text("utf-8")
    for old, new in FOUR_COUNTS.items():
        assert old in text
        text = text.replace(old, new)
    start = text.index("  - id: four-players-one-never-opened")
    end = text.index("  - id: hand-rummy-three-players")
    path = folder / "rules.yaml"
    path.write_text(text[:start] + text[end:], "utf-8")
    return path


def sentence(page: str, marker: str) -> str:
    (line,) = [line for line in page.splitlines() if marker in line]
    return line


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return copy_project(tmp_path / "project", rules_with_four_counts(tmp_path))


def malay_page(root: Path) -> str:
    pages = render_all(Project.at(root), ["ms"])
    return next(p.text for p in pages if p.lang == "ms" and p.name == "scoring.md")


def set_translation(root: Path, code: str, translation: str) -> None:
    path = catalog_path(root / "locales", code)
    text = path.read_text("utf-8")
    entry = f'msgctxt "{LIST_CONTEXT}"\nmsgid "{LIST_END_OR}"\nmsgstr '
    text, count = re.subn(re.escape(entry) + r'"[^"\n]*"', entry + f'"{translation}"', text)
    assert count == 1
    path.write_text(text, "utf-8")


def test_the_malay_catalog_gives_malay_usage_and_another_translation_changes_it(root: Path) -> None:
    english = next(p.text for p in render_all(Project.at(root), ["en"]) if p.name == "scoring.md")
    assert "With two, three, four, or five players, this last cap is the lower one." in english
    # Malay's translation: no comma before "atau".
    assert "dua, tiga, empat atau lima" in malay_page(root)
    # Another translation of the same message: the page follows the catalog.
    set_translation(root, "ms", "%(items)s, mahupun %(last)s")
    assert "dua, tiga, empat, mahupun lima" in malay_page(root)


def test_without_a_translation_the_end_is_cldrs_and_never_english(root: Path) -> None:
    set_translation(root, "ms", "")
    page = malay_page(root)
    assert "dua, tiga, empat, atau lima" in page  # CLDR's Malay end, with its comma
    line = sentence(page, "dua, tiga, empat")
    assert " or " not in line and "rd-untranslated" not in line


def test_a_translation_that_breaks_its_placeholders_is_refused(root: Path) -> None:
    from rulesdoc.errors import Refusal

    set_translation(root, "ms", "%(item)s atau %(last)s")
    with pytest.raises(Refusal, match="placeholders"):
        render_all(Project.at(root), ["ms"])

"""Each rendered page carries the user's own page: at least 97 % of its words, in order."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.seedmatch import SEEDS, match

from rulesdoc.cli.render_checked import render_all
from rulesdoc.io.project import Project

SEED_LANGUAGES = ("da", "hi", "ms", "nl", "pt")


@pytest.fixture(scope="module")
def scoring_pages(seed_project: Project) -> dict[str, str]:
    """The pages of the seed rules: the user's pages showed their values and four examples."""
    return {p.lang: p.text for p in render_all(seed_project) if p.name == "scoring.md"}


@pytest.mark.parametrize("lang", SEED_LANGUAGES)
def test_page_carries_the_seed(lang: str, scoring_pages: dict[str, str]) -> None:
    result = match((SEEDS / f"{lang}.txt").read_text("utf-8"), scoring_pages[lang])
    assert result.ratio >= 0.97, f"{lang}: {result.ratio:.1%}; missing: {' '.join(result.missing)}"


def test_comparison_can_fail(scoring_pages: dict[str, str]) -> None:
    # The English page shares numbers and "joker" with the Danish seed, but not its words.
    result = match((SEEDS / "da.txt").read_text("utf-8"), scoring_pages["en"])
    assert result.ratio < 0.5


def test_seed_defects_are_repaired(scoring_pages: dict[str, str]) -> None:
    assert "Rami in één beurt" not in scoring_pages["nl"]
    assert "**Handrummy met drie spelers**" in scoring_pages["nl"]  # one term, not "Handrummy in één beurt"
    # Dutch writes a card's suit and rank as one word: "hartenaas", "schoppenheer", "klaverboer".
    for name in ("hartenaas", "schoppenheer", "klaverboer", "ruitenvrouw"):
        assert f'aria-label="{name}"' in scoring_pages["nl"], name
    assert not re.search(r'aria-label="(?:harten|ruiten|klaver|klaveren|schoppen) ', scoring_pages["nl"])
    assert " Rami" not in scoring_pages["hi"] and "रमी" in scoring_pages["hi"]
    # The Dutch examples table is filled: four rows of three non-empty cells.
    rows = [line for line in scoring_pages["nl"].splitlines() if line.startswith("| **")]
    assert len(rows) == 4
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split(" | ")]
        assert len(cells) == 3 and all(cells)


def test_seed_files_are_the_users_pages() -> None:
    assert sorted(p.stem for p in Path(SEEDS).glob("*.txt")) == sorted(SEED_LANGUAGES)

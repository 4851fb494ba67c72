"""The calculator is light (issue 30, goal 5): its own script and style, compressed together, at
most 15 KB. The stylesheet is counted whole (card chips too), an upper bound of the calculator's
part; the scorer is the export bundle's, shared with apps, and counted apart."""

from __future__ import annotations

import gzip

from support import ROOT

BUDGET = 15 * 1024
OWN = ("generator/site/calculator.js", "generator/site/calculator.mjs", "generator/site/calculator_words.mjs")
STYLE = "docs/assets/rulesdoc.css"


def compressed(*paths: str) -> int:
    return len(gzip.compress(b"".join((ROOT / path).read_bytes() for path in paths), 9, mtime=0))


def test_the_calculators_script_and_style_fit_in_15_kb_compressed() -> None:
    assert compressed(*OWN, STYLE) <= BUDGET


def test_with_the_scorer_it_runs_the_page_still_loads_under_20_kb_compressed() -> None:
    assert compressed(*OWN, STYLE, "generator/export/scoring.mjs") <= 20 * 1024

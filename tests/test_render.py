"""The English page's shape, and what a new worked example costs the translators."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import PUBLISHED, ROOT

from generator.render import Project, Workspace, render_all

BLOCKED_EXAMPLE = """
  - id: blocked-round
    title: The draw pile ran out
    illustrates: blocked_winner
    situation:
      hands:
        - cards: [2C, 3D]
        - cards: [4H]
        - cards: [KS, QS]
          opened: false
"""


def test_english_page_has_the_users_sections_in_order(project: Project) -> None:
    page = next(p.text for p in render_all(project, ["en"]) if p.name == "scoring.md")
    headings = re.findall(r"^#+ (.+)$", page, re.M)
    assert headings == [
        "Counting points",
        "In short",
        "The cards left in hand",
        "Three special cases",
        "Hand rummy",
        "The player who never opened",
        "The blocked round",
        "Worked examples",
        "The end of the game",
    ]
    captions = re.findall(r"^/// table-caption\n(.+)\n///$", page, re.M)
    assert captions == [
        "Value of the cards left in hand at the end of the round",
        "Round endings computed by the app",
        "Game target by number of players",
    ]


def test_a_new_example_needs_only_its_title_translated(tmp_path: Path) -> None:
    rules = tmp_path / "rules.yaml"
    rules.write_text((ROOT / "rules.yaml").read_text("utf-8") + BLOCKED_EXAMPLE, "utf-8")
    project = Project(rules, ROOT / "templates", ROOT / "locales")
    workspace = Workspace.load(project)
    results = workspace.render(workspace.languages)
    pages = [p for result in results.values() for p in result.pages if p.name == "scoring.md"]
    assert sorted(p.lang for p in pages) == sorted(PUBLISHED)
    for page in pages:
        # Card names, labels and the blocked-round explanation are all in the catalogs.
        missed = [miss.key[0] for miss in results[page.lang].missed]
        assert missed == ([] if page.lang == "en" else ["The draw pile ran out"]), page.lang
        row = next(line for line in page.text.splitlines() if "The draw pile ran out" in line)
        # 2C+3D = 5, 4H = 4 (lowest: wins), KS+QS = 20 never opened: 20+25 = 45 ≤ cap 100.
        assert re.findall(r"\*\*[\u00a0 ](\d+)", row.split(" | ")[-1]) == ["5", "0", "45"]

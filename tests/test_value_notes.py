"""Each sentence the view model fills gets a note with one rendering under the current rules and
what each placeholder held (generator/pages/renderings.py). The notes follow the values: on the
seed rules and on tests/fixtures/rules/other_values.yaml they say different things; `catalog
extract` and `catalog update` refresh them, and a note left behind by a rule change is no error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import ROOT, SEED_RULES, copy_project, lint_error_lines

from rulesdoc.catalog import po
from rulesdoc.cli.main import main
from rulesdoc.i18n import extraction
from rulesdoc.i18n.extraction import VALUES_NOTE
from rulesdoc.i18n.translate import catalog_path
from rulesdoc.io.project import Project
from rulesdoc.pages.render import Workspace
from rulesdoc.pages.renderings import note, plain, value_notes

OTHER_VALUES = ROOT / "tests" / "fixtures" / "rules" / "other_values.yaml"
EQUAL = ("With %(players)s players, both caps are equal.", None)
LAST_LOWER = ("With %(players)s players, this last cap is the lower one.", None)
IN_SHORT = (
    "The winner of the round scores zero points. Every other player scores the value of the cards left "
    "in their hand: the joker %(joker)s, the ace %(ace)s, the face cards %(face)s.",
    None,
)
PENALTY = ("%(penalty)s, hand rummy", None)


def notes_for(rules: Path | None, tmp_path: Path) -> dict[tuple[str, str | None], str]:
    return value_notes(Workspace.load(Project.at(copy_project(tmp_path / "project", rules))))


def test_the_notes_follow_the_values(tmp_path: Path) -> None:
    seed = notes_for(SEED_RULES, tmp_path / "seed")
    other = notes_for(OTHER_VALUES, tmp_path / "other")
    # Seed: 50 points a player against a cap of 100, equal at three players.
    assert seed[EQUAL] == f'{VALUES_NOTE}"With three players, both caps are equal." (%(players)s: "three")'
    assert LAST_LOWER not in seed  # "In a two-player game…" is said instead: no placeholder, no note
    # Other values: 40 points a player against a cap of 110, lower at two and three players.
    assert other[LAST_LOWER] == (
        f'{VALUES_NOTE}"With two or three players, this last cap is the lower one." (%(players)s: "two or three")'
    )
    assert EQUAL not in other
    assert seed[IN_SHORT].endswith('(%(joker)s: "20 points"; %(ace)s: "11"; %(face)s: "10")')
    assert other[IN_SHORT].endswith('(%(joker)s: "25 points"; %(ace)s: "15"; %(face)s: "10")')
    assert "the joker 25 points, the ace 15, the face cards 10." in other[IN_SHORT]
    assert other[PENALTY] == f'{VALUES_NOTE}"150, hand rummy" (%(penalty)s: "150")'
    # Only messages with placeholders, and every one of those is derived the same way.
    assert all("%(" in key[0] for key in other)
    assert notes_for(OTHER_VALUES, tmp_path / "again") == other  # deterministic


def test_a_note_is_plain_text_whatever_the_page_escapes() -> None:
    assert plain("the joker \\*20\\* &lt;b&gt; <bdi>5</bdi>") == "the joker *20* <b> 5"
    assert note("Opponent 1", {"number": "1"}) == f'{VALUES_NOTE}"Opponent 1" (%(number)s: "1")'
    assert len(note("x", {"seats": "Opponent 1 and " * 40})) < 300  # a long value is cut


def test_extract_and_update_refresh_the_notes_and_a_rule_change_is_never_stale(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = copy_project(tmp_path / "project")
    pot = root / "locales" / "messages.pot"
    assert main(["--root", str(root), "catalog", "extract"]) == 0
    assert main(["--root", str(root), "catalog", "update"]) == 0
    written = pot.read_text("utf-8")
    assert '#. With the current rules: "With three players, both caps are equal."' in written
    date = next(line for line in written.splitlines() if "POT-Creation-Date" in line)
    # A rule change: every note says the old values, and nothing is stale or an error.
    shutil.copy(OTHER_VALUES, root / "rules.yaml")
    assert lint_error_lines(Project.at(root)) == []
    capsys.readouterr()
    # `catalog update` refreshes them, in messages.pot and in every catalog; no message changed,
    # so the POT keeps its date.
    assert main(["--root", str(root), "catalog", "update"]) == 0
    assert "notes with the current rules' values refreshed" in capsys.readouterr().out
    refreshed = pot.read_text("utf-8")
    assert date in refreshed
    assert '"With three players, both caps are equal."' not in refreshed
    assert (
        '#. With the current rules: "With two or three players, this last cap is the lower one."' in refreshed
    )
    danish = po.load(catalog_path(root / "locales", "da")).catalog.get(*LAST_LOWER)
    assert danish is not None and any("two or three" in c for c in danish.auto_comments)
    assert danish.string  # the translation kept, not fuzzy
    assert not danish.fuzzy
    # And `catalog extract` alone writes the same notes, the date still kept.
    shutil.copy(SEED_RULES, root / "rules.yaml")
    assert main(["--root", str(root), "catalog", "extract"]) == 0
    again = pot.read_text("utf-8")
    assert date in again and '"With three players, both caps are equal."' in again
    assert extraction.same_content(po.load(pot), extraction.extract(root))  # the stale check's view

"""Player counts in running text are the translator's words ("With three players…", "Ved tre
spillere…"), one message per count the rules can allow (context "player count"); a language
that writes small counts as digits translates the word as the digit.

The check over the value grid (every language, every rule value: test_value_grid.py) is
``support.running_text.assert_counts_are_words``; here it is shown to catch a count in digits.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from support import ROOT, SEED_RULES
from support.running_text import assert_counts_are_words
from test_lint import edit, make_project, of, po, run

from rulesdoc.catalog.po import load
from rulesdoc.engine.cards import MAX_PLAYERS, MIN_PLAYERS
from rulesdoc.engine.model import Rules
from rulesdoc.i18n.translate import COUNT_CONTEXT, COUNT_WORDS, Translator, discover_languages
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.pages.render import Workspace
from rulesdoc.pages.view import facts
from rulesdoc.spec.rules import load_rules


def test_a_word_for_every_player_count_the_rules_can_allow() -> None:
    assert sorted(COUNT_WORDS) == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    pot = load(ROOT / "locales" / "messages.pot").catalog
    offered = {m.id for m in pot if m.context == COUNT_CONTEXT}
    assert offered == set(COUNT_WORDS.values())
    for code in ("ms", "da", "pt", "hi", "nl"):
        catalog = load(ROOT / "locales" / code / "LC_MESSAGES" / "messages.po").catalog
        for word in COUNT_WORDS.values():
            message = catalog.get(word, context=COUNT_CONTEXT)
            assert message is not None and message.string and not message.fuzzy, (code, word)


def test_counts_are_said_in_the_catalog_words_or_as_digits_without_them() -> None:
    rules = dataclasses.replace(
        load_rules(SEED_RULES), never_opened_cap=150
    )  # share lower at 2, 3; equal at 4
    languages = {language.code: language for language in discover_languages(ROOT / "locales")}
    said = {}
    for code in ("en", "da", "pt"):
        language = languages[code]
        said[code] = facts(rules, Translator.load(language), Formatter(language.locale))
    assert (said["en"].share_cap_players, said["en"].equal_cap_players) == ("two or three", "four")
    assert (said["da"].share_cap_players, said["da"].equal_cap_players) == ("to eller tre", "fire")
    assert said["pt"].share_cap_players == "dois ou três"
    # A catalog without the words (a new language) says the digits: no English word on its page.
    translate = Translator(languages["da"], {})  # no entry of the catalog is usable
    assert translate.count_word(3) is None
    assert facts(rules, translate, Formatter(languages["da"].locale)).share_cap_players == "2 eller 3"
    assert not translate.missed


def test_a_language_that_writes_digits_may_translate_a_count_as_its_digit(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    catalog = po(root, "da")
    edit(
        catalog,
        'msgctxt "player count"\nmsgid "three"\nmsgstr "tre"',
        'msgctxt "player count"\nmsgid "three"\nmsgstr "3"',
    )
    edit(
        catalog,
        'msgctxt "player count"\nmsgid "four"\nmsgstr "fire"',
        'msgctxt "player count"\nmsgid "four"\nmsgstr "5"',
    )
    found = of(run(root, only=("da",)), "numbers", "da")
    assert [f.message.split(",")[0] for f in found] == ["writes 5"], found


def _danish_page(seed_root: Path) -> tuple[str, Translator, Formatter, Rules]:
    workspace = dataclasses.replace(Workspace.load(Project.at(seed_root)), names=("scoring.md.j2",))
    danish = next(language for language in workspace.languages if language.code == "da")
    (page,) = workspace.render([danish])["da"].pages
    return page.text, Translator.load(danish), Formatter(danish.locale), workspace.rules


def test_the_grid_check_finds_a_count_written_in_digits(seed_root: Path) -> None:
    text, translate, fmt, rules = _danish_page(seed_root)
    template = load(seed_root / "locales" / "messages.pot").catalog
    assert "Ved tre spillere er de to lofter lige store." in text
    assert_counts_are_words(text, rules, translate, fmt, template, "da")  # the page as rendered
    # The count in digits inside the sentence that takes it...
    with pytest.raises(AssertionError, match="'3'"):
        assert_counts_are_words(
            text.replace("Ved tre spillere", "Ved 3 spillere"), rules, translate, fmt, template, "da"
        )
    # ... or in any other sentence of running text (a translator's or a template's own words).
    typed = text.replace(
        "Ved tre spillere er de to lofter lige store.", "Med 4 spillere er det faste loft lavest."
    )
    with pytest.raises(AssertionError, match="4 stands for a player count"):
        assert_counts_are_words(typed, rules, translate, fmt, template, "da")
    # Where the catalog writes the counts as digits, digits are its choice.
    translate.table[("three", "player count")] = ("3",)
    assert_counts_are_words(
        text.replace("Ved tre spillere", "Ved 3 spillere"), rules, translate, fmt, template, "da"
    )

"""Scripts that write no spaces: Japanese and Chinese sentences follow one another without one.

Every sentence is a message on a line of its own in the templates; Markdown keeps the line
break and a browser shows it as a space. Whether a language writes spaces comes from CLDR
(its list patterns), never from a list of ours.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po, write_po
from support import copy_project

from rulesdoc.cli.render_checked import render_all
from rulesdoc.i18n import catalogs
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import close_sentence_gaps, sentences, writes_without_spaces


@pytest.mark.parametrize(
    ("code", "spaceless"),
    [("ja", True), ("zh_Hant", True), ("zh_Hans", True), ("yue", True), ("th", True),
     ("en", False), ("ko", False), ("hi", False), ("ar", False), ("vi", False)],
)  # fmt: skip
def test_cldr_says_which_languages_write_no_spaces(code: str, spaceless: bool) -> None:
    assert writes_without_spaces(Locale.parse(code)) is spaceless


def test_a_line_break_after_a_wide_character_goes_in_a_spaceless_language() -> None:
    ja = Locale.parse("ja")
    text = "# 見出し\n\n点数は10です。\nできるだけ少なく。\nThe English one.\nAnd another.\n| 表 |\n"
    assert close_sentence_gaps(text, ja) == (
        "# 見出し\n\n点数は10です。できるだけ少なく。The English one.\nAnd another.\n| 表 |\n"
    )
    assert close_sentence_gaps(text, Locale.parse("ko")) == text  # Korean writes spaces
    assert close_sentence_gaps("タイ\n- 項目\n", ja) == "タイ\n- 項目\n"  # a list item stays one
    assert sentences("\n 一つ目。\n\n二つ目。\nThird.\nFourth.\n", ja) == "一つ目。二つ目。Third. Fourth."
    assert sentences("One.\n\nTwo.\n", Locale.parse("en")) == "One. Two."


def _translate_all(path: Path) -> None:
    """Every message "「English」。": a sentence of wide characters, its placeholders kept."""
    with path.open("rb") as handle:
        catalog = read_po(handle)
    for message in catalog:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            message.string = tuple(f"「{message.id[1]}」。" for _ in range(catalog.num_plurals))
        else:
            message.string = f"「{message.id}」。"
        message.flags.discard("fuzzy")
    with path.open("wb") as handle:
        write_po(handle, catalog, width=0)


@pytest.mark.parametrize("code", ["ja", "zh_Hant"])
def test_japanese_and_chinese_pages_have_no_space_between_sentences(tmp_path: Path, code: str) -> None:
    project = copy_project(tmp_path / "project")
    _translate_all(catalogs.init(project / "locales", code))
    rendered = render_all(
        Project(project / "rules.yaml", project / "templates", project / "locales"), [code], False
    )
    pages = {page.name: page.text for page in rendered if page.lang == code}
    scoring = pages["scoring.md"]
    # A space, or a line break inside a paragraph (a blank line ends a paragraph: no gap shown).
    # The "In short" paragraph (two messages) and an example's explanation (a table cell) at least.
    assert "」。「" in scoring
    gaps = [
        (name, match.group(0))
        for name, text in pages.items()
        for match in re.finditer(r".{0,12}」。(?:[ \t]+|[ \t]*\n[ \t]*)「.{0,12}", text)
    ]
    assert not gaps, gaps

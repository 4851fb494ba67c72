"""The status page links each waiting message to where it shows: the heading anchor of its section
on that language's pages (generator/pages/places.py), read off the pages rendered with every
message marked, with the site's toc and slugify. Runs on the seed rules (a project copy)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support import ROOT, copy_project

from rulesdoc.cli.render_checked import render_all
from rulesdoc.i18n.markup import slugify
from rulesdoc.i18n.translate import SOURCE, Language, discover_languages
from rulesdoc.io.project import Project
from rulesdoc.pages.places import MARK, MarkingTranslator, Place, marks_by_line, places, places_by_html
from rulesdoc.pages.render import Workspace
from rulesdoc.site.languages import language_link
from rulesdoc.spec.rules import load_rules


def marked(index: int, text: str) -> str:
    return f'<span {MARK}="{index}">{text}</span>'


def test_each_message_takes_the_anchor_of_the_heading_above_it() -> None:
    keys = [("Top", None), ("Heading", None), ("Body", None), ("Again", "ctx"), ("Second", None)]
    page = "\n\n".join(
        [
            marked(0, "Top"),
            f"# {marked(1, 'Tælle point')}",
            f"Text {marked(2, 'Body')}.",
            "## Kort fortalt",
            f"| a | b |\n|---|---|\n| {marked(3, 'Again')} | x |",
            "## Kort fortalt",  # toc makes a second equal heading unique: its anchor is "…_1"
            f"{marked(4, 'Second')} and {marked(2, 'Body again')}",
        ]
    )
    found = places([("scoring.md", page)], keys)
    assert found == {
        ("Top", None): Place("scoring.md", ""),  # before the first heading: the page's top
        ("Heading", None): Place("scoring.md", "tælle-point"),  # a heading's own anchor
        ("Body", None): Place("scoring.md", "tælle-point"),  # its first place, not its second
        ("Again", "ctx"): Place("scoring.md", "kort-fortalt"),  # inside a table
        ("Second", None): Place("scoring.md", "kort-fortalt_1"),
    }


def test_the_first_page_that_shows_a_message_is_its_place() -> None:
    keys = [("Rami help", None)]
    pages = [("index.md", f"# {marked(0, 'Rami help')}"), ("scoring.md", f"## X\n\n{marked(0, 'Rami help')}")]
    assert places(pages, keys) == {("Rami help", None): Place("index.md", "rami-help")}


def test_anchors_keep_every_script_as_the_site_does() -> None:
    # The site's slugify (mkdocs.yml's toc): Devanagari's vowel signs and Danish letters kept.
    page = f"## {marked(0, 'संक्षेप में')}\n\n## Kortene tilbage på hånden\n\n{marked(1, 'x')}"
    found = places([("scoring.md", page)], [("In short", None), ("Card", None)])
    assert found[("In short", None)].anchor == "संक्षेप-में" == slugify("संक्षेप में", "-")
    assert found[("Card", None)].anchor == "kortene-tilbage-på-hånden"


# Pages the line reading must leave to Python-Markdown, each beside a mark it could misplace.
UNSURE_PAGES = {
    "fenced code": f"# A\n\n```\n# Not a heading\n```\n\n{marked(0, 'x')}",
    "indented code": f"# A\n\n    {marked(0, 'x')}\n\n# B",
    "setext heading": f"# A\n\nB\n---\n\n{marked(0, 'x')}",
    "a mark in a code span": f"# A\n\n`{marked(0, 'x')}`\n\n## B\n\n{marked(0, 'x')}",
    "a code span over lines": f"# A\n\n`a\n{marked(0, 'x')}\nb`\n\n## B\n\n{marked(0, 'x')}",
    "an id set by attr_list": f"# A\n\nText\n{{: #b }}\n\n## B\n\n{marked(0, 'x')}",
    "a raw HTML block": f"# A\n\n<div>\n\n## Not a heading\n\n</div>\n\n{marked(0, 'x')}",
    "a heading in HTML": f'# A\n\n<h2 id="b">B</h2>\n\n{marked(0, "x")}',
    "a mark in an attribute": f'# A\n\n<a title="{marked(0, "x")}">t</a>\n\n## B\n\n{marked(0, "x")}',
    "a mark in a script": f"# A\n\n<script>{marked(0, 'x')}</script>\n\n## B\n\n{marked(0, 'x')}",
    "a comment": f"# A\n\n<!-- {marked(0, 'x')} -->\n\n## B\n\n{marked(0, 'x')}",
    "a link reference": f"# [A][a]\n\n{marked(0, 'x')}\n\n[a]: https://example.org",
    "a heading row in a table": f"| a |\n|---|\n# b | c\n\n{marked(0, 'x')}",
    "a caption under a heading": f"# A\n\n/// table-caption\n{marked(0, 'x')}\n///\n",
}


@pytest.mark.parametrize("name", sorted(UNSURE_PAGES))
def test_a_page_the_line_reading_cannot_vouch_for_is_made_html_whole(name: str) -> None:
    pages = [("scoring.md", UNSURE_PAGES[name])]
    keys = [("x", None)]
    assert places(pages, keys) == places_by_html(pages, keys)


def test_the_line_reading_places_this_projects_pages_as_their_html_does() -> None:
    """Every language's pages, rendered with every message marked: the line reading (no page made
    HTML whole) places every message where the HTML does, under repeated and translated headings."""
    workspace = Workspace.load(Project.at(ROOT))
    for language in workspace.languages:
        marking = MarkingTranslator(language, workspace.verdicts.get(language.code))
        result = workspace._render_one(language, workspace.stats(language), marking)
        pages = [(page.name, page.text) for page in result.pages]
        assert all(marks_by_line(text) is not None for _, text in pages), language.code
        assert places(pages, marking.keys) == places_by_html(pages, marking.keys), language.code


def _blank(path: Path, msgid: str) -> int:
    """Empty the translation of a one-line msgid; returns the line of its msgid."""
    text = path.read_text("utf-8")
    match = re.search(rf'^msgid "{re.escape(msgid)}"\nmsgstr "[^"\n]*"\n', text, re.M)
    assert match is not None, msgid
    path.write_text(text[: match.start()] + f'msgid "{msgid}"\nmsgstr ""\n' + text[match.end() :], "utf-8")
    return text[: match.start()].count("\n") + 1


def _items(status: str, code: str) -> list[str]:
    """The list items of one language's section of a status page."""
    section = status.split(f"({code})\n", 1)[1].split("\n### ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def test_danish_messages_link_to_the_danish_sections_where_they_show(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    catalog = root / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    title = load_rules(root / "rules.yaml").examples[0].title  # a message of rules.yaml, via the view model
    for msgid in ("Card", "In short"):
        _blank(catalog, msgid)
    _blank(catalog, title)
    # A refused translation: a renamed placeholder (the build refuses it; a preview lists it).
    text = catalog.read_text("utf-8")
    good = 'msgid "Opponent %(number)s"\nmsgstr "Modstander %(number)s"'
    assert good in text
    text = text.replace(good, 'msgid "Opponent %(number)s"\nmsgstr "Modstander %(nummer)s"')
    catalog.write_text(text, "utf-8")
    project = Project.at(root)
    pages = {(p.lang, p.name): p.text for p in render_all(project, ["en", "da", "nl"], strict=False)}
    items = _items(pages["da", "translation-status.md"], "da")
    by_text = {re.search(r'dir="ltr">([^<]*)</span>', item).group(1): item for item in items}  # type: ignore[union-attr]
    # Under a translated heading: the heading's Danish slug.
    assert "(Ikke oversat)" in by_text["Card"]
    assert "· [Hvor den vises](scoring.md#kortene-tilbage-på-hånden)" in by_text["Card"]
    # An untranslated heading shows in English: its anchor is the English slug, for itself too.
    assert "· [Hvor den vises](scoring.md#in-short)" in by_text["In short"]
    # A title from rules.yaml, placed by where the view model's text lands: the worked examples.
    assert "· [Hvor den vises](scoring.md#regneeksempler)" in by_text[title]
    # The refused translation: its own state, and still a link.
    refused = [item for item in items if "Opponent &#37;(number)s" in item]
    assert refused and all("(Afvist)" in item and "scoring.md#regneeksempler" in item for item in refused)
    # The anchors are the Danish page's own headings.
    danish = pages["da", "scoring.md"]
    assert "## Kortene tilbage på hånden" in danish and "## Regneeksempler" in danish
    # The Dutch status page lists no Danish message: its table's Danish row links to the Danish
    # status page at the Danish list (render's layout), and so does the English page's list.
    dutch = pages["nl", "translation-status.md"]
    link = '<a href="../da/translation-status.md#dansk-da" hreflang="da">Dansk</a> (`da`)'
    assert f"| {link} |" in dutch
    assert "### Dansk" not in dutch and "messages.po:" not in dutch and ">Card</span>" not in dutch
    english = pages["en", "translation-status.md"]
    assert f"| {link} |" in english and f"\n- {link}\n" in english
    assert "### Dansk" not in english and "messages.po:" not in english and ">Card</span>" not in english
    # On the Danish page, its own row links to its own list.
    assert "| [Dansk](#dansk-da) (`da`) |" in pages["da", "translation-status.md"]
    # The notice's help link opens the Danish list on the status page.
    assert "(translation-status.md#dansk-da)" in danish
    assert "\n### Dansk (da)\n" in pages["da", "translation-status.md"]
    assert slugify("Dansk (da)", "-") == "dansk-da"


def test_a_language_without_gaps_keeps_the_plain_help_link_and_needs_no_placing(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    workspace = Workspace.load(Project.at(root))
    assert all(not workspace.waiting(language).waiting for language in workspace.languages)
    assert workspace.placed == {}  # nothing rendered twice
    danish = next(language for language in workspace.languages if language.code == "da")
    assert workspace.help_url(danish) == "translation-status.md"


def test_another_languages_page_is_addressed_as_the_site_builds_it(tmp_path: Path) -> None:
    languages = {
        language.code: language for language in discover_languages(copy_project(tmp_path) / "locales")
    }
    da, hi = languages["da"], languages["hi"]
    assert isinstance(SOURCE, Language)
    # .html pages: each language's folder beside the source language's root.
    assert language_link(False, da, hi, "scoring.md", "x") == "../hi/scoring.html#x"
    assert language_link(False, SOURCE, hi, "scoring.md", "x") == "hi/scoring.html#x"
    assert language_link(False, hi, SOURCE, "scoring.md", "") == "../scoring.html"
    # Directory URLs: the status page is a folder of its own.
    assert language_link(True, da, hi, "scoring.md", "x") == "../../hi/scoring/#x"
    assert language_link(True, SOURCE, da, "index.md", "y") == "../da/#y"


def test_a_theme_string_has_no_place_on_the_pages_and_costs_no_render(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "project")
    catalog = root / "locales" / "da" / "LC_MESSAGES" / "messages.po"
    text = catalog.read_text("utf-8")
    text, count = re.subn(r'^(msgctxt "theme"\nmsgid "Clear"\nmsgstr )"[^"\n]*"$', r'\1""', text, flags=re.M)
    assert count == 1
    catalog.write_text(text, "utf-8")
    workspace = Workspace.load(Project.at(root))
    (waiting,) = workspace.waiting(next(lang for lang in workspace.languages if lang.code == "da")).waiting
    assert (waiting.msgid, waiting.page) == ("Clear", None)  # the search box's: in the theme only
    assert workspace.placed == {}
    pages = {(p.lang, p.name): p.text for p in render_all(Project.at(root), ["da"])}
    (item,) = _items(pages["da", "translation-status.md"], "da")
    assert "Hvor den vises" not in item


def test_a_status_page_lists_its_own_languages_waiting_messages_only(tmp_path: Path) -> None:
    # Issue 32: every page listing every language's messages grew with languages².
    root = copy_project(tmp_path / "project")
    _blank(root / "locales" / "da" / "LC_MESSAGES" / "messages.po", "Card")
    _blank(root / "locales" / "nl" / "LC_MESSAGES" / "messages.po", "In short")
    pages = {(p.lang, p.name): p.text for p in render_all(Project.at(root), ["en", "da", "nl", "hi"])}
    danish, dutch = pages["da", "translation-status.md"], pages["nl", "translation-status.md"]
    assert [">Card</span>" in item for item in _items(danish, "da")] == [True]
    assert [">In short</span>" in item for item in _items(dutch, "nl")] == [True]
    assert ">In short</span>" not in danish and "locales/nl/" not in danish
    assert ">Card</span>" not in dutch and "locales/da/" not in dutch
    # A language with nothing waiting lists nothing, not even a heading, while others wait.
    hindi = pages["hi", "translation-status.md"]
    assert "messages.po:" not in hindi and "\n## " not in hindi and "\n### " not in hindi
    # The source language's page: links to each list, no message.
    english = pages["en", "translation-status.md"]
    assert "messages.po:" not in english and "\n### " not in english
    assert '<a href="../da/translation-status.md#dansk-da" hreflang="da">Dansk</a> (`da`)' in english
    assert '<a href="../nl/translation-status.md#nederlands-nl" hreflang="nl">' in english

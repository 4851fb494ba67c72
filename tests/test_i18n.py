"""Catalogs, translation lookup, escaping, fallbacks and locale formatting."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po, write_po
from conftest import PUBLISHED

from generator import catalogs
from generator.cards import ALL_CARDS
from generator.errors import RulesdocError
from generator.i18n import (
    CARD_CONTEXT,
    FALLBACK_MARK,
    Formatter,
    Translator,
    catalog_path,
    discover_languages,
    english_card_name,
    expected_plural_forms,
)
from generator.render import Project, render_all


def edit_catalog(locales: Path, code: str, edit) -> None:  # type: ignore[no-untyped-def]
    path = catalog_path(locales, code)
    with path.open("rb") as handle:
        catalog = read_po(handle)
    edit(catalog)
    with path.open("wb") as handle:
        write_po(handle, catalog)


def test_languages_are_discovered_with_their_formatting_locales(project: Project) -> None:
    languages = {language.code: language for language in discover_languages(project.locales)}
    assert sorted(languages) == sorted(PUBLISHED)
    assert str(languages["pt"].locale) == "pt_PT"  # the user's page is European Portuguese
    assert languages["en"].catalog_path is None


@pytest.mark.parametrize("code", [c for c in PUBLISHED if c != "en"])
def test_every_card_has_a_translated_name(project: Project, code: str) -> None:
    language = next(lang for lang in discover_languages(project.locales) if lang.code == code)
    translate = Translator.load(language, mark_fallbacks=False)
    names = {translate.pgettext(CARD_CONTEXT, english_card_name(card)) for card in ALL_CARDS}
    assert translate.missing == []
    assert len(names) == 53  # 52 distinct cards and the joker, no two named alike


def test_card_names_follow_each_languages_grammar(project: Project) -> None:
    by_code = {lang.code: Translator.load(lang) for lang in discover_languages(project.locales)}
    card = lambda code, text: by_code[code].pgettext(CARD_CONTEXT, text)  # noqa: E731
    assert card("da", "ace of hearts") == "hjerter es"
    assert card("ms", "ace of hearts") == "as hati"
    assert card("pt", "ace of hearts") == "ás de copas"
    assert card("hi", "ace of hearts") == "पान का इक्का"
    assert card("hi", "three of hearts") == "पान की तिक्की"
    assert card("hi", "queen of diamonds") == "ईंट की बेगम"


def test_numbers_follow_the_locale() -> None:
    assert Formatter(Locale.parse("hi")).number(1234567) == "12,34,567"
    assert Formatter(Locale.parse("da")).number(1234) == "1.234"
    assert (
        Formatter(Locale.parse("da")).percent(Fraction(2, 5)) == "40\xa0%"
    )  # a no-break space keeps the sign with its number
    assert Formatter(Locale.parse("ms")).list(["2", "3"]) == "2 dan 3"


@pytest.mark.parametrize("code", [c for c in PUBLISHED if c != "en"])
def test_plural_headers_are_cldrs(project: Project, code: str) -> None:
    path = catalog_path(project.locales, code)
    with path.open("rb") as handle:
        catalog = read_po(handle)
    assert catalog.plural_forms == expected_plural_forms(catalog.locale)


def test_a_plural_header_that_disagrees_with_cldr_is_an_error(project_copy: Path) -> None:
    locales = project_copy / "locales"
    # GNU msginit's rule for Hindi, (n != 1), differs from CLDR's (n > 1) at zero.
    path = catalog_path(locales, "hi")
    text = path.read_text("utf-8").replace("plural=(n > 1);", "plural=(n != 1);")
    path.write_text(text, "utf-8")
    with pytest.raises(RulesdocError, match=r"locales/hi/LC_MESSAGES/messages.po:\d+: Plural-Forms header"):
        discover_languages(locales)


def test_a_missing_message_fails_strict_and_is_marked_otherwise(project_copy: Path) -> None:
    def blank(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("Counting points").string = ""

    edit_catalog(project_copy / "locales", "da", blank)
    project = Project.at(project_copy)
    with pytest.raises(
        RulesdocError, match=r"messages.po: 1 message\(s\) untranslated or fuzzy.*Counting points"
    ):
        render_all(project, ["da"], strict=True)
    page = next(p for p in render_all(project, ["da"], strict=False) if p.name == "scoring.md")
    assert page.text.startswith(f"# {FALLBACK_MARK}Counting points")
    assert page.missing == ("Counting points",)


def test_a_fuzzy_message_is_not_a_translation(project_copy: Path) -> None:
    def fuzz(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("In short").flags.add("fuzzy")

    edit_catalog(project_copy / "locales", "da", fuzz)
    with pytest.raises(RulesdocError, match="In short"):
        render_all(Project.at(project_copy), ["da"], strict=True)


def test_a_missing_catalog_is_an_error_not_english(project: Project) -> None:
    with pytest.raises(RulesdocError, match="no catalog for language 'fr'"):
        render_all(project, ["fr"])


def test_a_catalog_cannot_inject_markup(project_copy: Path) -> None:
    def inject(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("Counting points").string = 'Tælle <script>alert(1)</script> <img src=x onerror="x()">'
        catalog.get("In short").string = "Kort [fortalt](javascript:alert(1)) **fed** | celle"

    edit_catalog(project_copy / "locales", "da", inject)
    page = next(p for p in render_all(Project.at(project_copy), ["da"]) if p.name == "scoring.md").text
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    assert r"\[fortalt\](javascript:alert(1))" in page and r"\*\*fed\*\*" in page and r"\| celle" in page


def test_a_broken_placeholder_names_the_catalog_line(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalog_path(locales, "da")
    text = path.read_text("utf-8")
    msgstr = text.index("%(joker)s", text.index('msgstr "Rundens vinder'))
    path.write_text(text[:msgstr] + "%(jokr)s" + text[msgstr + len("%(joker)s") :], "utf-8")
    with pytest.raises(
        RulesdocError, match=r"locales/da/LC_MESSAGES/messages.po:\d+: translation of .* broken placeholder"
    ):
        render_all(Project.at(project_copy), ["da"])


def test_extraction_is_current_and_covers_templates_rules_and_cards(root: Path) -> None:
    template = catalogs.extract(root)
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    assert (None, "Counting points") in ids  # a template
    assert (None, "Hand rummy with three players") in ids  # rules.yaml
    assert (None, "Opponent %(number)s") in ids  # the view model
    assert sum(1 for context, _ in ids if context == CARD_CONTEXT) == 53
    # The committed POT is what extraction gives now.
    assert catalogs.same_messages((root / "locales/messages.pot").read_bytes(), catalogs.po_bytes(template))
    titles = [m for m in template if m.id == "Hand rummy with three players"]
    assert titles[0].locations[0][0] == "rules.yaml" and titles[0].auto_comments


def test_init_starts_a_catalog_with_cldr_plural_forms(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalogs.init(locales, "fr")
    with path.open("rb") as handle:
        catalog = read_po(handle)
    assert str(catalog.locale) == "fr"
    assert catalog.plural_forms == expected_plural_forms(catalog.locale)
    assert len([m for m in catalog if m.id]) == len([m for m in catalogs.load_template(locales) if m.id])
    with pytest.raises(RulesdocError, match="already exists"):
        catalogs.init(locales, "fr")


def test_update_adds_new_messages_and_drops_obsolete_ones(project_copy: Path) -> None:
    locales = project_copy / "locales"
    template_path = catalogs.template_path(locales)
    with template_path.open("rb") as handle:
        template = read_po(handle)
    template.add("A brand new sentence.")
    template.delete("In short")
    with template_path.open("wb") as handle:
        write_po(handle, template)
    catalogs.update(locales, ["da"])
    with catalog_path(locales, "da").open("rb") as handle:
        catalog = read_po(handle)
    assert catalog.get("A brand new sentence.") is not None
    assert catalog.get("In short") is None and not catalog.obsolete
    assert catalog.get("Counting points").string == "Tælle point"

"""Catalogs, translation lookup, escaping, fallbacks and locale formatting."""

from __future__ import annotations

import os
import re
import stat
from fractions import Fraction
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.pofile import read_po, write_po
from support import PUBLISHED

from rulesdoc.catalog import plurals, po, po_writer
from rulesdoc.cli.render_checked import render_all
from rulesdoc.engine.cards import ALL_CARDS
from rulesdoc.errors import Refusal, RulesdocError
from rulesdoc.i18n import catalogs, extraction
from rulesdoc.i18n.extraction import VALUES_NOTE
from rulesdoc.i18n.translate import (
    CARD_CONTEXT,
    FALLBACK_CLOSE,
    FALLBACK_OPEN,
    Translator,
    catalog_path,
    discover_languages,
    english_card_name,
)
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter
from rulesdoc.pages.render import Workspace
from rulesdoc.spec.rules import load_rules


def unwrap(path: Path) -> None:
    """Each string of a catalog on one line (gettext's --no-wrap), so that a test can edit it as text."""
    loaded = po.load(path)
    path.write_bytes(po_writer.to_bytes(loaded.catalog, loaded.headers, width=1 << 30))


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
    assert languages["en"].catalog is None and languages["en"].is_source


@pytest.mark.parametrize("code", [c for c in PUBLISHED if c != "en"])
def test_every_card_has_a_translated_name(project: Project, code: str) -> None:
    language = next(lang for lang in discover_languages(project.locales) if lang.code == code)
    translate = Translator.load(language, mark_fallbacks=False)
    names = {translate.pgettext(CARD_CONTEXT, english_card_name(card)) for card in ALL_CARDS}
    assert translate.missed == {}
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
    assert Formatter(Locale.parse("nl")).list(["2", "3"], style="or") == "2 of 3"
    # Without the catalog's end of a list (tests/test_list_end.py), CLDR's: "2, 3, atau 4".
    assert Formatter(Locale.parse("ms")).list(["2", "3", "4", "5"], style="or") == "2, 3, 4, atau 5"
    ends = {"or": "%(items)s atau %(last)s"}  # the Malay catalog's translation
    assert (
        Formatter(Locale.parse("ms"), list_ends=ends).list(["2", "3", "4", "5"], style="or")
        == "2, 3, 4 atau 5"
    )
    assert (
        Formatter(Locale.parse("ms"), list_ends=ends).list(["2", "3"], style="or") == "2 atau 3"
    )  # CLDR's two
    assert Formatter(Locale.parse("en")).list(["2", "3", "4"], style="or") == "2, 3, or 4"


@pytest.mark.parametrize(
    ("code", "numbers"),
    [
        # CLDR's minimum grouping digits: European Portuguese and Polish group from five digits.
        ("pt_PT", ("2500", "12\xa0500", "1\xa0234\xa0567")),
        ("pl", ("2500", "12\xa0500", "1\xa0234\xa0567")),
        ("pt", ("2.500", "12.500", "1.234.567")),  # Brazilian groups from four
        # The locale's default numbering system: Persian and Bengali digits, Hindi's Latin ones.
        ("fa", ("۲٬۵۰۰", "۱۲٬۵۰۰", "۱٬۲۳۴٬۵۶۷")),
        ("bn", ("২,৫০০", "১২,৫০০", "১২,৩৪,৫৬৭")),
        ("hi", ("2,500", "12,500", "12,34,567")),
    ],
)
def test_numbers_follow_cldr_grouping_and_digits(code: str, numbers: tuple[str, str, str]) -> None:
    fmt = Formatter(Locale.parse(code))
    assert (fmt.number(2500), fmt.number(12500), fmt.number(1234567)) == numbers


@pytest.mark.parametrize("code", [c for c in PUBLISHED if c != "en"])
def test_plural_headers_mean_what_cldr_means(project: Project, code: str) -> None:
    language = next(lang for lang in discover_languages(project.locales) if lang.code == code)
    assert language.catalog is not None and language.catalog.plural_forms is not None
    assert plurals.same_meaning(language.catalog.plural_forms, plurals.cldr(language.locale))


def test_the_page_follows_the_catalogs_own_plural_header(project_copy: Path) -> None:
    # Hindi as GNU msginit writes it, (n != 1): zero takes the plural form, not CLDR's singular.
    locales = project_copy / "locales"
    path = catalog_path(locales, "hi")
    path.write_text(path.read_text("utf-8").replace("plural=(n > 1);", "plural=(n != 1);"), "utf-8")

    def tell_apart(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("%(points)s point").string = ("%(points)s अंक (एक)", "%(points)s अंक (अनेक)")

    edit_catalog(locales, "hi", tell_apart)
    language = next(lang for lang in discover_languages(locales) if lang.code == "hi")
    translate = Translator.load(language)
    forms = [translate.ngettext("%(points)s point", "%(points)s points", n) for n in (0, 1, 2)]
    assert forms == ["%(points)s अंक (अनेक)", "%(points)s अंक (एक)", "%(points)s अंक (अनेक)"]


def test_a_missing_message_shows_in_english_marked_with_one_notice(project_copy: Path) -> None:
    def blank(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("Counting points").string = ""

    edit_catalog(project_copy / "locales", "da", blank)
    project = Project.at(project_copy)
    pages = {p.name: p.text for p in render_all(project, ["da"], strict=True) if p.lang == "da"}  # no error
    page = pages["scoring.md"]
    assert page.startswith(f"# {FALLBACK_OPEN}Counting points{FALLBACK_CLOSE}\n\n")
    assert "⚠" not in page
    notice = "Dele af denne side er endnu ikke oversat og vises på engelsk."
    assert page.count(notice) == 1 and page.index(notice) < page.index("\n## ")  # under the heading
    assert "[Hjælp med at oversætte dem](translation-status.md#dansk-da)" in page  # the Danish list
    assert notice in pages["index.md"]  # its link to "Counting points" is English too
    assert notice not in pages["translation-status.md"]  # nothing English there
    result = Workspace.load(project).render(discover_languages(project.locales)[1:2])["da"]
    template = project_copy / "templates" / "index.md.j2"  # the first page that asks: its link
    line = next(
        n for n, text in enumerate(template.read_text("utf-8").splitlines(), 1) if "Counting points" in text
    )
    assert [(miss.key, str(miss.where)) for miss in result.missed] == [
        (("Counting points", None), f"{template}:{line}")
    ]  # once, with the template line that first asked, though two pages use it


def test_a_fuzzy_message_is_not_a_translation(project_copy: Path) -> None:
    def fuzz(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("In short").flags.add("fuzzy")

    edit_catalog(project_copy / "locales", "da", fuzz)
    page = next(p for p in render_all(Project.at(project_copy), ["da"]) if p.name == "scoring.md").text
    assert f"## {FALLBACK_OPEN}In short{FALLBACK_CLOSE}" in page


def test_an_untranslated_example_title_gets_the_notice_too(project_copy: Path) -> None:
    """Example titles are translated by the view model, before any page: the notice still comes."""

    def blank(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("An ace, a joker and a five are left").string = ""

    edit_catalog(project_copy / "locales", "pt", blank)
    pages = {p.name: p.text for p in render_all(Project.at(project_copy), ["pt"]) if p.lang == "pt"}
    english = f"{FALLBACK_OPEN}An ace, a joker and a five are left{FALLBACK_CLOSE}"
    assert english in pages["scoring.md"]
    notice = "Partes desta página ainda não estão traduzidas e são apresentadas em inglês."
    assert pages["scoring.md"].count(notice) == 1
    assert notice not in pages["index.md"]


def test_the_notice_links_to_check_yaml_translate_url(project_copy: Path) -> None:
    def fuzz(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("In short").flags.add("fuzzy")

    edit_catalog(project_copy / "locales", "nl", fuzz)
    (project_copy / "locales" / "check.yaml").write_text(
        "translate_url: https://translate.example.org/rami/{lang}/\n", "utf-8"
    )
    page = next(p for p in render_all(Project.at(project_copy), ["nl"]) if p.name == "scoring.md").text
    assert "[Help ze te vertalen](https://translate.example.org/rami/nl/)" in page


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("translate_url: javascript:alert(1)\n", r"translate_url: expected an http\(s\) address"),
        ('translate_url: "https://x.org/a b"\n', r"translate_url: expected an http\(s\) address"),
        ("min_translated: {default: 120}\n", "min_translated.default: expected a whole percentage"),
        ("min_translate: 80\n", r"unknown key 'min_translate' in the check configuration; did you mean"),
        (
            "min_translated: !!python/object:os.system x\n",
            r"check.yaml:1: YAML tag 'tag:yaml.org,2002:python/object:os.system' is not allowed",
        ),
    ],
)
def test_a_bad_check_yaml_is_one_line(project_copy: Path, text: str, error: str) -> None:
    (project_copy / "locales" / "check.yaml").write_text(text, "utf-8")
    with pytest.raises(RulesdocError) as caught:
        render_all(Project.at(project_copy), ["da"])
    assert "check.yaml" in str(caught.value) and "\n" not in str(caught.value)
    assert re.search(error, str(caught.value)), str(caught.value)


def test_a_missing_catalog_is_an_error_not_english(project: Project) -> None:
    with pytest.raises(RulesdocError, match="no catalog for language 'fr'"):
        render_all(project, ["fr"])


def test_a_catalog_cannot_inject_markup(project_copy: Path) -> None:
    def inject(catalog) -> None:  # type: ignore[no-untyped-def]
        catalog.get("Counting points").string = 'Tælle <script>alert(1)</script> <img src=x onerror="x()">'
        catalog.get("In short").string = "Kort [fortalt](javascript:alert(1)) **fed** | celle"
        catalog.get("Situation").string = "Situation | celle & < 5"

    edit_catalog(project_copy / "locales", "da", inject)
    page = next(
        p for p in render_all(Project.at(project_copy), ["da"], strict=False) if p.name == "scoring.md"
    ).text
    # Refused (tags, a link, emphasis): the English source shows instead.
    assert "<script>" not in page and "<img" not in page and "fortalt" not in page
    assert f"# {FALLBACK_OPEN}Counting points{FALLBACK_CLOSE}" in page
    assert f"## {FALLBACK_OPEN}In short{FALLBACK_CLOSE}" in page
    # Plain text with Markdown's and HTML's characters is a translation, escaped.
    assert r"Situation \| celle &amp; &lt; 5" in page


def test_a_broken_placeholder_is_refused_not_a_crash(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalog_path(locales, "da")
    unwrap(path)
    text = path.read_text("utf-8")
    msgstr = text.index("%(joker)s", text.index('msgstr "Rundens vinder'))
    path.write_text(text[:msgstr] + "%(jokr)s" + text[msgstr + len("%(joker)s") :], "utf-8")
    line = text[:msgstr].count("\n") + 1
    refused = r"error: \[placeholders\] 'The winner .*': %\(jokr\)s where the source has %\(joker\)s"
    with pytest.raises(Refusal) as caught:  # what `check` says, in its words
        render_all(Project.at(project_copy), ["da"])
    assert re.search(rf"locales/da/LC_MESSAGES/messages.po:{line - 1}: {refused}", str(caught.value))
    page = next(
        p for p in render_all(Project.at(project_copy), ["da"], strict=False) if p.name == "scoring.md"
    )
    assert f"{FALLBACK_OPEN}The winner of the round scores zero points." in page.text


def test_extraction_is_current_and_covers_templates_rules_cards_and_theme(root: Path) -> None:
    template = extraction.extract(root)
    ids = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    assert (None, "Counting points") in ids  # a template
    examples = load_rules(root / "rules.yaml").examples  # whatever this checkout's examples are
    assert {(None, example.title) for example in examples} <= ids  # rules.yaml
    assert (None, "Opponent %(number)s") in ids  # the view model
    assert sum(1 for context, _ in ids if context == CARD_CONTEXT) == 53
    assert ("theme", "Table of contents") in ids and ("theme", "Permanent link") in ids  # the theme
    # The committed POT is what extraction gives now, its notes rendered with the values aside:
    # they follow rules.yaml, and a value changed since `catalog extract` is no staleness
    # (tests/test_value_notes.py).
    committed = po.load(root / "locales/messages.pot")
    assert extraction.same_content(committed, template)
    assert any(VALUES_NOTE in " ".join(m.auto_comments) for m in committed.messages())
    titles = [m for m in template if m.id == examples[0].title]
    assert titles[0].locations[0][0] == "rules.yaml" and titles[0].auto_comments
    # Texts of rules.yaml are never %-formatted: "50% off" is a title, not a broken placeholder.
    assert "no-python-format" in titles[0].flags and "python-format" not in titles[0].flags


def test_init_starts_a_catalog_with_cldr_plural_forms_and_materials_theme_strings(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalogs.init(locales, "fr")
    with path.open("rb") as handle:
        catalog = read_po(handle)
    assert str(catalog.locale) == "fr"
    assert catalog.plural_forms == plurals.cldr(Locale.parse("fr")).header
    assert len([m for m in catalog if m.id]) == len(list(catalogs.load_template(locales).messages()))
    assert catalog.get("Table of contents", "theme").string == "Table des matières"  # Material's French
    assert catalog.get("Permanent link", "theme").string == ""  # Material has none: ours to translate
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()  # not mkstemp's 0600
    with pytest.raises(RulesdocError, match="already exists"):
        catalogs.init(locales, "fr")


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


@pytest.mark.parametrize(
    ("code", "folder"), [("zh-hant", "zh_Hant"), ("pt-BR", "pt_BR"), ("sr_Latn", "sr_Latn"), ("SW", "sw")]
)
def test_init_takes_posix_and_bcp47_spellings(project_copy: Path, code: str, folder: str) -> None:
    path = catalogs.init(project_copy / "locales", code)
    assert path == catalog_path(project_copy / "locales", folder)


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("../../escaped", "is not a language code"),
        ('da.x" onmouseover="alert(1)', "is not a language code"),
        ("xx", "CLDR has no locale 'xx'"),
        ("en", "the source language"),
    ],
)
def test_init_refuses_what_is_not_a_cldr_language(project_copy: Path, code: str, says: str) -> None:
    with pytest.raises(RulesdocError, match=says):
        catalogs.init(project_copy / "locales", code)
    assert not (project_copy / "escaped").exists()


def test_update_keeps_vanished_messages_as_obsolete_and_brings_them_back(project_copy: Path) -> None:
    locales = project_copy / "locales"
    template_path = catalogs.template_path(locales)
    original = template_path.read_bytes()
    with template_path.open("rb") as handle:
        template = read_po(handle)
    template.add("A brand new sentence.")
    template.delete("In short")
    with template_path.open("wb") as handle:
        write_po(handle, template)
    [update] = catalogs.update(locales, ["da"])
    assert (update.new, update.obsolete, update.written) == (1, 1, True)
    with catalog_path(locales, "da").open("rb") as handle:
        catalog = read_po(handle)
    assert catalog.get("A brand new sentence.") is not None
    assert catalog.get("In short") is None and catalog.obsolete["In short"].string == "Kort fortalt"
    template_path.write_bytes(original)
    [update] = catalogs.update(locales, ["da"])
    assert update.revived == 1
    with catalog_path(locales, "da").open("rb") as handle:
        catalog = read_po(handle)
    assert catalog.get("In short").string == "Kort fortalt" and not catalog.get("In short").fuzzy


def test_update_keeps_the_previous_source_of_a_fuzzy_entry(project_copy: Path) -> None:
    locales = project_copy / "locales"
    template_path = catalogs.template_path(locales)
    text = template_path.read_text("utf-8")
    template_path.write_text(
        text.replace('msgid "The blocked round"', 'msgid "The blocked round, explained"'), "utf-8"
    )
    [update] = catalogs.update(locales, ["da"])
    assert update.fuzzy == 1
    written = catalog_path(locales, "da").read_text("utf-8")
    assert '#, fuzzy\n#| msgid "The blocked round"\nmsgid "The blocked round, explained"' in written


def test_update_leaves_unchanged_catalogs_untouched(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalog_path(locales, "nl")
    before = path.read_bytes(), path.stat().st_mtime_ns
    updates = catalogs.update(locales)
    assert all(not u.written and u.summary() == "up to date" for u in updates)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before


def test_update_refuses_a_template_that_lost_most_messages(project_copy: Path) -> None:
    locales = project_copy / "locales"
    pot = catalogs.template_path(locales)
    header_only = pot.read_text("utf-8").split("\n\n")[0] + "\n"
    pot.write_text(header_only, "utf-8")
    before = {code: catalog_path(locales, code).read_bytes() for code in ("da", "nl")}
    with pytest.raises(RulesdocError, match=r"messages.pot lacks \d+ of the \d+ translated messages"):
        catalogs.update(locales)
    assert {code: catalog_path(locales, code).read_bytes() for code in ("da", "nl")} == before
    catalogs.update(locales, ["da"], force=True)  # on request: every message kept as #~ obsolete
    with catalog_path(locales, "da").open("rb") as handle:
        catalog = read_po(handle)
    assert not [m for m in catalog if m.id] and catalog.obsolete["In short"].string == "Kort fortalt"


def test_update_sets_cldrs_plural_header_on_request_keeping_each_forms_meaning(project_copy: Path) -> None:
    locales = project_copy / "locales"
    path = catalog_path(locales, "pt")
    unwrap(path)
    text = path.read_text("utf-8").replace(
        "nplurals=3; plural=(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2);",
        "nplurals=2; plural=(n != 1);",
    )
    old_forms = 'msgstr[1] "%(points)s de pontos"\nmsgstr[2] "%(points)s pontos"'
    assert old_forms in text
    text = text.replace(old_forms, 'msgstr[1] "%(points)s pontos"')
    path.write_text(text, "utf-8")
    [update] = catalogs.update(locales, ["pt"], cldr_plural_forms=True)
    assert "Plural-Forms set to CLDR's (3 forms)" in update.summary()
    loaded = po.load(path)
    assert loaded.plural_forms is not None
    assert loaded.plural_forms.header == plurals.cldr(Locale.parse("pt_PT")).header
    # one (n = 1) stays form 0; many (a million) and other both come from the old plural form.
    assert loaded.catalog.get("%(points)s point").string == (
        "%(points)s ponto",
        "%(points)s pontos",
        "%(points)s pontos",
    )


@pytest.mark.parametrize(
    ("folder", "says"),
    [
        ('da.x" onmouseover="alert(1)', "is not a language code"),
        ("xx", "CLDR has no locale 'xx'"),
        ("zh-Hant", "rename the folder to 'zh_Hant'"),
    ],
)
def test_a_catalog_folder_must_be_a_cldr_code(project_copy: Path, folder: str, says: str) -> None:
    locales = project_copy / "locales"
    target = locales / folder / "LC_MESSAGES"
    target.mkdir(parents=True)
    (target / "messages.po").write_bytes(catalog_path(locales, "da").read_bytes())
    with pytest.raises(RulesdocError, match=says) as raised:
        discover_languages(locales)
    assert "\n" not in str(raised.value) and folder in str(raised.value) or says in str(raised.value)


@pytest.mark.parametrize("text", ["min_translated:\n  default: 0\n", "min_translated:\n  da: 0\n"])
def test_a_threshold_of_0_is_0_percent(project_copy: Path, text: str) -> None:
    """0 means no message need be translated (it once meant the default, 80 %)."""
    from rulesdoc.i18n.policy import read_policy

    (project_copy / "locales" / "check.yaml").write_text(text, "utf-8")
    policy = read_policy(project_copy / "locales")
    assert policy.threshold("da") == 0 and policy.offers("da", 0, 187)

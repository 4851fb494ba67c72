"""The theme's own words (Material for MkDocs' UI strings) as messages of our catalogs.

Material ships UI strings for 69 languages, as Jinja partials
``partials/languages/<code>.html`` (read by :mod:`rulesdoc.localedata.material_partials`, the
seam). A language it lacks would crash its build, and some of its chrome is English in every
language ("Permanent link", the footer's "Made with", "404 - Not found"). So the strings the
site shows are messages of ours with context ``theme`` (English source: Material's
``en.html``), extracted like every other message (``babel.cfg`` maps ``mkdocs.yml``, which
chooses the theme, to :func:`extract_theme`). Each language's build gets a generated partial
answering every key: our translation (one ``catalog init``/``update`` imported from Material
counts as unreviewed until a translator confirms it, and is shown meanwhile), else
Material's string for the language, else English; the keys left in English are listed under
:data:`ENGLISH_KEYS`, for our templates to mark them ``lang="en"``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import IO, Any

import yaml
from babel import Locale
from babel.core import get_global

from rulesdoc.i18n import placeholders as printf
from rulesdoc.localedata import material_partials
from rulesdoc.localedata.material_partials import lunr_languages, material_code, material_strings

THEME_CONTEXT = "theme"

# The keys of Material's partials the site's features show, with a note for translators.
KEYS: dict[str, str] = {
    "action.skip": "Link for keyboard users to jump over the navigation.",
    "clipboard.copy": "Button on code blocks.",
    "clipboard.copied": "Shown after copying a code block.",
    "footer": "Label of the footer for screen readers.",
    "footer.next": "Footer link to the next page.",
    "footer.previous": "Footer link to the previous page.",
    "header": "Label of the header bar for screen readers.",
    "nav": "Label of the navigation for screen readers.",
    "search": "Label of the search options for screen readers.",
    "search.placeholder": "Placeholder of the search box.",
    "search.reset": "Button that clears the search box.",
    "search.share": "Button that copies a link to the search.",
    "search.result.initializer": "Shown while search loads.",
    "search.result.placeholder": "Shown in the empty search box's results.",
    "search.result.none": "No search results.",
    "search.result.one": "One search result.",
    "search.result.other": "Several search results: keep # where the number goes.",
    "search.result.more.one": "One more match on the same page.",
    "search.result.more.other": "More matches on the same page: keep # where the number goes.",
    "search.result.term.missing": "Marks a search word a result lacks.",
    "select.language": "Label of the language switcher.",
    "select.version": "Label of the version switcher.",
    "toc": "Heading of the table of contents.",
    "top": "Button back to the top of the page.",
}
# Chrome Material writes in English in every language: ours to translate.
EXTRA: dict[str, tuple[str, str]] = {
    "rulesdoc.permalink": ("Permanent link", "Tooltip of the ¶ link beside each heading."),
    "rulesdoc.made_with": ("Made with %(name)s", "Footer; %(name)s is the theme's name, a link."),
    "rulesdoc.not_found": ("404 - Not found", "Heading of the page shown for a missing address."),
    # The palette toggle's names: mkdocs.yml writes them in English; each language gets these.
    "rulesdoc.palette.dark": (
        "Switch to dark mode",
        "Tooltip and screen-reader label of the header button shown in light mode: it turns the"
        " site's colours dark (light text on a dark background).",
    ),
    "rulesdoc.palette.light": (
        "Switch to light mode",
        "Tooltip and screen-reader label of the header button shown in dark mode: it turns the"
        " site's colours back to dark text on a light background.",
    ),
    # The notice at the top of a page that shows some messages in English (generator/pages/render.py).
    "rulesdoc.untranslated": (
        "Parts of this page are not translated yet and are shown in English.",
        "Notice at the top of a page where some sentences still show in English, because their"
        " translation is missing or awaits review.",
    ),
    "rulesdoc.untranslated_page": (
        "This page is not translated yet and is shown in English.",
        "Notice at the top of a page where no sentence is translated yet, because every"
        " translation is missing or awaits review.",
    ),
    "rulesdoc.help_translate": (
        "Help translate them",
        "Link after that notice, to where volunteers translate this help into this language.",
    ),
}
# The theme key whose value lists, space-separated, the keys a language shows in English.
ENGLISH_KEYS = "rulesdoc.english"
MATERIAL_HOME = "https://squidfunk.github.io/mkdocs-material/"


@dataclass(frozen=True)
class ThemeMessage:
    key: str
    english: str
    comment: str


def messages() -> list[ThemeMessage]:
    english = material_partials.english()
    found = [ThemeMessage(key, english[key], note) for key, note in KEYS.items() if key in english]
    found += [ThemeMessage(key, text, note) for key, (text, note) in EXTRA.items()]
    return found


SITE_NAME_NOTE = "The site's name (mkdocs.yml site_name): the header, the logo's title, every page's <title>."
# mkdocs.yml's texts a reader sees, offered to translators as messages, with their notes.
CONFIG_NOTES = {
    "site_name": SITE_NAME_NOTE,
    "copyright": "The site's copyright notice (mkdocs.yml copyright): the footer of every page.",
    "repo_name": "The name of the site's repository (mkdocs.yml repo_name): the header's link to it.",
}


def site_name_in(line: str) -> str | None:
    """The site's name, if this line of mkdocs.yml is its ``site_name:``."""
    return config_text_in("site_name", line)


def config_text_in(key: str, line: str) -> str | None:
    """The value, if this line of mkdocs.yml is ``key:`` with a one-line text (the extractor's and
    the catalogs' headers' one reading; the site engines read the whole file, with its errors)."""
    if not line.startswith(f"{key}:"):
        return None
    try:
        value = yaml.safe_load(line.partition(":")[2])
    except yaml.YAMLError:
        return None  # read_config reports the file's syntax error with its line
    return value.strip() if isinstance(value, str) and value.strip() else None


def config_message(key: str, value: object) -> str | None:
    """The message a translator is offered for mkdocs.yml's ``key``, or None. The copyright is HTML
    by the theme's design: offered as its text (``&copy;`` read as ©) while it has no tag; one with
    tags stays as written in every language, as a translation may put no markup into the site."""
    if not isinstance(value, str) or not value.strip():
        return None
    if key == "copyright":
        if "<" in value:
            return None
        value = html.unescape(value)
    return " ".join(value.split())


def extract_theme(
    fileobj: IO[bytes], keywords: Mapping[str, Any], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[tuple[int, str, str | tuple[str, str], list[str]]]:
    """Babel extraction method: the site's name, copyright and repository name (``site_name:``,
    ``copyright:``, ``repo_name:``, each on one line) and the theme's UI strings (located at
    ``theme:``) in mkdocs.yml."""
    lines = fileobj.read().decode("utf-8", "replace").splitlines()
    line = next((number for number, text in enumerate(lines, 1) if text.startswith("theme:")), 1)
    for number, text in enumerate(lines, 1):
        for key, note in CONFIG_NOTES.items():
            found = config_message(key, config_text_in(key, text))
            if found:
                yield number, "gettext", found, [note]
    for message in messages():
        comment = f"Theme string {message.key!r} (Material for MkDocs). {message.comment}"
        yield line, "pgettext", (THEME_CONTEXT, message.english), [comment]


@dataclass(frozen=True)
class ThemeStrings:
    """One language's answers to the theme's keys, escaped for HTML text and attributes."""

    values: Mapping[str, str]

    def partial(self) -> str:
        """A Jinja partial in Material's shape: ``{% macro t(key) %}`` over a dict literal."""
        body = ",\n".join(
            # ensure_ascii=False: Jinja reads "\ud83d\ude00" as two lone surrogates, not one emoji.
            f"  {json.dumps(key, ensure_ascii=False)}: {json.dumps(value, ensure_ascii=False)}"
            for key, value in sorted(self.values.items())
        )
        return "{% macro t(key) %}{{ {\n" + body + "\n}[key] }}{% endmacro %}\n"

    def __getitem__(self, key: str) -> str:
        return self.values[key]


def theme_strings(tag: str, direction: str, translated: Mapping[str, str | None]) -> ThemeStrings:
    """Every key for one language: our translation (by English source), Material's, or English.

    ``translated`` maps each English source to its translation, None where we have none.
    """
    english = material_partials.english()
    code = material_code(tag)
    theirs = material_strings(code) if code else None
    values: dict[str, str] = {}
    english_only: list[str] = []  # keys shown in English: our templates mark them lang="en"
    for key, source in english.items():
        if key.startswith("search.config.") or key in ("language", "direction"):
            continue
        ours = translated.get(source) if key in KEYS else None
        values[key] = ours or (theirs or {}).get(key) or source
        if not (ours or (theirs or {}).get(key)):
            english_only.append(key)
    for key, (source, _) in EXTRA.items():
        values[key] = translated.get(source) or source
        if not translated.get(source):
            english_only.append(key)
    escaped = {key: html.escape(" ".join(value.split()), quote=True) for key, value in values.items()}
    link = f'<a href="{MATERIAL_HOME}" target="_blank" rel="noopener">Material for MkDocs</a>'
    parts = printf.split(" ".join(values["rulesdoc.made_with"].split()))
    escaped["rulesdoc.made_with"] = "".join(
        html.escape(part) if i % 2 == 0 else ("%" if part == "%%" else link) for i, part in enumerate(parts)
    )
    escaped[ENGLISH_KEYS] = " ".join(sorted(english_only)) if tag.split("-")[0] != "en" else ""
    escaped["language"] = tag
    escaped["direction"] = direction
    return ThemeStrings(escaped)


@dataclass(frozen=True)
class SearchSettings:
    lang: str
    separator: str
    pipeline: tuple[str, ...]


_DEFAULT_SEPARATOR = r"[\s\-]+"
# Scripts written without spaces between words: with no word segmenter for the language,
# every character is a token, so a search for a word still finds it.
_UNSPACED = {"Hani", "Hans", "Hant", "Jpan", "Kore", "Thai", "Laoo", "Khmr", "Mymr", "Tibt"}
_CHARACTER_SEPARATOR = r"[\s\-\u3000\u3001\u3002\uff0c\uff0e]+|(?=\S)"
_LUNR_ALIASES = {"nb": "no", "nn": "no"}  # lunr-languages names Norwegian "no"


def search_settings(locale: Locale, tag: str) -> SearchSettings:
    """Search for one language: Material's own settings where it has the language; otherwise its
    lunr pipeline if Material ships one, and a tokenizer fit for the script."""
    code = material_code(tag)
    theirs = material_strings(code) if code else None
    if theirs and "search.config.lang" in theirs:
        pipeline = tuple(p for p in theirs.get("search.config.pipeline", "").replace(" ", "").split(",") if p)
        return SearchSettings(
            theirs["search.config.lang"], theirs.get("search.config.separator", _DEFAULT_SEPARATOR), pipeline
        )
    lunr = _LUNR_ALIASES.get(locale.language, locale.language)
    lang = lunr if lunr in lunr_languages() else "en"
    script = locale.script or get_global("likely_subtags").get(locale.language, "").split("_")[1:2]
    script = script if isinstance(script, str) else (script[0] if script else "")
    separator = _CHARACTER_SEPARATOR if script in _UNSPACED else _DEFAULT_SEPARATOR
    # A lunr language brings its own stemmer and stop words; English ones would mangle other words.
    pipeline = () if lang != "en" else ("trimmer",)
    return SearchSettings(lang, separator, pipeline)

"""What every page of a language needs that Material's templates cannot say, written into the
page's HTML after Material rendered it: its direction on ``<html>``, ``lang="en"`` on chrome that
falls back to English, and one line per hreflang link."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from generator.i18n import theme

if TYPE_CHECKING:
    from generator.site.languages import LanguageSite

_HTML_TAG = re.compile(r"<html\b([^>]*)>")
# Material writes each hreflang link on a line of its own after a blank line of indentation.
_BEFORE_ALTERNATE = re.compile(r"\n\s+(?=<link rel=\"alternate\" href=\"[^\"<>]*\" hreflang=\"[^\"<>]*\">)")


def compact_alternates(output: str) -> str:
    """One line per hreflang link: every page lists every language, so the theme's blank lines
    between them grew each page with the number of languages (whitespace in <head> means nothing)."""
    return _BEFORE_ALTERNATE.sub("\n", output)


def html_direction(output: str, direction: str) -> str:
    """``<html lang=… dir="rtl">``: Material writes the direction on <body> only."""
    if direction != "rtl":
        return output
    return _HTML_TAG.sub(
        lambda m: f'<html{m.group(1)} dir="rtl">' if "dir=" not in m.group(1) else m.group(0), output, count=1
    )


# Where Material writes the site name (partials/header.html and nav.html): the header's title,
# the logo links (title and aria-label) and the navigation drawer's title.
_SITE_NAME_PLACES = re.compile(
    r'(<div class="md-header__topic">\s*<span class="md-ellipsis")>'
    r'|(class="md-(?:header|nav)__button md-logo")'
    r'|(<label class="md-nav__title" for="__drawer")>'
)


def english_site_name(output: str) -> str:
    """``lang="en"`` on every element that shows the site name, when it falls back to English."""

    def mark(match: re.Match[str]) -> str:
        if match.group(2):
            return f'{match.group(2)} lang="en"'
        return f'{match.group(1) or match.group(3)} lang="en">'

    return _SITE_NAME_PLACES.sub(mark, output)


# Chrome that is only an attribute (a tooltip, a screen reader's name) of an element holding
# nothing else but an icon: the ¶ beside a heading, the palette toggle's input and label.
ATTRIBUTE_CHROME = ("rulesdoc.permalink", "rulesdoc.palette.dark", "rulesdoc.palette.light")


def english_attributes(output: str, values: list[str]) -> str:
    """``lang="en"`` on the links, inputs and labels whose title or aria-label is one of
    ``values`` (escaped as the page has them): the chrome that fell back to English."""
    if not values:
        return output
    pattern = re.compile(
        r'(<(?:a|input|label)\b[^<>]*?\b(?:title|aria-label)="(?:'
        + "|".join(re.escape(value) for value in values)
        + r')")(?![^<>]*\blang=)'
    )
    return pattern.sub(lambda match: f'{match.group(1)} lang="en"', output)


def finish_page(output: str, site: LanguageSite) -> str:
    """What every page of a language needs that the theme cannot say (any engine's build): its
    direction on <html>, and lang="en" on the site name and the attribute chrome while the
    language's catalog lacks them."""
    if site.site_name_english:
        output = english_site_name(output)
    english = set(site.strings[theme.ENGLISH_KEYS].split()) & set(ATTRIBUTE_CHROME)
    output = english_attributes(output, [site.strings[key] for key in sorted(english)])
    return html_direction(output, site.language.direction)

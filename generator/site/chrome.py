"""What every page of a language needs that Material's templates cannot say, written into the
page's HTML after Material rendered it: its direction on ``<html>``, ``lang="en"`` on chrome that
falls back to English, and one line per hreflang link.

This is the Material seam for HTML: the markup these rewrites find is Material 9's (Zensical's
theme keeps it). :data:`MARKUP` names each piece, and every page is checked for all of them
before it is rewritten (:func:`check_markup`): a theme release that changes one fails the build
with a line naming it, instead of a site that silently lost a mark.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rulesdoc.errors import RulesdocError
from rulesdoc.i18n import theme

if TYPE_CHECKING:
    from rulesdoc.site.languages import LanguageSite

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
_HEADER_TITLE = r'(<div class="md-header__topic">\s*<span class="md-ellipsis")>'
_LOGO = r'(class="md-(?:header|nav)__button md-logo")'
_DRAWER_TITLE = r'(<label class="md-nav__title" for="__drawer")>'
_SITE_NAME_PLACES = re.compile(f"{_HEADER_TITLE}|{_LOGO}|{_DRAWER_TITLE}")


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


_HREFLANG_LINK = re.compile(r'<link rel="alternate" href="[^"<>]*" hreflang="[^"<>]*">')

# The theme's markup that the rewrites above (and publishing.hreflang_links) rely on, each present
# on every page the theme renders (the header and drawer come from its base template).
MARKUP: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("<html> element", _HTML_TAG),
    ("site name in the header (partials/header.html)", re.compile(_HEADER_TITLE)),
    ("logo link (partials/header.html, partials/nav.html)", re.compile(_LOGO)),
    ("site name in the drawer (partials/nav.html)", re.compile(_DRAWER_TITLE)),
    ("hreflang links (base.html, config.extra.alternate)", _HREFLANG_LINK),
)


class ThemeMarkupChanged(RulesdocError):
    """A page lacks markup rulesdoc rewrites: the theme changed under us."""


def check_markup(output: str, page: str) -> None:
    """Every piece of :data:`MARKUP` is on the page, or the build stops with one line naming it."""
    for what, pattern in MARKUP:
        if pattern.search(output) is None:
            raise ThemeMarkupChanged(
                f"{page}: the theme's page lacks its {what}: its markup changed, a theme version rulesdoc "
                "does not support (rulesdoc's publisher's guide, \"Platform\")"
            )


def finish_page(output: str, site: LanguageSite, page: str) -> str:
    """What every page of a language needs that the theme cannot say (any engine's build): its
    direction on <html>, and lang="en" on the site name and the attribute chrome while the
    language's catalog lacks them; the calculator's data in place of its stand-in
    (:func:`rulesdoc.site.languages.engine_pages`). ``page`` names it in the error when the
    markup changed."""
    check_markup(output, page)
    if site.site_name_english:
        output = english_site_name(output)
    english = set(site.strings[theme.ENGLISH_KEYS].split()) & set(ATTRIBUTE_CHROME)
    output = english_attributes(output, [site.strings[key] for key in sorted(english)])
    output = html_direction(output, site.language.direction)
    if site.data is not None:  # last: the rewrites above have no business in the data
        stand_in, data = site.data
        output = output.replace(stand_in, data)
    return output

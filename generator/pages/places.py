"""Where each message shows on a language's pages: the page and the heading anchor of its section.

The status page links every message a language still shows in English to the place a reader
finds it. That place is read off the pages themselves, not guessed from the templates: the
language's pages are rendered with a marking translator (every message a template or the view
model asks for wrapped in ``<span data-rd-msg="N">``), made HTML by Python-Markdown with the
site's extensions and its heading slugs (``toc`` with :func:`rulesdoc.i18n.markup.slugify`, as
``mkdocs.yml`` configures it), and each message gets the ``id`` of the last heading before its
first appearance: the translated heading's slug in that language, or the English one where the
heading itself is still English. The marks exist only in this render, never in a published page
(the screenshots command pictures the same marks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser

from rulesdoc.catalog.po import Key
from rulesdoc.i18n.markup import slugify
from rulesdoc.i18n.translate import Language, Translator
from rulesdoc.i18n.verdicts import Verdict

MARK = "data-rd-msg"
# mkdocs.yml's Markdown extensions that decide a heading's anchor and what is a heading.
EXTENSIONS = ["tables", "attr_list", "toc", "pymdownx.blocks.caption"]
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})


class MarkingTranslator(Translator):
    """The Translator, each message's text wrapped in an element naming the message."""

    def __init__(self, language: Language, verdicts: Mapping[Key, Verdict] | None = None) -> None:
        super().__init__(language, verdicts)
        self.keys: list[Key] = []
        self._index: dict[Key, int] = {}

    def _wrap(self, key: Key, text: str) -> str:
        index = self._index.setdefault(key, len(self.keys))
        if index == len(self.keys):
            self.keys.append(key)
        return f'<span {MARK}="{index}">{text}</span>'  # an int attribute, escaped text

    def gettext(self, message: str) -> str:
        return self._wrap((message, None), super().gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._wrap((singular, None), super().ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return self._wrap((message, context), super().pgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._wrap((singular, context), super().npgettext(context, singular, plural, n))


def markdown_html(text: str) -> str:
    """A page's Markdown as the site makes its HTML body: the same extensions, the same anchors."""
    import markdown

    configs = {"toc": {"slugify": slugify}}
    html: str = markdown.markdown(text, extensions=EXTENSIONS, extension_configs=configs)
    return html


@dataclass(frozen=True)
class Place:
    """Where a message first shows: its page ("scoring.md") and the anchor of the heading above
    it ("" when it shows before the page's first heading)."""

    page: str
    anchor: str


class _Reader(HTMLParser):
    def __init__(self, keys: Sequence[Key], page: str, found: dict[Key, Place]) -> None:
        super().__init__(convert_charrefs=True)
        self.keys, self.page, self.found = keys, page, found
        self.anchor = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in HEADINGS and values.get("id"):
            self.anchor = str(values["id"])
        mark = values.get(MARK)
        if mark is not None and mark.isdigit() and int(mark) < len(self.keys):
            self.found.setdefault(self.keys[int(mark)], Place(self.page, self.anchor))


def places_in(html: str, keys: Sequence[Key], page: str, found: dict[Key, Place]) -> None:
    """Add to ``found`` the place of every marked message of one page's HTML not placed yet."""
    reader = _Reader(keys, page, found)
    reader.feed(html)
    reader.close()


def places(pages: Sequence[tuple[str, str]], keys: Sequence[Key]) -> dict[Key, Place]:
    """Each marked message's first place in ``pages`` ((name, marked Markdown), in nav order)."""
    found: dict[Key, Place] = {}
    for name, text in pages:
        places_in(markdown_html(text), keys, name, found)
    return found

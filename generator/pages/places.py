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

Making every page HTML cost more than rendering it (issue 32: 0.1 s a language). Only the
headings' anchors need Python-Markdown: :func:`places` reads a page line by line, the ATX
headings (``#`` at the start of a line: Python-Markdown's hash header) made HTML on their own, in
one document so that toc makes repeated anchors unique as on the page, and each mark placed
under the last heading above its line. A page holding anything that could make that reading
differ from Python-Markdown's (fenced or indented code, a raw HTML block, setext headings, an
``id`` set by attr_list, a mark in a code span, a tag or a script...) is made HTML whole, as
before (:func:`places_by_html`); ``tests/test_status_links.py`` holds the two equal.
"""

from __future__ import annotations

import dataclasses
import functools
import html
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

from rulesdoc.catalog.po import Key
from rulesdoc.i18n.markup import slugify
from rulesdoc.i18n.stats import CatalogStats, Waiting
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


_LOCAL = threading.local()  # one Markdown instance a thread: making one reads the extensions anew


def _converter() -> Any:
    made = getattr(_LOCAL, "markdown", None)
    if made is None:
        import markdown

        made = _LOCAL.markdown = markdown.Markdown(
            extensions=EXTENSIONS, extension_configs={"toc": {"slugify": slugify}}
        )
    return made


def markdown_html(text: str) -> str:
    """A page's Markdown as the site makes its HTML body: the same extensions, the same anchors."""
    converter = _converter()
    converter.reset()
    made: str = converter.convert(text)
    return made


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
        marks = marks_by_line(text)
        if marks is None:
            places_in(markdown_html(text), keys, name, found)
            continue
        for anchor, index in marks:
            if index < len(keys):
                found.setdefault(keys[index], Place(name, anchor))
    return found


def listing_sample(stats: CatalogStats) -> CatalogStats:
    """A language's count with one waiting message of each state, for its marked render: the status
    page's list quotes its messages' English, never asks for them, so one item of each state shows
    every text the list asks for, and spares the reading the rest of the list."""
    sample = {(w.refused, w.status): w for w in reversed(stats.waiting)}
    listed = frozenset(id(w) for w in sample.values())
    return dataclasses.replace(stats, waiting=tuple(w for w in stats.waiting if id(w) in listed))


def placed(stats: CatalogStats, found: Mapping[Key, Place]) -> CatalogStats:
    """A language's count, each waiting message given its place where it has one."""
    waiting = tuple(
        dataclasses.replace(w, page=found[key].page, anchor=found[key].anchor)
        if (key := (w.msgid, w.context)) in found
        else w
        for w in stats.waiting
    )
    return dataclasses.replace(stats, waiting=waiting)


def status_link(waiting: Waiting, text: str) -> str:
    """A link from a language's status page to where one of its waiting messages shows on its
    own pages (Markdown: the site resolves and checks it). ``text`` is a Translator's, escaped."""
    if waiting.page is None:
        return ""
    anchor = f"#{waiting.anchor}" if waiting.anchor else ""
    return f"[{text}]({waiting.page}{anchor})"


def list_anchor(language: Language) -> str:
    """The anchor of a language's list of waiting messages on its status page: its heading is
    "<name> (<code>)" (templates/translation-status.md.j2), as the site's toc slugifies it."""
    return slugify(f"{language.name} ({language.code})", "-")


def places_by_html(pages: Sequence[tuple[str, str]], keys: Sequence[Key]) -> dict[Key, Place]:
    """:func:`places` read off each page made HTML whole: the reference the line reading must equal."""
    found: dict[Key, Place] = {}
    for name, text in pages:
        places_in(markdown_html(text), keys, name, found)
    return found


_MARK_TAG = re.compile(rf'<span {MARK}="(\d+)">')
_ATX = re.compile(r"#{1,6}")  # at the start of a line, nothing before: Python-Markdown's hash header
# What the line reading cannot vouch for, anywhere on the page: a fence; an HTML comment or heading;
# a table of contents; a setext underline; a link reference (a heading's text could depend on it);
# an escaped tag; a tab; a line indented as code.
_UNSURE_PAGE = re.compile(
    r"^(?:```|~~~)|<!--|<h[1-6]\b|\[TOC\]|^ {0,3}(?:=+|-+) *$"
    r"|^ {0,3}\[[^\]\n]+\]:|\\<|\t|^ {4}",
    re.M | re.I,
)
_RAW_TEXT = re.compile(r"<(script|style|textarea|title)\b", re.I)  # its text holds no tag
_ATTR_ID = re.compile(r"\{:?[^}\n]*(?:#|\bid=)[^}\n]*\}")  # attr_list setting an id
_HTML_START = re.compile(r" {0,3}<([A-Za-z][A-Za-z0-9-]*)")
_HEADING_ID = re.compile(r'<h[1-6][^>]*?\sid="([^"]*)"')


def marks_by_line(text: str) -> list[tuple[str, int]] | None:
    """Every mark of a page, in order, with the anchor of the heading above it; None when the page
    holds something only Python-Markdown can read right (the caller then makes it HTML whole)."""
    if _UNSURE_PAGE.search(text):
        return None
    lines = text.split("\n")
    headings: list[int] = []  # the heading lines' numbers
    previous = above = ""  # the line before, and the last line before that was not blank
    for number, line in enumerate(lines):
        if _ATX.match(line):
            # A table row, or right under a raw HTML line, may not be a heading.
            if "|" in line or _HTML_START.match(previous):
                return None
            headings.append(number)
        elif _ATTR_ID.search(line):
            return None  # toc makes a heading's anchor unique against every id on the page
        elif (start := _HTML_START.match(line)) and start.group(1).lower() in _block_level():
            closing = f"</{start.group(1).lower()}>"
            if not line.lower().rstrip().endswith(closing):
                return None  # a raw HTML block that goes on past its line
        if (raw := _RAW_TEXT.search(line)) and (
            MARK in line or f"</{raw.group(1).lower()}>" not in line[raw.end() :].lower()
        ):
            return None  # a mark in a script's text is no tag; and one that goes on past its line
        if line.startswith("///") and _ATX.match(above):
            return None  # a caption block takes the block above it: here, a heading
        previous = line
        above = line if line.strip() else above
    anchors = _heading_anchors(tuple(lines[number] for number in headings))
    if anchors is None:
        return None
    by_line = dict(zip(headings, anchors, strict=True))
    found: list[tuple[str, int]] = []
    anchor = ""
    block_ticks = False  # a backtick in this block (lines between blank lines) so far
    block_marks = False
    for number, line in enumerate(lines):
        if not line.strip():
            block_ticks = block_marks = False
            continue
        anchor = by_line.get(number, anchor)
        ticks = "`" in line
        marks = list(_MARK_TAG.finditer(line))
        table = line.startswith("|")
        if marks and (ticks or (not table and block_ticks)) or (ticks and not table and block_marks):
            return None  # a mark that may sit in a code span: shown as text, not a tag
        block_ticks, block_marks = block_ticks or ticks, block_marks or bool(marks)
        for mark in marks:
            before = line[: mark.start()]
            if before.rfind("<") > before.rfind(">"):
                return None  # inside another tag (an attribute's value): not a tag of its own
            found.append((anchor, int(mark.group(1))))
    return found


def _block_level() -> Any:
    return _converter().block_level_elements


@functools.lru_cache(maxsize=1024)  # languages that show a page's headings alike (in English) share them
def _heading_anchors(headings: tuple[str, ...]) -> tuple[str, ...] | None:
    """Each heading line's anchor, made unique in order as toc makes them on the page."""
    if not headings:
        return ()
    made = _HEADING_ID.findall(markdown_html("\n\n".join(headings)))
    if len(made) != len(headings) or any(anchor.startswith("__") for anchor in made):
        return None  # toc's own ids ("__table-caption_1") are on the whole page alone
    return tuple(html.unescape(anchor) for anchor in made)

"""Languages, their catalogs, and gettext for the pages.

Catalogs are the standard gettext layout, ``locales/<code>/LC_MESSAGES/messages.po``,
read once per run by :mod:`rulesdoc.catalog.po`. A catalog's ``Language`` header is its
formatting locale (folder ``pt``, header ``pt_PT``: European Portuguese).

Translation is a dictionary lookup in the entries :func:`rulesdoc.i18n.verdicts.judge`
found usable, with the plural form picked by the catalog's own Plural-Forms header
(parsed, never evaluated as Python). A message the catalog lacks, or whose
translation was refused, shows the English source marked as English for readers and
screen readers (:data:`FALLBACK_OPEN`: ``lang="en"``, never a glyph in the text) and is
recorded once, with the template line that asked for it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale

from rulesdoc.catalog.budget import Budget, CatalogBudgetError
from rulesdoc.catalog.layout import check_layout
from rulesdoc.catalog.po import Key, LoadedCatalog, forms, key_of, load
from rulesdoc.engine.cards import MAX_PLAYERS, MIN_PLAYERS, Card, Rank, Suit
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n.jinja_internals import asking_template
from rulesdoc.i18n.markup import escape_message
from rulesdoc.i18n.verdicts import Status, Verdict, judge
from rulesdoc.io.project import DOMAIN
from rulesdoc.localedata import cldr

SOURCE_LANGUAGE = cldr.SOURCE_LANGUAGE
# Around English text on a page whose catalog lacks the message: the standard way to say a
# passage is in another language (WCAG 3.1.2), styled by the class, invisible in <title> and nav
# (MkDocs strips tags from heading text). Message texts are escaped: no other tag reaches a page.
# dir="ltr" isolates the English inside a right-to-left page (an element with dir is
# unicode-bidi: isolate in HTML's user-agent stylesheet): without it an Arabic page shows
# "11 + 20 + 5 = 36" as "36 = 5 + 20 + 11" and moves the full stop to the left edge.
FALLBACK_OPEN = f'<span lang="{cldr.bcp47(SOURCE_LANGUAGE)}" class="rd-untranslated" dir="ltr">'
FALLBACK_CLOSE = "</span>"
CARD_CONTEXT = "card"
# A number of players in running text ("With two or three players, both caps are equal"): one
# message per count the rules can allow, its msgid the English word, so each language writes the
# count as it writes it in a sentence (a word, or the digit where the language prefers digits).
COUNT_CONTEXT = "player count"
# The end of a list of three or more alternatives ("two, three, or four"): a message, so each
# language's translator joins the last item as the language does (Malay: no comma before "atau",
# where CLDR has one); its msgid is CLDR's English pattern. A catalog without it uses CLDR's.
LIST_CONTEXT = "list of alternatives"
LIST_END_OR = "%(items)s, or %(last)s"
LIST_ENDS = {"or": (LIST_END_OR, LIST_CONTEXT)}  # list style -> (msgid, msgctxt)
_WORDS = ("two", "three", "four", "five", "six", "seven", "eight")
COUNT_WORDS: dict[int, str] = dict(zip(range(MIN_PLAYERS, MAX_PLAYERS + 1), _WORDS, strict=True))


@dataclass(frozen=True)
class Language:
    code: str  # the catalog folder, canonical: "pt", "zh_Hant"; "en" for the source
    locale: Locale  # the formatting locale, from the catalog header: pt_PT
    catalog: LoadedCatalog | None = field(default=None, compare=False, repr=False)  # None: the source

    @property
    def tag(self) -> str:
        """BCP 47, for ``lang``, ``hreflang`` and the site's folder: ``zh-Hant``."""
        return cldr.bcp47(self.code)

    @property
    def name(self) -> str:
        return cldr.own_name(self.locale, self.code)

    @property
    def direction(self) -> str:
        return cldr.direction(self.locale)

    @property
    def is_source(self) -> bool:
        return self.catalog is None


SOURCE = Language(SOURCE_LANGUAGE, Locale.parse(SOURCE_LANGUAGE))


def catalog_path(locales_dir: Path, code: str) -> Path:
    return locales_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def catalog_codes(locales_dir: Path) -> list[str]:
    """The folder names that hold a catalog, as they are spelled on disk."""
    # lexists, not glob's exists(): a dangling or looping catalog symlink is a language that
    # cannot be read (an error when it is loaded), never a language silently dropped.
    if not locales_dir.is_dir():
        return []
    return sorted(
        entry.name
        for entry in locales_dir.iterdir()
        if os.path.lexists(entry / "LC_MESSAGES" / f"{DOMAIN}.po")
    )


def language_of(loaded: LoadedCatalog, code: str, formatting: str | None = None) -> Language:
    """A catalog's language; its folder must be a canonical CLDR code and its header agree."""
    where = Location(loaded.shown)
    folder = code if formatting else cldr.canonical(code, Location(display_path(loaded.path.parent.parent)))
    if folder != code:
        raise RulesdocError(f"rename the folder to {folder!r}: one spelling per language", where)
    header = loaded.catalog.locale_identifier or folder
    header_where = loaded.header_location("Language")
    locale = cldr.parse_locale(formatting or str(header), header_where)
    expected = cldr.parse_locale(formatting or folder, where)
    if (locale.language, locale.script) != (expected.language, expected.script):
        raise RulesdocError(f"catalog folder is {code!r} but its Language header is {header!r}", header_where)
    return Language(code, locale, loaded)


def discover_languages(
    locales_dir: Path,
    root: Path | None = None,
    required: Sequence[str] | None = None,
    read: Callable[[Path, Path | None], LoadedCatalog] = load,
    template: LoadedCatalog | None = None,
) -> list[Language]:
    """The source language first, then every catalog under ``locales/`` in code order.

    ``required``: the codes whose catalog must load; another one that cannot is left out
    (``check --lang nl`` is not about a broken Malay catalog). None: every catalog must load.
    Every catalog read counts in the run's :class:`~rulesdoc.catalog.budget.Budget` against
    ``template`` (messages.pot): past it, the run is refused, whatever ``required`` says.
    """
    check_layout(locales_dir)
    languages = [SOURCE]
    budget = Budget.against(template)
    if locales_dir.is_dir():
        for code in catalog_codes(locales_dir):
            if code == SOURCE_LANGUAGE:
                continue
            formatting = cldr.PSEUDO_LOCALE if code == cldr.PSEUDO_CODE else None
            try:
                loaded = budget.take(read(catalog_path(locales_dir, code), root))
                languages.append(language_of(loaded, code, formatting))
            except CatalogBudgetError:
                raise
            except RulesdocError:
                if required is None or code in required:
                    raise
    return languages


def select_languages(available: Sequence[Language], codes: Sequence[str]) -> list[Language]:
    """The languages asked for by code (any spelling: ``pt-BR`` finds ``pt_BR``), or all."""
    if not codes:
        return list(available)
    by_code = {language.code: language for language in available}
    by_tag = {language.tag.lower(): language for language in available}
    chosen = []
    for code in codes:
        found = by_code.get(code) or by_tag.get(code.replace("_", "-").lower())
        if found is None:
            raise RulesdocError(f"no catalog for language {code!r} (available: {', '.join(by_code)})")
        chosen.append(found)
    return chosen


# ---------------------------------------------------------------- verdicts


def judge_catalog(loaded: LoadedCatalog, count_names: Mapping[str, str]) -> dict[Key, Verdict]:
    """Every entry's verdict (header and obsolete entries left out)."""
    return {
        key_of(m): judge(m, loaded.plural_forms, count_names, loaded.forms_written.get(key_of(m)))
        for m in loaded.messages()
    }


# ---------------------------------------------------------------- translation


@dataclass(frozen=True)
class Miss:
    """A message a page asked for that the catalog cannot give: shown in English."""

    key: Key
    where: Location | None  # the template line that asked for it, if a template did


class Translator:
    """Gettext for one language; every result is escaped for Markdown/HTML text."""

    def __init__(
        self, language: Language, verdicts: Mapping[Key, Verdict] | None = None, mark_fallbacks: bool = True
    ) -> None:
        self.language = language
        self.mark_fallbacks = mark_fallbacks
        self.rule = language.catalog.plural_forms if language.catalog else None
        self.table: dict[Key, tuple[str, ...]] = {}
        if language.catalog is not None:
            usable = verdicts if verdicts is not None else judge_catalog(language.catalog, {})
            for message in language.catalog.messages():
                key = key_of(message)
                if usable.get(key, Verdict(Status.UNTRANSLATED)).usable:
                    self.table[key] = forms(message.string)
        self.missed: dict[Key, Miss] = {}
        # How many lookups found a translation: a page rendered without one more is all English.
        self.found = 0

    @classmethod
    def load(cls, language: Language, mark_fallbacks: bool = True) -> Translator:
        """A language's translator on its own (the workspace's shares the verdicts it already made)."""
        return cls(language, None, mark_fallbacks)

    def _lookup(self, context: str | None, singular: str, plural: str | None, n: int) -> tuple[str, bool]:
        """The text, and whether it is the English fallback of a message the catalog lacks."""
        key = (singular, context)
        found = self.table.get(key)
        if found is not None:
            index = self.rule.select(n) if (plural is not None and self.rule) else 0
            self.found += 1
            return found[min(index, len(found) - 1)], False
        english = singular if plural is None or n == 1 else plural
        if self.language.is_source:
            return english, False
        if key not in self.missed:
            self.missed[key] = Miss(key, asking_template())
        return english, True

    def _marked(self, found: tuple[str, bool]) -> str:
        text, fallback = found
        escaped = escape_message(text)
        return FALLBACK_OPEN + escaped + FALLBACK_CLOSE if fallback and self.mark_fallbacks else escaped

    def gettext(self, message: str) -> str:
        return self._marked(self._lookup(None, message, None, 1))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._marked(self._lookup(None, singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return self._marked(self._lookup(context, message, None, 1))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._marked(self._lookup(context, singular, plural, n))

    def count_word(self, count: int) -> str | None:
        """A player count as the catalog writes it in running text ("to", "dua", or "2"), escaped;
        None where the catalog has no word for it: a digit then says it in every language, where
        an English word would not (no miss is recorded: the page shows no English)."""
        english = COUNT_WORDS.get(count)
        if english is None:
            return None
        if self.language.is_source:
            return escape_message(english)
        found = self.table.get((english, COUNT_CONTEXT))
        if found is None:
            return None
        self.found += 1
        return escape_message(found[0])

    def list_ends(self) -> dict[str, str]:
        """Per list style, the catalog's end of a list of three or more, escaped around its
        placeholders (for :class:`Formatter`); a style the catalog lacks is CLDR's, so no miss
        is recorded (the page shows no English)."""
        ends = {}
        for style, key in LIST_ENDS.items():
            found = None if self.language.is_source else self.table.get(key)
            if found is not None:
                self.found += 1
                ends[style] = escape_message(found[0])
        return ends

    def plain_marked(
        self, message: str, context: str | None = None, plural: str | None = None, n: int = 1
    ) -> tuple[str, bool]:
        """A translation as plain text, and whether it is the English fallback: for a page's
        script, which escapes it by where it lands (a miss is recorded as for the page's text)."""
        text, fallback = self._lookup(context, message, plural, n)
        return " ".join(text.split()), fallback

    def plain(self, message: str, context: str | None = None) -> str:
        """A translation as plain, unescaped text, for callers that escape for their own context."""
        return " ".join(self._lookup(context, message, None, 1)[0].split())


_OPENING_TAGS = re.compile(r"(?:<[^<>]*>)*")


def capitalise_first(text: str) -> str:
    """The text with its first letter a capital, past a fallback mark that opens it.

    A sentence may begin with a message ("jokeren koster…"); when that message is the English
    fallback, the text starts with the mark's ``<``, and capitalising that changes nothing.
    Every tag that opens it is skipped (the fallback's, the screenshots' mark): a catalog's text
    is escaped, so a ``<`` there is always our own markup.
    """
    opening = _OPENING_TAGS.match(text)
    mark = opening.group() if opening else ""
    rest = text[len(mark) :]
    return mark + rest[:1].upper() + rest[1:]


def unmarked(text: str) -> str:
    """One message a Translator gave, without its fallback mark: for attributes (``aria-label``)."""
    if text.startswith(FALLBACK_OPEN) and text.endswith(FALLBACK_CLOSE):
        return text[len(FALLBACK_OPEN) : -len(FALLBACK_CLOSE)]
    return text


# ---------------------------------------------------------------- card names

_RANK_NAMES = {
    Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
    Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
    Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
}  # fmt: skip
_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}


def english_card_name(card: Card) -> str:
    """The source msgid of a card's name: one whole message per card, so grammar is the translator's."""
    if card.rank is None or card.suit is None:
        return "joker"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]}"

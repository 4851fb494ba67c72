"""Languages, catalogs and locale-aware formatting.

Catalogs are the standard gettext layout, ``locales/<lang>/LC_MESSAGES/messages.po``,
read with Babel and compiled in memory (``.mo`` files are build output). The
catalog's ``Language`` header is the formatting locale (``pt`` → ``pt_PT``).
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Literal

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import PoFileError, read_po
from babel.numbers import format_decimal, format_percent

from generator.cards import Card, Rank, Suit
from generator.errors import Location, RulesdocError, display_path
from generator.markup import escape_message

SOURCE_LANGUAGE = "en"
DOMAIN = "messages"
FALLBACK_MARK = "⚠ "  # shown before English text on a page whose catalog lacks the message


@dataclass(frozen=True)
class Language:
    code: str  # the site's code and the catalog folder: "pt"
    locale: Locale  # the formatting locale, from the catalog header: pt_PT
    catalog_path: Path | None  # None for the source language
    # The catalog as read by discover_languages, so a render parses each .po once.
    catalog: Catalog | None = field(default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        """The language's own name ("Dansk"), for the switcher."""
        # "Português", not "português (Portugal)": the switcher names languages, not regions.
        language = Locale(self.locale.language, script=self.locale.script)
        name = language.get_display_name(language) or self.code
        return name[:1].upper() + name[1:]


def catalog_path(locales_dir: Path, code: str) -> Path:
    return locales_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def parse_locale(code: str, where: Location | None = None) -> Locale:
    try:
        return Locale.parse(code.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        raise RulesdocError(f"unknown locale code {code!r}", where) from None


# A .po line outside comments: a keyword and a quoted string, or a quoted continuation string.
_PO_LINE = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)\s+)?"[^"\\]*(?:\\.[^"\\]*)*"')
_PO_CHARSET = re.compile(rb"charset=([-\w]+)")


def _check_po_lines(data: bytes, path: str) -> None:
    """Refuse what Babel's lenient parser lets through: undecodable bytes, unquoted strings,
    a message defined twice, a msgstr without its msgid.

    (Babel reads ``msgstr Hej"`` as ``ej``, and of two entries for one msgid keeps the last:
    a typo would silently become a wrong translation.)
    """
    charset = _PO_CHARSET.search(data)
    if charset and charset.group(1).decode().lower().replace("_", "-") not in ("utf-8", "utf8"):
        return  # another declared encoding: leave it to Babel
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesdocError(
            f"invalid catalog: not UTF-8 text ({error.reason}: byte 0x{data[error.start]:02x})",
            Location(path, data.count(b"\n", 0, error.start) + 1),
        ) from None
    seen: dict[tuple[str, str], int] = {}
    keyword, context, msgid, msgid_line = "", "", "", 0
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.strip()
        if not line or line[0] == "#":
            continue
        if not _PO_LINE.fullmatch(line):
            shown = line if len(line) <= 40 else line[:37] + "..."
            raise RulesdocError(
                f'invalid catalog: expected a keyword (msgid, msgstr, ...) and a "quoted string", '
                f"got {shown!r}",
                Location(path, number),
            )
        word, _, string = line.partition('"')
        word, string = word.strip() or keyword, string[:-1]
        if word.startswith("msgstr") and keyword.startswith("msgid"):
            if (context, msgid) in seen:
                raise RulesdocError(
                    f"invalid catalog: msgid {msgid!r} is defined twice"
                    f" (first on line {seen[context, msgid]})",
                    Location(path, msgid_line),
                )
            seen[context, msgid] = msgid_line
            context = ""
        elif word.startswith("msgstr") and not keyword.startswith("msgstr"):
            raise RulesdocError("invalid catalog: msgstr without a msgid before it", Location(path, number))
        elif word == "msgstr" and keyword == "msgstr" and line.startswith("msgstr"):
            raise RulesdocError("invalid catalog: a second msgstr for one msgid", Location(path, number))
        if word == "msgid" and keyword != "msgid":
            msgid, msgid_line = "", number
        if word == "msgctxt" and keyword != "msgctxt":
            context = ""
        if word == "msgid":
            msgid += string
        elif word == "msgctxt":
            context += string
        keyword = word


def read_catalog(path: Path) -> Catalog:
    """Read a .po file; syntax errors name the file and line."""
    where = Location(display_path(path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise RulesdocError("catalog not found", where) from None
    except IsADirectoryError:
        raise RulesdocError("is a directory, not a catalog file", where) from None
    except OSError as error:
        raise RulesdocError(f"cannot read catalog: {error.strerror}", where) from None
    _check_po_lines(data, where.path)
    try:
        return read_po(io.BytesIO(data), abort_invalid=True)
    except PoFileError as error:
        line = getattr(error, "lineno", None)
        line = line + 1 if isinstance(line, int) else None  # Babel counts lines from 0
        text = str(error).split(" on ")[0]
        raise RulesdocError(f"invalid catalog: {text}", Location(where.path, line)) from None
    except (UnicodeDecodeError, ValueError) as error:
        raise RulesdocError(f"invalid catalog: {error}", where) from None


def _header_line(path: Path, name: str) -> int | None:
    """The line of a catalog header field (``"Language: da\\n"``), for error locations."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    prefix = f'"{name}:'
    return next((number for number, line in enumerate(lines, 1) if line.startswith(prefix)), None)


def expected_plural_forms(locale: Locale) -> str:
    """The Plural-Forms header Babel's CLDR data gives for a locale."""
    return Catalog(locale=locale).plural_forms


def catalog_locale(catalog: Catalog, path: Path, code: str) -> Locale:
    """The catalog's formatting locale; its plural header must agree with CLDR."""
    shown = display_path(path)
    language = catalog.locale_identifier or code
    where = Location(shown, _header_line(path, "Language"))
    locale = parse_locale(str(language), where)
    if locale.language != parse_locale(code, Location(shown)).language:
        raise RulesdocError(f"catalog folder is {code!r} but its Language header is {language!r}", where)
    expected = expected_plural_forms(locale)
    if catalog.plural_forms.replace(" ", "") != expected.replace(" ", ""):
        raise RulesdocError(
            f"Plural-Forms header is {catalog.plural_forms!r}, but CLDR gives {expected!r} for {locale}",
            Location(shown, _header_line(path, "Plural-Forms")),
        )
    return locale


def discover_languages(locales_dir: Path) -> list[Language]:
    """The source language first, then every catalog under ``locales/`` in code order."""
    languages = [Language(SOURCE_LANGUAGE, Locale.parse(SOURCE_LANGUAGE), None)]
    if locales_dir.is_dir():
        for path in sorted(locales_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
            code = path.parent.parent.name
            if code == SOURCE_LANGUAGE:
                continue
            catalog = read_catalog(path)
            languages.append(Language(code, catalog_locale(catalog, path, code), path, catalog))
    return languages


def select_languages(available: Sequence[Language], codes: Sequence[str]) -> list[Language]:
    if not codes:
        return list(available)
    by_code = {language.code: language for language in available}
    unknown = [code for code in codes if code not in by_code]
    if unknown:
        known = ", ".join(by_code)
        raise RulesdocError(f"no catalog for language {unknown[0]!r} (available: {known})")
    return [by_code[code] for code in codes]


class _MissingRecorder(gettext.NullTranslations):
    """Fallback for messages a catalog lacks: records them and marks the English text."""

    def __init__(self, mark: str) -> None:
        super().__init__()
        self.mark = mark
        self.missing: list[str] = []

    def gettext(self, message: str) -> str:
        self.missing.append(message)
        return self.mark + message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)


@dataclass
class Translator:
    """Gettext for one language, with every result escaped for Markdown/HTML output."""

    language: Language
    translations: gettext.NullTranslations
    recorder: _MissingRecorder | None = None
    lines: dict[tuple[str | None, str], int] = field(default_factory=dict)

    @classmethod
    def load(cls, language: Language, mark_fallbacks: bool = True) -> Translator:
        if language.catalog_path is None:
            return cls(language, gettext.NullTranslations())
        catalog = language.catalog if language.catalog is not None else read_catalog(language.catalog_path)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)  # fuzzy entries are not translations yet
        buffer.seek(0)
        translations = gettext.GNUTranslations(buffer)
        recorder = _MissingRecorder(FALLBACK_MARK if mark_fallbacks else "")
        translations.add_fallback(recorder)
        lines = {(m.context, _msgid(m.id)): m.lineno for m in catalog if m.id and m.lineno is not None}
        return cls(language, translations, recorder, lines)

    @property
    def missing(self) -> list[str]:
        return sorted(set(self.recorder.missing)) if self.recorder else []

    def gettext(self, message: str) -> str:
        return self._safe(None, message, "", self.translations.gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._safe(None, singular, plural, self.translations.ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return self._safe(context, message, "", self.translations.pgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        translated = self.translations.npgettext(context, singular, plural, n)
        return self._safe(context, singular, plural, translated)

    def _safe(self, context: str | None, msgid: str, plural: str, translated: str) -> str:
        """Escape a translation, and refuse one whose placeholders would crash or mislead."""
        names = placeholders(msgid) | placeholders(plural)
        try:
            translated % {name: "" for name in names}
        except (KeyError, ValueError, TypeError) as error:
            line = self.lines.get((context, msgid))
            path = display_path(self.language.catalog_path) if self.language.catalog_path else "template"
            raise RulesdocError(
                f"translation of {msgid!r} has a broken placeholder ({type(error).__name__}: {error}); "
                + (f"it may use only {', '.join(sorted(names))}" if names else "it may use none (%% for %)"),
                Location(path, line),
            ) from None
        return escape_message(translated)


def _msgid(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


_NAMED = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[sdif]")


def placeholders(text: str) -> set[str]:
    """The named printf placeholders of a message."""
    return set(_NAMED.findall(text))


@dataclass(frozen=True)
class Formatter:
    """Numbers and lists in the conventions of one locale."""

    locale: Locale

    def number(self, value: int) -> str:
        return format_decimal(value, locale=self.locale)

    def percent(self, value: Fraction, exact: bool = True) -> str:
        """A share as a percentage: exact for rules ("12.5 %"), whole for statistics ("99 %")."""
        return format_percent(float(value), locale=self.locale, decimal_quantization=not exact)

    def list(self, items: Sequence[str], style: Literal["standard", "or"] = "standard") -> str:
        """Items joined as the locale does: ``style="or"`` for alternatives ("2 eller 3")."""
        return format_list(list(items), style=style, locale=self.locale)


@dataclass(frozen=True)
class CatalogStats:
    code: str
    name: str
    translated: int
    fuzzy: int
    untranslated: int

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated

    @property
    def complete(self) -> Fraction:
        return Fraction(self.translated, self.total) if self.total else Fraction(1)


def _is_translated(string: str | tuple[str, ...] | list[str] | None) -> bool:
    forms = tuple(string) if isinstance(string, (tuple, list)) else (string,)
    return bool(forms) and all(form for form in forms)


def catalog_stats(language: Language, template: Catalog | None) -> CatalogStats:
    """Counts against the template (messages.pot), so a stale catalog shows its gaps."""
    catalog = None
    if language.catalog_path is not None:
        catalog = language.catalog if language.catalog is not None else read_catalog(language.catalog_path)
    return count_translations(language.code, language.name, catalog, template)


def count_translations(
    code: str, name: str, catalog: Catalog | None, template: Catalog | None
) -> CatalogStats:
    """Translated, fuzzy and untranslated messages of a catalog (None: the source language)."""
    if catalog is None:
        total = len([m for m in template if m.id]) if template else 0
        return CatalogStats(code, name, total, 0, 0)
    ids = [(m.id, m.context) for m in (template or catalog) if m.id]
    translated = fuzzy = 0
    for msgid, context in ids:
        message = catalog.get(msgid, context)
        if message is None or not _is_translated(message.string):
            continue
        if message.fuzzy:
            fuzzy += 1
        else:
            translated += 1
    return CatalogStats(code, name, translated, fuzzy, len(ids) - translated - fuzzy)


# ---------------------------------------------------------------- card names

_RANK_NAMES = {
    Rank.ACE: "ace", Rank.TWO: "two", Rank.THREE: "three", Rank.FOUR: "four",
    Rank.FIVE: "five", Rank.SIX: "six", Rank.SEVEN: "seven", Rank.EIGHT: "eight",
    Rank.NINE: "nine", Rank.TEN: "ten", Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king",
}  # fmt: skip
_SUIT_NAMES = {Suit.CLUBS: "clubs", Suit.DIAMONDS: "diamonds", Suit.HEARTS: "hearts", Suit.SPADES: "spades"}
CARD_CONTEXT = "card"


def english_card_name(card: Card) -> str:
    """The source msgid of a card's name: one whole message per card, so grammar is the translator's."""
    if card.rank is None or card.suit is None:
        return "joker"
    return f"{_RANK_NAMES[card.rank]} of {_SUIT_NAMES[card.suit]}"

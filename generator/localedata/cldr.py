"""Languages as CLDR knows them: codes, names, direction, numbers and lists.

A language is named by the folder of its catalog, ``locales/<code>/``. Codes are
accepted in POSIX or BCP 47 spelling (``zh_Hant``, ``zh-hant``, ``pt-BR``) and kept in
one canonical form, Babel's (``zh_Hant``, ``pt_BR``), for folders; pages, ``lang``,
``hreflang``, URLs and the switcher use the BCP 47 tag (``zh-Hant``). A code CLDR
(Babel's data) does not know, or anything that is not a language code at all, is
refused with the one-line error.

Numbers follow CLDR for the locale, two things Babel 2.19 leaves out included:
the locale's default numbering system (Persian digits for ``fa``, Bengali for ``bn``)
and its minimum grouping digits (``pt_PT`` writes ``2500`` but ``12 500``).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Literal

from babel import Locale, UnknownLocaleError, localedata
from babel.lists import format_list
from babel.numbers import format_decimal, format_percent, get_group_symbol

from rulesdoc.errors import Location, RulesdocError, short

SOURCE_LANGUAGE = "en"
ListStyle = Literal["standard", "or"]  # "2, 3 and 4" / "2, 3 or 4"
# The pseudo-locale (generator/i18n/pseudo.py): XA is a private-use region CLDR has no data for,
# so its catalog formats as English of the world.
PSEUDO_CODE = "en-XA"
PSEUDO_LOCALE = "en_001"
_CODE = re.compile(
    r"(?P<language>[A-Za-z]{2,3})(?:[-_](?P<script>[A-Za-z]{4}))?(?:[-_](?P<region>[A-Za-z]{2}|\d{3}))?"
)


def canonical(code: str, where: Location | None = None) -> str:
    """``zh-hant`` → ``zh_Hant``, ``pt-br`` → ``pt_BR``; refuse junk and what CLDR lacks."""
    match = _CODE.fullmatch(code)
    if match is None:
        shown = short(code, 30)
        raise RulesdocError(
            f"{shown!r} is not a language code: write a CLDR code such as fr, pt_BR or zh_Hant", where
        )
    parts = [match["language"].lower()]
    if match["script"]:
        parts.append(match["script"].title())
    if match["region"]:
        parts.append(match["region"].upper())
    name = "_".join(parts)
    if not localedata.exists(name):
        raise RulesdocError(f"CLDR has no locale {name!r} (Babel knows no such language)", where)
    return name


def bcp47(code: str) -> str:
    """The BCP 47 tag of a canonical code: ``zh_Hant`` → ``zh-Hant``."""
    return code.replace("_", "-")


def parse_locale(code: str, where: Location | None = None) -> Locale:
    try:
        return Locale.parse(canonical(code, where))
    except (UnknownLocaleError, ValueError):
        raise RulesdocError(f"unknown locale code {code!r}", where) from None


@functools.cache  # asked for every row of every status page: CLDR's display names are slow
def own_name(locale: Locale, fallback: str) -> str:
    """The language's own name ("Dansk", "Português"): the switcher names languages, not regions."""
    language = Locale(locale.language, script=locale.script)
    name = language.get_display_name(language) or fallback
    return name[:1].upper() + name[1:]


def writes_without_spaces(locale: Locale) -> bool:
    """Whether the language runs its words together (Japanese, Chinese, Thai), from CLDR: its
    list of two ("A、B", "A和B", "AและB") puts no space between the items and the word joining
    them, where a spaced language writes "A and B", "A 및 B"."""
    pattern = locale.list_patterns.get("standard", {}).get("2", "{0}, {1}")
    between = pattern.split("{0}", 1)[-1].split("{1}", 1)[0]
    return bool(between) and not between[0].isspace() and not between[-1].isspace()


def wide(char: str) -> bool:
    """A character of the East Asian scripts set in full-width cells (kana, ideographs, their
    punctuation "。", "、", "〜"), Hangul aside: Unicode's East Asian Width, by which CSS removes
    a line break between two of them (CSS Text 3, segment break transformation)."""
    return unicodedata.east_asian_width(char) in ("W", "F") and not 0xAC00 <= ord(char) <= 0xD7A3


# A line of Markdown that is part of a paragraph: not a heading, table row, block marker
# ("/// table-caption"), quote, HTML block or list item.
_BLOCK_LINE = re.compile(r"\s*(?:[#|/<>]|[-*+]\s|\d+[.)]\s)")


def close_sentence_gaps(markdown: str, locale: Locale) -> str:
    """A page's Markdown with no space between sentences where the language writes none.

    Every sentence is a message of its own on a line of its own: Markdown keeps the line break,
    and browsers show it as a space ("10です。 できるだけ"). In a language CLDR says runs its
    words together, a line break inside a paragraph goes where a wide character ends the line
    ("。"): an English sentence shown in its place (untranslated) keeps its space, and so does
    Thai, whose sentences end in a letter and are parted by a space.
    """
    if not writes_without_spaces(locale):
        return markdown
    lines = markdown.split("\n")
    joined: list[str] = []
    for line in lines:
        previous = joined[-1] if joined else ""
        if (
            previous
            and line.strip()
            and wide(previous[-1])
            and not _BLOCK_LINE.match(previous)
            and not _BLOCK_LINE.match(line)
        ):
            joined[-1] = previous + line.lstrip()
        else:
            joined.append(line)
    return "\n".join(joined)


def sentences(text: str, locale: Locale) -> str:
    """Sentences given one a line, on one line (a table cell): parted by a space, or by nothing
    after a wide character in a language that writes no spaces (:func:`close_sentence_gaps`)."""
    spaceless = writes_without_spaces(locale)
    out = ""
    for line in (line.strip() for line in text.splitlines()):
        if line:
            out += ("" if not out or (spaceless and wide(out[-1])) else " ") + line
    return out


def direction(locale: Locale) -> str:
    """``"rtl"`` or ``"ltr"``, from CLDR's character order."""
    return "rtl" if locale.character_order == "right-to-left" else "ltr"


# CLDR 48's numbers/minimumGroupingDigits where it is not 1, for every locale Babel knows
# (Babel 2.19 carries no such field). Read off ICU 78 by scripts/min_grouping.mjs.
_MIN_GROUPING = {
    **dict.fromkeys(
        "be be_BY be_TARASK bg bg_BG es es_EA es_ES es_GQ es_IC es_PH et et_EE hu hu_HU hy hy_AM "
        "ia ia_001 ie ie_EE it it_CH it_IT it_SM it_VA ka ka_GE lv lv_LV pl pl_PL pt_CH pt_CV pt_GQ "
        "pt_GW pt_LU pt_MO pt_MZ pt_PT pt_ST pt_TL ru_UA sl sl_SI sq sq_AL sq_MK sq_XK".split(),
        2,
    ),
    **dict.fromkeys("ee ee_GH ee_TG".split(), 3),
}
# The zero of each decimal numbering system some CLDR locale uses by default (the other
# nine digits follow it in Unicode); Babel knows the systems' names and symbols, not digits.
_ZERO = {
    "arab": 0x0660, "arabext": 0x06F0, "beng": 0x09E6, "deva": 0x0966, "mymr": 0x1040, "tibt": 0x0F20,
    "olck": 0x1C50, "cakm": 0x11136, "adlm": 0x1E950, "nkoo": 0x07C0, "mtei": 0xABF0, "hmnp": 0x1E140,
}  # fmt: skip


def minimum_grouping_digits(locale: Locale) -> int:
    return _MIN_GROUPING.get(str(locale), 1)


class Formatter:
    """Numbers, percentages and lists in the conventions of one locale."""

    def __init__(
        self, locale: Locale, isolate: bool = False, list_ends: Mapping[str, str] | None = None
    ) -> None:
        """``isolate``: wrap numbers in ``<bdi>``, so that on a right-to-left page a number stays
        in its place beside the words around it (and "11 + 20 = 31" reads in its own order).
        ``list_ends``: per list style, the translator's own end of a list of three or more
        (``"%(items)s atau %(last)s"``, a catalog's message), in place of CLDR's."""
        self.locale = locale
        self.isolate = isolate
        self.list_ends = dict(list_ends or {})
        system = locale.default_numbering_system
        self.system = system if system in _ZERO else "latn"
        zero = _ZERO.get(self.system)
        self._digits = {ord(str(d)): chr(zero + d) for d in range(10)} if zero else None
        self._grouping_from = 10 ** (minimum_grouping_digits(locale) + 2)  # 2 → first group at 10 000
        # Babel formats a number in ~70 µs; a page asks for the same few again and again (the status
        # table: every language's counts on every language's page).
        self._numbers: dict[int, str] = {}
        self._percents: dict[tuple[float, bool], str] = {}

    def _native(self, text: str) -> str:
        return text.translate(self._digits) if self._digits else text

    def number(self, value: int) -> str:
        if type(value) is not int:  # 37.5 and Fraction(75, 2) are equal keys, not always equal texts
            return self._number(value)
        known = self._numbers.get(value)
        if known is None:
            known = self._numbers[value] = self._number(value)
        return known

    def _number(self, value: int) -> str:
        grouped = value >= self._grouping_from or value <= -self._grouping_from
        text = self._native(
            format_decimal(value, locale=self.locale, group_separator=grouped, numbering_system=self.system)
        )
        return f"<bdi>{text}</bdi>" if self.isolate else text

    def integer_format(self) -> dict[str, object]:
        """How :meth:`number` writes a whole number, as data for a page's script: the group
        separator, the group sizes (hi: 3 then 2), from how many digits it groups, and the zero
        of the digits. Intl.NumberFormat would be the browser's CLDR, which may differ from the
        page's (pt_PT's minimum grouping): the script follows the same data as the page."""
        primary, secondary = self.locale.decimal_formats[None].grouping
        return {
            "group": get_group_symbol(self.locale, numbering_system=self.system),
            "primary": primary,
            "secondary": secondary,
            "grouping_from": len(str(self._grouping_from)),  # digits: 4 groups 1 000, 5 only 10 000
            "zero": ord(self._digits[ord("0")]) if self._digits else ord("0"),
        }

    def percent(self, value: Fraction, exact: bool = True) -> str:
        """A share as a percentage: exact for rules ("12.5 %"), whole for statistics ("99 %")."""
        key = (float(value), exact)  # all Babel is given of it
        known = self._percents.get(key)
        if known is None:
            known = self._percents[key] = self._percent(key[0], exact)
        return known

    def _percent(self, value: float, exact: bool) -> str:
        text = format_percent(
            value, locale=self.locale, decimal_quantization=not exact, numbering_system=self.system
        )
        return self._native(text)

    def sentences(self, text: str) -> str:
        """Sentences given one a line, on one line, parted as the language parts them."""
        return sentences(text, self.locale)

    def list(self, items: Sequence[str], style: ListStyle = "standard") -> str:
        """``"2, 3 and 4"``; ``style="or"`` for alternatives: ``"2, 3 or 4"``.

        The last join of a list of three or more is the translator's where the catalog has it
        (Malay writes no comma before "atau", where CLDR has "2, 3, atau 4"); a list of two is
        CLDR's pattern for two ("2 atau 3")."""
        end = self.list_ends.get(style)
        if end is None or len(items) < 3:
            return format_list(list(items), style=style, locale=self.locale)
        patterns = self.locale.list_patterns[style]  # Babel's own joins, with the translator's last one
        text = patterns["start"].format(items[0], items[1])
        for item in items[2:-1]:
            text = patterns["middle"].format(text, item)
        return end % {"items": text, "last": items[-1]}

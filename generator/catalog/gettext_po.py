"""Write a catalog exactly as GNU gettext does (``msgcat``, ``msgmerge``, ``msginit``).

Translators' tools rewrite a whole ``.po`` file when they save it: Poedit and ``msgcat``
fill strings to 79 columns, ``msgmerge -U`` too, Babel to 76. If our writer laid the
file out any other way, every save would rewrap every long entry and every ``make
update`` would rewrap it back: diffs of hundreds of lines around a one-word change.
We write what ``msgcat`` writes (gettext 0.21 with libunistring 1.0, the Debian and
Ubuntu versions), so that a catalog that went through any of these tools and then
``make update`` differs only where an entry changed. A test holds us byte-identical
to ``msgcat`` on every shipped catalog and on strings chosen to hit each rule.

What gettext does, in order:

* an entry is: translator comments ``#``, extracted comments ``#.``, references ``#:``
  (filled to 79 columns), flags ``#,`` (fuzzy first, then format flags in gettext's
  order), previous strings ``#|``, then ``msgctxt``, ``msgid``, ``msgid_plural``,
  ``msgstr``/``msgstr[N]``; obsolete entries the same behind ``#~``, and an obsolete
  entry with an empty ``msgstr`` is dropped (it holds no translation);
* a string is cut after each ``\\n`` it contains; a piece wider than the line is filled
  at Unicode line-break opportunities (UAX #14, as libunistring's pair table has them),
  never inside an escape and never just before a final ``\\n``; a string that needs
  more than one line starts with an empty ``""`` line.

Line-break classes cover what catalogs of alphabetic and Indic languages hold (Latin,
Greek, Cyrillic, Devanagari and other Brahmic scripts, general punctuation, CJK
ideographs as a whole); scripts that need a dictionary to break (Thai, Lao, Khmer,
Myanmar) are treated as letters, as libunistring does too.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

PAGE_WIDTH = 79  # gettext's default (msgcat, msgmerge, msginit); Poedit uses it too
NO_WRAP = sys.maxsize  # as msgcat --no-wrap: a string's lines end only at its own newlines

# ---------------------------------------------------------------- entries


@dataclass(frozen=True)
class Entry:
    """One ``.po`` entry as gettext sees it (the header is one with ``msgid ""``)."""

    msgid: str
    msgstr: tuple[str, ...]  # one string, or one per plural form
    msgid_plural: str | None = None
    msgctxt: str | None = None
    translator_comments: Sequence[str] = ()
    extracted_comments: Sequence[str] = ()
    references: Sequence[tuple[str, int | None]] = ()
    flags: Sequence[str] = ()
    previous: Sequence[str] = ()  # the previous msgid (and msgid_plural) of a fuzzy entry
    obsolete: bool = False


@dataclass
class _Writer:
    width: int
    lines: list[str] = field(default_factory=list)

    def entry(self, entry: Entry) -> None:
        if entry.obsolete and not (entry.msgstr and entry.msgstr[0]):
            return  # gettext drops an obsolete entry without a translation
        prefix = "#~ " if entry.obsolete else ""
        if self.lines:
            self.lines.append("")
        self.lines.extend(_comment("#", text) for text in entry.translator_comments)
        self.lines.extend(_comment("#.", text) for text in entry.extracted_comments)
        if entry.references:
            self.lines.extend(_references(entry.references, self.width))
        flags = _ordered_flags(entry.flags)
        if flags:
            self.lines.append("#, " + ", ".join(flags))
        previous = "#~| " if entry.obsolete else "#| "
        for name, text in zip(("msgid", "msgid_plural"), entry.previous, strict=False):
            self.lines.extend(wrap(previous, name, text, self.width))
        if entry.msgctxt is not None:
            self.lines.extend(wrap(prefix, "msgctxt", entry.msgctxt, self.width))
        self.lines.extend(wrap(prefix, "msgid", entry.msgid, self.width))
        if entry.msgid_plural is None:
            self.lines.extend(wrap(prefix, "msgstr", entry.msgstr[0] if entry.msgstr else "", self.width))
            return
        self.lines.extend(wrap(prefix, "msgid_plural", entry.msgid_plural, self.width))
        for index, text in enumerate(entry.msgstr):
            self.lines.extend(wrap(prefix, f"msgstr[{index}]", text, self.width))


def dumps(entries: Iterable[Entry], width: int = PAGE_WIDTH) -> bytes:
    """The ``.po`` text of the entries (header first, obsolete ones last), as UTF-8."""
    writer = _Writer(width)
    entries = list(entries)
    for entry in [e for e in entries if not e.obsolete] + [e for e in entries if e.obsolete]:
        writer.entry(entry)
    return ("\n".join(writer.lines) + "\n").encode("utf-8") if writer.lines else b""


def _comment(mark: str, text: str) -> str:
    return f"{mark} {text}" if text else mark


def _references(references: Sequence[tuple[str, int | None]], width: int) -> list[str]:
    """``#: file:line`` comments, filled: a reference never straddles two lines."""
    lines, line = [], "#:"
    for filename, lineno in references:
        while filename.startswith("./"):
            filename = filename[2:]
        text = f" {filename}:{lineno}" if lineno is not None else f" {filename}"
        if len(line) > 2 and len(line) + len(text) > width:
            lines.append(line)
            line = "#:"
        line += text
    lines.append(line)
    return lines


# gettext's order of format flags (format_language[] in gettext-tools/src/message.c)
_FORMATS = (
    "c", "objc", "python", "python-brace", "java", "java-printf", "csharp", "javascript",
    "scheme", "lisp", "elisp", "librep", "ruby", "sh", "awk", "lua", "object-pascal",
    "smalltalk", "qt", "qt-plural", "kde", "kde-kuit", "boost", "tcl", "perl", "perl-brace",
    "php", "gcc-internal", "gfc-internal", "ycp",
)  # fmt: skip


# Each format flag's place in gettext's order: a language's three flags, then the next language's.
_FORMAT_FLAG_ORDER = {
    f"{kind}{name}-format": 3 * place + rank
    for place, name in enumerate(_FORMATS)
    for rank, kind in enumerate(("", "possible-", "no-"))
}


def _ordered_flags(flags: Iterable[str]) -> list[str]:
    """fuzzy first, then the format flags in gettext's order, then the rest (range:, wrap)."""
    given = set(flags)
    ordered = ["fuzzy"] if "fuzzy" in given else []
    ordered += sorted(given.intersection(_FORMAT_FLAG_ORDER), key=_FORMAT_FLAG_ORDER.__getitem__)
    rest = sorted(given.difference(ordered), key=lambda f: (not f.startswith("range:"), f))
    return ordered + rest


# ---------------------------------------------------------------- strings

_ESCAPES = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
            "\v": "\\v", "\\": "\\\\", '"': '\\"'}  # fmt: skip


# Printable ASCII but a quote and a backslash: one column a character, nothing escaped.
_PLAIN = re.compile(r"[ !#-\[\]-~]*").fullmatch


def wrap(prefix: str, name: str, value: str, width: int = PAGE_WIDTH) -> list[str]:
    """``name "value"`` as gettext lays it out (``wrap()`` in gettext's write-po.c)."""
    if len(prefix) + len(name) + len(value) + 3 <= width and _PLAIN(value):
        # On one line, as the loop below would lay it out: most messages (a third of writing a
        # catalog went to taking such a string apart character by character).
        return [f'{prefix}{name} "{value}"']
    out: list[str] = []
    after_break = len(prefix) + 1  # a continuation line starts with the prefix and a quote
    room = width - 1 - after_break  # and ends with a quote
    first = True
    start = 0
    while True:
        end = value.find("\n", start)
        end = len(value) if end < 0 else end + 1
        chars: list[str] = []
        fixed: list[bool] = []  # True: no break before this character, whatever UAX #14 says
        for char in value[start:end]:
            escaped = _ESCAPES.get(char)
            if escaped is None:
                chars.append(char)
                fixed.append(False)
            else:
                chars.extend(escaped)
                fixed.extend((False, True))
        if end > start and value[end - 1] == "\n":
            fixed[-2] = True  # never break just before the final "\n"
        while True:
            column = len(prefix) + (len(name) + 1 if first else 0) + 1 - after_break
            breaks = _fill(chars, fixed, room, column)
            if first and chars and (end < len(value) or column > room or any(breaks)):
                out.append(f'{prefix}{name} ""')
                first = False
                continue
            break
        line = prefix + (f"{name} " if first else "") + '"'
        first = False
        for index, char in enumerate(chars):
            if breaks[index]:
                out.append(line + '"')
                line = prefix + '"'
            line += char
        out.append(line + '"')
        start = end
        if start >= len(value):
            return out


def _fill(chars: Sequence[str], fixed: Sequence[bool], room: int, column: int) -> list[bool]:
    """Where to break (before which character) so that no line passes ``room`` columns.

    libunistring's ``ulc_width_linebreaks``: greedy, the break goes at the last
    opportunity before the piece that does not fit; a piece wider than a line stays whole.
    """
    if column + 2 * len(chars) <= room:
        return [False] * len(chars)  # it fits however wide its characters are (two columns at most)
    text = "".join(chars)
    widths = [1] * len(chars) if text.isascii() and text.isprintable() else [char_width(c) for c in chars]
    if column + sum(widths) <= room:
        # It fits: no break, wherever UAX #14 would allow one (most strings; finding the
        # opportunities was most of writing a catalog: 25,000 entries took `catalog update` 10 s).
        return [False] * len(chars)
    possible = possible_breaks(chars)
    breaks = [False] * len(chars)
    last: int | None = None
    last_column = column
    piece = 0
    for index, width in enumerate(widths):
        can = possible[index] and not fixed[index]
        if can:
            if last is not None and last_column + piece > room:
                breaks[last] = True
                last_column = 0
            last = index
            last_column += piece
            piece = 0
        piece += width
    if last is not None and last_column + piece > room:
        breaks[last] = True
    return breaks


def char_width(char: str) -> int:
    """Columns a character takes in a terminal (libunistring's ``uc_width``)."""
    code = ord(char)
    if code < 0x20 or 0x7F <= code < 0xA0:
        return 0  # control characters are not counted
    if code == 0xAD:
        return 1
    category = unicodedata.category(char)
    if category in ("Mn", "Me", "Cf") or 0x1160 <= code <= 0x11FF or code == 0x200B:
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


# ---------------------------------------------------------------- UAX #14

# libunistring's classes, in the order of its pair table (unilbrk/lbrktables.c).
_CLASSES = (
    "WJ GL B2 BA BB HY CL CP EX IN NS OP QU IS NU PO PR SY AL H2 H3 ID JL JV JT HL RI ZWJ EB EM".split()
)
_INDEX = {name: index for index, name in enumerate(_CLASSES)}
# Row: the class before; column: the class after. D: break, I: break only after spaces, P: never.
_TABLE = [
    row.split()
    for row in """
P I I I I I P P P I I I I P I I I P I I I I I I I I I I I I
P I I I I I P P P I I I I P I I I P I I I I I I I I I I I I
P I P I D I P P P I I D I P D D D P D D D D D D D D D I D D
P D D I D I P P P I I D I P D D D P D D D D D D D D D I D D
P I I I I I P P P I I I I P I I I P I I I I I I I I I I I I
P D D I D I P P P I I D I P I D D P D D D D D D D D D I D D
P I D I D I P P P I P D I P D I I P D D D D D D D D D I D D
P I D I D I P P P I I D I P I I I P I D D D D D D I D I D D
P I D I D I P P P I I D I P D D D P D D D D D D D D D I D D
P I D I D I P P P I I D I P D D D P D D D D D D D D D I D D
P I D I D I P P P I I D I P D D D P D D D D D D D D D I D D
P P P P P P P P P P P P P P P P P P P P P P P P P P P I P P
P I I I I I P P P I I P I P I I I P I I I I I I I I I I I I
P I D I D I P P P I I D I P I D D P D D D D D D D D D I D D
P I D I D I P P P I I I I P I I I P I D D D D D D I D I D D
P I D I D I P P P I I I I P I D D P I D D D D D D I D I D D
P I D I D I P P P I I I I P I D D P I I I I I I I I D I I I
P I D I D I P P P I I D I P I D D P D D D D D D D I D I D D
P I D I D I P P P I I I I P I I I P I D D D D D D I D I D D
P I D I D I P P P I I D I P D I D P D D D D D I I D D I D D
P I D I D I P P P I I D I P D I D P D D D D D D I D D I D D
P I D I D I P P P I I D I P D I D P D D D D D D D D D I D D
P I D I D I P P P I I D I P D I D P D I I D I I D D D I D D
P I D I D I P P P I I D I P D I D P D D D D D I I D D I D D
P I D I D I P P P I I D I P D I D P D D D D D D I D D I D D
P I D I D I P P P I I I I P I I I P I D D D D D D I D I D D
P I D I D I P P P I I D I P D D D P D D D D D D D D I I D D
P I I I I I P P P I I I I P I I I P I I I I I I I I I I I I
P I D I D I P P P I I D I P D I D P D D D D D D D D D I D I
P I D I D I P P P I I D I P D I D P D D D D D D D D D I D D
""".strip().splitlines()
]

# Characters whose class the general category does not give (from Unicode's LineBreak.txt).
_EXPLICIT: dict[str, str] = {
    **dict.fromkeys(" ", "SP"),
    **dict.fromkeys("\t\u00ad\u058a\u0964\u0965\u1680\u2010\u2012\u2013\u205f", "BA"),
    **dict.fromkeys("\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2008\u2009\u200a\u3000", "BA"),
    **dict.fromkeys("\u00a0\u202f\u2007\u2011\u0f0c\u034f\u180e", "GL"),
    **dict.fromkeys("\u2060\ufeff", "WJ"),
    **dict.fromkeys("\u200b", "ZW"),
    **dict.fromkeys("\u200d", "ZWJ"),
    **dict.fromkeys("\u2014", "B2"),
    **dict.fromkeys("\u00b4\u02c8\u02cc\u02df", "BB"),
    **dict.fromkeys("-", "HY"),
    **dict.fromkeys("!?", "EX"),
    **dict.fromkeys("\u00a1\u00bf", "OP"),
    **dict.fromkeys("\u2015", "AI"),
    **dict.fromkeys("\u2027\u2056\u2058\u2059\u205a\u205b\u205d\u205e", "BA"),
    **dict.fromkeys("\u22ef", "IN"),
    **dict.fromkeys("\u3001\u3002\uff0c\uff0e\uff61\uff64", "CL"),
    **dict.fromkeys("\u30fc\u3005\u309d\u309e\u30fd\u30fe\u30fb\uff65\uff70", "NS"),
    **dict.fromkeys("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ", "NS"),
    **dict.fromkeys("\u09f2\u09f3", "PR"),
    **dict.fromkeys("\u09f9\u09fb", "PO"),
    **dict.fromkeys("\u2024\u2025\u2026", "IN"),
    **dict.fromkeys(",.:;\u037e\u0589\u060c\u060d\u07f8\u2044\ufe10\ufe13\ufe14", "IS"),
    **dict.fromkeys("/", "SY"),
    **dict.fromkeys("0123456789", "NU"),
    **dict.fromkeys("%\u00a2\u00b0\u2030\u2031\u2032\u2033\u2034\u2035\u2036\u2037\u2103\u2109", "PO"),
    **dict.fromkeys("$+\\\u00a3\u00a4\u00a5\u00b1\u20ac\u2116\u2212\u2213", "PR"),
    **dict.fromkeys(
        "\"'\u00ab\u00bb\u2018\u2019\u201b\u201c\u201d\u201f\u2039\u203a\u275b\u275c\u275d\u275e", "QU"
    ),
    **dict.fromkeys("([{\u201a\u201e", "OP"),
    **dict.fromkeys(")]", "CP"),
    **dict.fromkeys("}", "CL"),
    **dict.fromkeys("|", "BA"),
    **dict.fromkeys("\u203c\u203d\u2047\u2048\u2049", "NS"),
    **dict.fromkeys("\u00a7\u00b6\u2020\u2021", "AI"),
}


def line_break_class(char: str) -> str:
    """The UAX #14 class of a character, as libunistring resolves it (AI, SA, XX → AL)."""
    found = _EXPLICIT.get(char)
    if found is None:
        code = ord(char)
        category = unicodedata.category(char)
        if char == "\n" or char in "\x0b\x0c\x85\u2028\u2029":
            found = "BK"
        elif category in ("Mn", "Mc", "Me", "Cc") or (
            category == "Cf" and (0x200C <= code <= 0x202E or 0x2066 <= code <= 0x206F)
        ):
            found = "CM"
        elif category == "Sc":
            found = "PR"
        elif category == "Nd":
            found = "NU"
        elif category == "Ps":
            found = "OP"
        elif category == "Pe":
            found = "CL"
        elif category in ("Pi", "Pf"):
            found = "QU"
        elif category == "Pd":
            found = "BA"
        elif 0x1100 <= code <= 0x115F:
            found = "JL"
        elif unicodedata.east_asian_width(char) in ("W", "F") and category.startswith(("L", "S", "P", "N")):
            found = "ID"
        else:
            found = "AL"
    return "AL" if found in ("AI", "SA", "XX") else found


def possible_breaks(chars: Sequence[str]) -> list[bool]:
    """Before which characters UAX #14 allows a line break (libunistring's
    ``u8_possible_linebreaks``, which keeps the pair-table algorithm of UAX #14 rev. 8+)."""
    result = [False] * len(chars)
    last = "BK"
    space: int | None = None  # the last space after the last non-space, if any
    for index, char in enumerate(chars):
        cls = line_break_class(char)
        if cls == "BK":
            last, space = "BK", None
            continue
        if cls == "SP":
            space = index
            continue
        if cls == "ZW":
            last, space = "ZW", None
            continue
        if cls == "CM":
            if last not in ("BK", "ZW") and space is None:
                continue  # a mark belongs to the character before it: no break, no new class
            if space is not None:  # a mark after a space stands alone: a break may come before it
                result[index] = True
                last, space = "AL", None
                continue
            cls = "AL"  # a mark at the start or after a zero-width space stands as a letter
        if last == "BK":
            result[index] = False
        elif last == "ZW":
            result[index] = True
        else:
            rule = _TABLE[_INDEX[last]][_INDEX[cls]]
            result[index] = rule == "D" or (rule == "I" and space is not None)
        last, space = cls, None
    return result

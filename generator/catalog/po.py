"""The one catalog loader: a ``.po`` file read and parsed once, with the facts Babel drops.

Every caller (the build, ``check``, ``catalog update``, the pseudo-locale) reads a catalog
through :func:`load`. It parses with Babel's own parser in a single pass (through the Babel
seam, :mod:`rulesdoc.catalog.babel_internals`), extended to refuse what Babel's lenient reader
lets through (an unquoted string, a message defined twice, a ``msgstr`` without its
``msgid``) and to keep what it normalizes away: how many ``msgstr[N]`` a plural entry really
has (Babel pads a short entry silently) and on which line each header field sits.

A catalog is untrusted input: its size is bounded, it must be UTF-8, and its
Plural-Forms header is parsed by :mod:`rulesdoc.catalog.plurals` *before* Babel sizes any
entry by it (``nplurals=1000000000`` would otherwise allocate a billion strings per
plural entry). Babel takes *any* entry with an empty msgid as the header (``msgid  ""``,
a continued ``msgid ""``, one with a msgctxt, one at the end): the parser sees each as it
ends, so a second one is refused and the first one's Plural-Forms replaced for Babel by a
harmless value. A header that cannot be used, or an entry whose forms disagree with it, is
kept as a fact for the linter: never an abort.

What GNU ``msgfmt -c`` refuses is refused here too, with the line (tests/msgfmt_parity/):
unknown escapes, newline mismatches between msgid and msgstr, misnumbered plural forms,
entries defined twice (obsolete ones included), a second msgctxt or msgid_plural. Stricter than
msgfmt: control characters other than tab and newline, raw or escaped, and numeric escapes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import unescape

from rulesdoc.catalog import kept, plurals
from rulesdoc.catalog.babel_internals import Entry, PoParser
from rulesdoc.errors import CONTROL_CHARACTERS, Location, RulesdocError, display_path, short
from rulesdoc.io import files

Key = tuple[str, str | None]  # (singular msgid, msgctxt): how Babel keys a catalog

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEYWORD = re.compile(r"(msgctxt|msgid|msgid_plural|msgstr(?:\[\d{1,2}\])?)\s+(.*)")


@dataclass(frozen=True)
class LoadedCatalog:
    """A catalog as read once per run: Babel's :class:`Catalog` plus the raw facts."""

    path: Path
    shown: str  # the path as errors show it
    catalog: Catalog
    forms_written: Mapping[Key, int]  # msgstr[N] lines each plural entry really has
    header_lines: Mapping[str, int]  # "Plural-Forms" → its line
    plural_forms: plurals.PluralForms | None  # None: the header cannot be used (plural_error says why)
    plural_error: str | None = None
    lines: Mapping[Key, int] = field(default_factory=dict)  # where each entry's msgid is
    headers: tuple[
        tuple[str, str], ...
    ] = ()  # the header's fields as written, in order (Babel drops unknown ones)
    entry_lines: tuple[int, ...] = ()  # where each entry (obsolete ones too) begins, in file order

    def messages(self) -> Iterator[Message]:
        """The entries, header and obsolete ones left out."""
        return (m for m in self.catalog if m.id)

    def line_of(self, key: Key) -> int | None:
        return self.lines.get(key)

    def header_location(self, name: str) -> Location:
        return Location(self.shown, self.header_lines.get(name))


def key_of(message: Message) -> Key:
    return (singular(message.id), message.context)


def singular(message_id: str | tuple[str, ...] | list[str]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def forms(string: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    """A msgstr as its forms: one for a singular entry, one per plural form for a plural one."""
    if string is None:
        return ()
    return (string,) if isinstance(string, str) else tuple(string)


def ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


class _Parser(PoParser):
    """Babel's parser (through the seam), strict where it is lenient, recording what it normalizes away.

    It also refuses what ``msgfmt -c`` refuses and Babel lets through (an unknown escape such
    as ``\\q``, a translation that begins or ends with a newline its msgid lacks), and control
    characters other than tab and newline in any string. Every entry Babel takes as the header
    (any non-obsolete entry whose msgid is empty, wherever it is, however it is spelled) passes
    :meth:`_header` first, so that Babel never sizes a plural entry by a hostile Plural-Forms.
    """

    def __init__(self, catalog: Catalog, path: str) -> None:
        super().__init__(catalog)
        self.path = path
        self.forms_written: dict[Key, int] = {}
        self.lines: dict[Key, int] = {}
        self.header: _Header | None = None
        self.header_line: int | None = None
        self.header_text: str | None = None  # the header's msgstr as written
        self.msgstr_strings: list[tuple[int, str]] = []  # (0-based line, quoted) of the current msgstr
        self.keyword_lines: dict[str, int] = {}  # "msgstr[1]" → its 0-based line, in the current entry
        self.obsolete_lines: dict[Key, int] = {}  # where each obsolete (#~) entry's msgid is
        self.entry_lines: list[int] = []  # every entry but the header, in file order (the run's count)

    def fail(self, lineno: int, message: str) -> RulesdocError:
        return RulesdocError(f"invalid catalog: {message}", Location(self.path, lineno + 1))

    def invalid(self, lineno: int, message: str) -> None:
        raise self.fail(lineno, message)

    def keyword_line(self, lineno: int, line: str) -> tuple[str, str]:
        match = _KEYWORD.fullmatch(line)
        if match is None or not _QUOTED.fullmatch(match.group(2).strip()):
            raise self.fail(
                lineno,
                f'expected a keyword (msgid, msgstr, ...) and a "quoted string", got {short(line, 40)!r}',
            )
        keyword, quoted = match.group(1), match.group(2).strip()
        self._check_keyword_order(lineno, keyword)
        if keyword.startswith("msgstr") and not self.id_count:
            raise self.fail(lineno, "msgstr without a msgid before it")
        if keyword == "msgstr" and self.string_count:
            raise self.fail(lineno, "a second msgstr for one msgid")
        self._check_forms_order(lineno, keyword)
        self._check_string(lineno, quoted)
        # Babel splits at the first space; msgfmt takes any whitespace (`msgid\t""` too).
        return keyword, quoted

    def _check_keyword_order(self, lineno: int, keyword: str) -> None:
        """As msgfmt (a syntax error): one msgctxt before the msgid, one msgid_plural right after
        it; Babel keeps the last msgctxt and takes a third msgid as another plural form."""
        if keyword == "msgctxt" and self.has_context and not self.id_count:
            raise self.fail(lineno, "a second msgctxt for one entry (msgfmt: syntax error)")
        if keyword != "msgid_plural":
            return
        if self.id_count > 1 and not self.string_count:
            raise self.fail(lineno, "a second msgid_plural for one entry (msgfmt: syntax error)")
        if self.id_count != 1 or self.string_count:
            raise self.fail(lineno, "msgid_plural not right after a msgid (msgfmt: syntax error)")

    def keyword_read(self, lineno: int, keyword: str, quoted: str) -> None:
        self.keyword_lines[keyword] = lineno
        if keyword.startswith("msgstr"):
            self.msgstr_strings = [(lineno, quoted)]

    def string_line(self, lineno: int, line: str) -> None:
        if not _QUOTED.fullmatch(line):
            raise self.fail(lineno, f"expected a quoted string, got {short(line, 40)!r}")
        self._check_string(lineno, line)

    def string_read(self, lineno: int, line: str, in_msgstr: bool) -> None:
        if in_msgstr:
            self.msgstr_strings.append((lineno, line))

    def _check_forms_order(self, lineno: int, keyword: str) -> None:
        """As msgfmt: a plural entry has msgstr[0], msgstr[1]... in order; a singular one, msgstr."""
        if not keyword.startswith("msgstr"):
            return
        plural = self.id_count > 1
        if keyword == "msgstr":
            if plural:
                raise self.fail(
                    lineno, "a plural entry (msgid_plural) is translated by msgstr[0], msgstr[1]..."
                )
            return
        if not plural:
            raise self.fail(
                lineno, f"{keyword} without a msgid_plural before it; a singular entry has msgstr"
            )
        expected = self.string_count
        if keyword != f"msgstr[{expected}]":
            raise self.fail(
                lineno, f"{keyword} where msgstr[{expected}] comes next (forms are numbered in order)"
            )

    def _check_string(self, lineno: int, quoted: str) -> None:
        """Escapes as msgfmt reads them and Babel renders them; no control characters."""
        control = CONTROL_CHARACTERS.search(quoted)
        if control is not None:
            raise self.fail(lineno, f"{_control_name(control.group())}; {_ONLY_TAB_NEWLINE}")
        for found in _ESCAPE.finditer(quoted[1:-1]):
            letter = found.group(1)
            if letter in _KEPT_ESCAPES:
                continue
            if letter in _CONTROL_ESCAPES:
                named = _control_name(_CONTROL_ESCAPES[letter])
                raise self.fail(lineno, f"the escape \\{letter} is a {named}; {_ONLY_TAB_NEWLINE}")
            if letter in "01234567x":
                raise self.fail(
                    lineno,
                    f"numeric escape \\{letter}...: write the character itself (Babel shows it as typed)",
                )
            raise self.fail(
                lineno,
                f"invalid escape \\{letter} (msgfmt: invalid control sequence); write \\\\ for a backslash",
            )

    def entry_ending(self, entry: Entry) -> None:
        msgid, context = entry.ids[0], entry.context
        key: Key = (msgid, context)
        if msgid == "" and len(entry.ids) > 1:
            raise self.fail(entry.line, 'an empty msgid with a msgid_plural; msgid "" is the header\'s')
        if msgid != "":
            self._check_unique(key, entry)
            self.entry_lines.append(entry.line + 1)
        if entry.obsolete:
            return
        if msgid == "" and len(entry.ids) == 1:
            self._header(entry)
            return
        self.lines[key] = entry.line + 1
        if len(entry.ids) > 1:
            self.forms_written[key] = entry.string_count
        if "fuzzy" not in entry.flags:
            self._check_newlines(entry)

    def entry_added(self, entry: Entry) -> None:
        self.keyword_lines = {}
        if not entry.obsolete and entry.ids == ("",):
            self._check_plural_count(entry.line)

    def _check_unique(self, key: Key, entry: Entry) -> None:
        """One entry per msgid and msgctxt, obsolete (#~) ones included, as msgfmt wants."""
        first = self.lines.get(key) or self.obsolete_lines.get(key)
        if first is not None:
            raise self.fail(entry.line, f"msgid {short(key[0])!r} is defined twice (first on line {first})")
        if entry.obsolete:
            self.obsolete_lines[key] = entry.line + 1

    def _check_newlines(self, entry: Entry) -> None:
        """What ``msgfmt -c`` checks: msgid_plural and every translated msgstr begin and end with
        a newline exactly where the msgid does (fuzzy and untranslated entries are not checked)."""
        msgid = entry.ids[0]
        others = [("msgid_plural", text) for text in entry.ids[1:2]]
        plural = len(entry.ids) > 1
        others += [(f"msgstr[{i}]" if plural else "msgstr", text) for i, text in sorted(entry.strings)]
        for name, text in others:
            if not text:
                continue
            for end, test in (("begin", str.startswith), ("end", str.endswith)):
                if test(msgid, "\n") != test(text, "\n"):
                    raise self.fail(
                        self.keyword_lines.get(name, entry.line),
                        f"'msgid' and '{name}' entries do not both {end} with '\\n' (msgfmt -c refuses it)",
                    )

    def _header(self, entry: Entry) -> None:
        """Read the header's fields, and put a harmless Plural-Forms in place for Babel."""
        context = entry.context
        if self.header_line is not None:
            what = f"msgctxt {short(context)!r} and an empty msgid" if context is not None else 'msgid ""'
            raise self.fail(
                entry.line,
                f"a second header entry ({what}); the header is on line {self.header_line} "
                "and Babel would read this one's fields as the header's",
            )
        if context is not None:
            raise self.fail(
                entry.line,
                f"an entry with msgctxt {short(context)!r} and an empty msgid; "
                'an empty msgid is the header (msgid "", no msgctxt)',
            )
        self.header_line = entry.line + 1
        self.header_text = entry.strings[0][1]
        self.header, safe_text = _read_header(self.msgstr_strings, self.path)
        self.replace_first_string(safe_text)

    def _check_plural_count(self, line: int) -> None:
        # Babel reads the header its own way (RFC 822 folding, repeated fields): whatever it made
        # of it, no plural entry may be sized past CLDR's most forms.
        if self.catalog.num_plurals > plurals.MAX_FORMS:
            raise self.fail(
                line,
                f"the header gives {self.catalog.num_plurals} plural forms; "
                f"a language has 1 to {plurals.MAX_FORMS} (CLDR)",
            )


_ESCAPE = re.compile(r"\\(.)")
_KEPT_ESCAPES = '\\"nt'
_CONTROL_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "r": "\r", "v": "\v"}
_ONLY_TAB_NEWLINE = "a catalog string may hold tab and newline only (write \\t or \\n)"


def _control_name(character: str) -> str:
    return f"control character U+{ord(character):04X}"


@dataclass(frozen=True)
class _Header:
    """The header entry's fields: where each is, and its Plural-Forms parsed by us."""

    lines: dict[str, int]
    plural_forms: plurals.PluralForms | None
    plural_error: str | None


_NO_HEADER = _Header({}, None, "the catalog has no Plural-Forms header")
_SAFE_PLURAL = "nplurals=2; plural=(n != 1);"
_LANGUAGE = re.compile(r"[A-Za-z0-9_@-]{0,40}")


def _read_header(strings: list[tuple[int, str]], path: str) -> tuple[_Header, str]:
    """The header's fields from its msgstr's quoted strings (0-based line, quoted text), and the
    header text for Babel with Plural-Forms parsed by :mod:`rulesdoc.catalog.plurals` and replaced by a
    harmless value: Babel would size every plural entry by it."""
    fields: dict[str, int] = {}
    forms: plurals.PluralForms | None = None
    error: str | None = _NO_HEADER.plural_error
    # Fields end with "\n" inside the string; a long one may go on over several quoted lines.
    spans: list[tuple[str, int]] = []  # (field text, line of its first piece)
    for index, quoted in strings:
        for piece in unescape(quoted).splitlines(keepends=True):
            if not spans or spans[-1][0].endswith("\n"):
                spans.append((piece, index))
            else:
                spans[-1] = (spans[-1][0] + piece, spans[-1][1])
    safe: list[str] = []
    for text, index in spans:
        name, colon, value = text.partition(":")
        if not colon or not re.fullmatch(r"[A-Za-z][A-Za-z-]*", name.strip()):
            safe.append(text)
            continue
        name, value = name.strip(), value.strip()
        fields.setdefault(name, index + 1)
        if name.lower() == "plural-forms":
            try:
                forms, error = plurals.parse(value), None
            except plurals.PluralFormsError as problem:
                forms, error = None, str(problem)
            text = "Plural-Forms: " + (forms.header if forms else _SAFE_PLURAL) + "\n"
        elif name.lower() == "language" and not _LANGUAGE.fullmatch(value):
            raise RulesdocError(
                f"the Language header {short(value, 20)!r} is not a language code", Location(path, index + 1)
            )
        safe.append(text)
    return _Header(fields, forms, error), "".join(safe)


def _refuse_lone_carriage_return(text: str, shown: str) -> None:
    """gettext ends a line at a lone \\r too: refuse it rather than read one long comment line."""
    at = text.replace("\r\n", "\n\n").find("\r")
    if at >= 0:
        line = text.count("\n", 0, at) + 1
        raise RulesdocError(
            "invalid catalog: a line ends in a lone carriage return (old Mac line ending); use LF or CRLF",
            Location(shown, line),
        )


def parse(data: bytes, path: Path, shown: str | None = None) -> LoadedCatalog:
    """Parse catalog bytes; syntax errors are one line naming the file and line."""
    shown = shown or display_path(path)
    text = files.decode_utf8(data, shown, "invalid catalog: ")
    _refuse_lone_carriage_return(text, shown)
    lines = text.split("\n")
    catalog = Catalog()
    parser = _Parser(catalog, shown)
    try:
        parser.parse(lines)
    except RulesdocError:
        raise
    except (ValueError, TypeError, LookupError) as error:  # Babel on a malformed header or line
        raise RulesdocError(f"invalid catalog: {error}", Location(shown)) from None
    header = parser.header or _NO_HEADER
    charset = (catalog.charset or "utf-8").lower().replace("_", "-")
    if charset not in ("utf-8", "utf8"):
        raise RulesdocError(
            f"the catalog declares charset {catalog.charset!r}; catalogs are UTF-8 (write charset=UTF-8)",
            Location(shown, header.lines.get("Content-Type")),
        )
    facts = (parser.forms_written, header.lines, header.plural_forms, header.plural_error, parser.lines)
    headers = header_fields(parser.header_text or "")
    return LoadedCatalog(path, shown, catalog, *facts, headers, tuple(parser.entry_lines))


def load(path: Path, root: Path | None = None) -> LoadedCatalog:
    """Read and parse a catalog file (a regular file inside ``root``, of bounded size)."""
    data = files.read_bytes(path, files.MAX_CATALOG_BYTES, root, "catalog")
    return kept.parse(data, path, parse)


def header_fields(text: str) -> tuple[tuple[str, str], ...]:
    """A header msgstr as its ``Name: value`` fields, in the order written."""
    parts = (line.partition(":") for line in text.split("\n"))
    return tuple((name.strip(), value.strip()) for name, colon, value in parts if colon and name.strip())

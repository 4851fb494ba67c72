"""The one catalog loader: a ``.po`` file read and parsed once, with the facts Babel drops.

Every caller (the build, ``check``, ``catalog update``, the pseudo-locale) reads a
catalog through :func:`load`. It parses with Babel's own ``PoFileParser`` in a single
pass, extended to refuse what Babel's lenient reader lets through (an unquoted string,
a message defined twice, a ``msgstr`` without its ``msgid``) and to keep what it
normalizes away: how many ``msgstr[N]`` a plural entry really has (Babel pads a short
entry silently) and on which line each header field sits.

A catalog is untrusted input: its size is bounded, it must be UTF-8, and its
Plural-Forms header is parsed by :mod:`generator.plurals` *before* Babel sizes any
entry by it (``nplurals=1000000000`` would otherwise allocate a billion strings per
plural entry). A header that cannot be used, or an entry whose forms disagree with
it, is kept as a fact for the linter: never an abort.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileParser, unescape, write_po

from generator import files, plurals
from generator.errors import Location, RulesdocError, display_path

Key = tuple[str, str | None]  # (singular msgid, msgctxt): how Babel keys a catalog

_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_KEYWORD = re.compile(r"(msgctxt|msgid|msgid_plural|msgstr(?:\[\d{1,2}\])?)\s+(.*)")
_HEADER_FIELD = re.compile(r'"([A-Za-z][A-Za-z-]*):')


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


class _Parser(PoFileParser):
    """Babel's parser, strict where it is lenient, recording what it normalizes away."""

    def __init__(self, catalog: Catalog, path: str) -> None:
        super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)
        self.path = path
        self.forms_written: dict[Key, int] = {}
        self.lines: dict[Key, int] = {}

    def fail(self, lineno: int, message: str) -> RulesdocError:
        return RulesdocError(f"invalid catalog: {message}", Location(self.path, lineno + 1))

    def _invalid_pofile(self, line: str, lineno: int, msg: str) -> None:
        if msg.startswith("msg has more translations than num_plurals"):
            return  # a header/entry mismatch: the forms are counted, the linter reports it
        raise self.fail(lineno, msg)

    def _process_keyword_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
        match = _KEYWORD.fullmatch(line)
        if match is None or not _QUOTED.fullmatch(match.group(2).strip()):
            shown = line if len(line) <= 40 else line[:37] + "..."
            raise self.fail(
                lineno, f'expected a keyword (msgid, msgstr, ...) and a "quoted string", got {shown!r}'
            )
        keyword = match.group(1)
        if keyword.startswith("msgstr") and not self.messages:
            raise self.fail(lineno, "msgstr without a msgid before it")
        if keyword == "msgstr" and self.translations:
            raise self.fail(lineno, "a second msgstr for one msgid")
        super()._process_keyword_line(lineno, line, obsolete)

    def _process_string_continuation_line(self, line: str, lineno: int) -> None:
        if not _QUOTED.fullmatch(line):
            shown = line if len(line) <= 40 else line[:37] + "..."
            raise self.fail(lineno, f"expected a quoted string, got {shown!r}")
        super()._process_string_continuation_line(line, lineno)

    def _add_message(self) -> None:
        msgid = self.messages[0].denormalize()
        context = self.context.denormalize() if self.context else None
        key: Key = (msgid, context)
        indexes = [index for index, _ in self.translations]
        if len(set(indexes)) != len(indexes):
            raise self.fail(self.offset, f"a msgstr[N] is written twice for msgid {msgid!r}")
        if not self.obsolete:
            if key in self.lines:
                raise RulesdocError(
                    f"invalid catalog: msgid {msgid!r} is defined twice (first on line {self.lines[key]})",
                    Location(self.path, self.offset + 1),
                )
            self.lines[key] = self.offset + 1
            if len(self.messages) > 1:
                self.forms_written[key] = len(self.translations)
        super()._add_message()


@dataclass(frozen=True)
class _Header:
    """The header entry's fields, read before Babel so that Babel never sees a hostile one."""

    lines: dict[str, int]
    plural_forms: plurals.PluralForms | None
    plural_error: str | None


_SAFE_PLURAL = "nplurals=2; plural=(n != 1);"
_LANGUAGE = re.compile(r"[A-Za-z0-9_@-]{0,40}")


def _header_strings(lines: list[str]) -> list[tuple[int, str]]:
    """The header entry's msgstr, as (line index, unescaped text) of each quoted string."""
    found: list[tuple[int, str]] = []
    state = "before"
    for index, raw in enumerate(lines):
        line = raw.strip()
        if state == "before":
            if line.startswith("msgid "):
                if line != 'msgid ""':
                    return []  # the first entry is no header
                state = "msgid"
        elif state == "msgid":
            if line.startswith("msgstr "):
                state = "msgstr"
                line = line[len("msgstr ") :].strip()
            elif line.startswith('"') and line != '""':
                return []  # a msgid with text: no header
            else:
                continue
        if state == "msgstr":
            if not _QUOTED.fullmatch(line):
                break
            found.append((index, unescape(line)))
    return found


def _read_header(lines: list[str], path: str) -> _Header:
    """Find the header's fields; parse Plural-Forms with :mod:`generator.plurals` and put a
    harmless value in its place for Babel, which would size every plural entry by it."""
    fields: dict[str, int] = {}
    forms: plurals.PluralForms | None = None
    error: str | None = "the catalog has no Plural-Forms header"
    strings = _header_strings(lines)
    # Fields end with "\n" inside the string; a long one may go on over several quoted lines.
    spans: list[tuple[str, list[int]]] = []
    for index, text in strings:
        for piece in text.splitlines(keepends=True) or [""]:
            if not spans or spans[-1][0].endswith("\n"):
                spans.append((piece, [index]))
            else:
                spans[-1] = (spans[-1][0] + piece, spans[-1][1] + [index])
    for text, where in spans:
        name, colon, value = text.partition(":")
        if not colon or not re.fullmatch(r"[A-Za-z][A-Za-z-]*", name.strip()):
            continue
        name, value = name.strip(), value.strip()
        fields.setdefault(name, where[0] + 1)
        if name.lower() == "plural-forms":
            try:
                forms, error = plurals.parse(value), None
            except plurals.PluralFormsError as problem:
                forms, error = None, str(problem)
            safe = forms.header if forms else _SAFE_PLURAL
            lines[where[0]] = '"Plural-Forms: ' + safe + '\\n"'
            for other in where[1:]:
                lines[other] = '""'
        elif name.lower() == "language" and not _LANGUAGE.fullmatch(value):
            shown = value if len(value) <= 20 else value[:17] + "..."
            raise RulesdocError(
                f"the Language header {shown!r} is not a language code", Location(path, where[0] + 1)
            )
    return _Header(fields, forms, error)


def parse(data: bytes, path: Path, shown: str | None = None) -> LoadedCatalog:
    """Parse catalog bytes; syntax errors are one line naming the file and line."""
    shown = shown or display_path(path)
    lines = files.decode_utf8(data, shown, "invalid catalog: ").split("\n")
    header = _read_header(lines, shown)
    catalog = Catalog()
    parser = _Parser(catalog, shown)
    try:
        parser.parse(lines)
    except RulesdocError:
        raise
    except (ValueError, TypeError, LookupError) as error:  # Babel on a malformed header or line
        raise RulesdocError(f"invalid catalog: {error}", Location(shown)) from None
    charset = (catalog.charset or "utf-8").lower().replace("_", "-")
    if charset not in ("utf-8", "utf8"):
        raise RulesdocError(
            f"the catalog declares charset {catalog.charset!r}; catalogs are UTF-8 (write charset=UTF-8)",
            Location(shown, header.lines.get("Content-Type")),
        )
    facts = (parser.forms_written, header.lines, header.plural_forms, header.plural_error, parser.lines)
    return LoadedCatalog(path, shown, catalog, *facts)


# How many times a run parsed a catalog: the tests hold `check` to one parse per file.
parse_count: dict[Path, int] = {}


def load(path: Path, root: Path | None = None) -> LoadedCatalog:
    """Read and parse a catalog file (a regular file inside ``root``, of bounded size)."""
    data = files.read_bytes(path, files.MAX_CATALOG_BYTES, root, "catalog")
    resolved = path.resolve()
    parse_count[resolved] = parse_count.get(resolved, 0) + 1
    return parse(data, path)


def to_bytes(catalog: Catalog) -> bytes:
    """A catalog as the ``.po`` text we commit: no line wrapping, previous msgids kept on fuzzy entries."""
    for message in catalog:
        # Babel flags every message holding "%(name)s" python-format, also when read back from a
        # file that says no-python-format (a rules note): the one flag the extraction chose stays.
        if "no-python-format" in message.flags:
            message.flags.discard("python-format")
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, include_previous=True)
    return buffer.getvalue()

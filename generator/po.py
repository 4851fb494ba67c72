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

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileParser, unescape

from generator import files, gettext_po, plurals
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
    headers: tuple[
        tuple[str, str], ...
    ] = ()  # the header's fields as written, in order (Babel drops unknown ones)

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
        self.header_text: str | None = None

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
        if msgid == "" and context is None and not self.obsolete and self.header_text is None:
            self.header_text = self.translations[0][1].denormalize() if self.translations else ""
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
    return LoadedCatalog(path, shown, catalog, *facts, header_fields(parser.header_text or ""))


# How many times a run parsed a catalog: the tests hold `check` to one parse per file.
parse_count: dict[Path, int] = {}


def load(path: Path, root: Path | None = None) -> LoadedCatalog:
    """Read and parse a catalog file (a regular file inside ``root``, of bounded size)."""
    data = files.read_bytes(path, files.MAX_CATALOG_BYTES, root, "catalog")
    resolved = path.resolve()
    parse_count[resolved] = parse_count.get(resolved, 0) + 1
    return parse(data, path)


def header_fields(text: str) -> tuple[tuple[str, str], ...]:
    """A header msgstr as its ``Name: value`` fields, in the order written."""
    found = []
    for line in text.split("\n"):
        name, colon, value = line.partition(":")
        if colon and name.strip():
            found.append((name.strip(), value.strip()))
    return tuple(found)


def to_bytes(
    catalog: Catalog, headers: Sequence[tuple[str, str]] = (), width: int = gettext_po.PAGE_WIDTH
) -> bytes:
    """A catalog as the ``.po`` text we commit: laid out as GNU gettext writes it
    (:mod:`generator.gettext_po`), the header as :func:`header_of` decides it, with the
    fields other tools added (``headers``: the file's own, e.g. Poedit's ``X-Generator``) kept."""
    return gettext_po.dumps(entries(catalog, headers), width)


# Header fields the writer decides; any other field a file has is kept as written.
# Generated-By is Babel's stamp: it changes with each Babel release and says nothing.
_MANAGED = {
    "project-id-version", "report-msgid-bugs-to", "pot-creation-date", "po-revision-date",
    "last-translator", "language", "language-team", "plural-forms", "mime-version",
    "content-type", "content-transfer-encoding", "generated-by",
}  # fmt: skip
# Text of gettext's and Babel's templates: a header holding it says nothing true.
_PLACEHOLDERS = ("EMAIL@ADDRESS", "FULL NAME", "FIRST AUTHOR", "ORGANIZATION", "LL@li.org", "YEAR")


def _placeholder(text: str) -> bool:
    return any(mark in text for mark in _PLACEHOLDERS) or "LANGUAGE" in text.split()


def _date(value: object) -> str | None:
    if not isinstance(value, datetime) or value.year <= 1970:
        return None  # unset, a template's "YEAR-MO-DA", or the epoch of an unset SOURCE_DATE_EPOCH
    return value.strftime("%Y-%m-%d %H:%M%z") if value.tzinfo else value.strftime("%Y-%m-%d %H:%M+0000")


def header_of(catalog: Catalog, kept: Sequence[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The header fields written: real values only, never a template's placeholder.

    A template (no locale) has no translator, team, language or revision date. A
    catalog's revision date is the translator's (their tool sets it when they save); a
    catalog that never had one takes the template's creation date, never today's.
    """
    created = _date(catalog.creation_date)
    fields: list[tuple[str, str]] = [("Project-Id-Version", f"{catalog.project} {catalog.version}".strip())]
    bugs = catalog.msgid_bugs_address or ""
    fields.append(("Report-Msgid-Bugs-To", "" if _placeholder(bugs) else bugs))
    fields.append(("POT-Creation-Date", created or ""))
    if not catalog.locale_identifier:  # a template: no translation yet; the fields gettext expects, empty
        fields += [
            (name, "") for name in ("PO-Revision-Date", "Last-Translator", "Language-Team", "Language")
        ]
    else:
        revised = _date(catalog.revision_date) or created or ""
        fields.append(("PO-Revision-Date", revised))
        translator = catalog.last_translator or ""
        fields.append(("Last-Translator", "" if _placeholder(translator) else translator))
        team = catalog.language_team or ""
        if not team or _placeholder(team):
            name = catalog.locale.english_name if catalog.locale else str(catalog.locale_identifier)
            team = f"{name} <{bugs}>" if bugs and not _placeholder(bugs) else str(name)
        fields.append(("Language-Team", team))
        fields.append(("Language", str(catalog.locale_identifier)))
        fields.append(("Plural-Forms", catalog.plural_forms))
    fields += [
        ("MIME-Version", "1.0"),
        ("Content-Type", "text/plain; charset=UTF-8"),
        ("Content-Transfer-Encoding", "8bit"),
    ]
    fields += [(name, value) for name, value in kept if name.lower() not in _MANAGED]
    return fields


def header_comment(catalog: Catalog) -> list[str]:
    """The header's comment lines (without ``#``), the template's placeholder lines left out."""
    lines = [line[1:] for line in catalog.header_comment.splitlines() if line.startswith("#")]
    texts = [line[1:] if line.startswith(" ") else line for line in lines]
    texts = [text for text in texts if not _placeholder(text) and "(C) 1970" not in text]
    while texts and not texts[-1].strip():
        texts.pop()
    return texts


def entries(catalog: Catalog, headers: Sequence[tuple[str, str]] = ()) -> Iterator[gettext_po.Entry]:
    """The catalog as gettext entries: the header, the messages, the obsolete ones."""
    fields = header_of(catalog, headers)
    yield gettext_po.Entry(
        "",
        ("".join(f"{name}: {value}\n" for name, value in fields),),
        translator_comments=header_comment(catalog),
        flags=("fuzzy",) if catalog.fuzzy else (),
    )
    for message in catalog:
        if message.id:
            yield _entry(message, obsolete=False)
    for message in catalog.obsolete.values():
        yield _entry(message, obsolete=True)


def _entry(message: Message, obsolete: bool) -> gettext_po.Entry:
    texts = ids(message)
    strings = forms(message.string)
    if len(texts) > 1 and not strings:
        strings = ("", "")
    return gettext_po.Entry(
        msgid=texts[0],
        msgstr=strings or ("",),
        msgid_plural=texts[1] if len(texts) > 1 else None,
        msgctxt=message.context,
        translator_comments=message.user_comments,
        extracted_comments=message.auto_comments,
        references=[(name, line) for name, line in message.locations],
        flags=sorted(message.flags),
        previous=tuple(message.previous_id) if message.fuzzy else (),
        obsolete=obsolete,
    )

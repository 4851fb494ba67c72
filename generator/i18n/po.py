"""The one catalog loader: a ``.po`` file read and parsed once, with the facts Babel drops.

Every caller (the build, ``check``, ``catalog update``, the pseudo-locale) reads a
catalog through :func:`load`. It parses with Babel's own ``PoFileParser`` in a single
pass, extended to refuse what Babel's lenient reader lets through (an unquoted string,
a message defined twice, a ``msgstr`` without its ``msgid``) and to keep what it
normalizes away: how many ``msgstr[N]`` a plural entry really has (Babel pads a short
entry silently) and on which line each header field sits.

A catalog is untrusted input: its size is bounded, it must be UTF-8, and its
Plural-Forms header is parsed by :mod:`generator.i18n.plurals` *before* Babel sizes any
entry by it (``nplurals=1000000000`` would otherwise allocate a billion strings per
plural entry). Babel takes *any* entry with an empty msgid as the header (``msgid  ""``,
a continued ``msgid ""``, one with a msgctxt, one at the end): the parser sees each as it
ends, so a second one is refused and the first one's Plural-Forms replaced for Babel by a
harmless value. A header that cannot be used, or an entry whose forms disagree with it, is
kept as a fact for the linter: never an abort.

What GNU ``msgfmt -c`` refuses is refused here too, with the line (tests/msgfmt_parity/):
unknown escapes, newline mismatches between msgid and msgstr, misnumbered plural forms,
entries defined twice (obsolete ones included). Stricter than msgfmt: control characters
other than tab and newline, raw or escaped, and numeric escapes (Babel shows them as typed).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import PoFileParser, escape, unescape

from generator.errors import Location, RulesdocError, display_path, short
from generator.i18n import gettext_po, plurals
from generator.io import files

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
    """Babel's parser, strict where it is lenient, recording what it normalizes away.

    It also refuses what ``msgfmt -c`` refuses and Babel lets through (an unknown escape such
    as ``\\q``, a translation that begins or ends with a newline its msgid lacks), and control
    characters other than tab and newline in any string. Every entry Babel takes as the header
    (any non-obsolete entry whose msgid is empty, wherever it is, however it is spelled) passes
    :meth:`_header` first, so that Babel never sizes a plural entry by a hostile Plural-Forms.
    """

    def __init__(self, catalog: Catalog, path: str) -> None:
        super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)
        self.path = path
        self.forms_written: dict[Key, int] = {}
        self.lines: dict[Key, int] = {}
        self.header: _Header | None = None
        self.header_line: int | None = None
        self.header_text: str | None = None  # the header's msgstr as written
        self.msgstr_strings: list[tuple[int, str]] = []  # (0-based line, quoted) of the current msgstr
        self.keyword_lines: dict[str, int] = {}  # "msgstr[1]" → its 0-based line, in the current entry
        self.obsolete_lines: dict[Key, int] = {}  # where each obsolete (#~) entry's msgid is

    def fail(self, lineno: int, message: str) -> RulesdocError:
        return RulesdocError(f"invalid catalog: {message}", Location(self.path, lineno + 1))

    def _invalid_pofile(self, line: str, lineno: int, msg: str) -> None:
        if msg.startswith("msg has more translations than num_plurals"):
            return  # a header/entry mismatch: the forms are counted, the linter reports it
        raise self.fail(lineno, msg)

    def _process_keyword_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
        match = _KEYWORD.fullmatch(line)
        if match is None or not _QUOTED.fullmatch(match.group(2).strip()):
            raise self.fail(
                lineno,
                f'expected a keyword (msgid, msgstr, ...) and a "quoted string", got {short(line, 40)!r}',
            )
        keyword, quoted = match.group(1), match.group(2).strip()
        if keyword.startswith("msgstr") and not self.messages:
            raise self.fail(lineno, "msgstr without a msgid before it")
        if keyword == "msgstr" and self.translations:
            raise self.fail(lineno, "a second msgstr for one msgid")
        self._check_forms_order(lineno, keyword)
        self._check_string(lineno, quoted)
        # Babel splits at the first space; msgfmt takes any whitespace (`msgid\t""` too).
        super()._process_keyword_line(lineno, f"{keyword} {quoted}", obsolete)
        self.keyword_lines[keyword] = lineno
        if keyword.startswith("msgstr"):
            self.msgstr_strings = [(lineno, quoted)]

    def _process_string_continuation_line(self, line: str, lineno: int) -> None:
        if not _QUOTED.fullmatch(line):
            raise self.fail(lineno, f"expected a quoted string, got {short(line, 40)!r}")
        self._check_string(lineno, line)
        super()._process_string_continuation_line(line, lineno)
        if self.in_msgstr:
            self.msgstr_strings.append((lineno, line))

    def _check_forms_order(self, lineno: int, keyword: str) -> None:
        """As msgfmt: a plural entry has msgstr[0], msgstr[1]... in order; a singular one, msgstr."""
        if not keyword.startswith("msgstr"):
            return
        plural = len(self.messages) > 1
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
        expected = len(self.translations)
        if keyword != f"msgstr[{expected}]":
            raise self.fail(
                lineno, f"{keyword} where msgstr[{expected}] comes next (forms are numbered in order)"
            )

    def _check_string(self, lineno: int, quoted: str) -> None:
        """Escapes as msgfmt reads them and Babel renders them; no control characters."""
        control = _CONTROL.search(quoted)
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

    def _add_message(self) -> None:
        msgid = self.messages[0].denormalize()
        context = self.context.denormalize() if self.context else None
        key: Key = (msgid, context)
        if msgid == "" and len(self.messages) > 1:
            raise self.fail(self.offset, 'an empty msgid with a msgid_plural; msgid "" is the header\'s')
        if msgid != "":
            self._check_unique(key)
        if not self.obsolete:
            if msgid == "" and len(self.messages) == 1:
                self._header(context)
                super()._add_message()
                self.keyword_lines = {}
                self._check_plural_count()
                return
            self.lines[key] = self.offset + 1
            if len(self.messages) > 1:
                self.forms_written[key] = len(self.translations)
            if "fuzzy" not in self.flags:
                self._check_newlines()
        super()._add_message()
        self.keyword_lines = {}

    def _check_unique(self, key: Key) -> None:
        """One entry per msgid and msgctxt, obsolete (#~) ones included, as msgfmt wants."""
        first = self.lines.get(key) or self.obsolete_lines.get(key)
        if first is not None:
            raise self.fail(self.offset, f"msgid {short(key[0])!r} is defined twice (first on line {first})")
        if self.obsolete:
            self.obsolete_lines[key] = self.offset + 1

    def _check_newlines(self) -> None:
        """What ``msgfmt -c`` checks: msgid_plural and every translated msgstr begin and end with
        a newline exactly where the msgid does (fuzzy and untranslated entries are not checked)."""
        msgid = self.messages[0].denormalize()
        others = [("msgid_plural", m.denormalize()) for m in self.messages[1:2]]
        plural = len(self.messages) > 1
        others += [
            (f"msgstr[{i}]" if plural else "msgstr", s.denormalize()) for i, s in sorted(self.translations)
        ]
        for name, text in others:
            if not text:
                continue
            for end, test in (("begin", str.startswith), ("end", str.endswith)):
                if test(msgid, "\n") != test(text, "\n"):
                    raise self.fail(
                        self.keyword_lines.get(name, self.offset),
                        f"'msgid' and '{name}' entries do not both {end} with '\\n' (msgfmt -c refuses it)",
                    )

    def _header(self, context: str | None) -> None:
        """Read the header's fields, and put a harmless Plural-Forms in place for Babel."""
        if self.header_line is not None:
            what = f"msgctxt {short(context)!r} and an empty msgid" if context is not None else 'msgid ""'
            raise self.fail(
                self.offset,
                f"a second header entry ({what}); the header is on line {self.header_line} "
                "and Babel would read this one's fields as the header's",
            )
        if context is not None:
            raise self.fail(
                self.offset,
                f"an entry with msgctxt {short(context)!r} and an empty msgid; "
                'an empty msgid is the header (msgid "", no msgctxt)',
            )
        self.header_line = self.offset + 1
        self.header_text = self.translations[0][1].denormalize()
        self.header, safe_text = _read_header(self.msgstr_strings, self.path)
        self.translations[0][1][:] = [escape(safe_text)]

    def _check_plural_count(self) -> None:
        # Babel reads the header its own way (RFC 822 folding, repeated fields): whatever it made
        # of it, no plural entry may be sized past CLDR's most forms.
        if self.catalog.num_plurals > plurals.MAX_FORMS:
            raise self.fail(
                self.offset,
                f"the header gives {self.catalog.num_plurals} plural forms; "
                f"a language has 1 to {plurals.MAX_FORMS} (CLDR)",
            )


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # C0 but tab and newline, DEL, C1
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
    header text for Babel with Plural-Forms parsed by :mod:`generator.i18n.plurals` and replaced by a
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


def parse(data: bytes, path: Path, shown: str | None = None) -> LoadedCatalog:
    """Parse catalog bytes; syntax errors are one line naming the file and line."""
    shown = shown or display_path(path)
    lines = files.decode_utf8(data, shown, "invalid catalog: ").split("\n")
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
    return LoadedCatalog(path, shown, catalog, *facts, header_fields(parser.header_text or ""))


def load(path: Path, root: Path | None = None) -> LoadedCatalog:
    """Read and parse a catalog file (a regular file inside ``root``, of bounded size)."""
    data = files.read_bytes(path, files.MAX_CATALOG_BYTES, root, "catalog")
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
    (:mod:`generator.i18n.gettext_po`), the header as :func:`header_of` decides it, with the
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
        flags=_flags(message),
        previous=tuple(message.previous_id) if message.fuzzy else (),
        obsolete=obsolete,
    )


def _flags(message: Message) -> list[str]:
    """The message's flags; Babel adds python-format to every message holding "%(name)s", also
    when read back from a file that says no-python-format (a rules note): that one flag stays."""
    flags = set(message.flags)
    if "no-python-format" in flags:
        flags.discard("python-format")
    return sorted(flags)

"""The Babel seam: the one module that uses Babel's private names.

Babel's public catalog reader (``read_po``) is lenient: it pads a short plural entry, takes
any empty msgid as the header, accepts an unquoted string, and sizes every plural entry by
the header's Plural-Forms before anyone can check it. Babel has no public hook between
reading a line and storing it, so :class:`PoParser` subclasses its ``PoFileParser`` and
overrides four private methods, each turned into a hook in our own terms that
:mod:`rulesdoc.catalog.po` implements (our rules stay there). What each private name is, why
no public API does it, and what breaks if it changes:

- ``PoFileParser._process_keyword_line(lineno, line, obsolete)``: each ``msgid``/``msgstr``...
  line. Hook :meth:`PoParser.keyword_line` checks it first (Babel splits at the first space
  and stores an unquoted string as it is). If renamed: our checks are silently skipped.
- ``PoFileParser._process_string_continuation_line(line, lineno)``: each ``"..."`` line.
  Hook :meth:`PoParser.string_line`. If renamed: unquoted or control text passes.
- ``PoFileParser._add_message()``: an entry is complete, before Babel stores it. Hooks
  :meth:`PoParser.entry_ending` and :meth:`PoParser.entry_added`. If renamed: duplicates,
  header checks and the plural-forms bound are skipped (a hostile ``nplurals`` is used).
- ``PoFileParser._invalid_pofile(line, lineno, msg)``: Babel's complaints. With
  ``abort_invalid`` it raises ``PoFileError`` without a line we can word; we raise ours.
  Its text ``msg has more translations than num_plurals`` is matched: that one is a fact
  for the linter, not an error. If the text changes: such a catalog is refused, not linted.
- The parser's entry state, read between lines: ``messages`` (msgid, msgid_plural),
  ``translations`` (``[index, string]`` pairs), ``context``, ``obsolete``, ``offset`` (the
  msgid's 0-based line), ``flags``, ``in_msgstr``; each string a private
  ``_NormalizedString`` (a list of the quoted pieces, ``denormalize()`` gives the text). The
  header's text is replaced in place (``translations[0][1][:]``) so that Babel never sizes
  an entry by a Plural-Forms we refused. If these change: :data:`ASSUMPTIONS` says which.

Writing a catalog's Plural-Forms needs no private name: ``Catalog.mime_headers`` (public)
parses a ``Plural-Forms`` header into the catalog's ``num_plurals`` and ``plural_expr``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.pofile import PoFileParser, escape

from rulesdoc.seam import Assumption, SeamChanged, holds, installed

LIBRARY = "babel"
TOO_MANY_FORMS = "msg has more translations than num_plurals"  # Babel's words, matched


@dataclass(slots=True)
class Entry:
    """One entry as Babel's parser holds it just before storing it, in plain strings."""

    ids: tuple[str, ...]  # msgid, and msgid_plural if any
    context: str | None
    obsolete: bool
    line: int  # 0-based line of the msgid
    flags: tuple[str, ...]
    parts: list[list[Any]] = field(repr=False)  # Babel's [index, _NormalizedString] pairs

    @property
    def has_context(self) -> bool:
        """Whether the current entry has a msgctxt so far."""
        return self.context is not None

    @property
    def string_count(self) -> int:
        return len(self.parts)

    @property
    def strings(self) -> tuple[tuple[int, str], ...]:
        """(form index, text) of each msgstr, as written: unescaped on demand (most entries need
        only their msgid; Babel unescapes the msgstr again when it stores the entry)."""
        return tuple((index, string.denormalize()) for index, string in self.parts)


class PoParser(PoFileParser):
    """Babel's parser with hooks where it has none; it aborts on what it finds invalid."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog, ignore_obsolete=False, abort_invalid=True)

    # ------------------------------------------------------------ hooks (rulesdoc.catalog.po)

    def keyword_line(self, lineno: int, line: str) -> tuple[str, str]:
        """Check a keyword line; return its keyword and quoted string for Babel."""
        raise NotImplementedError

    def keyword_read(self, lineno: int, keyword: str, quoted: str) -> None:
        """After Babel recorded a keyword line."""

    def string_line(self, lineno: int, line: str) -> None:
        """Check a continuation line (a quoted string) before Babel records it."""

    def string_read(self, lineno: int, line: str, in_msgstr: bool) -> None:
        """After Babel recorded a continuation line."""

    def entry_ending(self, entry: Entry) -> None:
        """An entry is complete; Babel stores it next."""

    def entry_added(self, entry: Entry) -> None:
        """Babel stored the entry (a header's fields are now the catalog's)."""

    def invalid(self, lineno: int, message: str) -> None:
        """Babel found the line invalid (in its own words): raise."""
        raise NotImplementedError

    # ------------------------------------------------------------ the entry so far

    @property
    def id_count(self) -> int:
        """How many of msgid and msgid_plural the current entry has so far."""
        return len(self.messages)

    @property
    def has_context(self) -> bool:
        """Whether the current entry has a msgctxt so far."""
        return self.context is not None

    @property
    def string_count(self) -> int:
        """How many msgstr lines the current entry has so far."""
        return len(self.translations)

    def replace_first_string(self, text: str) -> None:
        """Replace the current entry's (the header's) msgstr before Babel reads it."""
        self.translations[0][1][:] = [escape(text)]

    # ------------------------------------------------------------ Babel's private methods

    def _process_keyword_line(self, lineno: int, line: str, obsolete: bool = False) -> None:
        keyword, quoted = self.keyword_line(lineno, line)
        super()._process_keyword_line(lineno, f"{keyword} {quoted}", obsolete)
        self.keyword_read(lineno, keyword, quoted)

    def _process_string_continuation_line(self, line: str, lineno: int) -> None:
        self.string_line(lineno, line)
        super()._process_string_continuation_line(line, lineno)
        self.string_read(lineno, line, self.in_msgstr)

    def _add_message(self) -> None:
        entry = self._entry()
        self.entry_ending(entry)
        super()._add_message()
        self.entry_added(entry)

    def _invalid_pofile(self, line: str, lineno: int, msg: str) -> None:
        if msg.startswith(TOO_MANY_FORMS):
            return  # a header/entry mismatch: the forms are counted, the linter reports it
        self.invalid(lineno, msg)

    def _entry(self) -> Entry:
        messages = self.messages
        return Entry(
            ids=(messages[0].denormalize(),)
            if len(messages) == 1
            else tuple([m.denormalize() for m in messages]),
            context=self.context.denormalize() if self.context else None,
            obsolete=bool(self.obsolete),
            line=self.offset,
            flags=tuple(self.flags),
            parts=self.translations,  # Babel starts a new list for the next entry: this one stays
        )


# ---------------------------------------------------------------- assumptions (tests/test_seams.py)
# Each check raises SeamChanged naming what changed when its assumption no longer holds (generator/seam.py);
# its docstring says what is assumed.

_PRIVATE_METHODS = (
    "_process_keyword_line",
    "_process_string_continuation_line",
    "_add_message",
    "_invalid_pofile",
)


def _methods_exist() -> None:
    """PoFileParser has the four private methods PoParser overrides."""
    missing = [name for name in _PRIVATE_METHODS if not callable(getattr(PoFileParser, name, None))]
    holds(not missing, f"PoFileParser no longer has {', '.join(missing)}")


class _Probe(PoParser):
    """Records what the hooks saw, to check Babel still calls them with its state."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog)
        self.seen: list[object] = []

    def keyword_line(self, lineno: int, line: str) -> tuple[str, str]:
        keyword, _, quoted = line.partition(" ")
        self.seen.append(("keyword", lineno, keyword, self.id_count, self.string_count))
        return keyword, quoted.strip()

    def string_read(self, lineno: int, line: str, in_msgstr: bool) -> None:
        self.seen.append(("string", lineno, in_msgstr))

    def entry_ending(self, entry: Entry) -> None:
        self.seen.append((entry.ids, entry.context, entry.strings, entry.obsolete, entry.line, entry.flags))
        if entry.ids == ("",):
            self.replace_first_string("Plural-Forms: nplurals=2; plural=(n != 1);\n")

    def invalid(self, lineno: int, message: str) -> None:
        self.seen.append(("invalid", lineno, message))


_PROBE = """msgid ""
msgstr "Plural-Forms: nplurals=1; plural=0;\\n"

#, fuzzy
msgctxt "c"
msgid "one"
msgid_plural "many"
msgstr[0] "un"
msgstr[1] "d"
"es"

#~ msgid "gone"
#~ msgstr "parti"
"""


def _hooks_see_babel_state() -> None:
    """PoFileParser calls the overridden methods line by line, with its entry state
    (messages, translations, context, obsolete, offset, flags, in_msgstr) as PoParser reads it;
    the header's text replaced in place is what Babel reads; an extra plural form is reported
    with the text PoParser matches."""
    catalog = Catalog(locale="en")
    probe = _Probe(catalog)
    probe.parse(_PROBE.splitlines())
    expected: list[object] = [
        ("keyword", 0, "msgid", 0, 0),
        ("keyword", 1, "msgstr", 1, 0),
        (("",), None, ((0, "Plural-Forms: nplurals=1; plural=0;\n"),), False, 0, ()),
        ("keyword", 4, "msgctxt", 0, 0),
        ("keyword", 5, "msgid", 0, 0),
        ("keyword", 6, "msgid_plural", 1, 0),
        ("keyword", 7, "msgstr[0]", 2, 0),
        ("keyword", 8, "msgstr[1]", 2, 1),
        ("string", 9, True),
        ("keyword", 11, "msgid", 2, 2),  # before Babel ends the entry above
        (("one", "many"), "c", ((0, "un"), (1, "des")), False, 5, ("fuzzy",)),
        ("keyword", 12, "msgstr", 1, 0),
        (("gone",), None, ((0, "parti"),), True, 11, ()),
    ]
    if probe.seen != expected:
        raise SeamChanged(f"PoFileParser's calls and entry state differ: saw {probe.seen!r}")
    if catalog.num_plurals != 2:
        raise SeamChanged(
            f"the header text replaced in translations[0][1] was not read (num_plurals {catalog.num_plurals})"
        )
    _too_many_forms()


def _too_many_forms() -> None:
    """Babel reports a plural entry with more forms than the header's through _invalid_pofile,
    in the words PoParser matches (TOO_MANY_FORMS), and goes on."""
    reported: list[str] = []
    parser = PoFileParser(Catalog(locale="en"), abort_invalid=True)
    parser._invalid_pofile = lambda line, lineno, msg: reported.append(msg)  # type: ignore[method-assign]
    text = 'msgid ""\nmsgstr "Plural-Forms: nplurals=1; plural=0;\\n"\n\nmsgid "a"\nmsgid_plural "b"\n'
    parser.parse((text + 'msgstr[0] "x"\nmsgstr[1] "y"\n').splitlines())
    if not any(message.startswith(TOO_MANY_FORMS) for message in reported):
        raise SeamChanged(
            f"an extra plural form is no longer reported as {TOO_MANY_FORMS!r} (reported: {reported!r})"
        )


ASSUMPTIONS: tuple[Assumption, ...] = tuple(
    Assumption.of(check) for check in (_methods_exist, _hooks_see_babel_state)
)


def versions() -> str:
    return installed(LIBRARY)

"""A catalog as the ``.po`` text we commit: GNU gettext's layout, real header values only.

The reader is :mod:`rulesdoc.catalog.po`; the layout (wrapping, escapes, entry order) is
:mod:`rulesdoc.catalog.gettext_po`'s. Every write of a catalog or of the template goes
through :func:`to_bytes`, so two runs on the same inputs write the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime

from babel.messages.catalog import Catalog, Message

from rulesdoc.catalog import gettext_po
from rulesdoc.catalog.po import forms, ids


def to_bytes(
    catalog: Catalog, headers: Sequence[tuple[str, str]] = (), width: int = gettext_po.PAGE_WIDTH
) -> bytes:
    """A catalog as the ``.po`` text we commit: laid out as GNU gettext writes it
    (:mod:`rulesdoc.catalog.gettext_po`), the header as :func:`header_of` decides it, with the
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

"""Extraction: every message of a project into a fresh ``messages.pot``, on Babel's API.

``babel.cfg`` maps the sources to methods: the templates (Jinja's), ``rules.yaml`` and the
theme's UI strings (:mod:`rulesdoc.i18n.extract`). A template that does not parse is an error
naming its file and line: Jinja's extractor skips it silently, which would drop its messages
from the POT and, at the next ``catalog update``, every translation of them into ``#~``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import marshal
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from babel.messages.catalog import Catalog

from rulesdoc.catalog import gettext_po, po, po_writer
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n import jinja_internals, placement, theme
from rulesdoc.i18n.extract import FORMATTED
from rulesdoc.i18n.verdicts import NO_FORMAT
from rulesdoc.io import cache, files
from rulesdoc.io.project import template_path

COMMENT_TAGS = ("Translators:",)
# The note that shows a message filled in with the current rules' values (generator/pages/
# renderings.py). It follows rules.yaml: `catalog extract` and `catalog update` refresh it, and a
# note left behind by a rule change never makes messages.pot stale (no build fails over a note).
VALUES_NOTE = "With the current rules: "
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
JINJA_METHODS = {"jinja2", "jinja2.ext:babel_extract", "jinja2.ext.babel_extract"}
PLAIN_TEXT_METHODS = {"rulesdoc_rules"}  # their texts are never %-formatted: a "%" is a percent sign


def _epoch() -> datetime:
    """The POT's creation date: SOURCE_DATE_EPOCH (the Makefile passes the last commit's date),
    so the same inputs give the same bytes; without it, now. Either is written only when the
    messages changed: an unchanged POT keeps its date."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit() and int(epoch) > 0:
        return datetime.fromtimestamp(int(epoch), UTC)
    return datetime.now(UTC).replace(second=0, microsecond=0)


@dataclass(frozen=True)
class ProjectInfo:
    """What the catalogs' headers say about the project (Project-Id-Version, Report-Msgid-Bugs-To)."""

    name: str
    version: str
    bugs: str  # where translators report a problem with a source message ("" when unknown)


def project_info(root: Path) -> ProjectInfo:
    """The project's own name, ``mkdocs.yml``'s site_name (else the folder's), and where
    translators report a problem (``pyproject.toml``'s issue URL, else mkdocs.yml's repo_url +
    /issues). No version: a help site has none of its own (a ``pyproject.toml`` beside it may
    be a tool's, as this checkout's is rulesdoc's), and rulesdoc's name and version say nothing
    about a publisher's site."""
    import tomllib

    try:
        data = tomllib.loads(files.read_text(root / "pyproject.toml", files.MAX_CONFIG_BYTES, root))
    except (RulesdocError, OSError, tomllib.TOMLDecodeError):
        data = {}
    try:
        mkdocs = files.read_text(root / "mkdocs.yml", files.MAX_CONFIG_BYTES, root, utf8_bom=True)
    except (RulesdocError, OSError):
        mkdocs = ""
    found_project = data.get("project")
    project: dict[str, object] = found_project if isinstance(found_project, dict) else {}
    site_name = next((name for name in map(theme.site_name_in, mkdocs.splitlines()) if name), None)
    name = site_name or root.resolve().name
    found_urls = project.get("urls")
    urls: dict[str, object] = found_urls if isinstance(found_urls, dict) else {}
    bugs = ""
    for key, url in urls.items():
        if str(key).lower().replace(" ", "").replace("-", "") in ("issues", "bugtracker", "bugs", "tracker"):
            bugs = str(url)
            break
    if not bugs:
        found = re.search(r"^repo_url:\s*['\"]?(https?://[^\s'\"]+?)/?['\"]?\s*$", mkdocs, re.MULTILINE)
        bugs = f"{found.group(1)}/issues" if found else ""
    return ProjectInfo(name, "", bugs)


EXTRACTED = "extracted"  # the user's cache's folder for extracted templates (rulesdoc.io.cache)


class _JinjaExtraction:
    """Jinja's extractor on the run's one parse of each template (:func:`rulesdoc.i18n.
    jinja_internals.extract`: a build that compiles a template too parses it once), its results
    kept in the user's cache when there is one, by the template's bytes, the options, keywords
    and comment tags, and Jinja's version: parsing the templates was most of an extraction, the
    same every run. An entry that does not load is extracted again; a template that does not
    parse is never kept."""

    def __init__(self, name: str, store: cache.Store | None) -> None:
        self.name = name  # the method babel.cfg gave (jinja2, jinja2.ext:babel_extract, ...)
        self.store = store

    def __call__(
        self, fileobj: BinaryIO, keywords: Iterable[str], comment_tags: Iterable[str], options: dict[str, str]
    ) -> list[Any]:
        data = fileobj.read()
        functions, tags = sorted(keywords), list(comment_tags)
        key = ""
        if self.store is not None:
            options_given = repr(sorted(options.items()))
            key = cache.digest(cache.made_by("jinja2"), repr(functions), repr(tags), options_given, data)
            kept = self.store.read(key)
            if kept is not None:
                with contextlib.suppress(EOFError, ValueError, TypeError):  # damaged: extracted again
                    found = marshal.loads(kept)
                    if isinstance(found, list):
                        return found
        found = [
            (line, function, message, list(comments))
            for line, function, message, comments in jinja_internals.extract(
                io.BytesIO(data), functions, tags, options
            )
        ]
        if self.store is not None:
            self.store.write(key, marshal.dumps(found))
        return found


def extract(root: Path) -> Catalog:
    """Extract every message of the project at ``root`` into a fresh template catalog."""
    # Imported here: Babel's extraction machinery costs ~20 ms that `render` does not need.
    import jinja2
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    mapping = root / "babel.cfg"
    try:
        text = files.read_text(mapping, files.MAX_CONFIG_BYTES, root)
        method_map, options_map = parse_mapping_cfg(io.StringIO(text), filename=str(mapping))  # type: ignore[no-untyped-call]
    except RulesdocError as error:
        raise RulesdocError(f"extraction mapping: {error.message}", error.location) from None
    info = project_info(root)
    catalog = Catalog(
        copyright_holder="",
        msgid_bugs_address=info.bugs,
        creation_date=_epoch(),
        charset="utf-8",
        fuzzy=False,
    )
    catalog.project, catalog.version = info.name, info.version  # Babel's constructor: PROJECT, VERSION
    catalog.header_comment = (
        "# The messages of this site's pages. Do not edit: run `rulesdoc catalog extract`."
    )
    plain_files: set[str] = set()
    extracting: list[str] = []  # the file Babel extracts now

    def note_method(filename: str, given: str | _JinjaExtraction, options: dict[str, str]) -> None:
        method = given.name if isinstance(given, _JinjaExtraction) else given
        # Called before Babel opens the file: a FIFO or a symlink out of the project stops here.
        files.check_regular(root / filename, root)
        # Babel decodes it next: a byte order mark or a non-UTF-8 byte is one line, not a traceback.
        data = files.read_bytes(root / filename, files.MAX_RULES_BYTES, root)
        template = method == "jinja2"
        files.decode_utf8(data, display_path(root / filename), "template " * template, utf8_bom=not template)
        if method in JINJA_METHODS:
            # Jinja's extractor parses the template next (once: issue 30), told not to skip one
            # that does not parse; its error is named below, with this file.
            options["silent"] = "false"
        extracting[:] = [filename]
        if method in PLAIN_TEXT_METHODS:
            plain_files.add(filename.replace(os.sep, "/"))

    def skip_build_dirs(dirpath: str) -> bool:
        name = os.path.basename(dirpath)
        return not name.startswith((".", "_")) and name not in {"site", "build", "node_modules"}

    store = cache.store(EXTRACTED)
    method_map = [
        (pattern, _JinjaExtraction(method, store) if method in JINJA_METHODS else method)
        for pattern, method in method_map
    ]
    found = extract_from_dir(
        str(root),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        callback=note_method,
        strip_comment_tags=True,
        directory_filter=skip_build_dirs,
    )
    try:
        for filename, lineno, message, comments, context in found:
            name = filename.replace(os.sep, "/")
            locations = [(name, lineno)] if lineno else []
            catalog.add(message, None, locations, auto_comments=comments, context=context)
            entry = catalog.get(po.singular(message), context)
            if name in plain_files and entry is not None and (po.singular(message), context) not in FORMATTED:
                entry.flags.discard("python-format")
                entry.flags.add(NO_FORMAT)
    except jinja2.TemplateSyntaxError as error:
        # Jinja's extractor would skip it silently, dropping its messages from the POT and, at the
        # next `catalog update`, every translation of them into #~: its file and line instead.
        where = Location(display_path(root / extracting[-1]), error.lineno)
        raise RulesdocError(f"template syntax error: {error.message}", where) from None
    placement.add_notes(catalog, lambda name: files.read_text(root / name, files.MAX_TEMPLATE_BYTES, root))
    return catalog


def is_values_note(comment: str) -> bool:
    return comment.startswith(VALUES_NOTE)


def set_value_notes(catalog: Catalog, notes: Mapping[po.Key, str]) -> bool:
    """Replace every entry's values note by ``notes``' (none where it has none); whether any changed."""
    changed = False
    for message in catalog:
        if not message.id:
            continue
        note = notes.get(po.key_of(message))
        kept = [c for c in message.auto_comments if not is_values_note(c)]
        wanted = [*kept, note] if note else kept
        if wanted != list(message.auto_comments):
            message.auto_comments, changed = wanted, True
    return changed


def value_notes_of(catalog: Catalog) -> dict[po.Key, str]:
    """The values notes a catalog has (the committed POT's, to keep across an extraction)."""
    found = {}
    for message in catalog:
        notes = [c for c in message.auto_comments if is_values_note(c)] if message.id else []
        if notes:
            found[po.key_of(message)] = notes[0]
    return found


def same_messages(a: bytes, b: bytes) -> bool:
    """Two catalogs' text equal but for the POT-Creation-Date header."""

    def strip(data: bytes) -> bytes:
        return b"\n".join(line for line in data.splitlines() if not line.startswith(b'"POT-Creation-Date:'))

    return strip(a) == strip(b)


def unlocated(catalog: Catalog, headers: Sequence[tuple[str, str]] = ()) -> bytes:
    """A catalog's text with its source references' line numbers left out (``#: mkdocs.yml``),
    for telling whether a POT is stale: a line added above ``theme:`` in mkdocs.yml, or anywhere
    in a template, moves references and changes no message. ``catalog extract`` still writes them.
    Values notes are left out too: a rule change changes them, and no message. Each string is
    one line (no wrapping, as ``msgcat --no-wrap``): finding where a long one would break is
    most of the cost of writing it, and nothing but this comparison (and its diff) reads it."""
    entries = [
        dataclasses.replace(
            entry,
            references=[(name, None) for name, _ in entry.references],
            extracted_comments=[c for c in entry.extracted_comments if not is_values_note(c)],
        )
        for entry in po_writer.entries(catalog, headers)
    ]
    return gettext_po.dumps(entries, gettext_po.NO_WRAP)


def same_content(committed: po.LoadedCatalog, extracted: Catalog) -> bool:
    """The committed POT holds what a fresh extraction gives: the same messages, contexts, plurals,
    flags and comments, in the same files; the references' line numbers and the date aside."""
    return same_messages(unlocated(committed.catalog, committed.headers), unlocated(extracted))


def write_template(root: Path, locales: Path, notes: Mapping[po.Key, str] | None = None) -> tuple[Path, bool]:
    """Write ``messages.pot``; returns whether it changed.

    ``notes``: each message's values note (generator/pages/renderings.py); None keeps the
    committed POT's."""
    path = template_path(locales)
    catalog = extract(root)
    if notes is None and path.is_file():
        notes = value_notes_of(po.load(path, root).catalog)
    set_value_notes(catalog, notes or {})
    data = po_writer.to_bytes(catalog)
    if path.exists():
        old = path.read_bytes()
        # A POT from before dates were real (1970, the epoch of an unset SOURCE_DATE_EPOCH) is rewritten.
        if b'"POT-Creation-Date: 1970-' not in old:
            if same_messages(old, data):
                return path, False
            if same_messages(_without_value_notes(old), _without_value_notes(data)):
                # Only the values notes changed (a rule change): no message did, so the date stays.
                return path, refresh_value_notes(root, locales, notes or {})
    files.write_atomically(path, data, root=root)
    return path, True


def _without_value_notes(data: bytes) -> bytes:
    prefix = f"#. {VALUES_NOTE}".encode()
    return b"\n".join(line for line in data.splitlines() if not line.startswith(prefix))


def refresh_value_notes(root: Path, locales: Path, notes: Mapping[po.Key, str]) -> bool:
    """Give the committed ``messages.pot`` these values notes, its messages and date as they are
    (``catalog update`` merges them into every catalog next); whether it changed."""
    path = template_path(locales)
    if not path.is_file():
        return False
    loaded = po.load(path, root)
    if not set_value_notes(loaded.catalog, notes):
        return False
    files.write_atomically(path, po_writer.to_bytes(loaded.catalog, loaded.headers), root=root)
    return True


def check_sources(root: Path) -> None:
    """Refuse, as ``catalog extract`` does, sources that do not parse (a template's syntax error):
    ``catalog update`` runs it first, so that a POT extracted by another tool, which skipped the
    broken template, cannot make its messages obsolete in every catalog."""
    if os.path.lexists(root / "babel.cfg"):
        extract(root)

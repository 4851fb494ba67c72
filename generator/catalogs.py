"""The gettext workflow on Babel's API: extract, update, compile, init.

``locales/messages.pot`` and ``locales/<lang>/LC_MESSAGES/messages.po`` are the
layout translation platforms read. Extraction covers the templates and the
translatable text of ``rules.yaml`` (see ``babel.cfg`` and :mod:`generator.extract`).
"""

from __future__ import annotations

import io
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import write_po

from generator import __version__
from generator.errors import Location, RulesdocError, display_path
from generator.i18n import DOMAIN, SOURCE_LANGUAGE, catalog_path, parse_locale, read_catalog

COMMENT_TAGS = ("Translators:",)
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
# A fixed date keeps the POT byte-identical between runs; git has the real history.
_EPOCH = datetime.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")), UTC)


def template_path(locales: Path) -> Path:
    return locales / f"{DOMAIN}.pot"


def extract(root: Path) -> Catalog:
    """Extract every message of the project at ``root`` into a fresh template catalog."""
    # Imported here: Babel's extraction machinery costs ~20 ms that `render` does not need.
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    mapping = root / "babel.cfg"
    try:
        with mapping.open(encoding="utf-8") as handle:
            method_map, options_map = parse_mapping_cfg(handle, filename=str(mapping))  # type: ignore[no-untyped-call]
    except OSError:
        raise RulesdocError("extraction mapping not found", Location(display_path(mapping))) from None
    catalog = Catalog(
        project="rulesdoc",
        version=__version__,
        copyright_holder="the rulesdoc authors",
        msgid_bugs_address="",
        creation_date=_EPOCH,
        charset="utf-8",
        fuzzy=False,
    )
    catalog.header_comment = "# Messages of the Rami scoring pages. Do not edit: run `make extract`."

    def skip_build_dirs(dirpath: str) -> bool:
        name = os.path.basename(dirpath)
        return not name.startswith((".", "_")) and name not in {"site", "build", "node_modules"}

    found = extract_from_dir(
        str(root),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
        directory_filter=skip_build_dirs,
    )
    for filename, lineno, message, comments, context in found:
        locations = [(filename.replace(os.sep, "/"), lineno)] if lineno else []
        catalog.add(message, None, locations, auto_comments=comments, context=context)
    return catalog


def po_bytes(catalog: Catalog, **options: bool) -> bytes:
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=0, omit_header=False, **options)
    return buffer.getvalue()


def _write_atomically(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(temporary, path)


def same_messages(a: bytes, b: bytes) -> bool:
    """Two catalogs' text equal but for the POT-Creation-Date header."""

    def strip(data: bytes) -> bytes:
        return b"\n".join(line for line in data.splitlines() if not line.startswith(b'"POT-Creation-Date:'))

    return strip(a) == strip(b)


def write_template(root: Path, locales: Path) -> tuple[Path, bool]:
    """Write ``messages.pot``; returns whether it changed."""
    path = template_path(locales)
    data = po_bytes(extract(root))
    if path.exists() and same_messages(path.read_bytes(), data):
        return path, False
    _write_atomically(path, data)
    return path, True


def load_template(locales: Path) -> Catalog:
    return read_catalog(template_path(locales))


def catalog_codes(locales: Path) -> list[str]:
    return sorted(p.parent.parent.name for p in locales.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def update(locales: Path, codes: list[str] | None = None) -> list[Path]:
    """Merge the template into each catalog: new messages added, changed ones fuzzy, obsolete dropped."""
    template = load_template(locales)
    written = []
    for code in codes or catalog_codes(locales):
        path = catalog_path(locales, code)
        catalog = read_catalog(path)
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        _write_atomically(path, po_bytes(catalog))
        written.append(path)
    return written


def compile_catalogs(locales: Path) -> list[Path]:
    """Write ``messages.mo`` beside each catalog, for tools that want them (the build does not)."""
    written = []
    for code in catalog_codes(locales):
        path = catalog_path(locales, code)
        buffer = io.BytesIO()
        write_mo(buffer, read_catalog(path), use_fuzzy=False)
        mo = path.with_suffix(".mo")
        _write_atomically(mo, buffer.getvalue())
        written.append(mo)
    return written


def init(locales: Path, code: str, locale_code: str | None = None) -> Path:
    """Start a catalog for a new language; its Plural-Forms come from CLDR."""
    if code == SOURCE_LANGUAGE:
        raise RulesdocError(f"{code!r} is the source language; it needs no catalog")
    path = catalog_path(locales, code)
    if path.exists():
        raise RulesdocError("catalog already exists; use `catalog update`", Location(display_path(path)))
    locale = parse_locale(locale_code or code)
    template = load_template(locales)
    catalog = empty_catalog(template, locale)
    catalog.update(template)
    _write_atomically(path, po_bytes(catalog))
    return path


def empty_catalog(template: Catalog, locale: Locale) -> Catalog:
    """A catalog for ``locale`` with the template's project header and CLDR's Plural-Forms."""
    return Catalog(
        locale=locale,
        domain=DOMAIN,
        project=template.project,
        version=template.version,
        creation_date=template.creation_date,
        revision_date=template.creation_date,
        charset="utf-8",
        fuzzy=False,
    )

"""A pseudo-locale, ``en-XA``: every message accented, about 40 % longer and bracketed.

``[Ŵîññéŕ ···]`` reads as English yet is visibly translated, so a page rendered in
it shows at a glance (and to a test) any text that does not come from the catalog,
any layout that breaks with longer words, and any string cut short (a missing ``]``).
Placeholders, ``%%``, HTML tags and entities are left untouched.

The catalog is written to its own folder (default ``build/pseudo/``), never into
``locales/``, which would publish it: ``render --locales build/pseudo`` renders it
beside the English source. Babel has no locale data for the private-use region
``XA``, so the catalog's ``Language`` header is ``en_001`` (English, world): numbers,
lists and plural rules are English ones.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from rulesdoc.catalog import po_writer
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n import catalogs
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.translate import catalog_path
from rulesdoc.io import files
from rulesdoc.io.project import template_path
from rulesdoc.localedata.cldr import PSEUDO_CODE, PSEUDO_LOCALE

DEFAULT_OUT = Path("build/pseudo")

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# Left exactly as they are besides printf placeholders: {name}, Jinja, HTML tags and entities.
_KEEP = re.compile(r"(\{[A-Za-z_]\w*\}|\{\{.*?\}\}|<[^<>]*>|&#?\w+;)")
GROWTH = 0.4
FILLER = "·"


def pseudo_text(text: str) -> str:
    """``Winner`` → ``[Ŵîññéŕ ···]``: accented, padded by about 40 % (at least three dots)."""
    if not text:
        return text
    # Both splits alternate text and kept tokens: odd indexes are kept as they are.
    parts = [
        (piece, bool(i % 2 or j % 2))
        for i, chunk in enumerate(printf.split(text))
        for j, piece in enumerate([chunk] if i % 2 else _KEEP.split(chunk))
    ]
    accented = "".join(piece if kept else piece.translate(_ACCENTED) for piece, kept in parts)
    visible = sum(len(piece) for piece, kept in parts if not kept)
    padding = FILLER * max(3, math.ceil(visible * GROWTH))
    return f"[{accented} {padding}]"


def pseudo_catalog(template: Catalog) -> Catalog:
    """Every message of the template, translated into the pseudo-locale."""
    catalog = catalogs.empty_catalog(template, Locale.parse(PSEUDO_LOCALE))
    catalog.language_team = f"{PSEUDO_CODE} (pseudo-locale, generated: do not translate)"
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (tuple, list)):
            # en_001 has English plural rules: form 0 for one, form 1 for the rest.
            string: str | tuple[str, ...] = tuple(
                pseudo_text(text) for text in message.id[: catalog.num_plurals]
            )
        else:
            string = pseudo_text(message.id)
        catalog.add(
            message.id,
            string,
            locations=message.locations,
            flags=message.flags,
            auto_comments=message.auto_comments,
            context=message.context,
        )
    return catalog


def write_pseudo(locales: Path, out: Path = DEFAULT_OUT) -> Path:
    """Write ``out/en-XA/LC_MESSAGES/messages.po`` (and a copy of messages.pot for the status page)."""
    if out.resolve() == locales.resolve():
        # en-XA in the project's catalogs would be published by the next strict build.
        raise RulesdocError(
            "the pseudo-locale is never written into the project's catalogs; choose another --out",
            Location(display_path(out)),
        )
    template = catalogs.load_template(locales)
    catalog = pseudo_catalog(template.catalog)
    path = catalog_path(out, PSEUDO_CODE)
    files.write_atomically(path, po_writer.to_bytes(catalog))
    files.write_atomically(template_path(out), template.path.read_bytes())
    return path

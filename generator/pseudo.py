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
import shutil
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from generator import catalogs
from generator.i18n import (
    SOURCE_LANGUAGE,
    Language,
    catalog_locale,
    catalog_path,
    read_catalog,
)

PSEUDO_CODE = "en-XA"  # the folder and the site's code; XA is a private-use region
PSEUDO_LOCALE = "en_001"  # what Babel formats with: it knows no en_XA
DEFAULT_OUT = Path("build/pseudo")

_ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
# Left exactly as they are: printf placeholders, %%, {name}, Jinja, HTML tags and entities.
_KEEP = re.compile(
    r"(%\([^()]*\)[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|%%|\{[A-Za-z_]\w*\}|\{\{.*?\}\}|<[^<>]*>|&#?\w+;)"
)
GROWTH = 0.4
FILLER = "·"


def pseudo_text(text: str) -> str:
    """``Winner`` → ``[Ŵîññéŕ ···]``: accented, padded by about 40 % (at least three dots)."""
    if not text:
        return text
    parts = _KEEP.split(text)
    # split() with a group alternates text and kept tokens: odd indexes are kept as they are.
    accented = "".join(part if i % 2 else part.translate(_ACCENTED) for i, part in enumerate(parts))
    visible = sum(len(part) for i, part in enumerate(parts) if not i % 2)
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
    template_file = catalogs.template_path(locales)
    catalog = pseudo_catalog(read_catalog(template_file))
    path = catalog_path(out, PSEUDO_CODE)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(catalogs.po_bytes(catalog))
    shutil.copyfile(template_file, catalogs.template_path(out))
    return path


def load_language(locales: Path, code: str) -> Language:
    """One catalog's language, as :func:`generator.i18n.discover_languages` builds it.

    The pseudo-locale's folder code names no locale Babel knows: its header's does.
    """
    path = catalog_path(locales, code)
    catalog = read_catalog(path)
    folder = PSEUDO_LOCALE if code == PSEUDO_CODE else code
    return Language(code, catalog_locale(catalog, path, folder), path)


def discover_languages(locales: Path) -> list[Language]:
    """The source language, then every catalog in ``locales`` (the pseudo-locale's too)."""
    source = Language(SOURCE_LANGUAGE, Locale.parse(SOURCE_LANGUAGE), None)
    codes = [code for code in catalogs.catalog_codes(locales) if code != SOURCE_LANGUAGE]
    return [source, *(load_language(locales, code) for code in codes)]

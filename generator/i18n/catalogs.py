"""The gettext workflow on Babel's API: extract, update, compile, init.

``locales/messages.pot`` and ``locales/<code>/LC_MESSAGES/messages.po`` are the layout
translation platforms read. Extraction covers the templates, the translatable text of
``rules.yaml`` and the theme's UI strings (``babel.cfg``, :mod:`generator.i18n.extract`).

No command loses a translation: ``update`` keeps a message the source dropped as an
obsolete ``#~`` entry (and brings it back if the source does), keeps the previous
msgid (``#|``) on fuzzy entries, refuses a POT that lost most of the messages unless
forced, and leaves a catalog whose messages did not change untouched. Every write is
atomic and keeps the file's mode.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from generator import __version__
from generator.errors import Location, RulesdocError, display_path
from generator.i18n import plurals, po, po_writer, theme
from generator.i18n.cldr import canonical, parse_locale
from generator.i18n.material_partials import material_code, material_strings
from generator.i18n.theme import THEME_CONTEXT
from generator.i18n.translate import SOURCE_LANGUAGE, catalog_codes, catalog_path, language_of
from generator.i18n.verdicts import NO_FORMAT, THEME_ORIGIN, from_theme
from generator.io import files
from generator.io.project import DOMAIN, template_path

COMMENT_TAGS = ("Translators:",)
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
PLAIN_TEXT_METHODS = {"rulesdoc_rules"}  # their texts are never %-formatted: a "%" is a percent sign
SHRINK_LIMIT = 0.5  # an update that would make more than half of a catalog obsolete needs --force


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
    """From ``pyproject.toml`` ([project] name, version, urls) and ``mkdocs.yml`` (repo_url)."""
    import tomllib

    name, version, bugs = "rulesdoc", __version__, ""
    try:
        data = tomllib.loads(files.read_text(root / "pyproject.toml", files.MAX_CONFIG_BYTES, root))
    except (RulesdocError, OSError, tomllib.TOMLDecodeError):
        data = {}
    found_project = data.get("project")
    project: dict[str, object] = found_project if isinstance(found_project, dict) else {}
    name = str(project.get("name") or name)
    version = str(project.get("version") or version)
    found_urls = project.get("urls")
    urls: dict[str, object] = found_urls if isinstance(found_urls, dict) else {}
    for key, url in urls.items():
        if str(key).lower().replace(" ", "").replace("-", "") in ("issues", "bugtracker", "bugs", "tracker"):
            bugs = str(url)
            break
    if not bugs:
        try:
            mkdocs = files.read_text(root / "mkdocs.yml", files.MAX_CONFIG_BYTES, root, utf8_bom=True)
        except (RulesdocError, OSError):
            mkdocs = ""
        found = re.search(r"^repo_url:\s*['\"]?(https?://[^\s'\"]+?)/?['\"]?\s*$", mkdocs, re.MULTILINE)
        bugs = f"{found.group(1)}/issues" if found else ""
    return ProjectInfo(name, version, bugs)


def extract(root: Path) -> Catalog:
    """Extract every message of the project at ``root`` into a fresh template catalog."""
    # Imported here: Babel's extraction machinery costs ~20 ms that `render` does not need.
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
        project=info.name,
        version=info.version,
        copyright_holder="",
        msgid_bugs_address=info.bugs,
        creation_date=_epoch(),
        charset="utf-8",
        fuzzy=False,
    )
    catalog.header_comment = (
        "# The messages of this site's pages. Do not edit: run `rulesdoc catalog extract`."
    )
    plain_files: set[str] = set()

    def note_method(filename: str, method: str, options: dict[str, str]) -> None:
        # Called before Babel opens the file: a FIFO or a symlink out of the project stops here.
        files.check_regular(root / filename, root)
        # Babel decodes it next: a byte order mark or a non-UTF-8 byte is one line, not a traceback.
        data = files.read_bytes(root / filename, files.MAX_RULES_BYTES, root)
        template = method == "jinja2"
        files.decode_utf8(data, display_path(root / filename), "template " * template, utf8_bom=not template)
        if method in PLAIN_TEXT_METHODS:
            plain_files.add(filename.replace(os.sep, "/"))

    def skip_build_dirs(dirpath: str) -> bool:
        name = os.path.basename(dirpath)
        return not name.startswith((".", "_")) and name not in {"site", "build", "node_modules"}

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
    for filename, lineno, message, comments, context in found:
        name = filename.replace(os.sep, "/")
        locations = [(name, lineno)] if lineno else []
        catalog.add(message, None, locations, auto_comments=comments, context=context)
        entry = catalog.get(po.singular(message), context)
        if name in plain_files and entry is not None:
            entry.flags.discard("python-format")
            entry.flags.add(NO_FORMAT)
    return catalog


def same_messages(a: bytes, b: bytes) -> bool:
    """Two catalogs' text equal but for the POT-Creation-Date header."""

    def strip(data: bytes) -> bytes:
        return b"\n".join(line for line in data.splitlines() if not line.startswith(b'"POT-Creation-Date:'))

    return strip(a) == strip(b)


def write_template(root: Path, locales: Path) -> tuple[Path, bool]:
    """Write ``messages.pot``; returns whether it changed."""
    path = template_path(locales)
    data = po_writer.to_bytes(extract(root))
    if path.exists():
        old = path.read_bytes()
        # A POT from before dates were real (1970, the epoch of an unset SOURCE_DATE_EPOCH) is rewritten.
        if same_messages(old, data) and b'"POT-Creation-Date: 1970-' not in old:
            return path, False
    files.write_atomically(path, data, root=root)
    return path, True


def load_template(locales: Path, root: Path | None = None) -> po.LoadedCatalog:
    path = template_path(locales)
    if not path.is_file():
        raise RulesdocError(
            "messages.pot not found: run `rulesdoc catalog extract`", Location(display_path(path))
        )
    return po.load(path, root)


# ---------------------------------------------------------------- update


@dataclass(frozen=True)
class Update:
    """What ``catalog update`` did to one catalog."""

    path: Path
    new: int
    fuzzy: int  # newly fuzzy: a changed English source, the previous one kept as #|
    obsolete: int  # newly obsolete: kept as #~, back when the source brings the message back
    revived: int  # obsolete entries the source brought back
    header: str = ""  # "" or what was done to the Plural-Forms header
    written: bool = False

    def summary(self) -> str:
        if not self.written:
            return "up to date"
        parts = [f"{n} {what}" for n, what in ((self.new, "new"), (self.fuzzy, "fuzzy"),
                 (self.obsolete, "obsolete"), (self.revived, "restored")) if n]  # fmt: skip
        return ", ".join(([self.header] if self.header else []) + parts) or "updated (comments or order)"


def update(
    locales: Path,
    codes: Sequence[str] = (),
    *,
    force: bool = False,
    cldr_plural_forms: bool = False,
    root: Path | None = None,
) -> list[Update]:
    """Merge the template into each catalog (or the chosen ones)."""
    template = load_template(locales, root).catalog
    chosen = [canonical(code) for code in codes] if codes else catalog_codes(locales)
    loaded = {code: po.load(catalog_path(locales, code), root) for code in chosen}
    for code, catalog in loaded.items():  # refuse before writing anything
        _refuse_shrinking(catalog, template, force)
        language_of(catalog, code)
    return [_update_one(catalog, template, cldr_plural_forms, root) for catalog in loaded.values()]


def _refuse_shrinking(loaded: po.LoadedCatalog, template: Catalog, force: bool) -> None:
    kept = {po.key_of(m) for m in template if m.id}
    translated = [m for m in loaded.messages() if any(po.forms(m.string))]
    lost = [m for m in translated if po.key_of(m) not in kept]
    if not force and translated and len(lost) > SHRINK_LIMIT * len(translated):
        raise RulesdocError(
            f"messages.pot lacks {len(lost)} of the {len(translated)} translated messages of this catalog: "
            "a template folder moved or a bad extraction? Run `rulesdoc catalog extract` from the project, "
            "or `catalog update --force` if the messages really went (they are kept as #~ obsolete)",
            Location(loaded.shown),
        )


def _update_one(
    loaded: po.LoadedCatalog, template: Catalog, cldr_plural_forms: bool, root: Path | None
) -> Update:
    catalog = loaded.catalog
    before = {po.key_of(m): m.fuzzy for m in loaded.messages()}
    obsolete_before = set(catalog.obsolete)
    revived: set[po.Key] = set()
    wanted = {po.key_of(m) for m in template if m.id}
    for key, message in list(catalog.obsolete.items()):  # a message the source brings back
        if po.key_of(message) in wanted:
            del catalog.obsolete[key]
            catalog[message.id] = message
            revived.add(po.key_of(message))
    header = _plural_header(loaded, cldr_plural_forms)
    catalog.update(template, update_header_comment=False, update_creation_date=True)
    # The header speaks for the project as the template does (name, version, bugs address).
    catalog.project, catalog.version = template.project, template.version
    catalog.msgid_bugs_address = template.msgid_bugs_address
    # A revived theme message keeps the translator's wording: only messages new to the
    # catalog start from Material's.
    prefill_theme(catalog, set(before) | revived)
    after = {po.key_of(m): m for m in catalog if m.id}
    imported = {key for key, m in after.items() if m.fuzzy and from_theme(m)}  # Material's, to review
    added = [key for key, m in after.items() if key not in before and (not m.fuzzy or key in imported)]
    new = sum(1 for key in added if key not in revived)
    reworded = {key for key, m in after.items() if m.fuzzy and key not in imported}
    fuzzy = sum(1 for key in reworded if not before.get(key, False))
    obsolete = len(set(catalog.obsolete) - obsolete_before)
    data = po_writer.to_bytes(catalog, loaded.headers)
    old = loaded.path.read_bytes()
    changed = not same_messages(old, data)
    if changed:
        files.write_atomically(loaded.path, data, root=root)
    return Update(loaded.path, new, fuzzy, obsolete, len(revived), header, changed)


def _plural_header(loaded: po.LoadedCatalog, to_cldr: bool) -> str:
    """Set CLDR's Plural-Forms on request, moving each entry's forms to the forms that mean the same."""
    catalog = loaded.catalog
    if catalog.locale is None:
        return ""
    target = plurals.cldr(catalog.locale)
    current = loaded.plural_forms
    if not to_cldr:
        if current is None:
            raise RulesdocError(
                f"{loaded.plural_error}: run `catalog update --lang {catalog.locale} --plural-forms cldr` "
                f"to set CLDR's ({target.header})",
                loaded.header_location("Plural-Forms"),
            )
        return ""
    if current is not None and current.header == target.header:
        return ""
    for message in catalog:
        if message.id and message.pluralizable:
            written = loaded.forms_written.get(po.key_of(message))
            texts = po.forms(message.string)[:written]  # Babel pads a short entry with ""
            message.string = plurals.remap_forms(texts, current, target)
    set_plural_forms(catalog, target)
    return f"Plural-Forms set to CLDR's ({target.count} forms)"


# ---------------------------------------------------------------- init (compile: generator.i18n.mo)


def init(locales: Path, code: str, locale_code: str | None = None, root: Path | None = None) -> Path:
    """Start a catalog for a new language; its Plural-Forms come from CLDR."""
    folder = canonical(code)
    if folder == SOURCE_LANGUAGE:
        raise RulesdocError(f"{code!r} is the source language; it needs no catalog")
    path = catalog_path(locales, folder)
    existing = {c.lower().replace("-", "_"): c for c in catalog_codes(locales)}
    if path.exists() or folder.lower() in existing:
        where = catalog_path(locales, existing.get(folder.lower(), folder))
        raise RulesdocError("catalog already exists; use `catalog update`", Location(display_path(where)))
    locale = parse_locale(locale_code or folder)
    if locale.language != parse_locale(folder).language:
        raise RulesdocError(f"--locale {locale_code!r} is not a form of {folder!r}")
    template = load_template(locales, root).catalog
    catalog = empty_catalog(template, locale)
    catalog.update(template)
    catalog.msgid_bugs_address = template.msgid_bugs_address
    prefill_theme(catalog, set())
    files.write_atomically(path, po_writer.to_bytes(catalog), root=root)
    return path


def prefill_theme(catalog: Catalog, known: set[po.Key]) -> None:
    """New theme messages start from Material's own translation for the language, where it has one.

    Babel's fuzzy matching would guess them from the page's sentences ("Table of contents"
    from "ten of hearts"): a theme string is never a variant of one of ours. An imported
    translation is nobody's review: it carries its origin (a translator comment) and the fuzzy
    flag, which the translator removes to confirm it (:func:`generator.i18n.verdicts.from_theme`).
    """
    tag = str(catalog.locale).replace("_", "-") if catalog.locale else ""
    code = material_code(tag) if tag else None
    theirs = material_strings(code) if code else None
    by_english = {m.english: m.key for m in theme.messages()}
    for message in catalog:
        if message.context != THEME_CONTEXT or po.key_of(message) in known or not message.id:
            continue
        material = (theirs or {}).get(by_english.get(po.singular(message.id), ""), "")
        message.string = material
        message.previous_id = []
        message.user_comments = [c for c in message.user_comments if c.strip() != THEME_ORIGIN]
        if material:
            message.flags.add("fuzzy")
            message.user_comments.append(THEME_ORIGIN)
        else:
            message.flags.discard("fuzzy")


def empty_catalog(template: Catalog, locale: Locale) -> Catalog:
    """A catalog for ``locale`` with the template's project header and CLDR's Plural-Forms."""
    rule = plurals.cldr(locale)
    catalog = Catalog(
        locale=locale,
        domain=DOMAIN,
        project=template.project,
        version=template.version,
        creation_date=template.creation_date,
        revision_date=template.creation_date,
        charset="utf-8",
        fuzzy=False,
        header_comment=(
            f"# {locale.english_name} translations of the {template.project} pages.\n"
            f"# This file is distributed under the same license as the {template.project} project."
        ),
    )
    set_plural_forms(catalog, rule)
    return catalog


def set_plural_forms(catalog: Catalog, rule: plurals.PluralForms) -> None:
    """Through Babel's public header setter: a Plural-Forms field sets num_plurals and plural_expr
    (only the fields given are read; the catalog's other header fields stay)."""
    catalog.mime_headers = [("Plural-Forms", rule.header)]

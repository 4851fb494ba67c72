"""The gettext workflow on Babel's API: extract, update, compile, init.

``locales/messages.pot`` and ``locales/<code>/LC_MESSAGES/messages.po`` are the layout
translation platforms read. Extraction covers the templates, the translatable text of
``rules.yaml`` and the theme's UI strings (``babel.cfg``, :mod:`rulesdoc.i18n.extraction`);
``update`` first refuses what extraction refuses (a template that does not parse).

No command loses a translation: ``update`` keeps a message the source dropped as an
obsolete ``#~`` entry (and brings it back if the source does), keeps the previous
msgid (``#|``) on fuzzy entries, refuses a POT that lost most of the messages unless
forced, and leaves a catalog whose messages did not change untouched. Every write is
atomic and keeps the file's mode.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel import Locale
from babel.messages.catalog import Catalog

from rulesdoc.catalog import plurals, po, po_writer
from rulesdoc.catalog.budget import Budget
from rulesdoc.catalog.layout import check_layout
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n import theme
from rulesdoc.i18n.extraction import (
    check_sources,
    project_info,
    same_messages,
)
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import SOURCE_LANGUAGE, catalog_codes, catalog_path, language_of
from rulesdoc.i18n.verdicts import THEME_ORIGIN, from_theme
from rulesdoc.io import files
from rulesdoc.io.project import DOMAIN, template_path
from rulesdoc.localedata.cldr import canonical, parse_locale
from rulesdoc.localedata.material_partials import material_code, material_strings

# Babel's fuzzy matching compares each new message with every translated one (difflib, quadratic
# in their lengths): a 4 MiB catalog of 85,000 entries against 200 new ones took 30 s. Past this
# many comparisons in a run (all its catalogs together: seven catalogs of 3,700 entries each,
# each under a million, took `report` 25 s; a million in all, 11.7 s beside reading 25,000
# entries twice) a catalog is merged without it, and `catalog update` says so.
MAX_FUZZY_COMPARISONS = 500_000
SHRINK_LIMIT = 0.5  # an update that would make more than half of a catalog obsolete needs --force


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
    comparisons: int = 0  # the fuzzy matching skipped: this many comparisons, past the bound
    room: int | None = None  # the comparisons the run had left for this catalog (None: all of them)

    def summary(self) -> str:
        if not self.written:
            return "up to date"
        parts = [f"{n} {what}" for n, what in ((self.new, "new"), (self.fuzzy, "fuzzy"),
                 (self.obsolete, "obsolete"), (self.revived, "restored")) if n]  # fmt: skip
        if self.comparisons:
            bound = (
                f"{MAX_FUZZY_COMPARISONS:,}"
                if self.room is None or self.room >= MAX_FUZZY_COMPARISONS
                else f"the {self.room:,} left of a run's {MAX_FUZZY_COMPARISONS:,}"
            )
            parts.append(
                f"no fuzzy matching ({self.comparisons:,} comparisons, over {bound}): "
                "new messages start untranslated"
            )
        return ", ".join(([self.header] if self.header else []) + parts) or "updated (comments or order)"


@dataclass
class FuzzyBudget:
    """The fuzzy matching one run may do, over all the catalogs it merges."""

    left: int = field(default_factory=lambda: MAX_FUZZY_COMPARISONS)


def merge(catalog: Catalog, template: Catalog, budget: FuzzyBudget | None = None, **options: bool) -> int:
    """Babel's ``Catalog.update``, its fuzzy matching left out past what ``budget`` (the run's,
    MAX_FUZZY_COMPARISONS in all) has left; returns the comparisons it would have made then, else 0."""
    budget = budget or FuzzyBudget()
    new = sum(1 for m in template if m.id and catalog.get(m.id, m.context) is None)
    comparisons = new * sum(1 for m in catalog if m.id and m.string)
    skip = comparisons > budget.left
    if not skip:
        budget.left -= comparisons
    catalog.update(template, no_fuzzy_matching=skip, **options)
    return comparisons if skip else 0


def update(
    locales: Path,
    codes: Sequence[str] = (),
    *,
    force: bool = False,
    cldr_plural_forms: bool = False,
    root: Path | None = None,
) -> list[Update]:
    """Merge the template into each catalog (or the chosen ones)."""
    check_layout(locales)
    check_sources(root if root is not None else locales.parent)  # a broken template: its messages stay
    pot = load_template(locales, root)
    template = pot.catalog
    chosen = [canonical(code) for code in codes] if codes else catalog_codes(locales)
    budget = Budget.against(pot)  # refused as check refuses, before any merging
    loaded = {code: budget.take(po.load(catalog_path(locales, code), root)) for code in chosen}
    for code, catalog in loaded.items():  # refuse before writing anything
        _refuse_shrinking(catalog, template, force)
        language_of(catalog, code)
    fuzzy = FuzzyBudget()
    return [
        _update_one(catalog, template, cldr_plural_forms, root, _repair_header(catalog, code), fuzzy)
        for code, catalog in loaded.items()
    ]


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


def _repair_header(loaded: po.LoadedCatalog, code: str) -> list[str]:
    """Put back a header field the catalog lost, from its folder's code and CLDR, and say so.

    Without ``Language`` Babel writes the catalog back with no Plural-Forms either; without
    ``Plural-Forms`` no plural message can show. Both are known from the folder: repaired, not
    refused. A Plural-Forms that is there but wrong stays the translator's (an error of check).
    """
    catalog, done = loaded.catalog, []
    if catalog.locale is None:
        catalog.locale = parse_locale(code)
        done.append(f"Language set to {code!r} (its folder)")
    if "Plural-Forms" not in loaded.header_lines and catalog.locale is not None:
        rule = plurals.cldr(catalog.locale)
        set_plural_forms(catalog, rule)
        for message in catalog:  # the forms as written, as many as the rule has
            if message.id and message.pluralizable:
                written = po.forms(message.string)[: loaded.forms_written.get(po.key_of(message))]
                message.string = tuple((list(written) + [""] * rule.count)[: rule.count])
        done.append(f"Plural-Forms set to CLDR's ({rule.count} forms), the header had none")
    return done


def _update_one(
    loaded: po.LoadedCatalog,
    template: Catalog,
    cldr_plural_forms: bool,
    root: Path | None,
    repaired: Sequence[str] = (),
    fuzzy_budget: FuzzyBudget | None = None,
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
    plural = (
        "" if any("Plural-Forms" in line for line in repaired) else _plural_header(loaded, cldr_plural_forms)
    )
    header = "; ".join([*repaired, plural] if plural else repaired)
    fuzzy_budget = fuzzy_budget or FuzzyBudget()
    room = fuzzy_budget.left
    comparisons = merge(
        catalog, template, fuzzy_budget, update_header_comment=False, update_creation_date=True
    )
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
    return Update(loaded.path, new, fuzzy, obsolete, len(revived), header, changed, comparisons, room)


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


# ---------------------------------------------------------------- init (compile: rulesdoc.i18n.mo)


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
    catalog = empty_catalog(template, locale, project_info(root or locales.parent).name)
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
    flag, which the translator removes to confirm it (:func:`rulesdoc.i18n.verdicts.from_theme`).
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


def empty_catalog(template: Catalog, locale: Locale, site_name: str = "") -> Catalog:
    """A catalog for ``locale`` with the template's project header and CLDR's Plural-Forms.

    ``site_name``: the project's (:func:`project_info`), for the header comment; Babel reads a
    Project-Id-Version "My game help" as project "My game", version "help"."""
    rule = plurals.cldr(locale)
    name = site_name or f"{template.project} {template.version}".strip()
    catalog = Catalog(
        locale=locale,
        domain=DOMAIN,
        creation_date=template.creation_date,
        revision_date=template.creation_date,
        charset="utf-8",
        fuzzy=False,
        header_comment=f"# {locale.english_name} translations of the {name} pages.",
    )
    # Set after: Babel's constructor writes PROJECT and VERSION for empty ones.
    catalog.project, catalog.version = template.project, template.version
    set_plural_forms(catalog, rule)
    return catalog


def set_plural_forms(catalog: Catalog, rule: plurals.PluralForms) -> None:
    """Through Babel's public header setter: a Plural-Forms field sets num_plurals and plural_expr
    (only the fields given are read; the catalog's other header fields stay)."""
    catalog.mime_headers = [("Plural-Forms", rule.header)]

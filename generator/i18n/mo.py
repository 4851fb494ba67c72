"""``catalog compile``: a ``messages.mo`` beside each catalog, for tools that want one (the build does not).

A ``.mo`` carries the catalog's Plural-Forms for gettext to evaluate: one that cannot be used
(a rule that divides by zero, one that picks a form past ``nplurals``) or an entry with
another number of forms than it declares makes Python's gettext raise, so, as ``msgfmt -c``,
compile refuses the catalog in ``check``'s words and writes no ``.mo`` at all.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.mofile import write_mo

from rulesdoc.catalog import po
from rulesdoc.catalog.budget import Budget
from rulesdoc.errors import Location, RulesdocError
from rulesdoc.i18n.translate import catalog_codes, catalog_path
from rulesdoc.io import files
from rulesdoc.io.project import template_path


def compile_catalogs(locales: Path, root: Path | None = None) -> list[Path]:
    """Write ``messages.mo`` beside each catalog, once every catalog has passed."""
    pot = template_path(locales)  # the run's budget counts as check counts: against the template
    budget = Budget.against(po.load(pot, root) if pot.is_file() else None)
    loaded = [budget.take(po.load(catalog_path(locales, code), root)) for code in catalog_codes(locales)]
    for catalog in loaded:
        refuse_unusable_plurals(catalog)
    written = []
    for catalog in loaded:
        buffer = io.BytesIO()
        write_mo(buffer, catalog.catalog, use_fuzzy=False)
        mo = catalog.path.with_suffix(".mo")
        files.write_atomically(mo, buffer.getvalue(), root=root)
        written.append(mo)
    return written


def refuse_unusable_plurals(loaded: po.LoadedCatalog) -> None:
    """What gettext cannot evaluate: the header's rule, or an entry's count of forms."""
    if loaded.plural_forms is None:
        raise RulesdocError(
            f"[plural-forms] {loaded.plural_error}; no .mo written",
            loaded.header_location("Plural-Forms"),
        )
    for message in loaded.messages():
        key = po.key_of(message)
        written = loaded.forms_written.get(key)
        if message.pluralizable and written != loaded.plural_forms.count:
            raise RulesdocError(
                f"[plural-forms] has {written} plural form(s), the Plural-Forms header says "
                f"{loaded.plural_forms.count}; no .mo written",
                Location(loaded.shown, loaded.line_of(key)),
            )

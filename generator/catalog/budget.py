"""The run's budget: how much catalog work one run takes on (issue 32), counted as each catalog
is loaded (:func:`rulesdoc.catalog.po.load`), so that every command refuses the same set of
catalogs in the same words, before the work that grows with them."""

from __future__ import annotations

from dataclasses import dataclass

from rulesdoc.catalog.po import Key, LoadedCatalog, key_of
from rulesdoc.errors import Location, RulesdocError

# Documented limits (manual/publishing.md, "Untrusted input"): a catalog is bounded by its size
# (files.MAX_CATALOG_BYTES), a run by these. Our five catalogs and template come to about 1,500
# entries; 25,000 is what check, render, report and catalog update get through within 10 s here.
MAX_RUN_ENTRIES = 25_000
MAX_RUN_CATALOGS = 50  # languages beside the source one; each costs its pages and its status lists


class CatalogBudgetError(RulesdocError):
    """A run's catalogs past :data:`MAX_RUN_ENTRIES` or :data:`MAX_RUN_CATALOGS`: never a language
    left out (``check --lang nl`` leaves out a broken catalog it was not asked about, not this)."""


@dataclass
class Budget:
    """The one count of the catalog work of a run, taken as each catalog is loaded.

    Every command that reads the catalogs (check, render, the MkDocs build, catalog update and
    compile, report) loads them through one :class:`Budget`, so that a set of catalogs one
    refuses, all refuse, in the same words, before the work that grows with them (judging,
    rendering, merging). A language works through its catalog's entries (obsolete ones are
    read too) and the template's messages its catalog lacks (each shows in English and is
    listed as waiting): those are what it counts.
    """

    template: frozenset[Key] = frozenset()
    used: int = 0
    catalogs: int = 0

    @classmethod
    def against(cls, template: LoadedCatalog | None) -> Budget:
        """A budget for catalogs judged against ``template`` (messages.pot; None: none)."""
        if template is None:
            return cls()
        return cls(frozenset(key_of(m) for m in template.messages()))

    def take(self, loaded: LoadedCatalog) -> LoadedCatalog:
        """Count ``loaded``; past a limit, refuse it, naming the entry where the count crossed it."""
        self.catalogs += 1
        if self.catalogs > MAX_RUN_CATALOGS:
            raise CatalogBudgetError(
                f"one catalog too many: a run reads at most {MAX_RUN_CATALOGS} catalogs (languages); "
                "see the limits in manual/publishing.md",
                Location(loaded.shown),
            )
        own = len(loaded.entry_lines)
        lacking = len(self.template.difference(loaded.lines)) if self.template else 0
        total = self.used + own + lacking
        if total > MAX_RUN_ENTRIES:
            room = MAX_RUN_ENTRIES - self.used  # the entry that crossed the limit, if it is one of the file's
            line = loaded.entry_lines[room] if 0 <= room < own else None
            raise CatalogBudgetError(
                f"the catalogs come to {total:,} entries with this one, over the {MAX_RUN_ENTRIES:,} "
                "a run reads (each catalog's entries, and the template's messages it lacks); "
                "see the limits in manual/publishing.md",
                Location(loaded.shown, line),
            )
        self.used = total
        return loaded

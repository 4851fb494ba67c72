"""How far each language's translation is: the one count of a catalog against messages.pot.

``check``'s counts and the translation policy's threshold, the status page's table, and each
language's list of the messages it still shows in English (with the catalog line a translator
opens) all read the :class:`CatalogStats` that :func:`count` makes: no two of them count apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from rulesdoc.catalog.po import Key
from rulesdoc.i18n.translate import Language
from rulesdoc.i18n.verdicts import Status, Verdict
from rulesdoc.io.project import DOMAIN


@dataclass(frozen=True)
class Waiting:
    """A message a language still shows in English, for the status page's list per language."""

    msgid: str
    context: str | None
    status: Status  # FUZZY or UNTRANSLATED (missing, empty or refused)
    where: str  # "locales/da/LC_MESSAGES/messages.po:123", or the catalog alone if it lacks the entry
    note: str  # the POT's note to translators (#.): where the message shows, what fills it
    refused: bool = False  # translated, but the page cannot use it (check says why, on its line)
    page: str | None = None  # the page it first shows on ("scoring.md"), if it shows on one
    anchor: str = ""  # the heading anchor of its section there, in the language ("" : the top)


@dataclass(frozen=True)
class CatalogStats:
    code: str
    name: str
    translated: int
    fuzzy: int
    untranslated: int
    unreviewed: int = 0  # imported from the theme, not yet confirmed: shown, but not counted translated
    waiting: tuple[Waiting, ...] = ()  # the fuzzy and untranslated messages, in the POT's order

    @property
    def total(self) -> int:
        return self.translated + self.fuzzy + self.untranslated + self.unreviewed

    @property
    def complete(self) -> float:
        return self.translated / self.total if self.total else 1.0

    @property
    def in_language(self) -> int:
        """The messages readers see in the language: translated, and theme strings imported
        unreviewed (the policy's threshold counts these, the status page's share does not)."""
        return self.translated + self.unreviewed


def count(
    language: Language,
    template_keys: Sequence[Key],
    verdicts: Mapping[Key, Verdict],
    notes: Mapping[Key, str] | None = None,
) -> CatalogStats:
    """The one count: every message of messages.pot, as the page would show it, and the list
    of those a translator can still help with (``notes``: the POT's notes to translators)."""
    if language.is_source:
        return CatalogStats(language.code, language.name, len(template_keys), 0, 0)
    counts = dict.fromkeys(Status, 0)
    waiting = []
    where = _catalog_where(language)
    for key in template_keys:
        verdict = verdicts.get(key)
        status = verdict.status if verdict is not None else Status.UNTRANSLATED
        counts[status] += 1
        if status in (Status.FUZZY, Status.UNTRANSLATED):
            refused = verdict is not None and bool(verdict.problems)
            waiting.append(_waiting(language, where, key, status, (notes or {}).get(key, ""), refused))
    return CatalogStats(
        language.code,
        language.name,
        counts[Status.TRANSLATED],
        counts[Status.FUZZY],
        counts[Status.UNTRANSLATED],
        counts[Status.UNREVIEWED],
        tuple(waiting),
    )


def _catalog_where(language: Language) -> str:
    # The path inside the project, as a translator's clone has it (never this machine's path):
    # <locales>/<code>/LC_MESSAGES/messages.po, whatever the project calls its locales folder.
    catalog = language.catalog
    if catalog is not None:
        return PurePosixPath(*catalog.path.parts[-4:]).as_posix()
    return f"locales/{language.code}/LC_MESSAGES/{DOMAIN}.po"


def _waiting(
    language: Language, where: str, key: Key, status: Status, note: str, refused: bool = False
) -> Waiting:
    """``where``: the catalog's path (:func:`_catalog_where`), the same for all its messages."""
    catalog = language.catalog
    line = catalog.line_of(key) if catalog is not None else None
    return Waiting(key[0], key[1], status, where if line is None else f"{where}:{line}", note, refused)

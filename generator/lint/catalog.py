"""Checks of a whole catalog: stale, completeness, plural forms, glossary coverage."""

from __future__ import annotations

import difflib
import math
from collections.abc import Iterator
from fractions import Fraction

from rulesdoc.catalog import layout, plurals
from rulesdoc.catalog.po import Key, key_of
from rulesdoc.errors import display_path, short
from rulesdoc.i18n import extraction
from rulesdoc.i18n.policy import CONFIG_NAME
from rulesdoc.i18n.verdicts import Rule, Status
from rulesdoc.lint.inputs import GLOSSARY_NAME, Subject
from rulesdoc.lint.model import FIX, Finding, Severity
from rulesdoc.lint.registry import Category, check

UPDATE = "run `rulesdoc catalog update`"
EXTRACT = "run `rulesdoc catalog extract`"


@check("stale", category=Category.CATALOG)
def stale(subject: Subject) -> Iterator[Finding]:
    """messages.pot is what extraction gives now; every catalog holds exactly the POT's messages."""
    template = subject.shared.workspace.template
    if template is None:  # gather() refuses to start without one
        raise RuntimeError("the stale check ran without messages.pot")
    if subject.is_source:
        yield from _stale_template(subject)
        return
    pot = {key_of(m): m for m in template.messages()}
    for key, source in pot.items():
        entry = subject.language.catalog.catalog.get(*key) if subject.language.catalog else None
        if entry is None:
            yield subject.finding(
                f"missing from the catalog (messages.pot line {source.lineno}): {UPDATE}", msgid=key[0]
            )
        elif bool(source.pluralizable) != bool(entry.pluralizable):
            kind = "plural" if source.pluralizable else "singular"
            yield subject.finding(f"the source message is now {kind}: {UPDATE}", entry)
    for entry in subject.messages():
        if key_of(entry) not in pot:
            yield subject.finding(f"not in messages.pot (the source no longer has it): {UPDATE}", entry)
    if subject.language.catalog is not None:
        for entry in subject.language.catalog.catalog.obsolete.values():
            yield subject.finding(
                "obsolete entry (#~), kept in case the source brings it back: nothing to do (delete it "
                "to drop the old translation)",
                entry,
                severity=Severity.WARNING,
                line=entry.lineno,
            )


def _stale_template(subject: Subject) -> Iterator[Finding]:
    shared = subject.shared
    template = shared.workspace.template
    if shared.extracted is None or template is None:
        return
    # References' line numbers are not content: a line added above them moves them, nothing else.
    if extraction.same_content(template, shared.extracted):
        return
    committed_keys = {key_of(m): m for m in template.messages()}
    extracted_keys = {key_of(m): m for m in shared.extracted if m.id}
    told = False
    root = shared.workspace.project.root
    for key, message in extracted_keys.items():
        if key not in committed_keys:
            told = True
            source = message.locations[0] if message.locations else (None, None)
            path = display_path(root / source[0]) if source[0] else None
            yield subject.finding(
                f"new source message missing from messages.pot and every catalog: {UPDATE}",
                path=path, line=source[1], msgid=key[0],
            )  # fmt: skip
    for key, message in committed_keys.items():
        if key not in extracted_keys:
            told = True
            yield subject.finding(
                f"messages.pot keeps a message no template or rules.yaml has any more: {UPDATE}", message
            )
    if not told:  # same messages, other comments, source files or plural forms
        diff = difflib.unified_diff(
            extraction.unlocated(template.catalog, template.headers).decode("utf-8", "replace").splitlines(),
            extraction.unlocated(shared.extracted).decode("utf-8", "replace").splitlines(),
            subject.shown_path,
            "fresh extraction",
            lineterm="",
        )
        yield subject.finding(
            f"messages.pot differs from a fresh extraction (comments, source files or plurals): {EXTRACT}",
            detail="\n".join(diff),
        )


@check("completeness", category=Category.CATALOG, severity=Severity.WARNING)
def completeness(subject: Subject) -> Iterator[Finding]:
    """Untranslated, fuzzy and unreviewed theme messages: the page shows English (or the theme's).

    Warnings, never errors (the policy, generator/i18n/policy.py); so are theme strings imported
    from Material and not yet confirmed (the site shows them).

    The page shows the English source, marked ``lang="en"`` under a notice; each line says
    where to translate it. A language below its ``check.yaml`` threshold is built but not
    offered in the switcher: one more warning says so, and how far it has to go.
    """
    if subject.language.catalog is None:
        return
    template = subject.shared.workspace.template
    pot: set[Key] = {key_of(m) for m in template.messages()} if template else set()
    asked = {miss.key: miss for miss in (subject.result.missed if subject.result else ())}
    for entry in subject.messages():
        key = key_of(entry)
        verdict = subject.verdicts.get(key)
        if key not in pot or verdict is None or verdict.problems:
            continue  # obsolete (the stale check says so) or refused (its check says why)
        used = asked.get(key)
        where = f" (used at {used.where})" if used is not None and used.where is not None else ""
        if verdict.status is Status.UNTRANSLATED:
            texts = [t for t in (entry.string if isinstance(entry.string, (tuple, list)) else [entry.string])]
            empty = [str(i) for i, text in enumerate(texts) if not text]
            what = "untranslated" if len(empty) == len(texts) else f"plural form(s) {', '.join(empty)} empty"
            yield subject.finding(
                f"{what}: the page shows the English text{where}; translate it at this line "
                "(Poedit, Weblate or a text editor), then `rulesdoc build`",
                entry,
                severity=Severity.WARNING,
            )
        elif verdict.status is Status.FUZZY:
            yield subject.finding(
                f"fuzzy: the English source changed and the translation awaits review (#| shows the old "
                f"source); the page shows English{where}; review it at this line and remove the "
                "`#, fuzzy` flag",
                entry,
                severity=Severity.WARNING,
            )
        elif verdict.status is Status.UNREVIEWED:
            yield subject.finding(
                "from the theme, unreviewed: the site shows this translation, imported from Material; "
                "correct it if needed, then remove the fuzzy flag to confirm it",
                entry,
                severity=Severity.WARNING,
            )


@check("threshold", category=Category.CATALOG, severity=Severity.WARNING)
def threshold(subject: Subject) -> Iterator[Finding]:
    """A language below its ``check.yaml`` threshold is built but not offered: a warning, with the way up."""
    if subject.language.catalog is None:
        return
    counts = subject.stats
    minimum = subject.shared.policy.threshold(subject.code)
    shown = counts.in_language  # unreviewed theme strings are shown in the language: they count
    if not subject.shared.policy.offers(subject.code, shown, counts.total):
        theirs = f", {counts.unreviewed} of them from the theme, unreviewed" if counts.unreviewed else ""
        share = _percent(shown / counts.total if counts.total else 1.0)
        yield subject.finding(
            f"{shown} of {counts.total} messages translated{theirs} ({share}), "
            f"below the {_percent(float(minimum))} locales/{CONFIG_NAME} asks (min_translated): the "
            "language is built but left out of the language switcher and hreflang links; translate "
            f"{_needed(shown, counts.total, minimum)} more message(s) in this catalog, or "
            f"lower min_translated.{subject.code}",
            severity=Severity.WARNING,
        )


def _percent(share: float) -> str:
    """Rounded down: 79.6 % is not shown as the 80 % it misses."""
    return f"{math.floor(share * 100)}%"


def _needed(translated: int, total: int, minimum: Fraction) -> int:
    """The fewest more translations that reach the threshold."""
    return max(0, math.ceil(minimum * total) - translated)


@check("empty-folder", category=Category.CATALOG, severity=Severity.WARNING)
def empty_folder(subject: Subject) -> Iterator[Finding]:
    """A language folder holding no file is left out of the site: a warning, with its `catalog init`."""
    if not subject.is_source:  # the project's, said once
        return
    locales = subject.shared.workspace.project.locales
    for folder in subject.shared.empty_folders:
        yield subject.finding(layout.empty_folder_warning(locales, folder), path=folder)


@check(Rule.PLURAL_FORMS.value, category=Category.CATALOG)
def plural_forms(subject: Subject) -> Iterator[Finding]:
    """The header is usable and means what CLDR's rule means; every entry has the header's count."""
    loaded = subject.language.catalog
    if loaded is None:
        return
    where = loaded.header_location("Plural-Forms")
    if loaded.plural_forms is None:
        yield subject.finding(
            f"{loaded.plural_error}; no plural message can be shown", path=where.path, line=where.line
        )
        return
    reference = plurals.cldr(subject.language.locale)
    if not plurals.same_meaning(loaded.plural_forms, reference):
        yield subject.finding(
            f"Plural-Forms {loaded.plural_forms.header!r} differs from CLDR's for {subject.language.locale}, "
            f"{reference.header!r} ({plurals.describe(reference)}); pages follow this catalog's header. "
            f"To switch: `rulesdoc catalog update --lang {subject.code} --plural-forms cldr`",
            severity=Severity.WARNING,
            path=where.path,
            line=where.line,
        )
    for entry in subject.messages():
        verdict = subject.verdicts.get(key_of(entry))
        for problem in verdict.problems if verdict else ():
            if problem.rule is Rule.PLURAL_FORMS:
                yield subject.finding(f"{problem.text}; {FIX}", entry)


def glossary_coverage(subject: Subject) -> Iterator[Finding]:
    """Each language's glossary names a term for every concept, and no concept the project lacks.

    Part of the "terminology" check (:func:`rulesdoc.lint.messages.terminology`), registered once."""
    if subject.language.catalog is None:
        return
    path = subject.glossary_path
    if subject.glossary is None:
        yield subject.finding(
            "no glossary for this language: terminology is not checked; copy another language's "
            f"{GLOSSARY_NAME} here and write this language's terms",
            severity=Severity.WARNING,
            path=path,
        )
        return
    for concept in subject.shared.concepts:
        if not subject.glossary.get(concept):
            yield subject.finding(
                f"the glossary has no term for the concept {short(concept)!r}: "
                f"add `{short(concept)}: [term, ...]`",
                severity=Severity.WARNING,
                path=path,
            )
    for concept in subject.glossary:
        if concept not in subject.shared.concepts:
            yield subject.finding(
                f"concept {short(concept)!r} is not in locales/{GLOSSARY_NAME}: it is never checked",
                severity=Severity.WARNING,
                path=path,
            )

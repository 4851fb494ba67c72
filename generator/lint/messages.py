"""Checks of one message at a time: placeholders, markup, terminology.

Placeholders and markup are the verdicts of :mod:`rulesdoc.i18n.verdicts`, the same the
build uses to decide what a page may show: the linter only reports them.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator

from babel.messages.catalog import Message

from rulesdoc.catalog.po import forms, ids, key_of
from rulesdoc.errors import display_path
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.verdicts import Rule
from rulesdoc.lint.catalog import glossary_coverage
from rulesdoc.lint.inputs import Shared, Subject
from rulesdoc.lint.model import FIX, Finding
from rulesdoc.lint.registry import Category, check


def _problems(subject: Subject, rule: Rule) -> Iterator[Finding]:
    for entry in subject.messages():
        verdict = subject.verdicts.get(key_of(entry))
        for problem in verdict.problems if verdict else ():
            if problem.rule is rule:
                yield subject.finding(f"{problem.text}; {FIX}", entry)


@check(Rule.PLACEHOLDERS.value, category=Category.MESSAGE)
def placeholders(subject: Subject) -> Iterator[Finding]:
    """Every form carries exactly the source's placeholders: a wrong one crashes, a lost one misprints."""
    return _problems(subject, Rule.PLACEHOLDERS)


@check(Rule.MARKUP.value, category=Category.MESSAGE)
def markup(subject: Subject) -> Iterator[Finding]:
    """Markup of a translation matches the source's (order may change); it may add no tag or attribute."""
    return _problems(subject, Rule.MARKUP)


@check("terminology", category=Category.GLOSSARY)
def terminology(subject: Subject) -> Iterator[Finding]:
    """The glossary covers the project's concepts, and each message uses its terms."""
    yield from glossary_coverage(subject)
    for message in subject.usable_messages():
        yield from message_terminology(subject, message)


def message_terminology(subject: Subject, message: Message) -> Iterator[Finding]:
    """A message whose source uses a glossary concept uses one of this language's terms for it."""
    if subject.glossary is None:
        return
    for concept in _concepts_spoken_of(subject.shared, ids(message)):
        terms = subject.glossary.get(concept)
        if not terms:
            continue
        for index, form in enumerate(forms(message.string)):
            if not any(fold(term) in fold(form) for term in terms):
                label = f"plural form {index}: " if message.pluralizable else ""
                # Named only in a finding: resolving the path for every message cost more than the check.
                glossary = display_path(subject.glossary_path) if subject.glossary_path else "the glossary"
                yield subject.finding(
                    f"{label}the source speaks of {concept!r}, but the translation uses none of the "
                    f"{subject.language.locale.english_name} glossary's terms for it ({', '.join(terms)}): "
                    f"use one at this line, or add this wording to {glossary}",
                    message,
                )


def _concepts_spoken_of(shared: Shared, source: tuple[str, ...]) -> tuple[str, ...]:
    """The glossary's concepts a source message speaks of: found once a run, every language
    asking for the same messages."""
    found = shared.concepts_in.get(source)
    if found is None:
        text = fold(" ".join(" ".join(printf.literal_runs(msgid)) for msgid in source))
        found = tuple(
            concept
            for concept, english in shared.concepts.items()
            if any(_word_pattern(form).search(text) for form in english)
        )
        shared.concepts_in[source] = found
    return found


def fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def whole_word(form: str, text: str) -> bool:
    return _word_pattern(form).search(fold(text)) is not None


@functools.lru_cache(maxsize=1024)
def _word_pattern(form: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(fold(form))}(?!\w)")

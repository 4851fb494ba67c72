"""Checks of a translation's text against its source, as translate-toolkit's pofilter makes
them: numbers, URLs and e-mail addresses, spacing, doubled words, end punctuation.

Each compares a usable translation, form by form, with the source the form translates
(``msgstr[0]`` with the msgid, the others with ``msgid_plural``), in what the page prints
around the values (placeholders cut out). manual/translating.md, "Checks in CI", says which pofilter test
each one answers and why the others do not apply to these pages.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator

from babel.messages.catalog import Message

from rulesdoc.catalog.po import forms, ids
from rulesdoc.errors import short
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.verdicts import NO_FORMAT
from rulesdoc.lint.inputs import Subject
from rulesdoc.lint.model import Finding, Severity
from rulesdoc.lint.registry import Category, check
from rulesdoc.localedata.cldr import PSEUDO_CODE

FIX_HERE = "fix the translation at this line"


def _forms(subject: Subject) -> Iterator[tuple[Message, str, str, str]]:
    """(entry, label, source, translation) of every form of every translation the pages use."""
    for message in subject.usable_messages():
        source = ids(message)
        for index, text in enumerate(forms(message.string)):
            label = f"plural form {index}: " if message.pluralizable else ""
            yield message, label, source[min(index, len(source) - 1)], text


def printed(message: Message, text: str) -> str:
    """What the page prints of ``text`` around its values (a placeholder counts as a space)."""
    return " ".join(runs(message, text))


# ---------------------------------------------------------------- numbers

_NUMBER = re.compile(r"\d+")


def numbers(text: str) -> set[str]:
    """The numbers of a text in ASCII digits, leading zeros dropped: "५०" is "50", as "050" is.

    Compared as text, not as ``int``: a catalog is untrusted, and Python refuses to convert a
    run of more than 4300 digits."""
    return {
        "".join(str(unicodedata.decimal(char)) for char in match.group()).lstrip("0") or "0"
        for match in _NUMBER.finditer(text)
    }


# The source language's number words (messages are written in English): "Two to ten" may be
# "2〜10" in Japanese, "only one point" "1点". A number a translation writes as digits where
# the source spells it is the same number.
_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty"
).split()
_ORDINALS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
_SPELLED = {word: str(n) for n, word in enumerate(_WORDS)} | {w: str(n) for n, w in enumerate(_ORDINALS, 1)}
_WORD = re.compile(r"[A-Za-z]+")


def spelled_numbers(text: str) -> set[str]:
    """The numbers an English text spells out ("two", "Ten", "first")."""
    return {_SPELLED[word] for word in (w.lower() for w in _WORD.findall(text)) if word in _SPELLED}


@check("numbers", category=Category.MESSAGE)
def added_numbers(subject: Subject) -> Iterator[Finding]:
    """A translation writes no number its source lacks: every number on these pages comes from the engine.

    A number of the source may be spelled out ("three"); a number typed into a translation is
    the drift the engine exists to prevent: it stays when the rules change. A player count's
    word ("three", context "player count") may be written as its digit by a language that
    prefers digits, as any number word of the source may.
    """
    for message, label, _, text in _forms(subject):
        if not _NUMBER.search(text):  # nearly every text: nothing it prints can be a number
            continue
        allowed = _source_numbers(ids(message), NO_FORMAT in message.flags)
        added = sorted(numbers(printed(message, text)) - allowed, key=lambda n: (len(n), n))
        if added:
            yield subject.finding(
                f"{label}writes {short(', '.join(added))}, which the source does not: numbers on these "
                "pages come from the engine, through the source's placeholders (or its words); "
                f"{FIX_HERE}",
                message,
            )


@functools.lru_cache(maxsize=4096)  # every language asks for the same sources
def _source_numbers(source: tuple[str, ...], no_format: bool) -> frozenset[str]:
    """The numbers a source message writes or spells, in what the page prints of it."""
    text = " ".join(" ".join(_runs(msgid, no_format)) for msgid in source)
    return frozenset(numbers(text) | spelled_numbers(text))


# ---------------------------------------------------------------- URLs and e-mail addresses

# Bounded scheme and local part: each start scans a few characters, never the rest of the text.
_URL = re.compile(r"\b(?:[a-z][a-z0-9+.-]{0,31}://|www\.)[^\s<>()\"']*[^\s<>()\"'.,;:!?]", re.IGNORECASE)
_EMAIL = re.compile(r"\b[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)+\b")


# What every address holds: a text with none of these has no address to compare.
_ADDRESS_MARK = re.compile(r"://|www\.|@", re.IGNORECASE)


def addresses(text: str) -> Counter[str]:
    return Counter(_URL.findall(text) + _EMAIL.findall(text))


@check("urls", category=Category.MESSAGE)
def urls(subject: Subject) -> Iterator[Finding]:
    """URLs and e-mail addresses are the source's, unchanged: a translation adds, alters or drops none."""
    for message, label, source, text in _forms(subject):
        if not (_ADDRESS_MARK.search(source) or _ADDRESS_MARK.search(text)):
            continue  # nearly every text (what the page prints of one holds no more than it)
        expected, found = addresses(printed(message, source)), addresses(printed(message, text))
        if expected == found:
            continue
        added, lost = sorted(found - expected), sorted(expected - found)
        what = "; ".join(
            part
            for part in (
                f"adds {', '.join(added)}, which the source does not have" if added else "",
                f"lacks {', '.join(lost)}, which the source has" if lost else "",
            )
            if part
        )
        yield subject.finding(
            f"{label}{what}: addresses are the project's, not the translation's (they send readers "
            f"elsewhere); {FIX_HERE}",
            message,
        )


# ---------------------------------------------------------------- spacing

_DOUBLE_SPACE = re.compile(r"[^\S\n]{2,}")
_EDGE_SPACE = re.compile(r"^\s+|\s+$")


@check("whitespace", category=Category.MESSAGE, severity=Severity.WARNING)
def whitespace(subject: Subject) -> Iterator[Finding]:
    """No doubled space, tab or line break the source lacks; leading and trailing spaces as the source's.

    A translation of nothing but spaces is an error: the page would show nothing.
    """
    for message, label, source, text in _forms(subject):
        if text.isspace() and not source.isspace():
            yield subject.finding(
                f"{label}blank: the page shows nothing where the source has text; translate it at "
                "this line (an empty msgstr shows the English source)",
                message,
                severity=Severity.ERROR,
            )
            continue
        problems = []
        for edge, side in ((0, "leading"), (-1, "trailing")):
            had = bool(source) and source[edge].isspace()
            has = bool(text) and text[edge].isspace()
            if has != had:
                problems.append(
                    f"{'has' if has else 'lacks'} the {side} space the source {'lacks' if has else 'has'}"
                )
        inner = text.strip()
        if len(_DOUBLE_SPACE.findall(inner)) > len(_DOUBLE_SPACE.findall(source.strip())):
            problems.append("has a doubled space")
        for char, name in (("\t", "a tab"), ("\n", "a line break (it ends a table row or a heading)")):
            if inner.count(char) > source.strip().count(char):
                problems.append(f"has {name} where the source has none")
        if problems:
            yield subject.finding(
                f"{label}{'; '.join(dict.fromkeys(problems))}: the page shows it; {FIX_HERE}",
                message,
            )


# ---------------------------------------------------------------- doubled words


def doubled(runs: list[str]) -> list[str]:
    """Words written twice in a row, within one run of text (a value between them parts them).

    Words are what whitespace parts, edge punctuation cut off: ``\\w`` misses the vowel signs
    of Devanagari and other scripts, and would split one Hindi word in two.
    """
    found = []
    for run in runs:
        words = [_bare(token) for token in run.split()]
        for first, second in zip(words, words[1:], strict=False):
            if first and first == second and not first.isdigit():
                found.append(first)
    return found


@functools.lru_cache(maxsize=8192)  # the same words in every message and language
def _bare(token: str) -> str:
    cut = 0
    while cut < len(token) and unicodedata.category(token[-1 - cut])[0] in "PS":
        cut += 1
    start = 0
    while start < len(token) - cut and unicodedata.category(token[start])[0] in "PS":
        start += 1
    return token[start : len(token) - cut].casefold()


def runs(message: Message, text: str) -> list[str]:
    return _runs(text, NO_FORMAT in message.flags)


def _runs(text: str, no_format: bool) -> list[str]:
    """What the page prints of a text: all of it when it is never %-formatted, else its literal runs."""
    return [text] if no_format else printf.literal_runs(text)


@check("doubled-words", category=Category.MESSAGE, severity=Severity.WARNING)
def doubled_words(subject: Subject) -> Iterator[Finding]:
    """No word written twice in a row ("the the") where the source has no such pair."""
    for message, label, source, text in _forms(subject):
        mine = doubled(runs(message, text))
        if not mine:  # nearly every text: its source need not be read
            continue
        found = Counter(mine) - Counter(doubled(runs(message, source)))
        for word in found:
            yield subject.finding(
                f"{label}{word!r} twice in a row: a typo, unless the grammar wants it "
                f'(Dutch "dat dat"); {FIX_HERE}',
                message,
            )


# ---------------------------------------------------------------- end punctuation

# The final mark of a sentence, by what it does: each script's full stop is a full stop.
_END_MARKS = {
    "full stop": ".।॥。۔።։။។᙮",
    "colon": ":：",
    "question mark": "?؟？\u037e",
    "exclamation mark": "!！",
    "ellipsis": "…",
    "semicolon": "؛",
    "comma": ",،、，",
}
_MARK_OF = {char: name for name, chars in _END_MARKS.items() for char in chars}
_MARK_OF[";"] = "semicolon"  # ASCII ";" is a semicolon; Greek's question mark is U+037E (or ";", typed)
_NO_FULL_STOP = ("th", "lo")  # Thai and Lao end a sentence with a space, not a mark


def end_mark(text: str) -> str | None:
    """The mark a text ends with, past closing quotes, brackets and emphasis (None: none)."""
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in "*_`\"'" or _closing(text[end - 1])):
        end -= 1
    if text.endswith("...", 0, end):
        return "ellipsis"
    return _MARK_OF.get(text[end - 1]) if end else None


def _closing(char: str) -> bool:
    return unicodedata.category(char) in ("Pe", "Pf")  # ) ] } » ” ’ and the like


@check("end-punctuation", category=Category.MESSAGE, severity=Severity.WARNING)
def end_punctuation(subject: Subject) -> Iterator[Finding]:
    """A translation ends as its source does: with a full stop (any script's), a colon, a question
    mark... or none."""
    if subject.code == PSEUDO_CODE:
        return  # "[Ŵîññéŕ. ···]": the pseudo-locale pads after the text on purpose, for layout tests
    language = subject.language.locale.language
    for message, label, source, text in _forms(subject):
        if not text.strip() or same_end(source, text, language):
            continue
        expected, found = end_mark(source), end_mark(text)
        yield subject.finding(
            f"{label}ends with {_name(found)} where the source ends with {_name(expected)} (a heading, "
            f"a table cell or a sentence followed by another): {FIX_HERE}",
            message,
        )


def same_end(source: str, text: str, language: str) -> bool:
    """Whether ``text`` ends as ``source`` does, by the rules of ``language`` (a CLDR code)."""
    expected, found = end_mark(source), end_mark(text)
    if expected == found:
        return True
    if language in _NO_FULL_STOP and {expected, found} == {"full stop", None}:
        return True
    return language == "el" and (expected, found) == ("question mark", "semicolon")  # ASCII ";" typed


def _name(mark: str | None) -> str:
    return f"a {mark}" if mark and mark != "ellipsis" else ("an ellipsis" if mark else "no mark")

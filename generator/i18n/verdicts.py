"""The verdict on each catalog entry: may the page use this translation?

One function, :func:`judge`, decides it for the build, ``check`` and the status page
alike. An entry is *translated* when it is confirmed (not fuzzy), every form is
filled, and no form breaks a rule below; a translation that breaks one is never
rendered (the page shows the English source marked lang="en" in a preview, the strict build
refuses), so no catalog can crash a page, blow up its size or put markup into it:

- **placeholders**: each form uses exactly the source's ``%(name)s`` values, plain
  (no width, precision, positional ``%s``, lone ``%``); a form used for exactly one
  count may spell that count out ("one point") instead of printing it;
- **markup**: messages are plain text; a translation adds no HTML tag, attribute or
  comment, no Markdown emphasis, link or code the source lacks, and loses none
  (a lone ``<`` as in "5 < 6" is text: every output context escapes it);
- **plural forms**: a plural entry has as many forms as its catalog's header says.

A theme string ``catalog init``/``update`` imported from Material's own translation is
*unreviewed* until a translator confirms it: it carries the origin comment
:data:`THEME_ORIGIN` and the fuzzy flag (every PO editor's "needs work" toggle), and
clearing the flag confirms it. Meanwhile the site shows it (Material ships it), but it is
counted apart from the translations a translator wrote or confirmed.
"""

from __future__ import annotations

import enum
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from babel.messages.catalog import Message

from rulesdoc.catalog.plurals import PluralForms
from rulesdoc.catalog.po import forms, ids
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.theme import THEME_CONTEXT

NO_FORMAT = "no-python-format"  # the gettext flag of texts that are never %-formatted (rules.yaml's)
# The translator comment on a theme string imported from Material's translation: true before
# and after review (a translator confirms by removing the fuzzy flag). Short: never wrapped.
THEME_ORIGIN = "from mkdocs-material, unreviewed while fuzzy"


class Status(enum.Enum):
    TRANSLATED = "translated"
    FUZZY = "fuzzy"
    UNTRANSLATED = "untranslated"  # missing, empty, partly empty, or rejected: the page shows English
    UNREVIEWED = "unreviewed"  # imported from the theme, not yet confirmed: shown, counted apart


class Rule(enum.Enum):
    """The rules a translation must keep; each is also the id of the lint check reporting it."""

    PLACEHOLDERS = "placeholders"
    MARKUP = "markup"
    PLURAL_FORMS = "plural-forms"


@dataclass(frozen=True)
class Problem:
    rule: Rule
    text: str  # one line


@dataclass(frozen=True)
class Verdict:
    status: Status
    problems: tuple[Problem, ...] = ()

    @property
    def usable(self) -> bool:
        return self.status is Status.TRANSLATED


def judge(
    message: Message | None,
    rule: PluralForms | None,
    count_names: Mapping[str, str],
    written: int | None = None,
) -> Verdict:
    """The verdict on one entry (None: the catalog lacks the message).

    ``written``: how many ``msgstr[N]`` the file really has (Babel pads or cuts to the header's).
    """
    if message is None:
        return Verdict(Status.UNTRANSLATED)
    texts = forms(message.string)
    plural = _plural_problems(message, written if written is not None else len(texts), rule)
    if plural and any(texts):
        return Verdict(Status.UNTRANSLATED, tuple(plural))
    if not texts or not all(texts):
        return Verdict(Status.UNTRANSLATED)
    unreviewed = message.fuzzy and from_theme(message)
    if message.fuzzy and not unreviewed:
        return Verdict(Status.FUZZY)
    problems = list(plural)
    source = ids(message)
    if NO_FORMAT not in message.flags:
        count = _Count(count_names, source[0]) if message.pluralizable else None
        used = rule.samples_by_form() if (rule is not None and message.pluralizable) else {}
        for index, text in enumerate(texts):
            label = f"plural form {index}: " if message.pluralizable else ""
            problems += [
                Problem(Rule.PLACEHOLDERS, label + p)
                for p in placeholder_problems(source, text, count, used.get(index))
            ]
    for index, text in enumerate(texts):
        label = f"plural form {index}: " if message.pluralizable else ""
        problems += [Problem(Rule.MARKUP, label + p) for p in markup_problems(source, text, index)]
    if problems:
        return Verdict(Status.UNTRANSLATED, tuple(problems))
    return Verdict(Status.UNREVIEWED if unreviewed else Status.TRANSLATED)


def from_theme(message: Message) -> bool:
    """Whether the entry's translation was imported from the theme (reviewed since or not)."""
    return message.context == THEME_CONTEXT and any(c.strip() == THEME_ORIGIN for c in message.user_comments)


def _plural_problems(message: Message, written: int, rule: PluralForms | None) -> list[Problem]:
    if not message.pluralizable:
        return []
    if rule is None:
        return [
            Problem(
                Rule.PLURAL_FORMS, "the catalog's Plural-Forms header cannot be used, so no plural entry can"
            )
        ]
    if written != rule.count:
        return [
            Problem(
                Rule.PLURAL_FORMS, f"has {written} plural form(s), the Plural-Forms header says {rule.count}"
            )
        ]
    return []


# ---------------------------------------------------------------- placeholders


@dataclass(frozen=True)
class _Count:
    """The placeholder that prints a plural message's count, looked up only when a form lacks one
    (finding it means reading the templates' syntax trees: most runs never need it)."""

    names: Mapping[str, str]
    msgid: str

    def name(self) -> str | None:
        return self.names.get(self.msgid)


def placeholder_problems(
    source: tuple[str, ...],
    text: str,
    count: str | _Count | None = None,
    used_for: tuple[int, ...] | None = None,
) -> list[str]:
    """What is wrong with the placeholders of one form, each as a sentence a translator can act on."""
    expected = {p.name: p for s in source for p in printf.scan(s).placeholders if p.name is not None}
    found = printf.scan(text)
    problems = []
    if found.lone_percents:
        problems.append("a lone '%' would crash the page: write '%%' for a percent sign")
    for token in found.positional:
        allowed = ", ".join(sorted(p.text for p in expected.values())) or "none"
        problems.append(f"positional {token.text}: this message passes only named values ({allowed})")
    for foreign in found.foreign:
        problems.append(f"{foreign} is not filled in by the renderer: it would appear as is on the page")
    named = [p for p in found.placeholders if p.name is not None]
    unknown = [p for p in named if p.name not in expected]
    missing = [p for name, p in expected.items() if name not in found.named]
    if len(unknown) == 1 and len(missing) == 1:
        # One placeholder swapped for another: most likely a typo, say it as one.
        return [*problems, f"{unknown[0].text} where the source has {missing[0].text}: the page would crash"]
    for token in named:
        source_token = expected.get(token.name or "")
        if source_token is None:
            problems.append(f"{token.text} is not a value of this message: the page would crash")
        elif token.text != source_token.text:
            why = "a width or precision is unbounded work" if token.spec else "the page would misprint"
            problems.append(f"{token.text} where the source has {source_token.text}: {why}")
    if missing and isinstance(count, _Count):
        count = count.name()
    for token in missing:
        if token.name == count and used_for is not None and len(used_for) == 1:
            continue  # a form used for exactly one number may say that number in words
        if token.name == count and used_for:
            numbers = ", ".join(str(n) for n in used_for[:4])
            problems.append(
                f"lacks the count {token.text}, yet this form is used for n = {numbers}, …: "
                "it would print a wrong number"
            )
        else:
            problems.append(f"lacks {token.text}: the page would leave that value out")
    return problems


# ---------------------------------------------------------------- markup

_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:-]*)([^<>]*)(?:>|$)")
_DECLARATION = re.compile(r"<\s*[!?][^<>]*(?:>|$)")  # <!-- comment -->, <!doctype>, <?php
_ATTRIBUTE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp|javascript|data):[^<>\s]*)>", re.IGNORECASE)
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*([^)\s]*)(?:\s+[\"'][^)]*[\"'])?\s*\)")
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_EMPHASIS = re.compile(
    r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])|(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"
)


def markup_tokens(text: str) -> Counter[str]:
    """HTML tags (with their attributes), links, inline code and emphasis, as a multiset."""
    tokens: Counter[str] = Counter()
    text = "".join(part if i % 2 == 0 else " " for i, part in enumerate(printf.split(text)))

    def take(pattern: re.Pattern[str], token: Callable[[re.Match[str]], str]) -> None:
        nonlocal text
        for match in pattern.finditer(text):
            tokens[token(match)] += 1
        text = pattern.sub(" ", text)

    take(_CODE, lambda m: f"`{m.group(2).strip()}`")
    take(_AUTOLINK, lambda m: f"<{m.group(1)}>")
    take(_TAG, _tag_token)
    take(_DECLARATION, lambda m: "<!>")
    take(_LINK, lambda m: f"{'image' if m.group(1) else 'link'} ({m.group(3)})")
    take(_STRONG, lambda m: "**strong**")
    take(_EMPHASIS, lambda m: "*emphasis*")
    return tokens


def _tag_token(match: re.Match[str]) -> str:
    closing, name, rest = match.groups()
    attributes = sorted(
        f"{key.lower()}={value.strip(chr(34) + chr(39))}" if value else key.lower()
        for key, value in _ATTRIBUTE.findall(rest.rstrip("/"))
    )
    return "<" + closing + " ".join([name.lower(), *attributes]) + ">"


_MARKUP_CHARACTERS = re.compile(r"[<`*_\[]")  # no markup token can be written without one of these


def markup_problems(source: tuple[str, ...], text: str, index: int = 0) -> list[str]:
    """Markup of a translation matches the source's (in any order); it may add no tag or attribute."""
    if not _MARKUP_CHARACTERS.search(text) and not any(_MARKUP_CHARACTERS.search(s) for s in source):
        return []  # plain text on both sides: the common case, decided without tokenizing
    sources = [markup_tokens(s) for s in source]
    found = markup_tokens(text)
    if any(found == s for s in sources):
        return []
    reference = sources[min(index, len(sources) - 1)]
    added = list((found - reference).elements())  # in the order they appear
    tags = [token for token in added if token.startswith("<")]
    problems = []
    if tags:
        problems.append(
            f"adds HTML {' '.join(tags)} that the source does not have: "
            "a catalog may not put tags or attributes into the site"
        )
    if len(added) > len(tags):
        other = " ".join(token for token in added if not token.startswith("<"))
        problems.append(f"adds {other}, which the source does not have")
    lost = list((reference - found).elements())
    if lost:
        problems.append(f"lacks {' '.join(lost)}, which the source has")
    return problems

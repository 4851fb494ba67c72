"""``python -m generator check``: the translation and drift linter.

Shaped like Babel's ``babel/messages/checkers.py``: every check is a small
function with one signature, ``check(subject) -> Iterable[Finding]``, where a
:class:`Subject` is one language with everything read for it (catalog, raw entry
lines, glossary, rendered pages). Checks of one message at a time are written
``check(subject, message)``, as Babel's are, and lifted by :func:`per_message`.
:data:`CHECKS` is the list, in the order findings are reported; a new check is a
new function and one more entry, nothing else changes.

It reads the catalogs the build reads (:func:`generator.i18n.read_catalog`, on
Babel's reader), runs Babel's own checkers (``python_format``, ``num_plurals``)
and renders with the renderer the site uses; it reimplements none of them.

Severity: every finding is an error, except
- an obsolete ``#~`` entry (harmless; ``catalog update`` drops it): warning;
- a language glossary that lacks a concept (or has one the project does not): warning;
- untranslated and fuzzy messages of a language at or above its threshold
  (``locales/check.yaml``, below): warnings;
- anything about a language the site does not publish: warnings. Published are
  the ``languages`` of the ``rulesdoc`` plugin in ``mkdocs.yml``, or, when that
  list is empty or there is no ``mkdocs.yml``, every catalog.

``locales/check.yaml`` (optional) sets the share of messages a language must have
translated before its gaps stop being errors; the default is 100 (every message)::

    min_translated:        # percent
      default: 100
      hi: 90               # hi may publish with up to 10 % of its messages in English

Fuzzy entries are not translations yet (the build ignores them), so the content
checks (placeholders, markup, terminology) look only at confirmed translations.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import gettext
import json
import logging
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import jinja2
import yaml
from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message, TranslationError
from babel.messages.checkers import num_plurals, python_format
from jinja2 import nodes

from generator import catalogs, pseudo
from generator.errors import Location, RulesdocError, display_path
from generator.i18n import (
    SOURCE_LANGUAGE,
    CatalogStats,
    Language,
    catalog_path,
    count_translations,
    expected_plural_forms,
    read_catalog,
)
from generator.render import (
    PAGE_SUFFIX,
    Project,
    RenderedPage,
    Renderer,
    make_environment,
)

ERROR, WARNING = "error", "warning"
Key = tuple[str, str | None]  # (singular msgid, msgctxt): how Babel keys a catalog
CONFIG_NAME = "check.yaml"
GLOSSARY_NAME = "glossary.yaml"


@dataclass(frozen=True)
class Finding:
    """One problem: where it is (the .po entry's ``file:line`` where there is one) and why it matters."""

    severity: str  # "error" or "warning"
    locale: str  # the catalog folder's code ("nl"); "en" for the source (POT, templates)
    path: str
    line: int | None
    msgid: str
    message: str  # one line
    check: str
    detail: str = ""  # e.g. the unified diff of a drifted page

    @property
    def where(self) -> str:
        return str(Location(self.path, self.line))


# ---------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Policy:
    published: bool = True
    min_translated: Fraction = Fraction(1)  # share of messages; below it gaps are errors


@dataclass(frozen=True)
class RawPo:
    """What Babel's reader normalizes away: how many ``msgstr[N]`` each entry really has."""

    forms: Mapping[int, int]  # msgid line → number of msgstr[N] lines (0: not a plural entry)
    header_lines: Mapping[str, int]  # "Plural-Forms" → line of that header field


@dataclass(frozen=True)
class Shared:
    """The project-wide inputs every subject sees."""

    root: Path
    project: Project
    template_path: Path
    template: Catalog  # messages.pot as committed
    fresh: Catalog  # what extraction gives now
    concepts: Mapping[str, tuple[str, ...]]  # locales/glossary.yaml: concept → English forms
    count_names: Mapping[str, str]  # plural msgid → the placeholder that prints its count
    pages_dir: Path | None
    codes: tuple[str, ...] = ()  # every catalog folder's code, checked or not
    # Every language's usable texts per message key, the source's being the msgid itself:
    # what may (and may not) appear on each page.
    texts: Mapping[str, Mapping[Key, tuple[str, ...]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Subject:
    """One language: everything its checks need, read once."""

    code: str
    shared: Shared
    policy: Policy
    path: Path | None = None  # the .po; None for the source language
    catalog: Catalog | None = None
    raw: RawPo | None = None
    glossary: Mapping[str, tuple[str, ...]] | None = None
    glossary_path: Path | None = None
    language: Language | None = None
    language_error: RulesdocError | None = None
    pages: tuple[RenderedPage, ...] = ()
    render_error: RulesdocError | None = None

    @property
    def is_source(self) -> bool:
        return self.catalog is None

    @property
    def shown_path(self) -> str:
        return display_path(self.path) if self.path else display_path(self.shared.template_path)

    @property
    def language_name(self) -> str:
        try:
            return str(Locale.parse(self.code.replace("-", "_")).english_name)
        except (UnknownLocaleError, ValueError):
            return self.code

    def finding(
        self,
        check: str,
        message: str,
        entry: Message | None = None,
        *,
        severity: str = ERROR,
        path: Path | str | None = None,
        line: int | None = None,
        msgid: str = "",
        detail: str = "",
    ) -> Finding:
        """A finding about this language; nothing the site does not publish is more than a warning."""
        if not self.policy.published:
            severity = WARNING
        shown = display_path(path) if isinstance(path, Path) else path or self.shown_path
        return Finding(
            severity=severity,
            locale=self.code,
            path=shown,
            line=line if line is not None else (entry.lineno if entry is not None else None),
            msgid=msgid or (_singular(entry.id) if entry is not None else ""),
            message=" ".join(message.split()),
            check=check,
            detail=detail,
        )

    def messages(self) -> Iterator[Message]:
        """The catalog's entries, header and obsolete ones left out."""
        return (m for m in self.catalog or () if m.id)


Check = Callable[[Subject], Iterable[Finding]]
MessageCheck = Callable[[Subject, Message], Iterable[Finding]]


def per_message(check: MessageCheck) -> Check:
    """Lift a Babel-style ``(catalog, message)`` check to a whole catalog: confirmed translations only."""

    @functools.wraps(check)
    def run(subject: Subject) -> Iterator[Finding]:
        for message in subject.messages():
            if usable(message):
                yield from check(subject, message)

    return run


def usable(message: Message) -> bool:
    """A translation the build uses: confirmed and every form filled in."""
    forms = _forms(message.string)
    return not message.fuzzy and bool(forms) and all(forms)


def _singular(message_id: str | Sequence[str]) -> str:
    return message_id if isinstance(message_id, str) else str(message_id[0])


def _forms(string: str | Sequence[str] | None) -> tuple[str, ...]:
    """A msgstr as its forms: one for a singular entry, nplurals for a plural one."""
    if string is None:
        return ()
    return (string,) if isinstance(string, str) else tuple(string)


def _ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


def _key(message: Message) -> Key:
    return (_singular(message.id), message.context)


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


# ---------------------------------------------------------------- 1. stale catalogs


def stale(subject: Subject) -> Iterator[Finding]:
    """messages.pot is what extraction gives now; every catalog holds exactly the POT's messages."""
    shared = subject.shared
    if subject.is_source:
        yield from _stale_template(subject)
        return
    assert subject.catalog is not None
    update = "run `python -m generator catalog update`"
    pot_keys = {_key(m): m for m in shared.template if m.id}
    for key, source in pot_keys.items():
        entry = subject.catalog.get(*key)
        if entry is None:
            yield subject.finding(
                "stale",
                f"missing from the catalog (messages.pot line {source.lineno}): {update}",
                msgid=key[0],
            )
        elif bool(source.pluralizable) != bool(entry.pluralizable):
            kind = "plural" if source.pluralizable else "singular"
            yield subject.finding("stale", f"the source message is now {kind}: {update}", entry)
    for entry in subject.messages():
        if _key(entry) not in pot_keys:
            yield subject.finding(
                "stale", f"not in messages.pot (the source no longer has it): {update}", entry
            )
    for entry in subject.catalog.obsolete.values():
        yield subject.finding(
            "stale", f"obsolete entry (#~) kept in the catalog: {update}", entry, severity=WARNING
        )


def _stale_template(subject: Subject) -> Iterator[Finding]:
    shared = subject.shared
    fresh_bytes = catalogs.po_bytes(shared.fresh)
    committed = shared.template_path.read_bytes()
    if catalogs.same_messages(committed, fresh_bytes):
        return
    extract = "run `python -m generator catalog extract`"
    committed_keys = {_key(m): m for m in shared.template if m.id}
    fresh_keys = {_key(m): m for m in shared.fresh if m.id}
    told = False
    for key, message in fresh_keys.items():
        if key not in committed_keys:
            told = True
            where = message.locations[0] if message.locations else (None, None)
            path = display_path(shared.root / where[0]) if where[0] else None  # relative to the root
            yield subject.finding(
                "stale", f"new source message missing from messages.pot: {extract}",
                path=path, line=where[1], msgid=key[0],
            )  # fmt: skip
    for key, message in committed_keys.items():
        if key not in fresh_keys:
            told = True
            yield subject.finding(
                "stale",
                f"messages.pot keeps a message no template or rules.yaml has any more: {extract}",
                message,
            )
    if not told:  # same messages, other comments, source lines or plural forms
        diff = difflib.unified_diff(
            committed.decode("utf-8", "replace").splitlines(),
            fresh_bytes.decode("utf-8", "replace").splitlines(),
            subject.shown_path,
            "fresh extraction",
            lineterm="",
        )
        yield subject.finding(
            "stale",
            f"messages.pot differs from a fresh extraction (comments, source lines or plurals): {extract}",
            detail="\n".join(diff),
        )


# ---------------------------------------------------------------- 2. completeness


def stats(subject: Subject) -> CatalogStats:
    """Counted against messages.pot, as the site's status page counts."""
    return count_translations(subject.code, subject.code, subject.catalog, subject.shared.template)


def completeness(subject: Subject) -> Iterator[Finding]:
    """Untranslated and fuzzy messages: the page would show English (or fail the strict build)."""
    if subject.catalog is None:
        return
    counts = stats(subject)
    minimum = subject.policy.min_translated
    severity = ERROR if counts.complete < minimum else WARNING
    quota = f"{counts.translated}/{counts.total} translated, {float(minimum):.0%} required"
    pot_keys = {_key(m) for m in subject.shared.template if m.id}
    for entry in subject.messages():
        if _key(entry) not in pot_keys:
            continue  # obsolete: the stale check says so
        forms = _forms(entry.string)
        if not forms or not all(forms):
            empty = [str(i) for i, form in enumerate(forms) if not form]
            what = "untranslated" if len(empty) == len(forms) else f"plural form(s) {', '.join(empty)} empty"
            yield subject.finding(
                "completeness", f"{what}: the page shows the English text ({quota})", entry, severity=severity
            )
        elif entry.fuzzy:
            yield subject.finding(
                "completeness",
                f"fuzzy: the English source changed and the translation awaits review; "
                f"the page shows English until the fuzzy flag is removed ({quota})",
                entry,
                severity=severity,
            )


# ---------------------------------------------------------------- 3. placeholders

# printf conversions as Python's % operator reads them: %%, %(name)s, %s, or a lone % (a crash).
_PERCENT = re.compile(
    r"%(?:(?P<escape>%)"
    r"|\((?P<name>[^()]*)\)(?P<nspec>[#0 +-]*\d*(?:\.\d+)?)(?P<ntype>[diouxXeEfFgGcrsa])"
    r"|(?P<pspec>[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?)(?P<ptype>[diouxXeEfFgGcrsa])"
    r"|)"
)
_BRACE = re.compile(r"(?<!\{)\{[A-Za-z_][A-Za-z0-9_]*\}(?!\})")
_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


@dataclass(frozen=True)
class Placeholders:
    named: frozenset[str]  # "%(points)s"
    positional: tuple[str, ...]  # "%s"
    lone_percent: bool
    other: frozenset[str]  # "{name}", "{{ name }}"

    @property
    def tokens(self) -> frozenset[str]:
        return self.named | self.other

    @staticmethod
    def of(text: str) -> Placeholders:
        named, positional, lone = set(), [], False
        for match in _PERCENT.finditer(text):
            if match["escape"]:
                continue
            if match["ntype"]:
                named.add(f"%({match['name']}){match['nspec']}{match['ntype']}")
            elif match["ptype"]:
                positional.append(match.group(0))
            else:
                lone = True
        other = {" ".join(m.split()) for m in _JINJA.findall(text)} | set(_BRACE.findall(text))
        return Placeholders(frozenset(named), tuple(positional), lone, frozenset(other))


def _name(token: str) -> str:
    return token[2 : token.index(")")] if token.startswith("%(") else token


def placeholders(subject: Subject, message: Message) -> Iterator[Finding]:
    """Every form carries exactly the source's placeholders: a wrong one crashes, a lost one misprints."""
    ids = _ids(message)
    expected = frozenset().union(*(Placeholders.of(text).tokens for text in ids))
    count = subject.shared.count_names.get(ids[0]) if message.pluralizable else None
    usage = _form_usage(subject.catalog) if message.pluralizable else {}
    problems: list[str] = []
    for index, form in enumerate(_forms(message.string)):
        label = f"plural form {index}: " if message.pluralizable else ""
        problems.extend(label + p for p in _form_problems(form, expected, count, usage.get(index)))
    # Babel's own checker as a backstop, for what it sees that the rules above do not.
    if not problems:
        try:
            python_format(subject.catalog, message)
        except TranslationError as error:
            problems.append(f"{error} (Babel)")
    for problem in problems:
        yield subject.finding("placeholders", problem, message)


def _form_problems(
    form: str, expected: frozenset[str], count: str | None, used_for: frozenset[int] | None
) -> Iterator[str]:
    found = Placeholders.of(form)
    names = {_name(t): t for t in expected if t.startswith("%(")}
    if found.lone_percent:
        yield "a lone '%' would crash the page: write '%%' for a percent sign"
    for token in found.positional:
        allowed = ", ".join(sorted(expected)) or "none"
        yield f"positional {token}: this message passes only named values ({allowed})"
    extra = sorted(found.tokens - expected)
    missing = sorted(t for t in expected - found.tokens if _name(t) not in {_name(f) for f in found.tokens})
    if len(extra) == 1 and len(missing) == 1 and extra[0].startswith("%(") and _name(extra[0]) not in names:
        # One placeholder swapped for another: most likely a typo, say it as one.
        yield f"{extra[0]} where the source has {missing[0]}: the page would crash (KeyError)"
        return
    for token in extra:
        if token.startswith("%(") and _name(token) in names:
            yield f"{token} where the source has {names[_name(token)]}: the page would crash or misprint"
        elif token.startswith("%("):
            yield f"{token} is not a value of this message: the page would crash (KeyError)"
        else:
            yield f"{token} is not filled in by the renderer: it would appear as is on the page"
    for token in missing:
        if count is not None and _name(token) == count and used_for is not None and len(used_for) == 1:
            # A form used for exactly one number may say that number in words ("one point"):
            # nothing is lost. Any other form must print the count.
            continue
        if count is not None and _name(token) == count and used_for is not None:
            numbers = ", ".join(str(n) for n in sorted(used_for)[:4])
            yield (
                f"lacks the count {token}, yet this form is used for n = {numbers}, …: "
                "it would print a wrong number"
            )
        else:
            yield f"lacks {token}: the page would leave that value out"


@functools.cache
def _usage(plural_expr: str, nplurals: int) -> dict[int, frozenset[int]]:
    pick = gettext.c2py(plural_expr)  # what GNUTranslations (the build) uses to pick a form
    numbers = [*range(0, 1001), 10**4, 10**5, 10**6, 2 * 10**6, 10**7]
    used: dict[int, set[int]] = {index: set() for index in range(nplurals)}
    for n in numbers:
        used.setdefault(pick(n), set()).add(n)
    return {index: frozenset(values) for index, values in used.items()}


def _form_usage(catalog: Catalog | None) -> dict[int, frozenset[int]]:
    if catalog is None:
        return {}
    try:
        return _usage(catalog.plural_expr, catalog.num_plurals)
    except (ValueError, SyntaxError):
        return {}  # a broken header: the plural-forms check says so


# ---------------------------------------------------------------- 4. markup

_TAG = re.compile(r"<\s*(/?)\s*([A-Za-z][\w:-]*)([^<>]*)(?:>|$)")
_ATTRIBUTE = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*("[^"]*"|'[^']*'|[^\s>]+))?""")
_AUTOLINK = re.compile(r"<((?:https?|mailto|ftp):[^<>\s]*)>", re.IGNORECASE)
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(\s*([^)\s]*)(?:\s+[\"'][^)]*[\"'])?\s*\)")
_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_STRONG = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1", re.DOTALL)
_EMPHASIS = re.compile(
    r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])|(?<![\w_])_(?=[^\s_])(.+?)(?<=[^\s_])_(?![\w_])"
)
_PLACEHOLDER = re.compile(r"%\([^()]*\)[#0 +-]*\d*(?:\.\d+)?[a-zA-Z]|%%|\{[A-Za-z_]\w*\}")


def markup_tokens(text: str) -> Counter[str]:
    """HTML tags (with their attributes), links, inline code and emphasis, as a multiset."""
    tokens: Counter[str] = Counter()
    text = _PLACEHOLDER.sub(" ", text)  # %(per_opponent)s is no emphasis

    def take(pattern: re.Pattern[str], token: Callable[[re.Match[str]], str]) -> None:
        nonlocal text
        for match in pattern.finditer(text):
            tokens[token(match)] += 1
        text = pattern.sub(" ", text)

    take(_CODE, lambda m: f"`{m.group(2).strip()}`")
    take(_AUTOLINK, lambda m: f"<{m.group(1)}>")
    take(_TAG, _tag_token)
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


def markup(subject: Subject, message: Message) -> Iterator[Finding]:
    """Markup of a translation matches the source's (order may change); it may add no tag or attribute."""
    ids = _ids(message)
    sources = [markup_tokens(text) for text in ids]
    for index, form in enumerate(_forms(message.string)):
        label = f"plural form {index}: " if message.pluralizable else ""
        found = markup_tokens(form)
        if any(found == source for source in sources):
            continue
        source = sources[min(index, len(sources) - 1)]
        added = list((found - source).elements())  # in the order they appear
        tags = [token for token in added if token.startswith("<")]
        if tags:
            yield subject.finding(
                "markup",
                f"{label}adds HTML {' '.join(tags)} that the source does not have: "
                "a catalog may not put tags or attributes into the site",
                message,
            )
        if len(added) > len(tags):
            other = " ".join(token for token in added if not token.startswith("<"))
            yield subject.finding("markup", f"{label}adds {other}, which the source does not have", message)
        lost = list((source - found).elements())
        if lost:
            yield subject.finding("markup", f"{label}lacks {' '.join(lost)}, which the source has", message)


# ---------------------------------------------------------------- 5. plural forms


def plural_forms(subject: Subject) -> Iterator[Finding]:
    """The Plural-Forms header is Babel's CLDR rule for the locale; every entry has that many forms."""
    catalog, raw = subject.catalog, subject.raw
    if catalog is None or raw is None:
        return
    header_line = raw.header_lines.get("Plural-Forms") or raw.header_lines.get("Language")
    locale = _header_locale(subject)
    expected_count = catalog.num_plurals
    if locale is None:
        yield subject.finding(
            "plural-forms",
            f"cannot check Plural-Forms: the Language header {catalog.locale_identifier or '(none)'!r} "
            "is not a locale Babel knows",
            line=raw.header_lines.get("Language"),
        )
    else:
        expected = expected_plural_forms(locale)
        expected_count = Catalog(locale=locale).num_plurals
        if _normal(catalog.plural_forms) != _normal(expected):
            yield subject.finding(
                "plural-forms",
                f"Plural-Forms header is {catalog.plural_forms!r}, but Babel's CLDR data gives {expected!r} "
                f"for {locale}: pages would pick the wrong form",
                line=header_line,
            )
    for message in subject.messages():
        if message.pluralizable:
            count = raw.forms.get(message.lineno or 0, 0)
            if count != expected_count:
                yield subject.finding(
                    "plural-forms",
                    f"has {count} plural form(s), {locale or 'the locale'} needs {expected_count}",
                    message,
                )
        try:
            num_plurals(catalog, message)  # Babel: plural forms on a message that has none
        except TranslationError as error:
            yield subject.finding("plural-forms", f"{error} (Babel)", message)


def _normal(forms: str) -> str:
    return re.sub(r"\s+", "", forms).rstrip(";")


def _header_locale(subject: Subject) -> Locale | None:
    if subject.language is not None:
        return subject.language.locale
    identifier = subject.catalog.locale_identifier if subject.catalog is not None else None
    try:
        return Locale.parse(str(identifier)) if identifier else None
    except (UnknownLocaleError, ValueError):
        return None


# ---------------------------------------------------------------- 6. terminology


def terminology(subject: Subject, message: Message) -> Iterator[Finding]:
    """A message whose source uses a glossary concept uses one of this language's terms for it."""
    if subject.glossary is None:
        return
    source = " ".join(_PLACEHOLDER.sub(" ", text) for text in _ids(message))
    for concept, english in subject.shared.concepts.items():
        terms = subject.glossary.get(concept)
        if not terms or not any(_whole_word(form, source) for form in english):
            continue
        for index, form in enumerate(_forms(message.string)):
            if not any(_fold(term) in _fold(form) for term in terms):
                label = f"plural form {index}: " if message.pluralizable else ""
                yield subject.finding(
                    "terminology",
                    f"{label}the source speaks of {concept!r}, but the translation uses none of the "
                    f"{subject.language_name} glossary's terms for it ({', '.join(terms)})",
                    message,
                )


def glossary_coverage(subject: Subject) -> Iterator[Finding]:
    """Each language's glossary names a term for every concept, and no concept the project lacks."""
    if subject.catalog is None:
        return
    path = subject.glossary_path
    if subject.glossary is None:
        yield subject.finding(
            "terminology", "no glossary for this language: terminology is not checked",
            severity=WARNING, path=path,
        )  # fmt: skip
        return
    for concept in subject.shared.concepts:
        if not subject.glossary.get(concept):
            yield subject.finding(
                "terminology",
                f"the glossary has no term for the concept {concept!r}",
                severity=WARNING,
                path=path,
            )
    for concept in subject.glossary:
        if concept not in subject.shared.concepts:
            yield subject.finding(
                "terminology",
                f"concept {concept!r} is not in locales/{GLOSSARY_NAME}: it is never checked",
                severity=WARNING,
                path=path,
            )


def _fold(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def _whole_word(form: str, text: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(_fold(form))}(?!\w)", _fold(text)) is not None


# ---------------------------------------------------------------- 7. rendering


def rendering(subject: Subject) -> Iterator[Finding]:
    """Every page renders; tables keep their shape; no template syntax or another language's text shows."""
    error = subject.language_error or subject.render_error
    if error is not None:
        location = error.location or Location(subject.shown_path)
        yield subject.finding(
            "rendering", f"the pages do not render: {error.message}", path=location.path, line=location.line
        )
        return
    pot_keys = {key[0] for key in _keys(subject.shared.template)}
    for page in subject.pages:
        yield from _tables(subject, page)
        yield from _leftovers(subject, page)
        yield from _foreign_text(subject, page)
        for msgid in sorted(set(page.missing) - pot_keys):
            yield subject.finding(
                "rendering",
                f"{page.name} uses a message that messages.pot lacks: is its source in babel.cfg?",
                msgid=msgid,
            )


def _template_of(subject: Subject, page: RenderedPage) -> str:
    return display_path(subject.shared.project.templates / (page.name + PAGE_SUFFIX[len(".md") :]))


def _tables(subject: Subject, page: RenderedPage) -> Iterator[Finding]:
    """Python-Markdown pads or cuts a row with the wrong number of cells without a word: say it."""
    lines = page.text.splitlines()
    header: int | None = None
    for number, line in enumerate(lines, 1):
        if not line.strip():
            header = None
            continue
        if header is None:
            following = lines[number] if number < len(lines) else ""
            if "|" in line and _DELIMITER_ROW.match(following):
                header = cells(line)
            continue
        if _DELIMITER_ROW.match(line):
            continue
        if cells(line) != header:
            yield subject.finding(
                "rendering",
                f"{subject.code}/{page.name} line {number}: table row has {cells(line)} cell(s), its header "
                f"has {header}",
                path=_template_of(subject, page),
            )


_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_INLINE_CODE = re.compile(r"(`+).+?\1")


def cells(row: str) -> int:
    """Cells of a Markdown table row: unescaped ``|`` outside inline code separate them."""
    text = _INLINE_CODE.sub("code", row.strip())
    pipes, escaped = [], False
    for index, char in enumerate(text):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "|":
            pipes.append(index)
    count = len(pipes) + 1
    if pipes and pipes[0] == 0:
        count -= 1  # the leading border pipe
    if pipes and pipes[-1] == len(text) - 1 and len(text) > 1:
        count -= 1  # the trailing border pipe
    return max(count, 1)


_LEFTOVERS = ("{{", "}}", "{%", "%}", "%(")  # not "{#": attr_list writes {#anchor}
_UNESCAPE = re.compile(r"\\([\\`*_\[\]|#!~{}])")


def _leftovers(subject: Subject, page: RenderedPage) -> Iterator[Finding]:
    for number, line in enumerate(page.text.splitlines(), 1):
        plain = _UNESCAPE.sub(r"\1", line)
        found = [token for token in _LEFTOVERS if token in plain]
        if found:
            source = _entry_showing(subject, found[0])
            yield subject.finding(
                "rendering",
                f"{subject.code}/{page.name} line {number}: {' '.join(map(repr, found))} left on the page",
                source,
                path=None if source is not None else _template_of(subject, page),
            )


def _entry_showing(subject: Subject, token: str) -> Message | None:
    """The catalog entry that puts ``token`` on the page (``%%(`` prints ``%(``), if any."""
    printed = "%%(" if token == "%(" else token
    for message in subject.messages():
        if usable(message) and any(printed in form for form in _forms(message.string)):
            return message
    return None


_WORD = re.compile(r"[^\W\d_]+")


def _foreign_text(subject: Subject, page: RenderedPage) -> Iterator[Finding]:
    """Text of another language on this page: an English msgid, or another catalog's sentence.

    Only texts of two words or more count, and only where this language translates that
    message differently (so "Joker" = "Joker" is no leak). Messages this language lacks are
    left to the completeness check (they fall back to English). The finding names the entry
    whose translation carries the foreign text, or else the message that should have shown.
    """
    texts = subject.shared.texts
    own = texts.get(subject.code, {})
    plain = " ".join(_UNESCAPE.sub(r"\1", page.text).split())
    reported: set[Key] = set()
    for other, other_texts in texts.items():
        if other == subject.code:
            continue
        what = "the English source" if other == SOURCE_LANGUAGE else f"the {other!r} translation"
        for key, forms in other_texts.items():
            if key in reported or key not in own or set(forms) <= set(own[key]):
                continue
            hit = next(
                (
                    segment
                    for form in forms
                    for segment in _segments(form)
                    if len(_WORD.findall(segment)) >= 2 and _contains(plain, segment)
                ),
                None,
            )
            if hit is None:
                continue
            reported.add(key)
            carrier = _entry_containing(subject, hit)
            if carrier is not None:
                text = f"the translation contains {what} of {_short(key[0], 40)!r}: {_short(hit, 50)!r}"
            else:
                carrier = subject.catalog.get(*key) if subject.catalog is not None else None
                text = f"{what} of this message appears on the page: {_short(hit, 50)!r}"
            yield subject.finding(
                "rendering",
                f"{subject.code}/{page.name}: {text}",
                carrier,
                msgid=key[0] if carrier is None else "",
            )


def _entry_containing(subject: Subject, segment: str) -> Message | None:
    for message in subject.messages():
        if usable(message) and any(
            _contains(" ".join(form.split()), segment) for form in _forms(message.string)
        ):
            return message
    return None


def _segments(text: str) -> list[str]:
    """The literal runs of a message, as the page prints them (placeholders filled, %% a percent)."""
    return [s.strip() for s in _PLACEHOLDER.split(" ".join(text.replace("%%", "%").split())) if s.strip()]


def _contains(text: str, segment: str) -> bool:
    at = text.find(segment)
    while at >= 0:
        before = text[at - 1] if at else " "
        after = text[at + len(segment)] if at + len(segment) < len(text) else " "
        if not (before.isalnum() and segment[0].isalnum()) and not (
            after.isalnum() and segment[-1].isalnum()
        ):
            return True
        at = text.find(segment, at + 1)
    return False


# ---------------------------------------------------------------- 8. drift


def drift(subject: Subject) -> Iterator[Finding]:
    """Pages kept elsewhere (``--pages DIR``) are what a fresh render gives, as ``cog --check`` does."""
    out = subject.shared.pages_dir
    if out is None:
        return
    if subject.is_source:
        yield from _unknown_languages(subject, out)
    if subject.language_error or subject.render_error:
        return  # nothing fresh to compare with: the rendering check says why
    folder = out / subject.code
    rendered = {page.name for page in subject.pages}
    render_command = f"run `python -m generator render --out {display_path(out)}`"
    for page in subject.pages:
        path = folder / page.name
        if not path.is_file():
            yield subject.finding("drift", f"page missing: {render_command}", path=path)
            continue
        committed = path.read_text(encoding="utf-8")
        if committed == page.text:
            continue
        old, new = committed.splitlines(), page.text.splitlines()
        first = next(
            (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new))
        )
        diff = difflib.unified_diff(
            old, new, display_path(path), f"{subject.code}/{page.name} (fresh render)", lineterm=""
        )
        yield subject.finding(
            "drift", f"differs from a fresh render: {render_command}",
            path=path, line=first + 1, detail="\n".join(diff),
        )  # fmt: skip
    if folder.is_dir():
        for path in sorted(folder.glob("*.md")):
            if path.name not in rendered:
                yield subject.finding(
                    "drift", "no page template renders this page any more: delete it", path=path
                )


def _unknown_languages(subject: Subject, out: Path) -> Iterator[Finding]:
    if not out.is_dir():
        return
    known = set(subject.shared.codes)
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.name not in known and any(folder.glob("*.md")):
            yield subject.finding(
                "drift", "pages of a language that has no catalog: delete them", path=folder
            )


# ---------------------------------------------------------------- the list

CHECKS: tuple[Check, ...] = (
    stale,
    completeness,
    per_message(placeholders),
    per_message(markup),
    plural_forms,
    glossary_coverage,
    per_message(terminology),
    rendering,
    drift,
)


# ---------------------------------------------------------------- reading the inputs


def read_raw(path: Path) -> RawPo:
    """Count ``msgstr[N]`` per entry and find header fields: Babel pads a short plural entry silently."""
    forms: dict[int, int] = {}
    headers: dict[str, int] = {}
    entry, entries = 0, 0
    for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if line.startswith("msgid "):
            entry, entries = number, entries + 1
            forms[entry] = 0
        elif line.startswith("msgstr["):
            forms[entry] = forms.get(entry, 0) + 1
        elif entries == 1 and (field_ := re.match(r'"([A-Za-z-]+):', line)):
            headers.setdefault(field_.group(1), number)  # the header entry comes first
    return RawPo(forms, headers)


def read_glossary(path: Path, what: str) -> dict[str, tuple[str, ...]] | None:
    """``concept: [form, ...]``; None when the file does not exist."""
    if not path.is_file():
        return None
    where = Location(display_path(path))
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise RulesdocError(
            f"invalid glossary: {getattr(error, 'problem', error)}", Location(where.path, line)
        ) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RulesdocError(f"a glossary maps each concept to a list of {what}", where)
    glossary: dict[str, tuple[str, ...]] = {}
    for concept, forms in data.items():
        if isinstance(forms, str):
            forms = [forms]
        if not isinstance(forms, list) or not all(isinstance(f, str) and f.strip() for f in forms):
            raise RulesdocError(f"glossary concept {concept!r}: expected a list of {what}", where)
        glossary[str(concept)] = tuple(f.strip() for f in forms)
    return glossary


def read_policies(root: Path, locales: Path, codes: Sequence[str]) -> dict[str, Policy]:
    published = _published_languages(root / "mkdocs.yml")
    minimum = _thresholds(locales / CONFIG_NAME)
    default = minimum.get("default", Fraction(1))
    return {
        code: Policy(published=not published or code in published, min_translated=minimum.get(code, default))
        for code in codes
    }


class MkdocsConfigLoader(yaml.SafeLoader):
    """Reads mkdocs.yml as data: its !ENV and !!python/name values become None, nothing is imported."""


MkdocsConfigLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
MkdocsConfigLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def _published_languages(mkdocs: Path) -> set[str]:
    """The ``languages`` of the rulesdoc plugin in mkdocs.yml: empty means every catalog."""
    if not mkdocs.is_file():
        return set()
    try:
        config = yaml.load(mkdocs.read_text(encoding="utf-8"), Loader=MkdocsConfigLoader) or {}
    except yaml.YAMLError as error:
        raise RulesdocError(f"invalid mkdocs.yml: {error}", Location(display_path(mkdocs))) from None
    plugins = config.get("plugins") or [] if isinstance(config, dict) else []
    entries = plugins.items() if isinstance(plugins, dict) else (
        next(iter(p.items())) if isinstance(p, dict) else (p, None) for p in plugins
    )  # fmt: skip
    for name, options in entries:
        if name == "rulesdoc" and isinstance(options, dict):
            return {str(code) for code in options.get("languages") or []}
    return set()


def _thresholds(path: Path) -> dict[str, Fraction]:
    if not path.is_file():
        return {}
    where = Location(display_path(path))
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as error:
        raise RulesdocError(f"invalid check configuration: {error}", where) from None
    unknown = set(data) - {"min_translated"} if isinstance(data, dict) else {"(not a mapping)"}
    if unknown:
        raise RulesdocError(
            f"unknown key(s) in the check configuration: {', '.join(sorted(map(str, unknown)))}", where
        )
    values = data.get("min_translated") or {}
    if isinstance(values, (int, float)):
        values = {"default": values}
    if not isinstance(values, dict):
        raise RulesdocError("min_translated: expected a percentage per language code (and default)", where)
    thresholds = {}
    for code, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            raise RulesdocError(f"min_translated.{code}: expected a percentage from 0 to 100", where)
        thresholds[str(code)] = Fraction(str(value)) / 100
    return thresholds


def count_names(templates: Path) -> dict[str, str]:
    """For each plural message of the templates, the placeholder that prints the count.

    ``ngettext("%(low)s point ...", "...", f.ace_low, low=num(f.ace_low), ace=num(f.ace))``:
    the count is ``f.ace_low``, so ``low`` prints it. Jinja also passes the count as ``num``.
    """
    env = make_environment(templates)
    found: dict[str, str] = {}
    for path in sorted(templates.rglob("*.j2")):
        try:
            tree = env.parse(path.read_text(encoding="utf-8"))
        except (jinja2.TemplateSyntaxError, OSError, UnicodeDecodeError):
            continue  # the rendering check reports it
        for call in tree.find_all(nodes.Call):
            if not isinstance(call.node, nodes.Name) or call.node.name not in ("ngettext", "npgettext"):
                continue
            first = 1 if call.node.name == "npgettext" else 0
            if len(call.args) < first + 3:
                continue
            singular, count = call.args[first], call.args[first + 2]
            if not isinstance(singular, nodes.Const):
                continue
            names = [kw.key for kw in call.kwargs if kw.value == count or any(
                node == count for node in kw.value.find_all(type(count))
            )]  # fmt: skip
            found[str(singular.value)] = names[0] if len(names) == 1 else "num"
    return found


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    """The renderer warns about English fallbacks; the completeness check reports them precisely."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        logger.setLevel(level)


def render_each(
    project: Project,
    languages: Sequence[Language],
    strict: bool = False,
    status_of: Sequence[Language] | None = None,
) -> dict[str, tuple[RenderedPage, ...] | RulesdocError]:
    """Render every language on its own, so one that fails hides none of the others.

    ``status_of``: the languages of the translation-status page (default: ``languages``).
    Rules and templates that cannot be read are bad input for every language: those raise.
    """
    renderer = Renderer.load(project, status_of if status_of is not None else languages)
    results: dict[str, tuple[RenderedPage, ...] | RulesdocError] = {}
    for language in languages:
        try:
            results[language.code] = tuple(renderer.render(language, strict))
        except RulesdocError as error:
            results[language.code] = error
    return results


def _keys(catalog: Catalog) -> list[Key]:
    return [_key(m) for m in catalog if m.id]


def _texts(subject_catalog: Catalog | None, template: Catalog) -> dict[Key, tuple[str, ...]]:
    if subject_catalog is None:
        return {_key(m): _ids(m) for m in template if m.id}
    return {_key(m): _forms(m.string) for m in subject_catalog if m.id and usable(m)}


def prepare(
    root: Path, project: Project, codes: Sequence[str] = (), pages_dir: Path | None = None
) -> list[Subject]:
    """Read everything once: unreadable input (a .po syntax error, say) raises RulesdocError."""
    locales = project.locales
    template_path = catalogs.template_path(locales)
    if not template_path.is_file():
        raise RulesdocError("messages.pot not found: run `python -m generator catalog extract`",
                            Location(display_path(template_path)))  # fmt: skip
    template = read_catalog(template_path)
    fresh = catalogs.extract(root)
    concepts = read_glossary(locales / GLOSSARY_NAME, "English forms") or {}
    all_codes = [c for c in catalogs.catalog_codes(locales) if c != SOURCE_LANGUAGE]
    unknown = [c for c in codes if c not in all_codes and c != SOURCE_LANGUAGE]
    if unknown:
        raise RulesdocError(f"no catalog for language {unknown[0]!r} (available: {', '.join(all_codes)})")
    if pages_dir is not None and not pages_dir.is_dir():
        raise RulesdocError("pages folder not found", Location(display_path(pages_dir)))
    chosen = [c for c in all_codes if not codes or c in codes]
    policies = read_policies(root, locales, [SOURCE_LANGUAGE, *all_codes])

    # Every catalog is read (for the other languages' texts), but only the chosen are checked:
    # an unreadable chosen catalog is bad input (exit 2, with its line).
    read = {code: read_catalog(catalog_path(locales, code)) for code in chosen}
    for code in set(all_codes) - set(chosen):
        try:  # another language's texts, for the foreign-text check: not worth failing over
            read[code] = read_catalog(catalog_path(locales, code))
        except RulesdocError:
            continue
    texts = {SOURCE_LANGUAGE: _texts(None, template)} | {
        code: _texts(read[code], template) for code in all_codes if code in read
    }
    shared = Shared(
        root=root,
        project=project,
        template_path=template_path,
        template=template,
        fresh=fresh,
        concepts=concepts,
        count_names=count_names(project.templates),
        pages_dir=pages_dir,
        codes=(SOURCE_LANGUAGE, *all_codes),
        texts=texts,
    )
    source = Language(SOURCE_LANGUAGE, Locale.parse(SOURCE_LANGUAGE), None)
    subjects = [Subject(SOURCE_LANGUAGE, shared, policies[SOURCE_LANGUAGE], language=source)]
    for code in chosen:
        path = catalog_path(locales, code)
        glossary_path = locales / code / GLOSSARY_NAME
        language, error = None, None
        try:
            language = pseudo.load_language(locales, code)
        except RulesdocError as problem:
            error = problem
        subjects.append(
            Subject(
                code, shared, policies[code], path=path, catalog=read[code], raw=read_raw(path),
                glossary=read_glossary(glossary_path, "accepted terms"), glossary_path=glossary_path,
                language=language, language_error=error,
            )
        )  # fmt: skip
    languages = [s.language for s in subjects if s.language is not None]
    # The status page lists every language, checked or not, as `render` writes it.
    everyone = [source, *_loadable(locales, all_codes)]
    with _quiet("rulesdoc"):
        rendered = render_each(project, languages, status_of=everyone)
    return [s if s.language is None else _with_pages(s, rendered[s.language.code]) for s in subjects]


def _loadable(locales: Path, codes: Sequence[str]) -> Iterator[Language]:
    for code in codes:
        try:
            yield pseudo.load_language(locales, code)
        except RulesdocError:
            continue


def _with_pages(subject: Subject, result: tuple[RenderedPage, ...] | RulesdocError) -> Subject:
    if isinstance(result, RulesdocError):
        return dataclasses.replace(subject, render_error=result)
    return dataclasses.replace(subject, pages=result)


# ---------------------------------------------------------------- running and reporting


@dataclass(frozen=True)
class Summary:
    code: str
    name: str
    stats: CatalogStats
    errors: int
    warnings: int
    path: str


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    summaries: tuple[Summary, ...]

    @property
    def errors(self) -> int:
        return sum(1 for f in self.findings if f.severity == ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for f in self.findings if f.severity == WARNING)


def run_checks(subjects: Sequence[Subject], checks: Sequence[Check] = CHECKS) -> Report:
    findings: list[Finding] = []
    summaries: list[Summary] = []
    for subject in subjects:
        mine = [finding for check in checks for finding in check(subject)]
        findings.extend(mine)
        name = subject.language.name if subject.language is not None else subject.language_name
        summaries.append(
            Summary(
                subject.code, name, stats(subject),
                sum(f.severity == ERROR for f in mine), sum(f.severity == WARNING for f in mine),
                subject.shown_path,
            )
        )  # fmt: skip
    return Report(tuple(findings), tuple(summaries))


def check_project(
    root: Path, project: Project, codes: Sequence[str] = (), pages_dir: Path | None = None
) -> Report:
    return run_checks(prepare(root, project, codes, pages_dir))


def format_text(report: Report) -> str:
    out: list[str] = []
    for summary in report.summaries:
        mine = [f for f in report.findings if f.locale == summary.code]
        if not mine:
            continue
        out.append(f"{summary.code} ({summary.name}): {summary.path}")
        for f in mine:
            msgid = f" {_short(f.msgid)!r}:" if f.msgid else ""
            out.append(f"  {f.where}: {f.severity}: [{f.check}]{msgid} {f.message}")
            if f.detail:
                out.extend("    " + line for line in f.detail.splitlines())
        out.append("")
    out.append(_table(report))
    out.append("")
    verdict = "passed" if not report.errors else "failed"
    out.append(f"check {verdict}: {report.errors} error(s), {report.warnings} warning(s)")
    return "\n".join(out)


def _table(report: Report) -> str:
    head = ("language", "translated", "fuzzy", "untranslated", "errors", "warnings")
    rows = [
        (
            s.code,
            str(s.stats.translated),
            str(s.stats.fuzzy),
            str(s.stats.untranslated),
            str(s.errors),
            str(s.warnings),
        )
        for s in report.summaries
    ]
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    lines = []
    for row in [head, *rows]:
        cells_ = [row[0].ljust(widths[0])] + [
            cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells_))
    return "\n".join(lines)


def format_json(report: Report) -> str:
    return json.dumps(
        {
            "findings": [dataclasses.asdict(f) for f in report.findings],
            "languages": [
                {
                    "code": s.code,
                    "name": s.name,
                    "translated": s.stats.translated,
                    "fuzzy": s.stats.fuzzy,
                    "untranslated": s.stats.untranslated,
                    "errors": s.errors,
                    "warnings": s.warnings,
                }
                for s in report.summaries
            ],
            "errors": report.errors,
            "warnings": report.warnings,
        },
        ensure_ascii=False,
        indent=2,
    )


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: Report) -> str:
    """Workflow commands: each finding becomes an annotation on its file and line."""
    out = []
    for f in report.findings:
        properties = [f"file={_escape_property(f.path)}"]
        if f.line:
            properties.append(f"line={f.line}")
        properties.append(f"title={_escape_property(f'rulesdoc {f.check} ({f.locale})')}")
        msgid = f"{_short(f.msgid)!r}: " if f.msgid else ""
        out.append(f"::{f.severity} {','.join(properties)}::{_escape_data(msgid + f.message)}")
    for f in report.findings:
        if f.detail:
            out.append(f"::group::{_escape_data(f.where)}")
            out.append(f.detail)
            out.append("::endgroup::")
    out.append(_table(report))
    out.append(f"check {'passed' if not report.errors else 'failed'}: "
               f"{report.errors} error(s), {report.warnings} warning(s)")  # fmt: skip
    return "\n".join(out)


FORMATS: dict[str, Callable[[Report], str]] = {
    "text": format_text,
    "json": format_json,
    "github": format_github,
}

"""Checks of the rendered pages: they render, their tables hold, nothing foreign shows; drift."""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Message

from rulesdoc.catalog.po import Key, forms
from rulesdoc.errors import Location, RulesdocError, display_path, short
from rulesdoc.i18n import placeholders as printf
from rulesdoc.i18n.markup import QUOTED
from rulesdoc.io import files
from rulesdoc.lint.inputs import Shared, Subject
from rulesdoc.lint.model import Finding
from rulesdoc.lint.registry import Category, check
from rulesdoc.localedata.cldr import SOURCE_LANGUAGE
from rulesdoc.pages.environment import PAGE_SUFFIX
from rulesdoc.pages.render import RenderedPage


@check("rendering", category=Category.PAGE)
def rendering(subject: Subject) -> Iterator[Finding]:
    """Every page renders; tables keep their shape; no template syntax or another language's text shows."""
    result = subject.result
    if result is None:
        return
    if result.error is not None:
        location = result.error.location or Location(subject.shown_path)
        yield subject.finding(
            f"the pages do not render: {result.error.message}", path=location.path, line=location.line
        )
        return
    for page in result.pages:
        yield from _tables(subject, page)
        yield from _leftovers(subject, page)
        yield from _foreign_text(subject, page)


def _template_of(subject: Subject, page: RenderedPage) -> str:
    return display_path(subject.shared.workspace.project.templates / (page.name + PAGE_SUFFIX[len(".md") :]))


_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_INLINE_CODE = re.compile(r"(`+).+?\1")


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
                f"{subject.code}/{page.name} line {number}: table row has {cells(line)} cell(s), its header "
                f"has {header}",
                path=_template_of(subject, page),
            )


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
                f"{subject.code}/{page.name} line {number}: {' '.join(map(repr, found))} left on the page",
                source,
                path=None if source is not None else _template_of(subject, page),
            )


def _entry_showing(subject: Subject, token: str) -> Message | None:
    """The catalog entry that puts ``token`` on the page (``%%(`` prints ``%(``), if any."""
    printed = "%%(" if token == "%(" else token
    for message in subject.usable_messages():
        if any(printed in form for form in forms(message.string)):
            return message
    return None


_WORD = re.compile(r"[^\W\d_]+")
_FIRST_TWO_WORDS = re.compile(r"([^\W\d_]+)[\W\d_]+([^\W\d_]+)")  # the first two of _WORD's words


def _foreign_text(subject: Subject, page: RenderedPage) -> Iterator[Finding]:
    """Text of another language on this page: an English msgid, or another catalog's sentence.

    Only texts of two words or more count, and only where this language translates that
    message differently (so "Joker" = "Joker" is no leak). Messages this language lacks are
    left to the completeness check (they fall back to English). The finding names the entry
    whose translation carries the foreign text, or else the message that should have shown.
    """
    texts = subject.shared.texts
    own = texts.get(subject.code, {})
    # English a template quotes on purpose (markup.QUOTED: the status page's lists) is no leak.
    plain = " ".join(_UNESCAPE.sub(r"\1", QUOTED.sub(" ", page.text)).split())
    # A message this language lacks shows in English on purpose (the completeness check says so):
    # its English is not another message's leak.
    for miss in subject.result.missed if subject.result else ():
        for form in texts.get(SOURCE_LANGUAGE, {}).get(miss.key, (miss.key[0],)):
            for run in printf.literal_runs(form):
                if len(_WORD.findall(run)) >= 2:
                    plain = plain.replace(run, " ")
    own_sets = {key: frozenset(forms) for key, forms in own.items()}
    reported: set[Key] = set()
    # Only texts whose first two words are on the page can be on it: look those up by pair.
    by_pair = index(subject.shared)
    for pair in sorted(_word_pairs(plain) & by_pair.keys()):
        for other, key, form, segment in by_pair[pair]:
            if other == subject.code or key in reported or key not in own or form in own_sets[key]:
                continue
            if any(segment in text for text in _flat(own[key])) or not contains(plain, segment):
                continue  # its own translation says it, or it is not there
            hit = segment
            what = "the English source" if other == SOURCE_LANGUAGE else f"the {other!r} translation"
            reported.add(key)
            carrier = _entry_containing(subject, hit)
            if carrier is not None:
                text = f"the translation contains {what} of {short(key[0], 40)!r}: {short(hit, 50)!r}"
            else:
                catalog = subject.language.catalog
                carrier = catalog.catalog.get(*key) if catalog is not None else None
                text = f"{what} of this message appears on the page: {short(hit, 50)!r}"
            yield subject.finding(
                f"{subject.code}/{page.name}: {text}", carrier, msgid=key[0] if carrier is None else ""
            )


def index(shared: Shared) -> dict[tuple[str, str], list[tuple[str, Key, str, str]]]:
    """Every language's texts of two words or more, by their first two words; built once a run."""
    if not shared.pair_index:
        for code, by_key in shared.texts.items():
            for key, forms in by_key.items():
                for form in dict.fromkeys(forms):
                    for segment, pair in _segments(form):
                        shared.pair_index.setdefault(pair, []).append((code, key, form, segment))
    return shared.pair_index


@functools.lru_cache(maxsize=65536)
def _segments(form: str) -> tuple[tuple[str, tuple[str, str]], ...]:
    """A text's literal runs of two words or more, each with its first two words (the quick test).

    Cached: every language's pages are searched for every other language's texts.
    """
    found = []
    for segment in printf.literal_runs(form):
        pair = _first_pair(segment)
        if pair is not None:
            found.append((segment, pair))
    return tuple(found)


@functools.lru_cache(maxsize=65536)
def _flat(forms: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(" ".join(form.split()) for form in forms)


def _word_pairs(text: str) -> set[tuple[str, str]]:
    words = _WORD.findall(text)
    return set(zip(words, words[1:], strict=False))


def _first_pair(segment: str) -> tuple[str, str] | None:
    found = _FIRST_TWO_WORDS.search(segment)  # one search, not every word of the segment found
    return (found.group(1), found.group(2)) if found is not None else None


def _entry_containing(subject: Subject, segment: str) -> Message | None:
    for message in subject.usable_messages():
        if any(contains(" ".join(form.split()), segment) for form in forms(message.string)):
            return message
    return None


def contains(text: str, segment: str) -> bool:
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


@check("drift", category=Category.PAGE, needs_pages_dir=True)
def drift(subject: Subject) -> Iterator[Finding]:
    """Pages kept elsewhere (``--pages DIR``) are what a fresh render gives, as ``cog --check`` does."""
    out = subject.shared.pages_dir
    if out is None:
        return
    if subject.is_source:
        yield from _unknown_languages(subject, out)
    result = subject.result
    if result is None or result.error is not None:
        return  # nothing fresh to compare with: the rendering check says why
    folder = out / subject.code
    rendered = {page.name for page in result.pages}
    render_command = f"run `rulesdoc render --out {display_path(out)}`"
    for page in result.pages:
        path = folder / page.name
        if not path.is_file():
            yield subject.finding(f"page missing: {render_command}", path=path)
            continue
        try:
            committed = files.read_text(path, files.MAX_TEMPLATE_BYTES * 4, None, "page")
        except RulesdocError as error:
            yield subject.finding(
                f"{error.message}: {render_command}",
                path=path,
                line=error.location.line if error.location else None,
            )
            continue
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
            f"differs from a fresh render: {render_command}",
            path=path,
            line=first + 1,
            detail="\n".join(diff),
        )
    if folder.is_dir():
        for path in sorted(folder.glob("*.md")):
            if path.name not in rendered:
                yield subject.finding("no page template renders this page any more: delete it", path=path)


def _unknown_languages(subject: Subject, out: Path) -> Iterator[Finding]:
    if not out.is_dir():
        return
    known = {language.code for language in subject.shared.workspace.languages}
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")):
        if folder.name not in known and any(folder.glob("*.md")):
            yield subject.finding("pages of a language that has no catalog: delete them", path=folder)

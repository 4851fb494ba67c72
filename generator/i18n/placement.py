"""Where each message of a page template shows: its page and section, as a note to translators.

A translator working in Poedit or Weblate sees a msgid and its ``#.`` notes, not the page. Every
message extracted from a page template (``*.md.j2``) gets one more note naming the page it
shows on and the section it sits in (the nearest Markdown heading above it in the template, in
English, as the English page shows it), so "Total" or "Opened" can be read in place. No line
numbers: moving a paragraph changes no note unless it changes section.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from babel.messages.catalog import Catalog

PAGE_SUFFIX = ".md.j2"
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*)$")
_MESSAGE_IN_HEADING = re.compile(r"""_\(\s*(["'])(.*?)(?<!\\)\1""")
_TEMPLATE_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}")


def heading_text(line: str) -> str | None:
    """The English text of a Markdown heading line in a template, or None if it is no heading."""
    match = _HEADING.match(line)
    if match is None:
        return None
    text = match.group(2)
    quoted = _MESSAGE_IN_HEADING.search(text)
    if quoted is not None:
        return quoted.group(2)
    plain = " ".join(_TEMPLATE_CODE.sub(" ", text).split())
    return plain or None


def note(page: str, lines: list[str], lineno: int) -> str:
    """The note for a message at ``lineno`` (1-based) of the template ``page``."""
    for number in range(min(lineno, len(lines)), 0, -1):
        heading = heading_text(lines[number - 1])
        if heading is None:
            continue
        if number == lineno:
            return f'Shown on the page "{page}": the heading of a section.'
        return f'Shown on the page "{page}", in the section "{heading}".'
    return f'Shown on the page "{page}", wherever its template uses it (set before its first heading).'


def add_notes(catalog: Catalog, read: Callable[[str], str]) -> None:
    """Give every message located in a page template, or in a partial a page includes, the note
    saying where it shows.

    ``read`` returns a template's text by its location's file name (as extraction names it).
    """
    sources: dict[str, list[str]] = {}

    def lines(filename: str) -> list[str]:
        if filename not in sources:
            sources[filename] = read(filename).splitlines()
        return sources[filename]

    pages = sorted({name for m in catalog for name, _ in m.locations if name.endswith(PAGE_SUFFIX)})
    partials: dict[str, list[str]] = {}  # the same for each of a partial's messages: found once
    for message in catalog:
        if not message.id:
            continue
        notes = []
        for filename, lineno in message.locations:
            name = filename.rpartition("/")[2]  # as extraction names it: "/" between folders
            if filename.endswith(PAGE_SUFFIX) and lineno:
                notes.append(note(name[: -len(".j2")], lines(filename), lineno))
            elif name.startswith("_") and filename.endswith(".j2"):
                if filename not in partials:
                    partials[filename] = _partial_notes(Path(filename), pages, lines)
                notes += partials[filename]
        for text in dict.fromkeys(notes):
            if text not in message.auto_comments:
                message.auto_comments.append(text)


def _partial_notes(partial: Path, pages: list[str], lines: Callable[[str], list[str]]) -> list[str]:
    """A partial's messages show where a page of its folder names it (``{% include "_x.j2" %}``)."""
    found = []
    for page in pages:
        if Path(page).parent != partial.parent:
            continue
        page_lines = lines(page)
        for number, line in enumerate(page_lines, 1):
            if partial.name in line:
                where = note(Path(page).name[: -len(".j2")], page_lines, number).rstrip(".")
                found.append(f"{where}, from {partial.name}.")
                break
    return found or [f"Shown wherever a page includes {partial.name}."]

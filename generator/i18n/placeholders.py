"""The one grammar of printf placeholders in messages, used by translation, escaping,
the pseudo-locale and the linter alike.

Messages are filled with Python's ``%`` operator (Jinja's new-style gettext does
``translation % values``), so a message may hold exactly what that operator reads:
``%%`` and conversions. Of those, a *translation* may use only the plain
``%(name)s`` form the source uses: a width or precision (``%(n)99999999s``) is
unbounded work, a positional ``%s`` prints the whole dict, a lone ``%`` crashes.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

# What Python's % operator reads after a "%": "%%", or an optional "(name)", flags, width,
# precision and a conversion type. Anything else after a "%" makes the operator raise.
_CONVERSION = re.compile(
    r"%(?:(?P<escape>%)"
    r"|(?:\((?P<name>[^()]*)\))?(?P<spec>[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?)(?P<type>[diouxXeEfFgGcrsa])"
    r")"
)
# Other template syntaxes a translator may paste in, which the renderer would print as they are.
_FOREIGN = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|(?<!\{)\{[A-Za-z_][A-Za-z0-9_]*\}(?!\})")
# A name as Python identifiers and Jinja keyword arguments spell it.
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Placeholder:
    """One conversion of a message: ``%(points)s``, ``%5d``, ``%(n)r``."""

    text: str  # as written
    name: str | None  # None for a positional conversion
    spec: str  # flags, width and precision: "" for none
    type: str  # the conversion letter

    @property
    def plain(self) -> bool:
        """``%(name)s``: the only form a translation may use."""
        return (
            self.name is not None and not self.spec and self.type == "s" and bool(_NAME.fullmatch(self.name))
        )


@dataclass(frozen=True)
class Scan:
    """Everything a message says in printf terms."""

    placeholders: tuple[Placeholder, ...]
    lone_percents: int  # a "%" the operator cannot read: the page would crash
    foreign: tuple[str, ...]  # "{name}", "{{ x }}": printed as they are

    @property
    def named(self) -> frozenset[str]:
        return frozenset(p.name for p in self.placeholders if p.name is not None)

    @property
    def positional(self) -> tuple[Placeholder, ...]:
        return tuple(p for p in self.placeholders if p.name is None)


def scan(text: str) -> Scan:
    found: list[Placeholder] = []
    lone = 0
    position = 0
    while (at := text.find("%", position)) >= 0:
        match = _CONVERSION.match(text, at)
        if match is None:
            lone += 1
            position = at + 1
            continue
        if not match["escape"]:
            found.append(Placeholder(match.group(0), match["name"], match["spec"], match["type"]))
        position = match.end()
    return Scan(tuple(found), lone, tuple(" ".join(m.split()) for m in _FOREIGN.findall(text)))


def split(text: str) -> list[str]:
    """Literal text and placeholders (``%%`` included) alternating: odd indexes are placeholders.

    Escaping and the pseudo-locale change the literal runs and keep the placeholders.
    """
    parts: list[str] = []
    literal_start = position = 0
    while (at := text.find("%", position)) >= 0:
        match = _CONVERSION.match(text, at)
        if match is None:
            position = at + 1
            continue
        parts.extend([text[literal_start:at], match.group(0)])
        literal_start = position = match.end()
    parts.append(text[literal_start:])
    return parts


def literal_runs(text: str) -> list[str]:
    """What the page prints of a message around its values: ``%%`` as ``%``, placeholders cut out."""
    return list(_literal_runs(text))


@functools.lru_cache(maxsize=65536)  # pure; each check of a run asks again for the same texts
def _literal_runs(text: str) -> tuple[str, ...]:
    parts = split(text)
    runs: list[str] = []
    current = ""
    for index, part in enumerate(parts):
        if index % 2 == 0:
            current += part
        elif part == "%%":
            current += "%"
        else:
            runs.append(current)
            current = ""
    runs.append(current)
    return tuple(run for run in (" ".join(r.split()) for r in runs) if run)

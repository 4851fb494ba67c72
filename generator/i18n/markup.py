"""Make untrusted text (translations above all) inert in Markdown and HTML output.

Message texts carry no markup by design: the templates own all Markdown and HTML.
So every translated string is flattened to one line and every character that
Markdown or HTML would act on is escaped, leaving printf placeholders intact.
A catalog therefore cannot add a tag, a link, emphasis or a table cell to a page.
"""

from __future__ import annotations

import functools
import html
import json
import re
import unicodedata
from typing import Any

from rulesdoc.i18n import placeholders

_MARKDOWN_ACTIVE = re.compile(r"([\\`*_\[\]|#!~{}])")


def _escape_segment(text: str) -> str:
    return _MARKDOWN_ACTIVE.sub(r"\\\1", html.escape(text, quote=False))


# Cached, as quote_english: each language's status page quotes every language's waiting messages.
@functools.lru_cache(maxsize=65536)
def escape_text(text: str) -> str:
    """Escape one piece of text (no placeholders) for Markdown with inline HTML."""
    return _escape_segment(" ".join(text.split()))


# English quoted on purpose by a template (the status page lists the messages a language still
# lacks): marked as English, isolated left to right, and known to the page check as a quote, not a
# leak. Only templates write it: a catalog's text is escaped, so it cannot open one.
QUOTED_OPEN = '<span lang="en" class="rd-quoted" dir="ltr">'
QUOTED = re.compile(re.escape(QUOTED_OPEN) + r"[^<]*</span>")


@functools.lru_cache(maxsize=65536)
def quote_english(text: str) -> str:
    """``text`` (untrusted) as a quote of the English source, escaped, ``%`` shown as ``&#37;``."""
    return QUOTED_OPEN + escape_text(text).replace("%", "&#37;") + "</span>"


def escape_message(message: str) -> str:
    """Escape a message but keep its placeholders, which are filled in after."""
    segments = placeholders.split(" ".join(message.split()))
    return "".join(seg if i % 2 else _escape_segment(seg) for i, seg in enumerate(segments))


def attribute(text: str) -> str:
    """Escape text for an HTML attribute value in double quotes."""
    return html.escape(" ".join(text.split()), quote=True)


# What would end or comment out a <script> element's text or open markup there ("</script>",
# "<!--"), and what the page check takes for a template's leftover ("%("). None of these is JSON's
# own syntax, so each found in the encoded text is in a string.
_SCRIPT_UNSAFE = "<>&%\u2028\u2029"
# A JSON string token (captured: split keeps it): scanned from the start, every quote outside a
# string opens one.
_JSON_STRING = re.compile(r'("[^"\\]*(?:\\.[^"\\]*)*")')
_BRACE = re.compile("[{}]")  # the page check's "{{", "{%": JSON's own syntax outside strings
# The longest start of the encoded text whose strings hold no brace (one match, in C): most data,
# a calculator's all of it, has none, and the string tokens are split out only from the first.
_BRACELESS_START = re.compile(r'(?:[^"]|"[^"\\{}]*(?:\\.[^"\\{}]*)*")*')


def _json_escape(char: str) -> str:
    return f"\\u{ord(char):04x}"


def _escaped(found: re.Match[str]) -> str:
    return _json_escape(found.group(0))


def json_for_script(data: Any) -> str:
    """JSON to place inside ``<script type="application/json">``: every ``<``, ``>``, ``&``, ``%``,
    ``{`` and ``}`` of a string (a catalog's above all) written as its JSON escape, which JSON.parse
    reads back; nested objects closed ``} }``. So no ``</script>`` or ``<!--`` a translation holds
    ends the element, and the page check's leftovers (``}}``, ``%(``) mean what they meant.
    Keys sorted: byte-identical rebuilds. One pass of the json module's C encoder, then the
    escapes: a calculator's data is thousands of strings in every language."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for char in _SCRIPT_UNSAFE:
        text = text.replace(char, _json_escape(char))
    start = _BRACELESS_START.match(text).end()  # type: ignore[union-attr]  # matches "" at least
    if start < len(text):
        parts = _JSON_STRING.split(text[start:])  # outside strings and string tokens, in turn
        escaped = (_BRACE.sub(_escaped, part) if index % 2 and _BRACE.search(part) else part
                   for index, part in enumerate(parts))  # fmt: skip
        text = text[:start] + "".join(escaped)
    while "}}" in text:
        text = text.replace("}}", "} }")
    return text


def slugify(value: str, separator: str) -> str:
    """Heading anchors for every script: letters, combining marks and digits are kept.

    Python-Markdown's and pymdownx's slugifiers drop Devanagari vowel signs (category M),
    turning "संक्षेप में" into "सकषप-म"; this keeps "संक्षेप-में".
    """
    words = []
    for word in unicodedata.normalize("NFC", value).casefold().split():
        kept = "".join(ch for ch in word if ch in "-_" or unicodedata.category(ch)[0] in "LMN")
        if kept:
            words.append(kept)
    return separator.join(words)

"""Make untrusted text (translations above all) inert in Markdown and HTML output.

Message texts carry no markup by design: the templates own all Markdown and HTML.
So every translated string is flattened to one line and every character that
Markdown or HTML would act on is escaped, leaving printf placeholders intact.
A catalog therefore cannot add a tag, a link, emphasis or a table cell to a page.
"""

from __future__ import annotations

import html
import re
import unicodedata

from generator.i18n import placeholders

_MARKDOWN_ACTIVE = re.compile(r"([\\`*_\[\]|#!~{}])")


def _escape_segment(text: str) -> str:
    return _MARKDOWN_ACTIVE.sub(r"\\\1", html.escape(text, quote=False))


def escape_text(text: str) -> str:
    """Escape one piece of text (no placeholders) for Markdown with inline HTML."""
    return _escape_segment(" ".join(text.split()))


# English quoted on purpose by a template (the status page lists the messages a language still
# lacks): marked as English, isolated left to right, and known to the page check as a quote, not a
# leak. Only templates write it: a catalog's text is escaped, so it cannot open one.
QUOTED_OPEN = '<span lang="en" class="rd-quoted" dir="ltr">'
QUOTED = re.compile(re.escape(QUOTED_OPEN) + r"[^<]*</span>")


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

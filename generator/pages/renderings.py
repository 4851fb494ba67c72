"""Each sentence filled in with the current rules' values, as a note to translators.

A message whose placeholders the view model fills (``"With %(players)s players, both caps are
equal."``) is hard to translate from its msgid alone. The English pages are rendered once with a
recording translator: every message the templates format is given back as a string that notes
what it was formatted with (Jinja's new-style gettext formats the translator's result with
``%``), so the first rendering of each message, and the value each placeholder held in it,
are read off the real render, never written by hand:

    #. With the current rules: "With three players, both caps are equal." (%(players)s: "three")

The note follows ``rules.yaml``: ``catalog extract`` and ``catalog update`` refresh it, and the
stale check ignores it (:data:`rulesdoc.i18n.extraction.VALUES_NOTE`). A message the current
rules never render (a branch for other values) has none.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from typing import Any

from rulesdoc.catalog.po import Key
from rulesdoc.errors import RulesdocError
from rulesdoc.i18n.extraction import VALUES_NOTE
from rulesdoc.i18n.translate import SOURCE, Translator
from rulesdoc.io.project import Project
from rulesdoc.pages.render import Workspace

_PLACEHOLDER = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)s")
_TAG = re.compile(r"<[^<>]*>")
_MARKDOWN_ESCAPE = re.compile(r"\\([\\`*_\[\]|#!~{}])")
MAX_VALUE = 200  # characters of one placeholder's value in a note (a long list of seats stays readable)


def plain(text: str) -> str:
    """Page text (escaped for Markdown and HTML, maybe with inline tags) as the reader reads it."""
    return " ".join(html.unescape(_MARKDOWN_ESCAPE.sub(r"\1", _TAG.sub("", text))).split())


def names(msgid: str) -> list[str]:
    """The placeholders of a message, each once, in the order the English names them."""
    return list(dict.fromkeys(_PLACEHOLDER.findall(msgid)))


class _Filled(str):
    """A translator's result that records what the template formats it with."""

    key: Key
    record: Callable[[Key, str, Mapping[str, Any]], None]

    def __mod__(self, values: Any) -> str:
        text = str.__mod__(str(self), values)
        if isinstance(values, Mapping):
            self.record(self.key, text, values)
        return text


class RecordingTranslator(Translator):
    """The source language's Translator, keeping each message's first rendering with its values."""

    def __init__(self) -> None:
        super().__init__(SOURCE)
        self.renderings: dict[Key, tuple[str, dict[str, str]]] = {}

    def _record(self, key: Key, text: str, values: Mapping[str, Any]) -> None:
        if key not in self.renderings:
            shown = {name: plain(str(values[name])) for name in names(key[0]) if name in values}
            self.renderings[key] = (plain(text), shown)

    def _filled(self, key: Key, text: str) -> str:
        if not names(key[0]):
            return text
        filled = _Filled(text)
        filled.key, filled.record = key, self._record
        return filled

    def gettext(self, message: str) -> str:
        return self._filled((message, None), super().gettext(message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._filled((singular, None), super().ngettext(singular, plural, n))

    def pgettext(self, context: str, message: str) -> str:
        return self._filled((message, context), super().pgettext(context, message))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._filled((singular, context), super().npgettext(context, singular, plural, n))


def _shorter(value: str) -> str:
    return value if len(value) <= MAX_VALUE else value[: MAX_VALUE - 1].rstrip() + "…"


def note(text: str, values: Mapping[str, str]) -> str:
    """``With the current rules: "<the sentence>" (%(name)s: "<its value>"; …)``."""
    held = "; ".join(f'%({name})s: "{_shorter(value)}"' for name, value in values.items())
    return f'{VALUES_NOTE}"{text}"' + (f" ({held})" if held else "")


def value_notes(workspace: Workspace) -> dict[Key, str]:
    """Each formatted message's values note, from one render of the English pages."""
    recording = RecordingTranslator()
    workspace.translator = lambda language, verdicts: recording
    result = workspace.render([SOURCE])[SOURCE.code]
    if result.error is not None:
        raise result.error
    return {key: note(text, values) for key, (text, values) in recording.renderings.items()}


def project_value_notes(project: Project) -> dict[Key, str] | None:
    """The project's values notes; None where its pages cannot render now (``check`` and the
    build say why): the committed notes are kept."""
    try:
        return value_notes(Workspace.load(project))
    except RulesdocError:
        return None

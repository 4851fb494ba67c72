"""The one policy the build, ``render``, ``check`` and the preview all apply.

What is an error and what is a warning is decided here, once:

- **Errors** (a translation the page cannot use: broken placeholders, markup, plural forms;
  a stale messages.pot or catalog; a page that does not render) fail ``check``, ``render``
  and the strict build, in the same words. A preview (``make serve``) logs them as warnings.
- **Gaps are warnings.** A message a catalog lacks, or whose translation is fuzzy, shows the
  English source, marked for readers and screen readers (``lang="en"``), with one translated
  notice per page that links to where translators help (``translate_url``).
- **Completeness decides where a language is offered, not whether it is built.** A language
  translated below its threshold is built, but left out of the language switcher and the
  ``hreflang`` links, with a warning.

``locales/check.yaml`` (optional; the repository ships one)::

    min_translated:        # percent; default 80 (DEFAULT_MIN_TRANSLATED)
      default: 80
      hi: 90
    translate_url: https://example.org/translate/{lang}/   # {lang}: the catalog's code

A language the site does not publish (the ``languages`` option of the rulesdoc plugin in
``mkdocs.yml``, when it lists some) gets warnings only.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from generator.errors import Location, RulesdocError, display_path
from generator.io import files, yamlload

CONFIG_NAME = "check.yaml"
DEFAULT_MIN_TRANSLATED = Fraction(80, 100)  # without check.yaml, or a language it does not name
_KEYS = ("min_translated", "translate_url")
_NOT_IN_URL = frozenset("<>\\\"'`()[]")  # it lands in a Markdown link and an href


@dataclass(frozen=True)
class Policy:
    min_translated: Mapping[str, Fraction] = field(default_factory=dict)  # by code, and "default"
    published: frozenset[str] = frozenset()  # empty: every catalog is published
    translate_url: str | None = None  # where translators help; "{lang}" is the catalog's code

    def threshold(self, code: str) -> Fraction:
        return self.min_translated.get(code, self.min_translated.get("default", DEFAULT_MIN_TRANSLATED))

    def publishes(self, code: str) -> bool:
        return not self.published or code in self.published

    def offers(self, code: str, translated: int, total: int) -> bool:
        """Whether the switcher and hreflang offer a language with this many messages translated
        (exact: 7 of 10 meets a 70 % threshold, which 0.7 as a float would miss)."""
        return total == 0 or Fraction(translated, total) >= self.threshold(code)

    def help_url(self, code: str) -> str | None:
        return self.translate_url.replace("{lang}", code) if self.translate_url else None

    def publishing(self, published: Collection[str]) -> Policy:
        return replace(self, published=frozenset(published))


def read_policy(locales: Path, published: Collection[str] = (), root: Path | None = None) -> Policy:
    path = locales / CONFIG_NAME
    if not os.path.lexists(path):  # a dangling or looping symlink is an error, not "no configuration"
        return Policy(published=frozenset(published))
    data = _load(path, root)
    where = Location(display_path(path))
    return Policy(_thresholds(data, where), frozenset(published), _translate_url(data, where))


def _load(path: Path, root: Path | None) -> dict[object, object]:
    """check.yaml as plain data, read with the one bounded YAML loader (no tags, bounded depth)."""
    shown = display_path(path)
    text = files.read_text(path, files.MAX_CONFIG_BYTES, root, utf8_bom=True)
    data = yamlload.load(text, yamlload.Source(shown)) or {}
    if not isinstance(data, dict):
        raise RulesdocError(
            "the check configuration must be a mapping (min_translated, translate_url)", Location(shown)
        )
    unknown = [str(key) for key in data if key not in _KEYS]
    if unknown:
        raise RulesdocError(
            f"unknown key(s) in the check configuration: {', '.join(sorted(unknown))} "
            f"(known: {', '.join(_KEYS)})",
            Location(shown),
        )
    return data


def _thresholds(data: Mapping[object, object], where: Location) -> dict[str, Fraction]:
    values = data.get("min_translated") or {}
    if isinstance(values, (int, float)) and not isinstance(values, bool):
        values = {"default": values}
    if not isinstance(values, dict):
        raise RulesdocError("min_translated: expected a percentage per language code (and default)", where)
    thresholds = {}
    for code, value in values.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 100:
            raise RulesdocError(f"min_translated.{code}: expected a percentage from 0 to 100", where)
        thresholds[str(code)] = Fraction(str(value)) / 100
    return thresholds


def _translate_url(data: Mapping[object, object], where: Location) -> str | None:
    url = data.get("translate_url")
    if url is None:
        return None
    if (
        not isinstance(url, str)
        or not url.startswith(("https://", "http://"))
        or any(c.isspace() or c in _NOT_IN_URL for c in url)
    ):
        raise RulesdocError(
            "translate_url: expected an http(s) address without spaces, quotes or brackets, "
            "e.g. https://example.org/translate/{lang}/",
            where,
        )
    return url

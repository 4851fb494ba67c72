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

``locales/check.yaml`` (optional; the repository ships one), read by the one bounded YAML
loader as ``rules.yaml`` is, every key and value checked with its line::

    min_translated:        # whole percentages, 0 to 100; default 80 (DEFAULT_MIN_TRANSLATED)
      default: 80          # the languages not named
      hi: 90               # a catalog's code, as its folder spells it (locales/hi/)
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

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

from rulesdoc.errors import RulesdocError, display_path, short
from rulesdoc.i18n.translate import catalog_codes
from rulesdoc.io import files, yaml_nodes, yamlload
from rulesdoc.localedata.cldr import SOURCE_LANGUAGE, canonical

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
    source = yamlload.Source(display_path(path))
    nodes = _load(path, source, root)
    thresholds = _thresholds(nodes["min_translated"], source, locales) if "min_translated" in nodes else {}
    url = _translate_url(nodes["translate_url"], source) if "translate_url" in nodes else None
    return Policy(thresholds, frozenset(published), url)


def _load(path: Path, source: yamlload.Source, root: Path | None) -> dict[str, Node]:
    """check.yaml's nodes by key, read with the one bounded YAML loader (no tags, bounded depth)."""
    text = files.read_text(path, files.MAX_CONFIG_BYTES, root, utf8_bom=True)
    node = yamlload.compose(text, source)
    if node is None:
        return {}
    return yaml_nodes.mapping(node, source, "the check configuration", (), _KEYS)


def _thresholds(node: Node, source: yamlload.Source, locales: Path) -> dict[str, Fraction]:
    """``min_translated``: a mapping of ``default`` and catalog codes to whole percentages."""
    what = "min_translated"
    yaml_nodes.check_tag(node, source)
    if not isinstance(node, MappingNode):
        shown = f", not {short(node.value)!r}" if isinstance(node, ScalarNode) and node.value else ""
        raise source.error(
            node,
            f"{what}: expected a whole percentage per language code and default, e.g. "
            f"`min_translated: {{default: 80, hi: 90}}`{shown}",
        )
    codes = set(catalog_codes(locales))
    thresholds: dict[str, Fraction] = {}
    for key_node, value_node in node.value:
        code = _code(key_node, source, codes)
        if code in thresholds:
            raise source.error(key_node, f"duplicate key {code!r} in {what}")
        thresholds[code] = _percent(value_node, source, f"{what}.{code}")
    return thresholds


def _code(node: Node, source: yamlload.Source, catalogs: set[str]) -> str:
    """A key of min_translated: ``default``, or the code of a catalog as its folder spells it."""
    if not isinstance(node, ScalarNode) or node.tag != "tag:yaml.org,2002:str":
        raise source.error(node, "min_translated: keys are language codes (da, pt_BR) or default")
    key = str(node.value)
    if key == "default":
        return key
    try:
        code = canonical(key)
    except RulesdocError as error:
        raise source.error(node, f"min_translated: {error.message}") from None
    if code != key:
        raise source.error(
            node, f"min_translated: write {code!r}, not {short(key)!r}, as the catalog's folder is named"
        )
    if code == SOURCE_LANGUAGE:
        raise source.error(node, f"min_translated: {code!r} is the source language; it has no catalog")
    if code not in catalogs:
        raise source.error(
            node,
            f"min_translated: no catalog for {code!r} (locales/{code}/LC_MESSAGES/messages.po); "
            f"remove the key, or start the catalog with `rulesdoc catalog init {code}`",
        )
    return code


def _percent(node: Node, source: yamlload.Source, what: str) -> Fraction:
    """A whole percentage from 0 to 100, written as YAML 1.2 reads it (``050`` is refused)."""
    yaml_nodes.check_tag(node, source)
    expected = f"{what}: expected a whole percentage from 0 to 100 (80 for 80 %)"
    if not isinstance(node, ScalarNode):
        raise source.error(node, expected)
    try:
        value = yaml_nodes.as_integer(yamlload.scalar_value(node), node, source, what)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError):
        raise source.error(node, f"{expected}, not {short(node.value)!r}") from None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise source.error(node, f"{expected}, not {short(node.value)!r}")
    return Fraction(value, 100)


def _translate_url(node: Node, source: yamlload.Source) -> str:
    url = node.value if isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:str" else None
    if (
        not isinstance(url, str)
        or not url.startswith(("https://", "http://"))
        or any(c.isspace() or c in _NOT_IN_URL for c in url)
    ):
        raise source.error(
            node,
            "translate_url: expected an http(s) address without spaces, quotes or brackets, "
            "e.g. https://example.org/translate/{lang}/",
        )
    return url

"""The one policy the build and ``check`` both apply.

What is an error and what is a warning is decided here, once: ``check`` reports it,
the strict build refuses it in the same words, a preview (``make serve``) shows it as
a warning and the English text behind ⚠.

- ``locales/check.yaml`` (optional) sets the share of messages a language must have
  translated before its gaps stop being errors; the default is 100 (every message)::

      min_translated:        # percent
        default: 100
        hi: 90               # hi may publish with up to 10 % of its messages in English

- a language the site does not publish (the ``languages`` option of the rulesdoc
  plugin in ``mkdocs.yml``, when it lists some) gets warnings only.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import yaml

from generator import files, yamlload
from generator.errors import Location, RulesdocError, display_path

CONFIG_NAME = "check.yaml"


@dataclass(frozen=True)
class Policy:
    min_translated: Mapping[str, Fraction] = field(default_factory=dict)  # by code, and "default"
    published: frozenset[str] = frozenset()  # empty: every catalog is published

    def threshold(self, code: str) -> Fraction:
        return self.min_translated.get(code, self.min_translated.get("default", Fraction(1)))

    def publishes(self, code: str) -> bool:
        return not self.published or code in self.published


def read_policy(locales: Path, published: Collection[str] = (), root: Path | None = None) -> Policy:
    return Policy(_thresholds(locales / CONFIG_NAME, root), frozenset(published))


def _thresholds(path: Path, root: Path | None) -> dict[str, Fraction]:
    if not os.path.lexists(path):  # a dangling or looping symlink is an error, not "no configuration"
        return {}
    where = Location(display_path(path))
    # The bounded loader: a syntax error is one line naming its line; deep nesting is refused.
    text = files.read_text(path, files.MAX_CONFIG_BYTES, root)
    data = yamlload.load(text, yamlload.Source(where.path)) or {}
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


@dataclass(frozen=True)
class SiteOptions:
    """The rulesdoc plugin's options in mkdocs.yml, as MkDocs itself reads them (``!ENV`` included)."""

    languages: tuple[str, ...] = ()
    strict: bool = True


def site_options(mkdocs_yml: Path) -> SiteOptions:
    if not mkdocs_yml.is_file():
        return SiteOptions()
    from mkdocs.utils.yaml import yaml_load  # MkDocs' own loader: !ENV and !relative resolved

    where = Location(display_path(mkdocs_yml))
    try:
        with mkdocs_yml.open("rb") as handle:
            config = yaml_load(handle) or {}
    except (yaml.YAMLError, OSError) as error:
        raise RulesdocError(f"invalid mkdocs.yml: {' '.join(str(error).split())}", where) from None
    plugins = config.get("plugins") or [] if isinstance(config, dict) else []
    entries = plugins.items() if isinstance(plugins, dict) else (
        next(iter(p.items())) if isinstance(p, dict) else (p, None) for p in plugins
    )  # fmt: skip
    for name, options in entries:
        if name == "rulesdoc" and isinstance(options, dict):
            strict = options.get("strict", True)
            return SiteOptions(tuple(str(c) for c in options.get("languages") or []), strict is not False)
    return SiteOptions()

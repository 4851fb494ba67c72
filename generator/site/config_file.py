"""The project's mkdocs.yml, read as the site engines read it, with no engine installed.

MkDocs, ProperDocs and Zensical all read mkdocs.yml with PyYAML's full loader plus the
``!ENV`` tag (pyyaml-env-tag, the library MkDocs uses): so does this module, for the commands
that run without an engine (``check``, ``render``, ``site-source``). The full loader also
constructs ``!!python/name:`` (a Markdown extension's slugify function): **mkdocs.yml is code**,
as it is for every engine (manual/publishing.md, "Untrusted input").
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml
from yaml_env_tag import construct_env_tag

from rulesdoc.errors import Location, RulesdocError, display_path, printable, short
from rulesdoc.io import files


class _Loader(yaml.Loader):
    """PyYAML's full loader with the engines' ``!ENV`` and ``!relative`` tags."""


_Loader.add_constructor("!ENV", construct_env_tag)
# MkDocs resolves "!relative" to a path beside the configuration; kept as written here (only
# paths the theme reads use it, and our engine configurations are written beside the docs).
_Loader.add_constructor("!relative", lambda loader, node: loader.construct_scalar(node))  # type: ignore[arg-type]


def read_config(path: Path) -> dict[str, Any]:
    """mkdocs.yml as a mapping ({} where the project has none); one-line errors with its line."""
    if not path.is_file():
        return {}
    where = Location(display_path(path))
    data = files.read_bytes(path, files.MAX_RULES_BYTES, path.parent)
    text = files.strip_bom(data, where.path, "invalid mkdocs.yml: ", utf8_bom=True).decode(
        "utf-8", errors="replace"
    )
    try:
        config = yaml.load(text, Loader=_Loader)  # noqa: S506  # mkdocs.yml is code, as for every engine
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        line = mark.line + 1 if mark is not None else None
        raise RulesdocError(
            f"invalid mkdocs.yml: {error.problem or error}", Location(display_path(path), line)
        ) from None
    except (yaml.YAMLError, ImportError, AttributeError, ValueError) as error:
        raise RulesdocError(f"invalid mkdocs.yml: {' '.join(str(error).split())}", where) from None
    if config is None:
        return {}
    if not isinstance(config, dict):
        raise RulesdocError("invalid mkdocs.yml: expected a mapping of settings", where)
    return config


# What an address may hold to land unescaped in every engine's pages: the theme writes site_url
# into `<link rel="canonical" href="...">` as it is, so a quote or bracket there is markup.
_UNSAFE_IN_URL = re.compile(r"[\s\"'<>`\\{}|^\x00-\x1f\x7f]")


def checked_site_url(mkdocs_yml: Path, value: object) -> str | None:
    """``site_url`` ending in "/", or None where unset; a one-line error where it is no plain
    http(s) address. check, render and every engine's build call this, so all refuse alike."""
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _invalid_site_url(mkdocs_yml, "site_url must be an address (text)")
    parts = None if _UNSAFE_IN_URL.search(value) else urlsplit(value)
    if parts is None or parts.scheme not in ("http", "https") or not parts.netloc:
        raise _invalid_site_url(
            mkdocs_yml,
            "site_url must be an http(s) address without spaces, quotes, angle brackets or "
            f"backslashes (got {printable(short(value))!r})",
        )
    return value if value.endswith("/") else value + "/"


def _invalid_site_url(mkdocs_yml: Path, problem: str) -> RulesdocError:
    return RulesdocError(
        f"invalid mkdocs.yml: {problem}", Location(display_path(mkdocs_yml), _line_of(mkdocs_yml))
    )


def _line_of(mkdocs_yml: Path) -> int | None:
    """The line of the top-level ``site_url:`` key, for the error (the mapping has no lines)."""
    try:
        lines = mkdocs_yml.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return next((n for n, line in enumerate(lines, 1) if re.match(r"site_url\s*:", line)), None)


def plugin_options(config: Mapping[str, Any]) -> dict[str, Any]:
    """The rulesdoc plugin's options in mkdocs.yml's ``plugins`` (a list or a mapping), or {}."""
    plugins = config.get("plugins") or []
    entries = plugins.items() if isinstance(plugins, dict) else (
        next(iter(p.items())) if isinstance(p, dict) else (p, None) for p in plugins
    )  # fmt: skip
    for name, options in entries:
        if name == "rulesdoc":
            return dict(options) if isinstance(options, dict) else {}
    return {}

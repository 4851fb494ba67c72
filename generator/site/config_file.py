"""The project's mkdocs.yml, read as the site engines read it, with no engine installed.

MkDocs, ProperDocs and Zensical all read mkdocs.yml with PyYAML's full loader plus the
``!ENV`` tag (pyyaml-env-tag, the library MkDocs uses): so does this module, for the commands
that run without an engine (``check``, ``render``, ``site-source``). The full loader also
constructs ``!!python/name:`` (a Markdown extension's slugify function): **mkdocs.yml is code**,
as it is for every engine (README, "Untrusted input").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml_env_tag import construct_env_tag

from generator.errors import Location, RulesdocError, display_path
from generator.io import files


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
    text = files.read_bytes(path, files.MAX_RULES_BYTES, path.parent).decode("utf-8", errors="replace")
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

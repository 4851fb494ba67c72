"""The rulesdoc plugin's options in mkdocs.yml, for the commands that run without MkDocs' build
(``check``, ``render``): read here, with the site's code, since only generator.site imports MkDocs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

from generator.errors import Location, RulesdocError, display_path


@dataclass(frozen=True)
class SiteOptions:
    """The rulesdoc plugin's options in mkdocs.yml, as MkDocs itself reads them (``!ENV`` included)."""

    languages: tuple[str, ...] = ()
    strict: bool = True


def site_options(mkdocs_yml: Path) -> SiteOptions:
    if not mkdocs_yml.is_file():
        return SiteOptions()
    from generator.site.mkdocs_internals import read_mkdocs_yml  # MkDocs' loader: !ENV, !relative

    where = Location(display_path(mkdocs_yml))
    try:
        with mkdocs_yml.open("rb") as handle:
            config = read_mkdocs_yml(handle) or {}
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

"""The rulesdoc plugin's options in mkdocs.yml, for the commands that run without MkDocs' build
(``check``, ``render``): read here, with the site's code, by :mod:`generator.site.config_file`,
which needs no engine installed."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class SiteOptions:
    """The rulesdoc plugin's options in mkdocs.yml, as MkDocs itself reads them (``!ENV`` included)."""

    languages: tuple[str, ...] = ()
    strict: bool = True


def site_options(mkdocs_yml: Path) -> SiteOptions:
    from generator.site.config_file import checked_site_url, read_config  # as the engines read it

    config = read_config(mkdocs_yml)
    checked_site_url(mkdocs_yml, config.get("site_url"))  # refused by check as by every build
    plugins = config.get("plugins") or []
    entries = plugins.items() if isinstance(plugins, dict) else (
        next(iter(p.items())) if isinstance(p, dict) else (p, None) for p in plugins
    )  # fmt: skip
    for name, options in entries:
        if name == "rulesdoc" and isinstance(options, dict):
            strict = options.get("strict", True)
            return SiteOptions(tuple(str(c) for c in options.get("languages") or []), strict is not False)
    return SiteOptions()

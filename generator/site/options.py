"""The rulesdoc plugin's options in mkdocs.yml, for the commands that run without MkDocs' build
(``check``, ``render``): read here, with the site's code, by :mod:`rulesdoc.site.config_file`,
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
    from rulesdoc.site.config_file import checked_site_url, plugin_options, read_config

    config = read_config(mkdocs_yml)
    checked_site_url(mkdocs_yml, config.get("site_url"))  # refused by check as by every build
    options = plugin_options(config)
    return SiteOptions(
        tuple(str(code) for code in options.get("languages") or []), options.get("strict", True) is not False
    )

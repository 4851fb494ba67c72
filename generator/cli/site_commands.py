"""The site's commands: ``site-source``, ``build --engine`` and ``check --site``.

One site source, three engines: MkDocs 1.6 and ProperDocs 1.6 run our plugin (the same
mkdocs.yml); Zensical, which runs no plugin of ours, builds the source rulesdoc writes
(:mod:`rulesdoc.site.zensical`). After any of them, ``check --site`` verifies the result.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.io import folders
from rulesdoc.io.project import Project

ENGINES = ("mkdocs", "properdocs", "zensical")


def engine_installed(engine: str) -> bool:
    return importlib.util.find_spec(engine) is not None


def default_engine() -> str:
    """The engine installed here: MkDocs, else ProperDocs, else Zensical."""
    return next((engine for engine in ENGINES if engine_installed(engine)), ENGINES[0])


def write_site_source(project: Project, out: Path, strict: bool, say: Callable[[str], None]) -> None:
    from rulesdoc.site.source import site_source, write_source

    source = site_source(project, strict=strict)
    for warning in source.warnings:
        say(f"warning: {warning}")
    with folders.replacing(
        out, f"rulesdoc: another run is writing {display_path(out)}; waiting for it"
    ) as staged:
        write_source(source, staged)
    say(f"{display_path(out)}: the site source of {len(source.languages)} language(s)")


def build_site(project: Project, engine: str, strict: bool, say: Callable[[str], None]) -> None:
    """Build the site with ``engine``, then verify it (``check --site``)."""
    if not engine_installed(engine):
        raise RulesdocError(
            f"the {engine} engine is not installed in this environment (pip install {engine})"
        )
    config = project.root / "mkdocs.yml"
    if engine == "zensical":
        from rulesdoc.site import zensical
        from rulesdoc.site.config_file import read_config

        site_dir = project.root / str(read_config(config).get("site_dir") or "site")
        source = zensical.build(project, site_dir, strict=strict)
        for warning in source.warnings:
            say(f"warning: {warning}")
    else:
        command = [sys.executable, "-m", engine, "build", "-f", str(config)]
        if strict:
            command.append("--strict")
        done = subprocess.run(command, cwd=project.root, check=False)
        if done.returncode != 0:
            raise RulesdocError(
                f"{engine} build failed (exit {done.returncode}); the previous site is unchanged"
            )
    problems = site_problems(project, None)
    if problems:
        raise RulesdocError(
            f"the built site is incomplete: {problems[0]}"
            + (f" (and {len(problems) - 1} more: `rulesdoc check --site`)" if len(problems) > 1 else "")
        )
    say(f"built with {engine}: every language has every page, its search index and its 404 page")


def site_problems(project: Project, site: Path | None) -> list[str]:
    """``check --site``: what the built site lacks (every published language, every page)."""
    from rulesdoc.i18n.translate import SOURCE, select_languages
    from rulesdoc.pages.render import Workspace
    from rulesdoc.site.config_file import plugin_options, read_config
    from rulesdoc.site.verify import Expected, verify

    config = read_config(project.root / "mkdocs.yml")
    if site is None:
        site = project.root / str(config.get("site_dir") or "site")
    workspace = Workspace.load(project)
    published = select_languages(workspace.languages, list(plugin_options(config).get("languages") or []))
    if SOURCE not in published:
        published.insert(0, SOURCE)
    expected = Expected(
        tuple(published),
        tuple(name[: -len(".j2")] for name in workspace.names),
        bool(config.get("use_directory_urls", True)),
    )
    return verify(site, expected)


def check_site(project: Project, site: Path, say: Callable[[str], None]) -> int:
    problems = site_problems(project, site)
    for problem in problems:
        say(f"{problem} [site]")
    if problems:
        return 1
    say(f"{display_path(site)}: every language has every page, its search index and its 404 page")
    return 0


def screenshots(
    project: Project, code: str, out: Path, say: Callable[[str], None], site: Path | None = None
) -> None:
    from rulesdoc.site.screenshots import take

    take(project, code, out, say, site)


def add_parsers(commands: Any, out_option: Callable[[argparse.ArgumentParser, str], None]) -> None:
    """The site's subcommands, on the command's parser (``site-source``, ``build``)."""
    source = commands.add_parser(
        "site-source",
        help="write what a site engine builds: per language its pages, configuration, theme strings",
    )
    out_option(source, "build/site-source")
    build = commands.add_parser("build", help="build the site with an engine, then verify it (check --site)")
    build.add_argument(
        "--engine", choices=ENGINES, help="default: the one installed (mkdocs, properdocs, zensical)"
    )
    shots = commands.add_parser(
        "screenshots",
        help="a PNG of each message where it shows on a language's pages, and manifest.json",
        description="Renders the language's pages with each message marked, opens them in headless "
        "Chromium (RULESDOC_CHROMIUM, else /usr/bin/chromium, else Playwright's own) and pictures the "
        "element of each message: DIR/<hash>.png and DIR/manifest.json, a list of {msgctxt, msgid, "
        "file, page, text}. DIR is replaced whole, or left as it was. Needs rulesdoc[screenshots].",
    )
    shots.add_argument("--lang", required=True, metavar="CODE", help="the language to picture")
    shots.add_argument(
        "--site",
        type=Path,
        metavar="DIR",
        help="a built site (make site): the theme's strings (header, search, footer) are pictured in its "
        "themed pages too, those shown after a reader acts (search results, copy, 404) in that state",
    )
    out_option(shots, "build/screenshots")
    for command in (source, build):
        command.add_argument(
            "--no-strict", dest="strict", action="store_false", help="build even when `check` reports errors"
        )

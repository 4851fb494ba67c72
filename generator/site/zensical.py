"""The Zensical adapter: the site source (:mod:`rulesdoc.site.source`) built by Zensical.

Zensical reads a mkdocs.yml but runs none of MkDocs' plugins (ours included: on our own
mkdocs.yml it builds a site with no page at all). So rulesdoc writes the source, one engine
configuration per language, runs ``zensical build --strict`` on each (in parallel), and puts
the builds together: the source language at the site root, every other under ``<tag>/``.
What the theme cannot say per page is written into each page as the MkDocs build writes it
(:mod:`rulesdoc.site.chrome`): the hreflang links to the same page, the direction on
``<html>``, ``lang="en"`` on chrome that falls back to English. Then the root sitemap and the
rules schema, and the whole site is swapped in at once: the old one stays if anything fails.

What Zensical 0.0.x cannot do yet is named in manual/publishing.md ("Platform") and held by tests that
notice when it can: no search stemming (its search has no language pipelines).
"""

from __future__ import annotations

import concurrent.futures
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.io import folders
from rulesdoc.io.project import Project
from rulesdoc.site import chrome, publishing
from rulesdoc.site.languages import counterpart, relative_to_page
from rulesdoc.site.source import CONFIG_NAME, NOT_FOUND, LanguageSource, SiteSource, site_source, write_source
from rulesdoc.spec.schema import publish_schema

BUILD_TIMEOUT = 600  # seconds a language's build may take (a stuck engine is an error, not a hang)


def build(project: Project, site_dir: Path, strict: bool = True) -> SiteSource:
    """Build every language with Zensical into ``site_dir`` (swapped in whole)."""
    source = site_source(project, strict=strict)
    with tempfile.TemporaryDirectory(prefix=".rulesdoc-zensical-", dir=project.root) as work:
        workspace = Path(work)
        write_source(source, workspace, theme_dir())
        _build_all(source, workspace, strict)
        with folders.replacing(
            site_dir, f"rulesdoc: another build is writing {display_path(site_dir)}; waiting"
        ) as out:
            for language in source.languages:
                built = workspace / language.language.tag / "site"
                target = out / language.folder if language.folder else out
                shutil.copytree(built, target, dirs_exist_ok=True)
                _finish_pages(source, language, target)
            if source.site_url:
                publishing.write_sitemap(
                    out, source.site_url, [(lang.tag, _folder(source, lang.tag)) for lang in source.offered]
                )
            publish_schema(out)
    return source


def theme_dir() -> Path | None:
    """Zensical's theme templates (its language partials), or None where it is not installed."""
    spec = importlib.util.find_spec("zensical")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "templates"


def _folder(source: SiteSource, tag: str) -> str:
    return next(language.folder for language in source.languages if language.language.tag == tag)


def _build_all(source: SiteSource, workspace: Path, strict: bool) -> None:
    jobs = [workspace / language.language.tag / CONFIG_NAME for language in source.languages]
    workers = max(1, min(len(jobs), os.cpu_count() or 1))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        problems = [p for p in pool.map(lambda config: _build_one(config, strict), jobs) if p]
    if problems:
        raise RulesdocError("; ".join(problems))


def _build_one(config: Path, strict: bool) -> str | None:
    """One language's ``zensical build``: None, or what went wrong, as a line."""
    command = [sys.executable, "-m", "zensical", "build", "--clean", "-f", CONFIG_NAME]
    if strict:
        command.append("--strict")
    tag = config.parent.name
    try:
        done = subprocess.run(
            command, cwd=config.parent, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return f"{tag}: zensical build took over {BUILD_TIMEOUT} s"
    except OSError as error:
        return f"{tag}: cannot run zensical: {error.strerror or error}"
    output = " ".join((done.stderr + done.stdout).split())
    if done.returncode != 0:
        if "No module named zensical" in output:
            return "zensical is not installed in this environment (pip install zensical)"
        return f"{tag}: zensical build failed: {output[-500:]}"
    if not (config.parent / "site" / "index.html").is_file():
        return f"{tag}: zensical build wrote no index.html: {output[-300:]}"
    return None


def _finish_pages(source: SiteSource, language: LanguageSource, out: Path) -> None:
    """Each page's hreflang links to the same page (the theme writes the language homes'), its
    direction and its English chrome marked, as the MkDocs build writes them."""
    here = language.language
    for url in (*source.page_urls, NOT_FOUND):
        path = out / (url + "index.html" if url.endswith("/") or not url else url)
        if not path.is_file():
            raise RulesdocError(f"{here.tag}: zensical wrote no {url or 'index.html'}")
        html = path.read_text(encoding="utf-8")
        mapping = {
            lang.tag: (
                source.site_url + _folder(source, lang.tag) + url
                if source.site_url
                else relative_to_page(counterpart(here, lang, url), url)
            )
            for lang in source.offered
        }
        html = publishing.hreflang_links(
            chrome.compact_alternates(html), source.languages[0].language.tag, mapping
        )
        path.write_text(
            chrome.finish_page(html, language.site, language.folder + (url or "index.html")),
            encoding="utf-8",
            newline="\n",
        )

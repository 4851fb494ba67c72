"""The MkDocs build of a whole site, event by event: what the plugin (:mod:`rulesdoc.site.plugin`)
delegates to, so the plugin itself only maps MkDocs' events onto these methods.

``mkdocs build`` on the project's ``mkdocs.yml`` builds the source language at the site root;
beside it (worker processes started after its first page, :mod:`rulesdoc.site.build`) every
other language is built into ``<site>/<tag>/`` from the same configuration. What each language
says (pages, site name, search language, theme strings, switcher, 404) is the site source's
(:mod:`rulesdoc.site.source`, :mod:`rulesdoc.site.languages`), the same for every engine.

The main build reads the workspace once, and applies the one policy (:mod:`rulesdoc.lint`) to
every language before the site is published: a strict build refuses exactly what ``rulesdoc
check`` calls an error, in the same words; a preview (``mkdocs serve``) logs them as warnings,
shows English (marked ``lang="en"``) for a refused message, and keeps the last good pages when an
input cannot be read at all. A build is whole or nothing: it writes beside the site and swaps it
in at the end, unless it was refused (by our policy or by the engine's strict mode).
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError

from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.io import folders
from rulesdoc.io.project import Project
from rulesdoc.pages.rebuild_memory import Memory
from rulesdoc.site import build as sitebuild
from rulesdoc.site import chrome, helper, mkdocs_package, publishing, source
from rulesdoc.site.config_file import checked_site_url
from rulesdoc.site.languages import (
    LanguageSite,
    Rendering,
    counterpart,
    language_root,
    prepare,
    theme_language,
)
from rulesdoc.site.mkdocs_internals import has_search, set_search_language
from rulesdoc.site.strict_warnings import StrictWarnings
from rulesdoc.spec.schema import publish_schema

# Input errors while previewing: outside the engine's logger ("mkdocs", "properdocs"), whose strict
# mode would count an error and fail the rebuild, which leaves `mkdocs serve` holding every request
# until one succeeds.
preview_log = logging.getLogger("rulesdoc")


def plugin_error(error: RulesdocError) -> PluginError:
    """Our one-line error as MkDocs reports a plugin's (no traceback)."""
    return PluginError(str(error))


class MainBuild:
    """One run of the plugin: a build, or the rebuilds of a preview (``serving``)."""

    def __init__(self, serving: bool) -> None:
        self.serving = serving
        self.strict = True  # refuse what `check` calls an error (not under `mkdocs serve`)
        self.rendering: Rendering | None = None
        self.last_good: Rendering | None = None  # what the preview shows while an input is broken
        self.site: LanguageSite | None = None
        self.swap: folders.FolderSwap | None = None  # the real site folder, while we build beside it
        self.memory: Memory | None = Memory() if serving else None  # what the last rebuild read and built
        self.warnings = StrictWarnings()  # what the engine counts to refuse a strict build, counted alike

    # ------------------------------------------------------------ on_config

    def configure(self, config: MkDocsConfig, project: Project, languages: list[str], strict: bool) -> None:
        """Render every language (the main build) or take this language's (a language build), and
        make the build speak it."""
        build = sitebuild.current()
        if build is not None:  # a language build started by the main build
            self.site = build.rendering.sites[build.code]
            sitebuild.configure_language(config, build)
        else:
            try:  # the theme writes site_url into every page unescaped: refused as check refuses it
                checked_site_url(Path(config.config_file_path), config.site_url)
            except RulesdocError as error:
                raise plugin_error(error) from None
            self.warnings.attach()  # detached when the build ends (post_build, failed)
            if not self.serving:
                sitebuild.start_helper(config, project.root)
            self.rendering = self._render(project, languages, strict, bool(config.use_directory_urls))
            self.site = next(iter(self.rendering.sites.values()))
            sitebuild.configure_main(config, self.rendering, keep=self.serving)
            if not self.serving:
                try:  # `site` a file, a read-only folder: said now, not after the whole build
                    self._stage_site(config)
                except RulesdocError as error:
                    self._release()
                    raise plugin_error(error) from None
        apply_language(config, self.site)

    def _render(
        self, project: Project, languages: list[str], strict: bool, directory_urls: bool
    ) -> Rendering:
        """Every language's site, or the build's one-line error (the site folder is not touched yet).

        Under ``mkdocs serve`` a failed rebuild would hold every request until a build succeeds:
        there the error is one line in the terminal, and the preview keeps the last good pages.
        """
        self.strict = strict and not self.serving
        try:
            rendering = prepare(
                project, languages, self.strict, self.memory, not self.serving, directory_urls
            )
        except RulesdocError as error:
            if not self.serving or self.last_good is None:
                raise plugin_error(error) from None
            preview_log.error("%s (the preview shows the last good pages until this is fixed)", error)
            return self.last_good
        for warning in rendering.warnings:
            preview_log.warning("%s", warning)
        self.last_good = rendering
        return rendering

    def _stage_site(self, config: MkDocsConfig) -> None:
        """Write the new site beside the old one; :meth:`post_build` swaps it in whole."""
        final = Path(config.site_dir).resolve()
        self.swap = folders.FolderSwap(final)
        config.site_dir = str(
            self.swap.start(f"rulesdoc: another build is writing {display_path(final)}; waiting for it")
        )

    # ------------------------------------------------------------ per page

    def pages(self) -> tuple[tuple[str, str], ...]:
        """This language's pages, (name, Markdown)."""
        if self.site is None:
            raise PluginError("rulesdoc: the pages were asked for before the configuration was read")
        return self.site.pages

    def rendering_now(self) -> Rendering:
        build = sitebuild.current()
        rendering = build.rendering if build is not None else self.rendering
        if rendering is None:
            raise PluginError("rulesdoc: a page was rendered before the site was")
        return rendering

    def alternates(self, page_url: str) -> list[dict[str, str]]:
        """The switcher's and the hreflang links' entries: this same page in every language offered
        (a language below its check.yaml threshold is built, but not offered: generator/i18n/policy.py)."""
        if self.site is None:
            return []
        here = self.site.language
        return [
            {"name": language.name, "lang": language.tag, "link": counterpart(here, language, page_url)}
            for language in self.rendering_now().offered
        ]

    def not_found_data(self, config: MkDocsConfig) -> dict[str, Any]:
        """What the 404 page's script needs (:mod:`rulesdoc.site.publishing`)."""
        if self.site is None:
            return {}
        language_folders = [lang.tag for lang in self.rendering_now().languages if not lang.is_source]
        return source.not_found_data(language_folders, self.site.language, self._root_url(config))

    def _root_url(self, config: MkDocsConfig) -> str | None:
        """The site root's address (``site_url`` as the main build has it), or None."""
        build = sitebuild.current()
        url = build.site_url if build is not None else config.site_url
        return (url if url.endswith("/") else url + "/") if url else None

    def finish_page(self, output: str, page_url: str, config: MkDocsConfig) -> str:
        """A page as the theme wrote it, with what the theme cannot say: its hreflang links with
        the ``x-default`` (absolute with ``site_url``), its direction, its English chrome marked."""
        if self.site is None:
            return output
        rendering = self.rendering_now()
        root = self._root_url(config)
        absolute = (
            {language.tag: root + language_root(language) + page_url for language in rendering.languages}
            if root
            else None
        )
        output = publishing.hreflang_links(
            chrome.compact_alternates(output), rendering.languages[0].tag, absolute
        )
        try:
            return chrome.finish_page(
                output, self.site, language_root(self.site.language) + (page_url or "index.html")
            )
        except RulesdocError as error:
            raise plugin_error(error) from None

    # ------------------------------------------------------------ the end

    def post_build(self, config: MkDocsConfig) -> None:
        """The main build: every other language, the one policy on all, the sitemap, the swap."""
        if sitebuild.current() is not None:
            # Material reads a language's sitemap.xml (to keep the reader on the same page when
            # switching); the gzipped copy is for crawlers, who are given the site root's.
            (Path(config.site_dir) / "sitemap.xml.gz").unlink(missing_ok=True)
            return  # only the main build orchestrates
        if self.rendering is None:
            return
        publish_schema(Path(config.site_dir))  # rules.schema.json at the site root, for editors and apps
        broken = None
        try:
            sitebuild.build_languages(config, self.rendering, memory=self.memory)
        except RulesdocError as error:
            broken = error
        try:
            if self.rendering.deferred is not None:  # every language is judged now: the one policy
                for warning in self.rendering.settle(self.strict):
                    preview_log.warning("%s", warning)
            if broken is not None:
                raise broken
        except RulesdocError as error:
            raise plugin_error(error) from None
        if config.site_url:  # every language's pages in the root sitemap, for crawlers given it
            publishing.write_sitemap(
                Path(config.site_dir),
                config.site_url,
                # the languages offered: one below its check.yaml threshold is built, not advertised
                [(language.tag, language_root(language)) for language in self.rendering.offered],
            )
        self.warnings.detach()
        if config.strict and self.warnings.count:
            return  # the engine refuses the build next (strict): the old site stays, the new is removed
        if self.swap is not None:
            try:
                self.swap.finish()
            except RulesdocError as error:
                raise plugin_error(error) from None  # failed() removes the new site
            config.site_dir = str(self.swap.target)
            self._release()

    def failed(self, error: Exception) -> None:
        """The main build failed: workers stopped, the new site removed, the old one untouched."""
        if sitebuild.current() is not None:
            return  # a language build: the main build reports it
        self.warnings.detach()
        helper.stop()
        sitebuild.stop_languages()
        self._release()
        if isinstance(error, OSError):
            # The engine's own writes (theme files, pages) on a full disk or past `ulimit -f`: one
            # line, not its traceback; the old site is untouched (the new one was built beside it).
            written = error.filename2 or error.filename
            where = display_path(written) if written else "the site"
            mkdocs_package.logger().error("%s: cannot write: %s", where, error.strerror or error)
            raise Abort("Aborted: the site could not be written; the previous site is unchanged") from None

    def _release(self) -> None:
        if self.swap is not None:
            self.swap.close()
            self.swap = None


def apply_language(config: MkDocsConfig, site: LanguageSite) -> None:
    """The theme, search and Markdown settings that make a build speak one language (decided by
    the site source, :mod:`rulesdoc.site.source`)."""
    config.theme["language"] = theme_language(site.language)
    config.theme["direction"] = site.language.direction
    config.site_name = site.site_name
    if site.copyright is not None:
        config.copyright = site.copyright
    if site.repo_name is not None:
        config.repo_name = site.repo_name_html()
    if has_search(config):
        set_search_language(config, site.search)
    toc = config.mdx_configs.setdefault("toc", {})
    if isinstance(toc, dict):
        toc["permalink_title"] = source.permalink_title(site)
    try:
        config.theme["palette"] = source.palette(config.theme.get("palette"), site)
    except RulesdocError as error:
        raise PluginError(f"mkdocs.yml: {error.message}") from None

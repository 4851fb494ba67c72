"""The MkDocs glue: one MkDocs build per language, orchestrated from the main build.

``mkdocs build`` on the repository's ``mkdocs.yml`` builds the source language at the
site root; beside it (worker processes started after its first page) this plugin builds
every other language into ``<site>/<tag>/`` from the same ``mkdocs.yml``. Each language
so has its own search index (with its own lunr pipeline), 404 page, ``<html lang dir>``,
theme strings and site name.

The main build reads the workspace once (rules, templates, catalogs), and every
language is rendered and judged by its own build (:mod:`generator.site.languages`); the
main build applies the one policy (:mod:`generator.lint`) to them all before the site
is published: the strict build refuses exactly what ``rulesdoc check`` calls an error,
in the same words; a preview (``make serve``) logs them as warnings, shows English
(marked ``lang="en"``) for a refused message, and keeps the last good pages when an input
cannot be read at all. Missing and fuzzy translations are warnings in every mode.

Costs that repeat per language are paid once per run (:mod:`generator.site.build`):
the theme's compiled templates, its file list and its assets (and the docs folder's),
shared by every language build; languages are built in parallel processes.

A build is whole or nothing: it writes into a folder beside the site and swaps it in
at the end, unless it was refused (by our policy or by MkDocs' strict mode); a second
build of the same site waits for the first (a lock).
"""

from __future__ import annotations

import contextlib
import logging
from pathlib import Path
from typing import Any, Literal

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from generator.errors import RulesdocError, display_path
from generator.io import files
from generator.pages.rebuild_memory import Memory
from generator.pages.render import Project
from generator.site import assets, chrome, helper, mkdocs_package, publishing, rootfiles, source
from generator.site import build as sitebuild
from generator.site.chrome import compact_alternates
from generator.site.config_file import checked_site_url
from generator.site.languages import LanguageSite, Rendering, prepare, theme_language
from generator.site.mkdocs_internals import StrictWarnings, has_search, set_search_language
from generator.site.source import counterpart, language_root
from generator.spec.schema import publish_schema

# Input errors while previewing: outside the engine's logger ("mkdocs", "properdocs"), whose strict
# mode would count an error and fail the rebuild, which leaves `mkdocs serve` holding every request
# until one succeeds.
preview_log = logging.getLogger("rulesdoc")


class RulesdocConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs is untyped here
    rules = c.Type(str, default="rules.yaml")
    templates = c.Type(str, default="templates")
    locales = c.Type(str, default="locales")
    strict = c.Type(bool, default=True)  # refuse what `check` calls an error, instead of warning
    languages = c.ListOfItems(c.Type(str), default=[])  # the published languages; default: every catalog


class RulesdocPlugin(BasePlugin[RulesdocConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.serving = False  # under `mkdocs serve`
        self.strict = True  # refuse what `check` calls an error (not under `mkdocs serve`)
        self.rendering: Rendering | None = None
        self.last_good: Rendering | None = None  # what the preview shows while an input is broken
        self.site: LanguageSite | None = None
        self.swap: files.FolderSwap | None = None  # the real site folder, while we build beside it
        self.memory: Memory | None = None  # under `mkdocs serve`: what the last rebuild read and built
        self.warnings = StrictWarnings()  # what MkDocs counts to refuse a strict build, counted alike

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also keeps this plugin object across the rebuilds of `mkdocs serve`,
        # and with it the last good rendering.
        self.serving = command == "serve"
        self.memory = Memory() if self.serving else None

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        """Watch rules.yaml from here, not from mkdocs.yml's ``watch:``.

        MkDocs validates the ``watch:`` paths on every rebuild: with rules.yaml missing the
        rebuild aborted and the preview hung. Watched from here (watchdog follows the path
        through its folder), its removal is a rebuild like any edit: the one-line error, the
        last good pages served, and its return seen.
        """
        with contextlib.suppress(OSError):  # no rules.yaml at the start: the first build said so
            server.watch(str(self._project(config).rules), recursive=False)
        return server

    @event_priority(100)  # before the search plugin reads its settings
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        build = sitebuild.current()
        if build is not None:  # a language build started by the main build
            self.site = build.rendering.sites[build.code]
            sitebuild.configure_language(config, build)
        else:
            try:  # the theme writes site_url into every page unescaped: refused as check refuses it
                checked_site_url(Path(config.config_file_path), config.site_url)
            except RulesdocError as error:
                raise PluginError(str(error)) from None
            self.warnings.attach()  # detached when the build ends (on_post_build, on_build_error)
            if not self.serving:
                sitebuild.start_helper(config, self._project(config).root)
            self.rendering = self._render(config)
            self.site = next(iter(self.rendering.sites.values()))
            sitebuild.configure_main(config, self.rendering, keep=self.serving)
            if not self.serving:
                try:  # `site` a file, a read-only folder: said now, not after the whole build
                    self._stage_site(config)
                except RulesdocError as error:
                    self._release()
                    raise PluginError(str(error)) from None
        _apply_language(config, self.site)
        # The scoring page's calculator, in every build (the language builds point at the root's).
        config.extra_javascript = assets.with_script(list(config.extra_javascript), _module_script)
        return config

    def _render(self, config: MkDocsConfig) -> Rendering:
        """Every language's site, or the build's one-line error (the site folder is not touched yet).

        Under ``mkdocs serve`` a failed rebuild would hold every request until a build succeeds:
        there the error is one line in the terminal, and the preview keeps the last good pages.
        """
        project = self._project(config)
        self.strict = strict = self.config.strict and not self.serving
        try:
            rendering = prepare(
                project, list(self.config.languages), strict, self.memory, defer=not self.serving
            )
        except RulesdocError as error:
            if not self.serving or self.last_good is None:
                raise PluginError(str(error)) from None
            preview_log.error("%s (the preview shows the last good pages until this is fixed)", error)
            return self.last_good
        for warning in rendering.warnings:
            preview_log.warning("%s", warning)
        self.last_good = rendering
        return rendering

    def _project(self, config: MkDocsConfig) -> Project:
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        return Project(
            root / self.config.rules, root / self.config.templates, root / self.config.locales, root
        )

    def _stage_site(self, config: MkDocsConfig) -> None:
        """Write the new site beside the old one; :meth:`on_post_build` swaps it in whole."""
        final = Path(config.site_dir).resolve()
        self.swap = files.FolderSwap(final)
        config.site_dir = str(
            self.swap.start(f"rulesdoc: another build is writing {display_path(final)}; waiting for it")
        )

    def on_files(self, files_: Files, config: MkDocsConfig) -> Files:
        assert self.site is not None
        if sitebuild.current() is None:
            ours = assets.site_files()  # copied once, to the site root, like the docs folder's
            for uri, content in ours.items():
                if (existing := files_.get_file_from_path(uri)) is not None:
                    files_.remove(existing)
                files_.append(File.generated(config, uri, content=content))
            rootfiles.note(files_, also=tuple(ours))
        else:
            rootfiles.share(files_)
        for name, text in self.site.pages:
            existing = files_.get_file_from_path(name)
            if existing is not None:
                files_.remove(existing)
            files_.append(File.generated(config, name, content=text))
        return files_

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if sitebuild.current() is None:
            return html  # the source language's build: the site root is its own
        return rootfiles.point_at_site_root(html, page.url)

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        return sitebuild.shared_environment(env, config.theme.dirs)

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        # The switcher and the hreflang links point at this same page in every language offered
        # (a language below its check.yaml threshold is built, but not offered: generator/i18n/policy.py).
        assert self.site is not None
        rendering = self._rendering()
        here = self.site.language
        config.extra["alternate"] = [
            {"name": language.name, "lang": language.tag, "link": counterpart(here, language, page.url)}
            for language in rendering.offered
        ]
        if sitebuild.current() is not None:  # the reader's palette is the site's, not the language's
            config.extra["scope"] = publishing.palette_scope(str(context.get("base_url") or "."))
        return context

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        """A 404 page has the switcher too (to every language's 404 page), and its script knows
        the languages' folders (:mod:`generator.site.publishing`)."""
        if template_name != "404.html" or self.site is None:
            return context
        rendering = self._rendering()
        here = self.site.language
        config.extra["alternate"] = [
            {"name": language.name, "lang": language.tag, "link": counterpart(here, language, "404.html")}
            for language in rendering.offered  # as on every page: not those below their threshold
        ]
        # Relative URLs, made the site root's by its script wherever the host shows it (MkDocs
        # makes them absolute from site_url's path, or from "/": wrong under /REPO/).
        context["base_url"] = "."
        folders = [language.tag for language in rendering.languages if not language.is_source]
        config.extra["rulesdoc_not_found"] = source.not_found_data(folders, here, self._root_url(config))
        return context

    def _rendering(self) -> Rendering:
        build = sitebuild.current()
        rendering = build.rendering if build is not None else self.rendering
        assert rendering is not None
        return rendering

    def _root_url(self, config: MkDocsConfig) -> str | None:
        """The site root's address (``site_url`` as the main build has it), or None."""
        build = sitebuild.current()
        url = build.site_url if build is not None else config.site_url
        return (url if url.endswith("/") else url + "/") if url else None

    def _hreflang(self, output: str, page_url: str, config: MkDocsConfig) -> str:
        """The page's hreflang links with the ``x-default``; absolute with ``site_url``."""
        rendering = self._rendering()
        root = self._root_url(config)
        absolute = (
            {language.tag: root + language_root(language) + page_url for language in rendering.languages}
            if root
            else None
        )
        return publishing.hreflang_links(output, rendering.languages[0].tag, absolute)

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        if sitebuild.current() is None and self.rendering is not None and not self.serving:
            # The theme is compiled now: the language builds start, beside the source's.
            sitebuild.start_languages(config, self.rendering)
        output = self._hreflang(compact_alternates(output), page.url, config)
        return self._finish(output)

    def on_post_template(self, output_content: str, /, *, template_name: str, config: MkDocsConfig) -> str:
        """The theme's own pages (404.html) too: they are no Markdown page."""
        if not template_name.endswith(".html"):
            return output_content  # sitemap.xml
        if template_name == "404.html":
            output_content = self._hreflang(compact_alternates(output_content), "404.html", config)
        return self._finish(output_content)

    def _finish(self, output: str) -> str:
        return chrome.finish_page(output, self.site) if self.site is not None else output

    def on_post_build(self, *, config: MkDocsConfig) -> None:
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
            raise PluginError(str(error)) from None
        if config.site_url:  # every language's pages in the root sitemap, for crawlers given it
            publishing.write_sitemap(
                Path(config.site_dir),
                config.site_url,
                # the languages offered: one below its check.yaml threshold is built, not advertised
                [(language.tag, language_root(language)) for language in self.rendering.offered],
            )
        self.warnings.detach()
        if config.strict and self.warnings.count:
            return  # MkDocs refuses the build next (strict): the old site stays, the new is removed
        if self.swap is not None:
            try:
                self.swap.finish()
            except RulesdocError as error:
                raise PluginError(str(error)) from None  # on_build_error removes the new site
            config.site_dir = str(self.swap.target)
            self._release()

    def on_build_error(self, *, error: Exception) -> None:
        if sitebuild.current() is None:
            self.warnings.detach()
            helper.stop()
            sitebuild.stop_languages()
        if sitebuild.current() is None and self.swap is not None:
            self._release()  # removes the new site
        if sitebuild.current() is None and isinstance(error, OSError):
            # MkDocs' own writes (theme files, pages) on a full disk or past `ulimit -f`: one line,
            # not its traceback; the old site is untouched (the new one was being built beside it).
            written = error.filename2 or error.filename
            where = display_path(written) if written else "the site"
            mkdocs_package.logger().error("%s: cannot write: %s", where, error.strerror or error)
            raise Abort("Aborted: the site could not be written; the previous site is unchanged") from None

    def _release(self) -> None:
        if self.swap is not None:
            self.swap.close()
            self.swap = None


def _apply_language(config: MkDocsConfig, site: LanguageSite) -> None:
    """The theme, search and Markdown settings that make a build speak one language (decided by
    the site source, :mod:`generator.site.source`)."""
    config.theme["language"] = theme_language(site.language)
    config.theme["direction"] = site.language.direction
    config.site_name = site.site_name
    if has_search(config):
        set_search_language(config, site.search)
    toc = config.mdx_configs.setdefault("toc", {})
    if isinstance(toc, dict):
        toc["permalink_title"] = source.permalink_title(site)
    try:
        config.theme["palette"] = source.palette(config.theme.get("palette"), site)
    except RulesdocError as error:
        raise PluginError(f"mkdocs.yml: {error.message}") from None


def _module_script(path: str) -> ExtraScriptValue:
    """``extra_javascript`` entry of a module script, as MkDocs' validation makes one for ``.mjs``."""
    script = ExtraScriptValue(path)
    script.type = "module"
    return script

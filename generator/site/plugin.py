"""The MkDocs plugin: a thin adapter from MkDocs' events to rulesdoc's site build.

Each event delegates to :class:`rulesdoc.site.main_build.MainBuild` (the run's state and the
orchestration of the language builds) or to the site source's pieces (:mod:`rulesdoc.site.source`,
:mod:`rulesdoc.site.rootfiles`), in a few lines. ProperDocs runs this plugin too (it reads the
``mkdocs.plugins`` entry points); Zensical runs no plugin, and rulesdoc drives it from the same
site source instead (:mod:`rulesdoc.site.zensical`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import jinja2
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from rulesdoc.io.project import Project
from rulesdoc.site import assets, publishing, rootfiles
from rulesdoc.site import build as sitebuild
from rulesdoc.site.main_build import MainBuild

NOT_FOUND = "404.html"


class RulesdocConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs is untyped here
    rules = c.Type(str, default="rules.yaml")
    templates = c.Type(str, default="templates")
    locales = c.Type(str, default="locales")
    strict = c.Type(bool, default=True)  # refuse what `check` calls an error, instead of warning
    languages = c.ListOfItems(c.Type(str), default=[])  # the published languages; default: every catalog


class RulesdocPlugin(BasePlugin[RulesdocConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.run = MainBuild(serving=False)

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also keeps this plugin object across the rebuilds of `mkdocs serve`,
        # and with it the last good rendering.
        self.run = MainBuild(serving=command == "serve")

    def on_serve(self, server: Any, /, *, config: MkDocsConfig, builder: Any) -> Any:
        # rules.yaml is watched from here, not from mkdocs.yml's `watch:`, which MkDocs validates on
        # every rebuild: with rules.yaml missing the preview hung; here its removal is an edit.
        with contextlib.suppress(OSError):  # no rules.yaml at the start: the first build said so
            server.watch(str(self._project(config).rules), recursive=False)
        return server

    @event_priority(100)  # before the search plugin reads its settings
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        options = self.config
        self.run.configure(config, self._project(config), list(options.languages), options.strict)
        # The scoring page's calculator, in every build (the language builds point at the root's).
        config.extra_javascript = assets.with_script(list(config.extra_javascript), ExtraScriptValue)
        return config

    def _project(self, config: MkDocsConfig) -> Project:
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        options = self.config
        return Project(root / options.rules, root / options.templates, root / options.locales, root)

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        if sitebuild.current() is None:
            ours = assets.site_files()  # the calculator's scripts: once, at the site root, like docs/
            _generate(files, config, ours.items())
            rootfiles.note(files, also=tuple(ours))
        else:
            rootfiles.share(files)
        _generate(files, config, self.run.pages())
        return files

    def on_page_content(self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files) -> str:
        if sitebuild.current() is None:
            return html  # the source language's build: the site root is its own
        return rootfiles.point_at_site_root(html, page.url)

    def on_env(self, env: jinja2.Environment, /, *, config: MkDocsConfig, files: Files) -> jinja2.Environment:
        return sitebuild.shared_environment(env, config.theme.dirs)

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        config.extra["alternate"] = self.run.alternates(page.url)  # the switcher: this same page
        if sitebuild.current() is not None:  # the reader's palette is the site's, not the language's
            config.extra["scope"] = publishing.palette_scope(str(context.get("base_url") or "."))
        return context

    def on_template_context(
        self, context: TemplateContext, /, *, template_name: str, config: MkDocsConfig
    ) -> TemplateContext:
        if template_name != NOT_FOUND:
            return context
        # The 404 page has the switcher too (to every language's 404 page), relative URLs (made the
        # site root's by its script wherever the host shows it), and its script's data.
        config.extra["alternate"] = self.run.alternates(NOT_FOUND)
        context["base_url"] = "."
        config.extra["rulesdoc_not_found"] = self.run.not_found_data(config)
        return context

    def on_post_page(self, output: str, /, *, page: Page, config: MkDocsConfig) -> str:
        if sitebuild.current() is None and not self.run.serving and self.run.rendering is not None:
            # The theme is compiled now: the language builds start, beside the source's.
            sitebuild.start_languages(config, self.run.rendering)
        return self.run.finish_page(output, page.url, config)

    def on_post_template(self, output_content: str, /, *, template_name: str, config: MkDocsConfig) -> str:
        if template_name != NOT_FOUND:  # the theme's other pages: sitemap.xml
            return output_content
        return self.run.finish_page(output_content, NOT_FOUND, config)

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        self.run.post_build(config)

    def on_build_error(self, *, error: Exception) -> None:
        self.run.failed(error)


def _generate(files: Files, config: MkDocsConfig, generated: Iterable[tuple[str, str | bytes]]) -> None:
    """Our files (pages, scripts) in the build, in place of any the docs folder has of that name."""
    for uri, content in generated:
        existing = files.get_file_from_path(uri)
        if existing is not None:
            files.remove(existing)
        files.append(File.generated(config, uri, content=content))

"""The MkDocs glue: one MkDocs build per language, orchestrated from the main build.

``mkdocs build`` / ``mkdocs serve`` on the repository's ``mkdocs.yml`` builds the
source language at the site root; after it, this plugin builds every other
language into ``<site_dir>/<lang>/`` from the same ``mkdocs.yml``. Each language
so gets its own search index (with its own lunr pipeline), its own 404 page,
``<html lang>``, theme UI language and site name: the known weaknesses of a
single multi-language build (mkdocs-static-i18n #31, #129, #271, #284, #326).

Pages are not files in ``docs/``: the main build renders every page template in
every language with :mod:`generator.render`, before MkDocs writes anything, and
hands each language build its pages as generated files. ``serve`` re-renders
whenever ``rules.yaml``, a template or a catalog changes (they are listed under
``watch:``); a bad input fails ``build`` with its one-line error, while ``serve``
prints that line and keeps showing the last good pages until the input is fixed.
"""

from __future__ import annotations

import logging
import posixpath
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from mkdocs.commands.build import build
from mkdocs.config import base, load_config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils.templates import TemplateContext

from generator.errors import RulesdocError
from generator.i18n import SOURCE_LANGUAGE, Language, Translator, discover_languages, select_languages
from generator.render import Project, RenderedPage, Renderer
from generator.schema import publish_schema
from generator.view import site_name

log = logging.getLogger("mkdocs.plugins.rulesdoc")
# Input errors while previewing: outside the "mkdocs" logger, whose strict mode would count an
# error and fail the rebuild, which leaves `mkdocs serve` holding every request until one succeeds.
preview_log = logging.getLogger("rulesdoc")

# The language of the build in progress; None for the main (source language) build.
_building: ContextVar[str | None] = ContextVar("rulesdoc_building", default=None)

# lunr.js pipelines Material ships for our languages; others search with English's.
_LUNR = {
    "da",
    "de",
    "en",
    "es",
    "fi",
    "fr",
    "hi",
    "hu",
    "it",
    "ja",
    "nl",
    "no",
    "pt",
    "ro",
    "ru",
    "sv",
    "th",
    "tr",
}


class RulesdocConfig(base.Config):  # type: ignore[no-untyped-call]  # MkDocs is untyped here
    rules = c.Type(str, default="rules.yaml")
    templates = c.Type(str, default="templates")
    locales = c.Type(str, default="locales")
    strict = c.Type(bool, default=True)  # fail on a missing translation instead of marking it
    languages = c.ListOfItems(c.Type(str), default=[])  # default: every catalog


def search_language(code: str) -> str:
    return code if code in _LUNR else "en"


@dataclass(frozen=True)
class Rendering:
    """Every language's pages and site name, rendered by the main build before anything is written."""

    languages: tuple[Language, ...]  # the switcher's languages
    pages: dict[str, list[RenderedPage]]  # by language code, the source language included
    site_names: dict[str, str]


# What the main build rendered, handed to the language builds it runs.
_rendering: ContextVar[Rendering | None] = ContextVar("rulesdoc_rendering", default=None)


def render_site(project: Project, codes: Sequence[str], strict: bool) -> Rendering:
    """Render the source language and every selected language; any bad input raises here."""
    available = discover_languages(project.locales)
    languages = select_languages(available, codes)
    built = select_languages(available, [SOURCE_LANGUAGE])
    built += [language for language in languages if language.code != SOURCE_LANGUAGE]
    renderer = Renderer.load(project, available)
    pages: dict[str, list[RenderedPage]] = {}
    site_names: dict[str, str] = {}
    for language in built:
        pages[language.code] = renderer.render(language, strict)
        site_names[language.code] = site_name(Translator.load(language, mark_fallbacks=not strict))
    return Rendering(tuple(languages), pages, site_names)


class RulesdocPlugin(BasePlugin[RulesdocConfig]):  # type: ignore[no-untyped-call]
    def __init__(self) -> None:
        self.languages: list[Language] = []
        self.pages: list[RenderedPage] = []
        self.rendering: Rendering | None = None
        self.serving = False  # under `mkdocs serve`
        self.last_good: Rendering | None = None  # what the preview shows while an input is broken

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        # Defining on_startup also keeps this plugin object across the rebuilds of `mkdocs serve`,
        # and with it the last good rendering.
        self.serving = command == "serve"

    @event_priority(100)  # before the search plugin reads the theme language
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        code = _building.get() or SOURCE_LANGUAGE
        rendering = _rendering.get() if _building.get() is not None else None
        if rendering is None:  # the main build renders every language, before anything is written
            rendering = self._render(config)
        self.rendering = rendering
        self.languages = list(rendering.languages)
        self.pages = rendering.pages[code]
        config.theme["language"] = code
        config.site_name = rendering.site_names[code] or config.site_name
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if search is not None:
            search.config["lang"] = [search_language(code)]
        return config

    def on_files(self, files: Files, config: MkDocsConfig) -> Files:
        for page in self.pages:
            existing = files.get_file_from_path(page.name)
            if existing is not None:
                files.remove(existing)
            files.append(File.generated(config, page.name, content=page.text))
        return files

    def on_page_context(
        self, context: TemplateContext, /, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> TemplateContext:
        # The switcher and the hreflang links point at this same page in every language.
        here = _building.get() or SOURCE_LANGUAGE
        config.extra["alternate"] = [
            {
                "name": language.name,
                "lang": language.code,
                "link": _counterpart(here, language.code, page.url),
            }
            for language in self.languages
        ]
        return context

    def _render(self, config: MkDocsConfig) -> Rendering:
        """Every language's pages, or the build's one-line error.

        MkDocs cleans the site folder after ``on_config``, so failing here keeps the last
        built site intact. Under ``mkdocs serve`` a failed rebuild would hold every request
        until a build succeeds: there the error is one line in the terminal, and the preview
        is rebuilt from the last good rendering until the input is fixed.
        """
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        project = Project(root / self.config.rules, root / self.config.templates, root / self.config.locales)
        try:
            rendering = render_site(project, self.config.languages, self.config.strict)
        except RulesdocError as error:
            if not self.serving or self.last_good is None:
                raise PluginError(str(error)) from None
            preview_log.error("%s (the preview shows the last good pages until this is fixed)", error)
            return self.last_good
        self.last_good = rendering
        return rendering

    def on_post_build(self, config: MkDocsConfig) -> None:
        if _building.get() is not None or self.rendering is None:
            return  # a language build: only the main build orchestrates
        publish_schema(Path(config.site_dir))  # rules.schema.json at the site root, for editors and apps
        rendering = self.rendering  # the language builds may share this plugin object
        for language in rendering.languages:
            if language.code == SOURCE_LANGUAGE:
                continue
            token = _building.set(language.code)
            handed = _rendering.set(rendering)
            try:
                sub = load_config(
                    config.config_file_path,
                    site_dir=str(Path(config.site_dir) / language.code),
                    site_url=_language_url(config.site_url, language.code),
                    strict=config.strict,
                    use_directory_urls=config.use_directory_urls,
                )
                build(sub)
            finally:
                _rendering.reset(handed)
                _building.reset(token)


def _language_root(code: str) -> str:
    return "" if code == SOURCE_LANGUAGE else f"{code}/"


def _counterpart(here: str, there: str, page_url: str) -> str:
    """The URL of the same page in another language, relative to this build's root."""
    target = _language_root(there) + page_url
    if here == SOURCE_LANGUAGE:
        return target or "./"
    return posixpath.join("..", target) if target else "../"


def _language_url(site_url: str | None, code: str) -> str | None:
    if not site_url:
        return None
    return site_url.rstrip("/") + "/" + code + "/"

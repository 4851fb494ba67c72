"""The MkDocs glue: one MkDocs build per language, orchestrated from the main build.

``mkdocs build`` / ``mkdocs serve`` on the repository's ``mkdocs.yml`` builds the
source language at the site root; after it, this plugin builds every other
language into ``<site_dir>/<lang>/`` from the same ``mkdocs.yml``. Each language
so gets its own search index (with its own lunr pipeline), its own 404 page,
``<html lang>``, theme UI language and site name: the known weaknesses of a
single multi-language build (mkdocs-static-i18n #31, #129, #271, #284, #326).

Pages are not files in ``docs/``: every page template is rendered for the
build's language by :mod:`generator.render` and handed to MkDocs as a generated
file, so ``serve`` re-renders whenever ``rules.yaml``, a template or a catalog
changes (they are listed under ``watch:``).
"""

from __future__ import annotations

import logging
import posixpath
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from mkdocs.commands.build import build
from mkdocs.config import base, load_config
from mkdocs.config import config_options as c
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from generator.errors import RulesdocError
from generator.i18n import SOURCE_LANGUAGE, Language, Translator, discover_languages, select_languages
from generator.render import (
    Project,
    RenderedPage,
    make_environment,
    page_templates,
    render_language,
    translation_status,
)
from generator.rules import load_rules
from generator.view import site_name

log = logging.getLogger("mkdocs.plugins.rulesdoc")

# The language of the build in progress; None for the main (source language) build.
_building: ContextVar[str | None] = ContextVar("rulesdoc_building", default=None)

# lunr.js pipelines Material ships for our languages; others search with English's.
_LUNR = {"da", "de", "en", "es", "fi", "fr", "hi", "hu", "it", "ja", "nl", "no", "pt", "ro", "ru", "sv", "th", "tr"}


class RulesdocConfig(base.Config):
    rules = c.Type(str, default="rules.yaml")
    templates = c.Type(str, default="templates")
    locales = c.Type(str, default="locales")
    strict = c.Type(bool, default=True)  # fail on a missing translation instead of marking it
    languages = c.ListOfItems(c.Type(str), default=[])  # default: every catalog


def search_language(code: str) -> str:
    return code if code in _LUNR else "en"


class RulesdocPlugin(BasePlugin[RulesdocConfig]):
    def __init__(self) -> None:
        self.languages: list[Language] = []
        self.language: Language | None = None
        self.pages: list[RenderedPage] = []

    @event_priority(100)  # before the search plugin reads the theme language
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig:
        root = Path(config.config_file_path or "mkdocs.yml").resolve().parent
        project = Project(
            root / self.config.rules, root / self.config.templates, root / self.config.locales
        )
        code = _building.get() or SOURCE_LANGUAGE
        try:
            available = discover_languages(project.locales)
            self.languages = select_languages(available, self.config.languages)
            self.language = select_languages(available, [code])[0]
            rules = load_rules(project.rules)
            env = make_environment(project.templates)
            status = translation_status(project.locales, available)
            self.pages = render_language(
                env, rules, self.language, page_templates(project.templates),
                project.templates, self.config.strict, status,
            )  # fmt: skip
            translator = Translator.load(self.language, mark_fallbacks=not self.config.strict)
        except RulesdocError as error:
            raise PluginError(str(error)) from None
        config.theme["language"] = code
        config.site_name = site_name(translator) or config.site_name
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
        self, context: dict[str, Any], page: Page, config: MkDocsConfig, nav: Any
    ) -> dict[str, Any]:
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

    def on_post_build(self, config: MkDocsConfig) -> None:
        if _building.get() is not None:
            return  # a language build: only the main build orchestrates
        for language in self.languages:
            if language.code == SOURCE_LANGUAGE:
                continue
            token = _building.set(language.code)
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

"""The site source: everything a static-site engine needs to publish every language, decided here.

rulesdoc renders and judges every language (:func:`rulesdoc.site.languages.prepare`, the one
policy ``check`` applies), and then says, per language, all a reader will see: the pages, the
site name, the theme strings (as the theme's language partial), the search language and
separator, the switcher and hreflang links to *the same page* in every offered language, the
palette toggles' names, the 404 page's data. An engine adapter only translates this into its
own terms (:mod:`rulesdoc.site.zensical`; the MkDocs plugin, :mod:`rulesdoc.site.plugin`), so
the engines cannot disagree on content, only on what an engine cannot do (named in
manual/publishing.md, "Platform").

:func:`write_source` lays it out as plain files (``rulesdoc site-source --out DIR``) that any
Material-compatible engine builds, one configuration per language:

    DIR/<tag>/mkdocs.yml        the language's configuration (relative paths)
    DIR/<tag>/docs/             its pages (front matter: the same page in every language) and
                                the project's static docs files
    DIR/<tag>/overrides/        our theme templates and the language's theme strings partial

Nothing here imports a site engine.
"""

from __future__ import annotations

import copy
import shutil
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from markupsafe import Markup

from rulesdoc.errors import Location, RulesdocError
from rulesdoc.i18n import theme
from rulesdoc.i18n.translate import Language
from rulesdoc.io.project import Project
from rulesdoc.localedata.material_partials import LANGUAGE_PARTIALS, material_dir, parse_partial
from rulesdoc.site import assets
from rulesdoc.site.config_file import checked_site_url, plugin_options, read_config
from rulesdoc.site.languages import (
    LanguageSite,
    Rendering,
    counterpart,
    language_root,
    page_url,
    prepare,
)

# Our theme templates, placed before the theme's own: a safe <title>, the translated 404 and
# footer, the switcher to the same page. Jinja and MiniJinja alike read them (no Python methods).
OVERRIDES = Path(__file__).parent / "theme_templates"
CONFIG_NAME = "mkdocs.yml"
NOT_FOUND = "404.html"


@dataclass(frozen=True)
class Alternate:
    """One language's address of a page, relative to the build's root (the theme's ``url``
    filter makes it relative to the page)."""

    name: str
    lang: str
    link: str


@dataclass(frozen=True)
class LanguageSource:
    site: LanguageSite
    folder: str  # under the site root: "" for the source language, "<tag>/" for the others
    config: dict[str, Any]  # the engine configuration of this language's build
    pages: tuple[tuple[str, str], ...]  # (name, Markdown with its front matter)

    @property
    def language(self) -> Language:
        return self.site.language


@dataclass(frozen=True)
class SiteSource:
    languages: tuple[LanguageSource, ...]  # the source language first
    offered: tuple[Language, ...]  # in the switcher, hreflang and sitemap (check.yaml thresholds)
    page_urls: tuple[str, ...]  # every language has these pages, and a 404 page
    site_url: str | None  # the site root's address, ending in "/", or None
    docs_dir: Path  # the project's docs folder: its static files are every language's
    user_overrides: Path | None  # the project's theme.custom_dir
    warnings: tuple[str, ...]
    rendering: Rendering


# ---------------------------------------------------------------- addresses


def alternates(here: Language, offered: tuple[Language, ...], page_url: str) -> list[Alternate]:
    return [
        Alternate(language.name, language.tag, counterpart(here, language, page_url)) for language in offered
    ]


# ---------------------------------------------------------------- what a language's build says


def palette(options: object, site: LanguageSite) -> object:
    """The theme's palette options, each toggle named by the language's theme message.

    The toggle names in mkdocs.yml are English; each must be one of the theme's messages (it
    would otherwise stay English in every language). The theme strings are escaped once, for
    the attributes Material writes them into unescaped (Markup: an autoescaping template does
    not escape them twice).
    """
    if not isinstance(options, list):
        return options
    by_english = {
        english: key for key, (english, _) in theme.EXTRA.items() if key.startswith("rulesdoc.palette.")
    }
    translated: list[object] = []
    for option in options:
        if not isinstance(option, dict) or not isinstance(option.get("toggle"), dict):
            translated.append(option)
            continue
        toggle = option["toggle"]
        key = by_english.get(" ".join(str(toggle.get("name", "")).split()))
        if key is None:
            raise RulesdocError(
                f"theme.palette toggle name {toggle.get('name')!r} is not one of the theme's messages "
                f"({', '.join(repr(english) for english in by_english)}): it would show in English "
                "in every language",
                Location(CONFIG_NAME),
            )
        translated.append({**option, "toggle": {**toggle, "name": Markup(site.strings[key])}})
    return translated


def permalink_title(site: LanguageSite) -> str:
    return Markup(site.strings["rulesdoc.permalink"]).unescape()


def not_found_data(source_folders: list[str], here: Language, root_url: str | None) -> dict[str, Any]:
    """What the 404 page's script needs: the languages' folders, its own, the root's path."""
    return {
        "folders": source_folders,
        "here": "" if here.is_source else here.tag,
        "root": urllib.parse.urlsplit(root_url).path if root_url else None,
    }


# ---------------------------------------------------------------- the source


def site_source(project: Project, codes: list[str] | None = None, strict: bool = True) -> SiteSource:
    """Every language's source: rendered, judged (``check``'s errors refused when strict) and
    configured; raises the one-line error of an input that cannot be read."""
    base = read_config(project.root / CONFIG_NAME)
    options = plugin_options(base)
    site_url = checked_site_url(project.root / CONFIG_NAME, base.get("site_url"))
    directory_urls = bool(base.get("use_directory_urls", True))
    chosen = codes if codes is not None else list(options.get("languages") or [])
    rendering = prepare(project, chosen, strict, directory_urls=directory_urls)
    names = [name for name, _ in next(iter(rendering.sites.values())).pages]
    urls = tuple(page_url(name, directory_urls) for name in names)
    offered = tuple(rendering.offered)
    folders = [language.tag for language in rendering.languages if not language.is_source]
    languages = []
    for site in rendering.sites.values():
        language = site.language
        pages = tuple(
            (name, _front_matter(alternates(language, offered, url)) + site.page_as_written(text))
            for (name, text), url in zip(site.pages, urls, strict=True)
        )
        config = _language_config(base, site, offered, site_url, not_found_data(folders, language, site_url))
        languages.append(LanguageSource(site, language_root(language), config, pages))
    theme_options = base.get("theme") if isinstance(base.get("theme"), dict) else {}
    custom = theme_options.get("custom_dir") if isinstance(theme_options, dict) else None
    return SiteSource(
        languages=tuple(languages),
        offered=offered,
        page_urls=urls,
        site_url=site_url,
        docs_dir=project.root / str(base.get("docs_dir") or "docs"),
        user_overrides=project.root / str(custom) if custom else None,
        warnings=tuple(rendering.warnings),
        rendering=rendering,
    )


def _front_matter(links: list[Alternate]) -> str:
    """The page's own switcher: the same page in every offered language (our alternate.html)."""
    data = {"rulesdoc_alternate": [{"name": a.name, "lang": a.lang, "link": a.link} for a in links]}
    return "---\n" + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000) + "---\n\n"


def _language_config(
    base: Mapping[str, Any],
    site: LanguageSite,
    offered: tuple[Language, ...],
    site_url: str | None,
    not_found: dict[str, Any],
) -> dict[str, Any]:
    """The user's mkdocs.yml made one language's: every value a reader sees decided here."""
    language = site.language
    config = copy.deepcopy({k: v for k, v in base.items() if k not in ("watch", "plugins", "hooks")})
    config["docs_dir"] = "docs"
    config["site_dir"] = "site"
    config["site_name"] = str(Markup(site.site_name).unescape())
    if site.copyright is not None:
        config["copyright"] = str(site.copyright)  # HTML, as the theme takes it
    if site.repo_name is not None:
        config["repo_name"] = site.repo_name  # text: the engine escapes it, as it does site_name
    if site_url is not None:
        config["site_url"] = site_url + language_root(language)
    theme_config = dict(config.get("theme") or {}) if isinstance(config.get("theme"), dict) else {}
    theme_config.update(
        # The language's own code (the engines' search reads it: Zensical segments CJK words by
        # it); our partial of that name shadows the theme's (write_source: theirs merged in).
        language=language.tag,
        direction=language.direction,
        custom_dir="overrides",
        palette=palette(theme_config.get("palette"), site),
    )
    if theme_config["palette"] is None:
        del theme_config["palette"]
    config["theme"] = theme_config
    config["markdown_extensions"] = _with_permalink_title(config.get("markdown_extensions"), site)
    if _has_plugin(base, "search"):
        config["plugins"] = {"search": {"separator": site.search.separator}}
    else:
        config["plugins"] = {"search": {"enabled": False}}
    scripts = config.get("extra_javascript")
    config["extra_javascript"] = assets.with_script(list(scripts) if isinstance(scripts, list) else [])
    extra = dict(config.get("extra") or {}) if isinstance(config.get("extra"), dict) else {}
    # The 404 page's switcher (every other page has its own, in its front matter).
    extra["alternate"] = [
        {"name": a.name, "lang": a.lang, "link": a.link} for a in alternates(language, offered, NOT_FOUND)
    ]
    extra["rulesdoc_not_found"] = not_found
    if not language.is_source:
        extra["scope"] = ".."  # the reader's palette is the site's, not the language's
    config["extra"] = extra
    return config


def _has_plugin(base: Mapping[str, Any], name: str) -> bool:
    plugins = base.get("plugins") or []
    names = plugins.keys() if isinstance(plugins, dict) else (
        next(iter(p)) if isinstance(p, dict) else p for p in plugins
    )  # fmt: skip
    return name in names or f"material/{name}" in names


def _with_permalink_title(extensions: object, site: LanguageSite) -> list[Any]:
    """The Markdown extensions, the heading anchors' tooltip in the language."""
    entries: list[Any] = []
    for entry in extensions if isinstance(extensions, list) else []:
        name, options = next(iter(entry.items())) if isinstance(entry, dict) else (entry, None)
        if name == "toc":
            options = {**(options or {}), "permalink_title": permalink_title(site)}
        entries.append({name: options} if options is not None else name)
    return entries


# ---------------------------------------------------------------- as files


def write_source(source: SiteSource, out: Path, theme_dir: Path | None = None) -> list[Path]:
    """Lay the source out under ``out`` (an empty or new folder): one build folder per language.

    ``theme_dir``: the engine theme's ``templates`` folder (default: Material's), whose language
    partial our theme strings shadow: its answers to keys we have no message for are kept.
    """
    theme_dir = theme_dir or material_dir()
    written: list[Path] = []
    for language in source.languages:
        folder = out / language.language.tag
        docs = folder / "docs"
        if source.docs_dir.is_dir():
            shutil.copytree(source.docs_dir, docs, ignore=_ignore_pages(language), dirs_exist_ok=True)
        for uri, content in assets.site_files().items():  # every build has its own copy
            path = docs / uri
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        for name, text in language.pages:
            path = docs / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", newline="\n")
            written.append(path)
        overrides = folder / "overrides"
        shutil.copytree(OVERRIDES, overrides, dirs_exist_ok=True)
        if source.user_overrides is not None and source.user_overrides.is_dir():
            shutil.copytree(source.user_overrides, overrides, dirs_exist_ok=True)  # theirs win, as in MkDocs
        partial = overrides / LANGUAGE_PARTIALS / f"{language.language.tag}.html"
        partial.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(engine_partial(language.site, theme_dir), encoding="utf-8", newline="\n")
        config = folder / CONFIG_NAME
        config.write_text(dump_config(language.config), encoding="utf-8", newline="\n")
        written.extend([partial, config])
    return written


def engine_partial(site: LanguageSite, theme_dir: Path | None) -> str:
    """The language's theme strings as the engine's language partial: ours, and the theme's own
    answers (its partial for the language, else its English) to the keys we have no message for
    (an engine's newer keys), so that no key shows as its name."""
    theirs: dict[str, str] = {}
    folder = theme_dir / LANGUAGE_PARTIALS if theme_dir is not None else None
    if folder is not None:
        tag = site.language.tag
        for code in ("en", tag.split("-")[0], tag):
            path = folder / f"{code}.html"
            if path.is_file():
                theirs.update(parse_partial(path.read_text(encoding="utf-8"), path))
    return theme.ThemeStrings({**theirs, **site.strings.values}).partial()


def _ignore_pages(language: LanguageSource) -> Any:
    names = {name for name, _ in language.pages}

    def ignore(folder: str, entries: list[str]) -> list[str]:
        return [entry for entry in entries if entry in names]  # ours replace the project's

    return ignore


class _Dumper(yaml.Dumper):
    """YAML as mkdocs.yml has it: a Markdown extension's callable (``!!python/name:``) kept."""


_Dumper.add_representer(Markup, lambda dumper, data: dumper.represent_str(str(data)))


def dump_config(config: Mapping[str, Any]) -> str:
    try:
        return yaml.dump(dict(config), Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1000)
    except yaml.YAMLError as error:
        raise RulesdocError(
            f"cannot write the configuration: {' '.join(str(error).split())}", Location(CONFIG_NAME)
        ) from None

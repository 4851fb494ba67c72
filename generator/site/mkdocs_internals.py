"""The one place the site code leans on MkDocs' and Material's internals (issue 22, goal 2).

Each use below is named, with what it does, why no public API does it, and what breaks if it
changes. :data:`ASSUMPTIONS` states each assumption as a small check that ``tests/test_seams.py``
runs; what a build does in order (items 3, 4 and 6) is watched in two builds of a one-page
project with a one-template theme, never read off the engine's source, by the checks of
:mod:`rulesdoc.site.mkdocs_probe`, which the test runs too. After an upgrade of mkdocs or
mkdocs-material, a failing check names the assumption that no longer holds, before a build
misbehaves in a way that is hard to trace.

The uses, by what they buy (measured by ``make bench``; see :mod:`rulesdoc.site.build`):

1. :func:`build_language`: ``mkdocs.commands.build.build(config)``, one MkDocs build per
   language in the same (forked) process. MkDocs has no public Python API for a build; a
   ``mkdocs build`` subprocess per language would import MkDocs, Material and our package again
   and read the catalogs again, each time. Breaks if the function moves or its signature changes.
2. :func:`copy_config`: a validated ``MkDocsConfig`` deep-copied per language build, its
   ``PluginCollection`` made anew. ``load_config`` (two YAML files, the plugins, the theme) took
   a fifth of a language build's time. Assumes a collection registers a plugin's events when the
   plugin is set into it, and that the config deep-copies (no handles in it).
3. :func:`share_theme`: a copy of the ``Theme`` (``copy.copy``) whose ``get_env`` (an instance
   attribute) returns the run's shared environment. ``Theme``'s constructor reads the theme's
   ``mkdocs_theme.yml`` files again and takes no environment; ``on_env`` comes too late (see 4).
   Assumes a theme copies whole with ``copy.copy``, that an instance's ``get_env`` answers for
   the class's, and that ``build`` asks ``config.theme.get_env()`` before listing the theme.
4. :class:`ListingEnvironment`: MkDocs lists the theme's static files by calling
   ``env.list_templates(filter_func=...)`` on the environment ``get_env`` gave, before the
   ``on_files`` and ``on_env`` events (``Files.add_files_from_theme``). The language builds
   answer that no file is to be copied (the main build put them at the site root), which saves
   walking Material's folder (ten thousand icon templates) per language. No event runs before
   that listing. Breaks if MkDocs finds theme files another way: then each language copies them
   again (a bigger, slower site, not a wrong one).
5. :func:`theme_url`: MkDocs' ``url`` filter (``mkdocs.utils.templates.url_filter``), wrapped
   so a language build's theme files point at the site root. The filter is registered by
   ``Theme.get_env`` under the name ``url``; MkDocs exports no function for it.
6. :class:`~rulesdoc.site.strict_warnings.StrictWarnings`: whether MkDocs will refuse a strict
   build. MkDocs counts the warnings logged under the ``mkdocs`` logger during a build and
   aborts a strict one *after* the ``on_post_build`` event, where our plugin swaps the new site
   in. We count the same warnings with a plain ``logging.Handler`` (public API) and do not swap
   in a build MkDocs is about to refuse. Breaks (a refused build would replace the old site) if
   MkDocs counts elsewhere or checks before ``on_post_build``.
7. :func:`set_search_language`: Material's search plugin's options (``lang``, ``separator``,
   ``pipeline``) set per language build, in our ``on_config`` (priority 100, before the search
   plugin reads them in its own). A plugin has no public way to configure another; the options
   themselves are Material's documented ones.
8. :func:`read_mkdocs_yml`: MkDocs' YAML loader (``mkdocs.utils.yaml.yaml_load``), so ``check``
   reads the plugin's options as the build does (``!ENV``, ``!relative``). Not exported by name.
9. :data:`KEPT_BY_CLEAN`: MkDocs empties the site folder before a build but keeps names that
   start with a dot (``mkdocs.utils.clean_directory``): the preview keeps its language builds in
   such a folder between rebuilds (:mod:`rulesdoc.site.preview`).
10. :func:`build_timestamp`: the time MkDocs stamps a build with (``mkdocs.utils.get_build_timestamp``:
   ``SOURCE_DATE_EPOCH`` when set), for the root sitemap's gzip header, so it matches the
   sitemaps MkDocs writes and two builds of one commit are byte-identical.

Material's language partials (its theme strings) are read by :mod:`rulesdoc.localedata.material_partials`,
its own seam, checked by ``tests/test_seams.py``.

No engine module is imported here at the top: each use imports it, through
:mod:`rulesdoc.site.mkdocs_package` (``mkdocs``, or ``properdocs`` where ProperDocs replaces
MkDocs), so the commands that need no engine run with neither installed, and build machinery
costs a command only when it builds.
"""

from __future__ import annotations

import copy
import functools
import inspect
import io
import os
import tempfile
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

import jinja2

from rulesdoc.seam import Assumption, holds, installed
from rulesdoc.site import mkdocs_package

if TYPE_CHECKING:
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.theme import Theme

    from rulesdoc.i18n.theme import SearchSettings

# ---------------------------------------------------------------- 1. a build in this process


def build_language(config: MkDocsConfig) -> None:
    """One whole MkDocs build of ``config`` (every event, strict mode included)."""
    mkdocs_package.module("commands.build").build(config)


# ---------------------------------------------------------------- 2. a config copied, not read again


def copy_config(validated: MkDocsConfig, site_dir: str, site_url: str | None) -> MkDocsConfig:
    """A copy of a validated config, as ``load_config`` would have made it for another build.

    As ``load_config`` does across the rebuilds of ``mkdocs serve``, a plugin that keeps state
    across builds (it defines ``on_startup`` or ``on_shutdown``: ours) is the same object in every
    build; the others are new copies. The collection is made anew: it registers each plugin's
    events as the plugin is set into it.
    """
    plugins = mkdocs_package.module("plugins").PluginCollection()
    for name, plugin in validated.plugins.items():
        kept = hasattr(plugin, "on_startup") or hasattr(plugin, "on_shutdown")
        plugins[name] = plugin if kept else copy.deepcopy(plugin)
    config = copy.deepcopy(validated, {id(validated.plugins): plugins})
    config.site_dir = site_dir
    config.site_url = site_url
    return config


# ---------------------------------------------------------------- 3, 4, 5. the theme's environment


def share_theme(original: Theme, environment: Callable[[Theme], jinja2.Environment]) -> Theme:
    """A copy of ``original`` whose ``get_env()`` is ``environment(original)``: ``original``'s own
    ``get_env()`` still makes the theme's environment (a new one each call)."""
    shared = copy.copy(original)
    vars(shared)["get_env"] = functools.partial(environment, original)
    return shared


class ListingEnvironment(jinja2.Environment):
    """An environment whose answer to MkDocs' listing of the theme's files is :meth:`theme_files`."""

    def list_templates(self, extensions: Collection[str] | None = None, filter_func: Any = None) -> list[str]:
        return self.theme_files(filter_func)

    def theme_files(self, keep: Callable[[str], bool] | None) -> list[str]:
        return super().list_templates(filter_func=keep)


@jinja2.pass_context
def theme_url(context: jinja2.runtime.Context, value: str) -> str:
    """MkDocs' own ``url`` filter."""
    return _url_filter()(context, value)  # type: ignore[no-any-return]


@functools.cache
def _url_filter() -> Any:
    """Looked up once: the filter runs for every URL of every page."""
    return mkdocs_package.module("utils.templates").url_filter


# ---------------------------------------------------------------- 6. a strict build's refusal, foreseen


# StrictWarnings (generator/site/strict_warnings.py): its assumption is checked by a probe build
# (generator/site/mkdocs_probe.py).


# ---------------------------------------------------------------- 7. Material's search, per language


def has_search(config: MkDocsConfig) -> bool:
    return _search(config) is not None


def set_search_language(config: MkDocsConfig, settings: SearchSettings) -> None:
    search = _search(config)
    if search is not None:
        search.config["lang"] = [settings.lang]
        search.config["separator"] = settings.separator
        search.config["pipeline"] = list(settings.pipeline)


def _search(config: MkDocsConfig) -> Any:
    return config.plugins.get("material/search") or config.plugins.get("search")


# ---------------------------------------------------------------- 8, 9. mkdocs.yml, the site folder


def read_mkdocs_yml(handle: Any) -> Any:
    """mkdocs.yml as MkDocs reads it (``!ENV`` and ``!relative`` resolved)."""
    return mkdocs_package.module("utils.yaml").yaml_load(handle)


KEPT_BY_CLEAN = "."  # a name in the site folder starting with this survives MkDocs' emptying of it


def build_timestamp() -> int:
    return mkdocs_package.module("utils").get_build_timestamp()  # type: ignore[no-any-return]


# ---------------------------------------------------------------- the assumptions, checked


def versions() -> str:
    return installed(mkdocs_package.name(), "mkdocs-material")


def _check_build() -> None:
    mkdocs_build = mkdocs_package.module("commands.build")
    parameters = inspect.signature(mkdocs_build.build).parameters
    holds(list(parameters)[0] == "config", f"build's parameters are {list(parameters)}")


def _check_copy_config() -> None:
    MkDocsConfig = mkdocs_package.module("config.defaults").MkDocsConfig
    plugins_module = mkdocs_package.module("plugins")
    BasePlugin: Any = plugins_module.BasePlugin
    Files = mkdocs_package.module("structure.files").Files
    called: list[str] = []

    class Probe(BasePlugin):  # type: ignore[misc]
        def on_files(self, files: Any, /, *, config: Any) -> Any:
            called.append("files")
            return files

    plugins = plugins_module.PluginCollection()
    plugins["probe"] = copy.deepcopy(Probe())
    config = MkDocsConfig()
    plugins.on_files(Files([]), config=config)
    holds(called == ["files"], "a plugin set into a PluginCollection no longer has its events run")
    copied = copy.deepcopy(config, {id(config.plugins): plugins})
    holds(type(copied) is MkDocsConfig, "a deep-copied config is no longer a MkDocsConfig")


# Material's theme, not MkDocs' built-in one: ProperDocs removed that, and Material is the theme we build.
CHECKED_THEME = "material"


def _check_listing() -> None:
    MkDocsConfig = mkdocs_package.module("config.defaults").MkDocsConfig
    Files = mkdocs_package.module("structure.files").Files
    asked: list[Any] = []

    class Listing(ListingEnvironment):
        def theme_files(self, keep: Callable[[str], bool] | None) -> list[str]:
            asked.append(keep)
            return []

    Files([]).add_files_from_theme(Listing(), MkDocsConfig())
    holds(
        len(asked) == 1 and callable(asked[0]),
        "Files.add_files_from_theme no longer lists env.list_templates",
    )


def _check_url_filter() -> None:
    env = mkdocs_package.module("theme").Theme(name=CHECKED_THEME).get_env()
    holds(
        env.filters.get("url") is mkdocs_package.module("utils.templates").url_filter,
        "the theme's `url` filter is another function",
    )


def _check_search() -> None:
    mkdocs_package.alias_mkdocs()  # Material imports mkdocs
    from material.plugins.search.plugin import SearchPlugin

    options = dict(SearchPlugin.config_class._schema)
    for option in ("lang", "separator", "pipeline"):
        holds(option in options, f"Material's search plugin has no {option!r} option")
    priority = getattr(SearchPlugin.on_config, "mkdocs_priority", 0)
    holds(priority < 100, f"Material's search reads its options at priority {priority}, before ours (100)")
    from rulesdoc.i18n.theme import SearchSettings

    text = "site_name: probe\ntheme: {name: material, language: de}\nplugins: [search]\n"
    with tempfile.TemporaryDirectory() as folder:  # a config in German; the options set to Danish
        os.makedirs(os.path.join(folder, "docs"))
        config = mkdocs_package.module("config").load_config(
            config_file=io.StringIO(text), config_file_path=os.path.join(folder, "mkdocs.yml")
        )
        set_search_language(config, SearchSettings("da", r"[\s]+", ("stemmer",)))
        search = _search(config)
        search.on_config(config)
    kept = (search.config.lang, search.config.separator, search.config.pipeline)
    holds(
        kept == (["da"], r"[\s]+", ["stemmer"]),
        f"Material's search replaced the options set before it: {kept}",
    )


def _check_yaml() -> None:
    os.environ["RULESDOC_SEAM_PROBE"] = "probe"
    try:
        holds(
            read_mkdocs_yml(io.StringIO("a: !ENV RULESDOC_SEAM_PROBE\n")) == {"a": "probe"},
            "mkdocs.yml's !ENV tag is no longer read as the engine reads it",
        )
    finally:
        del os.environ["RULESDOC_SEAM_PROBE"]


def _check_clean() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.mkdir(os.path.join(folder, KEPT_BY_CLEAN + "kept"))
        os.mkdir(os.path.join(folder, "emptied"))
        mkdocs_package.module("utils").clean_directory(folder)
        holds(os.listdir(folder) == [KEPT_BY_CLEAN + "kept"], f"clean_directory left {os.listdir(folder)}")


def _check_timestamp() -> None:
    before = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = "1234567890"
    try:
        holds(build_timestamp() == 1234567890, "the build's time no longer follows SOURCE_DATE_EPOCH")
    finally:
        if before is None:
            del os.environ["SOURCE_DATE_EPOCH"]
        else:
            os.environ["SOURCE_DATE_EPOCH"] = before


ASSUMPTIONS: tuple[Assumption, ...] = (
    Assumption("build", "mkdocs.commands.build.build(config) runs one whole build", _check_build),
    Assumption(
        "copy_config",
        "a PluginCollection registers a plugin's events; a config deep-copies",
        _check_copy_config,
    ),
    Assumption(
        "theme_files",
        "MkDocs lists the theme's files through env.list_templates(filter_func=...)",
        _check_listing,
    ),
    Assumption(
        "url_filter", "the theme's `url` filter is mkdocs.utils.templates.url_filter", _check_url_filter
    ),
    Assumption(
        "search",
        "Material's search reads lang, separator, pipeline in its on_config, after ours",
        _check_search,
    ),
    Assumption("yaml", "mkdocs.utils.yaml.yaml_load resolves !ENV", _check_yaml),
    Assumption("clean", "MkDocs' emptying of the site folder keeps dot names", _check_clean),
    Assumption(
        "timestamp", "mkdocs.utils.get_build_timestamp() is SOURCE_DATE_EPOCH when set", _check_timestamp
    ),
)

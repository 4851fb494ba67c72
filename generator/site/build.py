"""The language builds, and what they share within one run (what is kept for the next run is
the user's cache's: :mod:`rulesdoc.io.cache`).

Every language is a MkDocs build of its own (its own search index, 404 page and theme
strings), run in worker processes forked from the main build, one per core. They share:

- **the theme's compiled templates**: one Jinja environment (each language's theme strings
  a partial of its own name in it), compiled by a helper process (:mod:`rulesdoc.site.helper`);
- **the validated configuration**: copied for each build, not read again;
- **the theme's files and the docs folder's static files**: copied once, at the site root;
  a language's pages point there with relative URLs (``../assets/...``) that work from
  disk and under any base path.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import os
import traceback
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort
from mkdocs.theme import Theme

from rulesdoc.errors import RulesdocError, display_path
from rulesdoc.pages.rebuild_memory import Memory, digest
from rulesdoc.site import helper, preview, rootfiles
from rulesdoc.site.languages import Judged, LanguageSite, Rendering, realize
from rulesdoc.site.mkdocs_internals import (
    ListingEnvironment,
    build_language,
    copy_config,
    share_theme,
    theme_url,
)

# Our templates, placed before Material's: a safe <title>, the translated 404 and footer.
OVERRIDES = Path(__file__).parent / "theme_templates"


@dataclass(frozen=True)
class LanguageBuild:
    """The language build in progress, and what the main build prepared for it."""

    code: str
    rendering: Rendering
    config_file: str
    site_dir: Path  # the main build's (staging) site folder
    site_url: str | None
    strict: bool
    use_directory_urls: bool


_current: ContextVar[LanguageBuild | None] = ContextVar("rulesdoc_language_build", default=None)


def current() -> LanguageBuild | None:
    return _current.get()


@dataclass
class _Run:
    """What one run's builds share in this process; forked workers inherit it (set up by every
    main build; a preview's rebuild keeps the compiled theme)."""

    env: jinja2.Environment | None = None
    partials: dict[str, str] = field(default_factory=dict)
    validated: MkDocsConfig | None = None  # mkdocs.yml as the language builds of this run read it
    started: _Started | None = None  # language builds running in worker processes
    pending: tuple[Rendering, MkDocsConfig, bool] | None = None  # what _build_one builds (a preview's?)


_run = _Run()


# ---------------------------------------------------------------- the main build


def configure_main(config: MkDocsConfig, rendering: Rendering, keep: bool = False) -> None:
    """A new run: our theme overrides go before the theme's own templates; nothing is shared yet.

    ``keep`` (a preview's rebuild, in the same process): the compiled theme stays, and the
    languages' theme strings are replaced in place, where its loader reads them. From then on
    the environment checks a template's source before it uses the compiled one (Jinja's public
    ``auto_reload``): a partial whose strings changed no longer equals the text it was compiled
    from (``DictLoader`` compares them), so it is compiled again, the others are kept; a theme
    file edited during the preview is read again too (a stat per template use).
    """
    _run.validated = None  # mkdocs.yml may have changed since the last run (a preview's rebuild)
    _insert_overrides(config)
    partials = rendering.partials()
    if not keep or _run.env is None:
        _run.env = None
        rootfiles.forget()
    else:  # the theme's file list and compiled templates carry over; see above for what reloads
        _run.env.auto_reload = True
    _run.partials.clear()
    _run.partials.update(partials)
    config.theme = share_theme(config.theme, _theme_environment)  # it hands out the shared environment


def start_helper(config: MkDocsConfig, root: Path) -> None:
    """Hand the helper process (:mod:`rulesdoc.site.helper`) the theme to compile and the project to
    extract, while the main build reads the catalogs. With one core, the main build does both
    (the theme's code still kept in the user's cache between runs).

    Measured gain: it takes ~0.3 s of CPU (the theme ~255 ms, the extraction ~45 ms) off the
    main build's serial part, which every language waits for: wall time, where a core is idle
    (the 6-language build's wall is 0.97 s in bench/RESULTS.md). On a busy machine it buys
    nothing: 6 languages, load 4 on 2 cores, best of 8 interleaved runs, 1.69 s CPU / 1.77 s wall
    with it, 1.59 s / 1.68 s without.
    """
    _insert_overrides(config)
    if workers() > 1:
        helper.start(config.theme, environment, root)
    else:
        helper.without_helper(config.theme, environment)


def _insert_overrides(config: MkDocsConfig) -> None:
    overrides = str(OVERRIDES)
    if overrides not in config.theme.dirs:
        config.theme.dirs.insert(1 if config.theme.custom_dir else 0, overrides)


class _SharedEnvironment(ListingEnvironment):
    """The main build's theme environment, shared by the language builds of the run (and by the
    rebuilds of a preview)."""

    theme_dirs: list[str]

    def theme_files(self, keep: Callable[[str], bool] | None) -> list[str]:
        """MkDocs lists the theme's files to copy them to the site. The language builds copy none
        (the main build put them at the site root); a preview's rebuild copies the first build's."""
        if current() is not None:
            return []
        return rootfiles.listing(self.theme_dirs, keep)


def shared_environment(theme_env: jinja2.Environment, dirs: list[str]) -> jinja2.Environment:
    """The run's environment (made from the theme's on first use): compiled templates shared."""
    if _run.env is None:
        _run.env = environment(theme_env, dirs)
        _run.env.bytecode_cache = helper.Compiled(helper.compiled())
    return _run.env


def environment(theme_env: jinja2.Environment, dirs: list[str]) -> _SharedEnvironment:
    """An environment of the run's kind, made from the theme's (also in the helper process:
    compiled code is the same only from environments alike)."""
    shared = _SharedEnvironment(
        loader=jinja2.ChoiceLoader([jinja2.DictLoader(_run.partials), theme_env.loader]),  # type: ignore[list-item]
        auto_reload=False,  # nothing changes during a build; a preview's rebuild turns it on (configure_main)
        extensions=list(theme_env.extensions),
    )
    shared.filters.update(theme_env.filters)
    shared.globals.update(theme_env.globals)
    shared.filters["url"] = _url
    if "script_tag" in theme_env.filters:
        shared.filters["script_tag"] = _script_tag(theme_env.filters["script_tag"])
    shared.theme_dirs = list(dirs)
    return shared


@jinja2.pass_context
def _url(context: jinja2.runtime.Context, value: str) -> str:
    """MkDocs' ``url`` filter; in a language build, theme files are the site root's."""
    if current() is not None and rootfiles.has(value):
        value = "../" + value
    return theme_url(context, value)


def _script_tag(original: Callable[..., str]) -> Callable[..., str]:
    """MkDocs' ``script_tag`` filter (its own ``url``, not ours); in a language build, a script
    of the site root's (the calculator's, :mod:`rulesdoc.site.assets`) is pointed there."""

    @jinja2.pass_context
    def script_tag(context: jinja2.runtime.Context, script: object) -> str:
        tag = original(context, script)
        path = str(script)
        if current() is None or not rootfiles.has(path):
            return tag
        here = f'src="{theme_url(context, path)}"'
        return Markup(str(tag).replace(here, f'src="{_url(context, path)}"', 1))

    return script_tag


def _theme_environment(theme: Theme) -> jinja2.Environment:
    """The theme as every build of the run sees it: one environment, shared."""
    return _run.env if _run.env is not None else shared_environment(theme.get_env(), theme.dirs)


# ---------------------------------------------------------------- the language builds


def configure_language(config: MkDocsConfig, build: LanguageBuild) -> None:
    _insert_overrides(config)
    config.theme = share_theme(config.theme, _theme_environment)


@dataclass
class _Started:
    """Language builds running in worker processes while the main build goes on."""

    pool: multiprocessing.pool.Pool
    codes: list[str]
    done: multiprocessing.pool.AsyncResult[list[tuple[Judged | None, str | None]]]


def start_languages(config: MkDocsConfig, rendering: Rendering) -> None:
    """Fork the language builds now, while the main build goes on with the source language's.

    Called once the main build has written its first page: the theme's templates are compiled
    by then, and the workers inherit them. With one core (or one language) the languages are
    built one after another at the end instead (:func:`build_languages`).
    """
    codes = list(rendering.sites)[1:]
    processes = min(len(codes), workers())
    if processes <= 1 or _run.started is not None:
        return
    _run.pending = (rendering, config, False)
    # The pool forks its workers as it is made: they inherit what this process made. (gc.freeze()
    # around the fork, to spare the workers copying the pages the collector touches, showed no
    # gain in interleaved runs: 48 languages, CPU best of 4 6.81 s without, 7.04 s with.)
    try:
        pool = multiprocessing.get_context("fork").Pool(processes)
    finally:
        _run.pending = None
    _run.started = _Started(pool, codes, pool.map_async(_build_one, codes, chunksize=1))


def stop_languages() -> None:
    """The main build failed: stop the language builds (their folders go with the staging one)."""
    if _run.started is not None:
        _run.started.pool.terminate()
        _run.started.pool.join()
        _run.started = None


def build_languages(config: MkDocsConfig, rendering: Rendering, memory: Memory | None = None) -> None:
    """Build every language but the source into ``<site>/<tag>/`` (or wait for the builds
    :func:`start_languages` started); a deferred rendering's languages are rendered and judged
    by their builds (``rendering.judged``: the caller settles them). Raise the first build that
    failed.

    ``memory`` (a preview's): a language whose build would be the same as last time is not
    built again; its last build is linked back into the site folder MkDocs emptied.
    """
    sites = list(rendering.sites.values())[1:]
    fingerprints = {site.language.code: _fingerprint(site, rendering) for site in sites} if memory else {}
    codes = [
        site.language.code
        for site in sites
        if memory is None
        or memory.builds.get(site.language.tag) != fingerprints[site.language.code]
        or not (Path(config.site_dir) / preview.BUILDS / site.language.tag).is_dir()
    ]
    if _run.started is not None:
        started, _run.started = _run.started, None
        with started.pool:
            done = started.done.get()
        codes = started.codes
    else:
        _run.pending = (rendering, config, memory is not None)
        try:
            done = [_build_one(code) for code in codes]
        finally:
            _run.pending = None
    for code, (judged, _) in zip(codes, done, strict=True):
        if judged is not None:
            rendering.judged[code] = judged
    found = [problem for _, problem in done if problem]
    if found:
        if memory is not None:
            memory.builds.clear()
        raise RulesdocError("; ".join(found))
    if memory is not None:
        for code in codes:
            memory.builds[rendering.sites[code].language.tag] = fingerprints[code]
        preview.restore(Path(config.site_dir), [site.language.tag for site in sites])


def _fingerprint(site: LanguageSite, rendering: Rendering) -> str:
    """What a language's build is made of: its pages, names, theme strings and the switcher."""
    switcher = [(other.tag, other.name) for other in rendering.offered]
    texts = (str(site.site_name), str(site.copyright), str(site.repo_name_html()))
    return digest(site.pages, *texts, site.strings.partial(), site.search, switcher)


def workers() -> int:
    """As many worker processes as cores; ``RULESDOC_WORKERS=1`` builds in one process (profiling).
    The workers inherit what the main build made (fork: POSIX, as rulesdoc.io.files is).

    Measured gain: wall time, where cores are idle (bench/RESULTS.md, a quiet machine: wall / CPU
    0.75, 0.65, 0.64 at 6, 20, 48 languages; one process has about 1.0). On a busy machine they buy
    nothing: 48 languages, load 4 on 2 cores, best of 4 interleaved runs, one process took
    5.77 s CPU / 6.14 s wall, the workers 7.04 s / 7.54 s.
    """
    setting = os.environ.get("RULESDOC_WORKERS", "")
    return max(1, int(setting)) if setting.isdigit() else (os.cpu_count() or 1)


def _language_config(job: LanguageBuild, site_dir: Path, site_url: str | None) -> MkDocsConfig:
    """A language build's configuration. Reading and validating mkdocs.yml (two YAML files, the
    plugins, the theme) took a fifth of a language build's time: a process does it once a run,
    and each language build gets a copy of its own, as load_config would have made it."""
    if _run.validated is None or _run.validated.hooks:
        _run.validated = load_config(
            job.config_file,
            site_dir=str(site_dir),
            site_url=site_url,
            strict=job.strict,
            use_directory_urls=job.use_directory_urls,
        )
        if _run.validated.hooks:  # the user's modules, loaded anew for each build: no copy stands in
            return _run.validated
    return copy_config(_run.validated, str(site_dir), site_url)


def _build_one(code: str) -> tuple[Judged | None, str | None]:
    """One language's build (rendered and judged first if deferred): its verdict, and what went
    wrong with the build, as a line, or None."""
    if _run.pending is None:
        raise RuntimeError(f"{code}: a language build started before the run was prepared")
    rendering, main, previewing = _run.pending
    site = rendering.sites[code]
    judged = None
    if rendering.deferred is not None:
        judged = realize(rendering, code)
        if judged.failure is not None or (rendering.deferred.strict and judged.report.errors):
            return judged, None  # the run will be refused: nothing of this language to build
    # A preview builds beside the site folder's languages, to link them back after MkDocs empties it.
    base = Path(main.site_dir) / preview.BUILDS if previewing else Path(main.site_dir)
    job = LanguageBuild(
        code=code,
        rendering=rendering,
        config_file=main.config_file_path,
        site_dir=Path(main.site_dir),
        site_url=main.site_url,
        strict=bool(main.strict),
        use_directory_urls=bool(main.use_directory_urls),
    )
    token = _current.set(job)
    try:
        site_url = job.site_url.rstrip("/") + "/" + site.language.tag + "/" if job.site_url else None
        build_language(_language_config(job, base / site.language.tag, site_url))
        return judged, None
    except (Abort, RulesdocError) as error:
        return judged, f"{site.language.tag}: {error}"
    except OSError as error:  # EFBIG, ENOSPC, EACCES where MkDocs writes the pages: its one line
        written = error.filename2 or error.filename  # a copy names its source first
        where = display_path(written) if written else "the site"
        return judged, f"{site.language.tag}: {where}: cannot write: {error.strerror or error}"
    except Exception as error:  # a worker must report, never die silently
        return judged, (
            f"{site.language.tag}: {type(error).__name__}: {error} ({traceback.format_exc(limit=-1).strip()})"
        )
    finally:
        _current.reset(token)

"""Work the main build hands to a helper process, to be done while it reads the catalogs.

Before any language can be built, the main build reads, judges and counts every catalog,
renders and checks the source language, and compiles the theme. Two of these need nothing
the others make: the theme's templates (compiled through Jinja's bytecode-cache interface,
the code kept in memory) and the extraction of the sources that the stale check compares
with messages.pot. A helper process forked at the start does both, and the main build takes
the results when it needs them. The theme's code is kept for the next run in the user's template
cache (:mod:`rulesdoc.pages.compiled`), while none of its templates changes; nothing else
outlives the run. The helper is a speed-up only: if it fails, the main build does the work
itself, with the same result and the same errors.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.pool
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import jinja2
import jinja2.meta
from babel.messages.catalog import Catalog
from jinja2.bccache import Bucket

from rulesdoc.errors import RulesdocError
from rulesdoc.i18n import extraction
from rulesdoc.pages.compiled import MISSING, code_cache

if TYPE_CHECKING:  # the site source and `check` use this module without any engine installed
    from mkdocs.theme import Theme

Environment = Callable[[jinja2.Environment, list[str]], jinja2.Environment]


class Compiled(jinja2.BytecodeCache):
    """Compiled templates in memory, by Jinja's key (the template's name and file), each checked
    against its source's checksum when used."""

    def __init__(self, code: dict[str, bytes] | None = None) -> None:
        self.code = code if code is not None else {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


class _Helper:
    """The helper process and what was asked of it."""

    def __init__(self, pool: multiprocessing.pool.Pool, root: Path) -> None:
        self.pool = pool
        self.root = root
        self.extraction: multiprocessing.pool.AsyncResult[Catalog] = pool.apply_async(
            extraction.extract, (root,)
        )
        self.theme: multiprocessing.pool.AsyncResult[dict[str, bytes]] = pool.apply_async(_compile_theme)


# Said, not swallowed: a failed helper is a bug, shown as a warning (the build goes on without it),
# on our logger, outside the engine's, whose strict mode would count it.
log = logging.getLogger("rulesdoc")
_helper: _Helper | None = None
_job: tuple[Theme, Environment] | None = None  # what the forked helper compiles
_kept_only: tuple[Theme, Environment] | None = None  # with no helper: the theme the cache may keep


def start(theme: Theme, make_environment: Environment, root: Path) -> None:
    """Fork the helper: it extracts the project at ``root``, then compiles ``theme``."""
    global _helper, _job
    stop()
    _job = (theme, make_environment)
    try:
        _helper = _Helper(multiprocessing.get_context("fork").Pool(1), root)  # forks now: it sees _job
    finally:
        _job = None


def without_helper(theme: Theme, make_environment: Environment) -> None:
    """No helper (one core, or ``RULESDOC_WORKERS=1``): :func:`compiled` gives the theme's code
    the user's cache kept, or compiles the set here to keep it; with no cache, none (each
    template is compiled on use, as many as the build uses)."""
    global _kept_only
    stop()
    _kept_only = (theme, make_environment)


def extracted(root: Path) -> Catalog:
    """The extraction of the project at ``root``: the helper's, or made here if it has none."""
    if _helper is not None and _helper.root == root:
        try:
            return _helper.extraction.get(timeout=600)
        except RulesdocError:
            raise  # bad input: the one-line error the extraction here would give
        except Exception as error:  # noqa: BLE001  # the helper failed: a speed-up only
            log.warning(
                "the helper's extraction failed (%s: %s); extracting here", type(error).__name__, error
            )
    return extraction.extract(root)


def compiled() -> dict[str, bytes]:
    """The helper's compiled theme, or with no helper the cache's (:func:`without_helper`), or
    none (then the main build compiles what it uses); the helper's work is done."""
    global _kept_only
    if _helper is None:
        job, _kept_only = _kept_only, None
        if job is None or code_cache() is None:
            return {}
        try:
            return compile_theme(*job)
        except Exception:  # noqa: BLE001  # a speed-up only: what fails here fails on use, said there
            return {}
    try:
        return _helper.theme.get(timeout=600)
    except Exception as error:  # noqa: BLE001  # the helper failed: a speed-up only
        log.warning(
            "the helper's theme compilation failed (%s: %s); compiling on use", type(error).__name__, error
        )
        return {}
    finally:
        stop()


def stop() -> None:
    global _helper, _kept_only
    _kept_only = None
    if _helper is not None:
        _helper.pool.terminate()
        _helper = None


def _compile_theme() -> dict[str, bytes]:
    """In the helper: :func:`compile_theme` of the theme it was given."""
    if _job is None:
        raise RuntimeError("the helper compiles the theme only after it was given one")
    return compile_theme(*_job)


def compile_theme(theme: Theme, make_environment: Environment) -> dict[str, bytes]:
    """Every template a page, the 404 page or the sitemap extends, includes or imports by a name
    written in it, compiled (a name made at render time is compiled on use); the set the user's
    cache kept from an earlier run, while none of them changed."""
    env = make_environment(type(theme).get_env(theme), theme.dirs)  # the class's: not the shared one
    roots = ["main.html", *theme.static_templates]
    kept = code_cache()
    found = kept.load_set(env, roots) if kept is not None else None
    if found is not None:
        return found  # compiled by an earlier run, from the same templates
    compiled = Compiled()
    members: dict[str, tuple[str | None, str]] = {}
    names, seen = list(roots), set()
    while names:
        name = names.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            source, filename, _ = env.loader.get_source(env, name)  # type: ignore[union-attr]
        except jinja2.TemplateNotFound:  # named under a condition (a feature off): compiled on use, if ever
            members[name] = (None, MISSING)  # kept as missing: a file made later is compiled here
            continue
        tree = env.parse(source, name, filename)
        names.extend(found for found in jinja2.meta.find_referenced_templates(tree) if found)
        bucket = compiled.get_bucket(env, name, filename, source)
        bucket.code = env.compile(tree, name, filename)
        compiled.set_bucket(bucket)
        members[name] = (filename, bucket.checksum)
    if kept is not None:
        kept.dump_set(env, roots, members, compiled.code)
    return compiled.code

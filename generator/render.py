"""Render every page template for every language: spec → engine → view model → Markdown.

The same functions serve the CLI, the MkDocs plugin, the checks and the tests.
Rendering happens in memory; files are written only once every page of every
language rendered, through a temporary folder, so a failure leaves the previous
output untouched.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import jinja2

from generator.errors import Location, RulesdocError, display_path
from generator.i18n import (
    CatalogStats,
    Formatter,
    Language,
    Translator,
    catalog_stats,
    discover_languages,
    read_catalog,
    select_languages,
)
from generator.model import Rules
from generator.rules import load_rules
from generator.view import page_context

log = logging.getLogger("rulesdoc")

PAGE_SUFFIX = ".md.j2"


@dataclass(frozen=True)
class Project:
    """Where the inputs live; every path may be overridden for tests and other repos."""

    rules: Path
    templates: Path
    locales: Path

    @classmethod
    def at(cls, root: Path, rules: Path | None = None) -> Project:
        return cls(rules or root / "rules.yaml", root / "templates", root / "locales")


@dataclass(frozen=True)
class RenderedPage:
    lang: str
    name: str  # "scoring.md"
    text: str
    missing: tuple[str, ...] = ()  # msgids that fell back to English


def make_environment(templates: Path) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates)),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown out; translations are escaped by the Translator instead
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.policies["ext.i18n.trimmed"] = True
    return env


def page_templates(templates: Path) -> list[str]:
    """Every page template: ``*.md.j2`` not starting with ``_`` (partials and macros)."""
    if not templates.is_dir():
        raise RulesdocError("templates folder not found", Location(display_path(templates)))
    return sorted(p.name for p in templates.glob(f"*{PAGE_SUFFIX}") if not p.name.startswith("_"))


def _template_frame(error: BaseException, templates: Path) -> Location | None:
    """The innermost template line of a traceback (Jinja rewrites its frames to template lines)."""
    root = templates.resolve()
    found = None
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename)
        if path.suffix == ".j2" and path.resolve().is_relative_to(root):
            found = Location(display_path(path), frame.lineno)
    return found


def _template_error(error: Exception, templates: Path, name: str) -> RulesdocError:
    """Any failure of a template, as one line naming the template file and line."""
    if isinstance(error, jinja2.TemplateSyntaxError):
        path = display_path(templates / (error.name or name))
        return RulesdocError(f"template syntax error: {error.message}", Location(path, error.lineno))
    where = _template_frame(error, templates)
    if isinstance(error, jinja2.TemplateNotFound):
        missing = templates / error.name if error.name else None
        if where is None and missing is not None and missing.is_dir():
            return RulesdocError("is a directory, not a template file", Location(display_path(missing)))
        return RulesdocError(
            f"template {error.name!r} not found in {display_path(templates)}",
            where or Location(display_path(templates / name)),
        )
    if isinstance(error, UnicodeDecodeError):  # the loader read a file: which one?
        files = (p for p in sorted(templates.rglob("*")) if p.is_file())
        culprit = next((p for p in files if p.read_bytes() == error.object), None)
        if culprit is not None:
            line = error.object[: error.start].count(b"\n") + 1
            return RulesdocError(
                f"template is not UTF-8 text ({error.reason}: byte 0x{error.object[error.start]:02x})",
                Location(display_path(culprit), line),
            )
    if isinstance(error, OSError) and where is None:
        where = Location(display_path(templates / name))
        return RulesdocError(f"cannot read template: {error.strerror}", where)
    what = str(error) if isinstance(error, jinja2.TemplateError) else f"{type(error).__name__}: {error}"
    return RulesdocError(f"template error: {what}", where or Location(display_path(templates / name)))


def render_language(
    env: jinja2.Environment,
    rules: Rules,
    language: Language,
    names: Sequence[str],
    templates: Path,
    strict: bool,
    status: tuple[CatalogStats, ...] = (),
) -> list[RenderedPage]:
    translate = Translator.load(language, mark_fallbacks=not strict)
    env.install_gettext_callables(  # type: ignore[attr-defined]
        translate.gettext,
        translate.ngettext,
        newstyle=True,
        pgettext=translate.pgettext,
        npgettext=translate.npgettext,
    )
    fmt = Formatter(language.locale)
    context = page_context(rules, translate, fmt, status)
    pages = []
    for name in names:
        try:
            text = env.get_template(name).render(page=context, f=context.facts, num=fmt.number)
        except RulesdocError:
            raise
        except Exception as error:  # anything a template does wrong is bad input, not a crash
            raise _template_error(error, templates, name) from None
        pages.append(RenderedPage(language.code, name[: -len(".j2")], text, tuple(translate.missing)))
    missing = translate.missing
    if missing and language.catalog_path is not None:
        where = Location(display_path(language.catalog_path))
        message = f"{len(missing)} message(s) untranslated or fuzzy, first: {missing[0]!r}"
        if strict:
            raise RulesdocError(message, where)
        log.warning("%s: %s (shown in English, marked %r)", where, message, "⚠")
    return pages


@dataclass(frozen=True)
class Renderer:
    """What every language's render shares, read once: rules, templates, catalog status."""

    rules: Rules
    templates: Path
    names: tuple[str, ...]
    env: jinja2.Environment
    status: tuple[CatalogStats, ...]

    @classmethod
    def load(cls, project: Project, status_of: Sequence[Language]) -> Renderer:
        """``status_of``: the languages the translation-status page lists."""
        return cls(
            rules=load_rules(project.rules),
            templates=project.templates,
            names=tuple(page_templates(project.templates)),
            env=make_environment(project.templates),
            status=translation_status(project.locales, status_of),
        )

    def render(self, language: Language, strict: bool) -> list[RenderedPage]:
        return render_language(
            self.env, self.rules, language, self.names, self.templates, strict, self.status
        )


def render_all(project: Project, codes: Sequence[str] = (), strict: bool = True) -> list[RenderedPage]:
    """Render every page template in every (or the chosen) language, in memory."""
    available = discover_languages(project.locales)
    languages = select_languages(available, codes)
    renderer = Renderer.load(project, available)
    return [page for language in languages for page in renderer.render(language, strict)]


def translation_status(locales: Path, languages: Sequence[Language]) -> tuple[CatalogStats, ...]:
    pot = locales / "messages.pot"
    template = read_catalog(pot) if pot.exists() else None
    return tuple(catalog_stats(language, template) for language in languages)


def write_pages(pages: Sequence[RenderedPage], out: Path) -> list[Path]:
    """Write ``out/<lang>/<page>.md``; all files are written to a temporary folder first, and
    every target is checked before the first one is replaced."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".rulesdoc-", dir=out))
    except OSError as error:
        where = Location(display_path(error.filename or out))
        raise RulesdocError(f"cannot create the output folder: {error.strerror}", where) from None
    written = []
    try:
        for page in pages:
            staged = staging / page.lang / page.name
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_text(page.text, encoding="utf-8", newline="\n")
        for page in pages:  # fail here, before any file is replaced, not halfway through the swap
            final = out / page.lang / page.name
            final.parent.mkdir(parents=True, exist_ok=True)
            if final.is_dir():
                raise IsADirectoryError(21, "Is a directory", str(final))
        for page in pages:
            final = out / page.lang / page.name
            os.replace(staging / page.lang / page.name, final)
            written.append(final)
    except OSError as error:
        where = Location(display_path(error.filename or out))
        raise RulesdocError(f"cannot write the output: {error.strerror}", where) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return written

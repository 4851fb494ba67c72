"""Render every page template for every language: spec → engine → view model → Markdown.

:class:`Workspace` reads what one run needs, once: the rules, the templates, every catalog with
the verdict on each of its entries. :meth:`Workspace.render` is the one rendering call: per
language, its pages or its error, and the messages it missed (once each, with the template line
that asked). A page that shows some English gets one translated notice under its heading
(:func:`add_notice`). What a miss or an error means is the policy's (:mod:`rulesdoc.i18n.policy`):
``check`` reports it, ``render`` and strict builds refuse it (:mod:`rulesdoc.cli.render_checked`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from rulesdoc.catalog import po
from rulesdoc.catalog.po import Key, LoadedCatalog
from rulesdoc.engine.model import Rules
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n.markup import attribute
from rulesdoc.i18n.policy import Policy, read_policy
from rulesdoc.i18n.stats import CatalogStats, count
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import (
    FALLBACK_OPEN,
    Language,
    Miss,
    Translator,
    discover_languages,
    judge_catalog,
)
from rulesdoc.i18n.verdicts import Verdict
from rulesdoc.io import folders
from rulesdoc.io.project import Project
from rulesdoc.localedata.cldr import Formatter, close_sentence_gaps
from rulesdoc.pages.calculator import calculator_data
from rulesdoc.pages.environment import PAGE_SUFFIX, LazyCounts, make_environment, page_templates
from rulesdoc.pages.places import (
    MarkingTranslator,
    Place,
    list_anchor,
    listing_sample,
    placed,
    places,
    status_link,
)
from rulesdoc.pages.rebuild_memory import Memory, folder_stamp
from rulesdoc.pages.template_errors import template_error
from rulesdoc.pages.view import page_context
from rulesdoc.spec.rules import load_rules

STATUS_PAGE = "translation-status"  # the notice links here when check.yaml names no translate_url


@dataclass(frozen=True)
class RenderedPage:
    lang: str  # the language's code
    name: str  # "scoring.md"
    text: str


@dataclass(frozen=True)
class LanguageResult:
    language: Language
    pages: tuple[RenderedPage, ...] = ()
    error: RulesdocError | None = None
    missed: tuple[Miss, ...] = ()
    calculator: str | None = None  # the calculator's JSON, as its pages hold it (None: no calculator)


@dataclass(frozen=True)
class _Kept:
    """What a language's marked render made that its published render takes as it is."""

    fmt: Formatter
    calculator: str | None  # the calculator's JSON: plain text, never marked
    missed: tuple[Miss, ...]  # the messages the calculator missed, in the order it asked


@dataclass
class Workspace:
    """Everything one run reads, read once and shared by the build, ``check`` and the CLI."""

    project: Project
    rules: Rules
    languages: list[Language]  # the source language first, then every catalog
    names: tuple[str, ...]
    env: jinja2.Environment
    template: LoadedCatalog | None  # messages.pot, if there is one
    count_names: Mapping[str, str]
    policy: Policy = field(default_factory=Policy)  # locales/check.yaml, read once
    verdicts: dict[str, dict[Key, Verdict]] = field(default_factory=dict)
    counted: dict[str, CatalogStats] = field(default_factory=dict)
    # How a language's pages are translated: the published Translator, or the screenshots'
    # marking one (generator/site/screenshots.py), which must never reach a published page.
    translator: Callable[[Language, Mapping[Key, Verdict] | None], Translator] = Translator
    # The address of a page of another language, as seen from this language's status page
    # (here, there, page name, anchor); the site sets it from its URL scheme. None: the layout of
    # `rulesdoc render`'s output, out/<code>/<page>.md.
    language_link: Callable[[Language, Language, str, str], str] | None = None
    placed: dict[str, CatalogStats] = field(default_factory=dict)
    _kept: dict[str, _Kept] = field(default_factory=dict, repr=False)
    _asked: frozenset[Key] | None = field(default=None, repr=False)

    @classmethod
    def load(
        cls, project: Project, required: Sequence[str] | None = None, memory: Memory | None = None
    ) -> Workspace:
        """``required``: the catalogs that must load (default: all); see :func:`discover_languages`.
        ``memory``: the preview's, to read again only what changed since its last rebuild."""
        read = memory.load if memory is not None else po.load
        template = read(project.pot, project.root) if project.pot.is_file() else None
        languages = discover_languages(project.locales, project.root, required, read, template)
        env = (
            memory.environment(project.templates, make_environment)
            if memory
            else make_environment(project.templates)
        )
        names = tuple(page_templates(project.templates))
        count_names = LazyCounts(env, project.templates)
        workspace = cls(
            project,
            load_rules(project.rules, project.root),
            languages,
            names,
            env,
            template,
            count_names,
            read_policy(project.locales, root=project.root),
        )
        basis = folder_stamp(project.templates) if memory is not None else None
        for language in languages:
            catalog = language.catalog
            if catalog is None:
                continue
            judge = functools.partial(judge_catalog, catalog, count_names)
            if memory is not None:
                workspace.verdicts[language.code] = memory.judged(language.code, catalog, basis, judge)
            else:
                workspace.verdicts[language.code] = judge()
        return workspace

    @functools.cached_property
    def template_keys(self) -> list[Key]:
        if self.template is not None:
            return [po.key_of(m) for m in self.template.messages()]
        return []

    @functools.cached_property
    def template_notes(self) -> dict[Key, str]:
        """Each POT entry's notes to translators (#.), for the status page's lists."""
        messages = self.template.messages() if self.template is not None else ()
        return {po.key_of(m): " ".join(m.auto_comments) for m in messages}

    def stats(self, language: Language) -> CatalogStats:
        """The one count of a language's messages (its verdicts are made once: so is the count)."""
        known = self.counted.get(language.code)
        if known is None:
            keys = self.template_keys
            if not keys and language.catalog is not None:
                keys = [po.key_of(m) for m in language.catalog.messages()]
            verdicts = self.verdicts.get(language.code, {})
            known = self.counted[language.code] = count(language, keys, verdicts, self.template_notes)
        return known

    @property
    def status(self) -> tuple[CatalogStats, ...]:
        """Every language's count, for the status pages' table. Each language's page lists only its
        own waiting messages (:meth:`waiting`): the pages' work grows with the languages, not their
        square (issue 32)."""
        return tuple(self.stats(language) for language in self.languages)

    def waiting(self, language: Language) -> CatalogStats:
        """The language's count, each message it still shows in English placed on its own pages
        (:meth:`locate`), for the list on its status page."""
        stats = self.stats(language)
        if not any((w.msgid, w.context) in self.page_keys() for w in stats.waiting):
            return stats  # only theme strings wait (the search box, the footer): nothing to render
        known = self.placed.get(language.code)
        if known is None:
            known = self.placed[language.code] = placed(stats, self.locate(language))
        return known

    def page_keys(self) -> frozenset[Key]:
        """The messages the pages ask for (the source language's render, once): a language whose
        waiting messages are none of these needs no render of its own to place them."""
        if self._asked is None:
            marking = MarkingTranslator(self.languages[0], self.verdicts.get(self.languages[0].code))
            self._render_one(self.languages[0], self.stats(self.languages[0]), marking, keep=True)
            self._asked = frozenset(marking.keys)
        return self._asked

    def locate(self, language: Language) -> dict[Key, Place]:
        """Where each message shows on the language's pages: rendered once more with every message
        marked (:mod:`rulesdoc.pages.places`); a language that cannot render has no places."""
        marking = MarkingTranslator(language, self.verdicts.get(language.code))
        result = self._render_one(language, listing_sample(self.stats(language)), marking, keep=True)
        return places([(page.name, page.text) for page in result.pages], marking.keys)

    @functools.cached_property
    def by_code(self) -> dict[str, Language]:
        """Each language by its code: every row of every status page looks one up."""
        return {language.code: language for language in self.languages}

    def status_page_link(self, here: Language, there_code: str, text: str) -> str:
        """From ``here``'s status page, a link to ``there_code``'s status page, at its list of
        waiting messages when it has one: the heading's anchor on ``here``'s own page (Markdown), HTML
        to another language's page in the site's URL scheme (:attr:`language_link`); ``here``'s own
        row, with nothing waiting, is ``text`` alone. ``text`` is Markdown, escaped."""
        there = self.by_code[there_code]
        anchor = list_anchor(there) if self.stats(there).waiting else ""
        if there.code == here.code:
            return f"[{text}](#{anchor})" if anchor else text
        if self.language_link is not None:
            url = self.language_link(here, there, STATUS_PAGE + ".md", anchor)
        else:
            url = f"../{there.code}/{STATUS_PAGE}.md" + (f"#{anchor}" if anchor else "")
        return f'<a href="{attribute(url)}" hreflang="{attribute(there.tag)}">{text}</a>'

    def help_url(self, language: Language) -> str | None:
        """Where the notice of a partly English page sends readers who can help translate."""
        url = self.policy.help_url(language.code)
        if url is None and STATUS_PAGE + PAGE_SUFFIX in self.names:
            # MkDocs resolves it per page; at the language's own list of waiting messages, on its
            # own status page (templates/translation-status.md.j2), when it has one.
            if not self.stats(language).waiting:
                return STATUS_PAGE + ".md"
            return STATUS_PAGE + ".md#" + list_anchor(language)
        return url

    def render(self, languages: Iterable[Language]) -> dict[str, LanguageResult]:
        """Each language's pages, or its error: one language that fails hides no other."""
        return {language.code: self._render_one(language, self.waiting(language)) for language in languages}

    def _render_one(
        self, language: Language, own: CatalogStats, translate: Translator | None = None, keep: bool = False
    ) -> LanguageResult:
        """``own``: the language's count and waiting messages, for its status page's list. ``keep``:
        keep what the language's next render can take as it is (the marked render's, for the
        published one): the numbers' Formatter and the calculator's data, which no mark reaches."""
        if translate is None:
            translate = self.translator(language, self.verdicts.get(language.code))
        kept = self._kept.pop(language.code, None)
        self.env.install_gettext_callables(  # type: ignore[attr-defined]
            translate.gettext,
            translate.ngettext,
            newstyle=True,
            pgettext=translate.pgettext,
            npgettext=translate.npgettext,
        )
        if kept is not None:
            fmt = kept.fmt
        else:
            rtl = language.direction == "rtl"
            fmt = Formatter(language.locale, isolate=rtl, list_ends=translate.list_ends())
        pages = []
        try:
            here = None if language.is_source else own
            context = page_context(self.rules, translate, fmt, self.status, here)
            if kept is not None:
                calculator = kept.calculator
                for miss in kept.missed:  # recorded as the calculator's lookups would record them
                    translate.missed.setdefault(miss.key, miss)
            else:
                before = set(translate.missed)
                calculator = calculator_data(self.env, self.project.templates, self.rules, translate, fmt)
                if keep:
                    missed = tuple(miss for key, miss in translate.missed.items() if key not in before)
                    self._kept[language.code] = _Kept(fmt, calculator, missed)
            for name in self.names:
                found_before = translate.found
                try:
                    template = self.env.get_template(name)
                    text = template.render(
                        page=context,
                        f=context.facts,
                        num=fmt.number,
                        calculator=calculator,  # JSON for a <script> element, or None
                        status_link=status_link,
                        status_page_link=functools.partial(self.status_page_link, language),
                    )
                except RulesdocError:
                    raise
                except Exception as error:  # anything a template does wrong is bad input, not a crash
                    raise template_error(error, self.project.templates, name) from None
                # One line per sentence in the template; no space between them in Japanese.
                text = close_sentence_gaps(text, language.locale)
                # Any English on the page (the view model translated some texts before the page):
                # a catalog's text is escaped, so only a fallback can carry this tag.
                if FALLBACK_OPEN in text:
                    all_english = translate.found == found_before
                    text = add_notice(text, translate, self.help_url(language), all_english)
                pages.append(RenderedPage(language.code, name[: -len(".j2")], text))
        except RulesdocError as error:
            return LanguageResult(language, (), error, tuple(translate.missed.values()))
        return LanguageResult(language, tuple(pages), None, tuple(translate.missed.values()), calculator)


NOTICE = "rulesdoc.untranslated"  # theme messages (generator/i18n/theme.py EXTRA)
NOTICE_ALL = "rulesdoc.untranslated_page"
HELP_TRANSLATE = "rulesdoc.help_translate"
_FIRST_HEADING = re.compile(r"^# .*\n", re.M)


def add_notice(text: str, translate: Translator, help_url: str | None, all_english: bool = False) -> str:
    """The page with one notice under its first heading: part of it (or, when the template
    found no translation at all, all of it) shows in English.

    A paragraph in Material's admonition classes and the ``note`` role (attr_list), linking
    to where translators help: ``translate_url`` of check.yaml, else the translation status
    page when the project has one. Its texts are theme messages, themselves marked as English
    where the catalog lacks them.
    """
    from rulesdoc.i18n.theme import EXTRA

    said = translate.pgettext(THEME_CONTEXT, EXTRA[NOTICE_ALL if all_english else NOTICE][0])
    link = ""
    if help_url is not None:
        link = f" [{translate.pgettext(THEME_CONTEXT, EXTRA[HELP_TRANSLATE][0])}]({help_url})"
    notice = f'{said}{link}\n{{: .admonition .info .rd-untranslated-notice role="note" }}\n\n'
    heading = _FIRST_HEADING.search(text)
    at = heading.end() if heading is not None else 0
    return text[:at] + ("\n" if heading is not None else "") + notice + text[at:].lstrip("\n")


# ---------------------------------------------------------------- writing pages


def write_pages(pages: Sequence[RenderedPage], out: Path) -> list[Path]:
    """Replace ``out`` with ``out/<lang>/<page>.md``, all or nothing.

    The new pages are written to a folder beside ``out``, which then takes its place
    in one step: a kill leaves the old output or the new one, never a mix. ``out`` is
    rulesdoc's own: a folder holding anything but rendered pages is refused.
    """
    foreign = _foreign_file(out)
    if foreign is not None:
        where = Location(display_path(foreign))
        raise RulesdocError(
            "the output folder holds files rulesdoc did not write; choose another --out", where
        )
    try:
        with folders.replacing(
            out, f"rulesdoc: waiting for another run writing {display_path(out)}"
        ) as staging:
            for page in pages:
                staged = staging / page.lang / page.name
                staged.parent.mkdir(parents=True, exist_ok=True)
                staged.write_text(page.text, encoding="utf-8", newline="\n")
            (staging / MARKER).write_text("rendered by rulesdoc: this folder is replaced whole\n")
    except OSError as error:
        where = Location(display_path(error.filename or out))
        raise RulesdocError(f"cannot write the output: {error.strerror}", where) from None
    return [out / page.lang / page.name for page in pages]


MARKER = ".rulesdoc-pages"


def _foreign_file(out: Path) -> Path | None:
    """A file in ``out`` that a render would destroy but did not write, if any."""
    if not out.exists() or (out / MARKER).is_file():
        return None
    if not out.is_dir():
        return out
    killed = folders.leftovers(out, out.name)  # a killed run's, inside a mount point: the run's own
    mine = (p for p in sorted(out.rglob("*")) if not any(p.is_relative_to(k) for k in killed))
    return next((p for p in mine if p.is_file() and p.suffix != ".md"), None)

"""Every language's site, as the site build prepares it: read, rendered, judged, settled.

The main build reads the workspace once (rules, templates, catalogs) and decides what every
language build needs: its theme strings, site name and search settings. Under ``mkdocs
build`` each language is then rendered and judged by its own build, in a worker process
(:func:`realize`), and the main build settles them all at its end (:meth:`Rendering.settle`):
the strict build refuses exactly what ``rulesdoc check`` calls an error, in its words and its
order, and nothing is published. The preview (``mkdocs serve``) renders and judges every
language up front, again only those an edit changed.
"""

from __future__ import annotations

import functools
import html
import posixpath
import re
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from rulesdoc import lint
from rulesdoc.errors import Refusal, RulesdocError
from rulesdoc.i18n import theme
from rulesdoc.i18n.theme import THEME_CONTEXT
from rulesdoc.i18n.translate import Language, Translator, judge_catalog
from rulesdoc.i18n.verdicts import Status
from rulesdoc.io import files
from rulesdoc.io.project import Project
from rulesdoc.pages.rebuild_memory import Memory, digest, folder_stamp, stamp
from rulesdoc.pages.render import STATUS_PAGE, LanguageResult, Workspace
from rulesdoc.site import helper

# Where mkdocs.yml has no site_name (render alone needs none; every engine requires one).
DEFAULT_SITE_NAME = "Help"


def site_name_of(project: Project) -> str:
    """The project's own site name, mkdocs.yml's ``site_name``: a message translators translate
    (the theme's extractor takes it from there), shown in the header, logo title and <title>."""
    return config_texts(project).site_name


@dataclass(frozen=True)
class ConfigTexts:
    """mkdocs.yml's texts a reader sees, as written there (None: not given)."""

    site_name: str
    copyright: str | None = None  # HTML, by the theme's design
    repo_name: str | None = None


def config_texts(project: Project) -> ConfigTexts:
    from rulesdoc.site.config_file import read_config

    config = read_config(project.root / "mkdocs.yml")
    name, notice, repo = (config.get(key) for key in ("site_name", "copyright", "repo_name"))
    return ConfigTexts(
        site_name=name if isinstance(name, str) and name.strip() else DEFAULT_SITE_NAME,
        copyright=notice if isinstance(notice, str) and notice.strip() else None,
        repo_name=repo if isinstance(repo, str) and repo.strip() else None,
    )


@dataclass
class LanguageSite:
    """What one language's build needs, decided by the main build (its pages: see :func:`realize`)."""

    language: Language
    site_name: Markup
    strings: theme.ThemeStrings
    search: theme.SearchSettings
    pages: tuple[tuple[str, str], ...] = ()  # (name, Markdown), as the engine builds them: see engine_pages
    data: tuple[str, str] | None = None  # (stand-in, the calculator's JSON) its finished pages swap
    site_name_english: bool = False  # untranslated: the theme's chrome marks it lang="en"
    copyright: Markup | None = None  # the footer's notice, HTML (mkdocs.yml's; None: none given)
    repo_name: str | None = None  # the header's repository link, plain text (None: the engine's)
    repo_name_english: bool = False  # untranslated: marked lang="en" where the engine lets us

    def page_as_written(self, text: str) -> str:
        """A page of :attr:`pages` with the calculator's data in place of its stand-in: for an
        engine that does not finish pages through rulesdoc (``rulesdoc site-source``)."""
        return text.replace(*self.data) if self.data is not None else text

    def repo_name_html(self) -> Markup | None:
        """The repository's name escaped for the theme's header, marked English where untranslated."""
        if self.repo_name is None:
            return None
        if self.repo_name_english:
            return Markup('<span lang="en">%s</span>') % self.repo_name
        return escape(self.repo_name)


@dataclass(frozen=True)
class Judged:
    """A language's pages judged: what ``check`` reports of it, and why it cannot be published."""

    report: lint.Report
    failure: RulesdocError | None = None


@dataclass(frozen=True)
class Deferred:
    """What rendering and judging one more language needs: made by the main build, inherited by
    the language builds (forked workers), where each language is rendered and judged in parallel."""

    workspace: Workspace
    shared: lint.Shared
    strict: bool  # a language with errors is not built: the run will be refused


@dataclass
class Rendering:
    """Every language's site, prepared by the main build before anything is written."""

    sites: dict[str, LanguageSite]  # by language code, the source language first
    order: list[str]  # the codes in the order `check` reports them
    judged: dict[str, Judged] = field(default_factory=dict)  # by code, as each language is judged
    deferred: Deferred | None = None  # `mkdocs build`: the other languages are judged by their builds
    warnings: list[str] = field(default_factory=list)  # check's errors, when not strict; the gaps
    hidden: frozenset[str] = frozenset()  # below their check.yaml threshold: not in the switcher

    @property
    def offered(self) -> list[Language]:
        """The languages the switcher and the hreflang links offer."""
        return [site.language for site in self.sites.values() if site.language.code not in self.hidden]

    @property
    def languages(self) -> list[Language]:
        return [site.language for site in self.sites.values()]

    def partials(self) -> dict[str, str]:
        return {partial_name(s.language): s.strings.partial() for s in self.sites.values()}

    def report(self) -> lint.Report:
        """The checks' report of every published language, in ``check``'s order."""
        judged = [self.judged[code] for code in self.order if code in self.judged]
        return lint.Report(
            tuple(f for j in judged for f in j.report.findings),
            tuple(s for j in judged for s in j.report.summaries),
        )

    def settle(self, strict: bool) -> list[str]:
        """Refuse, when strict, every error ``check`` reports; raise the first language that cannot
        be published; return the warnings to show: the errors (a preview's), then the gaps."""
        report = self.report()
        if strict and report.errors:
            raise Refusal(
                f"{report.errors} error(s), as `rulesdoc check` reports them (the strict build refuses "
                "them):",
                report.error_lines(),
            )
        for code in self.sites:  # the first language, in the switcher's order, that cannot be published
            failure = self.judged[code].failure if code in self.judged else None
            if failure is not None:
                raise failure
        return report.error_lines() + report.gap_lines()


def language_root(language: Language) -> str:
    return "" if language.is_source else f"{language.tag}/"


def counterpart(here: Language, there: Language, page_url: str) -> str:
    """The URL of the same page in another language, relative to ``here``'s build root."""
    target = language_root(there) + page_url
    if here.is_source:
        return target or "./"
    return posixpath.join("..", target) if target else "../"


def page_url(name: str, directory_urls: bool) -> str:
    """A page's URL under its build's root, as MkDocs and Zensical make it."""
    stem = name[: -len(".md")] if name.endswith(".md") else name
    if not directory_urls:
        return stem + ".html"
    if stem == "index" or stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def relative_to_page(link: str, url: str) -> str:
    """A build-root-relative ``link`` as seen from the page at ``url``."""
    folder = posixpath.dirname(url)
    if not folder:
        return link
    return posixpath.relpath(link, folder) + ("/" if link.endswith("/") else "")


def language_link(directory_urls: bool, here: Language, there: Language, page: str, anchor: str) -> str:
    """From ``here``'s translation status page, the address of ``page`` of ``there``'s build at
    the heading ``anchor`` (the status page's links to another language's pages)."""
    target = counterpart(here, there, page_url(page, directory_urls))
    link = relative_to_page(target, page_url(STATUS_PAGE + ".md", directory_urls))
    return link + (f"#{anchor}" if anchor else "")


def partial_name(language: Language) -> str:
    return f"partials/languages/{theme_language(language)}.html"


def theme_language(language: Language) -> str:
    """Our name for the language's theme strings partial (Material reads theme.language)."""
    return f"rulesdoc-{language.tag}"


def prepare(
    project: Project,
    codes: list[str],
    strict: bool,
    memory: Memory | None = None,
    defer: bool = False,
    directory_urls: bool = True,
) -> Rendering:
    """Read every language; render and judge them; raise the one-line error for unreadable input,
    and, when strict, every error ``check`` would report (:meth:`Rendering.settle`).

    ``memory`` (the preview's): render and judge again only the languages an edit changed.
    ``defer`` (``mkdocs build``): render and judge only the source language here; every other
    language is rendered and judged by its own build (:func:`realize`), in parallel, and the main
    build settles them all at its end (:meth:`Rendering.settle`), before anything is published.
    ``directory_urls``: the site's URL scheme, for the status page's links to another language.
    """
    from rulesdoc.i18n.translate import SOURCE, select_languages

    workspace = Workspace.load(project, memory=memory)
    workspace.language_link = functools.partial(language_link, directory_urls)
    published = select_languages(workspace.languages, codes)
    if SOURCE not in published:
        published.insert(0, SOURCE)
    policy = workspace.policy.publishing([language.code for language in published])
    texts = config_texts(project)
    sites = {language.code: _language_site(workspace, language, texts) for language in published}
    counts = {language.code: workspace.stats(language) for language in published if not language.is_source}
    hidden = frozenset(
        code for code, stats in counts.items() if not policy.offers(code, stats.in_language, stats.total)
    )
    # `check` reports languages in the workspace's order: so does the build.
    order = [language.code for language in workspace.languages if language.code in sites]
    # The source language's marked render, once, before the builds fork: each language's build then
    # places its own waiting messages, for its own status page's list.
    _ = workspace.page_keys()
    if defer and memory is None:
        deferred = Deferred(workspace, lint.share(workspace, policy, extract=helper.extracted), strict)
        rendering = Rendering(sites, order, deferred=deferred, hidden=hidden)
        realize(rendering, SOURCE.code)  # its checks also index every language's texts, for all
        return rendering
    results, changed, sources = _render(workspace, published, memory)
    sources_changed = memory is None or sources != memory.inputs
    rendering = Rendering(sites, order, hidden=hidden)
    judged = {
        s.code: lint.run([s])
        for s in lint.gather(workspace, policy, list(changed), None, results, sources_changed)
    }
    if memory is not None:
        # Remembered only once judged: a rebuild that failed (a glossary that cannot be read) is
        # judged, and its error reported, again by the next rebuild. A language kept from memory
        # keeps its last report too, so each rebuild reports every language's errors.
        for code, fingerprint in changed.items():
            memory.renders[code] = (fingerprint, results[code], judged.get(code, lint.Report((), ())))
        judged.update({code: memory.renders[code][2] for code in results if code not in changed})  # type: ignore[misc]
        memory.inputs = sources
    for code, result in results.items():
        sites[code].pages, sites[code].data = engine_pages(result)
        rendering.judged[code] = Judged(judged.get(code, lint.Report((), ())), result.error)
    rendering.warnings = rendering.settle(strict)
    return rendering


def engine_pages(result: LanguageResult) -> tuple[tuple[tuple[str, str], ...], tuple[str, str] | None]:
    """A language's pages as the engine builds them, and the data its finished pages swap back.

    The calculator's data block (JSON for its script, some 7 KB a language) is data, not Markdown:
    the engine's Markdown and HTML passes, and ours on each finished page, would read it for
    nothing. The engine gets a stand-in (letters and digits, which Markdown and the theme pass as
    they are), replaced by the JSON as each page is finished (:func:`rulesdoc.site.chrome.
    finish_page`), so the page is byte for byte what the JSON in the Markdown gave."""
    data = result.calculator
    if not data or not any(data in page.text for page in result.pages):
        return tuple((page.name, page.text) for page in result.pages), None
    number = 0  # a stand-in no page holds already, so that only the data is swapped back
    while any(f"rulesdoc-calculator-data-{number}" in page.text for page in result.pages):
        number += 1
    stand_in = f"rulesdoc-calculator-data-{number}"
    return tuple((page.name, page.text.replace(data, stand_in)) for page in result.pages), (stand_in, data)


def realize(rendering: Rendering, code: str) -> Judged:
    """Render and judge one language of a deferred rendering (in its build's process)."""
    if rendering.deferred is None:
        raise RuntimeError(f"{code}: realize() needs a deferred rendering")
    workspace, shared = rendering.deferred.workspace, rendering.deferred.shared
    site = rendering.sites[code]
    try:
        result = workspace.render([site.language])[code]
        site.pages, site.data = engine_pages(result)
        judged = Judged(lint.run([lint.subject(shared, site.language, result)]), result.error)
    except RulesdocError as error:  # an input of its checks (its glossary) cannot be read
        judged = Judged(lint.Report((), ()), error)
    rendering.judged[code] = judged
    return judged


def _render(
    workspace: Workspace, languages: list[Language], memory: Memory | None
) -> tuple[dict[str, LanguageResult], dict[str, str], str]:
    """Every language's pages; with the preview's memory, a language whose inputs did not change
    keeps its last pages. Returns them, the codes rendered now with the fingerprint of their
    inputs, and the fingerprint of the sources (rules, templates, configuration)."""
    if memory is None:
        return workspace.render(languages), {language.code: "" for language in languages}, ""
    project = workspace.project
    # The checks' own inputs too (the glossaries, check.yaml): a broken one is an error line in
    # the preview, not an edit the preview never sees.
    configuration = (
        project.pot, project.root / "babel.cfg", project.root / "mkdocs.yml",
        project.locales / "glossary.yaml", project.locales / "check.yaml",
    )  # fmt: skip
    sources = digest(
        files.read_bytes(project.rules, files.MAX_RULES_BYTES, project.root),
        folder_stamp(project.templates),
        *(stamp(path) for path in configuration),
    )
    status = workspace.status
    results: dict[str, LanguageResult] = {}
    changed: dict[str, str] = {}
    for language in languages:
        catalog = stamp(language.catalog.path) if language.catalog is not None else None
        glossary = stamp(project.locales / language.code / "glossary.yaml")
        fingerprint = digest(sources, catalog, glossary, status)
        known = memory.renders.get(language.code)
        if known is not None and known[0] == fingerprint:
            results[language.code] = known[1]  # type: ignore[assignment]
            continue
        results.update(workspace.render([language]))
        changed[language.code] = fingerprint
    return results, changed, sources


def theme_texts(workspace: Workspace, language: Language, texts: ConfigTexts) -> dict[str, str]:
    """What each theme message shows as in the language's built site, by its English source: our
    translation, Material's, or English, as plain text ("Made with %(name)s" with its link's text)."""
    values = _language_site(workspace, language, texts).strings.values
    shown = {}
    for message in theme.messages():
        text = values.get(message.key)
        if text:
            shown[message.english] = " ".join(html.unescape(re.sub(r"<[^<>]*>", "", text)).split())
    return shown


def _language_site(workspace: Workspace, language: Language, texts: ConfigTexts) -> LanguageSite:
    verdicts = workspace.verdicts.get(language.code)
    if verdicts is None:
        verdicts = judge_catalog(language.catalog, {}) if language.catalog is not None else {}
    translate = Translator(language, verdicts, mark_fallbacks=False)
    translated: dict[str, str | None] = {}
    for message in theme.messages():
        key = (message.english, THEME_CONTEXT)
        translated[message.english] = translate.table[key][0] if key in translate.table else None
        verdict = verdicts.get(key)
        if verdict is not None and verdict.status is Status.UNREVIEWED and language.catalog is not None:
            entry = language.catalog.catalog.get(*key)  # Material's own translation: shown meanwhile
            translated[message.english] = str(entry.string) if entry is not None else None
    strings = theme.theme_strings(language.tag, language.direction, translated)
    site_name = theme.config_message("site_name", texts.site_name) or texts.site_name  # as extracted
    name = translate.plain(site_name)
    repo_name = theme.config_message("repo_name", texts.repo_name)
    return LanguageSite(
        language=language,
        site_name=Markup(escape(name)),
        strings=strings,
        search=theme.search_settings(language.locale, language.tag),
        site_name_english=_english(translate, site_name),
        copyright=_copyright(translate, texts.copyright),
        repo_name=translate.plain(repo_name) if repo_name else None,
        repo_name_english=bool(repo_name) and _english(translate, repo_name),
    )


def _english(translate: Translator, message: str | None) -> bool:
    """Whether a message of mkdocs.yml shows in English where the page's language is another."""
    return not translate.language.is_source and (message, None) not in translate.table


def _copyright(translate: Translator, written: str | None) -> Markup | None:
    """The footer's notice: mkdocs.yml's HTML in the source language and where it is no message
    (it has tags); otherwise its translation, as text."""
    message = theme.config_message("copyright", written)
    if written is None or message is None or translate.language.is_source:
        return Markup(written) if written is not None else None
    if _english(translate, message):
        return Markup('<span lang="en">%s</span>') % Markup(written)
    return escape(translate.plain(message))

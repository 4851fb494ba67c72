"""Everything the checks read, gathered once: the workspace the build uses, its render,
a fresh extraction, the glossaries and the policy. No check reads a file itself."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages.catalog import Catalog, Message

from rulesdoc.catalog import layout
from rulesdoc.catalog.po import Key, forms, ids, key_of
from rulesdoc.errors import Location, RulesdocError, display_path, short
from rulesdoc.i18n import extraction
from rulesdoc.i18n.policy import Policy
from rulesdoc.i18n.stats import CatalogStats
from rulesdoc.i18n.translate import SOURCE, Language
from rulesdoc.i18n.verdicts import Verdict
from rulesdoc.io import files, yamlload
from rulesdoc.lint.model import Finding, Severity
from rulesdoc.localedata.cldr import SOURCE_LANGUAGE
from rulesdoc.pages.render import LanguageResult, Workspace

GLOSSARY_NAME = "glossary.yaml"


@dataclass(frozen=True)
class Shared:
    """What every language's checks see."""

    workspace: Workspace
    policy: Policy
    extracted: Catalog | None  # what extraction gives now (None: not asked for)
    concepts: Mapping[str, tuple[str, ...]]  # locales/glossary.yaml: concept → English forms
    pages_dir: Path | None
    # Every language's usable texts per message, the source's being the msgid itself:
    # what may (and may not) appear on each page.
    texts: Mapping[str, Mapping[Key, tuple[str, ...]]] = field(default_factory=dict)
    # texts by their first two words, for the foreign-text check: filled on first use
    pair_index: dict[tuple[str, str], list[tuple[str, Key, str, str]]] = field(default_factory=dict)
    empty_folders: tuple[Path, ...] = ()  # language folders under locales/ holding no file
    # each language's usable messages (the source language has none): what the content checks read
    usable: Mapping[str, tuple[Message, ...]] = field(default_factory=dict)
    # the glossary concepts each source message speaks of, by its msgids: filled on first use
    concepts_in: dict[tuple[str, ...], tuple[str, ...]] = field(default_factory=dict)

    @property
    def template_path(self) -> Path:
        return self.workspace.project.pot


@dataclass(frozen=True)
class Subject:
    """One language: everything its checks need."""

    language: Language
    shared: Shared
    verdicts: Mapping[Key, Verdict]
    result: LanguageResult | None
    glossary: Mapping[str, tuple[str, ...]] | None = None
    glossary_path: Path | None = None
    severity: Severity = Severity.ERROR  # the running check's default (the runner sets it)

    @property
    def code(self) -> str:
        return self.language.code

    @property
    def is_source(self) -> bool:
        return self.language.is_source

    @property
    def shown_path(self) -> str:
        if self.language.catalog is not None:
            return self.language.catalog.shown
        return display_path(self.shared.template_path)

    @property
    def stats(self) -> CatalogStats:
        return self.shared.workspace.stats(self.language)

    def finding(
        self,
        message: str,
        entry: Message | None = None,
        *,
        severity: Severity | None = None,
        path: Path | str | None = None,
        line: int | None = None,
        msgid: str = "",
        detail: str = "",
    ) -> Finding:
        """A finding about this language (``severity``: the check's unless given); nothing the site
        does not publish is more than a warning."""
        severity = severity or self.severity
        if not self.shared.policy.publishes(self.code):
            severity = Severity.WARNING
        shown = display_path(path) if isinstance(path, Path) else path or self.shown_path
        if line is None and entry is not None and path is None:
            line = entry.lineno  # Babel's: the entry's msgid line
        return Finding(
            severity=severity,
            locale=self.code,
            path=shown,
            line=line,
            msgid=msgid or (ids(entry)[0] if entry is not None else ""),
            message=" ".join(message.split()),
            detail=detail,
        )

    def messages(self) -> Iterator[Message]:
        """The catalog's entries, header and obsolete ones left out."""
        return self.language.catalog.messages() if self.language.catalog else iter(())

    def usable_messages(self) -> Iterator[Message]:
        """The translations the page uses: what content checks (terminology...) look at; sorted out
        once a run (a dozen checks read them)."""
        return iter(self.shared.usable.get(self.code, ()))


def gather(
    workspace: Workspace,
    policy: Policy,
    codes: Sequence[str] | None = None,
    pages_dir: Path | None = None,
    results: Mapping[str, LanguageResult] | None = None,
    extract_sources: bool = True,
    source: bool = True,
) -> list[Subject]:
    """The subjects to check: the source language and the chosen catalogs (None: every one);
    ``lint.run(gather(...))`` is what ``check`` and the strict build both do.

    ``results``: a render the caller already made (the build's); otherwise one is made here.
    ``source``: include the source language (messages.pot's checks).
    """
    shared = share(workspace, policy, pages_dir, extract_sources)
    chosen = ([SOURCE] if source else []) + [language for language in workspace.languages if (
        not language.is_source and (codes is None or language.code in codes))]  # fmt: skip
    if results is None:
        results = workspace.render(chosen)
    return [subject(shared, language, results.get(language.code)) for language in chosen]


def share(
    workspace: Workspace,
    policy: Policy,
    pages_dir: Path | None = None,
    extract_sources: bool = True,
    extract: Callable[[Path], Catalog] = extraction.extract,
) -> Shared:
    """What every language's checks read; ``extract_sources``: extract the sources to compare with
    messages.pot (``extract``: how; the site build's helper process may have done it already)."""
    root = workspace.project.root
    if workspace.template is None:
        raise RulesdocError(
            "messages.pot not found: run `rulesdoc catalog extract`",
            Location(display_path(workspace.project.pot)),
        )
    if pages_dir is not None and not pages_dir.is_dir():
        raise RulesdocError("pages folder not found", Location(display_path(pages_dir)))
    concepts = read_glossary(workspace.project.locales / GLOSSARY_NAME, "English forms", root) or {}
    usable = _usable(workspace)
    return Shared(
        workspace=workspace,
        policy=policy,
        extracted=extract(root) if extract_sources else None,
        concepts=concepts,
        pages_dir=pages_dir,
        texts=_texts(workspace, usable),
        empty_folders=tuple(layout.empty_folders(workspace.project.locales)),
        usable=usable,
    )


def subject(shared: Shared, language: Language, result: LanguageResult | None) -> Subject:
    """One language to check, with its glossary and its render."""
    workspace = shared.workspace
    glossary_path = workspace.project.locales / language.code / GLOSSARY_NAME
    glossary = (
        None if language.is_source else read_glossary(glossary_path, "accepted terms", workspace.project.root)
    )
    return Subject(
        language, shared, workspace.verdicts.get(language.code, {}), result, glossary, glossary_path
    )


def _usable(workspace: Workspace) -> dict[str, tuple[Message, ...]]:
    """Each catalog's entries its verdicts let the pages use."""
    found = {}
    for language in workspace.languages:
        if language.catalog is None:
            continue
        verdicts = workspace.verdicts.get(language.code, {})
        found[language.code] = tuple(
            message
            for message in language.catalog.messages()
            if (verdict := verdicts.get(key_of(message))) is not None and verdict.usable
        )
    return found


def _texts(
    workspace: Workspace, usable: Mapping[str, tuple[Message, ...]]
) -> dict[str, dict[Key, tuple[str, ...]]]:
    texts: dict[str, dict[Key, tuple[str, ...]]] = {}
    if workspace.template is not None:
        texts[SOURCE_LANGUAGE] = {key_of(m): ids(m) for m in workspace.template.messages()}
    for code, messages in usable.items():
        texts[code] = {key_of(m): forms(m.string) for m in messages}
    return texts


def read_glossary(path: Path, what: str, root: Path | None = None) -> dict[str, tuple[str, ...]] | None:
    """``concept: [form, ...]``; None when the file does not exist."""
    if not os.path.lexists(path):  # a dangling or looping symlink is an error, not "no glossary"
        return None
    where = Location(display_path(path))
    # The bounded loader: a syntax error is one line naming its line; deep nesting is refused.
    data = yamlload.load(
        files.read_text(path, files.MAX_CONFIG_BYTES, root, utf8_bom=True), yamlload.Source(where.path)
    )
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise RulesdocError(f"a glossary maps each concept to a list of {what}", where)
    glossary: dict[str, tuple[str, ...]] = {}
    for concept, found in data.items():
        if isinstance(found, str):
            found = [found]
        if not isinstance(found, list) or not all(isinstance(f, str) and f.strip() for f in found):
            raise RulesdocError(f"glossary concept {short(concept)!r}: expected a list of {what}", where)
        glossary[str(concept)] = tuple(f.strip() for f in found)
    return glossary

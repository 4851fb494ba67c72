"""The templates' Jinja environment: one per run, shared by every language's render.

Its loader reads templates as project input (bounded, regular files, UTF-8 without a byte order
mark); its globals are what every language's pages share; :func:`page_templates` lists the pages
and :func:`plural_counts` finds, for each plural message, the placeholder that prints its count.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import jinja2
from jinja2 import nodes

from rulesdoc.engine.model import Reason
from rulesdoc.errors import Location, RulesdocError, display_path
from rulesdoc.i18n.jinja_internals import OneParseEnvironment
from rulesdoc.i18n.markup import escape_text, quote_english
from rulesdoc.i18n.translate import capitalise_first
from rulesdoc.io import files
from rulesdoc.pages import compiled

PAGE_SUFFIX = ".md.j2"


class _Loader(jinja2.FileSystemLoader):
    """Templates are project input: bounded in size, regular files, UTF-8 without a byte order mark
    (Jinja would copy UTF-8's into every page; a UTF-16 one is named, other bytes by line)."""

    def get_source(self, env: jinja2.Environment, template: str) -> tuple[str, str, Callable[[], bool]]:
        try:
            source, filename, uptodate = super().get_source(env, template)
        except UnicodeDecodeError as error:
            files.strip_bom(error.object[:4], display_path(Path(self.searchpath[0]) / template), "template ")
            raise
        path = Path(filename)
        files.strip_bom(source[:1].encode(), display_path(path), "template ")
        if len(source) > files.MAX_TEMPLATE_BYTES or not path.is_file():
            files.read_bytes(path, files.MAX_TEMPLATE_BYTES, what="template")  # raises the one-line error
        return source, filename, uptodate


def make_environment(templates: Path) -> jinja2.Environment:
    # The run's one parse of each template serves its compiling and its extraction (babel.cfg
    # gives the extraction these settings); Jinja's optimizer is off, as it would rewrite that
    # parse (and folds next to nothing in these templates: their values come from the context).
    env = OneParseEnvironment(
        loader=_Loader(str(templates)),
        extensions=["jinja2.ext.i18n"],
        undefined=jinja2.StrictUndefined,
        autoescape=False,  # Markdown out; translations are escaped by the Translator instead
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        optimized=False,
        bytecode_cache=compiled.code_cache(),  # compiled code kept between runs
    )
    env.policies["ext.i18n.trimmed"] = True
    # New-style gettext, as every render installs it (render.py): set before anything is compiled,
    # as it decides the code (and the parse) of a {% trans %} block.
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    # The same for every language: the rules' reasons, and the escapes for text a template quotes.
    env.globals.update(
        R=Reason, capitalise_first=capitalise_first, escape_text=escape_text, quote_english=quote_english
    )
    return env


def page_templates(templates: Path) -> list[str]:
    """Every page template: ``*.md.j2`` not starting with ``_`` (partials and macros)."""
    if not templates.is_dir():
        raise RulesdocError("templates folder not found", Location(display_path(templates)))
    return sorted(p.name for p in templates.glob(f"*{PAGE_SUFFIX}") if not p.name.startswith("_"))


def plural_counts(env: jinja2.Environment, templates: Path) -> dict[str, str]:
    """For each plural message of the templates, the placeholder that prints the count.

    ``ngettext("%(low)s point ...", "...", f.ace_low, low=num(f.ace_low))``: the count is
    ``f.ace_low``, so ``low`` prints it (Jinja also passes the count as ``num``). A form
    used for exactly one number may then spell the count out instead of printing it.
    """
    found: dict[str, str] = {}
    for path in sorted(templates.rglob("*.j2")):
        try:
            # Bounded, a regular file (not a symlink to /dev/zero): as the template loader reads it.
            tree = env.parse(files.read_text(path, files.MAX_TEMPLATE_BYTES, templates.parent))
        except (jinja2.TemplateSyntaxError, RulesdocError):
            continue  # rendering reports it
        for call in tree.find_all(nodes.Call):
            if not isinstance(call.node, nodes.Name) or call.node.name not in ("ngettext", "npgettext"):
                continue
            first = 1 if call.node.name == "npgettext" else 0
            if len(call.args) < first + 3:
                continue
            singular = call.args[first]
            if not isinstance(singular, nodes.Const):
                continue
            counted = call.args[first + 2]
            names = [kw.key for kw in call.kwargs if kw.value == counted or any(
                node == counted for node in kw.value.find_all(type(counted))
            )]  # fmt: skip
            found[str(singular.value)] = names[0] if len(names) == 1 else "num"
    return found


class LazyCounts(Mapping[str, str]):
    """:func:`plural_counts`, worked out on first use: a catalog whose plural forms all print
    their count never needs the templates parsed for it."""

    def __init__(self, env: jinja2.Environment, templates: Path) -> None:
        self.env, self.templates = env, templates
        self._found: dict[str, str] | None = None

    def _counts(self) -> dict[str, str]:
        if self._found is None:
            self._found = plural_counts(self.env, self.templates)
        return self._found

    def __getitem__(self, msgid: str) -> str:
        return self._counts()[msgid]

    def __iter__(self) -> Iterator[str]:
        return iter(self._counts())

    def __len__(self) -> int:
        return len(self._counts())

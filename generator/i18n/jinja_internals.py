"""The Jinja seam: the one module that relies on private Jinja names.

Two uses: the template line that asked for a message, and one parse of a template a run for
both its compiling and its extraction. (The site's preview, which once deleted templates from
the private ``Environment.cache``, uses the public ``auto_reload`` now.)

A message a catalog lacks is recorded with the template line that asked for it (``check``
names it: "missing in da, asked at templates/index.md.j2:12"). Jinja has no public way to
know, at run time, which template line is executing: ``@pass_context`` gives a gettext
callable the :class:`jinja2.runtime.Context`, whose ``name`` is the template being rendered
(for a block inherited through ``{% extends %}``, the child's, not the file the block is
written in) and no line at all. The line is only in the stack: Jinja compiles each template
to a Python module whose globals hold ``__jinja_template__`` (the :class:`jinja2.Template`,
private: Jinja's own traceback rewriting, ``jinja2/debug.py``, reads it the same way), and
the public ``Template.get_corresponding_lineno`` maps the compiled code's line back to the
template's. If ``__jinja_template__`` goes: misses are still shown in English and counted,
but without the line (``where`` is None); :data:`ASSUMPTIONS` says so first.

The stack is read with :func:`inspect.currentframe` (public), not ``sys._getframe``. A catalog
that lacks every message asks this once per message and language, from the same few hundred
template lines: each template's answers are kept beside it (weakly: they go with the template,
whose environment is one run's or one preview rebuild's), so the line map is read once per line.

**One parse a run.** A build, ``check`` or ``render`` on an empty cache compiles each template
(Jinja lexes, parses and generates code) and extracts its messages for the stale check (Jinja's
extractor, ``jinja2.ext.babel_extract``, lexes and parses it again, then lexes it a third time
for the translators' comments). :func:`parse` lexes and parses a text once and keeps the tree and
the lexer's tokens, by the text and the settings that decide them (:func:`parse_settings`), for
the run's other user: :class:`OneParseEnvironment` compiles from it, and the extraction
(:mod:`rulesdoc.i18n.extraction`) reads its messages and comments from it. The private names:

- ``Environment._parse(source, name, filename)``: what ``Environment.compile`` and ``parse`` call
  to parse a text; overridden. If renamed: templates are parsed as before, twice a run.
- ``jinja2.ext._CommentFinder(tokens, tags).find_comments(line)``: how Jinja's extractor finds a
  message's translator comment in the lexer's tokens; :func:`comments` uses it so that the
  comments are found exactly as Jinja finds them. If it changes: the extraction differs from
  Jinja's, which :data:`ASSUMPTIONS` checks (the same messages and comments as babel_extract).
- ``Environment.lexer``'s ``tokeniter`` and ``wrap``, then each extension's ``filter_stream``
  (what ``Environment._tokenize`` does): the tokens are kept as the parser pulls them. If they
  change: the kept tokens or tree differ from Jinja's, which :data:`ASSUMPTIONS` checks.
- The tree is compiled, then read by the extraction: compiling with ``optimized=False`` leaves it
  as parsed (Jinja's optimizer, off, is what rewrites a tree). Checked in :data:`ASSUMPTIONS`.
"""

from __future__ import annotations

import functools
import inspect
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import jinja2
import jinja2.ext
from jinja2 import nodes
from jinja2.lexer import TokenStream
from jinja2.parser import Parser

from rulesdoc.errors import Location, display_path
from rulesdoc.seam import Assumption, SeamChanged, holds, installed

LIBRARY = "jinja2"
_TEMPLATE_GLOBAL = "__jinja_template__"  # set by jinja2.Template._from_namespace


# Per template, its compiled lines already asked about -> the template line, as a Location.
_KNOWN: weakref.WeakKeyDictionary[Any, dict[int, Location]] = weakref.WeakKeyDictionary()


def asking_template() -> Location | None:
    """The innermost template line on the stack, or None when no template is running."""
    frame = inspect.currentframe()
    while frame is not None:
        template = frame.f_globals.get(_TEMPLATE_GLOBAL)
        if template is not None and template.filename:
            known = _KNOWN.setdefault(template, {})
            where = known.get(frame.f_lineno)
            if where is None:
                shown = next(iter(known.values())).path if known else display_path(template.filename)
                where = known[frame.f_lineno] = Location(
                    shown, template.get_corresponding_lineno(frame.f_lineno)
                )
            return where
        frame = frame.f_back
    return None


# ---------------------------------------------------------------- one parse a run

Token = tuple[int, str, str]  # the lexer's (line, type, value), comments included


@dataclass(frozen=True)
class Parsed:
    tree: nodes.Template
    tokens: tuple[Token, ...]  # every token the lexer made of the text, in order


def parse_settings(env: jinja2.Environment) -> tuple[object, ...] | None:
    """What, besides the text, decides the tree and tokens Jinja makes of it: the lexer's
    settings, the extensions (their tags and token filters) and what the i18n extension reads
    while parsing; None for an extension other than Jinja's own, whose parsing this cannot tell."""
    extensions = sorted(f"{type(ext).__module__}.{type(ext).__qualname__}" for ext in env.extensions.values())
    if any(not name.startswith("jinja2.ext.") for name in extensions):
        return None
    return (
        env.block_start_string, env.block_end_string, env.variable_start_string, env.variable_end_string,
        env.comment_start_string, env.comment_end_string, env.line_statement_prefix, env.line_comment_prefix,
        env.trim_blocks, env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
        tuple(extensions), getattr(env, "newstyle_gettext", None), env.policies.get("ext.i18n.trimmed"),
    )  # fmt: skip


# The run's parses, newest last: a few templates, each wanted by two users. Bounded in number
# and in text, so that a long preview never holds more than a few templates' trees.
_PARSED: OrderedDict[tuple[tuple[object, ...], str], Parsed] = OrderedDict()
_KEPT_PARSES, _KEPT_CHARACTERS = 32, 4_000_000
_parsed_lock = threading.Lock()  # a preview rebuilds in its server's thread


def parse(
    env: jinja2.Environment, source: str, name: str | None = None, filename: str | None = None
) -> Parsed:
    """The tree and tokens of ``source`` as ``env`` parses it, made once for environments
    that parse alike. A syntax error is raised as Jinja's parser raises it (nothing is kept)."""
    settings = parse_settings(env)
    key = (settings, source) if settings is not None else None
    if key is not None:
        with _parsed_lock:
            found = _PARSED.get(key)
        if found is not None:
            return found
    made = _parse_once(env, source, name, filename)
    if key is not None:
        with _parsed_lock:
            _PARSED[key] = made
            while len(_PARSED) > _KEPT_PARSES or sum(len(text) for _, text in _PARSED) > _KEPT_CHARACTERS:
                _PARSED.popitem(last=False)
    return made


def _parse_once(env: jinja2.Environment, source: str, name: str | None, filename: str | None) -> Parsed:
    """Jinja's own parse (``Environment._tokenize``'s steps, then its parser), keeping the
    lexer's tokens as the parser pulls them: an error is met where Jinja's parse meets it."""
    tokens: list[Token] = []

    def kept(made: Iterator[Token]) -> Iterator[Token]:
        for token in made:
            tokens.append(token)
            yield token

    text = env.preprocess(source, name, filename)
    stream: Any = TokenStream(
        env.lexer.wrap(kept(env.lexer.tokeniter(text, name, filename)), name, filename), name, filename
    )
    for extension in env.iter_extensions():
        stream = extension.filter_stream(stream)
        if not isinstance(stream, TokenStream):
            stream = TokenStream(stream, name, filename)
    parser = Parser(env, source, name, filename)  # lexes its own first token: a few steps, dropped
    parser.stream = stream  # the extensions' API: a parser reads its stream
    tree = parser.parse()
    return Parsed(tree, tuple(tokens))


def comments(tokens: Sequence[Token], tags: Sequence[str]) -> Callable[[int], list[str]]:
    """For each message line, in order, its translator comments, as Jinja's extractor finds them:
    a callable taking the line."""
    return jinja2.ext._CommentFinder(tokens, tags).find_comments


class OneParseEnvironment(jinja2.Environment):
    """Compiles a template's text from the run's one parse of it (:func:`parse`)."""

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        return parse(self, source, name, filename).tree


# Jinja's extractor options (jinja2.ext.babel_extract) read here; a babel.cfg giving any other
# (other delimiters, line prefixes, extensions) is extracted by Jinja's extractor itself.
_FLAGS = ("trimmed", "trim_blocks", "lstrip_blocks", "keep_trailing_newline", "newstyle_gettext")
_READ = {*_FLAGS, "silent", "encoding", "extensions"}
_I18N = {
    "",
    "jinja2.ext.i18n",
    "jinja2.ext.InternationalizationExtension",
    "jinja2.ext:InternationalizationExtension",
}


def _on(options: dict[str, str], key: str, default: bool = False) -> bool:
    return options.get(key, str(default)).lower() in {"1", "on", "yes", "true"}  # as babel_extract reads it


@functools.lru_cache(maxsize=8)
def _extraction_environment(flags: frozenset[str]) -> jinja2.Environment:
    """The environment Jinja's extractor makes for these options (the i18n extension, Jinja's
    defaults but the flags); kept: one a run, not one a template."""
    env = jinja2.Environment(
        trim_blocks="trim_blocks" in flags,
        lstrip_blocks="lstrip_blocks" in flags,
        keep_trailing_newline="keep_trailing_newline" in flags,
        extensions=["jinja2.ext.i18n"],
        cache_size=0,
        auto_reload=False,
    )
    env.policies["ext.i18n.trimmed"] = "trimmed" in flags
    env.newstyle_gettext = "newstyle_gettext" in flags  # type: ignore[attr-defined]
    return env


def extract(
    fileobj: BinaryIO, keywords: Sequence[str], comment_tags: Sequence[str], options: dict[str, str]
) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Jinja's extractor (``jinja2.ext.babel_extract``, Babel's method ``jinja2``), reading the
    run's one parse of the template (:func:`parse`): a build that compiles the template too
    parses it once. The same messages and comments as Jinja's (checked in :data:`ASSUMPTIONS`)."""
    extensions = {name.strip() for name in options.get("extensions", "").split(",")}
    if set(options) - _READ or extensions - _I18N:
        from jinja2.ext import babel_extract

        yield from babel_extract(fileobj, keywords, comment_tags, options)
        return
    env = _extraction_environment(frozenset(flag for flag in _FLAGS if _on(options, flag)))
    source = fileobj.read().decode(options.get("encoding", "utf-8"))
    try:
        parsed = parse(env, source)
    except jinja2.TemplateSyntaxError:
        if not _on(options, "silent", True):
            raise
        return  # as Jinja's extractor: a template that does not parse is skipped
    find = comments(parsed.tokens, comment_tags)
    for line, function, message in jinja2.ext.extract_from_ast(parsed.tree, keywords):
        yield line, function, message, find(line)


# ---------------------------------------------------------------- assumptions (tests/test_seams.py)


def _template_line_on_stack() -> None:
    """A compiled template's frames carry __jinja_template__ (the Template, with its filename), and
    Template.get_corresponding_lineno maps the frame's line to the template line that is running."""
    import tempfile
    from pathlib import Path

    source = "{% macro m() %}\n{{ ask() }}\n{% endmacro %}\nfirst line\n{{ m() }}\n{{ ask() }}\n"
    asked: list[Location | None] = []
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "probe.j2").write_text(source, encoding="utf-8")
        env = jinja2.Environment(loader=jinja2.FileSystemLoader(folder))

        def ask() -> str:
            asked.append(asking_template())
            return ""

        env.globals["ask"] = ask
        env.get_template("probe.j2").render()
    found = [(Path(where.path).name, where.line) if where else None for where in asked]
    if found != [("probe.j2", 2), ("probe.j2", 6)]:
        raise SeamChanged(
            f"a template's frames no longer give its file and line through {_TEMPLATE_GLOBAL} (got {found})"
        )


_PROBE = """{#- Translators: a heading. -#}
{% set heading = _("Score your round") %}
{# Translators: the players. #}
{{ ngettext("%(num)s player", "%(num)s players", n) }} {{ pgettext("card kind", "the ace") }}
  {% if x %}
    {% trans count=n, who=name %}
      One round for {{ who }}.
    {% pluralize %}
      {{ count }} rounds for {{ who }}.
    {% endtrans %}
  {% endif %}
{{ npgettext("seat", "%(seat)s pays", "%(seats)s pay", m) }}{{ _("Total") }}
"""
_PROBE_OPTIONS: tuple[dict[str, str], ...] = (
    {},
    {"trimmed": "true"},
    {"trimmed": "true", "trim_blocks": "true", "lstrip_blocks": "true", "keep_trailing_newline": "true"},
    {"newstyle_gettext": "true", "silent": "false"},
)


def _extraction_as_jinjas() -> None:
    """jinja2.ext.babel_extract, given a template with translator comments, plurals, contexts and
    a trans block, finds the messages and comments the extraction from the one parse finds."""
    import io

    from jinja2.ext import babel_extract

    keywords = ("_", "gettext", "ngettext", "pgettext", "npgettext")
    for options in _PROBE_OPTIONS:
        data = _PROBE.encode()
        theirs = [
            (*found[:3], list(found[3]))
            for found in babel_extract(io.BytesIO(data), keywords, ["Translators:"], dict(options))
        ]
        ours = list(extract(io.BytesIO(data), keywords, ["Translators:"], dict(options)))
        holds(
            theirs and ours == theirs,
            f"the extraction differs from Jinja's with {options}: {ours} / {theirs}",
        )


def _compiling_keeps_the_tree() -> None:
    """Environment.compile of a text parses it through Environment._parse (the one parse), and with
    optimized=False leaves the tree as parsed (the extraction reads it after)."""
    env = OneParseEnvironment(extensions=["jinja2.ext.i18n"], optimized=False, trim_blocks=True)
    env.policies["ext.i18n.trimmed"] = True
    source = _PROBE + "{{ (1 + 2) * n }}{{ ('a' ~ 'b') ~ n }}{% for i in [1, 2] %}{{ i }}{% endfor %}\n"
    env.compile(source, "probe", "probe.j2")
    parsed = parse(env, source)
    holds(
        parsed.tree == Parser(env, source).parse(), "compiling rewrote the parsed tree, or compiled another"
    )
    holds(parsed.tokens == tuple(env.lex(env.preprocess(source))), "the kept tokens are not the lexer's")
    with _parsed_lock:
        _PARSED.clear()
    env.compile(source, "probe", "probe.j2")
    with _parsed_lock:
        holds(len(_PARSED) == 1, "Environment.compile no longer parses a text through Environment._parse")


ASSUMPTIONS: tuple[Assumption, ...] = tuple(
    Assumption.of(check)
    for check in (_template_line_on_stack, _extraction_as_jinjas, _compiling_keeps_the_tree)
)


def versions() -> str:
    return installed(LIBRARY)

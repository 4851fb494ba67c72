"""The Jinja seam: the one module that relies on private Jinja names.

Two uses: the template line that asked for a message (below), and :func:`forget_templates`,
which drops chosen templates from an environment's cache (the site's preview).

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

The stack is read with :func:`inspect.currentframe` (public), not ``sys._getframe``.
"""

from __future__ import annotations

import inspect
from collections.abc import Collection
from typing import Any

from generator.errors import Location, display_path
from generator.seam import Assumption, SeamChanged, installed

LIBRARY = "jinja2"
_TEMPLATE_GLOBAL = "__jinja_template__"  # set by jinja2.Template._from_namespace


def asking_template() -> Location | None:
    """The innermost template line on the stack, or None when no template is running."""
    frame = inspect.currentframe()
    while frame is not None:
        template = frame.f_globals.get(_TEMPLATE_GLOBAL)
        if template is not None and template.filename:
            return Location(
                display_path(template.filename), template.get_corresponding_lineno(frame.f_lineno)
            )
        frame = frame.f_back
    return None


def forget_templates(env: Any, names: Collection[str]) -> None:
    """Drop the compiled templates called ``names`` from ``env``'s cache, keeping the others.

    The preview's rebuild keeps one environment (Material's compiled templates) and replaces
    only the partials of the languages whose strings changed. Jinja offers no public way to
    forget one template: ``Environment.cache`` (private) is an LRU mapping keyed by
    ``(weakref to the loader, template name)``; if that key changes, the check below fails
    (and a rebuild would serve a language's old strings).
    """
    cache = env.cache
    if cache is None:
        return
    for key in list(cache.keys()):
        if key[1] in names:
            del cache[key]


# ---------------------------------------------------------------- assumptions (tests/test_seams.py)


def _template_line_on_stack() -> None:
    """A compiled template's frames carry __jinja_template__ (the Template, with its filename), and
    Template.get_corresponding_lineno maps the frame's line to the template line that is running."""
    import tempfile
    from pathlib import Path

    import jinja2  # only here: reading frames needs no Jinja import

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


def _cache_keyed_by_name() -> None:
    """Environment.cache holds a loaded template under a key whose second item is its name, and
    forget_templates makes the next get_template load it again."""
    import jinja2

    sources = {"a.j2": "one", "b.j2": "two"}
    # Sources that say they never change: only the cache decides what is loaded again.
    env = jinja2.Environment(loader=jinja2.FunctionLoader(lambda name: (sources[name], None, lambda: True)))
    env.get_template("a.j2"), env.get_template("b.j2")
    sources["a.j2"] = "changed"
    forget_templates(env, {"a.j2"})
    kept = env.get_template("b.j2") is env.get_template("b.j2")
    got = env.get_template("a.j2").render()
    if got != "changed" or not kept:
        raise SeamChanged(
            f"Environment.cache is no longer keyed by (loader, name): a forgotten template rendered {got!r}"
        )


ASSUMPTIONS: tuple[Assumption, ...] = tuple(
    Assumption.of(check) for check in (_template_line_on_stack, _cache_keyed_by_name)
)


def versions() -> str:
    return installed(LIBRARY)
